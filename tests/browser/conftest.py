"""Fixtures for the real-browser tests: JupyterLab and Voila servers, headless Chromium.

* The servers are this venv's own (``sys.executable -m jupyterlab`` / ``-m voila``) on
  free localhost ports, without token or password, update checks, news and autosave
  off; each is started in its own process group and killed by that PID at teardown.
* JupyterLab's root is a temporary folder holding a *copy* of ``notebooks/`` and
  links to the rest of the checkout (with temporary Jupyter config, runtime,
  settings and workspace folders), so running notebooks in the browser never
  modifies a committed notebook.
* Chromium is Debian's ``/usr/bin/chromium`` driven by Playwright (never
  ``playwright install``).  Screenshots go to ``artifacts/`` (git-ignored).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
SERVER_START_TIMEOUT = 90       # seconds; the machine is shared, so be generous


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, proc: subprocess.Popen, log: Path, timeout: float) -> None:
    """Poll ``url`` until it answers 200 (a page-load wait: the only retry loop)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}:\n"
                               + log.read_text(errors="replace")[-3000:])
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {timeout} s:\n"
                       + log.read_text(errors="replace")[-3000:])


def wait_for_port(port: int, proc: subprocess.Popen, log: Path, timeout: float) -> None:
    """Wait until the server accepts connections (Voila executes the notebook only
    when the page is requested, so there is no cheap status URL to poll)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}:\n"
                               + log.read_text(errors="replace")[-3000:])
        with socket.socket() as s:
            s.settimeout(2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise RuntimeError(f"port {port} did not open within {timeout} s:\n"
                       + log.read_text(errors="replace")[-3000:])


def stop(proc: subprocess.Popen) -> None:
    """Stop the server and its kernels: SIGTERM to its process group, then SIGKILL."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)     # the group led by our server's PID
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


def start(cmd: list[str], log: Path, env: dict, cwd: Path) -> subprocess.Popen:
    out = open(log, "w")
    return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=str(cwd),
                            start_new_session=True)


def jupyter_env(base: Path) -> dict:
    """Temporary Jupyter folders, with lab settings: no autosave, no news, no update check."""
    env = dict(os.environ)
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                     ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                     ("JUPYTERLAB_WORKSPACES_DIR", "workspaces")):
        (base / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(base / sub)
    settings = base / "settings" / "@jupyterlab"
    for ext, name, value in (
            ("docmanager-extension", "plugin", {"autosave": False}),
            ("apputils-extension", "notification", {"fetchNews": "false",
                                                    "checkForUpdates": False}),
            ("notebook-extension", "tracker", {"kernelShutdown": True, "windowingMode": "none"})):
        (settings / ext).mkdir(parents=True, exist_ok=True)
        (settings / ext / f"{name}.jupyterlab-settings").write_text(json.dumps(value))
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def root_flag() -> list[str]:
    return ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    yield pg
    context.close()


def serve_lab(base: Path, *extra_args: str):
    """JupyterLab serving a temporary copy of ``notebooks/`` in ``base`` (a generator:
    yields ``(base_url, root)``, stops the server after)."""
    root = base / "root"
    root.mkdir()
    if (REPO / "notebooks").is_dir():
        shutil.copytree(REPO / "notebooks", root / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    # the rest of the checkout is linked (read-only use), so relative paths such as
    # ../exercises/ or ../kingdoms/<game>/data.toml resolve as in the repository
    for entry in REPO.iterdir():
        if entry.name not in ("notebooks", ".git", ".venv", "artifacts", "build") \
                and not entry.name.startswith(".pytest"):
            (root / entry.name).symlink_to(entry)
    port = free_port()
    log = base / "jupyterlab.log"
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--ServerApp.ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=",
           "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={root}",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.news_url=", "--LabApp.expose_app_in_browser=True",
           "--ServerApp.open_browser=False", *root_flag(), *extra_args]
    proc = start(cmd, log, jupyter_env(base), cwd=root)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/api/status", proc, log, SERVER_START_TIMEOUT)
        yield f"http://127.0.0.1:{port}", root
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """``(base_url, root)``: JupyterLab serving a temporary copy of ``notebooks/``."""
    pytest.importorskip("jupyterlab")
    yield from serve_lab(tmp_path_factory.mktemp("lab"))


@pytest.fixture(scope="module")
def lab_de(tmp_path_factory):
    """``(base_url, root)``: the same, in German as ``make lab-de`` starts it (JupyterLab's
    German language pack chosen by binder/lab-de/overrides.json)."""
    pytest.importorskip("jupyterlab")
    yield from serve_lab(tmp_path_factory.mktemp("lab-de"),
                         f"--LabApp.app_settings_dir={REPO / 'binder' / 'lab-de'}")


@pytest.fixture
def voila(tmp_path):
    """``voila(notebook) -> base_url``: a Voila server on a free port for one notebook."""
    pytest.importorskip("voila")
    procs = []

    def serve(notebook: Path) -> str:
        port = free_port()
        log = tmp_path / "voila.log"
        cmd = [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", "--Voila.open_browser=False",
               "--Voila.show_tracebacks=True"]
        proc = start(cmd, log, jupyter_env(tmp_path / "jupyter"), cwd=REPO)
        procs.append(proc)
        wait_for_port(port, proc, log, SERVER_START_TIMEOUT)
        return f"http://127.0.0.1:{port}"

    yield serve
    for proc in procs:
        stop(proc)


@pytest.fixture(scope="module")
def voila_apps(tmp_path_factory):
    """One Voila server for the whole apps/ folder (the class pages): its base URL;
    a page is ``{base}/voila/render/<game>.ipynb``."""
    pytest.importorskip("voila")
    base = tmp_path_factory.mktemp("voila-apps")
    port = free_port()
    log = base / "voila.log"
    cmd = [sys.executable, "-m", "voila", str(REPO / "apps"), "--no-browser",
           f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.open_browser=False",
           "--Voila.show_tracebacks=True"]
    proc = start(cmd, log, jupyter_env(base / "jupyter"), cwd=REPO)
    try:
        wait_for_port(port, proc, log, SERVER_START_TIMEOUT)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)
