"""What a German lesson shows is German: the stored outputs of every German notebook
(notebooks/de, apps/de, exercises/source/<game>_de) hold no English words (tests/german.py).

The notebooks are stored executed (nbval compares them), so this reads what a German class
sees without running anything: printed text, a result's text, the words of an HTML table
(tags, styles and drawings left out), line by line."""
from __future__ import annotations

import functools
import re
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from german import english_words, readable  # noqa: E402

NOTEBOOKS = sorted(p for p in [*(REPO / "notebooks" / "de").rglob("*.ipynb"),
                               *(REPO / "apps" / "de").glob("*.ipynb"),
                               *(REPO / "exercises" / "source").glob("*_de/*.ipynb")]
                   if ".ipynb_checkpoints" not in p.parts)

# What is read of an output: its text (also a widget's or a picture's text/plain, which is
# what a page without the widget's state shows) and the words of its HTML; not pictures
# (SVG, PNG), widget state or records (JSON).
TEXT_MIME = ("text/plain", "text/markdown", "text/latex")

# What may legitimately stay English in a German output, each with why (a regex whose match
# is removed from the line before the scan; keep this list short).
ALLOWED = {
    # code a sentence quotes so that the student can type it: a function or a keyword
    r"`[^`\n]*`": "code quoted between backticks (`by_hand`, `data='meine.toml'`)",
    r"\bkingdoms(?:\.\w+)+(?:/[\w.]+)*": "the library's names and files (kingdoms.game(...))",
    r"\b\w+\s*=\s*'[^'\n]*'": "a keyword argument echoed as code (data='meine.toml')",
    # an option or a function named as the code spells it ("(Option round_tie)", its
    # value 'nobody'): what the student types, explained in German beside it
    r"\b[a-z]+(?:_[a-z0-9]+)+\b": "a snake_case name (round_tie, by_hand)",
    r"'[a-z_]+'": "an option's value in quotes ('nobody')",
    # a game record printed as JSON: its keys and word values are the file format, not prose
    r'"[a-z_]+"\s*:(?:\s*"[a-z_]*")?': "a record's JSON key (and value: \"mode\": \"points\")",
    # tqdm's progress bar ("12.3it/s") is the library's, not ours
    r"\d(?:\.\d+)?\s?it/s\b|\?it/s": "tqdm's rate",
}
ALLOWED_RE = re.compile("|".join(f"(?:{r})" for r in ALLOWED))

# The data's English names of components (cards, characters, terrains, the title) whose German
# name differs: as the data spells them ("Fool", "giant_pig"), as an English text shows them
# ("giant pig", "Fortune Teller", "Fools"), whole words, case-sensitive (so the German "Gold"
# of "gold" is no hit). A German output shows game.component_name(...) / game.label(...).
GAMES = ("woods", "black_forest", "elves", "horse", "ten_characters")
# what the name scan lets through of a line: code quoted or echoed (as ALLOWED), and
NAME_ALLOWED = {r: why for r, why in ALLOWED.items()
                if why.startswith(("code quoted", "the library's", "a keyword", "a record's"))}
NAME_ALLOWED |= {
    # a picture's repr (its text/plain beside the SVG a class sees; a repr stays English)
    r"<tree drawing \(SVG\)>": "TreePicture's repr ('tree' is also an Elves card)",
    # King of the Elves' card kinds as the exercise's code spells them (deck["travel:raft"])
    r"\b(?:village|travel|special):[a-z_]+(?::\d+)?": "an Elves card kind (an id in code)",
    # a check echoing the id a student typed, as the question asks (dominated_row = "noble")
    r"^✓ [^\n]*: [a-z_]+ stimmt\.$": "the student's typed answer, echoed by its check",
}
NAME_ALLOWED_RE = re.compile("|".join(f"(?:{r})" for r in NAME_ALLOWED))


