"""The protocol's invariants, checked by random playouts of every registered game.

Each configuration a game declares (``Game.configurations()``: every player count and
variant) is played many times with random legal actions and sampled chance events.
At every step: ``apply`` leaves the old state unchanged, decision states have legal
actions, chance nodes list exact probabilities summing to 1 (or say they are too
large and can be sampled), ``returns`` exists only at the end, illegal actions are
refused without change, views are states of the same game; at the end the JSON
record replays to identical states.
"""
from __future__ import annotations

import dataclasses
import os
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import kingdoms
from kingdoms.core import (CHANCE, TERMINAL, GameRecord, IllegalAction, State,
                           TooManyOutcomes, play)
from kingdoms.core.play import play_state, game_rng

EXAMPLES = int(os.environ.get("KINGDOMS_PLAYOUTS", "12"))
BULK = int(os.environ.get("KINGDOMS_BULK_PLAYOUTS", "100"))
MAX_STEPS = 100_000


def configurations():
    out = []
    for name in kingdoms.games():
        try:
            cls = kingdoms.game_class(name)
        except ImportError:      # reported by the tests themselves, not at collection
            out.append(pytest.param(name, {}, id=f"{name}-import"))
            continue
        for config in cls.configurations():
            label = name + "-" + "-".join(f"{k}={v}" for k, v in config.items())
            out.append(pytest.param(name, config, id=label))
    return out


def snapshot(state: State):
    return tuple(getattr(state, f.name) for f in dataclasses.fields(state)), hash(state)


class NotAnAction:
    def __str__(self):
        return "not an action"


def check_step(state: State, rng: random.Random):
    """Check the invariants at ``state`` and return the next state."""
    cp = state.current_player()
    game = state.game
    assert cp == CHANCE or cp == TERMINAL or 0 <= cp < game.players
    with pytest.raises(IllegalAction):
        state.apply(NotAnAction())
    if cp == TERMINAL:
        return None
    with pytest.raises(ValueError):
        state.returns()
    for p in range(game.players):
        v = state.view(p)
        assert isinstance(v, type(state)) and v.game == game
        hash(v)
        str(v)
    before = snapshot(state)
    if cp == CHANCE:
        try:
            outcomes = state.chance_outcomes()
        except TooManyOutcomes as e:
            assert e.count > 1
            action = state.sample_chance(rng)
        else:
            assert outcomes, "a chance node without outcomes"
            assert all(isinstance(p, Fraction) and 0 < p <= 1 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
            assert len({o for o, _ in outcomes}) == len(outcomes), "repeated outcome"
            action = state.sample_chance(rng)
            assert action in dict(outcomes)
    else:
        actions = state.legal_actions()
        assert actions, f"no legal action for player {cp} in a non-terminal state"
        assert len(set(actions)) == len(actions), "repeated legal action"
        action = actions[rng.randrange(len(actions))]
        assert str(action)
    nxt = state.apply(action)
    assert snapshot(state) == before, "apply changed the state it was called on"
    assert nxt._last == (cp, action) and nxt._prev is state
    return nxt


def check_end(end: State, seed):
    shares = end.returns()
    assert len(shares) == end.game.players
    assert all(0 <= r <= 1 for r in shares)
    assert sum(shares) == 1 or (end.game.players == 1 and sum(shares) in (0, 1))
    rec = GameRecord.of(end, seed=seed)
    again = GameRecord.from_json(rec.to_json())
    states = again.states()
    assert states[-1] == end and len(states) == len(end.history()) + 1
    assert states == list(end.path())


@pytest.mark.parametrize("name, config", configurations())
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playout_keeps_the_protocol(name, config, seed):
    game = kingdoms.game(name, **config)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(MAX_STEPS):
        nxt = check_step(state, rng)
        if nxt is None:
            break
        state = nxt
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps")
    check_end(state, seed)


@pytest.mark.parametrize("name, config", configurations())
def test_many_playouts_end_and_share_the_win(name, config):
    game = kingdoms.game(name, **config)
    wins = [Fraction(0)] * game.players
    for i in range(BULK):
        end = play_state(game, seed=None, rng=game_rng("bulk", i), max_steps=MAX_STEPS)
        assert end.is_terminal()
        wins = [w + r for w, r in zip(wins, end.returns())]
    assert sum(wins) <= BULK


@pytest.mark.parametrize("name, config", configurations())
def test_same_seed_same_game(name, config):
    game = kingdoms.game(name, **config)
    assert play(game, seed=123).steps == play(game, seed=123).steps


@pytest.mark.parametrize("name, config", configurations())
def test_trees_and_solver_work_midgame(name, config):
    """The generic tree and solver tools handle every game (a few steps in)."""
    from kingdoms.core import expectimax, game_tree, TreeTooLarge
    game = kingdoms.game(name, **config)
    rng = random.Random(5)
    state = game.initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        state = state.apply(state.sample_chance(rng) if state.is_chance()
                            else rng.choice(state.legal_actions()))
    try:
        g = game_tree(state, depth=2, max_nodes=5000)
    except ValueError as e:
        assert "more than 5000 nodes" in str(e)
    else:
        assert g.graph["root"] == state
        for u, v, d in g.edges(data=True):
            if u.is_chance():
                assert isinstance(d["probability"], Fraction)
    even = tuple(Fraction(1, game.players) for _ in range(game.players))
    try:
        sol = expectimax(state, depth=2, horizon_value=lambda s: even, max_states=20_000)
    except TreeTooLarge:
        return
    assert len(sol.value) == game.players


@pytest.fixture(scope="module")
def pool():
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=2) as executor:
        yield executor


@pytest.mark.parametrize("name", kingdoms.games())
def test_simulate_in_worker_processes_matches_serial(name, pool):
    """Games travel to worker processes and give the serial run's numbers."""
    from kingdoms.core import simulate
    game = kingdoms.game(name)
    serial = simulate(game, 6, seed=4, batch=2, progress=False)
    assert simulate(game, 6, seed=4, batch=2, executor=pool, progress=False) == serial


@pytest.mark.parametrize("name", [g for g in kingdoms.games() if g != "highcard"])
def test_every_unknown_number_is_a_listed_assumption(name):
    """Each game's data file names its assumptions (with reasons) and its sources,
    through the one core accessor, and the printed table lists every assumption."""
    game = kingdoms.game(name)
    assumptions, sources = game.assumptions(), game.sources()
    assert assumptions and sources
    assert all(a.reason.strip() for a in assumptions)
    table = game.assumptions_table()
    assert all(f"- {a.key} = " in table for a in assumptions)
    assert game.game_data() is game.game_data()          # read once per configuration


def test_a_game_without_data_file_says_so():
    game = kingdoms.game("highcard")
    with pytest.raises(AttributeError, match="has no data file"):
        game.assumptions()
