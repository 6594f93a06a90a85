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
    assert summary.mean_scores() is not None and "win rate" in summary.table()


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
    with pytest.raises(TreeTooLarge, match="more than 5 states"):
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
    full = game_tree(s, depth=6, values=True)
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
                  values=True)
    ax = draw_tree(g)
    assert ax.figure is not None
