"""Write the navigation lines of every lesson notebook from the file tree (issue 11).

Every notebook in notebooks/ gets, right after its title cell, a markdown cell tagged
``navigation``: index · walkthrough · odds · explore · the game's exercises; and, as its
last cell, a markdown cell tagged ``navigation-next`` with the "next" link. The index
also gets its exercise list (a cell tagged ``exercise-list``).

Exercise links go to the student files: exercises/release/<game>/*.ipynb if that folder
exists, else exercises/source/<game>/*.ipynb, else exercises/<game>/*.ipynb. Links always
name a file, never a folder.

The German twins (notebooks/de/, issue 31) get the same cells in German; their links go to
the German twin of a lesson or exercise (exercises/release/<game>_de/) where it exists, else
to the English one, saying "(auf Englisch)". When a twin appears, this script also re-points
every other link of the German notebooks that went to its English notebook (a link to a
section goes to the same section of the twin, under its German heading).

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
GERMAN = NOTEBOOKS / "de"
IN_ENGLISH = " (auf Englisch)"

# every word of the navigation, by language
WORDS = {
    "en": {
        "games": GAMES, "kinds": KINDS, "index": "index",
        "on_index": "**You are on the index** · the games: {games} · "
                    "[choose your lesson](#Choose-your-lesson) · [exercises](#Exercises)",
        "here": "**{label}** (you are here)", "exercises": "exercises: ", "none": "exercises: none yet",
        "first": "**Next:** {link} (the rules step by step).", "first_label": "{game} — the walkthrough",
        "next": "**Next:** {link}", "back": "**Next:** back to the {link} to choose another lesson",
        "try": "Before you move on, try the {exercises}", "explore": None,
        "or": "Or go back to the {link}.",
        "list": ["### Exercises", "", "Each exercise is a notebook to work through: questions, a place "
                 "for your answer and checks that tell you when it is right.", ""],
        "title": r"^Exercise:\s*",
    },
    "de": {
        "games": {
            "horse": "Mein Königreich für ein Pferd",
            "woods": "Der König des Waldes",
            "black_forest": "In den Schwarzwald",
            "elves": "König der Elfen",
            "ten_characters": "Zehn Charaktere",
        },
        "kinds": {"walkthrough": "Regeln", "odds": "Wahrscheinlichkeiten", "explore": "Erkunden"},
        "index": "Startseite",
        "on_index": "**Du bist auf der Startseite** · die Spiele: {games} · "
                    "[wähle deine Lektion](#Wähle-deine-Lektion) · [Übungen](#Übungen) · "
                    "[English](../index.ipynb)",
        "here": "**{label}** (du bist hier)", "exercises": "Übungen: ", "none": "Übungen: noch keine",
        "first": "**Weiter:** {link} (Schritt für Schritt).", "first_label": "{game} — die Regeln",
        "next": "**Weiter:** {link}",
        "back": "**Weiter:** zurück zur {link}, dort wählst du die nächste Lektion",
        "try": "Bevor du weitermachst, probiere die {exercises}",
        "explore": "Zum Weiterforschen: {link}",
        "or": "Oder zurück zur {link}.",
        "list": ["### Übungen", "", "Jede Übung ist ein Notebook zum Durcharbeiten: Fragen, ein Platz "
                 "für deine Antwort und Prüfungen, die dir sagen, wann sie stimmt.", ""],
        "title": r"^(?:Übung|Aufgabe):\s*",
    },
}

NAV_TAG = "navigation"
NEXT_TAG = "navigation-next"
LIST_TAG = "exercise-list"


def language(path: Path) -> str:
    return "de" if path.is_relative_to(GERMAN) else "en"


def lesson(game: str, kind: str, lang: str) -> tuple[Path, str]:
    """A game's lesson in ``lang`` and "", or (for German without a twin yet) the English
    lesson and " (auf Englisch)"."""
    english = NOTEBOOKS / game / f"{kind}.ipynb"
    twin = GERMAN / game / f"{kind}.ipynb"
    if lang == "de" and twin.is_file():
        return twin, ""
    return english, ("" if lang == "en" else IN_ENGLISH)


def exercise_folder(game: str) -> Path | None:
    """Where the students' copies of a game's exercises are (release, then source, then old)."""
    for folder in (EXERCISES / "release" / game, EXERCISES / "source" / game, EXERCISES / game):
        if sorted(folder.glob("*.ipynb")):
            return folder
    return None


def exercise_files(game: str, lang: str = "en") -> list[Path]:
    if lang != "en":
        folder = exercise_folder(f"{game}_{lang}")
        if folder is not None:
            return sorted(folder.glob("*.ipynb"))
    folder = exercise_folder(game)
    return sorted(folder.glob("*.ipynb")) if folder else []


def exercise_title(path: Path, game: str) -> str:
    """The exercise's own title, without "Exercise:" and without the game's name (and
    "(auf Englisch)" when a German notebook links an English exercise)."""
    lang = "de" if path.parent.name.endswith("_de") else "en"
    try:
        first = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
    except (IndexError, OSError, ValueError):
        first = ""
    title = first.lstrip("#").strip()
    title = re.sub(WORDS[lang]["title"], "", title)
    for name in {GAMES[game], WORDS[lang]["games"][game]}:
        title = re.sub(r"\s*\(" + re.escape(name) + r"\)\s*$", "", title)
    return title or path.stem.replace("_", " ")


def link(target: Path, frm: Path, text: str, anchor: str = "") -> str:
    rel = os.path.relpath(target, frm.parent).replace(os.sep, "/")
    return f"[{text}]({rel}{'#' + anchor if anchor else ''})"


def lesson_order(lang: str = "en") -> list[Path]:
    """The lessons in order: the index's table order, each game walkthrough → odds →
    explore (German: walkthrough → odds, each the German twin if it exists)."""
    kinds = KINDS if lang == "en" else ("walkthrough", "odds")
    found = [lesson(g, k, lang)[0] for g in GAMES for k in kinds]
    return [p for p in found if p.is_file()]


def exercise_links(game: str, frm: Path) -> str:
    lang = language(frm)
    files = exercise_files(game, lang)
    return " · ".join(link(f, frm, exercise_title(f, game)
                           + (IN_ENGLISH if lang != "en" and not f.parent.name.endswith(f"_{lang}") else ""))
                      for f in files)


def exercises_line(game: str, frm: Path) -> str:
    words = WORDS[language(frm)]
    links = exercise_links(game, frm)
    return words["exercises"] + links if links else words["none"]


def nav_line(path: Path) -> str:
    lang = language(path)
    words = WORDS[lang]
    index = (GERMAN if lang == "de" else NOTEBOOKS) / "index.ipynb"
    if path == index:
        games = " · ".join(link(lesson(g, "walkthrough", lang)[0], path, name)
                           for g, name in words["games"].items())
        return words["on_index"].format(games=games)
    game, kind = path.parent.name, path.stem
    lessons = []
    for k, label in words["kinds"].items():
        target, note = lesson(game, k, lang)
        if k == kind:
            lessons.append(words["here"].format(label=label))
        elif target.is_file():
            lessons.append(link(target, path, label + note))
    parts = [link(index, path, words["index"]), f"**{words['games'][game]}:** " + " · ".join(lessons),
             exercises_line(game, path)]
    return " · ".join(parts)


def next_line(path: Path) -> str:
    lang = language(path)
    words = WORDS[lang]
    index = (GERMAN if lang == "de" else NOTEBOOKS) / "index.ipynb"
    order = lesson_order(lang)
    if path == index:
        first = order[0]
        label = words["first_label"].format(game=words["games"][first.parent.name])
        return words["first"].format(link=link(first, path, label))
    game = path.parent.name
    pos = order.index(path) if path in order else -1
    following = order[pos + 1] if 0 <= pos < len(order) - 1 else None
    lines = []
    if following is not None:
        note = IN_ENGLISH if language(following) != lang else ""
        label = f"{words['games'][following.parent.name]} — {words['kinds'][following.stem]}{note}"
        lines.append(words["next"].format(link=link(following, path, label)))
    else:
        lines.append(words["back"].format(link=link(index, path, words["index"])))
    if path.stem == "explore" or following is None or following.parent.name != game:
        explore, note = lesson(game, "explore", lang)
        if words["explore"] and explore.is_file():
            lines.append(words["explore"].format(
                link=link(explore, path, words["kinds"]["explore"] + note)))
        lines.append(words["try"].format(exercises=exercises_line(game, path)))
    lines.append(words["or"].format(link=link(index, path, words["index"])))
    return "\n\n".join(lines)


def exercise_list(path: Path) -> str:
    words = WORDS[language(path)]
    lines = list(words["list"])
    for game, name in words["games"].items():
        links = exercise_links(game, path)
        if links:
            lines.append(f"* **{name}**: {links}")
    return "\n".join(lines)


def lines_for(path: Path) -> dict[str, str]:
    """The navigation cells' texts of one notebook, by tag."""
    want = {NAV_TAG: nav_line(path), NEXT_TAG: next_line(path)}
    if path.name == "index.ipynb":
        want[LIST_TAG] = exercise_list(path)
    return want


