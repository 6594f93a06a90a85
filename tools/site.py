"""The student edition as a static JupyterLite site: no server at all.

    python tools/site.py CONTENTS DEST [--german CONTENTS_DE]

``CONTENTS`` is a student edition (``tools/edition.py student``): ``notebooks/``,
``apps/``, ``exercises/``, ``README.md`` and ``wheels/kingdoms-*.whl`` (built from this
checkout with ``pip wheel`` when the folder holds none).  ``DEST`` becomes a folder of
static files that any static host serves as it is.

How the site gets its Python packages, with no download at run time:

* Pyodide's core (the interpreter, its standard library and ``pyodide-lock.json``) comes
  from the npm package ``pyodide`` at the version that jupyterlite-pyodide-kernel
  expects; the npm package holds no package wheels.
* Every pure-Python package the kernel and ``kingdoms`` need (IPython, jedi, comm,
  ipywidgets, networkx, sympy, mpmath, tqdm, micropip, ... and the ``kingdoms`` wheel)
  is a wheel from PyPI, copied beside Pyodide; the lock file is rewritten to name those
  wheels and their hashes (PyPI's wheels are not byte-identical to Pyodide's builds).
* Packages with compiled code (numpy, scipy, matplotlib and their compiled
  dependencies) exist only as Pyodide's own WebAssembly builds: the lock names them by
  their full address on Pyodide's CDN, so they load where the CDN is reachable and only
  when a cell imports them.
* ``kingdoms`` and its pure-Python dependencies are preloaded when the kernel starts
  (``loadPyodideOptions.packages``): Pyodide installs only what it sees imported in a
  cell, and ``kingdoms`` imports networkx, sympy and tqdm lazily.  Its lock entry lists
  only its pure-Python dependencies, so ``import kingdoms`` never waits for numpy.
  matplotlib (kingdoms' charts import it lazily too) is preloaded from the CDN; where
  the CDN is out of reach that load fails, the kernel starts all the same, and only the
  cells that draw fail.

English and German (issue 31): with ``--german`` (a German student edition,
``tools/edition.py student --language de``; ``make site`` passes it) the site holds both.
``DEST/index.html`` is a landing page that offers both languages; the German edition is a
second JupyterLite site in ``DEST/de`` whose JupyterLab speaks German (the German language
pack, found by jupyterlite-core through jupyterlab_server, chosen by the settings overrides
``binder/lab-de/overrides.json``; its settings and files are kept apart from the English
site's in the browser), sharing the English site's Pyodide and wheels
(``DEST/static/pyodide``) rather than holding a second copy; its class pages are
``DEST/class-pages/de/<game>.html``.

The class pages (``apps/<game>.ipynb``) become static apps: ``class-pages/<game>.html``
opens JupyterLite's REPL with the page's code run and hidden (only its output shows).
Voici, the static Voila, requires jupyterlite-core < 0.8, so it does not fit the pinned
0.8 site; the REPL is part of jupyterlite-core itself.
"""
from __future__ import annotations

