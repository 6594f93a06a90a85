from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import pytest

from kingdoms.core import (CHANCE, TreeTooLarge, draw_tree, expectimax, first_policy,
                           game_tree, play, random_policy, simulate)
from toygame import Deal, HighCard, Redraw, Stand


def test_same_seed_same_game():
    a, b, c = (play(HighCard(), seed=s) for s in (4, 4, 5))
    assert a.steps == b.steps
    assert any(play(HighCard(), seed=s).steps != a.steps for s in range(5, 15))


def test_policies_per_seat():
    rec = play(HighCard(), policies=[first_policy, first_policy], seed=0)
    assert all(str(a) != "redraw" for who, a in rec.steps if who != CHANCE)
    with pytest.raises(ValueError, match="3 policies for 2 players"):
        play(HighCard(), policies=[random_policy] * 3)


def stand_on_three(state, rng):
    return Stand() if state.hands[state.current_player()] == 3 else state.legal_actions()[-1]


@pytest.mark.slow
def test_simulate_agrees_with_exact_value():
    # Both players redraw unless holding a 3: exact win share of player 0 by expectimax
    game = HighCard()
    n = 4000
    summary = simulate(game, n, policies=stand_on_three, seed=3, progress=False)
    assert summary.n == n and sum(summary.wins) == n
    # exact value of this fixed policy: enumerate the tree with a one-action "policy game"
    def value(state):
        if state.is_terminal():
            return state.returns()[0]
        if state.is_chance():
            return sum(p * value(state.apply(o)) for o, p in state.chance_outcomes())
        return value(state.apply(stand_on_three(state, None)))
    exact = value(game.initial_state())
    p = float(exact)
    assert abs(summary.win_rates()[0] - p) < 4 * (p * (1 - p) / n) ** 0.5
    assert summary.mean_scores() is not None and "win share" in summary.table()


def test_simulate_is_identical_with_a_process_pool():
    game = HighCard(players=3)
    serial = simulate(game, 300, seed=9, batch=37, progress=False)
    with ProcessPoolExecutor(max_workers=2) as pool:
        parallel = simulate(game, 300, seed=9, batch=37, executor=pool, progress=False)
    assert serial == parallel


def test_simulate_with_dask_if_installed():
    distributed = pytest.importorskip("dask.distributed")
    game = HighCard()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert simulate(game, 100, seed=2, executor=client, progress=False) == \
            simulate(game, 100, seed=2, progress=False)


def test_expectimax_on_high_card():
    # Player 1 (second) sees nothing of player 0's card but acts after; exact solve.
    s = HighCard().initial_state().apply(Deal(2)).apply(Deal(1))
    sol = expectimax(s)
    # player 0 holds 2, deck 3,3: standing beats a 1 unless player 1 redraws (a 3 for sure)
    assert sol.action == Redraw()
    assert sol.value == (Fraction(1, 2), Fraction(1, 2))
    assert sum(sol.value) == 1
    root = expectimax(HighCard().initial_state())
    assert sum(root.value) == 1 and root.action is None
    assert root.states > 10


def brute_force_value(state):
    """Expectimax written out directly, to check the memoised solver."""
    if state.is_terminal():
        return state.returns()
    if state.is_chance():
        vals = [(p, brute_force_value(state.apply(o))) for o, p in state.chance_outcomes()]
        return tuple(sum(p * v[i] for p, v in vals) for i in range(state.game.players))
    cp = state.current_player()
    return max((brute_force_value(state.apply(a)) for a in state.legal_actions()),
               key=lambda v: v[cp])


@pytest.mark.parametrize("players", [2, 3])
def test_expectimax_matches_brute_force(players):
    s = HighCard(players=players, deck=(1, 2, 2, 3, 3)).initial_state()
    assert expectimax(s).value == brute_force_value(s)


def test_expectimax_refuses_huge_trees():
    with pytest.raises(TreeTooLarge, match="more than 5 positions"):
        expectimax(HighCard().initial_state(), max_states=5)


