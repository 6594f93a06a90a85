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

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from operator import add
from types import MappingProxyType
from typing import ClassVar, Mapping

from kingdoms.core.cache import speed_cache
from kingdoms.core.data import DataError
from kingdoms.core.i18n import N_, _, language
from kingdoms.core.scoring import best_players, win_shares, with_margins
from kingdoms.core.protocol import (player_label, CHANCE, HIDDEN, TERMINAL, Action, Game,
                                    GameOptionError, State, replace, safe_repr)

from . import scoring as _scoring
from .components import RANGES, Components
from .scoring import CHARACTERS, COLUMNS, LABELS

__all__ = ["TenCharacters", "TenCharactersState", "DealCard", "Choose", "KnightRemove",
           "MageRemove", "JesterTo", "PeekAt", "PeekCard", "UnicornDraw", "Discard",
           "Dealing", "Choosing", "GameOver", "Effect", "KnightMayRemove", "MageMayRemove",
           "JesterJoins", "FortuneTellerPicks", "FortuneTellerSees", "UnicornDraws",
           "UnicornDiscards", "CHARACTERS", "COLUMNS", "LABELS"]

CI = {c: i for i, c in enumerate(CHARACTERS)}     # character -> index in count tuples
COL = {c: i for i, c in enumerate(COLUMNS)}       # column character -> column index
JESTER = CI["jester"]


_name = player_label            # "Player 1": Ten Characters has no player names


_NAMES: dict = {}


def character_name(card: str) -> str:
    """A character's name for people in the current language (``LABELS`` in English,
    the data file's ``name_de`` in German; texts that do not carry the game, such as
    actions, read the box's data file, ``TenCharacters.label`` the game's own)."""
    code = language()
    if code == "en":
        return LABELS[card]
    names = _NAMES.get(code)
    if names is None:
        names = _NAMES[code] = TenCharacters().game_data().names(code)
    return names.get(card, LABELS[card])


def _label(card) -> str:
    if card is HIDDEN:
        return _("a card")
    if isinstance(card, str) and card in LABELS:
        return _("the {character}").format(character=character_name(card))
    return _("{what} (not a character)").format(what=safe_repr(card))


def _column_label(column) -> str:
    if isinstance(column, str) and column in LABELS:
        return character_name(column)
    return _("{what} (not a column)").format(what=safe_repr(column))


# =========================================================================== options

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


# =========================================================================== actions

@dataclass(frozen=True)
class DealCard(Action):
    """Chance: ``player`` is dealt ``card`` from the draw pile (seen only by that player)."""
    player: int
    card: str

    def __str__(self):
        return _("deal {card} to {player}").format(card=_label(self.card),
                                                    player=_name(self.player))

    def seen_by(self, player):
        return self if player == self.player else DealCard(self.player, HIDDEN)


@dataclass(frozen=True)
class Choose(Action):
    """``player`` chooses a hand card face down."""
    player: int
    card: str

    def __str__(self):
        return _("{player} chooses {card} face down").format(player=_name(self.player),
                                                             card=_label(self.card))

    def seen_by(self, player):
        return self if player == self.player else Choose(self.player, HIDDEN)


@dataclass(frozen=True)
class KnightRemove(Action):
    """The Knight's optional effect: remove one Dragon (``remove``) or not."""
    player: int
    remove: bool

    def __str__(self):
        if self.remove is True:
            return _("{player}'s Knight removes a Dragon").format(player=_name(self.player))
        if self.remove is False:
            return _("{player}'s Knight leaves the Dragons alone").format(
                player=_name(self.player))
        return _("{player}'s Knight: remove={what} (not True or False)").format(
            player=_name(self.player), what=safe_repr(self.remove))


@dataclass(frozen=True)
class MageRemove(Action):
    """The Mage's optional effect: remove one card from ``column`` (``None``: nothing)."""
    player: int
    column: str | None

    def __str__(self):
        if self.column is None:
            return _("{player}'s Mage removes nothing").format(player=_name(self.player))
        return _("{player}'s Mage removes a card from the {column} column").format(
            player=_name(self.player), column=_column_label(self.column))


