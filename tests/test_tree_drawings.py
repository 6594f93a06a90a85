"""Tree drawings are readable at the size they are shown (issue 28, part 2).

Every tree picture stored in a notebook, and trees drawn from a seeded sample of
positions of every game, are parsed as SVG (``svg_check.svg_problems``): no two labels
or boxes overlap and no text is smaller than 11 px where the notebook shows it.  A
tree picture is stored as SVG (a PNG cannot be checked, and it shrinks with the cell).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core.tree import game_tree, sample_positions, tree_picture, tree_svg
from svg_check import MIN_PX, svg_problems

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("matplotlib")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = [p for p in sorted((REPO / "notebooks").rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in p.parts]
TREE_CALLS = re.compile(r"\b(draw_tree|tree_picture|tree_svg|draw_encounter_tree)\(")
GAMES = [n for n in kingdoms.games() if n != "highcard"]


def stored_trees(path: Path):
    """``(cell number, svg)`` of every tree drawing stored in the notebook's outputs,
    and ``(cell number, None)`` for a tree cell that stored a PNG instead."""
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            for mime in ("image/svg+xml", "text/html"):
                text = data.get(mime, "")
                text = "".join(text) if isinstance(text, list) else text
                for m in re.finditer(r"<svg\b.*?</svg>", text, re.S):
                    if 'class="kingdoms-tree"' in m.group(0):
                        yield i, m.group(0)
            if "image/png" in data and TREE_CALLS.search(cell.source):
                yield i, None


# ---- the checker itself can fail --------------------------------------------------------

def _svg_of(draw, size=(4, 2)) -> str:
    import io

    import matplotlib
    from matplotlib.figure import Figure
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig = Figure(figsize=size)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, size[0] * 72)
        ax.set_ylim(size[1] * 72, 0)
        draw(ax)
        buf = io.StringIO()
        fig.savefig(buf, format="svg")
    return buf.getvalue()


def test_the_checker_finds_overlapping_labels_and_small_text():
    def overlapping(ax):
        ax.text(20, 40, "Player 1 to act", fontsize=9, gid="a")
        ax.text(40, 42, "Player 2 to act", fontsize=9, gid="b")
    assert any("overlaps" in p for p in svg_problems(_svg_of(overlapping)))

    def apart(ax):
        ax.text(20, 40, "Player 1 to act", fontsize=9, gid="a")
        ax.text(20, 100, "Player 2 to act", fontsize=9, gid="b")
    assert svg_problems(_svg_of(apart)) == []

    def tiny(ax):
        ax.text(20, 40, "values: gold", fontsize=5, gid="a")
    assert any("px high" in p for p in svg_problems(_svg_of(tiny)))
    # a readable drawing shown shrunk to a third of its width is not readable
    svg = tree_svg(game_tree(kingdoms.game("woods", players=2).initial_state(), depth=1))
    assert svg_problems(svg) == []
    width = float(re.search(r'width="([0-9.]+)pt"', svg).group(1))
    assert any("px high" in p for p in svg_problems(svg, shown_width=width * 4 / 3 / 3))
    assert MIN_PX == 11


# ---- trees of a seeded sample of positions of every game ---------------------------------

@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("name", GAMES)
def test_trees_drawn_from_sampled_positions_of_every_game_are_readable(name):
    game = kingdoms.game(name, players=2)
    positions = (sample_positions(game, 2, seed=28)
                 + sample_positions(game, 1, seed=28, start=0, stop=0))
    for s in positions:
        with_values = game_tree(s, depth=1, values=True)      # estimated: ≈ ± on every node
        deeper = game_tree(s, depth=2, max_nodes=3000)        # wide fans, "… N more"
        for g in (with_values, deeper):
            svg = tree_svg(g)
            assert svg_problems(svg) == [], (name, s.describe())
            assert "custom value" not in svg
        assert "≈" in tree_svg(with_values)
        for p in range(game.players):                      # names as the game says them
            assert game.player_name(p) in tree_svg(with_values)


# ---- every tree picture stored in a notebook ---------------------------------------------

@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_stored_tree_pictures_are_svg_and_readable(path):
    for cell, svg in stored_trees(path):
        assert svg is not None, f"cell {cell} stores its tree as a PNG: show tree_picture(...)"
        assert svg_problems(svg) == [], f"cell {cell}"
        assert "custom value" not in svg and "Player 0" not in svg


def test_the_lessons_store_their_tree_pictures():
    """The checks above are not vacuous: the lessons with tree pictures store them."""
    found = {p.relative_to(REPO / "notebooks").as_posix(): [svg for _, svg in stored_trees(p)]
             for p in NOTEBOOKS}
    for lesson in ("index.ipynb", "elves/explore.ipynb", "horse/odds.ipynb",
                   "woods/explore.ipynb", "black_forest/odds.ipynb"):
        assert found[lesson] and all(found[lesson]), lesson


def test_a_tree_picture_shows_the_svg_at_its_size_with_hover_text():
    g = game_tree(kingdoms.game("woods", players=2).initial_state(), depth=1)
    html = tree_picture(g)._repr_html_()
    assert html.count("<svg") == 1 and 'class="kingdoms-tree"' in html
    assert "overflow-x:auto" in html and "<title>" in html
    assert tree_picture(g)._repr_html_() == html          # deterministic: nbval compares it
