"""Ten Characters: the rules, top to bottom.

Components: 100 cards, ten characters x ten copies.  Nine characters have a column in
the shared display; the Jester has none (it joins another column).

Setup and passes.  Each of three passes starts with a deal: every player gets a hand
of 6 cards (8 with two players).  A pass is a series of turns; it ends when everyone
holds 2 cards, which are then scored and go into the box.  The display stays for the
whole game.

A turn.  Everybody chooses one hand card face down; all reveal together.  (The program
asks the players one after another; nobody's view shows a card chosen by someone else
until the reveal.)  The revealed cards go into the display: first those without an
initiative number, then the others by ascending initiative; equal cards in seat order
(an editable assumption).  Immediate effects happen as a card goes in:

* Unicorn — "1 Karte ziehen, 1 Handkarte abwerfen (alle gleichzeitig)": every player
  draws a card (one by one, from the Unicorn's player on), then every player discards a
  hand card, chosen face down and revealed together; each Unicorn does this as it goes
  in.  The option ``unicorn="own"`` keeps the other reading (only the Unicorn's player
  draws and discards; the Unicorns of one turn do it together).
* Knight — may remove one Dragon from the display.
* Mage — may remove any one card from the display.
* Jester — goes into an occupied column of its player's choice and counts as that
  character; into the box if the display is empty.
* Fortune Teller — looks at one hand card of another player (a random one of that
  player's cards); this knowledge shows in the looker's (and the target's) view.
* Removing a card from a column that holds Jesters removes a Jester first.

Scoring (see ``scoring.py``): each scoring card scores on the display.  After the
third pass the most points win; a tie shares the win.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping

from kingdoms.core.data import DataError, load_data
from kingdoms.core.protocol import (CHANCE, HIDDEN, TERMINAL, Action, Game,
                                    GameOptionError, State, replace, safe_repr)

from . import scoring as _scoring
from .scoring import CHARACTERS, COLUMNS, LABELS

__all__ = ["TenCharacters", "TenCharactersState", "DealCard", "Choose", "KnightRemove",
           "MageRemove", "JesterTo", "PeekAt", "PeekCard", "UnicornDraw", "Discard",
           "CHARACTERS", "COLUMNS", "LABELS"]

EFFECTS = {"fortune_teller": "peek", "dragon": "none", "mage": "remove-any", "noble": "none",
           "farmer": "none", "knight": "remove-dragon", "unicorn": "draw-discard",
           "queen": "none", "king": "none", "jester": "join-column"}
CI = {c: i for i, c in enumerate(CHARACTERS)}     # character -> index in count tuples
COL = {c: i for i, c in enumerate(COLUMNS)}       # column character -> column index
JESTER = CI["jester"]


def _name(p) -> str:
    """``Player 1`` for seat 0: the game's ``player_name`` (Ten Characters has no
    player names).  Never raises, whatever ``p`` is (texts of malformed actions)."""
    if isinstance(p, int) and not isinstance(p, bool) and p >= 0:
        return f"Player {p + 1}"
    return f"player {safe_repr(p)}"


def _label(card) -> str:
    if card is HIDDEN:
        return "a card"
    if isinstance(card, str) and card in LABELS:
        return f"the {LABELS[card]}"
    return f"{safe_repr(card)} (not a character)"


def _column_label(column) -> str:
    if isinstance(column, str) and column in LABELS:
        return LABELS[column]
    return f"{safe_repr(column)} (not a column)"




# =========================================================================== actions

@dataclass(frozen=True)
class DealCard(Action):
    """Chance: ``player`` is dealt ``card`` from the draw pile (seen only by that player)."""
    player: int
    card: str

    def __str__(self):
        return f"deal {_label(self.card)} to {_name(self.player)}"

    def seen_by(self, player):
        return self if player == self.player else DealCard(self.player, HIDDEN)


@dataclass(frozen=True)
class Choose(Action):
    """``player`` chooses a hand card face down."""
    player: int
    card: str

    def __str__(self):
        return f"{_name(self.player)} chooses {_label(self.card)} face down"

    def seen_by(self, player):
        return self if player == self.player else Choose(self.player, HIDDEN)


@dataclass(frozen=True)
class KnightRemove(Action):
    """The Knight's optional effect: remove one Dragon (``remove``) or not."""
    player: int
    remove: bool

    def __str__(self):
        if self.remove is True:
            return f"{_name(self.player)}'s Knight removes a Dragon"
        if self.remove is False:
            return f"{_name(self.player)}'s Knight leaves the Dragons alone"
        return f"{_name(self.player)}'s Knight: remove={safe_repr(self.remove)} (not True or False)"


@dataclass(frozen=True)
class MageRemove(Action):
    """The Mage's optional effect: remove one card from ``column`` (``None``: nothing)."""
    player: int
    column: str | None

    def __str__(self):
        if self.column is None:
            return f"{_name(self.player)}'s Mage removes nothing"
        return f"{_name(self.player)}'s Mage removes a card from the {_column_label(self.column)} column"


