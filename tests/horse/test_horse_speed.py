"""Issue 14 (speed): the faster transitions, action lists and views change nothing a
person or a tool can observe.  (No timings here: see benchmarks/bench.py.)"""
import random
from dataclasses import fields
from itertools import product

from hypothesis import given, settings, strategies as st

import kingdoms
from kingdoms.core.play import play_state, random_policy
from kingdoms.core.protocol import CHANCE
from kingdoms.core.protocol import replace
from kingdoms.horse import rules
from kingdoms.horse.rules import HorseState, _discard_actions, Farm


def _fields(s):
    return tuple(getattr(s, f.name) for f in fields(s))


def test_a_step_never_changes_the_state_it_starts_from():
    """``_next`` builds the next state as one copy changed in place (``_with``): the
    state it starts from, its farms and the states before it stay as they were."""
    for players in (1, 2, 3):
        g = kingdoms.game("horse", players=players)
        rng = random.Random(players)
        s = g.initial_state()
        while not s.is_terminal():
            before = (_fields(s), hash(s), str(s))
            a = s.sample_chance(rng) if s.is_chance() else random_policy(s, rng)
            t = s.apply(a)
            assert (_fields(s), hash(s), str(s)) == before
            assert t is not s and t.__dict__ is not s.__dict__
            s = t


def test_every_new_state_equals_the_one_built_field_by_field():
    """A state built by ``_next`` holds exactly its fields (plus the core's route) and
    equals a state built by the dataclass constructor from the same values."""
    end = play_state(kingdoms.game("horse", players=2), seed=11)
    names = [f.name for f in fields(HorseState) if f.init]
    for s in end.path():
        own = [k for k in s.__dict__ if k in names or not k.startswith("_")]
        assert own == names
        assert HorseState(**{n: getattr(s, n) for n in names}) == s
        for farm in s.farms:
            assert list(farm.__dict__) == [f.name for f in fields(Farm)]


def test_farm_copies_go_through_the_core_replace():
    farm = Farm(herd=(1, 2, 3, 4), fences=7, hand=("Foal",), tableau=("Stable",))
    assert replace(farm, herd=(2, 2, 3, 4)) == Farm((2, 2, 3, 4), 7, ("Foal",), ("Stable",))
    assert replace(farm, fences=0).fences == 0 and farm.fences == 7
    assert not hasattr(rules, "_farm_with")


def _discards_by_definition(hand):
    """Every distinct sub-collection of the hand once, fewest cards first, then in
    order of the cards (the rule "discard any of your cards" as the list shows it)."""
    subs = {tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
            for mask in range(1 << len(hand))}
    return sorted(subs, key=lambda t: (len(t), t))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Foal", "Piglets", "Stable", "Sheepdog", "Trader"]),
                max_size=6), st.booleans())
def test_discard_actions_list_every_sub_collection_once(hand, sort):
    hand = tuple(sorted(hand)) if sort else tuple(hand)
    assert [a.cards for a in _discard_actions(hand)] == _discards_by_definition(hand)


def test_views_know_who_moves_and_hide_the_hands():
    """The view carries the state's answer to ``current_player()`` (public), and the
    player to move their own actions; other hands stay face down."""
    for players in (2, 4):
        end = play_state(kingdoms.game("horse", players=players), seed=5)
        for s, p in product(list(end.path())[::5], range(players)):
            v = s.view(p)
            assert v.current_player() == s.current_player()
            assert v.current_player() == v._current_player()
            if s.current_player() == p:
                assert v.legal_actions() == s.legal_actions()
            for i, f in enumerate(v.farms):
                if i != p:
                    assert len(set(f.hand)) <= 1 and len(f.hand) == len(s.farms[i].hand)
                    assert not set(f.hand) & set(s.farms[i].hand) or not f.hand
            assert s.current_player() != CHANCE or v.current_player() == CHANCE


def _borders(acts, fences, free):
    return tuple(acts[e] for e in range(31) if (not fences >> e & 1) == free)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 31) - 1), st.booleans(), st.booleans())
def test_fence_actions_list_the_borders_by_definition(fences, may_place, may_move):
    """The fence job's actions (built 8 borders at a time): place on every free
    border, lift every fenced one, in border order, then done; put on a free one."""
    want = (_borders(rules._PLACE, fences, True) if may_place else ()) \
        + (_borders(rules._LIFT, fences, False) if may_move else ()) + (rules._END_FENCES,)
    got = rules._fence_job_actions.__wrapped__(fences, may_place, may_move)
    assert got == want and all(a is b for a, b in zip(got, want))
    assert rules._put_actions.__wrapped__(fences) == _borders(rules._PUT, fences, True)


def test_who_moves_is_the_actor_and_the_actions_do_not_depend_on_the_cache():
    """``_current_player`` (``actor`` written out) names the actor at every decision,
    and ``_legal_actions`` (which reads the cached player to move) gives the same list
    on a fresh copy with nothing cached."""
    for players in (1, 2, 4):
        end = play_state(kingdoms.game("horse", players=players), seed=7)
        for s in end.path():
            cp = s.current_player()
            if cp >= 0:
                assert cp == s.actor()
                fresh = replace(s)
                assert fresh.__dict__["_cp"] is None
                assert fresh._legal_actions() == s.legal_actions()

