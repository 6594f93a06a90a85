"""The ten scorings of Ten Characters, as pure functions of the display and the scoring cards.

At the end of a pass every player keeps two hand cards as *scoring cards*.  Each
scoring card scores on its own, counted on the shared display (a Jester lying in a
column counts as that column's character):

=============== =========================================================
Farmer          3 per Farmer, if there are at least as many Farmers as Knights
Noble           4 per Noble, if there are at least as many Farmers as Nobles
Mage            3 per set Mage + Noble (the smaller of the two columns)
Dragon          4 per Dragon
Fortune Teller  2 per Fortune Teller and 2 per Dragon
King            4 per King, unless some OTHER player keeps a Jester as a scoring card
Jester          4 per King, if some OTHER player keeps a King as a scoring card
Queen           3 per set Queen + King
Unicorn         3 per Unicorn, if no column is longer than the Unicorns
Knight          5 per set Knight + Queen + Unicorn
=============== =========================================================

``score_card`` scores one card and says why; ``score_pass`` scores everyone's
scoring cards and returns a ``ScoreSheet`` whose ``explain()`` lists every term.
The numbers (3, 4, 2, 5 ...) default to the rulebook's; the game passes the ones
in its data file.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from kingdoms.core.i18n import N_, _, language
from kingdoms.core.protocol import player_label

__all__ = ["CHARACTERS", "COLUMNS", "LABELS", "DEFAULT_POINTS", "SCORING_CARDS", "ScoreTerm",
           "ScoreSheet", "score_card", "score_pass", "normalise_counts"]

CHARACTERS = ("fortune_teller", "dragon", "mage", "noble", "farmer",
              "knight", "unicorn", "queen", "king", "jester")
COLUMNS = CHARACTERS[:-1]          # the Jester has no column of its own
LABELS = {"fortune_teller": "Fortune Teller", "dragon": "Dragon", "mage": "Mage",
          "noble": "Noble", "farmer": "Farmer", "knight": "Knight", "unicorn": "Unicorn",
          "queen": "Queen", "king": "King", "jester": "Jester"}
# The rulebook's numbers, for scoring without a game (a game passes its data's: the
# data.toml entries name their source, the rules overview).
SCORING_CARDS = 2      # hand cards each player keeps and scores at the end of a pass
DEFAULT_POINTS = {"fortune_teller": 2, "dragon": 4, "mage": 3, "noble": 4, "farmer": 3,
                  "knight": 5, "unicorn": 3, "queen": 3, "king": 4, "jester": 4}


class _Counts(dict):
    """Column lengths already checked by ``normalise_counts`` (all nine columns)."""


_COLUMN_SET = frozenset(COLUMNS)
_CHARACTER_SET = frozenset(CHARACTERS)


def _count(value, where: str) -> int:
    if isinstance(value, bool):
        raise ValueError(_("{where}: a number of cards, not {value}").format(
            where=where, value=repr(value)))
    try:
        k = operator.index(value)            # ints (and numpy ints), never floats or text
    except TypeError:
        raise ValueError(_("{where}: a whole number of cards, not {value}").format(
            where=where, value=repr(value))) from None
    if k < 0:
        raise ValueError(_("{where}: a column cannot hold a negative number of cards ({k})")
                         .format(where=where, k=k))
    return k


_INT = {int}


def _plain_counts(values) -> bool:
    """Whether ``values`` are all ints (not bools) and none is negative."""
    return {*map(type, values)} <= _INT and min(values, default=0) >= 0


def normalise_counts(counts) -> dict:
    """Column lengths as a dict over all nine columns (missing columns are 0).

    ``counts`` is a mapping ``character -> cards in that column`` (Jesters lying in a
    column already included) or a sequence of nine numbers in ``COLUMNS`` order.  An
    unknown key (the Jester has no column), a negative or fractional count is a
    ``ValueError``.
    """
    if type(counts) is _Counts:
        return counts
    if type(counts) is tuple and len(counts) == len(COLUMNS) and _plain_counts(counts):
        return _Counts(zip(COLUMNS, counts))    # nine plain numbers (the odds' cache keys)
    if type(counts) is dict and tuple(counts) == COLUMNS and _plain_counts(counts.values()):
        return _Counts(counts)          # all nine columns in order (``display_counts()``)
    if isinstance(counts, Mapping):
        bad = [k for k in counts if not (isinstance(k, str) and k in _COLUMN_SET)]
        if bad:
            raise ValueError(_("no display column for {keys} (the Jester has no column; the "
                               "columns are {columns})").format(
                keys=", ".join(sorted(map(repr, bad))), columns=", ".join(COLUMNS)))
        out = _Counts((c, _count(counts.get(c, 0), c)) for c in COLUMNS)
    elif isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
        raise ValueError(_("column lengths are a mapping {{column: cards}} or nine numbers, "
                           "not {value}").format(value=repr(counts)))
    else:
        counts = tuple(counts)
        if len(counts) != len(COLUMNS):
            raise ValueError(_("expected {expected} column lengths, got {n}").format(
                expected=len(COLUMNS), n=len(counts)))
        out = _Counts((c, _count(x, c)) for c, x in zip(COLUMNS, counts))
    return out


def _check_points(points) -> Mapping:
    """The points per character to use: the rulebook's, or ``points`` checked to give a
    whole number for each of the ten characters and nothing else."""
    if points is None or points is DEFAULT_POINTS:
        return DEFAULT_POINTS
    if type(points) in (MappingProxyType, dict) and points.keys() == _CHARACTER_SET \
            and {*map(type, points.values())} == _INT:
        return points                   # the usual case (a game's points), checked quickly
    if not isinstance(points, Mapping):
        raise ValueError(_("points: a mapping {{character: points}}, not {value}").format(
            value=repr(points)))
    unknown = [k for k in points if not (isinstance(k, str) and k in _CHARACTER_SET)]
    missing = [c for c in CHARACTERS if c not in points]
    if unknown or missing:
        raise ValueError(_("points: give the number for each of the ten characters "
                           "{characters}").format(characters=", ".join(CHARACTERS))
                         + (_("; unknown: {keys}").format(keys=", ".join(sorted(map(repr, unknown))))
                            if unknown else "")
                         + (_("; missing: {keys}").format(keys=", ".join(missing))
                            if missing else ""))
    for c in CHARACTERS:
        v = points[c]
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(_("points: {character} should be a whole number, not {value}")
                             .format(character=c, value=repr(v)))
    return points


def _check_cards(cards, what: str) -> tuple:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise ValueError(_("{what}: a list of characters, not {value}").format(
            what=what, value=repr(cards)))
    cards = tuple(cards)
    for c in cards:
        if not (isinstance(c, str) and c in _CHARACTER_SET):
            raise ValueError(_("{what}: unknown character {value}; the characters are "
                               "{characters}").format(what=what, value=repr(c),
                                                      characters=", ".join(CHARACTERS)))
    return cards


@dataclass(frozen=True)
class ScoreTerm:
    """One scoring card's points and the reason."""

    player: int
    card: str
    points: int
    why: str

    def __str__(self):
        if language() == "en":
            return f"{player_label(self.player)}: {LABELS[self.card]} {self.points:+d}  ({self.why})"
        return _("{player}: {character} {points}  ({why})").format(
            player=player_label(self.player), character=_character_name(self.card),
            points=f"{self.points:+d}", why=self.why)


