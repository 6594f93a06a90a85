"""Exact helpers for Ten Characters: scores, marginal values, the one-shot matrix game, draw odds.

* ``score_calculator(display, scoring_cards)`` — everyone's points, term by term.
* ``card_values(display)`` / ``marginal_values(display, card)`` / ``marginal_table(state, p)``
  — what one scoring card of each character is worth, and how playing a card changes that
  for every character and every player.
* ``payoff_matrix(state)`` — two players, last turn of a pass: the exact expected score
  difference (player 1 minus player 2) for every pair of simultaneous card choices.
* ``solve_zero_sum(A)`` — the exact mixed Nash equilibrium (maximin strategies and value)
  of a zero-sum matrix game, by an exact simplex method on Fractions (Bland's rule);
  ``verify_equilibrium`` checks the equilibrium conditions exactly.
* ``unicorn_draw_odds(state, p)`` — what a Unicorn draw brings, from the cards ``p``
  has not seen; ``draw_odds(state)`` — the same from the true draw pile (omniscient).
* ``p_holds(state, p, target, character)`` — the chance that another player holds a
  character (e.g. a Jester that would spoil your King), from ``p``'s knowledge.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Mapping, Sequence

from kingdoms.core import matrix as _matrix
from kingdoms.core.cache import speed_cache
from kingdoms.core.distribution import Distribution, hypergeometric
from kingdoms.core.i18n import _, language
from kingdoms.core.protocol import CHANCE, HIDDEN, check_name, check_player

from .rules import (CHARACTERS, COLUMNS, Choose, Choosing, TenCharactersState,
                    UnicornDiscards, character_name)
from .scoring import (LABELS, SCORING_CARDS, _check_points, _score_card, best_case_row,
                      best_case_rows_after, normalise_counts, score_pass)

__all__ = ["score_calculator", "card_values", "marginal_values", "marginal_table",
           "hand_potential", "potential_difference", "payoff_matrix", "PayoffMatrix", "solve_zero_sum",
           "verify_equilibrium", "equilibrium", "unseen_cards", "unicorn_draw_odds",
           "draw_odds", "p_holds", "p_draw_at_least", "benchmarks"]


# ============================================================================ scores

def score_calculator(display, scoring_cards: Sequence[Sequence[str]],
                     points: Mapping[str, int] | None = None):
    """The ``ScoreSheet`` for a display and everyone's scoring cards.

    ``display``: ``{character: column length}`` (Jesters lying in a column included) or
    a state (its display is used).  ``print(sheet)`` lists every term with its reason.
    """
    if isinstance(display, TenCharactersState):
        points = display.game.points if points is None else points
        display = display.display_counts()
    return score_pass(display, scoring_cards, points)


def card_values(display, points: Mapping[str, int] | None = None) -> dict:
    """Points ONE scoring card of each character would earn on ``display``.

    The King is valued as if no other player keeps a Jester, the Jester as if some other
    player keeps a King (the best case of each; both depend on the others' cards).
    """
    n = normalise_counts(display)
    pts = _check_points(points)
    return dict(_card_values(tuple(n.values()), tuple(map(pts.__getitem__, CHARACTERS))))


@speed_cache(maxsize=8192)
def _card_values(counts: tuple, points: tuple) -> tuple:
    """``card_values`` for column lengths in ``COLUMNS`` order and points in
    ``CHARACTERS`` order (both checked): ``((character, points), ...)``."""
    n = normalise_counts(counts)
    pts = dict(zip(CHARACTERS, points))
    return tuple((c, _score_card(c, n, ("king",) if c == "jester" else (), pts)[0])
                 for c in CHARACTERS)


@speed_cache(maxsize=16384)
def value_row(counts: tuple, points: tuple) -> tuple:
    """``card_values`` as numbers in ``CHARACTERS`` order, for column lengths in
    ``COLUMNS`` order and points in ``CHARACTERS`` order (both checked; the players'
    fast path: the key is the public display only)."""
    return best_case_row(counts, points)


@speed_cache(maxsize=8192)
def display_rows(counts: tuple, points: tuple) -> tuple:
    """``(value_row(counts, points), rows)``: ``rows[i]`` is the ``value_row`` after one
    more card in column ``i`` (``COLUMNS`` order), what a card played there makes."""
    now = best_case_row(counts, points)
    return now, best_case_rows_after(counts, points, now)


def top_sum(values, keep: int) -> int:
    """The sum of the ``keep`` largest ``values``."""
    return sum(sorted(values, reverse=True)[:keep])


def best_sum(row: tuple, hand, keep: int) -> int:
    """``hand_potential`` for ``hand`` given as indices into ``row`` (``value_row``):
    the best ``keep`` cards' sum is the sum of the ``keep`` largest values."""
    return top_sum(map(row.__getitem__, hand), keep)


def best_without(vals: list, v: int, keep: int) -> int:
    """``best_sum`` of a hand less one card worth ``v``, where ``vals`` are the whole
    hand's values from high to low (that card's among them): the ``keep`` best of the
    rest, without copying the hand."""
    if keep >= len(vals):
        return sum(vals) - v
    if v >= vals[keep - 1]:         # the card is among the best: the next one moves up
        return sum(vals[:keep + 1]) - v
    return sum(vals[:keep])


def _add(display: dict, card: str, column: str | None = None) -> dict:
    d = dict(display)
    target = column if card == "jester" else card
    if target is None:
        return d            # a Jester with no column goes into the box
    d[target] = d.get(target, 0) + 1
    return d


def marginal_values(display, card: str, column: str | None = None,
                    points: Mapping[str, int] | None = None) -> dict:
    """How placing ``card`` (a Jester into ``column``) changes each character's card value.

    Only the card going into the display is counted, not its optional effect.
    """
    before = normalise_counts(display)
    after = _add(before, card, column)
    vb, va = card_values(before, points), card_values(after, points)
    return {c: va[c] - vb[c] for c in CHARACTERS}


def hand_potential(hand: Sequence[str], display, keep: int = SCORING_CARDS,
                   points: Mapping[str, int] | None = None) -> int:
    """The most ``keep`` cards of ``hand`` would score on ``display`` (King/Jester at best)."""
    vals = card_values(display, points)
    if len(hand) <= keep:
        return sum(vals[c] for c in hand)
    return max(sum(vals[c] for c in pair) for pair in combinations(hand, keep))


def marginal_table(state: TenCharactersState, player: int) -> list[dict]:
    """For each card ``player`` could play now: the change of every character's card value
    and of every player's hand potential (best 2 cards of the current hand, the player's
    own hand without the card played).  Uses the full state, so it is a teacher's tool.
    """
    state._check_player(player, "marginal_table")
    if state.pile is HIDDEN:
        raise ValueError(_("marginal_table needs the full state (it looks at every hand)"))
    g = state.game
    disp = state.display_counts()
    hands = state.hands
    rows = []
    for card in sorted(set(hands[player])):
        options = [None]
        if card == "jester":
            options = [c for c in COLUMNS if disp[c]] or [None]
        for col in options:
            after = _add(disp, card, col)
            row = {"card": card, "column": col,
                   "values": marginal_values(disp, card, col, g.points)}
            pot = []
            for p, h in enumerate(hands):
                h_after = list(h)
                if p == player:
                    h_after.remove(card)
                pot.append(hand_potential(h_after, after, g.scoring_cards, g.points)
                           - hand_potential(h, disp, g.scoring_cards, g.points))
            row["potential"] = tuple(pot)
            rows.append(row)
    return rows


# ============================================================================ the matrix game

def _scored(s: TenCharactersState, mark: int):
    return len(s.scoring_log) > mark


def potential_difference(state: TenCharactersState) -> Fraction:
    """Player 1's hand potential minus player 2's (best 2 cards scored on the display now,
    King and Jester at their best case): a horizon value for turns before the last."""
    g = state.game
    d = state.display_counts()
    return Fraction(hand_potential(state.hands[0], d, g.scoring_cards, g.points)
                    - hand_potential(state.hands[1], d, g.scoring_cards, g.points))


def _value(s: TenCharactersState, mark: int, memo: dict, turn=None, horizon=None) -> Fraction:
    """Exact expected (player 1 - player 2) points of the pass being scored (or, when the
    turn ends without a scoring, ``horizon`` of the position after the turn)."""
    if _scored(s, mark):
        _, _, pts = s.scoring_log[mark]
        return Fraction(pts[0] - pts[1])
    if turn is not None and s.turn != turn:
        return Fraction(horizon(s))
    hit = memo.get(s)
    if hit is not None:
        return hit
    cp = s.current_player()
    if cp == CHANCE:
        v = sum((p * _value(s.apply(o), mark, memo, turn, horizon) for o, p in s.chance_outcomes()),
                Fraction(0))
    elif isinstance(s.step, UnicornDiscards) and len(s.step.players) == 2 \
            and all(s.discarding[p] is None for p in s.step.players):
        # both players discard at the same time: a small simultaneous game of its own
        first = s.legal_actions()
        rows = []
        for a in first:
            t = s.apply(a)
            rows.append([_value(t.apply(b), mark, memo, turn, horizon) for b in t.legal_actions()])
        sign = 1 if s.step.players[0] == 0 else -1
        v = sign * solve_zero_sum([[sign * x for x in r] for r in rows])[2]
    else:
        vals = [_value(s.apply(a), mark, memo, turn, horizon) for a in s.legal_actions()]
        v = max(vals) if cp == 0 else min(vals)
    memo[s] = v
    return v


class PayoffMatrix:
    """Rows: player 1's cards; columns: player 2's; entries: exact E[points 1 - points 2]."""

    def __init__(self, rows, cols, entries):
        self.rows = tuple(rows)
        self.cols = tuple(cols)
        self.entries = tuple(tuple(r) for r in entries)

    def __getitem__(self, rc):
        r, c = rc
        return self.entries[self.rows.index(r)][self.cols.index(c)]

    def table(self) -> str:
        name = LABELS.__getitem__ if language() == "en" else character_name
        w = max(10, *(len(name(c)) for c in self.cols)) + 1
        head = " " * 16 + "".join(f"{name(c):>{w}}" for c in self.cols)
        lines = [head]
        for r, row in zip(self.rows, self.entries):
            lines.append(f"{name(r):<16}" + "".join(f"{str(x):>{w}}" for x in row))
        return "\n".join(lines)

    def __str__(self):
        return self.table()

    def __repr__(self):
        return f"PayoffMatrix(rows={self.rows}, cols={self.cols}, entries={self.entries})"

    def to_sympy(self):
        import sympy
        return sympy.Matrix([[sympy.Rational(x.numerator, x.denominator) for x in r]
                             for r in self.entries])


def payoff_matrix(state: TenCharactersState, horizon=None) -> PayoffMatrix:
    """The one-shot game of simultaneous card choices, two players.

    In the last turn of a pass each player holds 3 cards (2 + the one to play); both
    choose at once.  Entry ``[r][c]`` is the exact expected difference of this pass's
    points (player 1 minus player 2) when player 1 plays ``r`` and player 2 plays ``c``.
    Chance (Unicorn draws, the Fortune Teller's peek) is averaged exactly; the optional
    effects after the reveal (Knight, Mage, Jester column, Unicorn discard) are played
    optimally by their owners (player 1 maximises, player 2 minimises the difference; two
    Unicorn discards at once are solved as their own small simultaneous game — a
    simplification: each is assumed to know both drawn cards).  Uses the full state (a
    teacher's tool).

    For an earlier turn give ``horizon``: a function of the position after the turn
    returning the value of the difference there, or ``"potential"`` for
    ``potential_difference`` (the difference of the best pairs still in hand).
    """
    if state.game.players != 2:
        raise ValueError(_("the payoff matrix is for two players"))
    if state.pile is HIDDEN:
        raise ValueError(_("payoff_matrix needs the full state, not a player's view"))
    if not isinstance(state.step, Choosing) or any(c is not None for c in state.chosen):
        raise ValueError(_("the payoff matrix starts where both players are about to choose"))
    last = all(len(h) == state.game.scoring_cards + 1 for h in state.hands)
    if horizon == "potential":
        horizon = potential_difference
    if not last and horizon is None:
        raise ValueError(_("the one-shot game is the LAST turn of a pass (each player holds "
                           "{cards} cards); here the hands hold {held} — give a horizon value "
                           "for earlier turns, e.g. horizon='potential'").format(
            cards=state.game.scoring_cards + 1, held=", ".join(str(len(h)) for h in state.hands)))
    turn = None if last else state.turn
    mark = len(state.scoring_log)
    memo: dict = {}
    rows = sorted(set(state.hands[0]))
    cols = sorted(set(state.hands[1]))
    entries = []
    for r in rows:
        s1 = state.apply(Choose(0, r))
        entries.append([_value(s1.apply(Choose(1, c)), mark, memo, turn, horizon) for c in cols])
    return PayoffMatrix(rows, cols, entries)


# ---------------------------------------------------------------------------- exact LP

def _entries(A):
    return A.entries if isinstance(A, PayoffMatrix) else A


def solve_zero_sum(A) -> tuple[tuple, tuple, Fraction]:
    """``(x, y, v)``: an exact mixed Nash equilibrium of the zero-sum game ``A`` (a
    ``PayoffMatrix`` or rows of numbers); ``kingdoms.core.matrix.solve_zero_sum``.

    ``A[i][j]`` is what the row player wins (and the column player loses).  ``x`` (rows)
    guarantees at least ``v`` against every column, ``y`` (columns) concedes at most
    ``v`` against every row (exact simplex on Fractions, Bland's rule)."""
    return _matrix.solve_zero_sum(_entries(A))


def verify_equilibrium(A, x, y, v) -> bool:
    """True iff ``(x, y)`` is a mixed Nash equilibrium of zero-sum ``A`` with value ``v``,
    checked exactly (``kingdoms.core.matrix.verify_equilibrium``)."""
    return _matrix.verify_equilibrium(_entries(A), x, y, v)


def equilibrium(state_or_matrix) -> dict:
    """The payoff matrix of a position (or a given one) and its exact equilibrium."""
    pm = state_or_matrix if isinstance(state_or_matrix, PayoffMatrix) else payoff_matrix(state_or_matrix)
    x, y, v = solve_zero_sum(pm)
    return {"matrix": pm, "value": v,
            "player 1": {c: p for c, p in zip(pm.rows, x)},
            "player 2": {c: p for c, p in zip(pm.cols, y)}}


# ============================================================================ draw odds

def unseen_cards(state: TenCharactersState, player: int) -> dict:
    """Counts of the cards ``player`` has not seen (draw pile + others' unknown hand cards
    + face-down discards), worked out from ``player``'s view only: ``state.unseen(player)``
    with every character listed (``{character: count}`` in ``CHARACTERS`` order)."""
    unseen = state.unseen(player)
    return {c: unseen[c] for c in CHARACTERS}


def unicorn_draw_odds(state: TenCharactersState, player: int) -> Distribution:
    """The character a Unicorn draw brings ``player``, from the cards ``player`` has not
    seen, each assumed equally likely to be the top of the pile (exchangeability: true
    for the pile as dealt, an approximation once the others have chosen what to keep)."""
    return Distribution({c: k for c, k in unseen_cards(state, player).items() if k})


def draw_odds(state: TenCharactersState) -> Distribution:
    """The exact distribution of the next draw from the true draw pile (omniscient)."""
    if state.pile is HIDDEN:
        raise ValueError(_("draw_odds needs the full state; use unicorn_draw_odds for a player"))
    src = state._draw_source()
    return Distribution({c: k for c, k in zip(CHARACTERS, src) if k})


def _character(character) -> str:
    """``character`` if it names one of the ten characters, else a ``ValueError``."""
    return check_name(character, CHARACTERS, "character")


def p_draw_at_least(state: TenCharactersState, player: int, character: str,
                    draws: int = 1, k: int = 1) -> Fraction:
    """P(at least ``k`` of ``character`` among ``draws`` cards), from ``player``'s unseen cards."""
    _character(character)
    unseen = unseen_cards(state, player)
    total = sum(unseen.values())
    return hypergeometric(total, unseen[character], draws).P(lambda x: x >= k)


def p_holds(state: TenCharactersState, player: int, target: int, character: str) -> Fraction:
    """P(``target`` holds at least one ``character``), from what ``player`` can see.

    The target's hand cards that ``player`` does not know are treated as a random draw
    from the cards ``player`` has not seen (the same exchangeability assumption)."""
    _character(character)
    v = state.view(player)
    check_player(state.game, target, "p_holds", "target", other_than=player)
    known = [c for c in v.known[player][target] if c is not HIDDEN]
    if character in known:
        return Fraction(1)
    unseen = unseen_cards(state, player)
    total = sum(unseen.values())
    size = len(v.hands[target]) - len(known)
    if size <= 0:
        return Fraction(0)
    return hypergeometric(total, unseen[character], size).P(lambda x: x >= 1)


# ============================================================================ benchmark

def benchmarks() -> list[str]:
    """``make bench``: the exact zero-sum solver beside sympy's exact simplex (``lpmax``)."""
    import random
    import time

    from sympy import Rational, symbols
    from sympy.solvers.simplex import lpmax
    lines = []
    for size in (3, 6):
        rng = random.Random(size)
        A = [[rng.randint(-9, 9) for _ in range(size)] for _ in range(size)]
        t = time.perf_counter()
        ours = solve_zero_sum(A)[2]
        t_ours = time.perf_counter() - t
        xs = symbols(f"x0:{size}")
        v = symbols("v")
        cons = [sum(xs[i] * (A[i][j] + 10) for i in range(size)) >= v for j in range(size)]
        cons += [x >= 0 for x in xs] + [sum(xs) <= 1, sum(xs) >= 1]
        t = time.perf_counter()
        theirs = lpmax(v, cons)[0] - 10
        t_sympy = time.perf_counter() - t
        same = Rational(ours.numerator, ours.denominator) == theirs
        lines.append(f"zero-sum {size}x{size}: ours {t_ours * 1e3:.2f} ms, sympy lpmax "
                     f"{t_sympy * 1e3:.2f} ms, ratio {t_sympy / t_ours:.1f}, same value: {same}")
    return lines
