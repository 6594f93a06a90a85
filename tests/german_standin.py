"""German twins for the tests of the German editions while the repository has none yet.

``german_repo(tmp)`` is this checkout itself when it has the German index
(``notebooks/de/index.ipynb``, docs/german.md's paths); otherwise a copy of the checkout's parts
that the editions are built from (the library, pyproject.toml, binder/, the notebooks,
class pages and exercises) with STAND-IN twins of one game added: the index, the woods
lessons, the woods class page and the woods exercises (teacher and student copies), each
the English notebook with ``kingdoms.set_language("de")`` added after ``import kingdoms``
and every link re-pointed as docs/german.md asks (to the German twin where there is one, else to
the English notebook followed by "(auf Englisch)").  The stand-ins are not translated: they
check the editions' structure (what they hold, what they leave out, where links go), not
the German words; the real twins replace them by being there.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
GERMAN_INDEX = "notebooks/de/index.ipynb"

LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")


def has_german_twins(repo: Path = REPO) -> bool:
    return (repo / GERMAN_INDEX).is_file()


def german_path(english: str) -> str:
    """docs/german.md's place of an English notebook's twin (tools/edition.py's german_twin)."""
    return _edition().german_twin(english)


def _edition():
    import importlib.util
    import sys
    if "kingdoms_edition_tool" not in sys.modules:
        spec = importlib.util.spec_from_file_location("kingdoms_edition_tool",
                                                      REPO / "tools" / "edition.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[spec.name] = module
    return sys.modules["kingdoms_edition_tool"]


def _standins(repo: Path) -> list[str]:
    """The English notebooks that get a stand-in twin: the index and everything of woods
    but the explore lesson (explore lessons may stay English, issue 31)."""
    found = ["notebooks/index.ipynb", "notebooks/woods/walkthrough.ipynb",
             "notebooks/woods/odds.ipynb", "apps/woods.ipynb"]
    for kind in ("source", "release"):
        found += [p.relative_to(repo).as_posix()
                  for p in sorted((repo / "exercises" / kind / "woods").glob("*.ipynb"))]
    return found


def _repoint(source: str, english: str, twins: set[str]) -> str:
    here = os.path.dirname(german_path(english))

    def fix(m: re.Match) -> str:
        target = m.group("target")
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            return m.group(0)
        file_part, hash_, fragment = target.partition("#")
        to = os.path.normpath(os.path.join(os.path.dirname(english), file_part)).replace(os.sep, "/")
        if to in twins:
            new = os.path.relpath(german_path(to), here).replace(os.sep, "/")
            return f"[{m.group('text')}]({new}{hash_}{fragment})"
        new = os.path.relpath(to, here).replace(os.sep, "/")
        return f"[{m.group('text')}]({new}{hash_}{fragment}) (auf Englisch)"

    return LINK.sub(fix, source)


def write_standins(repo: Path) -> list[str]:
    """Write the stand-in twins into ``repo`` (a copy); returns their paths."""
    english = _standins(repo)
    twins = set(english)
    written = []
    for rel in english:
        nb = nbformat.read(repo / rel, as_version=4)
        added = False
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = _repoint(cell.source, rel, twins)
            elif not added and re.search(r"^import kingdoms\b", cell.source, re.M):
                cell.source = re.sub(r"^(import kingdoms\b.*)$", r'\1\nkingdoms.set_language("de")',
                                     cell.source, count=1, flags=re.M)
                added = True
        out = repo / german_path(rel)
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out)
        written.append(german_path(rel))
    return written


def german_repo(tmp: Path) -> Path:
    """This checkout if it has German twins, else a copy with stand-ins (see above)."""
    if has_german_twins():
        return REPO
    copy = tmp / "repo"
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc")
    for name in ("kingdoms", "binder", "notebooks", "apps", "exercises"):
        shutil.copytree(REPO / name, copy / name, ignore=ignore)
    (copy / "tools").mkdir()
    for name in ("pyproject.toml", "LICENSE", "tools/notebook_format.py"):
        shutil.copy2(REPO / name, copy / name)
    write_standins(copy)
    return copy
