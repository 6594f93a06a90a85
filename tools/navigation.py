"""Write the navigation lines of every lesson notebook from the file tree (issue 11).

Every notebook in notebooks/ gets, right after its title cell, a markdown cell tagged
``navigation``: index · walkthrough · odds · explore · the game's exercises; and, as its
last cell, a markdown cell tagged ``navigation-next`` with the "next" link. The index
also gets its exercise list (a cell tagged ``exercise-list``).

Exercise links go to the student files: exercises/release/<game>/*.ipynb if that folder
exists, else exercises/source/<game>/*.ipynb, else exercises/<game>/*.ipynb. Links always
name a file, never a folder.

Run it again whenever notebooks or exercises are added, moved or renamed:

    .venv/bin/python tools/navigation.py          # rewrite the tagged cells
    .venv/bin/python tools/navigation.py --check  # exit 1 if any notebook is out of date

It is idempotent: only the tagged markdown cells are touched (outputs stay as they are,
so no notebook needs re-executing), and a notebook already up to date is not rewritten.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
EXERCISES = REPO / "exercises"

# The order of the lessons: the index's table order, each game walkthrough → odds → explore.
GAMES = {
    "horse": "My Kingdom for a Horse",
    "woods": "King of the Woods",
    "black_forest": "Into the Black Forest",
    "elves": "King of the Elves",
    "ten_characters": "Ten Characters",
}
KINDS = {"walkthrough": "walkthrough", "odds": "odds", "explore": "explore"}

NAV_TAG = "navigation"
NEXT_TAG = "navigation-next"
LIST_TAG = "exercise-list"


def exercise_folder(game: str) -> Path | None:
    """Where the students' copies of a game's exercises are (release, then source, then old)."""
    for folder in (EXERCISES / "release" / game, EXERCISES / "source" / game, EXERCISES / game):
        if sorted(folder.glob("*.ipynb")):
            return folder
    return None


def exercise_files(game: str) -> list[Path]:
    folder = exercise_folder(game)
    return sorted(folder.glob("*.ipynb")) if folder else []


def exercise_title(path: Path, game: str) -> str:
    """The exercise's own title, without "Exercise:" and without the game's name."""
    try:
        first = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
    except (IndexError, OSError, ValueError):
        first = ""
    title = first.lstrip("#").strip()
    title = re.sub(r"^Exercise:\s*", "", title)
    title = re.sub(r"\s*\(" + re.escape(GAMES[game]) + r"\)\s*$", "", title)
    return title or path.stem.replace("_", " ")


def link(target: Path, frm: Path, text: str, anchor: str = "") -> str:
    rel = os.path.relpath(target, frm.parent).replace(os.sep, "/")
    return f"[{text}]({rel}{'#' + anchor if anchor else ''})"


def lesson_order() -> list[Path]:
    return [NOTEBOOKS / g / f"{k}.ipynb" for g in GAMES for k in KINDS
            if (NOTEBOOKS / g / f"{k}.ipynb").is_file()]


def exercises_line(game: str, frm: Path) -> str:
    files = exercise_files(game)
    if not files:
        return "exercises: none yet"
    return "exercises: " + " · ".join(link(f, frm, exercise_title(f, game)) for f in files)


def nav_line(path: Path) -> str:
    index = NOTEBOOKS / "index.ipynb"
    if path == index:
        games = " · ".join(link(NOTEBOOKS / g / "walkthrough.ipynb", path, name)
                           for g, name in GAMES.items())
        return (f"**You are on the index** · the games: {games} · "
                f"[choose your lesson](#Choose-your-lesson) · [exercises](#Exercises)")
    game, kind = path.parent.name, path.stem
    lessons = []
    for k, label in KINDS.items():
        target = NOTEBOOKS / game / f"{k}.ipynb"
        if k == kind:
            lessons.append(f"**{label}** (you are here)")
        elif target.is_file():
            lessons.append(link(target, path, label))
    parts = [link(index, path, "index"), f"**{GAMES[game]}:** " + " · ".join(lessons),
             exercises_line(game, path)]
    return " · ".join(parts)


def next_line(path: Path) -> str:
    index = NOTEBOOKS / "index.ipynb"
    order = lesson_order()
    if path == index:
        first = order[0]
        return (f"**Next:** {link(first, path, f'{GAMES[first.parent.name]} — the walkthrough')}"
                " (the rules step by step).")
    game = path.parent.name
    pos = order.index(path) if path in order else -1
    following = order[pos + 1] if 0 <= pos < len(order) - 1 else None
    lines = []
    if following is not None:
        label = f"{GAMES[following.parent.name]} — {KINDS[following.stem]}"
        lines.append(f"**Next:** {link(following, path, label)}")
    else:
        lines.append(f"**Next:** back to the {link(index, path, 'index')} to choose another lesson")
    if path.stem == "explore" or following is None or following.parent.name != game:
        lines.append(f"Before you move on, try the {exercises_line(game, path)}")
    lines.append(f"Or go back to the {link(index, path, 'index')}.")
    return "\n\n".join(lines)


def exercise_list(path: Path) -> str:
    lines = ["### Exercises", "",
             "Each exercise is a notebook to work through: questions, a place for your answer "
             "and checks that tell you when it is right.", ""]
    for game, name in GAMES.items():
        files = exercise_files(game)
        if files:
            links = " · ".join(link(f, path, exercise_title(f, game)) for f in files)
            lines.append(f"* **{name}**: {links}")
    return "\n".join(lines)


# ---- the German twins (issue 31): notebooks/de/... -------------------------------------
# Links go to a German twin where it exists, else to the English notebook "(auf Englisch)".

GERMAN = NOTEBOOKS / "de"
GAMES_DE = {
    "horse": "Mein Königreich für ein Pferd",
    "woods": "Der König des Waldes",
    "black_forest": "In den Schwarzwald",
    "elves": "König der Elfen",
    "ten_characters": "Zehn Charaktere",
}
KINDS_DE = {"walkthrough": "Regeln", "odds": "Wahrscheinlichkeiten", "explore": "Erkunden"}
IN_ENGLISH = " (auf Englisch)"


def german(english: Path) -> tuple[Path, str]:
    """The German twin of a lesson if it exists (and ""), else the English one and
    " (auf Englisch)"."""
    twin = GERMAN / english.relative_to(NOTEBOOKS)
    return (twin, "") if twin.is_file() else (english, IN_ENGLISH)


def exercise_files_de(game: str) -> tuple[list[Path], str]:
    for folder in (EXERCISES / "release" / f"{game}_de", EXERCISES / "source" / f"{game}_de"):
        if sorted(folder.glob("*.ipynb")):
            return sorted(folder.glob("*.ipynb")), ""
    return exercise_files(game), IN_ENGLISH


def exercise_title_de(path: Path, game: str) -> str:
    if not path.parent.name.endswith("_de"):
        return exercise_title(path, game)
    try:
        first = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
    except (IndexError, OSError, ValueError):
        first = ""
    title = re.sub(r"^(?:Übung|Aufgabe):\s*", "", first.lstrip("#").strip())
    for name in (GAMES_DE[game], GAMES[game]):
        title = re.sub(r"\s*\(" + re.escape(name) + r"\)\s*$", "", title)
    return title or path.stem.replace("_", " ")


def exercises_line_de(game: str, frm: Path) -> str:
    files, note = exercise_files_de(game)
    if not files:
        return "Übungen: noch keine"
    return "Übungen: " + " · ".join(link(f, frm, exercise_title_de(f, game) + note) for f in files)


def lesson_order_de() -> list[Path]:
    """The German lessons in order (walkthrough, odds; each German if it exists)."""
    found = []
    for g in GAMES:
        for k in ("walkthrough", "odds"):
            target, _ = german(NOTEBOOKS / g / f"{k}.ipynb")
            if target.is_file():
                found.append(target)
    return found


def nav_line_de(path: Path) -> str:
    index = GERMAN / "index.ipynb"
    if path == index:
        games = " · ".join(link(german(NOTEBOOKS / g / "walkthrough.ipynb")[0], path, name)
                           for g, name in GAMES_DE.items())
        return (f"**Du bist auf der Startseite** · die Spiele: {games} · "
                f"[wähle deine Lektion](#Wähle-deine-Lektion) · [Übungen](#Übungen) · "
                f"[English](../index.ipynb)")
    game, kind = path.parent.name, path.stem
    lessons = []
    for k, label in KINDS_DE.items():
        target, note = german(NOTEBOOKS / game / f"{k}.ipynb")
        if k == kind:
            lessons.append(f"**{label}** (du bist hier)")
        elif target.is_file():
            lessons.append(link(target, path, label + note))
    parts = [link(index, path, "Startseite"), f"**{GAMES_DE[game]}:** " + " · ".join(lessons),
             exercises_line_de(game, path)]
    return " · ".join(parts)


def next_line_de(path: Path) -> str:
    index = GERMAN / "index.ipynb"
    order = lesson_order_de()
    if path == index:
        first = order[0]
        return (f"**Weiter:** {link(first, path, f'{GAMES_DE[first.parent.name]} — die Regeln')}"
                " (Schritt für Schritt).")
    game = path.parent.name
    pos = order.index(path) if path in order else -1
    following = order[pos + 1] if 0 <= pos < len(order) - 1 else None
    lines = []
    if following is not None:
        note = "" if following.is_relative_to(GERMAN) else IN_ENGLISH
        label = f"{GAMES_DE[following.parent.name]} — {KINDS_DE[following.stem]}{note}"
        lines.append(f"**Weiter:** {link(following, path, label)}")
    else:
        lines.append(f"**Weiter:** zurück zur {link(index, path, 'Startseite')}, "
                     "dort wählst du die nächste Lektion")
    if following is None or following.parent.name != game:
        explore = NOTEBOOKS / game / "explore.ipynb"
        if explore.is_file():
            lines.append(f"Zum Weiterforschen: {link(explore, path, KINDS_DE['explore'] + IN_ENGLISH)}")
        lines.append(f"Bevor du weitermachst, probiere die {exercises_line_de(game, path)}")
    lines.append(f"Oder zurück zur {link(index, path, 'Startseite')}.")
    return "\n\n".join(lines)


def exercise_list_de(path: Path) -> str:
    lines = ["### Übungen", "",
             "Jede Übung ist ein Notebook zum Durcharbeiten: Fragen, ein Platz für deine Antwort "
             "und Prüfungen, die dir sagen, wann sie stimmt.", ""]
    for game, name in GAMES_DE.items():
        files, note = exercise_files_de(game)
        if files:
            links = " · ".join(link(f, path, exercise_title_de(f, game) + note) for f in files)
            lines.append(f"* **{name}**: {links}")
    return "\n".join(lines)


def german_notebooks() -> list[Path]:
    """The German twins whose navigation this script writes (the index, the lessons)."""
    found = [GERMAN / "index.ipynb"] + [GERMAN / g / f"{k}.ipynb" for g in GAMES for k in KINDS]
    return [p for p in found if p.is_file()]


def lines_for(path: Path) -> dict[str, str]:
    """The navigation cells' texts of one notebook, by tag."""
    if path.is_relative_to(GERMAN):
        want = {NAV_TAG: nav_line_de(path), NEXT_TAG: next_line_de(path)}
        if path == GERMAN / "index.ipynb":
            want[LIST_TAG] = exercise_list_de(path)
    else:
        want = {NAV_TAG: nav_line(path), NEXT_TAG: next_line(path)}
        if path == NOTEBOOKS / "index.ipynb":
            want[LIST_TAG] = exercise_list(path)
    return want


