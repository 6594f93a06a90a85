"""The named players of Ten Characters (``game.policies()``): simple fair strategies that
look only at the player's own view.

A policy is ``policy(state, rng) -> action`` (see ``kingdoms.core.play``).

* ``random_policy`` — any legal action.
* ``hold_back_policy`` — play the hand card that is worth least as a scoring card now.
* ``greedy_policy`` — play the card after which the best two remaining cards score most
  on the new display (ties: the card worth least now); use every effect (Knight, Mage,
  Jester, discard) the same way.
* ``greedy_or_random`` — ``greedy``, or now and then (``UNSURE``) a random move: the
  search bot's rollouts and its guess of the other players' hidden picks.

Both non-random strategies value the King and the Jester at their best case (see
``odds.card_values``): they do not guess what the others will keep.
"""
from __future__ import annotations

from operator import add, itemgetter

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import using
from kingdoms.core.play import random_policy

from .odds import best_without, display_rows, top_sum, value_row
from .rules import (CHARACTERS, CI, COL, JESTER, Choosing, Discard, JesterTo, KnightRemove,
                    MageRemove)

__all__ = ["random_policy", "hold_back_policy", "greedy_policy", "greedy_or_random",
           "STRATEGIES", "named_policies", "default_policies"]

# What the players read is in the acting player's view too: the display (public) and
# their own hand.  They read it from the state they are given, which is that view when
# the game is played with views (the core's default for this game); a full state gives
# the same numbers.  Values come from ``odds.value_row`` (card values of a display,
# cached on the display alone); a hand is a list of indices into that row.


def _counts(state) -> tuple:
    """The display's column lengths (Jesters included) in ``COLUMNS`` order."""
    return tuple(map(add, state.columns, state.jesters))


def _values_of(hand: list):
    """``row -> the values of hand's cards in row`` (a tuple), for ``hand`` given as
    indices into a ``value_row``: an ``itemgetter`` (one C call per row, the players'
    hottest step) for two cards or more."""
    if len(hand) > 1:
        return itemgetter(*hand)
    return lambda row: tuple([row[i] for i in hand])


def _bump(counts: tuple, i: int, d: int) -> tuple:
    return counts[:i] + (counts[i] + d,) + counts[i + 1:]


def _after_effect(counts: tuple, action) -> tuple:
    """The column lengths after an effect option (a discard leaves them as they are)."""
    kind = type(action)
    if kind is KnightRemove and action.remove:
        return _bump(counts, COL["dragon"], -1)
    if kind is MageRemove and action.column is not None:
        return _bump(counts, COL[action.column], -1)
    if kind is JesterTo:
        return _bump(counts, COL[action.column], 1)
    return counts


def _text(action) -> str:
    """``str(action)``: remembered for the public options of an effect (Knight, Mage,
    Jester); a ``Discard``'s (its card is its player's secret until revealed) from the
    texts of all ten discards of its player, a table keyed on the player alone."""
    if type(action) is Discard:
        return _discard_texts(action.player)[CI[action.card]]
    return _public_text(action)


@speed_cache(maxsize=64)
def _discard_texts(player: int) -> tuple:
    """``str(Discard(player, c))`` for the ten characters, in ``CHARACTERS`` order (in
    English whatever the language: a tie-break must not depend on it)."""
    with using("en"):
        return tuple(str(Discard(player, c)) for c in CHARACTERS)


@speed_cache(maxsize=1024)
def _public_text(action) -> str:
    with using("en"):       # a tie-break, not a text for people: the same in every language
        return str(action)


def _effect_choice(state, p, keep):
    """Pick the effect option after which the own hand's best cards score most (ties:
    the action whose text comes last)."""
    counts = _counts(state)
    pts = state.game.components.point_values
    hand = [CI[c] for c in state.hands[p]]
    values = _values_of(hand)
    best = best_val = best_text = now = rows = None
    for a in state.legal_actions():
        if type(a) is Discard:
            if now is None:         # the display stays: one row, the hand sorted once
                now = value_row(counts, pts)
                vals = sorted(values(now), reverse=True)
            val = best_without(vals, now[CI[a.card]], keep)
        elif type(a) is JesterTo:
            if rows is None:
                rows = display_rows(counts, pts)[1]
            val = top_sum(values(rows[COL[a.column]]), keep)
        else:
            val = top_sum(values(value_row(_after_effect(counts, a), pts)), keep)
        # the largest (val, str(a)), the first of equals; a text only built for a tie
        if best is None or val > best_val:
            best, best_val, best_text = a, val, None
        elif val == best_val:
            if best_text is None:
                best_text = _text(best)
            text = _text(a)
            if text > best_text:
                best, best_text = a, text
    return best


