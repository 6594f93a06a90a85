"""The search bot (``kingdoms.core.search``) plays King of the Elves: it is handed the
view that carries what its player observed (``State.observed``), samples worlds from
it exactly as from the full state, and never reads what its player may not see."""
from __future__ import annotations

import random

import pytest

import kingdoms
from kingdoms.core import SearchError, mcts_policy
from kingdoms.core.play import play_state
from kingdoms.core.search import MCTS


def game(players=2, **kw):
    return kingdoms.game("elves", players=players, **kw)


def decisions(g, seed, every=7):
    """Every ``every``-th decision state (with a choice) of a seeded random game."""
    rng = random.Random(seed)
    s = g.initial_state()
    i = 0
    while not s.is_terminal():
        if not s.is_chance() and len(s.legal_actions()) > 1:
            i += 1
            if i % every == 0:
                yield s
        s = s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("players,teleport", [(2, False), (3, False), (3, True)])
def test_the_observed_view_samples_the_same_worlds_as_the_state(players, teleport):
    """Same random numbers, same world: from the state, from ``observed(p)`` and from
    the observed view of a world sampled before (all say the same about ``p``); the
    worlds look to ``p`` as the state does."""
    g = game(players, teleport=teleport)
    checked = 0
    for s in decisions(g, 4, every=15):
        for p in range(players):
            seen = s.observed(p)
            assert seen == s.view(p)
            for seed in range(2):
                w = s.sample_world(p, random.Random(seed))
                assert seen.sample_world(p, random.Random(seed)) == w
                assert w.gold == seen.sample_world(p, random.Random(seed)).gold
                assert w.view(p) == s.view(p)
                assert w.observed(p).sample_world(p, random.Random(seed)) == w
                checked += 1
    assert checked > 12


def test_a_bare_view_cannot_sample_worlds_and_says_why():
    """Without what the player observed (a bare ``view(p)``) the other players' gold
    and the shown hands are unknown: a clear ``NotImplementedError`` naming the way
    out; another player's observed view refuses too, and so does a world sampled for
    another player (it carries only what that player observed)."""
    g = game(3)
    s = next(decisions(g, 1))
    with pytest.raises(NotImplementedError, match="observed"):
        s.view(0).sample_world(0, random.Random(0))
    with pytest.raises(ValueError, match="carries only what they observed"):
        s.observed(1).sample_world(0, random.Random(0))
    world = s.sample_world(0, random.Random(0))     # carries only what Player 1 saw
    with pytest.raises(NotImplementedError, match="history from the start"):
        world.sample_world(1, random.Random(0))


def test_the_game_offers_the_search_bot():
    g = game(2)
    named = g.policies()
    bot = named["mcts"]
    assert isinstance(bot, MCTS) and bot.observes
    assert bot.simulations and bot.rollout == "default"
    assert {"random", "planner", "homebody", "mcts"} <= set(named)


@pytest.mark.parametrize("players", [2, 3])
def test_the_search_bot_never_reads_hidden_cards(players):
    """The full state, the player's observed view and the observed view of a sampled
    world (other hidden cards, same view): the bot picks the same move for the same
    random numbers."""
    g = game(players)
    bot = mcts_policy(10, rollout="default")
    picked = 0
    for seed, s in enumerate(decisions(g, 2, every=11)):
        p = s.current_player()
        other = s.sample_world(p, random.Random(seed + 100))
        picks = {str(bot(x, random.Random(seed)))
                 for x in (s, s.observed(p), other.observed(p))}
        assert len(picks) == 1, picks
        picked += 1
        if picked == 4:
            break
    assert picked == 4


def test_the_search_bot_cannot_search_a_bare_view():
    g = game(2)
    s = next(decisions(g, 3))
    with pytest.raises(SearchError, match="cannot yet sample"):
        mcts_policy(5)(s.view(s.current_player()), random.Random(0))


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_the_search_bot_plays_a_whole_game_through_play():
    """``play`` hands the bot ``observed(p)``: a game of the bot against the planner
    ends by the rules, and replays from its seed."""
    g = game(2)
    players = [mcts_policy(2, rollout="default"), g.policies()["planner"]]
    end = play_state(g, policies=players, seed=7)
    assert end.is_terminal() and end.unfinished() is None
    again = play_state(g, policies=[mcts_policy(2, rollout="default"),
                                    g.policies()["planner"]], seed=7)
    assert again.history() == end.history()