def score_card(card: str, counts, others: Sequence[str] = (),
               points: Mapping[str, int] | None = None) -> tuple[int, str]:
    """``(points, reason)`` for ONE scoring card.

    ``counts``: the display's column lengths; ``others``: the scoring cards of all OTHER
    players (only the King and the Jester look at them).
    """
    n = normalise_counts(counts)
    pts = _check_points(points)
    if not (isinstance(card, str) and card in _CHARACTER_SET):
        raise ValueError(_("unknown character {value}; the characters are {characters}")
                         .format(value=repr(card), characters=", ".join(CHARACTERS)))
    return _score_card(card, n, _check_cards(others, "others"), pts)


def _score_card(card: str, n: dict, others, pts) -> tuple[int, str]:
    """``score_card`` on checked arguments (``normalise_counts``, ``_check_points``)."""
    k = pts[card]
    if card == "farmer":
        if n["farmer"] >= n["knight"]:
            return k * n["farmer"], _why(
                f"{k} x {n['farmer']} Farmers (Farmers {n['farmer']} >= Knights {n['knight']})",
                N_("{k} x {farmers} ({farmer} {farmers} >= {knight} {knights})"), k, n)
        return 0, _why(f"0: fewer Farmers ({n['farmer']}) than Knights ({n['knight']})",
                       N_("0: fewer {farmer} ({farmers}) than {knight} ({knights})"), k, n)
    if card == "noble":
        if n["farmer"] >= n["noble"]:
            return k * n["noble"], _why(
                f"{k} x {n['noble']} Nobles (Farmers {n['farmer']} >= Nobles {n['noble']})",
                N_("{k} x {nobles} ({farmer} {farmers} >= {noble} {nobles})"), k, n)
        return 0, _why(f"0: fewer Farmers ({n['farmer']}) than Nobles ({n['noble']})",
                       N_("0: fewer {farmer} ({farmers}) than {noble} ({nobles})"), k, n)
    if card == "mage":
        sets = min(n["mage"], n["noble"])
        return k * sets, _why(
            f"{k} x {sets} sets Mage+Noble (Mages {n['mage']}, Nobles {n['noble']})",
            N_("{k} x {sets} sets {mage}+{noble} ({mage} {mages}, {noble} {nobles})"), k, n,
            sets=sets)
    if card == "dragon":
        return k * n["dragon"], _why(f"{k} x {n['dragon']} Dragons",
                                     N_("{k} x {dragons} {dragon}"), k, n)
    if card == "fortune_teller":
        m = n["fortune_teller"] + n["dragon"]
        return k * m, _why(
            f"{k} x ({n['fortune_teller']} Fortune Tellers + {n['dragon']} Dragons)",
            N_("{k} x ({fortune_tellers} {fortune_teller} + {dragons} {dragon})"), k, n)
    return _score_court_card(card, n, others, k)


