"""``kingdoms.core.tournament``: seat-balanced matches with 95% intervals."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core import tournament
from kingdoms.core.play import first_policy, random_policy
from kingdoms.core.tournament import wilson_interval
from toygame import HighCard, Marathon, forward_policy


def stand_on_three(state, rng):
    """High Card: redraw anything below 3 (better than random)."""
    me = state.current_player()
    card = state.hands[me]
    return state.legal_actions()[0] if card == 3 or len(state.legal_actions()) == 1 \
        else state.legal_actions()[1]


def test_a_stronger_player_wins_with_its_interval_above_one_half():
    game = Marathon(players=2, goal=3, limit=12)
    r = tournament(game, {"forward": forward_policy, "random": random_policy}, 200, seed=1,
                   progress=False)
    lo, hi = r.interval("forward")
    assert lo > 0.5 and r.win_share("forward") > Fraction(1, 2)
    assert r.interval("random")[1] < 0.5
    assert "mean score" not in str(r).lower()          # Marathon has no scores


def test_seat_balance_every_order_equally_often_and_same_chance_per_block():
    game = HighCard(players=3)
    r = tournament(game, {"a": random_policy, "b": first_policy, "c": stand_on_three}, 12,
                   seed=2, progress=False)
    orders = [g.seats for g in r.games]
    assert sorted(set(orders)) == sorted({(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0),
                                          (2, 0, 1), (2, 1, 0)})
    assert all(orders.count(o) == 2 for o in set(orders))
    # each player's shares: one per finished game, and the seats' shares add to 1
    for g in r.games:
        assert sum(g.returns) == 1
    assert sum(r.win_share(k) for k in "abc") == 1
    with pytest.raises(ValueError, match="multiple of 6"):
        tournament(game, {"a": random_policy, "b": first_policy, "c": random_policy}, 7,
                   progress=False)


def test_ties_are_split_and_counted():
    """Two identical deterministic players in High Card tie only on equal cards; a tie
    gives both ½ and counts as tied, not won."""
    game = HighCard(players=2)
    r = tournament(game, {"x": first_policy, "y": stand_on_three}, 40, seed=3, progress=False)
    wx, tx, lx = r.record("x")
    wy, ty, ly = r.record("y")
    assert tx == ty and wx == ly and wy == lx and wx + tx + lx == 40
    assert r.win_share("x") == (wx + Fraction(tx, 2)) / 40


def test_unfinished_games_are_counted_apart():
    game = Marathon(players=2, goal=5, limit=4)        # nobody can reach 5 in 2 turns
    r = tournament(game, {"forward": forward_policy, "random": random_policy}, 10,
                   progress=False)
    assert r.unfinished == 10 and r.win_share("forward") is None
    assert "10 cut short by the engine" in str(r)


def test_parallel_gives_the_serial_result():
    game = kingdoms.game("black_forest", players=2)
    players = {"simple": "simple", "random": "random"}
    serial = tournament(game, players, 8, seed=5, progress=False, batch=2)
    with ProcessPoolExecutor(2) as ex:
        parallel = tournament(game, players, 8, seed=5, executor=ex, progress=False,
                              batch=2)
    assert parallel.games == serial.games
    assert str(parallel) == str(serial)


def test_the_table_is_for_people():
    game = HighCard(players=2)
    calls = []
    r = tournament(game, {"stand on 3": stand_on_three, "random": random_policy}, 6,
                   seed="class", progress=lambda done, n: calls.append((done, n)))
    text = str(r)
    html = r._repr_html_()
    assert calls[-1] == (6, 6)
    for name in ("stand on 3", "random"):
        assert name in text and name in html
    assert "Fraction" not in text + html and "%" in text
    assert "Wilson" in text and "Player 1" in text       # the seats, as people name them
    assert "<table" in html and "<caption" in html and "mean score" in text
    assert "(" not in text.split("\n")[0]


@pytest.mark.slow
def test_a_real_game_by_policy_names_and_its_chart():
    game = kingdoms.game("ten_characters", players=2)
    r = tournament(game, ["greedy", "random"], 4, seed=1, progress=False)
    assert r.names == ("greedy", "random") and r.n == 4
    assert "Ten Characters" in str(r)
    svg = r.plot().svg
    assert svg.lstrip().startswith("<?xml") and "greedy" in svg
    assert r.plot().svg == svg                  # no date, fixed ids: reproducible


def test_bad_players_are_refused_with_the_names():
    game = HighCard(players=2)
    with pytest.raises(ValueError, match="no player called 'best'.*random"):
        tournament(game, ["best", "random"], 2, progress=False)
    with pytest.raises(ValueError, match="2 players"):
        tournament(game, ["random"], 2, progress=False)
    with pytest.raises(ValueError, match="share a name"):
        tournament(game, ["random", "random"], 2, progress=False)
    with pytest.raises(TypeError, match="not callable"):
        tournament(game, {"a": 3, "b": random_policy}, 2, progress=False)
    with pytest.raises(ValueError):
        tournament(game, ["random", "mcts"], 0, progress=False)


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(0.5, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    lo, hi = wilson_interval(1.0, 200)             # all won: still an interval below 1
    assert 0.98 < lo < 1 and hi == 1.0
    assert wilson_interval(0.3, 0) == (0.0, 1.0)


def test_seeded_tournaments_replay():
    game = HighCard(players=2)
    a = tournament(game, {"x": random_policy, "y": stand_on_three}, 20, seed=9, progress=False)
    b = tournament(game, {"x": random_policy, "y": stand_on_three}, 20, seed=9, progress=False)
    assert a.games == b.games
    c = tournament(game, {"x": random_policy, "y": stand_on_three}, 20, seed=10, progress=False)
    assert c.games != a.games
