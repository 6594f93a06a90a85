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

The German edition (``--language de``, issue 31) holds the German twins instead, in the
same layout (``notebooks/de/``, ``apps/de/``, ``exercises/<game>_de/``), and the English
notebooks they link to (the explore lessons are English for now; a German notebook says
"(auf Englisch)" beside such a link), a German README, and a Binder recipe that opens
``notebooks/de/index.ipynb`` in a German JupyterLab (its language pack chosen through
``binder/lab-de/overrides.json``).  The English edition holds no German twin.

    python tools/edition.py student DEST [--zip] [--binder OWNER/REPO] [--language en|de]

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

LANGUAGES = ("en", "de")
#: JupyterLab's settings overrides that choose its German language pack (make lab-de too)
LAB_DE = Path("binder") / "lab-de" / "overrides.json"
PICTURES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}

POSTBUILD = """#!/usr/bin/env bash
# repo2docker (mybinder.org) runs this from the folder's root after installing
# binder/requirements.txt: it installs the kingdoms library from the bundled wheel and
# records this Python's version in the notebooks, so that they open unmodified.
set -euo pipefail
python -m pip install --no-cache-dir wheels/{wheel}
python binder/notebook_format.py --this-python notebooks apps exercises
"""
#: the German edition's postBuild goes on: JupyterLab's menus in German for everyone
POSTBUILD_DE = """# JupyterLab in German: its German language pack (binder/requirements.txt) chosen by
# default, through the overrides of JupyterLab's application settings
settings="$(python -c 'from jupyterlab.commands import get_app_dir; print(get_app_dir())')/settings"
mkdir -p "$settings"
cp binder/lab-de/overrides.json "$settings/overrides.json"
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


def _links_german(line: str, repo_file: str) -> bool:
    """Whether a markdown line links a German twin (the English index's "Auf Deutsch")."""
    for match in LINK.finditer(line):
        target = match.group("target").partition("#")[0]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or not target:
            continue
        in_repo = os.path.normpath(os.path.join(os.path.dirname(repo_file), unquote(target)))
        if is_german(in_repo.replace(os.sep, "/")):
            return True
    return False


def student_notebook(repo_file: str, edition_file: str, repo: Path = REPO,
                     language: str | None = None):
    """The notebook ``repo_file`` as the edition holds it: cells tagged teacher-only left
    out, links re-pointed; in the English edition (``language="en"``), which holds no
    German twin, a line linking one is left out too."""
    nb = nbformat.read(repo / repo_file, as_version=4)
    nb.cells = [c for c in nb.cells if TEACHER_ONLY not in c.metadata.get("tags", [])]
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            if language == "en":
                cell.source = "\n".join(line for line in cell.source.split("\n")
                                        if not _links_german(line, repo_file))
            cell.source = rewrite_links(cell.source, repo_file, edition_file)
    return nb


def write_notebook(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(nb)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def is_german(repo_rel: str) -> bool:
    """Whether a notebook of the repository is a German twin (docs/german.md's paths:
    notebooks/de/, apps/de/, exercises/{source,release}/<game>_de/)."""
    parts = repo_rel.split("/")
    if parts[0] in ("notebooks", "apps"):
        return len(parts) > 2 and parts[1] == "de"
    return parts[0] == "exercises" and len(parts) > 2 and parts[2].endswith("_de")


def german_twin(repo_rel: str) -> str:
    """Where the German twin of an English notebook is (docs/german.md's paths)."""
    parts = repo_rel.split("/")
    if parts[0] in ("notebooks", "apps"):
        return "/".join([parts[0], "de", *parts[1:]])
    if parts[0] == "exercises" and len(parts) > 3:
        return "/".join([*parts[:2], parts[2] + "_de", *parts[3:]])
    raise ValueError(f"{repo_rel} has no German twin's place")


def linked_notebooks(repo_file: str, repo: Path = REPO) -> list[str]:
    """The notebooks of the repository that ``repo_file``'s markdown links to (that exist)."""
    nb = nbformat.read(repo / repo_file, as_version=4)
    found = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for m in [*LINK.finditer(cell.source), *HTML_LINK.finditer(cell.source)]:
            target = m.group("target")
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            rel = os.path.normpath(os.path.join(os.path.dirname(repo_file),
                                                unquote(target.partition("#")[0])))
            rel = rel.replace(os.sep, "/")
            if rel.endswith(".ipynb") and (repo / rel).is_file():
                found.append(rel)
    return found


def notebook_files(language: str = "en", repo: Path = REPO) -> list[str]:
    """The repository's notebooks that go into the edition (repository-relative): in
    English every notebook but the German twins; in German the German twins and the
    English notebooks they link to (and those link to, as far as it goes)."""
    every = []
    for folder in ("notebooks", "apps", "exercises/release"):
        every += [p.relative_to(repo).as_posix() for p in sorted((repo / folder).rglob("*.ipynb"))
                  if ".ipynb_checkpoints" not in p.parts]
    if language == "en":
        return [f for f in every if not is_german(f)]
    found = [f for f in every if is_german(f)]
    todo = list(found)
    while todo:
        for target in linked_notebooks(todo.pop(0), repo):
            if target not in found and edition_path(target) is not None:
                found.append(target)
                todo.append(target)
    return sorted(found)


def build_wheel(out: Path, repo: Path = REPO) -> Path:
    """The kingdoms library as a wheel in ``out``, built from a copy holding only the package,
    pyproject.toml, the licence and a short description (the repository's README, which
    describes the teacher edition, stays out of the wheel's metadata)."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "kingdoms-src"
        src.mkdir()
        shutil.copytree(repo / "kingdoms", src / "kingdoms",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copy2(repo / "pyproject.toml", src / "pyproject.toml")
        shutil.copy2(repo / "LICENSE", src / "LICENSE")
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


def student_readme_de(binder: str | None, english: list[str] = ()) -> str:
    """The German edition's README (German, for students: du); ``english``: the English
    lessons it holds that have no German twin (those the German ones link to)."""
    kinds = sorted({Path(f).stem for f in english if f.startswith("notebooks/")})
    if kinds:
        also = ("Die Lektionen " + ", ".join(f"`{k}`" for k in kinds) + " gibt es (noch) nur "
                "auf Englisch, in `notebooks/`; ein Link zu ihnen sagt „(auf Englisch)“. ")
    else:
        also = ""
    if binder:
        url = (f"https://mybinder.org/v2/gh/{binder}/HEAD"
               "?urlpath=lab/tree/notebooks/de/index.ipynb")
        online = (f"[![Binder](https://mybinder.org/badge_logo.svg)]({url}) — öffne die "
                  f"Lektionen in deinem Browser, ohne etwas zu installieren: {url}\n\n"
                  "Der erste Start kann ein paar Minuten dauern (Binder baut die Umgebung auf).")
    else:
        online = ("Deine Lehrerin oder dein Lehrer gibt dir einen Link, der diese Lektionen "
                  "auf Binder öffnet: in deinem Browser, ohne etwas zu installieren.")
    return f"""# Kingdoms: Wahrscheinlichkeit und Entscheidungen am Spieltisch

Fünf Brettspiele, exakt nachgebildet: Spiele eine Partie Zug für Zug durch, frage „Wie
stehen die Chancen?“ und bekomme eine exakte Antwort mit einer Simulation daneben, und sieh,
was als Nächstes geschehen kann.

## Die Lektionen im Browser öffnen

{online}

## Die Lektionen auf deinem Computer öffnen

Du brauchst Python 3.10 oder neuer. In diesem Ordner:

```bash
python3 -m venv .venv
.venv/bin/python -m pip install -r binder/requirements.txt wheels/*.whl
.venv/bin/jupyter lab --LabApp.app_settings_dir=binder/lab-de notebooks/de/index.ipynb
```

(Unter Windows: `.venv\\Scripts\\python` und `.venv\\Scripts\\jupyter`.) Mit
`--LabApp.app_settings_dir=binder/lab-de` zeigt JupyterLab seine Menüs auf Deutsch; sonst
stellst du die Sprache unter *Settings ▸ Language ▸ Deutsch* selbst ein.

## Was in diesem Ordner liegt

* `notebooks/de/index.ipynb` — **hier fängst du an**: die fünf Spiele, ihre Lektionen und
  die Übungen. Zu jedem Spiel gibt es in `notebooks/de/<Spiel>/` die Lektionen
  `walkthrough` (die Regeln Schritt für Schritt) und `odds` (die Lektion zur
  Wahrscheinlichkeit). {also}Führe die Zellen einer Lektion von oben aus
  (*Ausführen ▸ Alle Zellen ausführen*).
* `apps/de/<Spiel>.ipynb` — die Klassenseiten: jedes Spiel auf einer Seite, mit Knöpfen
  zum Spielen und ohne Code. Öffne eine und wähle *Ausführen ▸ Alle Zellen ausführen*;
  oder ändere im Browser das Ende der Adresse von `lab/tree/notebooks/de/index.ipynb` zu
  `voila/render/apps/de/horse.ipynb` (jedes Spiel), um die Seite ohne Code zu sehen.
* `exercises/<Spiel>_de/` — drei Übungen je Spiel. Jede stellt Fragen und hat einen Platz
  für deine Antwort (ersetze die `...`) und darunter eine Prüfung, die dir sagt, wann deine
  Antwort stimmt, und dir einen Hinweis gibt, was schiefging, wenn nicht. Die Lektionen
  verlinken sie.
* `wheels/` und `binder/` — die Bibliothek `kingdoms` und was Binder installiert; du musst
  sie nicht öffnen.
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


def build_student_edition(dest: Path, binder: str | None = None, language: str = "en",
                          repo: Path = REPO) -> Path:
    """Write the student edition into ``dest`` (see the module's text); returns ``dest``.
    ``language`` "de": the German edition.  ``repo``: the checkout to take it from."""
    if language not in LANGUAGES:
        raise EditionError(f"language {language!r}: the editions are "
                           + " and ".join(repr(code) for code in LANGUAGES))
    repo = Path(repo).resolve()
    dest = Path(dest).resolve()
    if dest == repo or repo.is_relative_to(dest) or (
            dest.is_relative_to(repo) and not dest.is_relative_to(repo / "build")):
        raise EditionError(f"{dest}: write the student edition outside the repository "
                           "(or under build/)")
    files = notebook_files(language, repo)
    if language == "de" and "notebooks/de/index.ipynb" not in files:
        raise EditionError("the German edition starts at notebooks/de/index.ipynb, which "
                           f"{repo} does not have")
    clear(dest)
    (dest / MARKER).write_text(f"written by tools/edition.py student --language {language}\n",
                               encoding="utf-8")
    for repo_file in files:
        edition_file = edition_path(repo_file)
        write_notebook(student_notebook(repo_file, edition_file, repo, language),
                       dest / edition_file)
    for folder in ("notebooks", "apps"):        # pictures beside the lessons (nothing else:
        for path in sorted((repo / folder).rglob("*")):     # a teacher's file stays home)
            rel = path.relative_to(repo).as_posix()
            if path.is_file() and path.suffix.lower() in PICTURES and \
                    ".ipynb_checkpoints" not in path.parts and \
                    not (language == "en" and is_german(rel)):
                target = dest / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
    wheel = build_wheel(dest / "wheels", repo)
    binder_dir = dest / "binder"
    binder_dir.mkdir()
    shutil.copy2(repo / "binder" / "requirements.txt", binder_dir / "requirements.txt")
    shutil.copy2(repo / "tools" / "notebook_format.py", binder_dir / "notebook_format.py")
    post = binder_dir / "postBuild"
    script = POSTBUILD.format(wheel=wheel.name)
    if language == "de":
        (binder_dir / LAB_DE.parent.name).mkdir()
        shutil.copy2(repo / LAB_DE, dest / LAB_DE)
        script += POSTBUILD_DE
    post.write_text(script, encoding="utf-8")
    post.chmod(0o755)
    untranslated = [f for f in files if not is_german(f) and german_twin(f) not in files]
    readme = student_readme_de(binder, untranslated) \
        if language == "de" else student_readme(binder)
    (dest / "README.md").write_text(readme, encoding="utf-8")
    if (repo / "LICENSE").is_file():
        shutil.copy2(repo / "LICENSE", dest / "LICENSE")
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
    student.add_argument("--language", choices=LANGUAGES, default="en",
                         help="en: the English edition; de: the German one (the German "
                              "lessons, class pages and exercises, JupyterLab in German)")
    args = parser.parse_args(argv)
    if args.binder and not re.fullmatch(r"[A-Za-z0-9-]+/[A-Za-z0-9._-]+", args.binder):
        parser.error("--binder must look like OWNER/REPO")
    try:
        dest = build_student_edition(args.dest, binder=args.binder, language=args.language)
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
