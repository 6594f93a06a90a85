"""Seeded playouts: termination, invariants, records, speed."""
import random
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.play import play, play_state, random_policy
from kingdoms.core.protocol import CHANCE, TERMINAL
from kingdoms.core.records import GameRecord
from kingdoms.horse import pasture
from kingdoms.horse.strategies import greedy_policy, no_reroll_policy

TOTALS = (32, 32, 24, 12)


def check_invariants(state):
    g = state.game
    comp = g.comp
    for i in range(4):
        held = sum(f.herd[i] for f in state.farms) + (state.moritz[i] if state.moritz else 0)
        assert held + state.supply[i] == TOTALS[i]
        assert state.supply[i] >= 0 and all(f.herd[i] >= 0 for f in state.farms)
    for f in state.farms:
        assert pasture.popcount(f.fences) <= comp.fences_per_player
    cards = sum(state.deck) + sum(state.discard) + sum(len(f.hand) + len(f.tableau)
                                                       for f in state.farms)
    assert cards == comp.deck_size
    assert state.deck_count == sum(state.deck)


def phase_ended(before, after) -> bool:
    """A dice or trading phase ended between the two states (housing is checked
    at the end of each phase)."""
    if after.phase in ("trade", "final", "moritz", "over") and after.phase != before.phase:
        return True
    return after.active != before.active or after.round != before.round


def walk(game, policy, seed):
    rng = random.Random(seed)
    s = game.initial_state()
    steps = 0
    while True:
        check_invariants(s)
        cp = s.current_player()
        if cp == TERMINAL:
            return s, steps
        if cp == CHANCE:
            outs = s.chance_outcomes()
            assert sum(p for _, p in outs) == 1
            a = s.sample_chance(rng)
        else:
            assert s.legal_actions(), "a decision with no legal action"
            a = policy(s, rng)
        nxt = s.apply(a)
        if phase_ended(s, nxt):       # capacity respected whenever a phase ends
            assert all(f.fits() for f in nxt.farms)
        s = nxt
        steps += 1
        assert steps < 200_000


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("easy", [False, True])
def test_random_playouts_terminate_with_invariants(players, easy):
    g = kingdoms.game("horse", players=players, easy=easy, max_rounds=12)
    for seed in range(2):
        end, steps = walk(g, random_policy, seed)
        r = end.returns()
        assert len(r) == players
        if players == 1:
            assert r[0] in (0, Fraction(1, 2), 1)
        else:
            assert sum(r) == 1


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_greedy_playouts_finish_by_the_goal(players):
    g = kingdoms.game("horse", players=players)
    for seed in range(2):
        end, _ = walk(g, greedy_policy, seed)
        assert end.contenders(), "someone holds the set at the end"
        assert end.round <= g.max_rounds


def test_default_play_and_record_round_trip():
    for players in (1, 2, 4):
        g = kingdoms.game("horse", players=players)
        rec = play(g, seed=5)
        again = GameRecord.from_json(rec.to_json())
        end = again.replay()
        assert end == play_state(g, seed=5)
        assert end.returns() == rec.replay().returns()


def test_mixed_policies_record_round_trip():
    g = kingdoms.game("horse", players=2)
    end = play_state(g, [greedy_policy, no_reroll_policy], seed=3)
    rec = GameRecord.of(end, seed=3)
    assert GameRecord.from_json(rec.to_json()).replay() == end


def test_apply_never_mutates_and_equal_states_hash_equal():
    g = kingdoms.game("horse", players=2)
    s = g.initial_state()
    rng = random.Random(0)
    for _ in range(200):
        if s.is_terminal():
            break
        before = (hash(s), repr(s))
        a = s.sample_chance(rng) if s.is_chance() else random_policy(s, rng)
        s2 = s.apply(a)
        assert (hash(s), repr(s)) == before
        assert s.apply(a) == s2 and hash(s.apply(a)) == hash(s2)
        s = s2


def passive(state, rng):
    """Never takes anything: plays no card, stops rolling, declines every die, never
    trades."""
    acts = state.legal_actions()
    for a in acts:
        if type(a).__name__ in ("EndEffects", "EndTrading", "EndFences", "RollDice"):
            return a
    return acts[0]          # keep all dice / keep the hand / forced run-away


@pytest.mark.slow
def test_engine_moritz_agrees_with_the_markov_chain():
    from kingdoms.horse import odds
    g = kingdoms.game("horse", players=1)
    turns = []
    for seed in range(400):
        end = play_state(g, passive, seed=seed)
        assert end.winners() == [-1] and end.returns() == (0,)
        turns.append(end.round)
    mean = odds.moritz_mean_turns()
    pmf, _ = odds.moritz_turns(40)
    var = sum((t + 1) ** 2 * p for t, p in enumerate(pmf)) - mean ** 2
    m = sum(turns) / len(turns)
    assert abs(m - float(mean)) < 4.5 * (float(var) / len(turns)) ** 0.5
