"""play / simulate: seeds, the game's own players, views, honest endings, interrupts."""
import json
import random
from concurrent.futures import Future, ProcessPoolExecutor
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core import CHANCE, HIDDEN, GameRecord, RecordError, play, random_policy, simulate
from kingdoms.core.play import game_rng, play_state
from toygame import Deal, HighCard, Marathon, Stand, forward_policy


@pytest.fixture
def marathon():
    kingdoms.register("marathon", Marathon)
    yield Marathon()
    from kingdoms.core import registry
    registry._REGISTRY.pop("marathon", None)


# ---- seeds (issue 17, "Saving") -------------------------------------------------------

def test_int_and_str_seeds_are_different_seeds_and_int_streams_are_kept():
    assert game_rng(1).random() != game_rng("1").random()
    assert game_rng(5, 3).random() == random.Random("kingdoms/5/3").random()   # as before
    assert game_rng("a/1", 0).random() != game_rng("a", 10).random()
    assert play(HighCard(), seed=1).steps != play(HighCard(), seed="1").steps or \
        any(play(HighCard(), seed=k).steps != play(HighCard(), seed=str(k)).steps
            for k in range(2, 12))


@pytest.mark.parametrize("seed", [(1, 2), 1.5, True, [3], b"x"])
def test_only_int_and_str_seeds_are_accepted(seed):
    with pytest.raises(TypeError, match="a seed is an int or a str"):
        play(HighCard(), seed=seed)
    with pytest.raises(TypeError, match="a seed is an int or a str"):
        simulate(HighCard(), 2, seed=seed, progress=False)
    rec = GameRecord.of(HighCard().initial_state())
    with pytest.raises(RecordError, match="seed: a seed is an int or a str"):
        GameRecord(rec.game, rec.config, rec.steps, seed=seed).to_json()


@pytest.mark.parametrize("seed", [7, "seven", -3, 2 ** 40])
def test_a_seed_survives_the_round_trip_and_plays_the_same_game(seed):
    rec = play(HighCard(players=3), seed=seed)
    again = GameRecord.from_json(rec.to_json())
    assert again.seed == seed and type(again.seed) is type(seed)
    assert play(HighCard(players=3), seed=again.seed).steps == rec.steps


def test_play_without_a_seed_draws_one_and_records_it():
    recs = [play(HighCard(players=3)) for _ in range(12)]
    assert all(isinstance(r.seed, int) for r in recs)
    assert len({r.steps for r in recs}) > 1                    # not always the same game
    r = recs[0]
    assert play(HighCard(players=3), seed=r.seed).steps == r.steps


# ---- the game's own players; honest endings (issue 13) --------------------------------

def test_play_and_simulate_seat_the_games_default_players(marathon):
    rec = play(marathon, seed=1)
    decisions = [a for who, a in rec.steps if who != CHANCE]
    moves = [a for who, a in rec.steps if who == CHANCE]
    # forward_policy steps whenever the coin allows
    assert sum(a.n for a in decisions) == sum(a.n for a in moves)
    s = simulate(marathon, 200, seed=2, progress=False)
    assert s.unfinished < 200 and sum(s.wins) == s.finished


def test_a_game_cut_by_a_safeguard_is_unfinished_in_its_record(marathon):
    g = Marathon(limit=2)
    rec = play(g, random_policy, seed=1)
    assert rec.unfinished == "the engine stopped it after 2 turns (a safeguard)"
    again = GameRecord.from_json(rec.to_json())
    assert again.unfinished == rec.unfinished
    assert json.loads(rec.to_json())["unfinished"] == rec.unfinished
    done = play(HighCard(), seed=1)
    assert done.unfinished is None


def test_simulate_counts_unfinished_games_apart_and_rates_finished_ones(marathon):
    s = simulate(Marathon(limit=8), 400, random_policy, seed=5, progress=False)
    assert 0 < s.unfinished < 400 and s.finished + s.unfinished == s.n == 400
    assert sum(s.wins) == s.finished                           # no shared "wins"
    assert s.win_shares() == [w / s.finished for w in s.wins]
    assert abs(sum(s.win_rates()) - 1) < 1e-9
    table = s.table()
    assert f"{s.finished} ended by the rules and {s.unfinished} were cut short" in table
    assert "not counted in the win shares" in table and "safeguard" in table


