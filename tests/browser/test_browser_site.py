"""The static site (``make site``) in headless Chromium with no server but a static one.

The site is built from a student edition (tests/site_support.py), served by Python's
``http.server`` on 127.0.0.1, and every request to any other host is blocked (and
recorded) by Playwright routing.  Each notebook that needs none of numpy, scipy and
matplotlib is opened in the site's JupyterLab, run cell by cell with Run All, and its
outputs are compared with the committed ones (the notebooks are seeded; cells tagged
``nbval-ignore-output`` are skipped, as under nbval).  The only requests allowed to be
blocked are those of the WebAssembly wheels on Pyodide's CDN (numpy, scipy,
matplotlib and what they depend on), which this machine cannot reach; the notebooks
and class pages that need them are listed in ``NEEDS_CDN`` with the reason.

Waits (page load, kernel start, Run All) have timeouts; the assertions are made once.
"""
from __future__ import annotations

import configparser
import functools
import http.server
import json
import re
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from site_support import REPO, build

pytestmark = [pytest.mark.browser, pytest.mark.slow]

START_TIMEOUT = 300_000     # ms: the site's JupyterLab and Pyodide on a shared 2-core machine
RUN_TIMEOUT = 300_000       # ms: Run All

#: run here, with every host but 127.0.0.1 blocked
OFFLINE = [
    "notebooks/black_forest/walkthrough.ipynb",
    "notebooks/elves/walkthrough.ipynb",
    "notebooks/horse/walkthrough.ipynb",
    "notebooks/woods/walkthrough.ipynb",
    "notebooks/ten_characters/odds.ipynb",
]
#: these run only where Pyodide's CDN is reachable (its WebAssembly builds of numpy,
#: scipy and matplotlib are nowhere else), or not at all in a browser
NEEDS_CDN = {
    "notebooks/index.ipynb": "matplotlib (the win-share chart)",
    # these two import no matplotlib, but kingdoms draws with it (imported when it draws)
    "notebooks/ten_characters/walkthrough.ipynb": "matplotlib (a TreeExplorer draws the tree)",
    "notebooks/black_forest/explore.ipynb": "matplotlib (heuristics.plot(), the tournament chart)",
    "notebooks/black_forest/odds.ipynb": "matplotlib (charts)",
    "notebooks/elves/explore.ipynb": "matplotlib (charts)",
    "notebooks/elves/odds.ipynb": "matplotlib (a DistributionPlot)",
    "notebooks/horse/explore.ipynb": "matplotlib (charts)",
    "notebooks/horse/odds.ipynb": "matplotlib (charts)",
    "notebooks/ten_characters/explore.ipynb": "matplotlib (charts)",
    "notebooks/woods/explore.ipynb": "matplotlib (charts)",
    "notebooks/woods/odds.ipynb": "matplotlib (charts)",
    "apps/*.ipynb": "matplotlib (every class page's odds chart, a DistributionPlot)",
}
#: never in a browser: OpenSpiel has no Pyodide build
NO_BROWSER = {"notebooks/openspiel.ipynb": "OpenSpiel (pyspiel) is compiled code with no Pyodide build"}
#: what may be missing offline: Pyodide's compiled packages (and their dependencies)
CDN_PACKAGES = ("numpy", "scipy", "matplotlib")
HEAVY_IMPORT = re.compile(r"^\s*(?:import|from)\s+(numpy|scipy|matplotlib|pyspiel|open_spiel)\b",
                          re.M)


def code_of(nb: dict) -> str:
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_every_notebook_is_listed_by_what_it_needs():
    """A notebook is run here, or listed with what it needs; one run here imports none of
    numpy, scipy and matplotlib (the browser run below shows it needs them lazily neither)."""
    listed = set(OFFLINE) | set(NEEDS_CDN) | set(NO_BROWSER)
    for path in sorted(REPO.glob("notebooks/**/*.ipynb")):
        rel = path.relative_to(REPO).as_posix()
        # a German twin (notebooks/de/..., the site's de/) has its English twin's code
        rel = re.sub(r"^notebooks/de/", "notebooks/", rel)
        assert rel in listed, f"{rel} is in no list of this test"
        heavy = HEAVY_IMPORT.findall(code_of(json.loads(path.read_text(encoding="utf-8"))))
        if rel in OFFLINE:
            assert heavy == [], f"{rel} imports {heavy}: it needs Pyodide's CDN"
    for path in sorted(REPO.glob("apps/*.ipynb")):      # the odds chart draws with matplotlib
        assert "DistributionPlot(" in code_of(json.loads(path.read_text(encoding="utf-8")))


