"""Named players for Into the Black Forest (``BlackForest.policies()``).

* ``simple_policy`` — rules of thumb on the visible table (the game's default player);
* ``greedy_policy`` — the placement with the most expected points under the odds
  model of ``odds`` (its own view only).

Both read only what their player sees, and both discard their lowest card.
"""
from __future__ import annotations

from fractions import Fraction

from kingdoms.core.protocol import HIDDEN

from .odds import placement_outcome
from .rules import CAPACITY, BlackForestState, Discarding, Play

__all__ = ["greedy_policy", "simple_policy"]

TOP_VALUE = 12
"""The highest Animal card (rulebook: values 1-12): the scale of ``simple_policy``'s
guesses."""


def _lowest_discard(acts):
    """When discarding: the lowest card goes."""
    return min(acts, key=lambda a: (a.card.value, a.card))


def greedy_policy(state: BlackForestState, rng=None):
    """A simple bot: play the placement with the most expected points under the
    module's model, looking only at its own view (Right-side odds count only the
    face-down cards already there, which keeps it fast).  Ties go to the lower card.
    When discarding, it throws away its lowest card.  Usable with ``simulate``."""
    me = state.current_player()
    view = state.view(me)
    acts = state.legal_actions()
    if isinstance(state.step, Discarding):
        return _lowest_discard(acts)
    best, best_key = None, None
    for a in acts:
        later = () if a.space == "right" else "all"
        try:
            e = placement_outcome(view, a.card, a.space, me, later_right=later).E(lambda o: o[1])
        except ValueError:      # the hands cannot fill the encounter (edited data only)
            e = Fraction(0)
        key = (e, -a.card.value)
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


def simple_policy(state: BlackForestState, rng=None):
    """A cheap rule-of-thumb bot (the game's default player; about 50 times faster than
    ``greedy_policy``).  It looks only at the table and its own hand, never at hidden
    cards, and rates each placement by the points it can see coming:

    * Bottom/Top facing a card: the other card's value if it wins, else nothing;
      on an empty pair: a guess that favours low cards at the Bottom, high at the Top;
    * Left: the card's value if its suit matches a Top card, a third of it while the
      Top is still open;
    * Right: the Right points if the card meets the condition, weighted by how extreme
      it is (for "highest"/"lowest"), once per encounter.

    Ties go to the lower card.  When discarding it throws away its lowest card."""
    acts = state.legal_actions()
    if isinstance(state.step, Discarding):
        return _lowest_discard(acts)
    top_suits = {c.suit for _, c in state.top if c is not HIDDEN}
    return max(acts, key=lambda a: (_rate(state, a, top_suits), -a.card.value, a.space))


def _rate(state: BlackForestState, a: Play, top_suits: set) -> float:
    """``simple_policy``'s guess of what ``a`` is worth."""
    v = a.card.value
    if a.space in ("bottom", "top"):
        pair = state.bottom if a.space == "bottom" else state.top
        if pair:
            other = pair[0][1].value
            wins = v < other if a.space == "bottom" else v > other
            return other if wins else -0.5
        return (TOP_VALUE - v) / 3 if a.space == "bottom" else (v - 1) / 3
    if a.space == "left":
        if a.card.suit in top_suits:
            return v
        return v / 3 if len(state.top) < CAPACITY["top"] else -1
    return _rate_right(state, v, a)


def _rate_right(state: BlackForestState, v: int, a: Play) -> float:
    """``simple_policy``'s guess for the Right side: its points, weighted."""
    g = state.game
    cond = g.conditions[state.upcoming[0]]
    if not cond.qualifies(a.card):
        return -1
    if cond.rank == "highest":
        share = v / TOP_VALUE
    elif cond.rank == "lowest":
        share = (TOP_VALUE + 1 - v) / TOP_VALUE
    else:
        target = sum(c.value for _, c in state.bottom) if cond.needs_bottom() else cond.target
        share = max(0.0, 1 - abs(v - (target or 0)) / 6)
    return g.right_points * share - 1
