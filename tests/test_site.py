"""The static site of the student edition (tools/site.py, ``make site``): what the build
writes, checked file by file.  The browser run is tests/browser/test_browser_site.py."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import urllib.parse
import zipfile
from pathlib import Path

import pytest

from site_support import REPO, build, load_site_tool, student_edition

site_tool = load_site_tool()

SECRET_MARKERS = re.compile(r"BEGIN SOLUTION|END SOLUTION|BEGIN HIDDEN TESTS|END HIDDEN TESTS")
TEXT_SUFFIXES = {".ipynb", ".json", ".md", ".html", ".js", ".py", ".txt", ".toml", ".css"}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_import_kingdoms_loads_no_compiled_package():
    """In the browser, numpy, scipy and matplotlib come from Pyodide's CDN: ``import
    kingdoms`` (a lesson's first cell) must not need them."""
    code = ("import sys, kingdoms, kingdoms.widgets; "
            "print(sorted(m for m in ('numpy', 'scipy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout.strip()
    assert out == "[]"


def test_a_folder_that_is_no_edition_is_refused(tmp_path):
    with pytest.raises(site_tool.SiteError, match="no notebooks/"):
        site_tool.build_site(tmp_path, tmp_path / "site")
    (tmp_path / "notebooks").mkdir()
    with pytest.raises(site_tool.SiteError, match="outside the edition"):
        site_tool.build_site(tmp_path, tmp_path / "site")


def test_wheel_metadata_keeps_required_dependencies_only(tmp_path):
    whl = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        z.writestr("demo/__init__.py", "")
        z.writestr("demo-1.0.dist-info/METADATA", "\n".join([
            "Metadata-Version: 2.1", "Name: demo", "Version: 1.0",
            "Requires-Dist: Net_X>=3", "Requires-Dist: tomli>=2; python_version < '3.11'",
            "Requires-Dist: pytest; extra == 'test'", ""]))
    assert site_tool.wheel_metadata(whl) == ("demo", "1.0", ["net-x"], ["demo"])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    pytest.importorskip("jupyterlite_core")
    if shutil.which("npm") is None:      # as the browser tests skip without Chromium
        pytest.skip("npm is needed to fetch Pyodide's core (the npm package pyodide)")
    return build(tmp_path_factory.mktemp("site"))


@pytest.mark.slow
def test_the_site_runs_its_own_pyodide(built):
    site, _, summary = built
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"][site_tool.KERNEL_PLUGIN]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert (site / "static" / "pyodide" / name).is_file(), name
    assert "kingdoms" in kernel["loadPyodideOptions"]["packages"]
    names = {e["name"] for e in config["federated_extensions"]}
    assert names == {"@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager"}
    assert summary["preload"] == kernel["loadPyodideOptions"]["packages"]


@pytest.mark.slow
def test_the_lock_names_bundled_wheels_by_their_hashes_and_the_rest_by_cdn(built):
    site, _, summary = built
    pyodide = site / "static" / "pyodide"
    packages = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    local = {n: e for n, e in packages.items() if "://" not in e["file_name"]}
    assert sorted(local) == summary["bundled"]
    for name, entry in local.items():
        wheel = pyodide / entry["file_name"]
        assert wheel.is_file(), f"{name}: {wheel.name} is not in the site"
        assert entry["sha256"] == sha256(wheel), f"{name}: the lock has another hash"
        assert entry["file_name"].endswith("-none-any.whl")
    for name, entry in packages.items():
        if name not in local:
            assert entry["file_name"].startswith(site_tool.PYODIDE_CDN), name
    for name in ("numpy", "scipy", "matplotlib"):
        assert name not in local and packages[name]["file_name"].endswith("_wasm32.whl")
    def closure(roots):
        todo, seen = list(roots), set()
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(packages[name]["depends"])
        return seen

    # what the kernel and kingdoms need never waits for the CDN
    kernel = closure(site_tool.PRELOAD)
    assert kernel <= set(local), kernel - set(local)
    assert {"kingdoms", "networkx", "sympy", "mpmath", "tqdm", "ipywidgets", "comm"} <= kernel
    assert set(packages["kingdoms"]["depends"]) == {"networkx", "sympy", "tqdm", "ipywidgets"}
    # of the compiled packages only the WebAssembly wheels come from the CDN
    for name in closure(site_tool.COMPILED) - set(local):
        assert packages[name]["file_name"].endswith("_wasm32.whl"), name
    assert summary["preload"] == site_tool.PRELOAD + site_tool.CDN_PRELOAD


@pytest.mark.slow
def test_the_kingdoms_wheel_is_this_checkout(built):
    site, edition, _ = built
    wheel = next((site / "static" / "pyodide").glob("kingdoms-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        inside = {n for n in z.namelist() if n.startswith("kingdoms/") and n.endswith(".py")}
        assert z.read("kingdoms/__init__.py") == (REPO / "kingdoms" / "__init__.py").read_bytes()
    here = {p.relative_to(REPO).as_posix() for p in (REPO / "kingdoms").rglob("*.py")
            if "__pycache__" not in p.parts}
    assert inside == here
    edition_wheels = list((edition / "wheels").glob("kingdoms-*.whl"))
    if edition_wheels:      # the edition's own wheel is the one bundled
        assert sha256(edition_wheels[0]) == sha256(wheel)


def assert_holds_the_edition_and_no_secret(site: Path, edition: Path) -> set[str]:
    """``site/files`` is the student edition's contents, byte for byte, and no text file
    of ``site`` carries a solution or hidden-test marker; returns the files' paths."""
    want = {p.relative_to(edition).as_posix() for entry in site_tool.CONTENT_ENTRIES
            for p in ([edition / entry] if (edition / entry).is_file()
                      else (edition / entry).rglob("*"))
            if p.is_file() and ".ipynb_checkpoints" not in p.parts}
    have = {p.relative_to(site / "files").as_posix() for p in (site / "files").rglob("*")
            if p.is_file()}
    assert have == want
    for rel in want:
        assert (site / "files" / rel).read_bytes() == (edition / rel).read_bytes(), rel
    leaks = [p.relative_to(site).as_posix() for p in site.rglob("*")
             if p.is_file() and p.suffix in TEXT_SUFFIXES
             and SECRET_MARKERS.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert leaks == []
    return have


@pytest.mark.slow
def test_the_site_holds_the_edition_and_no_secret(built):
    site, edition, _ = built
    assert_holds_the_edition_and_no_secret(site, edition)


@pytest.mark.slow
def test_class_pages_run_the_app_code_hidden(built):
    site, edition, summary = built
    apps = sorted((edition / "apps").glob("*.ipynb"))
    assert summary["class_pages"] == [a.stem for a in apps]
    index = (site / "class-pages" / "index.html").read_text()
    for app in apps:
        page = (site / "class-pages" / f"{app.stem}.html").read_text()
        url = re.search(r'url=([^"]+)"', page).group(1).replace("&amp;", "&")
        assert url.startswith("../repl/index.html?")
        params = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
        assert params["hideCodeInput"] == ["1"] and params["kernel"] == ["python"]
        nb = json.loads(app.read_text())
        code = ["".join(c["source"]).strip() for c in nb["cells"] if c["cell_type"] == "code"]
        assert params["code"] == [c for c in code if c]     # the page's code, in order
        assert f'href="{app.stem}.html"' in index


# ---------------------------------------------------------------- English and German

def _links(page: Path) -> list[str]:
    return [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]+)"', page.read_text())]


@pytest.mark.slow
def test_the_landing_page_offers_english_and_german(built):
    site, _, _ = built
    page = site / "index.html"
    text = page.read_text()
    assert 'lang="en"' in text and 'lang="de"' in text
    # JupyterLite's pages read the configuration of every index.html above them: without
    # it the lab and the REPL stay blank (test_browser_site runs them)
    config = re.search(r'<script id="jupyter-config-data"[^>]*>(.*?)</script>', text, re.S)
    assert config and isinstance(json.loads(config.group(1)), dict)
    links = _links(page)
    assert links == ["lab/index.html?path=notebooks/index.ipynb", "class-pages/index.html",
                     "de/lab/index.html?path=notebooks/de/index.ipynb",
                     "class-pages/de/index.html"]
    for link in links:      # each opens a page of the site, and the lessons it names
        path, _, query = link.partition("?")
        assert (site / path).is_file(), link
        if query:
            start = urllib.parse.parse_qs(query)["path"][0]
            files = site / path.split("lab/")[0] / "files"
            assert (files / start).is_file(), link


@pytest.mark.slow
def test_the_german_site_speaks_german_and_shares_the_english_pyodide(built):
    site, _, summary = built
    german = site / site_tool.GERMAN_DIR
    config = json.loads((german / "jupyter-lite.json").read_text())["jupyter-config-data"]
    # JupyterLab's German language pack, chosen by default (as make lab-de does)
    overrides = json.loads((REPO / site_tool.LAB_DE_OVERRIDES).read_text())
    plugin = "@jupyterlab/translation-extension:plugin"
    assert config["settingsOverrides"][plugin]["locale"] == overrides[plugin]["locale"] == "de_DE"
    packs = json.loads((german / "api" / "translations" / "all.json").read_text())["data"]
    assert "de_DE" in packs
    pack = json.loads((german / "api" / "translations" / "de_DE.json").read_text())["data"]
    assert pack["jupyterlab"]["Run All Cells"] == ["Alle Zellen ausführen"]
    # kept apart from the English site's settings and files in the browser
    english = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    for key, name in site_tool.GERMAN_STORAGE.items():
        assert config[key] == name and english.get(key) != name
    # one Pyodide for both: the German site's "./" is its own folder
    kernel = config["litePluginSettings"][site_tool.KERNEL_PLUGIN]
    assert kernel["pyodideUrl"] == "./../static/pyodide/pyodide.mjs"
    assert (site / "static" / "pyodide" / "pyodide.mjs").is_file()
    assert not (german / "static" / "pyodide").exists()
    assert kernel["loadPyodideOptions"]["packages"] == summary["preload"]
    names = {e["name"] for e in config["federated_extensions"]}
    assert names == {"@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager"}
    # the English site stays English (no language pack to choose by default)
    assert "settingsOverrides" not in english or plugin not in english["settingsOverrides"]


@pytest.mark.slow
def test_the_german_site_holds_the_german_edition_and_no_secret(built):
    site, _, _ = built
    have = assert_holds_the_edition_and_no_secret(site / site_tool.GERMAN_DIR,
                                                  site.parent / "edition-de")
    assert "notebooks/de/index.ipynb" in have


@pytest.mark.slow
def test_german_class_pages_run_the_german_app_code_in_the_german_repl(built):
    from german import german_scan
    from kingdoms.core.i18n import using
    import kingdoms

    site, _edition, summary = built
    apps = sorted((site / site_tool.GERMAN_DIR / "files" / "apps" / "de").glob("*.ipynb"))
    assert apps and summary["class_pages_de"] == [a.stem for a in apps]
    pages = site / "class-pages" / "de"
    index = (pages / "index.html").read_text()
    assert '<html lang="de">' in index and 'href="../index.html"' in index
    assert 'href="de/index.html"' in (site / "class-pages" / "index.html").read_text()
    for app in apps:
        page = (pages / f"{app.stem}.html").read_text()
        assert '<html lang="de">' in page
        url = re.search(r'url=([^"]+)"', page).group(1).replace("&amp;", "&")
        assert url.startswith("../../de/repl/index.html?")
        assert (pages / url.split("?")[0]).resolve() == (site / "de" / "repl" / "index.html")
        params = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
        assert params["hideCodeInput"] == ["1"]
        nb = json.loads(app.read_text())
        code = ["".join(c["source"]).strip() for c in nb["cells"] if c["cell_type"] == "code"]
        assert params["code"] == [c for c in code if c]
        assert f'href="{app.stem}.html"' in index
        # the title is the game's German title (its data's name_de); the rest is German words
        game = kingdoms.game(app.stem)
        with using("de"):
            title = game.component_name(game.title)
        assert title != game.title and f"{title}</a>" in index
        german_scan([page.replace(title, ""), index.replace(title, "")],
                    f"class-pages/de/{app.stem}.html")


def test_a_site_needs_a_german_edition_to_offer_german(tmp_path):
    (tmp_path / "notebooks").mkdir()
    with pytest.raises(site_tool.SiteError, match="not a German student edition"):
        site_tool.build_german_site(tmp_path, tmp_path / "site", tmp_path, [])