def tagged(nb, tag):
    return [i for i, c in enumerate(nb.cells) if tag in c.metadata.get("tags", [])]


def set_cell(nb, tag: str, source: str, position: int | None) -> None:
    """Put `source` in the markdown cell tagged `tag` (made at `position`, None = end)."""
    found = tagged(nb, tag)
    if found:
        nb.cells[found[0]].source = source
        return
    cell = nbformat.v4.new_markdown_cell(source, metadata={"tags": [tag]})
    if position is None:
        nb.cells.append(cell)
    else:
        nb.cells.insert(position, cell)


def update(path: Path) -> bool:
    """Rewrite the navigation cells of one notebook; True if it changed."""
    nb = nbformat.read(path, as_version=4)
    before = nbformat.writes(nb)
    want = lines_for(path)
    set_cell(nb, NAV_TAG, want[NAV_TAG], 1)
    # the "next" cell is always the last cell
    found = tagged(nb, NEXT_TAG)
    if found and found[0] != len(nb.cells) - 1:
        nb.cells.append(nb.cells.pop(found[0]))
    set_cell(nb, NEXT_TAG, want[NEXT_TAG], None)
    if LIST_TAG in want and tagged(nb, LIST_TAG):
        set_cell(nb, LIST_TAG, want[LIST_TAG], None)
    after = nbformat.writes(nb)
    if after == before:
        return False
    path.write_text(after + ("" if after.endswith("\n") else "\n"), encoding="utf-8")
    return True


def all_notebooks() -> list[Path]:
    index = NOTEBOOKS / "index.ipynb"
    return ([index] if index.is_file() else []) + lesson_order() + german_notebooks()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a notebook's navigation is out of date")
    args = parser.parse_args(argv)
    stale = []
    for path in all_notebooks():
        if args.check:
            nb = nbformat.read(path, as_version=4)
            want = {tag: text for tag, text in lines_for(path).items() if tag != LIST_TAG}
            for tag, text in want.items():
                cells = tagged(nb, tag)
                if not cells or nb.cells[cells[0]].source != text:
                    stale.append(f"{path.relative_to(REPO)} ({tag})")
        elif update(path):
            print("updated", path.relative_to(REPO))
    if stale:
        print("navigation out of date (run tools/navigation.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