def test_no_cell_of_the_site_starts_threads():
    """Threads cannot start in the browser: no cell of a notebook in the site passes
    ``executor=`` (a pool)."""
    for path in sorted(REPO.glob("notebooks/**/*.ipynb")) + sorted(REPO.glob("apps/*.ipynb")):
        code = code_of(json.loads(path.read_text(encoding="utf-8")))
        assert "executor=" not in code, f"{path.relative_to(REPO)} passes executor="


# ---------------------------------------------------------------- the served site

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):    # the browser closed a page
            pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """``(base_url, site_dir)``: the site built from a student edition, served on 127.0.0.1."""
    pytest.importorskip("jupyterlite_core")
    if shutil.which("npm") is None:      # as the browser tests skip without Chromium
        pytest.skip("npm is needed to fetch Pyodide's core (the npm package pyodide)")
    tmp = tmp_path_factory.mktemp("site")
    start = time.monotonic()
    site_dir, _, _ = build(tmp)
    print(f"site built in {time.monotonic() - start:.0f} s")
    # this copy only: let the test reach the app object (as tests/browser/conftest.py does)
    config = site_dir / "jupyter-lite.json"
    data = json.loads(config.read_text())
    data["jupyter-config-data"]["exposeAppInBrowser"] = True
    config.write_text(json.dumps(data))
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site_dir)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", site_dir
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def offline_page(browser):
    """``(page, blocked)``: a fresh page whose requests to any host but 127.0.0.1 are
    blocked; ``blocked`` lists their URLs."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(60_000)
    blocked: list[str] = []

    def route(r):
        if urlparse(r.request.url).hostname == "127.0.0.1":
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    yield page, blocked
    context.close()


def cdn_closure(site_dir: Path) -> set[str]:
    """Addresses of Pyodide's WebAssembly wheels of numpy, scipy, matplotlib and their
    dependencies (the lock names them by their address on the CDN)."""
    packages = json.loads((site_dir / "static/pyodide/pyodide-lock.json").read_text())["packages"]
    names, todo = set(), list(CDN_PACKAGES)
    while todo:
        name = todo.pop()
        if name not in names:
            names.add(name)
            todo.extend(packages[name]["depends"])
    return {packages[n]["file_name"] for n in names
            if packages[n]["file_name"].endswith("_wasm32.whl")}


def assert_only_cdn_wheels_blocked(blocked: list[str], site_dir: Path) -> None:
    allowed = cdn_closure(site_dir)
    others = [url for url in blocked if url.split("?")[0] not in allowed]
    assert others == [], f"requests to other hosts: {others}"


# ---------------------------------------------------------------- notebooks

def sanitizers() -> list[tuple[re.Pattern, str]]:
    cfg = configparser.ConfigParser()
    cfg.read(REPO / "nbval_sanitize.cfg")
    return [(re.compile(cfg[s]["regex"]), cfg[s]["replace"]) for s in cfg.sections()]


def text_outputs(cell: dict) -> str:
    """What nbval compares: streams and text/plain results (images and HTML left out)."""
    out = []
    last_stream = None
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            # a stream arrives in chunks: consecutive chunks of one stream are one text
            if last_stream != o["name"]:
                out.append(f"{o['name']}: ")
            out.append("".join(o["text"]))
            last_stream = o["name"]
            continue
        last_stream = None
        if o["output_type"] in ("execute_result", "display_data"):
            text = o.get("data", {}).get("text/plain")
            if text is not None and not any(k.startswith("application/vnd.jupyter.widget")
                                            for k in o["data"]):
                out.append("".join(text))
        elif o["output_type"] == "error":
            out.append(f"error: {o['ename']}: {o['evalue']}")
    text = "".join(out)
    for pattern, replace in sanitizers():
        text = pattern.sub(replace, text)
    return text


def run_notebook(page, base: str, notebook: str) -> dict:
    """Open ``notebook`` in the site's JupyterLab, Run All, return the notebook as run."""
    page.goto(f"{base}/lab/index.html?path={notebook}", wait_until="domcontentloaded")
    page.wait_for_function(
        "(path) => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.context.path === path",
        arg=notebook, timeout=START_TIMEOUT)
    # the status bar tells when Pyodide (with kingdoms preloaded) is ready
    page.get_by_text("Python (Pyodide) | Idle").wait_for(timeout=START_TIMEOUT)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    # Run All has finished when every code cell has a number and the kernel is idle
    # (a cell that raises stops Run All: the cells after it keep no number)
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp.shell.currentWidget;
            const cells = w.content.model.toJSON().cells.filter(c => c.cell_type === 'code');
            const k = w.sessionContext.session.kernel;
            const errored = cells.some(c => (c.outputs || []).some(o => o.output_type === 'error'));
            return k.status === 'idle' && (errored || cells.every(c => c.execution_count));
        }""", timeout=RUN_TIMEOUT)
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.content.model.toJSON()")


@pytest.mark.parametrize("notebook", OFFLINE)
def test_notebook_runs_in_the_static_site(site, offline_page, notebook, artifacts):
    base, site_dir = site
    page, blocked = offline_page
    start = time.monotonic()
    ran = run_notebook(page, base, notebook)
    print(f"{notebook}: {time.monotonic() - start:.0f} s")
    page.screenshot(path=str(artifacts / f"site-{notebook.replace('/', '-')}.png"))
    committed = json.loads((site_dir / "files" / notebook).read_text(encoding="utf-8"))
    code = [c for c in committed["cells"] if c["cell_type"] == "code"]
    code_ran = [c for c in ran["cells"] if c["cell_type"] == "code"]
    assert len(code_ran) == len(code)
    errors = [text_outputs(c) for c in code_ran
              if any(o["output_type"] == "error" for o in c.get("outputs", []))]
    assert errors == [], f"{notebook} raised in the browser:\n" + "\n".join(errors)
    assert all(c["execution_count"] for c in code_ran), f"{notebook}: a cell did not run"
    compared = 0
    for i, (want, got) in enumerate(zip(code, code_ran)):
        if "nbval-ignore-output" in want.get("metadata", {}).get("tags", []):
            continue
        assert text_outputs(got) == text_outputs(want), \
            f"{notebook}, code cell {i + 1}: the browser printed something else"
        compared += 1
    assert compared > 0, f"{notebook}: no output to compare"
    if "Stepper(" in "".join("".join(c["source"]) for c in code):
        # the widget manager of the site shows the live Stepper
        page.wait_for_selector(".kingdoms-stepper .kingdoms-state", timeout=60_000)
    assert_only_cdn_wheels_blocked(blocked, site_dir)


def test_class_page_is_a_static_app_that_asks_the_cdn_for_matplotlib(site, offline_page, artifacts):
    """A class page opens as an app (no code shown) and runs its code; its odds chart
    needs matplotlib, so here the only requests that fail are Pyodide's CDN wheels, and
    the page says what is missing."""
    base, site_dir = site
    page, blocked = offline_page
    apps = sorted((site_dir / "class-pages").glob("*.html"))
    assert {p.stem for p in apps} - {"index"} == {p.stem for p in (site_dir / "files/apps").glob("*.ipynb")}
    page.goto(f"{base}/class-pages/horse.html", wait_until="domcontentloaded")
    page.wait_for_url(re.compile(r"/repl/index\.html\?"), timeout=START_TIMEOUT)
    # the code runs and its output appears; the code itself is hidden
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-OutputArea-output')].some("
        "o => /Error|Traceback|horse/i.test(o.innerText))", timeout=START_TIMEOUT + RUN_TIMEOUT)
    page.screenshot(path=str(artifacts / "site-class-page-horse.png"))
    text = "\n".join(page.locator(".jp-OutputArea-output").all_inner_texts())
    assert blocked, "the class page asked nothing of the CDN: does it still draw with matplotlib?"
    assert_only_cdn_wheels_blocked(blocked, site_dir)
    assert any("matplotlib" in url for url in blocked), blocked
    assert "matplotlib" in text or "numpy" in text, text[:2000]