def test_expectimax_depth_limited():
    s = HighCard().initial_state()
    sol = expectimax(s, depth=1, horizon_value=lambda st: (Fraction(1, 2), Fraction(1, 2)))
    assert sol.value == (Fraction(1, 2), Fraction(1, 2))
    with pytest.raises(ValueError, match="horizon_value"):
        expectimax(s, depth=1)


def test_game_tree_structure():
    s = HighCard().initial_state()
    g = game_tree(s, depth=2)
    assert g.graph["root"] == s
    kinds = {d["kind"] for _, d in g.nodes(data=True)}
    assert kinds == {"chance", "frontier"}
    for u, v, d in g.edges(data=True):
        assert isinstance(d["probability"], Fraction)
    # each chance node's edge probabilities sum to one
    for u in g:
        if g.nodes[u]["kind"] == "chance":
            assert sum(g.edges[u, v]["probability"] for v in g.successors(u)) == 1
    # transpositions merged: dealing (1 then 3) vs (3 then 1) are different positions, but
    # standing twice from equal hands reaches one node
    full = game_tree(s, depth=6, values=True, open_hands=True)
    assert all("value" in d for _, d in full.nodes(data=True))
    assert any(d.get("best") for *_, d in full.edges(data=True))
    # one node per distinct state within the depth (transpositions merged)
    seen, layer = {s}, {s}
    for _ in range(6):
        layer = {st.apply(a) for st in layer for a in st.legal_actions()} - seen
        seen |= layer
    assert full.number_of_nodes() == len(seen)


def test_game_tree_node_limit():
    with pytest.raises(ValueError, match="more than 3 nodes"):
        game_tree(HighCard().initial_state(), depth=3, max_nodes=3)


def test_draw_tree_runs_headless():
    import matplotlib
    matplotlib.use("Agg")
    g = game_tree(HighCard().initial_state().apply(Deal(1)).apply(Deal(3)), depth=3,
                  values=True, open_hands=True)
    ax = draw_tree(g)
    assert ax.figure is not None


# ---- trees that teach: objectives, ties, bounded refusal ------------------------------

import random
from dataclasses import dataclass

import kingdoms
from kingdoms.core.protocol import Action, Game, State
from kingdoms.core.solve import resolve_objective
from kingdoms.core.tree import collapse_fans, show_transpositions, tree_outline, tree_svg


def dealt(a=1, b=3):
    return HighCard().initial_state().apply(Deal(a)).apply(Deal(b))


@dataclass(frozen=True)
class Pick(Action):
    k: int

    def __str__(self):
        return f"pick {self.k}"


@dataclass(frozen=True)
class Wide(Game):
    """A long game: ``width`` choices a turn for ``length`` turns (counts its moves)."""
    name = "wide"
    title = "Wide"
    min_players = max_players = 1
    players: int = 1
    width: int = 10
    length: int = 30
    chance_first: int = 0      # a chance event with this many outcomes first

    def initial_state(self):
        return WideState(self, (), -1 if self.chance_first else 0)


APPLIED = [0]


@dataclass(frozen=True)
class WideState(State):
    picks: tuple         # every pick so far: no two routes meet
    last: int

    @property
    def turn(self):
        return len(self.picks)

    def _current_player(self):
        if self.last == -1:
            return CHANCE
        return -4 if self.turn >= self.game.length else 0

    def _legal_actions(self):
        return tuple(Pick(k) for k in range(self.game.width))

    def _chance_outcomes(self):
        n = self.game.chance_first
        return tuple((Pick(k), Fraction(1, n)) for k in range(n))

    def _next(self, a):
        APPLIED[0] += 1
        if self.last == -1:
            return WideState(self.game, self.picks, a.k)
        return WideState(self.game, self.picks + (a.k,), a.k)

    def _returns(self):
        return (Fraction(1),)