# ---- German links that can now go to a German twin ----------------------------------------

LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s#]+)(?:#(?P<fragment>[^)\s]*))?\)"
                  r"(?P<note> \(auf Englisch\))?")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def heading_anchor(heading: str) -> str:
    """JupyterLab's anchor of a heading: its text (markdown marks removed), spaces as '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = re.sub(r"(\*\*|__|\*|_)(.+?)\1", r"\2", text)
    return text.strip().replace(" ", "-")


def german_twin_of(english: Path) -> Path | None:
    """The German twin of an English lesson, class page or exercise (student copy), if it
    exists."""
    rel = english.relative_to(REPO).parts
    if rel[0] in ("notebooks", "apps") and rel[1:2] != ("de",):
        twin = REPO / rel[0] / "de" / Path(*rel[1:])
    elif rel[0] == "exercises" and len(rel) == 4 and not rel[2].endswith("_de"):
        twin = REPO / rel[0] / rel[1] / f"{rel[2]}_de" / rel[3]
    else:
        return None
    return twin if twin.is_file() else None


def german_heading(english: Path, twin: Path, anchor: str) -> str | None:
    """The German heading of the twin's cell whose English heading has ``anchor``: the
    twins have the same cells in the same order (tools/twins.py), so it is the same
    heading of the same cell."""
    en_cells = nbformat.read(english, as_version=4).cells
    de_cells = nbformat.read(twin, as_version=4).cells
    for en, de in zip(en_cells, de_cells):
        if en.cell_type != "markdown":
            continue
        en_heads, de_heads = HEADING.findall(en.source), HEADING.findall(de.source)
        for k, head in enumerate(en_heads):
            if heading_anchor(head) == anchor and k < len(de_heads):
                return de_heads[k]
    return None


def relink(path: Path, source: str) -> str:
    """A German notebook's markdown with every link to an English notebook that now has a
    German twin re-pointed to the twin (a section link to the twin's German heading, a
    link titled with that heading retitled), and its "(auf Englisch)" dropped."""
    def fix(m: re.Match) -> str:
        target = (path.parent / m.group("target")).resolve()
        if target.suffix != ".ipynb" or not target.is_relative_to(REPO) or \
                target == NOTEBOOKS / "index.ipynb":      # "English": the switch of language
            return m.group(0)
        twin = german_twin_of(target)
        if twin is None:
            return m.group(0)
        text = m.group("text").replace(IN_ENGLISH, "")
        fragment = m.group("fragment") or ""
        if fragment:
            german = german_heading(target, twin, fragment)
            if german is None:
                return m.group(0)
            if heading_anchor(text) == fragment:
                text = german
            fragment = heading_anchor(german)
        return link(twin, path, text, fragment)
    return LINK.sub(fix, source)


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
    if language(path) == "de":
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = relink(path, cell.source)
    after = nbformat.writes(nb)
    if after == before:
        return False
    path.write_text(after + ("" if after.endswith("\n") else "\n"), encoding="utf-8")
    return True


def all_notebooks() -> list[Path]:
    index = NOTEBOOKS / "index.ipynb"
    german = [GERMAN / "index.ipynb"] + [GERMAN / g / f"{k}.ipynb" for g in GAMES for k in KINDS]
    return ([index] if index.is_file() else []) + lesson_order() + [p for p in german if p.is_file()]


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
            if language(path) == "de" and any(
                    c.cell_type == "markdown" and relink(path, c.source) != c.source for c in nb.cells):
                stale.append(f"{path.relative_to(REPO)} (a link to English where a German twin exists)")
        elif update(path):
            print("updated", path.relative_to(REPO))
    if stale:
        print("navigation out of date (run tools/navigation.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