@dataclass(frozen=True)
class JesterTo(Action):
    """The Jester joins the occupied column ``column`` and counts as that character."""
    player: int
    column: str

    def __str__(self):
        return f"{_name(self.player)}'s Jester joins the {_column_label(self.column)} column"


@dataclass(frozen=True)
class PeekAt(Action):
    """The Fortune Teller's player picks whose hand to look into."""
    player: int
    target: int

    def __str__(self):
        return f"{_name(self.player)}'s Fortune Teller looks into {_name(self.target)}'s hand"


@dataclass(frozen=True)
class PeekCard(Action):
    """Chance: the card the Fortune Teller sees (seen by the looker and the target)."""
    player: int
    target: int
    card: str

    def __str__(self):
        return f"{_name(self.player)} sees {_label(self.card)} in {_name(self.target)}'s hand"

    def seen_by(self, player):
        if player in (self.player, self.target):
            return self
        return PeekCard(self.player, self.target, HIDDEN)


@dataclass(frozen=True)
class UnicornDraw(Action):
    """Chance: after a Unicorn, ``player`` draws ``card`` (seen only by that player)."""
    player: int
    card: str

    def __str__(self):
        return f"{_name(self.player)} draws {_label(self.card)} (Unicorn)"

    def seen_by(self, player):
        return self if player == self.player else UnicornDraw(self.player, HIDDEN)


@dataclass(frozen=True)
class Discard(Action):
    """After a Unicorn's draw: ``player`` discards a hand card (face down until all have
    chosen)."""
    player: int
    card: str

    def __str__(self):
        return f"{_name(self.player)} discards {_label(self.card)} (Unicorn)"

    def seen_by(self, player):
        return self if player == self.player else Discard(self.player, HIDDEN)


# =========================================================================== the game

# The range every number in data.toml must lie in (checked when the game is built).
# The bounds keep every game short and finite: at most 10 passes of at most 20 turns,
# at most 300 cards.
RANGES = MappingProxyType({
    "game.passes": (1, 10),
    "game.scoring_cards": (1, 5),
    "game.hand_size": (2, 20),
    "game.hand_size_two_players": (2, 20),
    "game.min_players": (2, 5),
    "game.max_players": (2, 5),
    "characters.copies": (0, 30),
    "characters.initiative": (0, 20),
    "characters.points": (0, 50),
})


def _parse(game) -> dict:
    data = load_data("kingdoms.ten_characters", game.data)
    out = {"data": data}
    g = "game"

    def number(key, rkey=None):
        lo, hi = RANGES[rkey or key]
        return data.get(key, int, min=lo, max=hi)

    out["passes"] = number(f"{g}.passes")
    out["scoring_cards"] = number(f"{g}.scoring_cards")
    out["hand_size"] = number(f"{g}.hand_size")
    out["hand_size_two"] = number(f"{g}.hand_size_two_players")
    out["min_players"] = number(f"{g}.min_players")
    out["max_players"] = number(f"{g}.max_players")
    if out["min_players"] > out["max_players"]:
        raise data.error(f"{g}.min_players", f"should be at most game.max_players "
                         f"({out['max_players']}), not {out['min_players']}")
    for key, dkey in (("hand_size", "hand_size"), ("hand_size_two", "hand_size_two_players")):
        if out[key] <= out["scoring_cards"]:
            raise data.error(f"{g}.{dkey}", "should be larger than game.scoring_cards "
                             "(each pass needs at least one turn)")
    order = data.get(f"{g}.equal_cards_order", str)
    if order not in ("seat", "rotating"):
        raise data.error(f"{g}.equal_cards_order", f"should be 'seat' or 'rotating', not {order!r}")
    out["equal_order"] = order
    for key, allowed in (("refill", "new-hands"), ("empty_pile", "reshuffle-discards"),
                         ("removed_to", "box"), ("fortune_teller_card", "random")):
        v = data.get(f"{g}.{key}", str)
        if v != allowed:
            raise data.error(f"{g}.{key}", f"only {allowed!r} is implemented, not {v!r}")
    out["discards_public"] = data.get(f"{g}.discards_public", bool)
    out["ft_self"] = data.get(f"{g}.fortune_teller_self", bool)
    out["mage_own"] = data.get(f"{g}.mage_may_remove_own", bool)
    chars = data.get("characters", list)
    names = []
    if len(chars) != len(CHARACTERS):
        raise data.error("characters", f"should list exactly the ten characters "
                         f"{', '.join(CHARACTERS)} (got {len(chars)} entries)")
    for i, ch in enumerate(chars):
        if not isinstance(ch, Mapping):
            raise data.error(f"characters.{i}", "should be a table")
        names.append(data.get(f"characters.{i}.name", str))
    if sorted(names) != sorted(CHARACTERS) or len(names) != len(CHARACTERS):
        raise data.error("characters", f"should list exactly the ten characters "
                         f"{', '.join(CHARACTERS)} (got {', '.join(names)})")
    copies, initiative, points, labels = {}, {}, {}, {}
    for i, name in enumerate(names):
        key = f"characters.{name}"
        c = number(f"characters.{i}.copies", "characters.copies")
        ini = number(f"characters.{i}.initiative", "characters.initiative")
        pts = number(f"characters.{i}.points", "characters.points")
        eff = data.get(f"characters.{i}.effect", str)
        if eff != EFFECTS[name]:
            raise data.error(f"{key}.effect", f"should be {EFFECTS[name]!r} (the rules' effect "
                             f"of the {name}), not {eff!r}")
        col = data.get(f"characters.{i}.column", bool)
        if col != (name != "jester"):
            raise data.error(f"{key}.column", "only the Jester has no column of its own")
        copies[name], initiative[name], points[name] = c, ini, pts
        labels[name] = data.get(f"characters.{i}.label", str)
    out["copies"] = tuple(copies[c] for c in CHARACTERS)
    out["initiative"] = tuple(initiative[c] for c in CHARACTERS)
    out["points"] = MappingProxyType(points)
    out["labels"] = MappingProxyType(labels)
    return out