import argparse
import email.parser
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: the Pyodide that jupyterlite-pyodide-kernel 0.8.6 loads by default (its kernel
#: settings schema: pyodideUrl .../pyodide/v314.0.6/full/pyodide.mjs)
PYODIDE_VERSION = "314.0.6"
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
#: the Python inside that Pyodide (pyodide-lock.json: info.python 3.14.2)
PYODIDE_PYTHON = "3.14"

#: pure-Python packages the site needs that Pyodide's lock does not list, pinned
#: (comm: the kernel's widget channel; ipywidgets: the Stepper and the other widgets)
EXTRA_PACKAGES = {"comm": "0.2.3", "ipywidgets": "8.1.9"}
#: loaded when the kernel starts (with their pure-Python dependencies): the kernel's
#: own needs, then kingdoms
PRELOAD = ["comm", "ipython", "jedi", "kingdoms"]
#: also loaded when the kernel starts, from Pyodide's CDN: kingdoms draws its charts
#: (DistributionPlot, TreeExplorer, ``.plot()``) with matplotlib imported only when it
#: draws, and Pyodide loads a package only when a cell imports it.  Where the CDN cannot
#: be reached the load fails without stopping the kernel (the chart then says
#: matplotlib is missing)
CDN_PRELOAD = ["matplotlib"]
#: Pyodide's compiled packages kingdoms may import: their pure-Python dependencies are
#: bundled too, so that only the WebAssembly wheels come from the CDN
COMPILED = ["numpy", "scipy", "matplotlib"]
#: what the kernel and piplite need before anything else (always bundled)
KERNEL_NEEDS = ["micropip", "packaging", "ipython", "jedi", "comm"]

#: the npm package's files the site does not need (a demo console, types, source maps)
PYODIDE_SKIP = re.compile(r"(\.d\.ts|\.map|\.html|README\.md)$")

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: the labextensions the site carries: the Pyodide kernel and the widget manager
LABEXTENSIONS = ["@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager"]
#: what of the student edition goes into the site's files
CONTENT_ENTRIES = ["README.md", "notebooks", "apps", "exercises"]
#: the German site: its folder in DEST, and the settings overrides (in the German edition,
#: as in the repository) that choose JupyterLab's German language pack
GERMAN_DIR = "de"
LAB_DE_OVERRIDES = Path("binder") / "lab-de" / "overrides.json"
#: the German site keeps its settings and the files a student changed apart from the
#: English site's (both live in the browser's storage of one address)
GERMAN_STORAGE = {"settingsStorageName": "kingdoms-de-settings",
                  "contentsStorageName": "kingdoms-de-contents"}


class SiteError(RuntimeError):
    """A step of the site build failed; the message says which and why."""


def log(msg: str) -> None:
    print(f"[site] {msg}", flush=True)


def run(cmd: list[str], cwd: Path | None = None, what: str = "") -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SiteError(f"{what or cmd[0]} failed ({proc.returncode}): {' '.join(map(str, cmd))}\n"
                        f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ---------------------------------------------------------------- Pyodide's core (npm)

def pyodide_core(cache: Path) -> Path:
    """The npm package ``pyodide@PYODIDE_VERSION``, unpacked: its folder."""
    out = cache / f"pyodide-{PYODIDE_VERSION}"
    if (out / "pyodide-lock.json").is_file() and (out / "pyodide.mjs").is_file():
        return out
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file():
        if shutil.which("npm") is None:
            raise SiteError("npm is needed to fetch Pyodide's core (the npm package 'pyodide')")
        log(f"npm pack pyodide@{PYODIDE_VERSION}")
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent",
             "--pack-destination", str(cache)], what="npm pack")
    tmp = Path(tempfile.mkdtemp(dir=cache))
    with tarfile.open(tarball) as tar:
        tar.extractall(tmp, filter="data")
    shutil.rmtree(out, ignore_errors=True)
    (tmp / "package").rename(out)
    shutil.rmtree(tmp)
    return out


# ---------------------------------------------------------------- wheels

def wheel_metadata(wheel: Path) -> tuple[str, str, list[str], list[str]]:
    """``(name, version, requirement names, top-level import names)`` of a wheel."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(z.read(meta_name).decode())
        top = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        if top:
            imports = z.read(top[0]).decode().split()
        else:
            imports = sorted({n.split("/")[0].removesuffix(".py") for n in names
                              if not n.split("/")[0].endswith((".dist-info", ".data"))
                              and (n.endswith(".py") or "/" in n)})
    requires = []
    for req in meta.get_all("Requires-Dist") or []:
        head, _, marker = req.partition(";")
        if "extra" in marker:
            continue        # optional extras are not installed
        if "python_version" in marker and "<" in marker and "3.1" in marker:
            continue        # backports for old Pythons (tomli): Pyodide is 3.14
        requires.append(canonical(re.match(r"\s*([A-Za-z0-9._-]+)", head).group(1)))
    return meta["Name"], meta["Version"], requires, imports


def pypi_wheels(specs: list[str], cache: Path) -> dict[str, Path]:
    """Pure-Python wheels (``py3-none-any``) for ``name==version`` specs, from PyPI,
    kept in ``cache``: canonical name -> wheel."""
    cache.mkdir(parents=True, exist_ok=True)

    def have() -> dict[str, Path]:
        found = {}
        for whl in cache.glob("*.whl"):
            name, version = whl.name.split("-")[:2]
            found[f"{canonical(name)}=={version}"] = whl
        return found

    missing = [s for s in specs if canonical(s.split("==")[0]) + "==" + s.split("==")[1]
               not in have()]
    if missing:
        log(f"pip download {len(missing)} pure-Python wheels")
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--platform", "any", "--implementation", "py",
             "--abi", "none", "--python-version", PYODIDE_PYTHON, "-d", str(cache), *missing],
            what="pip download")
    found = have()
    out = {}
    for s in specs:
        key = canonical(s.split("==")[0]) + "==" + s.split("==")[1]
        if key not in found:
            raise SiteError(f"no pure-Python wheel of {s} on the package index")
        out[canonical(s.split("==")[0])] = found[key]
    return out


def kingdoms_wheel(contents: Path, cache: Path) -> Path:
    """The edition's kingdoms wheel, or one built from this checkout."""
    wheels = sorted((contents / "wheels").glob("kingdoms-*.whl"))
    if len(wheels) > 1:
        raise SiteError(f"more than one kingdoms wheel in {contents / 'wheels'}: "
                        + ", ".join(w.name for w in wheels))
    if wheels:
        return wheels[0]
    out = cache / "kingdoms-wheel"
    shutil.rmtree(out, ignore_errors=True)
    log("pip wheel kingdoms (the edition has none)")
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
         str(REPO), "-w", str(out)], what="pip wheel")
    return next(out.glob("kingdoms-*.whl"))


