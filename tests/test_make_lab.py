"""`make lab` (the README's first command) starts JupyterLab on notebooks/index.ipynb,
serving the whole checkout so the index's links into ../exercises/ resolve; headless, the
URL it prints opens the index (not the Launcher: issue 27).  `make lab-de` (or `make lab
LANG=de`) does the same in German: JupyterLab's German language pack chosen, the German
index opened (issue 31); the shell's own LANG chooses nothing."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
LOCALE_SETTING = "/lab/api/settings/@jupyterlab/translation-extension:plugin"


@contextlib.contextmanager
def running_lab(tmp_path: Path, *make_args: str, shell_lang: str | None = None):
    """``make lab ...`` started on a free port, headless and without a token; yields
    ``(base_url, log_path)`` once it answers, and stops it (its process group) after."""
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    if shell_lang is not None:
        env["LANG"] = shell_lang
    log_path = tmp_path / "lab.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        ["make", *make_args, f"PORT={port}",
         "LAB_ARGS=--no-browser --ServerApp.token= --ServerApp.ip=127.0.0.1"],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180          # first run may install the extras
        while True:                                # a page-load wait, not an assertion
            assert proc.poll() is None, log_path.read_text()[-3000:]
            try:
                get_json(base + "/api/status")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                assert time.monotonic() < deadline, "JupyterLab did not start"
                time.sleep(1)
        yield base, log_path
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def printed_urls(log_path: Path, base: str) -> list[str]:
    return re.findall(rf"{re.escape(base)}/\S*", log_path.read_text())


@needs_make
def test_make_lab_serves_the_checkout_and_opens_the_index(tmp_path):
    # a German shell (LANG=de_DE.UTF-8) is the programs' locale, not a choice of lessons
    with running_lab(tmp_path, "lab", shell_lang="de_DE.UTF-8") as (base, log_path):
        index = get_json(base + "/api/contents/notebooks/index.ipynb?content=0")
        assert index["type"] == "notebook"
        exercises = get_json(base + "/api/contents/exercises/release")
        assert {e["name"] for e in exercises["content"]} >= {"horse", "woods"}
        # the URL a headless user copies from the log opens the index in JupyterLab
        printed = printed_urls(log_path, base)
        assert printed, log_path.read_text()[-2000:]
        assert printed[-1].split("?")[0] == f"{base}/lab/tree/notebooks/index.ipynb", printed
        with urllib.request.urlopen(printed[-1], timeout=10) as page:
            assert page.status == 200 and b"JupyterLab" in page.read()
        # English JupyterLab: the language setting is JupyterLab's own default
        schema = get_json(base + LOCALE_SETTING)["schema"]
        assert schema["properties"]["locale"]["default"] == "default"


@needs_make
@pytest.mark.parametrize("command", [["lab-de"], ["lab", "LANG=de"]],
                         ids=["make lab-de", "make lab LANG=de"])
def test_make_lab_de_opens_the_german_index_in_a_german_jupyterlab(tmp_path, command):
    with running_lab(tmp_path, *command, shell_lang="C.UTF-8") as (base, log_path):
        printed = printed_urls(log_path, base)
        assert printed, log_path.read_text()[-2000:]
        assert printed[-1].split("?")[0] == f"{base}/lab/tree/notebooks/de/index.ipynb", printed
        # the German language pack is installed and chosen by default (binder/lab-de),
        # without a file in the user's own settings
        schema = get_json(base + LOCALE_SETTING)["schema"]
        assert schema["properties"]["locale"]["default"] == "de_DE"
        packs = get_json(base + "/lab/api/translations")["data"]
        assert "de_DE" in packs, sorted(packs)
        german = get_json(base + "/lab/api/translations/de_DE")["data"]
        assert german["jupyterlab"]["Settings"] == ["Einstellungen"]
    assert not (tmp_path / "config" / "lab").exists()


@needs_make
@pytest.mark.parametrize("args, shell_lang, url", [
    (["lab"], "de_DE.UTF-8", "/lab/tree/notebooks/index.ipynb"),
    (["lab", "LANG=en"], "C.UTF-8", "/lab/tree/notebooks/index.ipynb"),
    (["lab-de"], "C.UTF-8", "/lab/tree/notebooks/de/index.ipynb"),
])
def test_only_a_lang_on_makes_command_line_chooses_the_language(args, shell_lang, url):
    dry = subprocess.run(["make", "-n", *args], cwd=REPO, capture_output=True, text=True,
                         env=dict(os.environ, LANG=shell_lang))
    assert dry.returncode == 0, dry.stderr
    assert f"--LabApp.default_url={url}" in dry.stdout
    assert ("binder/lab-de" in dry.stdout) == ("/de/" in url)


@needs_make
def test_make_refuses_a_language_it_has_no_lessons_in():
    dry = subprocess.run(["make", "-n", "lab", "LANG=fr"], cwd=REPO, capture_output=True,
                         text=True)
    assert dry.returncode != 0 and "LANG=de" in dry.stderr
