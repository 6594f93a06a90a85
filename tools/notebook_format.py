"""Save every notebook in the form JupyterLab will not modify when it opens it (issue 27).

JupyterLab marks a notebook as changed ("Save your work?" on close) as soon as its kernel
starts if the notebook's ``kernelspec`` or ``language_info`` metadata differ from what the
kernel reports (it writes the kernel's values into the document; an equal value is not a
change), or if it has to upgrade the file (an nbformat older than 4.5, cells without ids).
So the normal form is:

* nbformat 4.5, every cell with an id;
* ``kernelspec`` exactly as ipykernel's ``python3`` kernel names itself:
  ``{"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}``;
* ``language_info`` exactly as ipykernel reports it, for a Python version (by default the
  Python running this tool: the one that executes the notebooks).

Nothing else is touched (cells, outputs, tags, widget state stay as they are), and a
notebook already in normal form is not rewritten.

    python tools/notebook_format.py                 # normalise every notebook of the checkout
    python tools/notebook_format.py --check         # exit 1 naming each notebook not in normal form
    python tools/notebook_format.py --this-python DIR   # only set language_info's version to
                                                        # this Python's (the Binder recipes)

``language_info.version`` is the one value that depends on the machine: a kernel on another
Python patch version reports another version, and JupyterLab then records it. The Binder
recipes run ``--this-python`` after installing, so there the notebooks open unmodified;
``--check`` accepts any version. This file needs only nbformat and the standard library
(the student edition carries a copy as ``binder/notebook_format.py``).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
# what the checkout's notebooks are (the student edition is written from these)
FOLDERS = ("notebooks", "apps", "exercises")

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def this_python() -> str:
    """The version ipykernel reports for this interpreter (``sys.version.split()[0]``)."""
    return sys.version.split()[0]


def language_info(version: str) -> dict:
    """ipykernel's ``language_info`` for a kernel running Python ``version``."""
    return {
        "codemirror_mode": {"name": "ipython", "version": int(version.split(".")[0])},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
        "version": version,
    }


def normal_form(nb, version: str | None = None):
    """``nb`` (an nbformat NotebookNode) in normal form, changed in place and returned.
    ``version`` None keeps the notebook's own Python version if it names one."""
    if (nb.nbformat, nb.nbformat_minor) < (4, 5):
        nb.nbformat, nb.nbformat_minor = 4, 5
    for cell in nb.cells:
        if not cell.get("id"):
            cell["id"] = nbformat.v4.nbbase.random_cell_id()
    if version is None:
        version = nb.metadata.get("language_info", {}).get("version") or this_python()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = language_info(version)
    return nb


def text_of(nb) -> str:
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def normalise(path: Path, version: str | None) -> bool:
    """Rewrite ``path`` in normal form; True if it changed."""
    before = path.read_text(encoding="utf-8")
    nb = nbformat.reads(before, as_version=4)
    after = text_of(normal_form(nb, version))
    if after == before:
        return False
    path.write_text(after, encoding="utf-8")
    return True


def set_version(path: Path, version: str) -> bool:
    """Only point ``language_info`` at Python ``version``; True if it changed."""
    before = path.read_text(encoding="utf-8")
    nb = nbformat.reads(before, as_version=4)
    nb.metadata["language_info"] = language_info(version)
    after = text_of(nb)
    if after == before:
        return False
    path.write_text(after, encoding="utf-8")
    return True


def why_not_normal(path: Path) -> str | None:
    """What keeps ``path`` from normal form (JupyterLab would change it on opening), or None."""
    text = path.read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    meta = nb.metadata
    if (nb.nbformat, nb.nbformat_minor) < (4, 5):
        return f"nbformat {nb.nbformat}.{nb.nbformat_minor} (JupyterLab upgrades it to 4.5)"
    if any(not c.get("id") for c in nb.cells):
        return "cells without ids (JupyterLab adds them)"
    if meta.get("kernelspec") != KERNELSPEC:
        return f"kernelspec {meta.get('kernelspec')} is not the kernel's own {KERNELSPEC}"
    version = meta.get("language_info", {}).get("version")
    if not version or meta["language_info"] != language_info(version):
        return f"language_info {meta.get('language_info')} is not what ipykernel reports"
    if text != text_of(nbformat.reads(text, as_version=4)):
        return "not written by nbformat (run the tool to rewrite it)"
    return None


def notebooks(roots: list[Path]) -> list[Path]:
    found = []
    for root in roots:
        if root.is_file():
            found.append(root)
        else:
            found += [p for p in sorted(root.rglob("*.ipynb"))
                      if ".ipynb_checkpoints" not in p.parts]
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", type=Path,
                        help="notebooks or folders (default: notebooks/, apps/, exercises/)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a notebook is not in normal form")
    parser.add_argument("--this-python", action="store_true",
                        help="only set language_info to this Python's version")
    args = parser.parse_args(argv)
    roots = args.paths or [REPO / f for f in FOLDERS if (REPO / f).is_dir()]
    if args.check:
        bad = [f"{p}: {why}" for p in notebooks(roots) if (why := why_not_normal(p))]
        if bad:
            print("not in normal form (run python tools/notebook_format.py):", *bad,
                  sep="\n  ")
            return 1
        return 0
    for path in notebooks(roots):
        changed = (set_version(path, this_python()) if args.this_python
                   else normalise(path, this_python()))
        if changed:
            print("normalised", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
