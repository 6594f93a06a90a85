"""``kingdoms.core.estimate``: estimated values with their uncertainty, from what the
player to move knows, seeded; and ``game_tree`` choosing exact or estimated values."""
from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.protocol import replace
from kingdoms.core.estimate import (Estimate, estimate_children, estimate_value,
                                    reads_hidden_information, viewer_of)
from kingdoms.core.play import play_state
from kingdoms.core.solve import TreeTooLarge, expectimax, outcome_distribution
from kingdoms.core.tree import format_value, game_tree

GAMES = ["horse", "woods", "black_forest", "elves", "ten_characters"]
Z999 = 3.29             # two-sided 99.9% normal quantile


def _near_end(game, seed: int, steps_left: int):
    """A decision ``steps_left`` steps before the end of a seeded random game (or the
    closest one before it)."""
    end = play_state(game, "random" if game.title != "My Kingdom for a Horse" else None,
                     seed=seed)
    path = end.path()
    for s in reversed(path[:len(path) - steps_left]):
        if s.current_player() >= 0:
            return s
    raise AssertionError("no decision in the game")


def _small_position(game, seed: int):
    """The decision furthest from the end of a seeded game (at most 8 steps) from
    which random play can be counted exactly, with more than one possible result."""
    for seed in range(seed, seed + 6):
        end = play_state(game, "random" if game.title != "My Kingdom for a Horse" else None,
                         seed=seed)
        found = None
        for s in reversed(end.path()[-9:-1]):
            if s.current_player() < 0:
                continue
            try:
                d = outcome_distribution(s, outcome=lambda e: e.returns()[0], max_states=2_000)
            except TreeTooLarge:
                break
            if len(d.support()) > 1:
                found = s
        if found is not None:
            return found
    raise AssertionError("no small position found")


def _share(end):
    return (end.returns()[0],)


def _exact_random_value(world) -> Fraction:
    """Player 1's exact share of the win when everyone plays uniformly at random."""
    return outcome_distribution(world, outcome=lambda e: e.returns()[0],
                                max_states=20_000).mean()


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow)
                                  if n in ("horse", "elves") else n for n in GAMES])