@dataclass(frozen=True)
class JesterTo(Action):
    """The Jester joins the occupied column ``column`` and counts as that character."""
    player: int
    column: str

    def __str__(self):
        return _("{player}'s Jester joins the {column} column").format(
            player=_name(self.player), column=_column_label(self.column))


@dataclass(frozen=True)
class PeekAt(Action):
    """The Fortune Teller's player picks whose hand to look into."""
    player: int
    target: int

    def __str__(self):
        return _("{player}'s Fortune Teller looks into {target}'s hand").format(
            player=_name(self.player), target=_name(self.target))


@dataclass(frozen=True)
class PeekCard(Action):
    """Chance: the card the Fortune Teller sees (seen by the looker and the target)."""
    player: int
    target: int
    card: str

    def __str__(self):
        return _("{player} sees {card} in {target}'s hand").format(
            player=_name(self.player), card=_label(self.card), target=_name(self.target))

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
        return _("{player} draws {card} (Unicorn)").format(player=_name(self.player),
                                                           card=_label(self.card))

    def seen_by(self, player):
        return self if player == self.player else UnicornDraw(self.player, HIDDEN)


@dataclass(frozen=True)
class Discard(Action):
    """After a Unicorn's draw: ``player`` discards a hand card (face down until all have
    chosen)."""
    player: int
    card: str

    def __str__(self):
        return _("{player} discards {card} (Unicorn)").format(player=_name(self.player),
                                                              card=_label(self.card))

    def seen_by(self, player):
        return self if player == self.player else Discard(self.player, HIDDEN)


# =========================================================================== turn steps
# What the position waits for: one frozen value per kind of step, in ``state.step``.
# A pass: ``Dealing`` (chance, card by card), then turns of ``Choosing`` (everyone
# picks a card face down); the revealed cards go in and each immediate effect that
# needs a decision or a draw is an ``Effect`` step; after the last pass ``GameOver``.

@dataclass(frozen=True)
class Dealing:
    """Chance: the next card of the pass's deal goes to the first hand not yet full."""


@dataclass(frozen=True)
class Choosing:
    """Everyone chooses a hand card face down (asked in seat order, revealed together)."""


@dataclass(frozen=True)
class GameOver:
    """The last pass is scored."""


@dataclass(frozen=True)
class Effect:
    """A revealed card's immediate effect waits for a decision or a draw.  ``rule``:
    what the rules allow the deciding player (for ``_why_illegal``)."""

    rule: ClassVar[str | None] = None


@dataclass(frozen=True)
class KnightMayRemove(Effect):
    """``player``'s Knight went in while a Dragon lies in the display."""
    player: int
    rule: ClassVar[str] = N_("Your Knight may remove one Dragon from the display, or not.")


@dataclass(frozen=True)
class MageMayRemove(Effect):
    """``player``'s Mage went in."""
    player: int
    rule: ClassVar[str] = N_("Your Mage may remove any one card from the display, or nothing.")


@dataclass(frozen=True)
class JesterJoins(Effect):
    """``player``'s Jester goes in while two or more columns hold cards (still in hand:
    with one occupied column, or none, it goes in without a decision)."""
    player: int
    rule: ClassVar[str] = N_("Your Jester must go into a column that already holds cards.")


@dataclass(frozen=True)
class FortuneTellerPicks(Effect):
    """``player``'s Fortune Teller went in; two or more hands to look into."""
    player: int
    rule: ClassVar[str] = N_("Your Fortune Teller looks at a hand card of another player.")


@dataclass(frozen=True)
class FortuneTellerSees(Effect):
    """Chance: the card of ``target``'s hand ``player``'s Fortune Teller sees."""
    player: int
    target: int


@dataclass(frozen=True)
class UnicornDraws(Effect):
    """Chance: after a Unicorn the ``drawers`` still draw, one by one in this order;
    then the ``discarders`` (everyone who draws this time) discard."""
    drawers: tuple
    discarders: tuple