def test_expectimax_refuses_a_huge_tree_before_searching_it():
    """Issue 17: a whole game is refused at once (its size estimated), not after
    visiting the budget's worth of states many times over."""
    APPLIED[0] = 0
    with pytest.raises(TreeTooLarge, match="more than .* different ways") as e:
        expectimax(Wide().initial_state(), max_states=200_000)
    assert e.value.estimate > 200_000 and APPLIED[0] < 2_000


def test_expectimax_counts_states_as_it_enters_them():
    APPLIED[0] = 0
    g = Wide(width=3, length=9)          # 29,524 positions: over a 1,000 budget
    with pytest.raises(TreeTooLarge, match="more than 1,000 positions"):
        expectimax(g.initial_state(), max_states=1_000)
    assert APPLIED[0] <= 1_000 + 200     # the probes' walks and the budget, no more


def test_a_chance_event_larger_than_the_budget_is_refused_unexpanded():
    APPLIED[0] = 0
    g = Wide(width=1, length=2, chance_first=500)
    with pytest.raises(TreeTooLarge, match="500 possible outcomes") as e:
        expectimax(g.initial_state(), max_states=100)
    assert e.value.outcomes == 500 and APPLIED[0] < 50
    assert "sample_chance" not in str(e.value) and "max_states" not in str(e.value)


def test_game_tree_stops_when_nothing_is_left_to_expand():
    s = dealt().apply(Stand())
    deep = game_tree(s, depth=10**9)
    assert set(deep) == set(game_tree(s, depth=4))


def test_ties_are_shown_as_ties():
    s = dealt(1, 3).apply(Stand())       # Player 2 holds the 3: stand and redraw both win
    sol = expectimax(s)
    assert set(sol.best_actions()) == {Stand(), Redraw()} and sol.is_tie()
    g = game_tree(s, depth=1, values=True, open_hands=True)
    assert g.nodes[s]["tie"] is True
    assert all(d.get("best") for _, _, d in g.out_edges(s, data=True))
    assert "(tie)" in tree_outline(g)
    root = dealt(1, 3)                   # Player 1 must redraw: no tie
    g2 = game_tree(root, depth=1, values=True, open_hands=True)
    assert not g2.nodes[root]["tie"]
    assert [d["action"] for _, _, d in g2.out_edges(root, data=True) if d.get("best")] == [Redraw()]


@dataclass(frozen=True)
class ScoredHighCard(HighCard):
    def objectives(self):
        return {"share of the win": lambda s: s.returns(),
                "card held": lambda s: tuple(Fraction(c) for c in s.hands)}


def test_the_objective_is_chosen_and_stated_the_same_in_solution_and_tree():
    s = ScoredHighCard().initial_state().apply(Deal(2)).apply(Deal(3))
    for name in ("share of the win", "card held"):
        sol = expectimax(s, objective=name)
        g = game_tree(s, depth=4, values=True, objective=name, open_hands=True)
        assert sol.objective == name == g.graph["objective"]
        assert g.nodes[s]["value"] == sol.value
        tree_best = {d["action"] for _, _, d in g.out_edges(s, data=True) if d.get("best")}
        assert tree_best == set(sol.best_actions())
        assert f"values: {name}" in tree_svg(g)
    win = expectimax(s, objective="share of the win").value
    card = expectimax(s, objective="card held").value
    assert win != card
    assert resolve_objective(s, None)[0] == "share of the win"
    assert resolve_objective(s, ("double", lambda st: (2, 2)))[0] == "double"
    with pytest.raises(ValueError, match="'card held'"):
        expectimax(s, objective="gold")


def test_drawings_use_words_a_legend_and_collapse_wide_fans():
    g = game_tree(Wide(width=14, length=2).initial_state(), depth=2, max_nodes=1000)
    for s, d in g.nodes(data=True):       # sentences, not codes
        assert d["label"] == s.describe() and d["label"] in ("Player 1 to act", "Game over.",
                                                             "Game over. Winner: Player 1")
    small = collapse_fans(g, 8)
    more = [d["label"] for _, d in small.nodes(data=True) if d["kind"] == "more"]
    assert "… 7 more" in more
    assert max(small.out_degree(n) for n in small) == 8
    assert collapse_fans(g, None) is g
    svg = tree_svg(g)
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "a player decides" in svg and "more moves, not drawn" in svg   # the legend
    outline = tree_outline(game_tree(dealt(), depth=3, values=True, open_hands=True), html=True)
    assert "<details" in outline and "probability 1/2" in outline and "★ best" in outline


