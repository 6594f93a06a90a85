"""What a lesson prints is for people (issue 11): the stored outputs of every notebook
show no `Fraction(...)` reprs, no long floats or e-notation, and no 0-based player labels.

The notebooks are stored executed (nbval compares them), so this reads what a student sees
without running anything."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").rglob("*.ipynb")) + sorted(
    (REPO / "exercises" / "source").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]

# What a person should never have to read, each with why.
BAD = {
    "a Fraction repr (print the fraction as 19/23, or 19/23 ≈ 0.826)": re.compile(r"Fraction\("),
    "a float with 7 or more decimals (round it: f'{x:.3f}')": re.compile(r"(?<![\w.])\d+\.\d{7,}"),
    "e-notation (write the number out, or as a fraction)":
        re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][-+]?\d+\b"),
    "a 0-based player label (players are Player 1, 2, ... or their names)":
        re.compile(r"(?im)\b(?:player\s+0|spieler\s+0|P0)\b|^\s*(?:player|seat|spieler)\b[^\n]*\n\s*0\s"),
    "a progress-bar rate (a student reads how far and how long, not it/s)":
        re.compile(r"(?:\d|\?)\s?(?:it|games?)/s\b|\bs/it\b"),
    "a plural after 1 (plural(1, 'card') gives '1 card')":
        re.compile(r"(?<![\d./,])(?<!, )\b1 (?:cards|points|pts|turns|steps|re-rolls|rolls|games|Fools|"
                   r"seats|players|moves|dice|rounds|villages|coins|nodes|simulations)\b"),
    "a counted share as a fraction (a share of games is an estimate: 8.7% (5.6-13.2%) of 300 games)":
        re.compile(r"\b\d+/\d+\b[^\n%]{0,40}\bof \d+ (?:finished )?games\b"),
}
# Output that is not text a person reads as prose: widget views, images, progress bars.
SKIP_MIME = ("application/vnd.jupyter.widget-view+json", "image/png", "image/svg+xml")


def visible_html(html: str) -> str:
    """The text an HTML output shows (drawing coordinates and styles are not read)."""
    html = re.sub(r"(?is)<(style|script)\b.*?</\1>", " ", html)
    return re.sub(r"<[^>]*>", " ", html)


def shown_texts(cell):
    """Every piece of text a cell's stored outputs show (text/plain, streams, html)."""
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            yield out.get("text", "")
        elif out.get("output_type") in ("execute_result", "display_data"):
            data = out.get("data", {})
            if any(m in data for m in SKIP_MIME):
                continue
            for mime in ("text/html", "text/markdown", "text/plain"):
                if mime in data:
                    text = data[mime]
                    yield visible_html(text) if mime == "text/html" else text
                    break
        elif out.get("output_type") == "error":
            yield "\n".join(out.get("traceback", []))


def problems(text):
    """The (rule, excerpt) pairs that a piece of shown text breaks."""
    found = []
    for why, pattern in BAD.items():
        for m in pattern.finditer(text):
            start = max(0, m.start() - 40)
            found.append((why, text[start:m.end() + 40].replace("\n", " | ")))
    return found


def test_the_scanner_catches_what_it_should():
    """The rules themselves (so the scan below cannot pass by matching nothing)."""
    assert problems("returns: (Fraction(0, 1), Fraction(1, 1))")
    assert problems("win rate 0.7335491871684611")
    assert problems("P = 5.72057110281545e-11")
    assert problems("Player 0 wins") and problems("P0 holds the Fool")
    assert problems("Spieler 0 gewinnt") and not problems("Spieler 1 gewinnt")
    assert problems("    player    win rate\n         0      0.4983")
    assert not problems("player    win rate\nPlayer 1  0.5")
    assert not problems(visible_html('<svg><text x="29.400000000000002">2 sheep</text></svg>'))
    assert not problems("P(at least one Fool) = 122/133 ≈ 0.917")
    assert not problems("Player 1 wins; mean score 44.91; version 1.2.3; Player 10")
    assert not problems("0.8265 and 1/108 and seed 2026")
    assert problems("simulating woods:  40%|####  | 120/300 [00:01<00:01, 1061.94it/s]")
    assert problems("simulating woods:   0%|          | 0/300 [00:00<?, ?it/s]")
    assert not problems("simulating woods:  40%|####  | 120/300 [00:01<00:01]")
    assert problems("P(1 Fools) = 6/17") and problems("1 re-rolls: expected")
    assert not problems("P(1 Fool) = 6/17") and not problems("Green 1 Swords, 11 cards")
    assert not problems("with 0, 1, 2 Right cards the token moves 1, 0, 1 seats on")
    assert problems("greedy against hold back: 249/400 ≈ 0.623 ± 0.034 of 200 games")
    assert not problems("greedy against hold back: 62.3% (55.4-68.7%) of 200 games")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_stored_outputs_are_for_people(path):
    nb = nbformat.read(path, as_version=4)
    bad = []
    for number, cell in enumerate(nb.cells, 1):
        if cell.cell_type != "code":
            continue
        for text in shown_texts(cell):
            for why, excerpt in problems(text):
                bad.append(f"cell {number}: {why}: …{excerpt}…")
    assert not bad, f"{path.relative_to(REPO)} prints for programmers:\n" + "\n".join(bad)


# What a lesson's text should never say to a student: notes from its developers.
DEVELOPER_NOTE = re.compile(r"\b(?:TODO|FIXME|XXX)\b|\b(?:an?|the) (?:earlier|previous|older) "
                            r"version\b|\bwe used to\b|\bworkaround\b|\bhack\b", re.I)


def test_the_note_scanner_catches_what_it_should():
    assert DEVELOPER_NOTE.search("(an earlier version that valued fences at 0 re-rolled them)")
    assert DEVELOPER_NOTE.search("TODO: explain")
    assert not DEVELOPER_NOTE.search("Re-rolling wins clearly: the keep policy values fences.")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_lesson_text_has_no_developer_notes(path):
    nb = nbformat.read(path, as_version=4)
    bad = [f"cell {number}: …{m.group(0)}…"
           for number, cell in enumerate(nb.cells, 1) if cell.cell_type == "markdown"
           for m in DEVELOPER_NOTE.finditer(cell.source)]
    assert not bad, f"{path.relative_to(REPO)} tells students about its development:\n" + \
        "\n".join(bad)