def hold_back_policy(state, rng):
    """Play the least valuable card; effects as the greedy strategy."""
    p = state.current_player()
    if not isinstance(state.step, Choosing):
        return _effect_choice(state, p, state.game.scoring_cards)
    vals = value_row(_counts(state), state.game.components.point_values)
    return min(state.legal_actions(), key=lambda a: (vals[CI[a.card]], a.card))


def _jester_play(rows, now, counts, hand, keep) -> int:
    """The best ``keep`` of ``hand`` (the Jester already taken out) after the Jester
    goes into the column where that is most (``rows``: ``display_rows`` of the display;
    no column: ``now``, its ``value_row``)."""
    values = _values_of(hand)
    best = None
    for i, k in enumerate(counts):
        if k:
            val = top_sum(values(rows[i]), keep)
            if best is None or val > best:
                best = val
    return top_sum(values(now), keep) if best is None else best


def greedy_policy(state, rng):
    """Play the card that leaves the best scoring pair on the display it creates."""
    p = state.current_player()
    parts = state.game.components
    keep = parts.scoring_cards
    if not isinstance(state.step, Choosing):
        return _effect_choice(state, p, keep)
    counts = _counts(state)
    now, rows = display_rows(counts, parts.point_values)
    hand = [*map(CI.__getitem__, state.hands[p])]
    values = _values_of(hand)
    short = keep >= len(hand)       # every card left scores (``odds.best_without``)
    best, best_val = None, None
    for a in state.legal_actions():
        i = CI[a.card]
        if i == JESTER:
            h = hand.copy()
            h.remove(i)
            val = _jester_play(rows, now, counts, h, keep)
        else:
            # the best pair left on the display the card creates (column i one longer):
            # ``odds.best_without``, written out (this is the players' hottest loop)
            row = rows[i]
            vals = sorted(values(row), reverse=True)
            v = row[i]
            if short:
                val = sum(vals) - v
            elif v >= vals[keep - 1]:
                val = sum(vals[:keep + 1]) - v
            else:
                val = sum(vals[:keep])
        key = (val, -now[i], a.card)
        if best_val is None or key > best_val:      # ties: give up the card worth least now
            best, best_val = a, key
    return best


UNSURE = 0.3
"""How often ``greedy_or_random`` plays a random legal move instead of ``greedy``'s."""


def greedy_or_random(state, rng):
    """``greedy``'s move, or with probability ``UNSURE`` a random legal move.  The
    search bot's rollouts, and in its tree the other players' cards chosen face down:
    a search that takes its opponent to play exactly ``greedy`` answers a player who is
    not there.  (Against OpenSpiel's ISMCTS bot at 1 s a move, ``mcts-strong`` won 16.5
    of 31 games so; with these rollouts 47.5 of 60, and as many as before against
    ``greedy``: ``docs/bots.md``.)"""
    if rng.random() < UNSURE:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]
    return greedy_policy(state, rng)


greedy_or_random.__name__ = "greedy or random"     # as the search bot names its rollouts


STRATEGIES = {"random": random_policy, "hold back": hold_back_policy, "greedy": greedy_policy}


# ---- the game's players, attached to ``TenCharacters`` by the package (``Game.attach``) --

def named_policies(game) -> dict:
    """``hold back`` and ``greedy`` beside the core's players.  ``mcts`` here: 200
    simulations played out by ``greedy_or_random``, starting from ``greedy``'s move (its
    prior), exploration 0.5; ``mcts-strong`` plays with the same settings."""
    from kingdoms.core.search import mcts_policy
    return {"hold back": hold_back_policy, "greedy": greedy_policy,
            "mcts": mcts_policy(200, rollout=greedy_or_random, prior="greedy",
                                exploration=0.5)}


def default_policies(game) -> tuple:
    """The greedy strategy in every seat: cheap, looks only at its own view.  (Every
    game ends by the rules: a pass has a fixed number of turns.)"""
    return (greedy_policy,) * game.players
