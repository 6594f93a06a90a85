"""`make lab` (the README's first command) starts JupyterLab on notebooks/index.ipynb,
serving the whole checkout so the index's links into ../exercises/ resolve; headless, the
URL it prints opens the index (not the Launcher: issue 27)."""
from __future__ import annotations

import json
import re
import os
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


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_serves_the_checkout_and_opens_the_index(tmp_path):
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    log = open(tmp_path / "lab.log", "w")
    proc = subprocess.Popen(
        ["make", "lab", f"PORT={port}",
         "LAB_ARGS=--no-browser --ServerApp.token= --ServerApp.ip=127.0.0.1"],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180          # first run may install the extras
        while True:                                # a page-load wait, not an assertion
            assert proc.poll() is None, (tmp_path / "lab.log").read_text()[-3000:]
            try:
                get_json(base + "/api/status")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                assert time.monotonic() < deadline, "JupyterLab did not start"
                time.sleep(1)
        index = get_json(base + "/api/contents/notebooks/index.ipynb?content=0")
        assert index["type"] == "notebook"
        exercises = get_json(base + "/api/contents/exercises/release")
        assert {e["name"] for e in exercises["content"]} >= {"horse", "woods"}
        # the URL a headless user copies from the log opens the index in JupyterLab
        printed = re.findall(rf"http://127\.0\.0\.1:{port}/\S*",
                             (tmp_path / "lab.log").read_text())
        assert printed, (tmp_path / "lab.log").read_text()[-2000:]
        assert printed[-1].split("?")[0] == f"{base}/lab/tree/notebooks/index.ipynb", printed
        with urllib.request.urlopen(printed[-1], timeout=10) as page:
            assert page.status == 200 and b"JupyterLab" in page.read()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
