"""Two simple strategies for My Kingdom for a Horse (policies ``(state, rng) -> action``).

``greedy_policy``: re-rolls with the exact optimal keep policy for the sheep-value of
the dice given its herd (``odds.solve_rerolls``; a fence counts 3 sheep while its
target layout is unfinished), carries out every die (animals
before multiplication), plays a free farm card, builds towards a fixed 4-area
layout, takes the most valuable die as another player, and trades surplus upward
while keeping 2 of each species.  ``no_reroll_policy``: the same, but never
re-rolls.  Both look only at what their player may see.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from . import odds, pasture
from .actions import (Discard, EndEffects, EndFences, EndTrading, KeepDice, LiftFence,
                      PlaceFence, PlayCard, PutFence, RunAway, TakeDie, Trade, UseCattle,
                      UseDie)
from .components import SPECIES

__all__ = ["greedy_policy", "no_reroll_policy", "TARGET_LAYOUT"]

# Four areas: three 2-field areas on the left (rows 0, 1, 2) and the right half (6 fields).
TARGET_LAYOUT = sum(1 << pasture.edge_index(e) for e in (
    "H00", "H01", "H10", "H11", "V00", "V02", "H20", "H21", "H30", "H31", "V20", "V22",
    "V10", "V12", "H02", "H03", "H32", "H33", "V04", "V14", "V24"))
_ORDER = [pasture.edge_index(e) for e in ("V10", "V12", "H02", "H03", "V04", "V14",
                                           "V24", "H32", "H33")]


@lru_cache(maxsize=4096)
def _reroll_policy(herd, comp, want_fences):
    value = Fraction(3) if want_fences else Fraction(0)
    return odds.solve_rerolls(odds.goal_sheep_value(herd, comp, fence_value=value), game=comp)


def _value(state, player, die):
    comp = state.game.comp
    herd = state.farms[player].herd
    vals = odds.sheep_values(comp)
    if die is None or die == "half cattle":
        return 0
    if die.startswith("multiply "):
        s = die[len("multiply "):]
        return herd[SPECIES.index(s)] // 2 * vals[s]
    face = comp.king_face(die)
    return sum(a * vals[s] for a, s in zip(face.animals, SPECIES)) + face.fences * 0.5


def _policy(state, rng, reroll=True):
    acts = state.legal_actions()
    me = state.current_player()
    farm = state.farms[me]
    comp = state.game.comp
    goal = comp.goal
    first = acts[0]
    if isinstance(first, RunAway) and state.must_release():
        # give up the animal we can best spare: most above the goal, cheapest first
        return max(acts, key=lambda a: (farm.herd[SPECIES.index(a.species)] - goal,
                                        -SPECIES.index(a.species)))
    if state.fence_job is not None:
        for a in acts:
            if isinstance(a, PutFence) and a.edge in _ORDER and not farm.fences >> a.edge & 1:
                return a
        for e in _ORDER:
            if PlaceFence(e) in acts:
                return PlaceFence(e)
        for a in acts:
            if isinstance(a, LiftFence) and not TARGET_LAYOUT >> a.edge & 1:
                return a
        return EndFences() if EndFences() in acts else acts[0]
    if isinstance(first, KeepDice):
        if not reroll:
            return acts[0]
        want = bool(TARGET_LAYOUT & ~farm.fences)
        pol = _reroll_policy(farm.herd, comp, want)
        kept, keep_mult = pol(state.dice, state.rerolls_left)
        return KeepDice(kept, keep_mult)
    if state.phase == "effects":
        for a in acts:
            if isinstance(a, UseDie) and not a.die.startswith("multiply"):
                return a
        if UseCattle() in acts:
            return UseCattle()
        for a in acts:
            if isinstance(a, PlayCard) and not any(comp.card(a.card).pay):
                return a
        for a in acts:
            if isinstance(a, UseDie):
                return a
        return EndEffects()
    if isinstance(first, Discard):
        return Discard(())
    if isinstance(first, TakeDie):
        return max(acts, key=lambda a: (_value(state, me, a.die), str(a.die)))
    if state.phase in ("trade", "final"):
        trades = [a for a in acts if isinstance(a, Trade)]
        best = None
        for a in trades:
            i = SPECIES.index(a.give)
            left = farm.herd[i] - a.pay
            if left >= goal and (best is None or SPECIES.index(a.give) > SPECIES.index(best.give)
                                 or (a.give == best.give and a.count > best.count)):
                best = a
        return best if best is not None else EndTrading()
    return acts[0]


def greedy_policy(state, rng):
    return _policy(state, rng, reroll=True)


def no_reroll_policy(state, rng):
    return _policy(state, rng, reroll=False)
