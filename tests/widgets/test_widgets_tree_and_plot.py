"""TreeExplorer and DistributionPlot through their programmatic API (toy game)."""
from __future__ import annotations

import html
import random
from collections import Counter
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core import Distribution, expectimax

W = pytest.importorskip("ipywidgets")
from kingdoms.widgets import DistributionPlot, TreeExplorer  # noqa: E402
from toygame import Deal, HighCard, Redraw, Stand  # noqa: E402


class OpenHighCard(HighCard):
    """High Card with every card face up: exact values read nothing hidden."""
    hidden_information = False

PNG = b"\x89PNG"


def dealt(a=1, b=3):
    return OpenHighCard(players=2).initial_state().apply(Deal(a)).apply(Deal(b))


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
    assert "Objective: share of the win" in t._info.value
    assert t.graph.graph["values"] == "exact" and t.note.startswith("Exact values:")
    assert '<svg role="img" aria-label="Game tree' in t._image.value     # inline, named


def test_chance_edges_carry_exact_fractions():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=1)
    probs = sorted(d["probability"] for _, _, d in t.graph.edges(data=True))
    assert probs == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    labels = {o for o, _ in t._children.options}
    assert labels == {"deal a 1 (probability 1/4)", "deal a 2 (probability 1/4)",
                      "deal a 3 (probability 1/2)"}


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


def test_unsolvable_subgame_gets_estimated_values_and_says_why():
    t = TreeExplorer(OpenHighCard(players=2).initial_state(), depth=1, max_states=5)
    assert t.values and t.graph.graph["values"] == "estimated"
    assert t.note.startswith("Estimated values") and "more than 5 positions" in t.note
    assert "max_states" not in t.note              # student words, not parameter names
    value = t.graph.nodes[t.root]["value"]
    assert value.exact is False and "≈" in t._info.value and "±" in t._info.value
    assert f"{value.samples:,} sampled games" in t._info.value
    assert html.escape(t.note) in t._info.value


def test_a_game_that_cannot_deal_hidden_cards_anew_is_drawn_without_values_and_a_note():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=1)
    assert not t.values and "No values here" in t.note
    assert "cannot yet deal the hidden cards anew" in t.note and "What you can do" in t.note
    assert t.graph is not None and "value" not in t.graph.nodes[t.root]
    assert "No values here" in t._info.value


def test_too_many_nodes_is_a_message():
    t = TreeExplorer(kingdoms.game("highcard").initial_state(), depth=4, max_nodes=5)
    assert t.graph is None and "Cannot draw the tree" in t.note
    assert "more than 5 nodes" in t._info.value


def test_distribution_plot_exact_table_and_image():
    d6 = Distribution.uniform(range(1, 7))
    p = DistributionPlot(d6 + d6)
    assert p.samples == [] and p.frequencies() == {}
    assert "<td>1/6 ≈ 0.167</td>" in p._table.value and "<td>1/36 ≈ 0.0278</td>" in p._table.value
    assert 'src="data:image/svg+xml;base64,' in p._image.value
    assert 'alt="Bar chart. Exact probabilities — 2: 1/36' in p._image.value
    assert isinstance(p, W.VBox) and "application/vnd.jupyter.widget-view+json" in p._repr_mimebundle_()


def test_distribution_plot_overlay_is_seeded_and_follows_the_slider():
    d = Distribution({"H": 1, "T": 3})
    p = DistributionPlot(d, seed=5, render=False)
    p.n = 4000
    assert len(p.samples) == 4000
    assert p.samples == d.sample(random.Random(5), 4000)   # same seed, same samples
    freq = p.frequencies()
    assert abs(freq["T"] - 0.75) < 4 * (0.75 * 0.25 / 4000) ** 0.5
    assert "simulated" in p._table.value and "95% range" in p._table.value
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


# ---- trees that teach ------------------------------------------------------------------

from dataclasses import dataclass  # noqa: E402

from toygame import HighCard  # noqa: E402


@dataclass(frozen=True)
class ScoredHighCard(HighCard):
    def objectives(self):
        return {"share of the win": lambda s: s.returns(),
                "card held": lambda s: tuple(Fraction(c) for c in s.hands)}


def test_tree_explorer_states_its_objective_and_agrees_with_expectimax():
    s = ScoredHighCard().initial_state().apply(Deal(2)).apply(Deal(3))
    for name in ("share of the win", "card held"):
        t = TreeExplorer(s, depth=1, objective=name, render=False, open_hands=True)
        sol = expectimax(s, objective=name)
        assert t.objective == name and f"Objective: {name}" in t._info.value
        assert t.graph.nodes[s]["value"] == sol.value
        marked = {d["action"] for _, _, d in t.graph.out_edges(s, data=True) if d.get("best")}
        assert marked == set(sol.best_actions())
    chooser = t._obj                                     # the objective is chosen in the widget
    assert set(chooser.options) == {"share of the win", "card held"}
    chooser.value = "share of the win"
    assert t.objective == "share of the win" and "Objective: share of the win" in t._info.value
    assert t.graph.nodes[s]["value"] == expectimax(s).value
    with pytest.raises(ValueError, match="card held"):
        t.set_objective("gold")


def test_tied_moves_are_all_marked_best():
    s = dealt(1, 3).apply(Stand())
    t = TreeExplorer(s, depth=1, render=False)
    assert t._info.value.count("★ best (tie)") == 2
    assert "equally good" in t._info.value