def _score_court_card(card: str, n: dict, others, k: int) -> tuple[int, str]:
    """``_score_card`` for the King, Jester, Queen, Unicorn and Knight (``k``: the
    card's points)."""
    if card == "king":
        jesters = sum(1 for c in others if c == "jester")
        if jesters:
            return 0, _why(
                f"0: another player keeps a Jester ({jesters} Jester scoring card(s))",
                N_("0: another player keeps a {jester} ({jesters} {jester} scoring card(s))"),
                k, n, jesters=jesters)
        return k * n["king"], _why(
            f"{k} x {n['king']} Kings (no other player keeps a Jester)",
            N_("{k} x {kings} {king} (no other player keeps a {jester})"), k, n)
    if card == "jester":
        kings = sum(1 for c in others if c == "king")
        if kings:
            return k * n["king"], _why(
                f"{k} x {n['king']} Kings (another player keeps a King)",
                N_("{k} x {kings} {king} (another player keeps a {king})"), k, n)
        return 0, _why("0: no other player keeps a King",
                       N_("0: no other player keeps a {king}"), k, n)
    if card == "queen":
        sets = min(n["queen"], n["king"])
        return k * sets, _why(
            f"{k} x {sets} sets Queen+King (Queens {n['queen']}, Kings {n['king']})",
            N_("{k} x {sets} sets {queen}+{king} ({queen} {queens}, {king} {kings})"), k, n,
            sets=sets)
    if card == "unicorn":
        longest = max(n.values())
        if n["unicorn"] >= longest:
            return k * n["unicorn"], _why(
                f"{k} x {n['unicorn']} Unicorns (no column is longer)",
                N_("{k} x {unicorns} {unicorn} (no column is longer)"), k, n)
        if language() == "en":
            longer = [LABELS[c] for c in COLUMNS if n[c] > n["unicorn"]]
            return 0, f"0: a longer column than the Unicorns ({n['unicorn']}): {', '.join(longer)}"
        longer = [_character_name(c) for c in COLUMNS if n[c] > n["unicorn"]]
        return 0, _why("", N_("0: a longer column than the {unicorn} ({unicorns}): {longer}"),
                       k, n, longer=", ".join(longer))
    if card == "knight":
        sets = min(n["knight"], n["queen"], n["unicorn"])
        return k * sets, _why(
            (f"{k} x {sets} sets Knight+Queen+Unicorn (Knights {n['knight']}, "
             f"Queens {n['queen']}, Unicorns {n['unicorn']})"),
            N_("{k} x {sets} sets {knight}+{queen}+{unicorn} ({knight} {knights}, "
               "{queen} {queens}, {unicorn} {unicorns})"), k, n, sets=sets)
    raise ValueError(_("unknown character {value}; the characters are {characters}")
                         .format(value=repr(card), characters=", ".join(CHARACTERS)))


