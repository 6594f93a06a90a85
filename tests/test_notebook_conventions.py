"""Every game has its three notebooks and at least three exercises, and every notebook
opens with what it teaches and how long it takes (the lesson conventions)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import kingdoms

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
GAMES = [g for g in kingdoms.games() if g != "highcard"]
# the German twins (notebooks/de/, issue 31) follow the same conventions, in German
NOTEBOOKS = sorted((REPO / "notebooks").glob("*/*.ipynb")) + sorted(
    (REPO / "notebooks" / "de").glob("*/*.ipynb")) + sorted(
    (REPO / "exercises" / "source").glob("*/*.ipynb")) + sorted(
    (REPO / "exercises" / "release").glob("*/*.ipynb"))
MINUTES = re.compile(r"\d+\s*(?:minutes|Minuten)")
PREDICT = ("Predict first", "Vermute zuerst")
WIDGET = re.compile(r"^\s*(Stepper|TreeExplorer|DistributionPlot)\(", re.M)


@pytest.mark.parametrize("name", GAMES)
def test_each_game_has_three_notebooks_and_three_exercises(name):
    for kind in ("walkthrough", "odds", "explore"):
        assert (REPO / "notebooks" / name / f"{kind}.ipynb").is_file(), f"{name}/{kind}"
    teacher = sorted(p.name for p in (REPO / "exercises" / "source" / name).glob("*.ipynb"))
    student = sorted(p.name for p in (REPO / "exercises" / "release" / name).glob("*.ipynb"))
    assert len(teacher) >= 3 and student == teacher, (teacher, student)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_opens_with_what_it_teaches_and_how_long(path):
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    assert MINUTES.search(first.source), \
        f"{path.name}: the first cell should say how long it takes ('... 20 minutes')"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_widget_views_are_not_compared_by_nbval(path):
    """A cell that ends by showing a widget has an output nbval cannot compare."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        lines = [ln for ln in cell.source.splitlines() if ln.strip() and not ln.startswith("#")]
        shows_widget = bool(lines) and (WIDGET.match(lines[-1]) or any(
            o.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            for o in cell.get("outputs", [])))
        if shows_widget:
            assert "nbval-ignore-output" in cell.metadata.get("tags", []), \
                f"{path.name}: tag the widget cell `nbval-ignore-output`:\n{cell.source}"


LESSONS = [REPO / "notebooks" / "index.ipynb"] + sorted((REPO / "notebooks").glob("*/*.ipynb")) + sorted(
    (REPO / "notebooks" / "de").glob("*/*.ipynb"))
WALKTHROUGHS = sorted((REPO / "notebooks").glob("*/walkthrough.ipynb")) + sorted(
    (REPO / "notebooks" / "de").glob("*/walkthrough.ipynb"))


def assumes(path):
    """The heading of the assumptions section, in the notebook's language."""
    german = path.is_relative_to(REPO / "notebooks" / "de")
    return "## Was dieses Modell annimmt" if german else "## What this model assumes"


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", WALKTHROUGHS, ids=lambda p: str(p.relative_to(REPO)))
def test_walkthrough_reads_like_a_rules_lesson(path):
    """The Stepper near the top; the assumptions in one folded section at the end."""
    nb = nbformat.read(path, as_version=4)
    first_code = [c.source for c in code_cells(nb)[:3]]
    assert any("Stepper(" in source for source in first_code), \
        f"{path.name}: the Stepper should be among the first three code cells"
    headings = [i for i, c in enumerate(nb.cells)
                if c.cell_type == "markdown" and c.source.startswith("## ")]
    ASSUMES = assumes(path)
    assert headings and nb.cells[headings[-1]].source.startswith(ASSUMES), \
        f"{path.name}: the last section should be '{ASSUMES}'"
    start = headings[-1]
    assert nb.cells[start].metadata.get("jp-MarkdownHeadingCollapsed") is True, \
        f"{path.name}: '{ASSUMES}' should be folded (jp-MarkdownHeadingCollapsed)"
    section = nb.cells[start:]
    assert any("assumptions_table()" in c.source for c in section if c.cell_type == "code")
    assert not any("assumptions_table()" in c.source for c in nb.cells[:start]
                   if c.cell_type == "code"), f"{path.name}: the assumptions wall is before the rules"
    for cell in section:
        if cell.cell_type == "code":
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(REPO)))
def test_lesson_code_is_for_a_beginner(path):
    """No walrus operator and no `next(... for ...)` tricks in lesson cells."""
    nb = nbformat.read(path, as_version=4)
    for cell in code_cells(nb):
        assert ":=" not in cell.source, f"{path.name}: walrus operator in\n{cell.source}"
        assert not re.search(r"\bnext\([^)]*\bfor\b", cell.source), \
            f"{path.name}: next(... for ...) in\n{cell.source}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(REPO)))
def test_lesson_asks_to_predict_before_it_reveals(path):
    nb = nbformat.read(path, as_version=4)
    prompts = [i for i, c in enumerate(nb.cells)
               if c.cell_type == "markdown" and any(p in c.source for p in PREDICT)]
    assert prompts, f"{path.name}: add a 'Predict first' prompt before a main result"
    for i in prompts:
        assert any(c.cell_type == "code" for c in nb.cells[i + 1:i + 3]), \
            f"{path.name}: a 'Predict first' prompt should come right before the cell it asks about"
