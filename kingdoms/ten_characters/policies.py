"""The named players of Ten Characters (``game.policies()``): simple fair strategies that
look only at the player's own view.

A policy is ``policy(state, rng) -> action`` (see ``kingdoms.core.play``).

* ``random_policy`` — any legal action.
* ``hold_back_policy`` — play the hand card that is worth least as a scoring card now.
* ``greedy_policy`` — play the card after which the best two remaining cards score most
  on the new display (ties: the card worth least now); use every effect (Knight, Mage,
  Jester, discard) the same way.

Both non-random strategies value the King and the Jester at their best case (see
``odds.card_values``): they do not guess what the others will keep.
"""
from __future__ import annotations

from kingdoms.core.play import random_policy

from .odds import card_values, hand_potential
from .rules import COLUMNS, Choosing

__all__ = ["random_policy", "hold_back_policy", "greedy_policy", "STRATEGIES"]


def _own(state):
    p = state.current_player()
    return p, state.view(p)


def _after_effect(display, action):
    d = dict(display)
    name = type(action).__name__
    if name == "KnightRemove" and action.remove:
        d["dragon"] -= 1
    elif name == "MageRemove" and action.column is not None:
        d[action.column] -= 1
    elif name == "JesterTo":
        d[action.column] += 1
    return d


def _effect_choice(state, view, p, keep):
    """Pick the effect option after which the own hand's best cards score most."""
    disp = view.display_counts()
    hand = [c for c in view.hands[p]]
    best, best_val = None, None
    for a in state.legal_actions():
        name = type(a).__name__
        if name == "Discard":
            h = list(hand)
            h.remove(a.card)
            val = hand_potential(h, disp, keep, state.game.points)
        else:
            val = hand_potential(hand, _after_effect(disp, a), keep, state.game.points)
        key = (val, str(a))                    # ties broken by the action's text, not list order
        if best_val is None or key > best_val:
            best, best_val = a, key
    return best


def hold_back_policy(state, rng):
    """Play the least valuable card; effects as the greedy strategy."""
    p, view = _own(state)
    if not isinstance(view.step, Choosing):
        return _effect_choice(state, view, p, state.game.scoring_cards)
    vals = card_values(view.display_counts(), state.game.points)
    return min(state.legal_actions(), key=lambda a: (vals[a.card], a.card))


def greedy_policy(state, rng):
    """Play the card that leaves the best scoring pair on the display it creates."""
    p, view = _own(state)
    keep = state.game.scoring_cards
    if not isinstance(view.step, Choosing):
        return _effect_choice(state, view, p, keep)
    disp = view.display_counts()
    now = card_values(disp, state.game.points)
    best, best_val = None, None
    for a in state.legal_actions():
        h = list(view.hands[p])
        h.remove(a.card)
        d = dict(disp)
        if a.card == "jester":
            options = [c for c in COLUMNS if d[c]]
            val = max((hand_potential(h, {**d, c: d[c] + 1}, keep, state.game.points)
                       for c in options), default=hand_potential(h, d, keep, state.game.points))
        else:
            d[a.card] += 1
            val = hand_potential(h, d, keep, state.game.points)
        key = (val, -now[a.card], a.card)     # ties: give up the card worth least now
        if best_val is None or key > best_val:
            best, best_val = a, key
    return best


STRATEGIES = {"random": random_policy, "hold back": hold_back_policy, "greedy": greedy_policy}