UNICORN_READINGS = MappingProxyType({
    "everyone": "every player draws 1 card, then every player discards 1 hand card, the "
                "discards chosen face down and revealed together (the rule overview's "
                "literal '1 Karte ziehen, 1 Handkarte abwerfen (alle gleichzeitig)'); "
                "each Unicorn does this once as it goes into the display",
    "own": "only the Unicorn's player draws 1 card and discards 1 hand card; all "
           "Unicorns revealed in the same turn do this together ('alle gleichzeitig' "
           "read as: all Unicorn players at the same time)",
})
"""The two readings of the Unicorn's effect (the ``unicorn`` option; default: literal)."""


@dataclass(frozen=True)
class TenCharacters(Game):
    """Ten Characters for 2-5 players.

    Options: ``data`` (path of an edited copy of data.toml) and ``unicorn``, the
    reading of the Unicorn's effect "1 Karte ziehen, 1 Handkarte abwerfen (alle
    gleichzeitig)":

    * ``"everyone"`` (default, the literal text): as each Unicorn goes into the
      display, every player draws one card (one by one, from the Unicorn's player on
      in seat order; if the cards run out, the later players draw nothing), then every
      player who drew discards one hand card face down; the discards are revealed
      together.
    * ``"own"``: only the Unicorn's player draws and discards; several Unicorns of one
      turn draw one by one and discard together.
    """

    name = "ten_characters"
    title = "Ten Characters"
    min_players = 2
    max_players = 5
    hidden_information = True       # hands, face-down choices and discards, peeks

    players: int = 2
    data: str | None = None
    unicorn: str = "everyone"

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.unicorn, str) or self.unicorn not in UNICORN_READINGS:
            raise GameOptionError(f"{self.title}: unicorn must be one of "
                                  f"{', '.join(map(repr, UNICORN_READINGS))}, not "
                                  f"{safe_repr(self.unicorn)}")
        parsed = _parse(self)
        lo, hi = parsed["min_players"], parsed["max_players"]
        if not lo <= self.players <= hi:
            raise GameOptionError(f"this copy of the data allows {lo}-{hi} players; "
                                  f"players={self.players} is not allowed")
        hand = parsed["hand_size_two"] if self.players == 2 else parsed["hand_size"]
        need = parsed["passes"] * self.players * hand
        if sum(parsed["copies"]) < need:
            raise DataError(f"{parsed['data'].origin}: 'characters.copies' give "
                            f"{sum(parsed['copies'])} cards, but {parsed['passes']} passes of "
                            f"{self.players} hands of {hand} need {need}")
        for k, v in parsed.items():
            if k in ("data", "min_players", "max_players"):
                k = "_" + k
            object.__setattr__(self, k, v)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "turns_per_pass", hand - parsed["scoring_cards"])

    def __reduce__(self):
        # pickled (e.g. to a worker process) as its configuration; the data is re-read
        return (type(self), (self.players, self.data, self.unicorn))

    @classmethod
    def data_ranges(cls) -> dict[str, tuple]:
        """The data file's schema (see ``Game.data_ranges``): ``RANGES``, whose
        ``characters.<number>`` applies to every entry (``characters.*.<number>``)."""
        return {k.replace("characters.", "characters.*.", 1): (int, lo, hi)
                for k, (lo, hi) in RANGES.items()}

    @classmethod
    def configurations(cls) -> list:
        """Every player count, plus the other reading of the Unicorn."""
        return super().configurations() + [{"players": 3, "unicorn": "own"}]

    # -- every action, numbered (kingdoms.interop.openspiel) --------------------------
    def action_universe(self) -> tuple:
        """Every action and chance outcome this game can ever produce, in a fixed order:
        by kind (DealCard, Choose, KnightRemove, MageRemove, JesterTo, PeekAt, PeekCard,
        UnicornDraw, Discard), then player, then target player, then character in
        ``CHARACTERS`` order (``None``/False first).  A superset is fine; every listed
        value is distinct."""
        n = range(self.players)
        out = []
        out += [DealCard(p, c) for p in n for c in CHARACTERS]
        out += [Choose(p, c) for p in n for c in CHARACTERS]
        out += [KnightRemove(p, r) for p in n for r in (False, True)]
        out += [MageRemove(p, c) for p in n for c in (None,) + COLUMNS]
        out += [JesterTo(p, c) for p in n for c in COLUMNS]
        out += [PeekAt(p, t) for p in n for t in n]
        out += [PeekCard(p, t, c) for p in n for t in n for c in CHARACTERS]
        out += [UnicornDraw(p, c) for p in n for c in CHARACTERS]
        out += [Discard(p, c) for p in n for c in CHARACTERS]
        return tuple(out)

    def max_game_length(self) -> int:
        """A true bound on the number of actions and chance outcomes in a game: each of
        ``passes`` passes deals ``players x hand`` cards and has ``turns_per_pass``
        turns; in a turn every player chooses one card, and each revealed card's effect
        takes at most 2 x players steps (the Unicorn, read "everyone": a draw and a
        discard per player; the Fortune Teller 2, Knight/Mage/Jester 1)."""
        n = self.players
        per_turn = n * (1 + 2 * n)
        return self.passes * (n * self.hand + self.turns_per_pass * per_turn)

    # -- players ----------------------------------------------------------------
    def policies(self) -> dict:
        """``random``, ``hold back`` and ``greedy`` (see ``strategies``)."""
        from .strategies import STRATEGIES
        return dict(STRATEGIES)

    def default_policies(self) -> tuple:
        """The greedy strategy in every seat: cheap, looks only at its own view.
        (Every game ends by the rules: a pass has a fixed number of turns.)"""
        from .strategies import greedy_policy
        return (greedy_policy,) * self.players

    # -- data -----------------------------------------------------------------

    def label(self, card) -> str:
        if card is HIDDEN:
            return "?"
        if isinstance(card, str) and card in self.labels:
            return self.labels[card]
        return f"{safe_repr(card)} (not a character)"

    # -- start ----------------------------------------------------------------
    def objectives(self) -> dict:
        """What a solver or tree may maximise (``kingdoms.core.solve``): the share of
        the win, each player's points, and with two players the points margin."""
        out = {"share of the win": lambda s: s.returns(),
               "points": lambda s: tuple(s.points)}
        if self.players == 2:
            out["points margin"] = lambda s: (s.points[0] - s.points[1],
                                              s.points[1] - s.points[0])
        return out

    def initial_state(self) -> "TenCharactersState":
        n = self.players
        z9 = (0,) * len(COLUMNS)
        return TenCharactersState(
            self, phase="deal", pass_no=1, turn=1,
            hands=((),) * n, pile=self.copies, pile_size=sum(self.copies),
            discard=(0,) * len(CHARACTERS), boxed=(0,) * len(CHARACTERS),
            columns=z9, jesters=z9, chosen=(None,) * n, revealed=(None,) * n,
            queue=(), pending=(), discarding=(None,) * n,
            known=tuple(((),) * n for _ in range(n)), points=(0,) * n, scoring_log=())

    def position(self, hands, display=None, jesters=None, *, pass_no: int = 1,
                 points=None, discard=None, boxed=None) -> "TenCharactersState":
        """A position where everyone is about to choose: for lessons, tests and exercises.

        ``hands``: each player's hand cards; ``display``: ``{column: non-Jester cards}``;
        ``jesters``: ``{column: Jesters lying there}``; ``discard``/``boxed``:
        ``{character: cards}``.  The draw pile holds every remaining card.  All hands must
        be equally long and hold more than the scoring cards.
        """
        n = self.players
        if len(hands) != n:
            raise ValueError(f"need {n} hands, got {len(hands)}")
        hands = tuple(tuple(sorted(h)) for h in hands)
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or not (self.scoring_cards < sizes.pop() <= self.hand):
            raise ValueError(f"all hands must hold the same number of cards, more than "
                             f"{self.scoring_cards} and at most {self.hand}")
        for name, d in (("display", display), ("jesters", jesters)):
            if d and set(d) - set(COLUMNS):
                raise ValueError(f"{name}: no column for {sorted(set(d) - set(COLUMNS))}")
        display, jesters = display or {}, jesters or {}
        columns = tuple(int(display.get(c, 0)) for c in COLUMNS)
        jest = tuple(int(jesters.get(c, 0)) for c in COLUMNS)
        disc = tuple(int((discard or {}).get(c, 0)) for c in CHARACTERS)
        box = tuple(int((boxed or {}).get(c, 0)) for c in CHARACTERS)
        used = [disc[i] + box[i] for i in range(len(CHARACTERS))]
        for h in hands:
            for c in h:
                used[CI[c]] += 1
        for c, k in zip(COLUMNS, columns):
            used[CI[c]] += k
        used[JESTER] += sum(jest)
        pile = tuple(self.copies[i] - used[i] for i in range(len(CHARACTERS)))
        if any(k < 0 for k in pile):
            bad = [CHARACTERS[i] for i, k in enumerate(pile) if k < 0]
            raise ValueError(f"more cards of {', '.join(bad)} than the game has")
        turn = self.hand - len(hands[0]) + 1
        start = self.initial_state()
        return replace(start, phase="choose", pass_no=pass_no, turn=turn, hands=hands,
                       pile=pile, pile_size=sum(pile), discard=disc, boxed=box,
                       columns=columns, jesters=jest,
                       points=tuple(points) if points is not None else start.points)

    def score(self, counts, scoring_cards):
        """The score sheet for a display and everyone's scoring cards (data's points)."""
        return _scoring.score_pass(counts, scoring_cards, self.points)


