"""Every game has its three notebooks and at least two exercises, and every notebook
opens with what it teaches and how long it takes (the lesson conventions)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import kingdoms

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
GAMES = [g for g in kingdoms.games() if g != "highcard"]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*/*.ipynb")) + sorted(
    (REPO / "exercises").glob("*/*.ipynb"))
WIDGET = re.compile(r"^\s*(Stepper|TreeExplorer|DistributionPlot)\(", re.M)


@pytest.mark.parametrize("name", GAMES)
def test_each_game_has_three_notebooks_and_two_exercises(name):
    for kind in ("walkthrough", "odds", "explore"):
        assert (REPO / "notebooks" / name / f"{kind}.ipynb").is_file(), f"{name}/{kind}"
    assert len(list((REPO / "exercises" / name).glob("*.ipynb"))) >= 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_opens_with_what_it_teaches_and_how_long(path):
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    assert re.search(r"\d+\s*minutes", first.source), \
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
