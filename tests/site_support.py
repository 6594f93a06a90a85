"""Building the static site for the tests (tests/test_site.py, tests/browser/test_browser_site.py).

The site is built from a student edition: ``tools/edition.py student`` where this
checkout has it, otherwise a stand-in laid out the same way (``notebooks/``, ``apps/``,
the student copies of the exercises as ``exercises/``, ``README.md``; no wheel, so the
site build makes the kingdoms wheel itself)."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def load_site_tool():
    """``tools/site.py`` as a module."""
    spec = importlib.util.spec_from_file_location("kingdoms_site_tool", REPO / "tools" / "site.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def student_edition(dest: Path) -> Path:
    """A student edition in ``dest`` (see the module's docstring)."""
    tool = REPO / "tools" / "edition.py"
    if tool.is_file():
        subprocess.run([sys.executable, str(tool), "student", str(dest)], check=True,
                       cwd=REPO)
        return dest
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns(".ipynb_checkpoints")
    for name in ("notebooks", "apps"):
        shutil.copytree(REPO / name, dest / name, ignore=ignore)
    shutil.copytree(REPO / "exercises" / "release", dest / "exercises", ignore=ignore)
    shutil.copy2(REPO / "README.md", dest / "README.md")
    return dest


def german_student_edition(dest: Path, tmp: Path) -> Path:
    """The German student edition in ``dest``: of this checkout's German twins, or of
    stand-ins while it has none (tests/german_standin.py)."""
    import german_standin
    tool = german_standin._edition()
    repo = german_standin.german_repo(tmp)
    return tool.build_student_edition(dest, language="de", repo=repo)


def build(tmp: Path, german: bool = True):
    """``(site, edition, summary)``: a student edition and its site, built in ``tmp``;
    with ``german`` the German edition too (``tmp/edition-de``) and the site offers both,
    as ``make site`` builds it."""
    site_tool = load_site_tool()
    edition = student_edition(tmp / "edition")
    german_edition = german_student_edition(tmp / "edition-de", tmp) if german else None
    site = tmp / "site"
    summary = site_tool.build_site(edition, site, german=german_edition)
    return site, edition, summary
