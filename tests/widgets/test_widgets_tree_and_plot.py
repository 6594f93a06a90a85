"""TreeExplorer and DistributionPlot through their programmatic API (toy game)."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core import Distribution, expectimax

W = pytest.importorskip("ipywidgets")
from kingdoms.widgets import DistributionPlot, TreeExplorer  # noqa: E402
from toygame import Deal, Redraw, Stand  # noqa: E402

PNG = b"\x89PNG"


def dealt(a=1, b=3):
    return kingdoms.game("highcard", players=2).initial_state().apply(Deal(a)).apply(Deal(b))


def test_tree_has_exact_values_and_highlights_the_best_action():
    root = dealt(1, 3)
    t = TreeExplorer(root, depth=2)
    sol = expectimax(root)
    assert t.values and t.graph.nodes[root]["value"] == sol.value
    best_edges = [(u, d["action"]) for u, v, d in t.graph.edges(data=True) if d.get("best")]
    assert (root, sol.action) in best_edges
    # player 1 holding a 1 against a 3 must redraw: stand loses for sure
    assert sol.action == Redraw()
    assert "★ best" in t._info.value and "redraw ★ best" in t._info.value
    assert bytes(t._image.value).startswith(PNG)


def test_chance_edges_carry_exact_fractions():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=1)
    probs = sorted(d["probability"] for _, _, d in t.graph.edges(data=True))
    assert probs == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    labels = {o for o, _ in t._children.options}
    assert labels == {"deal a 1 (1/4)", "deal a 2 (1/4)", "deal a 3 (1/2)"}


def test_depth_slider_grows_the_tree():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=1, render=False)
    small = t.graph.number_of_nodes()
    t.set_depth(3)
    assert t.depth == 3 and t.graph.number_of_nodes() > small


def test_choosing_a_child_moves_the_root_and_back_returns():
    start = dealt()
    t = TreeExplorer(start, depth=1, render=False)
    assert t._children.value == 0 and [x for x, _ in t._children.options] == ["stand", "redraw"]
    t.move_to(Stand())
    assert t.root == start.apply(Stand()) and t.graph.graph["root"] == t.root
    t._children.value = 1                       # the dropdown + button route
    t._go_b.click()
    assert t.root == start.apply(Stand()).apply(Redraw())
    t.back(); t.back()
    assert t.root == start
    t.back()                                    # nothing before the first root
    assert t.root == start


def test_unsolvable_subgame_is_drawn_without_values_and_a_note():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=1, max_states=5)
    assert not t.values and "Values not shown" in t.note
    assert t.graph is not None and "value" not in t.graph.nodes[t.root]
    assert "Values not shown" in t._info.value


def test_too_many_nodes_is_a_message():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=4, max_nodes=5)
    assert t.graph is None and "Cannot draw the tree" in t.note
    assert "more than 5 nodes" in t._info.value


def test_distribution_plot_exact_table_and_image():
    d6 = Distribution.uniform(range(1, 7))
    p = DistributionPlot(d6 + d6)
    assert p.samples == [] and p.frequencies() == {}
    assert "<td>1/6</td>" in p._table.value and "<td>1/36</td>" in p._table.value
    assert bytes(p._image.value).startswith(PNG)
    assert isinstance(p, W.VBox) and "application/vnd.jupyter.widget-view+json" in p._repr_mimebundle_()


def test_distribution_plot_overlay_is_seeded_and_follows_the_slider():
    d = Distribution({"H": 1, "T": 3})
    p = DistributionPlot(d, seed=5, render=False)
    p.n = 4000
    assert len(p.samples) == 4000
    assert p.samples == d.sample(random.Random(5), 4000)   # same seed, same samples
    freq = p.frequencies()
    assert abs(freq["T"] - 0.75) < 4 * (0.75 * 0.25 / 4000) ** 0.5
    assert "simulated" in p._table.value
    p.n = 0
    assert p.samples == [] and "simulated" not in p._table.value


def test_distribution_plot_custom_sampler():
    calls = []

    def sampler(rng, n):
        calls.append(n)
        return [rng.randint(1, 2) for _ in range(n)]

    p = DistributionPlot(Distribution.uniform([1, 2]), sampler=sampler, n=10, render=False)
    assert calls == [10] and Counter(p.samples).keys() <= {1, 2}
    p2 = DistributionPlot(Distribution.uniform([1, 2]), sampler=lambda rng, n: [3] * n, n=5,
                          render=False)
    assert "not in the exact distribution" in p2._table.value
