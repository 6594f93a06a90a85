"""Named players for Into the Black Forest (``BlackForest.policies()``).

* ``simple_policy`` — rules of thumb on the visible table (the game's default player);
* ``greedy_policy`` — the placement with the most expected points under the odds
  model of ``odds`` (its own view only).

Both read only what their player sees, and both discard their lowest card.
"""
from __future__ import annotations

from fractions import Fraction

from kingdoms.core.protocol import HIDDEN

from .odds import _check_placement, _models, _next_opponent, _outcome
from .rules import CAPACITY, BlackForestState, Discarding, Play

__all__ = ["greedy_policy", "simple_policy", "named_policies", "default_policies"]

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
    # the opponents' hands as ``me`` models them, once for all the placements
    models, rival = _models(view, me), _next_opponent(view, me)
    best, best_key = None, None
    for a in acts:
        later = () if a.space == "right" else "all"
        try:
            # ``placement_outcome(view, a.card, a.space, me, later_right=later)``
            card = _check_placement(view, me, a.card, a.space)
            e = _outcome(view, me, card, a.space, rival, models, later).E(lambda o: o[1])
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
    return _best_rated(state, acts)


def _best_rated(state: BlackForestState, acts: tuple) -> Play:
    """``max(acts, key=(rating, lower card, space))``: the first of the best, with the
    table's facts read once for all placements (the ratings of ``simple_policy``)."""
    bottom = state.bottom[0][1].value if state.bottom else None
    top = state.top[0][1].value if state.top else None
    top_suits = {c.suit for _, c in state.top if c is not HIDDEN}
    top_open = len(state.top) < CAPACITY["top"]
    right = None
    best = best_r = best_v = best_space = None
    for a in acts:
        card, space = a.card, a.space
        v = card.value
        if space == "bottom":       # the other card's value if it wins; else a guess
            r = (TOP_VALUE - v) / 3 if bottom is None else bottom if v < bottom else -0.5
        elif space == "top":
            r = (v - 1) / 3 if top is None else top if v > top else -0.5
        elif space == "left":       # its value with a matching Top suit
            r = v if card.suit in top_suits else v / 3 if top_open else -1
        else:
            if right is None:
                right = _right_rating(state)
            r = right(card, v)
        # the largest (r, -v, space), the first of equals (compared as the tuple would
        # be, without building it for every placement)
        if best is None or r > best_r or r == best_r and (best_v > v or best_v == v
                                                             and space > best_space):
            best, best_r, best_v, best_space = a, r, v, space
    return best


def _right_rating(state: BlackForestState):
    """``simple_policy``'s guess for the Right side, ``rating(card, value)``: its
    points, weighted by how extreme the card is."""
    g = state.game
    cond = g.conditions[state.upcoming[0]]
    points = g.right_points
    target = None
    if cond.rank not in ("highest", "lowest"):
        target = sum(c.value for _, c in state.bottom) if cond.needs_bottom() else cond.target

    def rating(card, v):
        if not cond.qualifies(card):
            return -1
        if cond.rank == "highest":
            share = v / TOP_VALUE
        elif cond.rank == "lowest":
            share = (TOP_VALUE + 1 - v) / TOP_VALUE
        else:
            share = max(0.0, 1 - abs(v - (target or 0)) / 6)
        return points * share - 1
    return rating


# ---- the game's players, attached to ``BlackForest`` by the package (``Game.attach``) ------

def named_policies(game) -> dict:
    """``simple`` (rules of thumb on the visible table) and ``greedy`` (most expected
    points per placement under the odds model), beside the core's players.  ``mcts``
    here: 200 simulations played out by ``simple`` (``greedy`` is too slow to roll
    out), starting from ``greedy``'s move (its prior)."""
    from kingdoms.core.search import mcts_policy
    return {"simple": simple_policy, "greedy": greedy_policy,
            "mcts": mcts_policy(200, rollout="simple", prior="greedy")}


def default_policies(game) -> tuple:
    """The ``simple`` bot in every seat: cheap (thousands of games a minute) and
    fair (it reads only what its player sees); with the rulebook's numbers every
    game ends by the rules."""
    return (simple_policy,) * game.players