# ---------------------------------------------------------------- the lock file

def is_pure(entry: dict) -> bool:
    return entry["file_name"].endswith("-none-any.whl") and entry.get("package_type") == "package"


def rewrite_lock(core: Path, kingdoms: Path, cache: Path, out: Path) -> dict:
    """Write Pyodide's core, the bundled wheels and the rewritten lock into ``out``.

    Returns a summary: ``{"bundled": [...], "from_cdn": [...], "preload": [...]}``."""
    lock = json.loads((core / "pyodide-lock.json").read_text())
    packages = {canonical(k): v for k, v in lock["packages"].items()}

    # the packages not in Pyodide's lock: the extras (pinned) and kingdoms itself
    extra_wheels = pypi_wheels([f"{n}=={v}" for n, v in EXTRA_PACKAGES.items()], cache / "pypi")
    extra_wheels["kingdoms"] = kingdoms
    new_entries = {}
    for key, whl in extra_wheels.items():
        name, version, requires, imports = wheel_metadata(whl)
        new_entries[key] = {"name": name, "version": version, "file_name": whl.name,
                            "install_dir": "site", "sha256": "", "package_type": "package",
                            "imports": imports, "depends": requires,
                            "unvendored_tests": False}
    every = {**packages, **new_entries}

    # what is bundled: the pure-Python closure of what the kernel and kingdoms need;
    # a compiled package (numpy, ...) is never bundled and never a dependency of a
    # bundled one (networkx's numpy and matplotlib are optional: imported lazily)
    def pure(name: str) -> bool:
        return name in new_entries or (name in packages and is_pure(packages[name]))

    for entry in every.values():
        entry["depends"] = [canonical(d) for d in entry["depends"]]
    roots = KERNEL_NEEDS + list(new_entries) + CDN_PRELOAD + COMPILED
    seen: list[str] = []
    todo = list(roots)
    while todo:
        name = todo.pop(0)
        if name in seen or name not in every:
            # not in every: a requirement no Pyodide build provides (ipywidgets'
            # widgetsnbextension and jupyterlab_widgets hold only the notebook's
            # frontend): not needed in Python
            continue
        seen.append(name)
        todo.extend(every[name]["depends"])
    bundled = [name for name in seen if pure(name)]
    for name in bundled:
        every[name]["depends"] = [d for d in every[name]["depends"] if d in bundled]

    from_pypi = pypi_wheels([f"{packages[n]['name']}=={packages[n]['version']}"
                             for n in bundled if n in packages], cache / "pypi")
    from_pypi.update(extra_wheels)

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for f in core.iterdir():
        if f.is_file() and not PYODIDE_SKIP.search(f.name) and f.name != "pyodide-lock.json":
            shutil.copy2(f, out / f.name)
    for name in bundled:
        whl = from_pypi[name]
        shutil.copy2(whl, out / whl.name)
        every[name]["file_name"] = whl.name
        every[name]["sha256"] = sha256(whl)
    from_cdn = []
    for name, entry in every.items():
        if name not in bundled:
            entry["file_name"] = PYODIDE_CDN + entry["file_name"]
            from_cdn.append(name)
    lock["packages"] = {name: every[name] for name in sorted(every)}
    (out / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return {"bundled": sorted(bundled), "from_cdn": sorted(from_cdn),
            "preload": PRELOAD + CDN_PRELOAD}


# ---------------------------------------------------------------- the class pages

def class_page_url(app: Path, repl: str = "../repl/index.html") -> str:
    """The REPL address that runs a class page's code, hidden, showing only its output."""
    nb = json.loads(app.read_text())
    params = [("kernel", "python"), ("toolbar", "0"), ("showBanner", "0"),
              ("hideCodeInput", "1"), ("promptCellPosition", "bottom")]
    code = [src for src in ("".join(c["source"]).strip() for c in nb["cells"]
                            if c["cell_type"] == "code") if src]
    params += [("code", src) for src in code]
    return repl + "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


#: the words of the class pages, by language
CLASS_PAGE_TEXT = {
    "en": {"page": "{title}: class page",
           "open": "Open the {title} class page",
           "wait": "(it starts Python in your browser; the first start takes a while).",
           "index": "kingdoms: class pages", "heading": "Class pages",
           "lab": "All notebooks (JupyterLab)",
           "other": ("de/index.html", "de", "Klassenseiten auf Deutsch")},
    "de": {"page": "{title}: Klassenseite",
           "open": "Die Klassenseite zu {title} öffnen",
           "wait": "(Sie startet Python in deinem Browser; der erste Start dauert eine Weile.)",
           "index": "kingdoms: Klassenseiten", "heading": "Klassenseiten",
           "lab": "Alle Notebooks (JupyterLab)",
           "other": ("../index.html", "en", "Class pages in English")},
}


def game_title(app: Path, language: str) -> str:
    """A class page's game as people call it: in German the game's German title from its
    data file (the German original's title), else the page's name."""
    fallback = app.stem.replace("_", " ").title()
    if language == "en":
        return fallback
    try:
        import kingdoms
        from kingdoms.core.i18n import using
        game = kingdoms.game(app.stem)
    except Exception:           # not a game of the library: the page keeps its name
        return fallback
    with using(language):       # the title is data: name_de beside it in the game's data
        return game.component_name(game.title)


def write_class_pages(apps: Path, out: Path, language: str = "en",
                      repl: str = "../repl/index.html", lab: str = "../lab/index.html",
                      other: bool = False) -> list[str]:
    """``out/<game>.html`` for each class page in ``apps`` (a redirect to the REPL at
    ``repl`` that runs the page's code) and ``out/index.html`` listing them; ``other``:
    link the class pages of the other language."""
    words = CLASS_PAGE_TEXT[language]
    out.mkdir(parents=True, exist_ok=True)
    games = []
    for app in sorted(apps.glob("*.ipynb")):
        game = app.stem
        url = class_page_url(app, repl)
        title = game_title(app, language)
        (out / f"{game}.html").write_text(
            f"<!doctype html>\n<html lang=\"{language}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(words['page'].format(title=title))}</title>"
            f"<meta http-equiv=\"refresh\" content=\"0; url={html.escape(url)}\"></head>\n"
            f"<body><p><a href=\"{html.escape(url)}\">"
            f"{html.escape(words['open'].format(title=title))}</a> "
            f"{html.escape(words['wait'])}</p></body></html>\n", encoding="utf-8")
        games.append((game, title))
    links = "\n".join(f"<li><a href=\"{g}.html\">{html.escape(t)}</a></li>" for g, t in games)
    href, code, text = words["other"]
    other_link = (f"\n<p><a href=\"{href}\" hreflang=\"{code}\" lang=\"{code}\">"
                  f"{html.escape(text)}</a></p>") if other else ""
    (out / "index.html").write_text(
        f"<!doctype html>\n<html lang=\"{language}\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(words['index'])}</title></head>\n"
        f"<body><h1>{html.escape(words['heading'])}</h1>\n"
        f"<ul>\n{links}\n</ul>\n<p><a href=\"{lab}\">{html.escape(words['lab'])}</a>"
        f"</p>{other_link}</body></html>\n", encoding="utf-8")
    return [g for g, _ in games]


#: JupyterLite's configuration in a page: every JupyterLite page (lab/, repl/, de/...)
#: reads the ``index.html`` of each folder above it for this element (config-utils.js),
#: so the landing page that replaces the root's index.html must carry it on
CONFIG_SCRIPT = re.compile(r'<script id="jupyter-config-data".*?</script>', re.S)


def write_landing_page(dest: Path) -> None:
    """``dest/index.html``: the site's first page, offering English and German (with the
    JupyterLite configuration of the page it replaces)."""
    found = CONFIG_SCRIPT.search((dest / "index.html").read_text(encoding="utf-8"))
    if found is None:
        raise SiteError(f"{dest / 'index.html'} has no JupyterLite configuration to carry on")
    (dest / "index.html").write_text("""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
""" + found.group(0) + """
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kingdoms: probability and decisions at the game table</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;
color:#1a1a1a;background:#fff;line-height:1.5}a{color:#0b5394}
section{border:1px solid #888;border-radius:.5rem;padding:0 1rem 1rem;margin:1rem 0}</style>
</head>
<body>
<h1>kingdoms</h1>
<p>Five tabletop games modelled exactly: lessons in probability and decision-making.
Python runs in your browser; the first start takes a while.</p>
<nav aria-label="Language / Sprache">
<section lang="en" id="english">
<h2>English</h2>
<ul>
<li><a href="lab/index.html?path=notebooks/index.ipynb">Lessons: start here (JupyterLab)</a></li>
<li><a href="class-pages/index.html">Class pages</a></li>
</ul>
</section>
<section lang="de" id="deutsch">
<h2>Deutsch</h2>
<p>Fünf Brettspiele, exakt nachgebildet: Lektionen zu Wahrscheinlichkeit und Entscheidungen.</p>
<ul>
<li><a href="de/lab/index.html?path=notebooks/de/index.ipynb">Lektionen: hier fängst du an (JupyterLab auf Deutsch)</a></li>
<li><a href="class-pages/de/index.html">Klassenseiten</a></li>
</ul>
</section>
</nav>
</body></html>
""", encoding="utf-8")


# ---------------------------------------------------------------- the build

def labextension_dirs() -> list[Path]:
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    dirs = [share / name for name in LABEXTENSIONS]
    missing = [str(d) for d in dirs if not (d / "package.json").is_file()]
    if missing:
        raise SiteError("labextensions not installed (pip install -e '.[site]'): "
                        + ", ".join(missing))
    return dirs


def copy_contents(contents: Path, files: Path) -> None:
    """The files students see, from a student edition."""
    files.mkdir()
    for entry in CONTENT_ENTRIES:
        src = contents / entry
        if src.is_dir():
            shutil.copytree(src, files / entry,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        elif src.is_file():
            shutil.copy2(src, files / entry)


def build_german_site(contents: Path, dest: Path, cache: Path, packages: list[str]) -> list[str]:
    """The German edition ``contents`` as a JupyterLite site in ``dest/de``: JupyterLab in
    German, Pyodide from ``dest/static/pyodide``; its class pages in
    ``dest/class-pages/de``.  Returns the games of the class pages."""
    overrides = contents / LAB_DE_OVERRIDES
    if not overrides.is_file():
        raise SiteError(f"{contents} is not a German student edition (it has no "
                        f"{LAB_DE_OVERRIDES}): tools/edition.py student --language de")
    if not (contents / "notebooks" / "de" / "index.ipynb").is_file():
        raise SiteError(f"{contents} has no notebooks/de/index.ipynb")
    try:
        from jupyterlab_server.translation_utils import get_language_packs
    except ImportError as err:
        raise SiteError("jupyterlab_server is needed to find the German language pack "
                        "(pip install -e '.[site]')") from err
    if "de_DE" not in get_language_packs()[0]:
        raise SiteError("JupyterLab's German language pack is not installed "
                        "(pip install -e '.[site]': jupyterlab-language-pack-de-DE)")
    out = dest / GERMAN_DIR
    lite = Path(tempfile.mkdtemp(prefix="lite-de-", dir=cache))
    try:
        files = lite / "contents"
        copy_contents(contents, files)
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "appName": "kingdoms (Deutsch)",
                **GERMAN_STORAGE,
                # "./" is this site's folder (JupyterLite resolves it): the English site's
                # Pyodide, one folder up
                "litePluginSettings": {KERNEL_PLUGIN: {
                    "pyodideUrl": "./../static/pyodide/pyodide.mjs",
                    "loadPyodideOptions": {"packages": packages}}},
            }}, indent=2))
        # JupyterLab's settings overrides: jupyterlite-core copies the lite folder's
        # overrides.json into the site and its jupyter-lite.json (settingsOverrides)
        shutil.copy2(overrides, lite / "overrides.json")
        # the labextensions as the English site's; the translations (and only they, with
        # the favicons) from this environment, which has the German language pack
        (lite / "jupyter_lite_config.json").write_text(json.dumps({"LiteBuildConfig": {
            "federated_extensions": [str(ext) for ext in labextension_dirs()],
            "ignore_sys_prefix": ["federated_extensions"]}}, indent=2))
        # built under a name of its own, then moved to DEST/de: jupyterlite-core leaves out
        # of the contents every path holding "/<the output folder's name>/" (notebooks/de/!)
        built = lite / "kingdoms-german-site"
        log("jupyter lite build (German)")
        run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite),
             "--contents", str(files), "--output-dir", str(built), "--no-sourcemaps"],
            cwd=lite, what="jupyter lite build (German)")
        shutil.rmtree(out, ignore_errors=True)
        shutil.move(str(built), str(out))
        apps = files / "apps" / "de"
        games = write_class_pages(apps, dest / "class-pages" / "de", language="de",
                                  repl="../../de/repl/index.html",
                                  lab="../../de/lab/index.html?path=notebooks/de/index.ipynb",
                                  other=True) if apps.is_dir() else []
    finally:
        shutil.rmtree(lite, ignore_errors=True)
    return games