def test_a_summary_with_no_finished_game_has_no_win_rates(marathon):
    s = simulate(Marathon(limit=1), 10, random_policy, seed=1, progress=False)
    assert s.unfinished == 10 and s.win_rates() == [None, None]
    assert "no win shares" in s.table()
    assert s.rows()[0]["win share"] == "–"


def test_summary_names_players_and_prints_fractions_for_people():
    s = simulate(HighCard(players=3), 90, random_policy, seed=3, progress=False)
    assert [r["player"] for r in s.rows()] == ["Player 1", "Player 2", "Player 3"]
    table = s.table()
    assert "Player 1" in table and "Player 0" not in table and "Fraction(" not in table
    share = s.win_shares()[0]
    assert str(share) not in table            # a counted share is an estimate, not a fraction
    lo, hi = s.interval(0)
    assert f"{100 * float(share):.1f}%" in table and lo < share < hi
    assert f"{100 * lo:.1f}% to {100 * hi:.1f}%" in table
    assert s.share_text(0) == f"{100 * float(share):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) of 90 games"
    assert "90 games of High Card" in table and "95% Wilson score interval" in table
    with pytest.raises(ValueError, match=r"share_text\(player\): player must be one of 0 \(Player 1\)"):
        s.share_text(3)


def test_summary_uses_the_games_player_names():
    class Named(HighCard):
        def player_name(self, p):
            return ("Ann", "Bo")[p]
    s = simulate(Named(), 10, random_policy, seed=3, progress=False)
    assert [r["player"] for r in s.rows()] == ["Ann", "Bo"]


# ---- views (issue 17, "Hidden information") -------------------------------------------

def _spy(seen):
    def policy(state, rng):
        seen.append(state)
        return state.legal_actions()[-1]
    return policy


def test_policies_of_hidden_information_games_get_the_players_view():
    seen = []
    play(HighCard(), _spy(seen), seed=3)
    assert seen and all(HIDDEN in s.hands for s in seen)
    for s in seen:                     # each saw its own card only
        cp = s.current_player()
        assert s.hands[cp] is not HIDDEN
    full = []
    play(HighCard(), _spy(full), seed=3, views=False)
    assert full and all(HIDDEN not in s.hands for s in full)
    assert play(HighCard(), _spy([]), seed=3).steps == play(HighCard(), _spy([]), seed=3,
                                                            views=False).steps
    with pytest.raises(TypeError, match="views is True, False or None"):
        play(HighCard(), seed=1, views="yes")


def test_a_policy_that_observes_gets_the_view_with_what_its_player_observed():
    got = []

    def observer(view, rng):
        got.append(view)
        return view.legal_actions()[0]
    observer.observes = True
    end = play_state(HighCard(), observer, seed=3)
    assert got
    for view in got:
        state = next(s for s in end.path()
                     if s.current_player() >= 0 and s.view(s.current_player()) == view)
        p = view.current_player()
        assert view == state.view(p)                       # the same view ...
        assert view.observation(p) == state.history(p)     # ... carrying p's history
        assert HIDDEN in view.hands                         # and nothing hidden
        other = 1 - p
        with pytest.raises(ValueError, match="carries only what they observed"):
            view.observation(other)
    # a copy made from the view is a new position: it carries nothing
    from kingdoms.core.protocol import replace
    copy = replace(got[0])
    assert copy.__dict__.get("_observed") is None
    other = 1 - got[0].current_player()
    assert copy.observation(other) == copy.history(other)  # no "carries only ..." error


def test_observed_refuses_a_player_out_of_range_and_a_public_state_is_its_own_view():
    state = HighCard().initial_state().apply(Deal(1)).apply(Deal(3))
    with pytest.raises(ValueError, match="player must be one of"):
        state.observed(2)
    end = play_state(state, random_policy, seed=1)
    assert end.observed(0) is end or end.observed(0) == end.view(0)