# =========================================================================== helpers

_FRACTIONS: dict = {}
_ROWS: dict = {}


def _fractions(total: int) -> tuple:
    """``(Fraction(0, total), Fraction(1, total), ...)``, built once per total."""
    try:
        return _FRACTIONS[total]
    except KeyError:
        row = _FRACTIONS[total] = tuple(Fraction(k, total) for k in range(total + 1))
        return row


def _outcomes(cls, player: int) -> tuple:
    """``cls(player, card)`` for the ten characters, as interned objects (built once)."""
    key = (cls, player)
    try:
        return _ROWS[key]
    except KeyError:
        row = _ROWS[key] = tuple(cls(player, c) for c in CHARACTERS)
        return row


def _take(hand: tuple, card: str) -> tuple:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _give(hand: tuple, card: str) -> tuple:
    h = list(hand)
    insort(h, card)
    return tuple(h)


def _bump(t: tuple, i: int, d: int) -> tuple:
    return t[:i] + (t[i] + d,) + t[i + 1:]


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _forget(known: tuple, target: int, card: str) -> tuple:
    """Everybody's knowledge after ``target`` gives up ``card`` publicly."""
    rows = []
    for row in known:
        k = row[target]
        if card in k:
            row = _set(row, target, _take(k, card))
        rows.append(row)
    return tuple(rows)




