"""Simple policies for simulated games of King of the Elves.

A policy is ``policy(state, rng) -> action``.  These look only at what their player
may see (their own hand and the table), except ``random_policy`` which looks at
nothing.

* ``planner`` — plays its most valuable *reachable* village into its own realm,
  lays gold cards on its own villages and thieves / obstacles on the villages of
  the player to its left, buys a card while it is cheap, then passes; journeys by
  the exact best journey.
* ``homebody`` — plays one village home and passes; journeys by the best journey.
"""
from __future__ import annotations

from kingdoms.core.play import random_policy

from .journey import best_journey
from .odds import reachable_terrains
from .rules import Buy, Pass, PlaySpecial, PlayVillage

__all__ = ["planner", "homebody", "random_policy", "journey_policy"]


_PLANNED: dict = {}
MAX_TRIPS = 200_000


def _greedy_step(state):
    """Visit the next village with as few cards as possible (no escort), else stop."""
    from .journey import EndJourney, TeleportCard, TeleportTo, Visit
    acts = state.legal_actions()
    for kind in (TeleportCard, TeleportTo):
        options = [a for a in acts if isinstance(a, kind)]
        if options:
            return options[0]
    visits = [a for a in acts if isinstance(a, Visit) and not a.escort]
    if visits:
        return min(visits, key=lambda a: a.cards)
    return EndJourney()


def journey_policy(state):
    """The next step of the best journey from here (plans are cached, so a journey
    is searched once, not at every step)."""
    rules = state.game.journey_rules
    key = (state.table, rules, state.trip)
    action = _PLANNED.get(key)
    if action is None:
        if len(_PLANNED) > 50_000:
            _PLANNED.clear()
        try:
            plan = best_journey(state.table, state.trip, rules, max_trips=MAX_TRIPS)
        except RuntimeError:           # a huge hand: go on greedily, one step at a time
            return _greedy_step(state)
        trip = state.trip
        for a, _, after in plan.steps:
            _PLANNED[(state.table, rules, trip)] = a
            trip = after
        action = _PLANNED[key]
    return action


def _travel(state, p) -> dict:
    g = state.game
    return {v: state.hands[p][i] for v, i in zip(g.vehicles, g.travel_idx)}


def _discard_choice(state, rng):
    """Throw away special and village cards before travel cards."""
    acts = state.legal_actions()
    order = {"special": 0, "village": 1, "travel": 2}
    return min(acts, key=lambda a: (order[a.card.split(":")[0]], a.card))


def homebody(state, rng):
    if state.phase == "journey":
        return journey_policy(state)
    acts = state.legal_actions()
    if state.pending:
        return _discard_choice(state, rng)
    p = state.turn
    if not state.realms[p]:
        home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == p]
        if home:
            return max(home, key=lambda a: int(a.village.split(":")[2]))
    if Pass() in acts:
        return Pass()
    return rng.choice(acts)


def planner(state, rng):
    if state.phase == "journey":
        return journey_policy(state)
    acts = state.legal_actions()
    if state.pending:
        return _discard_choice(state, rng)
    g = state.game
    p = state.turn
    reach = reachable_terrains(_travel(state, p), g.journey_rules)
    if len(state.realms[p]) < 2:
        home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == p
                and a.village.split(":")[1] in reach]
        if home:
            return max(home, key=lambda a: int(a.village.split(":")[2]))
        if not state.realms[p]:
            home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == p]
            if home:
                return max(home, key=lambda a: int(a.village.split(":")[2]))
    left = (p + 1) % g.players
    for a in acts:
        if isinstance(a, PlaySpecial):
            if a.special == "gold" and a.realm == p:
                return a
            if a.special in ("thief", "tree", "sea_monster") and a.realm == left:
                return a
    buys = [a for a in acts if isinstance(a, Buy) and a.cost == 1]
    if buys:
        return buys[0]
    if Pass() in acts:
        return Pass()
    return rng.choice(acts)
