"""Write the student edition: a self-contained folder a teacher can publish (issue 27).

The repository is the teacher edition (lessons, class pages, and the teacher copies of the
exercises with solutions, hidden tests and classic mistakes).  The student edition holds
only what students may see:

    notebooks/          the index and the lessons, each cell tagged ``teacher-only`` left out
                        (pictures beside them as they are; no other file)
    apps/               the class pages
    exercises/<game>/   the student copies (from exercises/release/<game>/)
    wheels/             the kingdoms package as a wheel (the library only)
    binder/             requirements.txt + postBuild: what Binder (repo2docker) installs
    README.md           for students: how to open the lessons, class pages and exercises

Links between notebooks are rewritten for this layout (``../exercises/release/horse/x.ipynb``
becomes ``../exercises/horse/x.ipynb``); a link to anything the edition does not hold stops
the build.  Publish the folder as its own repository (its own Binder link) or as a zip.

    python tools/edition.py student DEST [--zip] [--binder OWNER/REPO]

DEST is emptied first only if it is empty or a student edition written before (it holds the
file ``.kingdoms-student-edition``); anything else is refused.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote

import nbformat

REPO = Path(__file__).resolve().parents[1]
MARKER = ".kingdoms-student-edition"
TEACHER_ONLY = "teacher-only"

# markdown links and html anchors, as tests/test_notebook_links.py reads them
LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_LINK = re.compile(r"""<a\s[^>]*href=["'](?P<target>[^"']+)["']""")

REQUIREMENTS = REPO / "binder" / "requirements.txt"
PICTURES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}

POSTBUILD = """#!/usr/bin/env bash
# repo2docker (mybinder.org) runs this from the folder's root after installing
# binder/requirements.txt: it installs the kingdoms library from the bundled wheel and
# records this Python's version in the notebooks, so that they open unmodified.
set -euo pipefail
python -m pip install --no-cache-dir wheels/{wheel}
python binder/notebook_format.py --this-python notebooks apps exercises
"""


class EditionError(Exception):
    """The student edition cannot be written as asked (a bad DEST, a link it cannot keep)."""


def edition_path(repo_rel: str) -> str | None:
    """Where a file of the repository is in the student edition (paths relative to the
    root, '/'-separated), or None if the edition does not hold it."""
    parts = repo_rel.split("/")
    if parts[0] in ("notebooks", "apps") and repo_rel.endswith(".ipynb"):
        return repo_rel
    if parts[:2] == ["exercises", "release"] and len(parts) == 4 and repo_rel.endswith(".ipynb"):
        return "/".join(["exercises", parts[2], parts[3]])
    return None


def rewrite_links(source: str, repo_file: str, edition_file: str) -> str:
    """``source`` (markdown) with each relative link re-pointed from the repository's layout
    to the edition's; EditionError for a link to something the edition does not hold."""
    def fix(match: re.Match) -> str:
        target = match.group("target")
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            return match.group(0)
        file_part, hash_, fragment = target.partition("#")
        in_repo = os.path.normpath(os.path.join(os.path.dirname(repo_file), unquote(file_part)))
        moved = edition_path(in_repo.replace(os.sep, "/"))
        if moved is None:
            raise EditionError(f"{repo_file}: the link {target!r} goes to {in_repo}, which the "
                               "student edition does not hold")
        new = os.path.relpath(moved, os.path.dirname(edition_file) or ".").replace(os.sep, "/")
        start, end = match.span("target")
        whole = match.group(0)
        offset = match.start()
        return whole[:start - offset] + new + hash_ + fragment + whole[end - offset:]

    out = LINK.sub(fix, source)
    return HTML_LINK.sub(fix, out)


def student_notebook(repo_file: str, edition_file: str):
    """The notebook ``repo_file`` as the edition holds it: cells tagged teacher-only left
    out, links re-pointed."""
    nb = nbformat.read(REPO / repo_file, as_version=4)
    nb.cells = [c for c in nb.cells if TEACHER_ONLY not in c.metadata.get("tags", [])]
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = rewrite_links(cell.source, repo_file, edition_file)
    return nb


