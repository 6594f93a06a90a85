"""Simple policies for King of the Woods (for simulations in ``explore.ipynb``).

A policy is ``policy(state, rng) -> action``.  These look only at what the player to
move can see (their own view): own hand, the courts, hand sizes; they work on the
full state or on ``state.view(player)`` alike.  ``Woods.policies()`` names them
(``"random"``, ``"greedy"``, ``"fool-aware"``); ``greedy`` is the default player.
"""
from __future__ import annotations

from kingdoms.core.play import random_policy

from .rules import (FOOL_RUIN, INTRIGUE, Cover, KnightPass, KnightTake, Play, PriestExtra,
                    PriestStop, PriestTakeBack, ScholarPass, ScholarTake, TraderGive,
                    TraderReturn, fool_count)

__all__ = ["random_policy", "greedy_policy", "fool_aware_policy", "named_policies",
           "default_policies"]


def _sub_decision(state, actions, infl, me):
    """Reasonable answers to the small follow-up decisions."""
    a0 = actions[0]
    if isinstance(a0, Cover):
        mine = a0.court == me
        # at your own court cover the cheapest; at another's the most valuable
        return (min if mine else max)(actions, key=lambda a: infl[a.pile[0]] if len(a.pile) == 1 else 0)
    if isinstance(a0, TraderGive):
        return min(actions, key=lambda a: infl[a.card])
    if isinstance(a0, TraderReturn):
        return min(actions, key=lambda a: infl[a.card])
    if isinstance(a0, (KnightTake, KnightPass)):
        takes = [a for a in actions if isinstance(a, KnightTake)]
        return max(takes, key=lambda a: infl[a.card]) if takes else actions[0]
    if isinstance(a0, (ScholarTake, ScholarPass)):
        takes = [a for a in actions if isinstance(a, ScholarTake)]
        return max(takes, key=lambda a: infl[a.card]) if takes else actions[0]
    if isinstance(a0, (PriestExtra, PriestStop)):
        extras = [a for a in actions if isinstance(a, PriestExtra)]
        best = max(extras, key=lambda a: infl[a.card], default=None)
        if best is not None and best.court == me and infl[best.card] >= 5:
            return best
        return next(a for a in actions if isinstance(a, PriestStop))
    if isinstance(a0, PriestTakeBack):
        return max(actions, key=lambda a: infl[a.card])
    return a0


def greedy_policy(state, rng):
    """Play the card of highest influence to your own court (never a Fool that makes
    exactly ``FOOL_RUIN`` there); intrigue cards and Assassins go to the strongest opponent."""
    me = state.current_player()
    actions = state.legal_actions()
    g = state.game
    infl = g.influence
    if not isinstance(actions[0], Play):
        return _sub_decision(state, actions, infl, me)
    scores = state.court_scores()
    rival = max((q for q in range(g.players) if q != me), key=lambda q: scores[q])

    def value(a):
        own = a.court == me
        if a.card == "Fool":
            k = fool_count(state.courts[a.court])
            if own:
                return -50 if k == FOOL_RUIN - 1 else infl["Fool"]
            return 1 if k == FOOL_RUIN - 1 else -infl["Fool"]
        if a.card == "Assassin":
            return 3 if a.court == rival else -20
        if a.card in INTRIGUE:
            return (2 if a.court == rival else 0) if a.card in ("Knight", "Treasurer") else (
                infl[a.card] if own else -infl[a.card])
        return infl[a.card] if own else -infl[a.card]

    best = max(value(a) for a in actions)
    return rng.choice([a for a in actions if value(a) == best])


def fool_aware_policy(state, rng):
    """Greedy, but hands an opponent the Fool that makes exactly ``FOOL_RUIN`` at
    their court and keeps one more Fool for a court of yours with ``FOOL_RUIN``."""
    me = state.current_player()
    actions = state.legal_actions()
    if isinstance(actions[0], Play):
        for a in actions:
            if a.card == "Fool" and a.court == me and fool_count(state.courts[me]) == FOOL_RUIN:
                return a                            # rescue: one more Fool counts normally
        ruin = [a for a in actions if a.card == "Fool" and a.court != me
                and fool_count(state.courts[a.court]) == FOOL_RUIN - 1]
        if ruin:
            scores = state.court_scores()
            return max(ruin, key=lambda a: scores[a.court])
    return greedy_policy(state, rng)


# ---- the game's players, attached to ``Woods`` by the package (``Game.attach``) ----------

def named_policies(game) -> dict:
    """The heuristics offered beside the core's players (``random``, ``mcts``)."""
    return {"greedy": greedy_policy, "fool-aware": fool_aware_policy}


def default_policies(game) -> tuple:
    """The greedy player in every seat (cheap; looks only at its own view)."""
    return (greedy_policy,) * game.players