@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_estimates_agree_with_exact_values_within_their_interval(name):
    """Near the end of a seeded game of every game: the estimate (random players,
    2,000 sampled games from worlds the player to move cannot tell apart) covers the
    exact value within its 99.9% interval.  The exact value averages, over the worlds
    consistent with the player's view (200 seeded draws of the game's world sampler),
    the exact value of random play in each world; its own sampling error is added."""
    game = kingdoms.game(name, players=2)
    s = _small_position(game, 1)
    p = viewer_of(s)
    est = estimate_value(s, ("share", _share), samples=2_000, seed=3, policy="random")
    assert est.samples == 2_000 and est.viewer == p
    rng = random.Random(11)
    per_world: dict = {}
    xs = []
    for _ in range(200):
        w = s.sample_world(p, rng)
        if w not in per_world:
            per_world[w] = float(_exact_random_value(w))
        xs.append(per_world[w])
    ref = math.fsum(xs) / len(xs)
    ref_se = math.sqrt(math.fsum((x - ref) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    spread = Z999 * math.hypot(est[0].stderr, ref_se)
    assert abs(est[0].mean - ref) <= spread + 1e-12, (est, ref, ref_se)
    assert spread < 0.15          # the check means something


def test_estimates_agree_with_exact_values_without_hidden_information():
    """The re-roll puzzle (no hidden cards): the estimate under random keeps covers
    the exact value of random keeps, and a wrong reference would not be covered."""
    from kingdoms.horse import odds
    root = odds.RerollGame(rerolls=2).initial_state()
    root = root.apply(root.chance_outcomes()[0][0])
    exact = float(outcome_distribution(root, outcome=lambda e: e.returns()[0]).mean())
    est = estimate_value(root, samples=2_000, seed=1, policy="random")
    lo, hi = est[0].interval(Z999)
    assert lo <= exact <= hi
    assert not lo <= exact + 0.1 <= hi


HIDDEN_GAMES = ["woods", "black_forest", "ten_characters", "elves"]


def _numbers(pair):
    root, kids = pair
    return [tuple(float(x) for x in e) for e in [root, *kids.values()]]


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_an_estimate_from_the_position_is_the_estimate_from_what_the_player_saw(name):
    """The estimate from the real position equals, to the last digit, the estimate
    from the player's view (which carries what they observed and no hidden card): so
    it never reads the hidden truth."""
    game = kingdoms.game(name, players=2)
    for seed in range(2):
        s = _near_end(game, seed, 12)
        p = s.current_player()
        assert reads_hidden_information(s)
        seen = s.observed(p)
        assert _numbers(estimate_children(s, samples=30, seed=5)) == \
            _numbers(estimate_children(seen, samples=30, seed=5, viewer=p))


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_indistinguishable_positions_get_the_same_estimates(name):
    """Two positions the player to move cannot tell apart (the real one and a world
    sampled from what they saw, carrying the same observation): the same numbers, for
    the position and for every move."""
    game = kingdoms.game(name, players=2)
    for seed in range(2):
        s = _near_end(game, seed, 12)
        p = s.current_player()
        other = s.sample_world(p, random.Random(seed + 100))
        assert other.view(p) == s.view(p)
        if other.observation(p) != s.observation(p):
            # a sampled world starts without the route that led here; give it the
            # player's observation, which is all it may be told apart by
            other = replace(other)
            other.__dict__["_observed"] = (p, s.observation(p))
        assert _numbers(estimate_children(s, samples=30, seed=5)) == \
            _numbers(estimate_children(other, samples=30, seed=5, viewer=p))


def test_estimates_are_seeded_and_printed_as_estimates():
    game = kingdoms.game("woods", players=2)
    s = _near_end(game, 2, 30)
    a = estimate_value(s, samples=50, seed=7)
    assert tuple(a) == tuple(estimate_value(s, samples=50, seed=7))
    assert tuple(a) != tuple(estimate_value(s, samples=50, seed=8))
    text = format_value(a, game)
    assert "≈" in text and "±" in text and "50 sampled games" in text
    assert "Player 1 ≈" in text and "Fraction" not in text
    assert str(a[0]).startswith("≈ ") and " ± " in str(a[0])
    assert isinstance(a, Estimate) and a.exact is False


@pytest.mark.parametrize("kw", [{"samples": 1}, {"samples": "many"}, {"step_budget": 0}])
def test_bad_sample_counts_are_refused(kw):
    s = kingdoms.game("woods", players=2).initial_state()
    with pytest.raises(ValueError, match="must be a whole number"):
        estimate_children(s, **kw)


@pytest.mark.parametrize("name", GAMES)
def test_mid_game_trees_have_a_value_at_the_root_and_every_move(name):
    """Mid-game, where exact values are out of reach: the root and every move carry an
    estimate, the best move is marked, and one sentence says why the values are
    estimated (the cards the player cannot see, or the size)."""
    game = kingdoms.game(name, players=2)
    end = play_state(game, seed=4)
    path = [s for s in end.path() if s.current_player() >= 0]
    s = path[len(path) // 3]
    g = game_tree(s, depth=1, values=True, max_states=2_000, step_budget=1_500)
    assert g.graph["values"] == "estimated"
    note = g.graph["values_note"]
    assert note.startswith("Estimated values") and "games played out by" in note
    assert ("cannot see" in note) == reads_hidden_information(s)
    for n in [s, *g.successors(s)]:
        v = g.nodes[n]["value"]
        assert isinstance(v, Estimate) and len(v) == game.players
    assert any(d.get("best") for *_, d in g.out_edges(s, data=True))


def test_exact_values_where_they_are_within_reach_and_said_so():
    from kingdoms.horse import odds
    root = odds.RerollGame(rerolls=1).initial_state()
    root = root.apply(root.chance_outcomes()[0][0])
    g = game_tree(root, depth=2, values=True)
    assert g.graph["values"] == "exact" and g.graph["values_note"].startswith("Exact values")
    assert g.nodes[root]["value"] == expectimax(root).value
    with pytest.raises(Exception, match="too many"):
        game_tree(kingdoms.game("horse", players=2).initial_state(), depth=1, values="exact",
                  max_states=100)


def test_open_hands_estimates_play_from_the_position_itself():
    """``open_hands=True`` (every hand face up by the lesson's premise): the sampled
    games start from the position, no world is dealt anew (High Card cannot deal one),
    and where exact values are out of reach the tree says the hands are open."""
    from toygame import Deal, HighCard
    from kingdoms.core.estimate import EstimateError
    s = HighCard().initial_state().apply(Deal(1)).apply(Deal(3))
    with pytest.raises(EstimateError):
        estimate_value(s, samples=50)
    est = estimate_value(s, samples=2_000, open_hands=True, policy="random")
    exact = float(outcome_distribution(s, outcome=lambda e: e.returns()[0]).mean())
    lo, hi = est[0].interval(Z999)      # random play from the true hands (1 against 3)
    assert est.viewer is None and lo <= exact <= hi and not lo <= exact + 0.1 <= hi
    g = game_tree(s, depth=1, values=True, open_hands=True, max_states=3)
    assert g.graph["values"] == "estimated"
    assert "with every hand face up (as this lesson assumes)" in g.graph["values_note"]
    assert "dealt anew" not in g.graph["values_note"]