def english_names_pattern(games=GAMES) -> re.Pattern:
    import kingdoms
    pairs = [(e, local) for g in games
             for e, local, _how, _note in kingdoms.game(g).game_data().translated_names("de")]
    german = {local for _e, local in pairs}
    shown = set()
    for english in {e for e, local in pairs if e != local}:
        for v in {english, english.replace("_", " ")}:
            shown |= {v, v[0].upper() + v[1:], v.title()}
    shown -= german                          # "Gold" is the German of "gold"
    words = "|".join(map(re.escape, sorted(shown, key=len, reverse=True)))
    return re.compile(rf"(?<![\w-])(?:{words})(?:s|es)?(?![\w-])")


ENGLISH_NAMES = english_names_pattern()


def english_names(line: str) -> list[str]:
    return sorted(set(ENGLISH_NAMES.findall(NAME_ALLOWED_RE.sub(" ", line))))


# Python's way of writing for people: a decimal point ("≈ 0.461": German writes "0,461",
# kingdoms.core.text.number) and True/False (German "ja"/"nein", kingdoms.core.text.truth).
# A German thousands mark ("1.234 Würfe") is no hit: a number with a point is read as a
# decimal when it starts with 0, has other than 3 digits after the point, or follows "≈".
PYTHON_WORDS = re.compile(r"(?<![\w.,])(?:0\.\d+|\d+\.(?:\d{1,2}|\d{4,}))(?![\w.])"
                          r"|≈\s*\d+\.\d+|\b(?:True|False)\b")


def python_words(line: str) -> list[str]:
    return sorted(set(PYTHON_WORDS.findall(NAME_ALLOWED_RE.sub(" ", line))))


def shown_texts(cell):
    """The text of each stored output a person reads (stream, text/plain, HTML's words)."""
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "text" in out:                   # a stream (printed)
            yield out["text"]
        if "text/html" in data:
            yield readable(data["text/html"])
        yield from (data[mime] for mime in TEXT_MIME if mime in data)


# An assumption as kingdoms.core.data.Assumption shows it: "{key} = {value}  (angenommen:
# {reason})".  The key and the value are written as in the data file (a teacher edits the
# file by them), so only the reason is read, and in it the file's keys and ids ("wie bei
# giant_pig", "fortune_teller.initiative") and the values it quotes („seat“) are the file's
# words too.
ASSUMPTION_KEY_VALUE = re.compile(r"^.*?  \(angenommen: ")


@functools.lru_cache(maxsize=1)
def _data_keys() -> frozenset:
    from kingdoms.core.data import load_data
    keys: set = set()

    def walk(node):
        if isinstance(node, Mapping):
            for k, v in node.items():
                keys.add(k)
                walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)
        elif isinstance(node, str) and re.fullmatch(r"[a-z][a-z0-9_]*", node):
            keys.add(node)                  # an id the file gives as a value ("giant_pig")
    for name in GAMES:
        walk(load_data(f"kingdoms.{name}", None).raw)
    return frozenset(keys)


def scanned(line: str) -> str:
    """The part of an output line the scan reads (an assumption: its reason only, without
    the file's keys and the values it quotes)."""
    line, assumption = ASSUMPTION_KEY_VALUE.subn("(", line, count=1)
    if not assumption:
        return line
    line = re.sub(r"„[^“\n]*“", " ", line)
    keys = _data_keys()
    return re.sub(r"[\w.]+", lambda m: " " if all(p in keys for p in m[0].strip(".").split("."))
                  else m[0], line)


def english_lines(path: Path) -> list[str]:
    """Every line of the notebook's stored outputs that holds English words, named by cell."""
    nb = nbformat.read(path, as_version=4)
    return [f"cell {number}: {line.strip()}"
            for number, cell in enumerate(nb.cells, 1) if cell.cell_type == "code"
            for text in shown_texts(cell) for line in map(scanned, text.splitlines())
            if (english_words(ALLOWED_RE.sub(" ", line)) or english_names(line)
                or python_words(line))]