def write_notebook(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(nb)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def notebook_files() -> list[str]:
    """The repository's notebooks that go into the edition (repository-relative)."""
    found = []
    for folder in ("notebooks", "apps", "exercises/release"):
        found += [p.relative_to(REPO).as_posix() for p in sorted((REPO / folder).rglob("*.ipynb"))
                  if ".ipynb_checkpoints" not in p.parts]
    return found


def build_wheel(out: Path) -> Path:
    """The kingdoms library as a wheel in ``out``, built from a copy holding only the package,
    pyproject.toml, the licence and a short description (the repository's README, which
    describes the teacher edition, stays out of the wheel's metadata)."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "kingdoms-src"
        src.mkdir()
        shutil.copytree(REPO / "kingdoms", src / "kingdoms",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copy2(REPO / "pyproject.toml", src / "pyproject.toml")
        shutil.copy2(REPO / "LICENSE", src / "LICENSE")
        (src / "README.md").write_text(
            "# kingdoms\n\nFive tabletop games modelled exactly, for lessons in probability "
            "and decision-making.\n", encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                              "-w", str(out), str(src.resolve())],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise EditionError("building the kingdoms wheel failed:\n" + run.stdout + run.stderr)
    wheels = sorted(out.glob("kingdoms-*.whl"))
    if len(wheels) != 1:
        raise EditionError(f"expected one kingdoms wheel in {out}, found {wheels}")
    return wheels[0]


def student_readme(binder: str | None) -> str:
    if binder:
        url = (f"https://mybinder.org/v2/gh/{binder}/HEAD"
               "?urlpath=lab/tree/notebooks/index.ipynb")
        online = (f"[![Binder](https://mybinder.org/badge_logo.svg)]({url}) — open the "
                  f"lessons in your browser, nothing to install: {url}\n\n"
                  "The first start can take a few minutes (Binder builds the environment).")
    else:
        online = ("Your teacher gives you a link that opens these lessons on Binder, in your "
                  "browser, with nothing to install.")
    return f"""# Kingdoms: probability and decisions at the game table

Five tabletop games modelled exactly: step through a game turn by turn, ask "what are the
odds?" and get an exact answer with a simulation beside it, and see what can happen next.

## Open the lessons online

{online}

## Open the lessons on your computer

You need Python 3.10 or newer. In this folder:

```bash
python3 -m venv .venv
.venv/bin/python -m pip install -r binder/requirements.txt wheels/*.whl
.venv/bin/jupyter lab notebooks/index.ipynb
```

(On Windows: `.venv\\Scripts\\python` and `.venv\\Scripts\\jupyter`.)

## What is in this folder

* `notebooks/index.ipynb` — **start here**: the five games, their lessons and the
  exercises. Each game has three lessons in `notebooks/<game>/`: `walkthrough` (the
  rules step by step), `odds` (the probability lesson) and `explore` (simulation and
  strategy). Run a lesson's cells from the top (*Run ▸ Run All Cells*).
* `apps/<game>.ipynb` — the class pages: each game on one page, to play with buttons
  and no code. Open one and choose *Run ▸ Run All Cells*; or, online, change the end of
  the address from `lab/tree/notebooks/index.ipynb` to `voila/render/apps/horse.ipynb`
  (any game) to see the page without the code.
* `exercises/<game>/` — three exercises per game. Each asks questions and has a place
  for your answer (replace the `...`) and a check under it that tells you when your
  answer is right, and gives a hint about what went wrong when it is not. The lessons
  link to them.
* `wheels/` and `binder/` — the `kingdoms` library and what Binder installs; you do
  not need to open them.
"""


def clear(dest: Path) -> None:
    if dest.exists():
        if not dest.is_dir():
            raise EditionError(f"{dest} is a file, not a folder")
        if any(dest.iterdir()) and not (dest / MARKER).is_file():
            raise EditionError(f"{dest} is not empty and is not a student edition written "
                               "before: choose another DEST")
        shutil.rmtree(dest)
    dest.mkdir(parents=True)


def build_student_edition(dest: Path, binder: str | None = None) -> Path:
    """Write the student edition into ``dest`` (see the module's text); returns ``dest``."""
    dest = Path(dest).resolve()
    if dest == REPO or REPO.is_relative_to(dest) or (
            dest.is_relative_to(REPO) and not dest.is_relative_to(REPO / "build")):
        raise EditionError(f"{dest}: write the student edition outside the repository "
                           "(or under build/)")
    clear(dest)
    (dest / MARKER).write_text("written by tools/edition.py student\n", encoding="utf-8")
    for repo_file in notebook_files():
        edition_file = edition_path(repo_file)
        write_notebook(student_notebook(repo_file, edition_file), dest / edition_file)
    for folder in ("notebooks", "apps"):        # pictures beside the lessons (nothing else:
        for path in sorted((REPO / folder).rglob("*")):     # a teacher's file stays home)
            if path.is_file() and path.suffix.lower() in PICTURES and \
                    ".ipynb_checkpoints" not in path.parts:
                target = dest / path.relative_to(REPO)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
    wheel = build_wheel(dest / "wheels")
    binder_dir = dest / "binder"
    binder_dir.mkdir()
    shutil.copy2(REQUIREMENTS, binder_dir / "requirements.txt")
    shutil.copy2(REPO / "tools" / "notebook_format.py", binder_dir / "notebook_format.py")
    post = binder_dir / "postBuild"
    post.write_text(POSTBUILD.format(wheel=wheel.name), encoding="utf-8")
    post.chmod(0o755)
    (dest / "README.md").write_text(student_readme(binder), encoding="utf-8")
    if (REPO / "LICENSE").is_file():
        shutil.copy2(REPO / "LICENSE", dest / "LICENSE")
    return dest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="edition", required=True)
    student = sub.add_parser("student", help="write the student edition into DEST")
    student.add_argument("dest", type=Path)
    student.add_argument("--zip", action="store_true", help="also write DEST.zip")
    student.add_argument("--binder", metavar="OWNER/REPO",
                         help="the GitHub repository the edition will be published as "
                              "(its README then carries the Binder link)")
    args = parser.parse_args(argv)
    if args.binder and not re.fullmatch(r"[A-Za-z0-9-]+/[A-Za-z0-9._-]+", args.binder):
        parser.error("--binder must look like OWNER/REPO")
    try:
        dest = build_student_edition(args.dest, binder=args.binder)
    except EditionError as e:
        print(f"student edition: {e}", file=sys.stderr)
        return 2
    print(f"student edition written to {dest}")
    if args.zip:
        archive = shutil.make_archive(str(dest), "zip", root_dir=dest.parent, base_dir=dest.name)
        print(f"and zipped to {archive}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