@pytest.mark.parametrize("name", [n for n in kingdoms.games() if n != "highcard"])
def test_every_games_objectives_give_one_value_per_player(name):
    game = kingdoms.game(name)
    offered = game.objectives()
    assert "share of the win" in offered
    rng = random.Random(0)
    s = game.initial_state()
    for _ in range(20_000):
        if s.is_terminal():
            break
        s = s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
    assert s.is_terminal()
    for label, fn in offered.items():
        v = fn(s)
        assert len(v) == game.players, label
        assert all(Fraction(x) == x for x in v)


def test_hidden_cards_are_read_only_when_the_lesson_opens_every_hand():
    """issue 28: a tree's values may use only what the player to move knows; an
    open-hand analysis (every hand face up by the lesson's premise) says so and is exact."""
    from kingdoms.core.estimate import EstimateError
    s = dealt(1, 3)
    with pytest.raises(EstimateError, match="cannot yet deal the hidden cards anew"):
        game_tree(s, depth=1, values=True)       # High Card has no world sampler
    g = game_tree(s, depth=1, values=True, open_hands=True)
    assert g.graph["values"] == "exact" and g.nodes[s]["value"] == expectimax(s).value
    assert g.graph["values_note"].startswith("Exact values: with every hand face up")


def test_an_objective_shown_to_people_has_a_name_in_the_lesson_words():
    s = dealt(1, 3)
    with pytest.raises(ValueError, match="name what the values measure"):
        resolve_objective(s, lambda st: st.returns())
    with pytest.raises(ValueError, match="name what the values measure"):
        game_tree(s, depth=1, values=True, open_hands=True, objective=lambda st: st.returns())

    def net_gold(st):
        return st.returns()
    assert resolve_objective(s, net_gold)[0] == "net gold"
    g = game_tree(s, depth=1, values=True, open_hands=True, objective=("net gold", net_gold))
    assert "values: net gold" in tree_svg(g) and "custom value" not in tree_svg(g)


@dataclass(frozen=True)
class Meet(Wide):
    """Two picks of 1 or 2 that add up: "1 then 2" and "2 then 1" meet in one position."""
    name, title = "meet", "Meet"

    def initial_state(self):
        return MeetState(self, 0, 0)


@dataclass(frozen=True)
class MeetState(State):
    total: int
    turn: int

    def _current_player(self):
        return -4 if self.turn >= 2 else 0

    def _legal_actions(self):
        return (Pick(1), Pick(2))

    def _next(self, a):
        return MeetState(self.game, self.total + a.k, self.turn + 1)

    def _returns(self):
        return (Fraction(self.total, 4),)


def test_every_move_is_drawn_and_a_transposition_says_where_its_position_is():
    """issue 28: two routes to one position are one node; the drawing used to drop the
    second route's move.  Now it leads to a box naming the route drawn first."""
    s = Meet().initial_state()
    g = game_tree(s, depth=2, values=True)
    assert g.number_of_nodes() == 6 and g.number_of_edges() == 6     # merged: 3 ends
    shown = show_transpositions(g)
    same = [d for _, d in shown.nodes(data=True) if d["kind"] == "same"]
    assert len(same) == 1 and same[0]["label"] == "the same position as after “pick 2”"
    assert same[0]["value"] == (Fraction(3, 4),)
    assert shown.number_of_edges() == g.number_of_edges()            # every move kept
    svg = tree_svg(g)
    assert svg.count('<g id="tree-edge-') == 6 and "the same position as" in svg
    assert "a position reached another way too" in svg                # in the legend
    assert "the same position as after “pick 2”" in tree_outline(g)
    assert show_transpositions(game_tree(dealt(), depth=1)) is not None