_PLURAL = {c: c + "s" for c in COLUMNS}     # the counts' placeholders: {farmers} ...


def _character_name(card: str) -> str:
    """A character's name in the current language (the box's data file)."""
    from .rules import character_name       # the rules import this module
    return character_name(card)


def _why(english: str, text: str, k: int, n: Mapping, **values) -> str:
    """A term's reason: ``english`` in English (the sheet's own words), else the
    catalog's ``text`` with the characters' names ``{farmer}`` and the column lengths
    ``{farmers}`` (and ``values``) filled in."""
    if language() == "en":
        return english
    names = {c: _character_name(c) for c in CHARACTERS}
    counts = {_PLURAL[c]: n[c] for c in COLUMNS}
    return _(text).format(k=k, **names, **counts, **values)


def best_case_row(n: tuple, pts: tuple) -> tuple:
    """The points of ``_score_card`` (numbers only, no reasons) for one scoring card of
    each character, in ``CHARACTERS`` order: column lengths ``n`` in ``COLUMNS`` order,
    points ``pts`` in ``CHARACTERS`` order (both checked).  The King as if no other
    player keeps a Jester, the Jester as if another keeps a King (their best cases).
    The same rules as ``_score_card`` (the tests check they agree), for the players'
    many look-ups."""
    ft, dragon, mage, noble, farmer, knight, unicorn, queen, king = n
    p_ft, p_dragon, p_mage, p_noble, p_farmer, p_knight, p_unicorn, p_queen, p_king, p_jester = pts
    return (p_ft * (ft + dragon),
            p_dragon * dragon,
            p_mage * (mage if mage < noble else noble),
            p_noble * noble if farmer >= noble else 0,
            p_farmer * farmer if farmer >= knight else 0,
            p_knight * min(knight, queen, unicorn),
            p_unicorn * unicorn if unicorn >= max(n) else 0,
            p_queen * (queen if queen < king else king),
            p_king * king,
            p_jester * king)


def best_case_rows_after(n: tuple, pts: tuple, now: tuple) -> tuple:
    """``best_case_row`` of the display one card later, for each column in ``COLUMNS``
    order (``now``: ``best_case_row(n, pts)``).  One more card in a column changes only
    the terms that count that column (and the Unicorn's, which looks at the longest
    column): each row is ``now`` with those terms worked out afresh, by the same rules
    (the tests check it against ``best_case_row``)."""
    ft, dragon, mage, noble, farmer, knight, unicorn, queen, king = n
    p_ft, p_dragon, p_mage, p_noble, p_farmer, p_knight, p_unicorn, p_queen, p_king, p_jester = pts
    v_ft, v_dragon, v_mage, v_noble, v_farmer, v_knight, v_uni, v_queen, v_king, v_jester = now
    longest = max(n)
    # the Unicorn's term when another column gets a card: unchanged, unless that
    # column was a longest one (it is now longer than the Unicorns)
    u = [0 if k == longest else v_uni for k in n]
    return (
        (p_ft * (ft + 1 + dragon), v_dragon, v_mage, v_noble, v_farmer, v_knight,
         u[0], v_queen, v_king, v_jester),
        (p_ft * (ft + dragon + 1), p_dragon * (dragon + 1), v_mage, v_noble, v_farmer,
         v_knight, u[1], v_queen, v_king, v_jester),
        (v_ft, v_dragon, p_mage * (mage + 1 if mage + 1 < noble else noble), v_noble,
         v_farmer, v_knight, u[2], v_queen, v_king, v_jester),
        (v_ft, v_dragon, p_mage * (mage if mage < noble + 1 else noble + 1),
         p_noble * (noble + 1) if farmer >= noble + 1 else 0, v_farmer, v_knight, u[3],
         v_queen, v_king, v_jester),
        (v_ft, v_dragon, v_mage, p_noble * noble if farmer + 1 >= noble else 0,
         p_farmer * (farmer + 1) if farmer + 1 >= knight else 0, v_knight, u[4], v_queen,
         v_king, v_jester),
        (v_ft, v_dragon, v_mage, v_noble, p_farmer * farmer if farmer >= knight + 1 else 0,
         p_knight * min(knight + 1, queen, unicorn), u[5], v_queen, v_king, v_jester),
        (v_ft, v_dragon, v_mage, v_noble, v_farmer, p_knight * min(knight, queen, unicorn + 1),
         p_unicorn * (unicorn + 1) if unicorn + 1 >= longest else 0, v_queen, v_king,
         v_jester),
        (v_ft, v_dragon, v_mage, v_noble, v_farmer, p_knight * min(knight, queen + 1, unicorn),
         u[7], p_queen * (queen + 1 if queen + 1 < king else king), v_king, v_jester),
        (v_ft, v_dragon, v_mage, v_noble, v_farmer, v_knight, u[8],
         p_queen * (queen if queen < king + 1 else king + 1), p_king * (king + 1),
         p_jester * (king + 1)),
    )