def build_site(contents: Path, dest: Path, cache: Path | None = None,
               german: Path | None = None) -> dict:
    """Build the static site of the student edition in ``contents`` into ``dest``; with
    ``german`` (a German student edition) the German site beside it (see the module's text).

    ``cache`` keeps what was downloaded (Pyodide's npm package, PyPI wheels) between
    builds; default ``build/site-cache`` of this checkout.  Returns a summary."""
    contents, dest = Path(contents).resolve(), Path(dest).resolve()
    if not (contents / "notebooks").is_dir():
        raise SiteError(f"{contents} is not a student edition (it has no notebooks/)")
    if dest == contents or contents in dest.parents:
        raise SiteError(f"the site {dest} must lie outside the edition {contents}")
    if german is not None:
        german = Path(german).resolve()
        if dest == german or german in dest.parents:
            raise SiteError(f"the site {dest} must lie outside the edition {german}")
    cache = Path(cache or os.environ.get("KINGDOMS_SITE_CACHE") or REPO / "build" / "site-cache")
    cache = cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()

    lite = Path(tempfile.mkdtemp(prefix="lite-", dir=cache))
    try:
        # the files students see
        files = lite / "contents"
        copy_contents(contents, files)

        summary = rewrite_lock(pyodide_core(cache), kingdoms_wheel(contents, cache), cache,
                               lite / "static" / "pyodide")
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "appName": "kingdoms",
                "litePluginSettings": {KERNEL_PLUGIN: {
                    "loadPyodideOptions": {"packages": PRELOAD + CDN_PRELOAD}}},
            }}, indent=2))

        # only the labextensions the site needs, not every one of this environment
        (lite / "jupyter_lite_config.json").write_text(json.dumps({"LiteBuildConfig": {
            "federated_extensions": [str(ext) for ext in labextension_dirs()]}}, indent=2))
        if dest.exists():
            shutil.rmtree(dest)
        cmd = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite),
               "--contents", str(files), "--output-dir", str(dest), "--no-sourcemaps",
               "--ignore-sys-prefix"]
        log("jupyter lite build")
        run(cmd, cwd=lite, what="jupyter lite build")
        games = write_class_pages(files / "apps", dest / "class-pages", other=german is not None) \
            if (files / "apps").is_dir() else []
    finally:
        shutil.rmtree(lite, ignore_errors=True)

    summary.update(class_pages=games)
    if german is not None:
        summary["class_pages_de"] = build_german_site(german, dest, cache,
                                                      PRELOAD + CDN_PRELOAD)
        write_landing_page(dest)
    summary.update(seconds=round(time.monotonic() - start, 1))
    (dest / "site-packages.json").write_text(json.dumps(summary, indent=1) + "\n")
    log(f"built {dest} in {summary['seconds']} s: {len(summary['bundled'])} bundled wheels, "
        f"{len(summary['from_cdn'])} packages from Pyodide's CDN when imported")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("contents", type=Path, help="the student edition (tools/edition.py student)")
    parser.add_argument("dest", type=Path, help="the folder to write the site into (replaced)")
    parser.add_argument("--german", type=Path, metavar="CONTENTS_DE",
                        help="the German student edition (tools/edition.py student "
                             "--language de): the site then offers English and German")
    args = parser.parse_args(argv)
    try:
        build_site(args.contents, args.dest, german=args.german)
    except SiteError as err:
        print(f"site: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