def test_values_are_written_with_player_names_and_fractions():
    t = TreeExplorer(dealt(1, 3), depth=1, render=False)
    assert "Player 1 1/4 ≈ 0.25, Player 2 3/4 ≈ 0.75" in t._info.value
    assert "Fraction(" not in t._info.value


def test_a_wide_tree_becomes_an_outline_and_fans_expand():
    Wide = _core_tests().Wide
    t = TreeExplorer(Wide(width=30, length=2).initial_state(), depth=2, max_nodes=2000,
                     max_states=50_000)
    assert t.view == "outline" and "<details" in t._image.value
    assert "too wide to read" in t._image.value
    small = TreeExplorer(Wide(width=12, length=1).initial_state(), depth=1)
    assert small.view == "drawing" and "… 5 more" in _svg(small)
    small.show_all(True)
    assert "… 5 more" not in _svg(small) and "pick 11" in _svg(small)
    small._view.value = "outline"
    assert small.view == "outline" and "pick 11" in small._image.value


def _svg(t) -> str:
    html = t._image.value
    return html[html.index("<svg"):html.index("</svg>") + len("</svg>")]


def _core_tests():
    """The long toy game of tests/core (one definition for both test folders)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "core" / "test_play_solve_tree.py"
    spec = importlib.util.spec_from_file_location("kingdoms_core_tree_tests", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_distribution_chart_is_labelled_svg_with_a_band_that_narrows():
    from kingdoms.widgets.distplot import band95
    d = Distribution({"H": 1, "T": 3})
    p = DistributionPlot(d, seed=5, n=100, xlabel="side of the coin")
    svg = p.svg()
    assert "<svg" in svg and "side of the coin" in svg and "probability" in svg
    assert "simulated frequency (100 samples)" in svg
    assert "95% range of a frequency from 100 samples" in svg
    lo1, hi1 = band95(Fraction(3, 4), 100)
    lo2, hi2 = band95(Fraction(3, 4), 10_000)
    assert lo1 < lo2 < 0.75 < hi2 < hi1                    # the law of large numbers
    # the 95% range holds the simulated frequency in most seeded runs
    inside = sum(lo1 <= DistributionPlot(d, seed=k, n=100, render=False).frequencies()["T"] <= hi1
                 for k in range(40))
    assert inside >= 34


def test_black_forest_odds_solution_and_tree_agree_on_the_same_objective():
    """issue 11: the printed solution (points margin) and the TreeExplorer of the same
    open encounter named different best moves; with the objective named, they agree,
    and under the share of the win the tied moves are all marked."""
    odds = pytest.importorskip("kingdoms.black_forest.odds")
    small = odds.open_encounter([["Red 9", "Red 2"], ["Blue 1"]], "Wolf Ridge",
                                bottom=[(0, "Red 4"), (1, "Blue 6")], left=[(1, "Blue 3")],
                                top=[(1, "Blue 8")])
    printed = odds.solve_encounter(small)                     # points margin
    t = TreeExplorer(small, objective="points margin", render=False, open_hands=True)
    marked = {d["action"] for _, _, d in t.graph.out_edges(small, data=True) if d.get("best")}
    assert marked == set(printed.best_actions()) and printed.action in marked
    assert t.graph.nodes[small]["value"] == printed.value
    win = TreeExplorer(small, objective="share of the win", render=False, open_hands=True)
    best_win = [d for _, _, d in win.graph.out_edges(small, data=True) if d.get("best")]
    assert len(best_win) == len(expectimax(small).best_actions())
    if len(best_win) > 1:
        assert "★ best (tie)" in win._info.value


def test_the_tree_explorer_starts_a_game_at_its_first_position_and_refuses_the_rest():
    import kingdoms
    game = kingdoms.game("highcard")
    assert TreeExplorer(game, render=False).root == game.initial_state()
    with pytest.raises(TypeError, match=r"TreeExplorer draws the tree below a position: give "
                                        r"it a state \(or a game"):
        TreeExplorer("woods", render=False)


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("name", [n for n in kingdoms.games() if n != "highcard"])
def test_open_tree_here_mid_game_shows_estimated_values_and_says_why(name):
    """issue 28: mid-game, "open tree here" used to say only "No values here"; now
    every node it opens has a value, estimated with its ± and one sentence saying why,
    from what the player to move knows."""
    from kingdoms.core.tree import sample_positions
    from kingdoms.widgets import Stepper
    state, = sample_positions(kingdoms.game(name, players=2), 1, seed=28)
    s = Stepper(state, perspective="all")
    tree = s.open_tree(depth=1)
    assert isinstance(tree, TreeExplorer) and tree.values, tree.note
    g = tree.graph
    assert g.graph["values"] == "estimated" and tree.note.startswith("Estimated values")
    assert all(g.nodes[v]["value"].exact is False for v in [state, *g.successors(state)])
    kid = next(iter(g.successors(state)))            # the sentence says how many games
    assert f"average of {g.nodes[kid]['value'].samples:,} games" in tree.note
    info = tree._info.value
    assert "Value here:" in info and "≈" in info and "±" in info and "sampled games" in info
    assert any(d.get("best") for _, _, d in g.out_edges(state, data=True))
    svg = _svg(tree)
    assert "≈" in svg and "Estimated values" in svg
    assert f"Best ({tree.objective}, estimated):" in tree._image.value    # the alt text too