def test_the_views_chosen_action_is_mapped_to_the_real_states_action():
    state = HighCard().initial_state().apply(Deal(1)).apply(Deal(3))
    picked = []

    def policy(view, rng):
        a = view.legal_actions()[0]
        picked.append(a)
        return a
    end = play_state(state, policy, seed=1)
    first = end.path()[3]._last[1]
    assert first == picked[0] and first is state.legal_actions()[0]


def test_a_view_policy_returning_a_foreign_action_is_refused():
    from kingdoms.core import IllegalAction
    with pytest.raises(IllegalAction):
        play(HighCard(), lambda view, rng: "stand", seed=1)


# ---- interrupts (issue 17, "Other") ---------------------------------------------------

class HeldExecutor:
    """Runs the first batch at once and holds every other one pending (so the test
    sees what an interrupt does to work not yet started)."""

    def __init__(self):
        self.futures = []

    def submit(self, fn, *args):
        f = Future()
        if not self.futures:
            f.set_result(fn(*args))
        self.futures.append(f)
        return f


def _interrupt(done, n):
    raise KeyboardInterrupt


def test_an_interrupt_cancels_the_pending_batches_and_is_raised():
    ex = HeldExecutor()
    with pytest.raises(KeyboardInterrupt):
        simulate(HighCard(), 50, random_policy, seed=1, batch=5, executor=ex, progress=_interrupt)
    assert len(ex.futures) == 10
    assert all(f.cancelled() for f in ex.futures[1:])


def test_an_interrupt_with_a_process_pool_returns_and_leaves_the_pool_usable():
    with ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(KeyboardInterrupt):
            simulate(HighCard(), 400, random_policy, seed=1, batch=2, executor=pool,
                     progress=_interrupt)
        again = simulate(HighCard(), 20, random_policy, seed=2, batch=5, executor=pool,
                         progress=False)
    assert again == simulate(HighCard(), 20, random_policy, seed=2, batch=5, progress=False)


def test_progress_may_be_a_function():
    calls = []
    simulate(HighCard(), 20, random_policy, seed=1, batch=5, progress=lambda d, n: calls.append((d, n)))
    assert calls == [(5, 20), (10, 20), (15, 20), (20, 20)]


def test_players_may_be_named_by_their_names_in_game_policies():
    """``simulate``, ``play`` and ``play_state`` take a name of ``game.policies()`` where
    they take a policy (one for all, or one per seat): the same games as the policies."""
    game = kingdoms.game("woods", players=2)
    pols = game.policies()
    by_name = simulate(game, 6, policies=["greedy", "random"], seed=2, progress=False)
    assert by_name == simulate(game, 6, policies=[pols["greedy"], pols["random"]], seed=2,
                               progress=False)
    assert simulate(game, 4, policies="random", seed=3, progress=False) == simulate(
        game, 4, policies=random_policy, seed=3, progress=False)
    assert play(game, "greedy", seed=5) == play(game, pols["greedy"], seed=5)
    assert play_state(game, ["random", "greedy"], seed=5) == play_state(
        game, [random_policy, pols["greedy"]], seed=5)


@pytest.mark.parametrize("policies, error, words", [
    ("nope", ValueError, "has no player called 'nope'; its players are: random, mcts"),
    (["greedy", "nope"], ValueError, "has no player called 'nope'"),
    (5, TypeError, "one policy \\(or player name\\) for all, one per player, or None"),
    ([1, 2], TypeError, "the policy for Player 1 is not callable"),
    (["random"] * 3, ValueError, "3 policies for 2 players: give one per player"),
])
def test_wrong_players_are_named_before_any_game_is_played(policies, error, words):
    game = kingdoms.game("woods", players=2)
    with pytest.raises(error, match=words):
        simulate(game, 2, policies=policies, progress=False)


def test_simulate_and_tournament_want_a_game_not_a_position():
    from kingdoms.core import tournament
    state = kingdoms.game("woods", players=2).initial_state()
    for run in (lambda: simulate(state, 2, progress=False),
                lambda: tournament(state, ["random", "random"], 2, progress=False)):
        with pytest.raises(TypeError, match=r"give it the game \(state\.game\), not a "
                                            r"position; .* play_state\(state"):
            run()
    with pytest.raises(TypeError, match=r"simulate needs a game \(kingdoms\.game"):
        simulate("woods", 2, progress=False)