# =========================================================================== states

@dataclass(frozen=True)
class TenCharactersState(State):
    """A position.  Count tuples are in ``CHARACTERS`` order, columns in ``COLUMNS`` order."""

    phase: str              # "deal" | "choose" | "effect" | "over"
    pass_no: int            # 1..passes
    turn: int               # turn within the pass, from 1
    hands: tuple            # per player: sorted tuple of character names
    pile: tuple             # draw pile: count per character (HIDDEN in views)
    pile_size: int          # cards in the draw pile (public)
    discard: tuple          # discard pile (Unicorn discards): count per character
    boxed: tuple            # out of the game: scoring cards, removed cards, homeless Jesters
    columns: tuple          # display: non-Jester cards per column
    jesters: tuple          # display: Jesters lying in each column
    chosen: tuple           # this turn's face-down choices (None = not chosen yet)
    revealed: tuple         # the cards revealed in the latest turn (public)
    queue: tuple            # ((player, card), ...) revealed cards still to go into the display
    pending: tuple          # the effect being resolved: () or (kind, player, ...)
    discarding: tuple       # Unicorn discards chosen face down (None = not chosen)
    known: tuple            # known[v][t]: cards v has seen (Fortune Teller) still in t's hand
    points: tuple           # points per player so far
    scoring_log: tuple      # ((pass, scoring cards per player, points per player), ...)

    # ---- who acts -------------------------------------------------------------
    def _current_player(self):
        ph = self.phase
        if ph == "choose":
            return self.chosen.index(None)
        if ph == "deal":
            return CHANCE
        if ph == "over":
            return TERMINAL
        kind = self.pending[0]
        if kind in ("knight", "mage", "jester", "peek_target"):
            return self.pending[1]
        if kind in ("peek_card", "unicorn_draw"):
            return CHANCE
        # unicorn_discard: the next Unicorn player who has not chosen a discard
        for p in self.pending[1]:
            if self.discarding[p] is None:
                return p
        raise AssertionError("no discard pending")  # pragma: no cover

    # ---- checking actions -----------------------------------------------------
    # ---- decisions ------------------------------------------------------------
    def _legal_actions(self):
        p = self.current_player()
        if self.phase == "choose":
            row = _outcomes(Choose, p)
            hand = self.hands[p]
            return tuple(row[i] for i, c in enumerate(CHARACTERS) if c in hand)
        kind = self.pending[0]
        if kind == "knight":
            return (KnightRemove(p, True), KnightRemove(p, False))
        if kind == "mage":
            cols = [c for i, c in enumerate(COLUMNS) if self.columns[i] + self.jesters[i] > 0
                    and (self.game.mage_own or c != "mage")]
            return (MageRemove(p, None),) + tuple(MageRemove(p, c) for c in cols)
        if kind == "jester":
            return tuple(JesterTo(p, c) for c in self.occupied())
        if kind == "peek_target":
            return tuple(PeekAt(p, t) for t in self._peek_targets(p))
        if kind == "unicorn_discard":
            row = _outcomes(Discard, p)
            hand = self.hands[p]
            return tuple(row[i] for i, c in enumerate(CHARACTERS) if c in hand)
        raise AssertionError(kind)  # pragma: no cover

    def _why_illegal(self, action):
        cp = self.current_player()
        if cp < 0:
            return None
        if getattr(action, "player", cp) != cp:
            return f"it is {_name(cp)}'s decision now, not {_name(action.player)}'s."
        if self.phase == "choose":
            if isinstance(action, Choose):
                return (f"You can only choose a card from your hand; you hold no "
                        f"{self.game.label(action.card)}.")
            return "Now everyone chooses one hand card face down."
        kind = self.pending[0]
        need = {"knight": "Your Knight may remove one Dragon from the display, or not.",
                "mage": "Your Mage may remove any one card from the display, or nothing.",
                "jester": "Your Jester must go into a column that already holds cards.",
                "peek_target": "Your Fortune Teller looks at a hand card of another player.",
                "unicorn_discard": "After the Unicorn's draw you discard one of your hand cards."}
        if kind == "mage" and isinstance(action, MageRemove) and action.column is not None:
            return "The Mage can only remove a card from a column that holds cards."
        return need.get(kind)

    # ---- chance ---------------------------------------------------------------
    def _draw_source(self) -> tuple:
        """The pile to draw from (the discards reshuffled, if the pile is empty)."""
        src = self.pile if self.pile_size > 0 else self.discard
        if src is HIDDEN or HIDDEN in src:
            raise ValueError("in a player's view the draw pile is hidden, so a draw has no "
                             "listed chances here; ask the full state (or, for one player's "
                             "estimate, kingdoms.ten_characters.odds.unicorn_draw_odds)")
        return src

    def _draws(self, cls, p):
        src = self._draw_source()
        fr = _fractions(sum(src))
        return tuple((o, fr[k]) for o, k in zip(_outcomes(cls, p), src) if k)

    def _sample_chance(self, rng):
        # the same distribution as the listed outcomes, without float(Fraction) per outcome
        if self.phase == "deal" or self.pending[0] == "unicorn_draw":
            src = self._draw_source()
            cls, p = ((DealCard, self._deal_to()) if self.phase == "deal"
                      else (UnicornDraw, self.pending[1][0]))
            x = rng.random() * sum(src)
            acc = 0
            row = _outcomes(cls, p)
            for i, k in enumerate(src):
                acc += k
                if k and x < acc:
                    return row[i]
            return row[max(i for i, k in enumerate(src) if k)]
        return super()._sample_chance(rng)

    def _chance_outcomes(self):
        if self.phase == "deal":
            return self._draws(DealCard, self._deal_to())
        kind = self.pending[0]
        if kind == "unicorn_draw":
            return self._draws(UnicornDraw, self.pending[1][0])
        if kind == "peek_card":
            _, p, t = self.pending
            hand = self.hands[t]
            return tuple((PeekCard(p, t, c), Fraction(hand.count(c), len(hand)))
                         for c in sorted(set(hand)))
        raise AssertionError(kind)  # pragma: no cover

    def _deal_to(self) -> int:
        hand = self.game.hand
        for p, h in enumerate(self.hands):
            if len(h) < hand:
                return p
        raise AssertionError("nobody to deal to")  # pragma: no cover

    def _drawn(self, card: str) -> dict:
        """Fields after taking ``card`` from the draw pile (reshuffling if it was empty)."""
        pile, discard = self.pile, self.discard
        if self.pile_size == 0:
            pile, discard = discard, (0,) * len(CHARACTERS)
        pile = _bump(pile, CI[card], -1)
        return {"pile": pile, "pile_size": sum(pile), "discard": discard}

    # ---- the position after an action ------------------------------------------
    def _next(self, a):
        if isinstance(a, DealCard):
            hands = _set(self.hands, a.player, _give(self.hands[a.player], a.card))
            phase = "choose" if all(len(h) == self.game.hand for h in hands) else "deal"
            return replace(self, hands=hands, phase=phase, **self._drawn(a.card))
        if isinstance(a, Choose):
            chosen = _set(self.chosen, a.player, a.card)
            hands = _set(self.hands, a.player, _take(self.hands[a.player], a.card))
            s = replace(self, chosen=chosen, hands=hands)
            if None in chosen:
                return s
            return s._reveal()
        kind = self.pending[0]
        if isinstance(a, KnightRemove):
            s = replace(self, pending=())
            if a.remove:
                s = s._remove("dragon")
            return s._resolve()
        if isinstance(a, MageRemove):
            s = replace(self, pending=())
            if a.column is not None:
                s = s._remove(a.column)
            return s._resolve()
        if isinstance(a, JesterTo):
            i = COL[a.column]
            return replace(self, pending=(), jesters=_bump(self.jesters, i, 1))._resolve()
        if isinstance(a, PeekAt):
            return replace(self, pending=("peek_card", a.player, a.target))
        if isinstance(a, PeekCard):
            known = self.known
            row = known[a.player]
            k = row[a.target]
            if a.card not in k:
                k = _give(k, a.card)
            known = _set(known, a.player, _set(row, a.target, k))
            return replace(self, pending=(), known=known)._resolve()
        if isinstance(a, UnicornDraw):
            hands = _set(self.hands, a.player, _give(self.hands[a.player], a.card))
            rest = self.pending[1][1:]
            s = replace(self, hands=hands, **self._drawn(a.card))
            if rest:
                return replace(s, pending=("unicorn_draw", rest, self.pending[2]))
            return replace(s, pending=("unicorn_discard", self.pending[2]))
        if isinstance(a, Discard):
            discarding = _set(self.discarding, a.player, a.card)
            hands = _set(self.hands, a.player, _take(self.hands[a.player], a.card))
            s = replace(self, discarding=discarding, hands=hands)
            if any(discarding[p] is None for p in self.pending[1]):
                return s
            # all Unicorn discards are revealed together
            discard, known = s.discard, s.known
            for p in self.pending[1]:
                discard = _bump(discard, CI[discarding[p]], 1)
                known = _forget(known, p, discarding[p])
            return replace(s, discard=discard, known=known, pending=(),
                           discarding=(None,) * self.game.players)._resolve()
        raise AssertionError(f"unexpected {a!r} in {kind}")  # pragma: no cover

    # ---- the reveal and the resolution ------------------------------------------
    def _tie_rank(self, p: int, pass_no: int, turn: int) -> int:
        n = self.game.players
        if self.game.equal_order == "rotating":
            start = ((pass_no - 1) * self.game.turns_per_pass + turn - 1) % n
            return (p - start) % n
        return p

    def _ordered(self, cards, pass_no: int, turn: int) -> tuple:
        """``cards`` (one per player) as ``((player, card), ...)`` in display order."""
        ini = self.game.initiative
        out = [(p, c) for p, c in enumerate(cards)]
        out.sort(key=lambda pc: (ini[CI[pc[1]]], self._tie_rank(pc[0], pass_no, turn)))
        return tuple(out)

    def _revealed_in(self) -> tuple:
        """``(pass, turn)`` of the latest reveal (``revealed``)."""
        if self.phase == "effect":
            return self.pass_no, self.turn
        if self.phase == "choose" and self.turn > 1:
            return self.pass_no, self.turn - 1
        if self.phase == "over":
            return self.pass_no, self.game.turns_per_pass
        # dealing, or the first choice of a pass: the last turn of the previous pass
        return self.pass_no - 1, self.game.turns_per_pass

    def resolution_order(self) -> tuple:
        """The cards revealed in the latest turn, ``((player, card), ...)`` in the order
        they go into the display (before the first reveal: ``()``)."""
        if any(c is None for c in self.revealed):
            return ()
        return self._ordered(self.revealed, *self._revealed_in())

    def _reveal(self):
        known = self.known
        for p, c in enumerate(self.chosen):
            known = _forget(known, p, c)
        order = self._ordered(self.chosen, self.pass_no, self.turn)
        s = replace(self, revealed=self.chosen, queue=order, known=known,
                    chosen=(None,) * self.game.players, phase="effect")
        return s._resolve()

    def occupied(self) -> tuple:
        """The columns that hold at least one card."""
        return tuple(c for i, c in enumerate(COLUMNS) if self.columns[i] + self.jesters[i])

    def _peek_targets(self, p) -> tuple:
        return tuple(t for t in range(self.game.players)
                     if (t != p or self.game.ft_self) and self.hands[t])

    def _remove(self, column: str):
        """Remove one card from ``column``: a Jester lying there goes first."""
        i = COL[column]
        if self.jesters[i]:
            return replace(self, jesters=_bump(self.jesters, i, -1),
                           boxed=_bump(self.boxed, JESTER, 1))
        if not self.columns[i]:
            return self
        return replace(self, columns=_bump(self.columns, i, -1),
                       boxed=_bump(self.boxed, CI[column], 1))

    def _resolve(self):
        """Put queued cards into the display until a decision or chance event is due.

        Works on one fresh copy (``d`` is its field dictionary, not yet seen by anyone)."""
        s = replace(self)
        d = s.__dict__
        queue = d["queue"]
        while queue:
            p, card = queue[0]
            if card == "unicorn" and s.game.unicorn == "everyone":
                queue = queue[1:]
                d["queue"] = queue
                d["columns"] = _bump(d["columns"], COL["unicorn"], 1)
                available = d["pile_size"] + sum(d["discard"])
                if available == 0:
                    continue      # nothing to draw: no draw and no discard
                # everyone draws, one by one from the Unicorn's player on in seat order;
                # if the cards run out, the later players draw (and discard) nothing
                n = s.game.players
                drawers = tuple((p + i) % n for i in range(n))[:available]
                d["pending"] = ("unicorn_draw", drawers, drawers)
                return s
            if card == "unicorn":
                group = []
                while queue and queue[0][1] == "unicorn":
                    group.append(queue[0][0])
                    queue = queue[1:]
                d["queue"] = queue
                d["columns"] = _bump(d["columns"], COL["unicorn"], len(group))
                available = d["pile_size"] + sum(d["discard"])
                if available == 0:
                    continue      # nothing to draw: no draw and no discard
                # draws one by one; if the cards run out, later Unicorns draw nothing
                drawers = tuple(group[:available])
                d["pending"] = ("unicorn_draw", drawers, drawers)
                return s
            queue = queue[1:]
            d["queue"] = queue
            if card == "jester":
                occ = s.occupied()
                if not occ:
                    d["boxed"] = _bump(d["boxed"], JESTER, 1)
                elif len(occ) == 1:
                    d["jesters"] = _bump(d["jesters"], COL[occ[0]], 1)
                else:
                    d["pending"] = ("jester", p)
                    return s
                continue
            d["columns"] = _bump(d["columns"], COL[card], 1)
            if card == "knight":
                i = COL["dragon"]
                if d["columns"][i] + d["jesters"][i]:
                    d["pending"] = ("knight", p)
                    return s
            elif card == "mage":
                d["pending"] = ("mage", p)
                return s
            elif card == "fortune_teller":
                targets = s._peek_targets(p)
                if len(targets) == 1:
                    d["pending"] = ("peek_card", p, targets[0])
                    return s
                if targets:
                    d["pending"] = ("peek_target", p)
                    return s
        return s._end_turn()

    def _end_turn(self):
        g = self.game
        if any(len(h) > g.scoring_cards for h in self.hands):
            return replace(self, phase="choose", turn=self.turn + 1, pending=(), queue=())
        # the pass ends: the remaining hand cards are the scoring cards
        sheet = g.score(self.display_counts(), self.hands)
        boxed = self.boxed
        for h in self.hands:
            for c in h:
                boxed = _bump(boxed, CI[c], 1)
        n = g.players
        s = replace(self, points=tuple(a + b for a, b in zip(self.points, sheet.totals)),
                    scoring_log=self.scoring_log + ((self.pass_no, self.hands, sheet.totals),),
                    boxed=boxed, hands=((),) * n, known=tuple(((),) * n for _ in range(n)),
                    pending=(), queue=())
        if self.pass_no >= g.passes:
            return replace(s, phase="over")
        return replace(s, phase="deal", pass_no=self.pass_no + 1, turn=1)

    # ---- results ------------------------------------------------------------------
    def _returns(self):
        best = max(self.points)
        winners = [p for p, x in enumerate(self.points) if x == best]
        return tuple(Fraction(1, len(winners)) if p in winners else Fraction(0)
                     for p in range(self.game.players))

    def scores(self):
        return self.points

    # ---- questions about the position ------------------------------------------------
    def display_counts(self) -> dict:
        """Column lengths (Jesters included), as ``{character: cards}`` over the nine columns."""
        return {c: self.columns[i] + self.jesters[i] for i, c in enumerate(COLUMNS)}

    def score_sheet(self, scoring_cards=None):
        """What the current hands (or given scoring cards) would score on the display now."""
        cards = self.hands if scoring_cards is None else scoring_cards
        return self.game.score(self.display_counts(), cards)

    def card_count(self) -> int:
        """Every card accounted for (omniscient state only): should always be 100."""
        return (sum(self.pile) + sum(self.discard) + sum(self.boxed) + sum(self.columns)
                + sum(self.jesters) + sum(len(h) for h in self.hands)
                + sum(1 for c in self.chosen if c is not None)
                + sum(1 for _ in self.queue)
                + (1 if self.pending and self.pending[0] == "jester" else 0)   # in hand, about to go in
                + sum(1 for c in self.discarding if c is not None))

    # ---- hidden information ------------------------------------------------------------
    def view(self, player: int) -> "TenCharactersState":
        """What ``player`` (0..players-1) may see: other hands, face-down choices and
        discards, the draw pile and others' Fortune Teller knowledge are hidden."""
        n = self.game.players
        if not (isinstance(player, int) and not isinstance(player, bool) and 0 <= player < n):
            raise ValueError(f"view(player): player must be a seat 0-{n - 1} "
                             f"({', '.join(self.game.player_name(q) for q in range(n))}), "
                             f"not {safe_repr(player)}")
        hands = tuple(h if p == player else (HIDDEN,) * len(h) for p, h in enumerate(self.hands))
        chosen = tuple(c if p == player or c is None else HIDDEN for p, c in enumerate(self.chosen))
        disc = tuple(c if p == player or c is None else HIDDEN
                     for p, c in enumerate(self.discarding))
        # What a Fortune Teller saw is known to the looker and the target only; a
        # bystander learns nothing, not even how many cards (it would show when the
        # card is played).
        known = tuple(tuple(k if player in (v, t) else () for t, k in enumerate(row))
                      for v, row in enumerate(self.known))
        discard = self.discard
        if not self.game.discards_public and HIDDEN not in discard and sum(discard):
            discard = (HIDDEN,) * len(CHARACTERS)       # (a view's is hidden already)
        return replace(self, hands=hands, chosen=chosen, discarding=disc, known=known,
                       pile=HIDDEN, discard=discard)

    def is_view(self) -> bool:
        return self.pile is HIDDEN

    def sample_world(self, player: int, rng):
        from .worlds import sample_world
        return sample_world(self, player, rng)

    # ---- rendering -----------------------------------------------------------------------
    def short(self) -> str:
        from .render import short
        return short(self)

    def __str__(self):
        from .render import text
        return text(self)

    def _repr_html_(self):
        from .render import html
        return html(self)
