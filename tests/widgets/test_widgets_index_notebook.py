"""notebooks/index.ipynb: the start page links every game's notebooks and exercises,
every relative link resolves, and it shows a Stepper on a real game."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import kingdoms

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[2]
INDEX = REPO / "notebooks" / "index.ipynb"
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def index():
    if not INDEX.is_file():
        pytest.fail("notebooks/index.ipynb is missing")
    return nbformat.read(INDEX, as_version=4)


def links(nb) -> list[str]:
    return [m for c in nb.cells if c.cell_type == "markdown" for m in LINK.findall(c.source)
            if not re.match(r"[a-z]+:", m)]


def test_opens_with_what_the_toolkit_is(index):
    first = index.cells[0]
    assert first.cell_type == "markdown" and "minutes" in first.source


def test_every_relative_link_resolves(index):
    broken = [ln for ln in links(index) if not (INDEX.parent / ln.split("#")[0]).exists()]
    assert broken == [], f"links in index.ipynb that lead nowhere: {broken}"


@pytest.mark.parametrize("name", [g for g in kingdoms.games() if g != "highcard"])
def test_links_every_games_notebooks_and_exercises(index, name):
    found = set(links(index))
    for kind in ("walkthrough", "odds", "explore"):
        assert f"{name}/{kind}.ipynb" in found, f"index.ipynb does not link {name}/{kind}"
    # the game's exercises, linked as notebooks (files, not folders)
    assert any(ln.startswith("../exercises/") and f"/{name}/" in ln
               and ln.split("#")[0].endswith(".ipynb") for ln in found), \
        f"index.ipynb links no exercise notebook of {name}"


def test_has_a_choose_your_lesson_table_and_a_stepper(index):
    text = "\n".join(c.source for c in index.cells)
    assert "Choose your lesson" in text and "| Concept |" in text
    assert "Stepper(" in text
    # the cells that show a Stepper (a widget view) are not compared by nbval
    stepper_cells = [c for c in index.cells if c.cell_type == "code" and "Stepper(" in c.source
                     and any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                             for o in c.get("outputs", []))]
    assert stepper_cells
    assert all("nbval-ignore-output" in c.metadata.get("tags", []) for c in stepper_cells)