def test_the_scan_catches_what_it_should():
    """The scan itself, on outputs of the kind the German lessons had (so that it cannot
    pass by reading nothing)."""
    cell = {"outputs": [
        {"output_type": "stream", "name": "stdout",
         "text": "Blau/Gelb receives the start player token (+1).\nSpieler 1 ist am Zug.\n"},
        {"output_type": "execute_result", "data": {
            "text/html": "<style>td {color: red}</style><table><tr><th>card drawn</th></tr></table>",
            "text/plain": "<Table>"}},
        {"output_type": "display_data", "data": {
            "image/svg+xml": "<svg><text>the card</text></svg>", "text/plain": "<Figure>"}},
    ]}
    texts = list(shown_texts(cell))
    assert texts[1:] == ["card drawn", "<Table>", "<Figure>"]       # no style, no SVG
    lines = [line for text in texts for line in text.splitlines()
             if english_words(ALLOWED_RE.sub(" ", line))]
    assert lines == ["Blau/Gelb receives the start player token (+1).", "card drawn"]
    for fine in ("Rufe `by_hand(the_card)` auf", "kingdoms.game('woods', data='meine.toml')",
                 '{"player": 1, "moves": []}', '  "mode": "points",',
                 "(Option round_tie): Voreingestellt ('nobody': keiner)",
                 "Simulation: 100%| 300/300 [00:01, 250.3it/s]"):
        assert not english_words(ALLOWED_RE.sub(" ", fine)), fine
    assert english_words(ALLOWED_RE.sub(" ", "Into the Black Forest für 3 Personen"))


def test_the_scan_catches_english_names():
    """English names of components, as data or as an English text spells them; German
    names (and words that only contain an English name) pass; numbers and truth values
    written the Python way are caught too."""
    hits = {line: english_names(line) for line in (
        "Die Hand von Spieler 1 jetzt: Fool, Squire", "P(2 Fools) = 27/68",
        "Red 2 (Frog, Swords)", "Übrige Würfel: 2 fences, half cattle, multiply pig",
        "fortune_teller      10/91  0,1099", "giant pig           1", "['sheep', 'pig']")}
    assert hits == {
        "Die Hand von Spieler 1 jetzt: Fool, Squire": ["Fool", "Squire"],
        "P(2 Fools) = 27/68": ["Fools"], "Red 2 (Frog, Swords)": ["Frog", "Red", "Swords"],
        "Übrige Würfel: 2 fences, half cattle, multiply pig": ["cattle", "pig"],
        "fortune_teller      10/91  0,1099": ["fortune_teller"],
        "giant pig           1": ["giant pig"], "['sheep', 'pig']": ["pig", "sheep"]}
    assert python_words("P(Gewinn) = 6373/13824 ≈ 0.461; jetzt fertig: True") == ["True", "≈ 0.461"]
    assert python_words("Mittelwert: 3.974 ≈ 2.167, exakt 0.0779, 2.29 Gold") == [
        "0.0779", "2.29", "≈ 2.167"]
    assert not python_words("≈ 0,461, 1.234 Würfe, 12,5 %, 250.3it/s, Version 3.12.1")
    for fine in ("Gold ×1, Drache, Einhorn", "Rot 2 (Frosch, Schwerter)", "Ritterin, Hofnarr",
                 "Pferdehändler", "der Wald", "Rufe `game.label('dragon')` auf",
                 "<tree drawing (SVG)>", "Einhornkönig", "Gelbe Karte", "travel:raft ×10",
                 "✓ die dominierte Karte von Spieler 1: dragon stimmt."):
        assert not english_names(fine), fine


def test_an_assumption_is_read_by_its_reason():
    """The key and value of an assumption are the file's words; its reason is prose."""
    english = '  - game.refill = "new-hands"  (angenommen: the overview only says so)'
    german = '  - game.refill = "new-hands"  (angenommen: die Übersicht sagt nur das, wie bei giant_pig)'
    assert english_words(scanned(english)) and not english_words(scanned(german))
    assert not english_names(scanned(german)) and english_names("wie bei giant_pig")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_german_outputs_are_german(path):
    lines = english_lines(path)
    assert not lines, f"{path.relative_to(REPO)}: English in German outputs ({len(lines)}):\n" + \
        "\n".join(f"  {english_words(ALLOWED_RE.sub(' ', line)) + english_names(line) + python_words(line)}: "
                  f"{line[:160]!r}"
                  for line in lines[:25])


def test_every_german_notebook_is_scanned():
    assert len(NOTEBOOKS) >= 30 and all("de" in p.relative_to(REPO).as_posix() for p in NOTEBOOKS)