@dataclass(frozen=True)
class UnicornDiscards(Effect):
    """After a Unicorn's draw, ``players`` each discard a hand card face down."""
    players: tuple
    rule: ClassVar[str] = N_("After the Unicorn's draw you discard one of your hand cards.")


DEALING, CHOOSING, GAME_OVER = Dealing(), Choosing(), GameOver()


# =========================================================================== the game

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
            raise GameOptionError(_("{game}: unicorn must be one of {readings}, not {what}")
                                  .format(game=self.component_name(self.title),
                                          readings=", ".join(map(repr, UNICORN_READINGS)),
                                          what=safe_repr(self.unicorn)))
        comps = Components.from_data(self.game_data())
        lo, hi = comps.min_players, comps.max_players
        if not lo <= self.players <= hi:
            raise GameOptionError(_("this copy of the data allows {low}-{high} players; "
                                    "players={players} is not allowed").format(
                low=lo, high=hi, players=self.players))
        hand = comps.hand_for(self.players)
        need = comps.passes * self.players * hand
        if sum(comps.copies) < need:
            raise DataError(_("{origin}: 'characters.copies' give {cards} cards, but {passes} "
                              "passes of {players} hands of {hand} need {need}").format(
                origin=comps.data.origin, cards=sum(comps.copies), passes=comps.passes,
                players=self.players, hand=hand, need=need))
        object.__setattr__(self, "components", comps)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "turns_per_pass", hand - comps.scoring_cards)

    # the components' values, as the game's (one source: ``self.components``)
    passes = property(lambda self: self.components.passes, doc="passes in a game")
    scoring_cards = property(lambda self: self.components.scoring_cards,
                             doc="hand cards left for scoring at the end of a pass")
    equal_order = property(lambda self: self.components.equal_order)
    discards_public = property(lambda self: self.components.discards_public)
    ft_self = property(lambda self: self.components.ft_self)
    mage_own = property(lambda self: self.components.mage_own)
    copies = property(lambda self: self.components.copies, doc="copies per character")
    initiative = property(lambda self: self.components.initiative,
                          doc="initiative per character (0: none)")
    points = property(lambda self: self.components.points,
                      doc="{character: the number in its scoring rule}")

    @property
    def labels(self) -> Mapping:
        """``{character: its name for people}`` in the current language: the data
        file's ``label`` in English, its ``name_de`` in German (the English label where
        the file gives none)."""
        code = language()
        if code == "en":
            return self.components.labels
        names = self.game_data().names(code)
        return MappingProxyType({c: names.get(c, label)
                                 for c, label in self.components.labels.items()})

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

    # -- data -----------------------------------------------------------------

    def label(self, card) -> str:
        if card is HIDDEN:
            return "?"
        labels = self.labels
        if isinstance(card, str) and card in labels:
            return labels[card]
        return _("{what} (not a character)").format(what=safe_repr(card))

    def scoring_text(self, character: str) -> str:
        """The character's scoring line from the data file, in the current language
        (``scoring_de`` in German; the English ``scoring`` where the file gives no
        German one)."""
        texts = self.components.scorings.get(character)
        if texts is None:
            raise ValueError(_("{what} is not a character of {game}").format(
                what=safe_repr(character), game=self.component_name(self.title)))
        said = texts.get(language()) or texts.get("en")
        return said if said is not None else _("(the data file gives no scoring line)")

    # -- start ----------------------------------------------------------------
    def objectives(self) -> dict:
        """What a solver or tree may maximise (``kingdoms.core.solve``): the share of
        the win, each player's points, and with two players the points margin."""
        return {**super().objectives(),
                **with_margins(self.players, {"points": lambda s: tuple(s.points)})}

    def initial_state(self) -> "TenCharactersState":
        n = self.players
        z9 = (0,) * len(COLUMNS)
        return TenCharactersState(
            self, step=DEALING, pass_no=1, turn=1,
            hands=((),) * n, pile=self.copies, pile_size=sum(self.copies),
            discard=(0,) * len(CHARACTERS), boxed=(0,) * len(CHARACTERS),
            columns=z9, jesters=z9, chosen=(None,) * n, revealed=(None,) * n,
            queue=(), discarding=(None,) * n,
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
            raise ValueError(_("need {n} hands, got {got}").format(n=n, got=len(hands)))
        hands = tuple(tuple(sorted(h)) for h in hands)
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or not (self.scoring_cards < sizes.pop() <= self.hand):
            raise ValueError(_("all hands must hold the same number of cards, more than "
                               "{low} and at most {high}").format(low=self.scoring_cards,
                                                                 high=self.hand))
        for name, d in (("display", display), ("jesters", jesters)):
            if d and set(d) - set(COLUMNS):
                raise ValueError(_("{name}: no column for {what}").format(
                    name=name, what=sorted(set(d) - set(COLUMNS))))
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
            raise ValueError(_("more cards of {characters} than the game has").format(
                characters=", ".join(bad)))
        turn = self.hand - len(hands[0]) + 1
        start = self.initial_state()
        return replace(start, step=CHOOSING, pass_no=pass_no, turn=turn, hands=hands,
                       pile=pile, pile_size=sum(pile), discard=disc, boxed=box,
                       columns=columns, jesters=jest,
                       points=tuple(points) if points is not None else start.points)

    def score(self, counts, scoring_cards):
        """The score sheet for a display and everyone's scoring cards (data's points)."""
        return _scoring.score_pass(counts, scoring_cards, self.points)


# =========================================================================== helpers

@speed_cache(maxsize=512)
def _fractions(total: int) -> tuple:
    """``(Fraction(0, total), Fraction(1, total), ...)``, built once per total."""
    return tuple(Fraction(k, total) for k in range(total + 1))


@speed_cache(maxsize=256)
def _outcomes(cls, player: int) -> tuple:
    """``cls(player, card)`` for the ten characters, built once per kind and player."""
    return tuple(cls(player, c) for c in CHARACTERS)


@speed_cache(maxsize=256)
def _peeks(player: int, target: int) -> tuple:
    """``PeekCard(player, target, card)`` for the ten characters (public keys)."""
    return tuple(PeekCard(player, target, c) for c in CHARACTERS)


@speed_cache(maxsize=4096)
def _made(cls, *args):
    """``cls(*args)``, made once: the effects' options and steps are immutable values,
    and every key (a kind, players, columns) is public."""
    return cls(*args)


@speed_cache(maxsize=4096)
def _options(cls, p: int, choices: tuple) -> tuple:
    """``(cls(p, c) for c in choices)``, made once (public keys)."""
    return tuple(cls(p, c) for c in choices)


_HIDDEN_ONE = (HIDDEN,)


def _take(hand: tuple, card: str) -> tuple:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _give(hand: tuple, card: str) -> tuple:
    """The sorted ``hand`` with ``card`` put in its place (after equal cards)."""
    i = bisect_right(hand, card)
    return hand[:i] + (card,) + hand[i:]


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

    step: object            # what the position waits for: a turn step (see above)
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
    discarding: tuple       # Unicorn discards chosen face down (None = not chosen)
    known: tuple            # known[v][t]: cards v has seen (Fortune Teller) still in t's hand
    points: tuple           # points per player so far
    scoring_log: tuple      # ((pass, scoring cards per player, points per player), ...)

    # ---- who acts -------------------------------------------------------------
    def _current_player(self):
        match self.step:
            case Choosing():
                return self.chosen.index(None)
            case Dealing() | FortuneTellerSees() | UnicornDraws():
                return CHANCE
            case GameOver():
                return TERMINAL
            case UnicornDiscards(players):
                # the next Unicorn discarder who has not chosen a discard
                for p in players:
                    if self.discarding[p] is None:
                        return p
                raise AssertionError("no discard pending")  # pragma: no cover
            case step:
                return step.player

    # ---- decisions ------------------------------------------------------------
    def _legal_actions(self):
        p = self.current_player()
        match self.step:
            case Choosing():
                return self._hand_actions(Choose, p)
            case KnightMayRemove():
                return _options(KnightRemove, p, (True, False))
            case MageMayRemove():
                cols = tuple(c for i, c in enumerate(COLUMNS)
                             if self.columns[i] + self.jesters[i] > 0
                             and (self.game.components.mage_own or c != "mage"))
                return _options(MageRemove, p, (None,) + cols)
            case JesterJoins():
                return _options(JesterTo, p, self.occupied())
            case FortuneTellerPicks():
                return _options(PeekAt, p, self._peek_targets(p))
            case UnicornDiscards():
                return self._hand_actions(Discard, p)
        raise AssertionError(self.step)  # pragma: no cover

    def _hand_actions(self, cls, p) -> tuple:
        """``cls(p, card)`` for each character in ``p``'s hand, in ``CHARACTERS`` order."""
        hand = self.hands[p]
        if hand and hand[0] is HIDDEN:      # another player's view: hidden cards
            return ()
        row = _outcomes(cls, p)
        return tuple([row[i] for i in sorted({*map(CI.__getitem__, hand)})])

    def _why_illegal(self, action):
        cp = self.current_player()
        if cp < 0:
            return None
        if getattr(action, "player", cp) != cp:
            return _("it is {player}'s decision now, not {other}'s.").format(
                player=_name(cp), other=_name(action.player))
        match self.step:
            case Choosing() if isinstance(action, Choose):
                return _("You can only choose a card from your hand; you hold no "
                         "{character}.").format(character=self.game.label(action.card))
            case Choosing():
                return _("Now everyone chooses one hand card face down.")
            case MageMayRemove() if isinstance(action, MageRemove) and action.column is not None:
                return _("The Mage can only remove a card from a column that holds cards.")
            case Effect(rule=rule):
                return _(rule)
        return None

    # ---- chance ---------------------------------------------------------------
    def _draw_source(self) -> tuple:
        """The pile to draw from (the discards reshuffled, if the pile is empty)."""
        src = self.pile if self.pile_size > 0 else self.discard
        if src is HIDDEN or src[0] is HIDDEN:      # a view: (HIDDEN,) * 10 or HIDDEN
            raise ValueError(_("in a player's view the draw pile is hidden, so a draw has no "
                               "listed chances here; ask the full state (or, for one "
                               "player's estimate, kingdoms.ten_characters.odds."
                               "unicorn_draw_odds)"))
        return src

    def _draws(self, cls, p):
        src = self._draw_source()
        fr = _fractions(sum(src))
        return tuple((o, fr[k]) for o, k in zip(_outcomes(cls, p), src) if k)

    def _sample_chance(self, rng):
        # the same distribution as the listed outcomes, without float(Fraction) per outcome
        match self.step:
            case Dealing():
                cls, p = DealCard, self._deal_to()
            case UnicornDraws(drawers):
                cls, p = UnicornDraw, drawers[0]
            case _:
                return super()._sample_chance(rng)
        src = self._draw_source()
        acc = tuple(accumulate(src))
        # the first card whose running total exceeds x (a count of 0 never does)
        i = bisect_right(acc, rng.random() * acc[-1])
        row = _outcomes(cls, p)
        if i < len(acc):
            return row[i]
        return row[max(i for i, k in enumerate(src) if k)]

    def _chance_outcomes(self):
        match self.step:
            case Dealing():
                return self._draws(DealCard, self._deal_to())
            case UnicornDraws(drawers):
                return self._draws(UnicornDraw, drawers[0])
            case FortuneTellerSees(p, t):
                hand = self.hands[t]
                fr, row = _fractions(len(hand)), _peeks(p, t)
                return tuple((row[CI[c]], fr[hand.count(c)]) for c in sorted(set(hand)))
        raise AssertionError(self.step)  # pragma: no cover

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
        match a:
            case DealCard(p, card):
                return self._dealt(p, card)
            case Choose(p, card):
                chosen = _set(self.chosen, p, card)
                hands = _set(self.hands, p, _take(self.hands[p], card))
                if None in chosen:
                    return replace(self, chosen=chosen, hands=hands)
                return self._reveal(chosen, hands)
            case KnightRemove(_, remove):
                return self._resolve(**(self._removal("dragon") if remove else {}))
            case MageRemove(_, column):
                return self._resolve(**(self._removal(column) if column is not None else {}))
            case JesterTo(_, column):
                return self._resolve(jesters=_bump(self.jesters, COL[column], 1))
            case PeekAt(p, t):
                return replace(self, step=_made(FortuneTellerSees, p, t))
            case PeekCard():
                return self._peeked(a)
            case UnicornDraw():
                return self._unicorn_drawn(a)
            case Discard():
                return self._discarded(a)
        raise AssertionError(f"unexpected {a!r} at {self.step}")  # pragma: no cover

    def _dealt(self, p: int, card: str):
        """The deal: ``card`` goes from the draw pile into ``p``'s hand; the turns
        begin when every hand is full."""
        hand = _give(self.hands[p], card)
        hands = _set(self.hands, p, hand)
        full = self.game.hand
        step = CHOOSING if len(hand) == full and all(len(h) == full for h in hands) else DEALING
        if self.pile_size == 0:         # the discards are reshuffled (``_drawn``)
            return replace(self, hands=hands, step=step, **self._drawn(card))
        return replace(self, hands=hands, step=step, pile=_bump(self.pile, CI[card], -1),
                       pile_size=self.pile_size - 1)

    def _peeked(self, a: PeekCard):
        """The Fortune Teller clause: the looker (and the target) know the card seen."""
        row = self.known[a.player]
        k = row[a.target]
        if a.card not in k:
            k = _give(k, a.card)
        known = _set(self.known, a.player, _set(row, a.target, k))
        return self._resolve(known=known)

    def _unicorn_drawn(self, a: UnicornDraw):
        """The Unicorn clause, the draw: the next drawer draws; after the last, the
        drawers discard."""
        step = self.step
        hands = _set(self.hands, a.player, _give(self.hands[a.player], a.card))
        rest = step.drawers[1:]
        step = UnicornDraws(rest, step.discarders) if rest else UnicornDiscards(step.discarders)
        return replace(self, hands=hands, step=step, **self._drawn(a.card))

    def _discarded(self, a: Discard):
        """The Unicorn clause, the discard: chosen face down, revealed together."""
        players = self.step.players
        discarding = _set(self.discarding, a.player, a.card)
        hands = _set(self.hands, a.player, _take(self.hands[a.player], a.card))
        if any(discarding[p] is None for p in players):
            return replace(self, discarding=discarding, hands=hands)
        discard, known = self.discard, self.known
        for p in players:
            discard = _bump(discard, CI[discarding[p]], 1)
            known = _forget(known, p, discarding[p])
        return self._resolve(hands=hands, discard=discard, known=known,
                             discarding=(None,) * self.game.players)

    # ---- the reveal and the resolution ------------------------------------------
    def _tie_rank(self, p: int, pass_no: int, turn: int) -> int:
        n = self.game.players
        if self.game.equal_order == "rotating":
            start = ((pass_no - 1) * self.game.turns_per_pass + turn - 1) % n
            return (p - start) % n
        return p

    def _ordered(self, cards, pass_no: int, turn: int) -> tuple:
        """``cards`` (one per player) as ``((player, card), ...)`` in display order."""
        ini = self.game.components.initiative
        out = [(ini[CI[c]], p, c) for p, c in enumerate(cards)]
        if self.game.components.equal_order == "seat":
            out.sort()                      # by initiative, then seat
        else:
            out.sort(key=lambda ipc: (ipc[0], self._tie_rank(ipc[1], pass_no, turn)))
        return tuple([(p, c) for _, p, c in out])

    def _revealed_in(self) -> tuple:
        """``(pass, turn)`` of the latest reveal (``revealed``)."""
        match self.step:
            case Effect():
                return self.pass_no, self.turn
            case Choosing() if self.turn > 1:
                return self.pass_no, self.turn - 1
            case GameOver():
                return self.pass_no, self.game.turns_per_pass
        # dealing, or the first choice of a pass: the last turn of the previous pass
        return self.pass_no - 1, self.game.turns_per_pass

    def resolution_order(self) -> tuple:
        """The cards revealed in the latest turn, ``((player, card), ...)`` in the order
        they go into the display (before the first reveal: ``()``)."""
        if any(c is None for c in self.revealed):
            return ()
        return self._ordered(self.revealed, *self._revealed_in())

    def _reveal(self, chosen: tuple, hands: tuple):
        """Everyone has chosen (``chosen``; ``hands`` without those cards): the cards
        are revealed together and go into the display in order."""
        known = self.known
        if any(map(any, known)):        # someone knows a card (Fortune Teller)
            for p, c in enumerate(chosen):
                known = _forget(known, p, c)
        order = self._ordered(chosen, self.pass_no, self.turn)
        return self._resolve(hands=hands, revealed=chosen, queue=order, known=known,
                             chosen=(None,) * self.game.players)

    def occupied(self) -> tuple:
        """The columns that hold at least one card."""
        return tuple(c for i, c in enumerate(COLUMNS) if self.columns[i] + self.jesters[i])

    def _peek_targets(self, p) -> tuple:
        return tuple(t for t in range(self.game.players)
                     if (t != p or self.game.components.ft_self) and self.hands[t])

    def _removal(self, column: str) -> dict:
        """The fields after removing one card from ``column``: a Jester lying there
        goes first."""
        i = COL[column]
        if self.jesters[i]:
            return {"jesters": _bump(self.jesters, i, -1), "boxed": _bump(self.boxed, JESTER, 1)}
        if not self.columns[i]:
            return {}
        return {"columns": _bump(self.columns, i, -1), "boxed": _bump(self.boxed, CI[column], 1)}

    def _resolve(self, **changes):
        """The position after ``changes``: queued cards go into the display until a
        decision or chance event is due (that step), else the turn ends.

        Works on one fresh copy whose field dictionary (not yet seen by anyone) the
        clauses below update in place."""
        s = replace(self, **changes)
        d = s.__dict__
        while d["queue"]:
            p, card = d["queue"][0]
            if card == "unicorn":
                step = s._unicorns_go_in()
            else:
                d["queue"] = d["queue"][1:]
                step = s._goes_in(p, card)
            if step is not None:
                d["step"] = step
                return s
        return s._end_turn()

    def _unicorns_go_in(self):
        """The Unicorn clause (on ``_resolve``'s fresh copy): the Unicorn at the head of
        the queue goes in (``unicorn="own"``: every Unicorn of this turn there); the
        draw that follows (``None``: no card left to draw, so no draw and no discard)."""
        d = self.__dict__
        queue = d["queue"]
        if self.game.unicorn == "everyone":
            # everyone draws, one by one from the Unicorn's player on in seat order
            p, n = queue[0][0], self.game.players
            order, queue, placed = tuple((p + i) % n for i in range(n)), queue[1:], 1
        else:
            order = ()
            while queue and queue[0][1] == "unicorn":
                order, queue = order + (queue[0][0],), queue[1:]
            placed = len(order)
        d["queue"] = queue
        d["columns"] = _bump(d["columns"], COL["unicorn"], placed)
        available = d["pile_size"] + sum(d["discard"])
        if available == 0:
            return None
        # if the cards run out, the later players (Unicorns) draw and discard nothing
        drawers = order[:available]
        return UnicornDraws(drawers, drawers)

    def _goes_in(self, p: int, card: str):
        """``p``'s revealed ``card`` (not a Unicorn) goes into the display (on
        ``_resolve``'s fresh copy); the effect's step, or ``None`` if it needs none."""
        d = self.__dict__
        if card == "jester":
            occ = self.occupied()
            if len(occ) > 1:
                return _made(JesterJoins, p)
            if occ:
                d["jesters"] = _bump(d["jesters"], COL[occ[0]], 1)
            else:
                d["boxed"] = _bump(d["boxed"], JESTER, 1)      # no column: into the box
            return None
        d["columns"] = _bump(d["columns"], COL[card], 1)
        if card == "knight":
            i = COL["dragon"]
            if d["columns"][i] + d["jesters"][i]:
                return _made(KnightMayRemove, p)
        elif card == "mage":
            return _made(MageMayRemove, p)
        elif card == "fortune_teller":
            targets = self._peek_targets(p)
            if len(targets) == 1:
                return _made(FortuneTellerSees, p, targets[0])
            if targets:
                return _made(FortuneTellerPicks, p)
        return None

    def _end_turn(self):
        """The turn ends (on ``_resolve``'s fresh copy): the next turn, or the pass is
        scored and the next pass dealt, or the game is over."""
        g = self.game
        d = self.__dict__
        d["queue"] = ()
        keep = g.components.scoring_cards
        if max(map(len, self.hands)) > keep:     # a hand holds more than the scoring cards
            d["step"], d["turn"] = CHOOSING, self.turn + 1
            return self
        # the pass ends: the remaining hand cards are the scoring cards (scored as
        # ``g.score`` does, numbers only)
        totals = _scoring.pass_totals(tuple(map(add, self.columns, self.jesters)), self.hands,
                                      g.components.point_values)
        boxed = self.boxed
        for h in self.hands:
            for c in h:
                boxed = _bump(boxed, CI[c], 1)
        n = g.players
        d.update(points=tuple(a + b for a, b in zip(self.points, totals)),
                 scoring_log=self.scoring_log + ((self.pass_no, self.hands, totals),),
                 boxed=boxed, hands=((),) * n, known=tuple(((),) * n for _ in range(n)))
        if self.pass_no >= g.passes:
            d["step"] = GAME_OVER
        else:
            d.update(step=DEALING, pass_no=self.pass_no + 1, turn=1)
        return self

    # ---- results ------------------------------------------------------------------
    def _returns(self):
        return win_shares(best_players(self.points), self.game.players)

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
                + isinstance(self.step, JesterJoins)      # revealed, about to go in
                + sum(1 for c in self.discarding if c is not None))

    # ---- hidden information ------------------------------------------------------------
    def view(self, player: int) -> "TenCharactersState":
        """What ``player`` (0..players-1) may see: other hands, face-down choices and
        discards, the draw pile and others' Fortune Teller knowledge are hidden.  (The
        core refuses a ``player`` out of range before this runs.)"""
        n = self.game.players
        hands = [_HIDDEN_ONE * len(h) for h in self.hands]
        hands[player] = self.hands[player]
        hands = tuple(hands)
        chosen, disc = self.chosen, self.discarding
        if chosen.count(None) < n:
            chosen = tuple(c if p == player or c is None else HIDDEN for p, c in enumerate(chosen))
        if disc.count(None) < n:
            disc = tuple(c if p == player or c is None else HIDDEN for p, c in enumerate(disc))
        # What a Fortune Teller saw is known to the looker and the target only; a
        # bystander learns nothing, not even how many cards (it would show when the
        # card is played).
        known = self.known
        if any(map(any, known)):
            known = tuple(tuple(k if player in (v, t) else () for t, k in enumerate(row))
                          for v, row in enumerate(known))
        discard = self.discard
        if not self.game.components.discards_public and HIDDEN not in discard and sum(discard):
            discard = (HIDDEN,) * len(CHARACTERS)       # (a view's is hidden already)
        return replace(self, hands=hands, chosen=chosen, discarding=disc, known=known,
                       pile=HIDDEN, discard=discard)

    def is_view(self) -> bool:
        return self.pile is HIDDEN