@dataclass(frozen=True)
class ScoreSheet:
    """Everyone's points for one scoring, term by term."""

    counts: tuple            # ((column, length), ...)
    terms: tuple             # ScoreTerm, ...
    totals: tuple            # points per player

    def explain(self) -> str:
        name = LABELS.__getitem__ if language() == "en" else _character_name
        shown = ", ".join(f"{name(c)} {k}" for c, k in self.counts if k) or _("empty")
        lines = [_("Display: {columns}").format(columns=shown)]
        lines += [f"  {t}" for t in self.terms]
        lines.append(_("Totals: {totals}").format(totals=", ".join(
            f"{player_label(i)} {p}" for i, p in enumerate(self.totals))))
        return "\n".join(lines)

    def __str__(self):
        return self.explain()


_INDEX = {c: i for i, c in enumerate(CHARACTERS)}


def pass_totals(n: tuple, scoring_cards: tuple, pts: tuple) -> tuple:
    """``score_pass(...).totals``, numbers only (no reasons): column lengths ``n`` in
    ``COLUMNS`` order and points ``pts`` in ``CHARACTERS`` order (both checked),
    ``scoring_cards`` one tuple of characters per player.  Each card scores its
    ``best_case_row`` entry, except a King when another player keeps a Jester (0) and
    a Jester when no other player keeps a King (0): the rules of ``_score_card`` (the
    tests check they agree), for the end of every pass of a simulated game."""
    row = best_case_row(n, pts)
    jesters = [("jester" in cs) for cs in scoring_cards]
    kings = [("king" in cs) for cs in scoring_cards]
    n_jesters, n_kings = sum(jesters), sum(kings)
    totals = []
    for p, cards in enumerate(scoring_cards):
        total = 0
        for c in cards:
            if c == "king":
                if n_jesters - jesters[p] == 0:         # no other player keeps a Jester
                    total += row[_INDEX[c]]
            elif c == "jester":
                if n_kings - kings[p] > 0:              # another player keeps a King
                    total += row[_INDEX[c]]
            else:
                total += row[_INDEX[c]]
        totals.append(total)
    return tuple(totals)


def score_pass(counts, scoring_cards: Sequence[Sequence[str]],
               points: Mapping[str, int] | None = None) -> ScoreSheet:
    """Score every player's scoring cards on the display ``counts``.

    ``scoring_cards[p]`` is player ``p``'s scoring cards (two in the game; any number
    is accepted).  A pure function: the same display and cards always give the same sheet.
    """
    n = normalise_counts(counts)
    points = _check_points(points)
    if isinstance(scoring_cards, (str, bytes)) or not isinstance(scoring_cards, Iterable):
        raise ValueError(_("scoring_cards: one list of characters per player, not {value}")
                         .format(value=repr(scoring_cards)))
    scoring_cards = tuple(_check_cards(cs, _("scoring cards of {player}").format(
                              player=player_label(p)))
                          for p, cs in enumerate(scoring_cards))
    terms = []
    totals = []
    for p, cards in enumerate(scoring_cards):
        others = [c for q, cs in enumerate(scoring_cards) if q != p for c in cs]
        total = 0
        for card in cards:
            pts, why = _score_card(card, n, others, points)
            terms.append(ScoreTerm(p, card, pts, why))
            total += pts
        totals.append(total)
    return ScoreSheet(tuple(n.items()), tuple(terms), tuple(totals))
