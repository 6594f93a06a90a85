"""The speed-ups of the core change nothing observable (issue 14, item 5).

``replace`` copies a state's instance dict instead of field by field, the per-state
caches are read with ``dict.get``, the default chance sampler reads a Fraction's
numerator and denominator directly, ``simulate`` batches games in place with the
garbage collector's thresholds raised, and a process pool gives the very summary of
a serial run.  Timings are measured by ``benchmarks/bench.py``, never here.
"""
import dataclasses
import gc
import importlib
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import given, settings, strategies as st

import kingdoms
from kingdoms.core import CHANCE, IllegalAction, random_policy, replace, simulate
from kingdoms.core.play import SimulationSummary, game_rng, play_state
from kingdoms.core.protocol import _FRESH
from toygame import HighCard, Marathon

play_module = importlib.import_module("kingdoms.core.play")   # (kingdoms.core.play is also a function)


def _mid_game_states(game, seed, every=5):
    """Some states along a seeded random game (each reached by ``apply``)."""
    s = play_state(game, random_policy, seed=seed)
    out = []
    while s is not None:
        out.append(s)
        s = s._prev
    return out[::every]


# ---- replace -------------------------------------------------------------------------

@pytest.mark.parametrize("name", kingdoms.games())
def test_replace_of_every_games_states_equals_dataclasses_replace(name):
    game = kingdoms.game(name)
    for s in _mid_game_states(game, seed=3):
        s.legal_actions()                       # fill the caches replace must drop
        s.current_player()
        fields = [f.name for f in dataclasses.fields(s) if f.init and f.name != "game"]
        name0 = fields[len(fields) // 2]
        fast = replace(s, **{name0: getattr(s, name0)})
        slow = dataclasses.replace(s, **{name0: getattr(s, name0)})
        assert fast == slow == s and hash(fast) == hash(slow) and type(fast) is type(s)
        # the fields, then the route and the caches at their empty values (never left
        # out: a state's dict keeps one layout, which CPython copies in one block)
        names = {f.name for f in dataclasses.fields(s) if f.init}
        assert set(fast.__dict__) == names | set(_FRESH)
        assert {k: v for k, v in fast.__dict__.items() if k not in names} == _FRESH
        assert fast._prev is None and fast._last is None and fast.history() == ()
        # the copy computes its own answers (nothing cached from the original)
        assert fast.current_player() == s.current_player()
        assert fast.legal_actions() == s.legal_actions()


def test_replace_leaves_the_original_unchanged_and_applies_the_changes():
    s = _mid_game_states(HighCard(players=3), seed=1, every=1)[1]
    before = dict(s.__dict__)
    fields = [f.name for f in dataclasses.fields(s) if f.init and f.name != "game"]
    t = replace(s, **{fields[0]: "changed"})
    assert getattr(t, fields[0]) == "changed"
    assert s.__dict__ == before and getattr(s, fields[0]) != "changed"
    assert t.__dict__ is not s.__dict__


def test_replace_drops_anything_beside_the_fields_not_only_the_known_caches():
    s = _mid_game_states(HighCard(players=2), seed=2, every=1)[1]
    s.__dict__["_speed_test_extra"] = "not a field"     # e.g. a future cache
    try:
        t = replace(s)
    finally:
        del s.__dict__["_speed_test_extra"]
    assert "_speed_test_extra" not in t.__dict__ and t == s
    # the fields, the route and the empty caches
    assert set(t.__dict__) == {f.name for f in dataclasses.fields(s) if f.init} | set(_FRESH)


def test_replace_refuses_an_unknown_field_among_known_ones():
    s = HighCard().initial_state()
    field = next(f.name for f in dataclasses.fields(s) if f.init and f.name != "game")
    with pytest.raises(TypeError, match="has no field 'nonsense'"):
        replace(s, **{field: getattr(s, field), "nonsense": 1})


# ---- apply and the caches ------------------------------------------------------------

@pytest.mark.parametrize("name", kingdoms.games())
def test_apply_still_refuses_malformed_actions_and_changes_nothing(name):
    game = kingdoms.game(name)
    for s in _mid_game_states(game, seed=4, every=9):
        if s.is_terminal():
            continue
        s.legal_actions()
        before = dict(s.__dict__)
        for bad in (None, mock.ANY, object(), "x", 0):
            with pytest.raises(IllegalAction):
                s.apply(bad)
        after = dict(s.__dict__)
        after.pop("_co", None)                  # a chance node may list its outcomes
        before.pop("_co", None)
        assert after == before


@pytest.mark.parametrize("name", kingdoms.games())
def test_every_cached_answer_is_the_states_own(name):
    game = kingdoms.game(name)
    s = game.initial_state()
    rng = random.Random(5)
    for _ in range(60):
        cp = s.current_player()
        if cp == CHANCE:
            a = s.sample_chance(rng)
            listed = s.__dict__.get("_co")
            if listed is not None:
                assert listed == tuple(s._chance_outcomes())
        elif cp < 0:
            break
        else:
            a = random_policy(s, rng)
            assert s.__dict__["_la"] == tuple(s._legal_actions())
        assert s.__dict__["_cp"] == s._current_player()
        t = s.apply(a)
        assert t._prev is s and t._last[0] == cp and t._last[1] == a
        # anything filled while the game built t is t's own answer
        if t.__dict__.get("_cp") is not None:
            assert t.__dict__["_cp"] == t._current_player()
        if t.__dict__.get("_la") is not None and t._current_player() >= 0:
            assert t.__dict__["_la"] == tuple(t._legal_actions())
        s = t


@given(st.lists(st.integers(1, 50), min_size=1, max_size=8), st.floats(0, 1, exclude_max=True))
@settings(max_examples=200, deadline=None)
def test_the_default_sampler_draws_what_float_of_the_fractions_gives(weights, r):
    total = sum(weights)
    outcomes = tuple((k, Fraction(w, total)) for k, w in enumerate(weights))

    class Fixed:
        def random(self):
            return r

    node = HighCard().initial_state()
    node.__dict__["_co"] = outcomes
    acc, expected = 0.0, outcomes[-1][0]
    for o, p in outcomes:                       # the documented meaning: float(p) summed
        acc += float(p)
        if r < acc:
            expected = o
            break
    assert type(node)._sample_chance(node, Fixed()) == expected


# ---- simulate --------------------------------------------------------------------------

def _one_by_one(game, n, seed):
    """The summary ``simulate`` must give, from ``play_state`` game by game."""
    total = None
    for i in range(n):
        end = play_state(game, None, rng=game_rng(seed, i))
        one = SimulationSummary(game.name, game.players, 1, [Fraction(0)] * game.players,
                                [], Counter({len(end.history()): 1}), 0, Counter(),
                                tuple(game.player_name(p) for p in range(game.players)),
                                game.title)
        why = end.unfinished()
        if why is None:
            one.wins = [Fraction(0) + r for r in end.returns()]
        else:
            one.unfinished, one.unfinished_reasons = 1, Counter({why: 1})
        if end.scores() is not None:
            one.scores = [Counter({x: 1}) for x in end.scores()]
        total = one if total is None else total.merge(one)
    return total


def test_a_batch_summarises_exactly_the_games_played_one_by_one():
    for game in (HighCard(players=3), Marathon(limit=3), Marathon()):
        expected = _one_by_one(game, 30, seed=11)
        for batch in (1, 4, 30):
            assert simulate(game, 30, seed=11, batch=batch, progress=False) == expected


@pytest.mark.parametrize("name", kingdoms.games())
def test_simulate_with_two_worker_processes_equals_the_serial_run(name):
    game = kingdoms.game(name)
    serial = simulate(game, 6, seed="speed", progress=False)
    with ProcessPoolExecutor(max_workers=2) as pool:
        parallel = simulate(game, 6, seed="speed", batch=2, executor=pool, progress=False)
    assert parallel == serial
    assert parallel.table() == serial.table()


def test_simulate_restores_the_garbage_collectors_thresholds():
    before = gc.get_threshold()
    try:
        gc.set_threshold(1234, 11, 12)
        simulate(HighCard(), 20, seed=1, progress=False)
        assert gc.get_threshold() == (1234, 11, 12)
        with play_module._fewer_collections():
            raised = gc.get_threshold()
            with play_module._fewer_collections():      # nested: still raised
                assert gc.get_threshold() == raised
            assert gc.get_threshold() == raised
        assert raised[0] > 1234 and gc.get_threshold() == (1234, 11, 12)
        with pytest.raises(RuntimeError):
            with play_module._fewer_collections():
                raise RuntimeError("a failing batch")
        assert gc.get_threshold() == (1234, 11, 12)
    finally:
        gc.set_threshold(*before)


# ---- the _refuse_malformed hook: checked only for actions from outside ---------------

def _with_hook(state, calls):
    import dataclasses as dc

    @dc.dataclass(frozen=True)
    class Checked(type(state)):
        def _refuse_malformed(self, action):
            calls.append(action)
            if not isinstance(action, (type(None), int, str)) and \
                    type(action).__module__ == "toygame":
                return
            raise IllegalAction(f"malformed here: {action!r}")

    s = object.__new__(Checked)
    s.__dict__.update({f.name: getattr(state, f.name) for f in dc.fields(state) if f.init})
    return s


def test_refuse_malformed_is_skipped_for_listed_objects_and_asked_for_others():
    calls = []
    s = _with_hook(HighCard().initial_state(), calls)           # a chance node
    drawn = s.sample_chance(random.Random(1))
    s.apply(drawn)
    assert calls == []                                          # the drawn object itself
    s = _with_hook(HighCard().initial_state(), calls)
    outcome = s.legal_actions()[0]
    copy = dataclasses.replace(outcome)                         # equal, not the same object
    s.apply(copy)
    assert calls == [copy]
    with pytest.raises(IllegalAction, match="malformed here: None"):
        s.apply(None)
    after = s.apply(outcome)
    assert calls == [copy, None]
    d = _with_hook(after, calls)
    if d.current_player() >= 0:
        before = dict(d.__dict__)
        d.apply(d.legal_actions()[0])
        assert calls == [copy, None]
        with pytest.raises(IllegalAction, match="malformed here: 'x'"):
            d.apply("x")
        assert d.__dict__ == before
