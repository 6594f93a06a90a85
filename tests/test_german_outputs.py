"""What a German lesson shows is German: the stored outputs of every German notebook
(notebooks/de, apps/de, exercises/source/<game>_de) hold no English words (tests/german.py).

The notebooks are stored executed (nbval compares them), so this reads what a German class
sees without running anything: printed text, a result's text, the words of an HTML table
(tags, styles and drawings left out), line by line."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from german import english_words, german_scan, readable  # noqa: E402

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

# the data helper's part: the lead removes this skip after merging it
DATA_HELPERS_PART = re.compile(r"angenommen:|^\s*Wertung\b|\bWertung \d+ (?:per|for)\b")


def shown_texts(cell):
    """The text of each stored output a person reads (stream, text/plain, HTML's words)."""
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "text" in out:                   # a stream (printed)
            yield out["text"]
        if "text/html" in data:
            yield readable(data["text/html"])
        yield from (data[mime] for mime in TEXT_MIME if mime in data)


def english_lines(path: Path) -> list[str]:
    """Every line of the notebook's stored outputs that holds English words, named by cell."""
    nb = nbformat.read(path, as_version=4)
    return [f"cell {number}: {line.strip()}"
            for number, cell in enumerate(nb.cells, 1) if cell.cell_type == "code"
            for text in shown_texts(cell) for line in text.splitlines()
            if not DATA_HELPERS_PART.search(line) and english_words(ALLOWED_RE.sub(" ", line))]


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_german_outputs_are_german(path):
    german_scan(english_lines(path), str(path.relative_to(REPO)))


def test_every_german_notebook_is_scanned():
    assert len(NOTEBOOKS) >= 30 and all("de" in p.relative_to(REPO).as_posix() for p in NOTEBOOKS)
