"""Into the Black Forest: the rules, top to bottom.

Components
    Each player has a deck of 12 Animal cards, values 1-12 (Frog 1-3, Squirrel 4-6,
    Lynx 7-9, Owl 10-12), each card with one of four suits.  18 Encounter cards each
    carry a Right-side condition.  The suits per card and the conditions are
    assumptions of this copy (see ``data.toml``).

Setup (a round's start)
    Three Encounter cards are revealed (one chance event each), then every player
    draws cards from their own deck (one chance event per card: any remaining card is
    equally likely).  The rulebook deals hands before revealing encounters; with no
    decision in between, the order makes no difference.  The start player receives
    the Start Player Token and 1 point.

Play
    In turn (to the left = the next seat), a player puts one hand card on an open
    space of the current encounter: Bottom (2 spaces), Left (1), Top (2) or the Right
    side (face down, at most one card per player, optional).  A player with an empty
    hand is skipped (the rulebook does not say; it can only happen late in a round).
    If every hand is empty before the encounter is full (only edited data with more
    encounters or rounds than the rulebook's can do this) no rule applies: the game
    stops and ``unfinished()`` says why.
    The encounter ends as soon as Bottom, Left and Top are full.

End of an encounter
    The token goes to the player to the left of the one who played last; receiving
    it is worth 1 point (also when it comes back to its holder — an assumption,
    ``rules.token_point_when_kept`` in the data).  Then the spaces score in the order
    Bottom, Left, Top, Right:

    * Bottom: the lower card wins and scores the value of the other card;
    * Left: the card wins if its suit matches the suit of a Top card, and scores its
      own value;
    * Top: the higher card wins and scores the value of the other card;
    * Right: among the face-down cards meeting the encounter's condition, the best
      wins 6 points; cards tying for a rank cancel and the next best wins.

    Equal cards at Bottom or Top both lose.  Winning cards are discarded (kept in
    ``won``, public); every other card goes back to its owner's hand.

Rounds and the end
    Three encounters make a round.  Then three new encounters are revealed, each
    player draws the rest of their deck and discards down to 6 (one card at a time,
    hidden from the others, starting with the token holder).  After two rounds the
    most points wins; a tie goes to the most cards in hand; a tie in both is shared.

Two players
    Each player shuffles two decks together (Red+Green, Blue+Yellow), hands are 8
    cards, each round ends with drawing 8 more (all that is left in the last round)
    and discarding to 8, and the game lasts three rounds.
"""
from __future__ import annotations

from bisect import bisect, bisect_left
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import chain, product, repeat
from operator import attrgetter
from types import MappingProxyType
from typing import Any, ClassVar, Mapping

from kingdoms.core.cache import owner_cache, speed_cache
from kingdoms.core.i18n import N_, _, language, ngettext
from kingdoms.core.scoring import best_players, win_shares, with_margins
from kingdoms.core.protocol import (CHANCE, HIDDEN, TERMINAL, Action, Game, GameOptionError,
                                    State, replace, safe_repr, same_value)

from .components import RANGES, Card, Components, Condition, name, parse_condition

__all__ = ["BlackForest", "BlackForestState", "Card", "Condition", "Reveal", "Draw", "Play",
           "Discard", "Revealing", "Dealing", "Discarding", "Playing", "GameOver", "Scoring",
           "score_encounter", "right_winner", "parse_condition", "SPACES", "CAPACITY"]

SPACES = ("bottom", "left", "top", "right")
"""The four sides of an Encounter card, in scoring order (rulebook: "Bottom, Left,
Top, Right")."""
# rulebook: "two spaces at the Bottom, one on the Left, two at the Top"; the Right
# side takes one face-down card per player.
CAPACITY = MappingProxyType({"bottom": 2, "left": 1, "top": 2})
"""How many cards the Bottom, Left and Top sides take (the Right: one per player)."""
SPACE_NAMES = MappingProxyType({"bottom": N_("the Bottom"), "left": N_("the Left side"),
                                "top": N_("the Top"), "right": N_("the Right side")})
SIDE_NAMES = MappingProxyType({"bottom": N_("Bottom"), "left": N_("Left"), "top": N_("Top"),
                               "right": N_("Right")})
"""The sides' names for people (translated where shown: ``_(SIDE_NAMES[space])``)."""


class Said(str):
    """A sentence of the game's story (``BlackForestState.report``): it equals its
    English text, and ``said()`` tells it again in the current language.  ``fields``
    hold numbers, names (``Name``), cards and conditions, shown in that language."""

    def __new__(cls, message: str, **fields):
        self = str.__new__(cls, message.format(**{k: _field(v, "en") for k, v in fields.items()}))
        self.message = message
        self.fields = fields
        return self

    def __reduce__(self):
        return (_said_again, (str(self), self.message, self.fields))

    def said(self) -> str:
        if language() == "en":
            return str(self)
        return _(self.message).format(**{k: _field(v) for k, v in self.fields.items()})


def _said_again(english, message, fields):
    self = str.__new__(Said, english)
    self.message, self.fields = message, fields
    return self


class Name(str):
    """A component's (or seat's) English name inside a ``Said`` sentence."""


class Long(tuple):
    """A card shown with its animal and suit (``Card.label()``) inside a ``Said``."""


def _field(value, code=None):
    if isinstance(value, tuple) and not isinstance(value, Long):
        return ", ".join(str(_field(v, code)) for v in value)
    if code == "en":
        return value[0].label() if isinstance(value, Long) else value
    if isinstance(value, Name):
        return name(str(value))
    if isinstance(value, _Side):
        return _(str(value))
    if isinstance(value, Card):
        return value.text()
    if isinstance(value, Long):
        return value[0].text(long=True)
    if isinstance(value, Condition):
        return value.said()
    return value


def said(line) -> str:
    """A line of the report in the current language."""
    return line.said() if isinstance(line, Said) else _(line)


# --------------------------------------------------------------------------- actions

def _seat(player, who=None) -> str:
    """The player's name in action texts: ``who`` (the game's name for the seat, a deck
    colour such as "Red", set on every action the game makes), else the seat number.
    Never raises, whatever the fields hold."""
    if isinstance(who, str) and who:
        return name(who)
    if isinstance(player, int) and not isinstance(player, bool) and player >= 0:
        return _("the player in seat {number}").format(number=player + 1)
    return _("player {what}").format(what=safe_repr(player))


def _card_text(card, long: bool = False) -> str:
    if card is HIDDEN:
        return _("a card")
    if isinstance(card, Card):
        try:
            return card.text(long)
        except Exception:
            pass
    return _("{what} (not a card)").format(what=safe_repr(card))


@dataclass(frozen=True)
class Reveal(Action):
    """Chance: the next Encounter card is turned face up."""

    encounter: str

    def __str__(self):
        return _("reveal the encounter {encounter}").format(encounter=name(self.encounter))


@dataclass(frozen=True)
class Draw(Action):
    """Chance: ``player`` draws ``card`` from their deck (only they see it)."""

    player: int
    card: Any
    who: str | None = field(default=None, compare=False)    # the seat's name, for texts

    def __str__(self):
        return _("{player} draws {card}").format(player=_seat(self.player, self.who),
                                                 card=_card_text(self.card))

    def seen_by(self, player: int) -> "Draw":
        return self if player == self.player else Draw(self.player, HIDDEN, self.who)


@dataclass(frozen=True)
class Play(Action):
    """``player`` puts ``card`` on ``space`` ("bottom", "left", "top" or "right")."""

    player: int
    card: Any
    space: str
    who: str | None = field(default=None, compare=False)    # the seat's name, for texts

    def __eq__(self, other):      # the dataclass's equality, cheaper (checked on every move)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.space == other.space and self.player == other.player
                and (self.card is other.card or self.card == other.card))

    def __str__(self):
        who = _seat(self.player, self.who)
        if self.card is HIDDEN:
            return _("{player} plays a card face down on the Right side").format(player=who)
        where = (_(SPACE_NAMES[self.space]) if isinstance(self.space, str)
                 and self.space in SPACE_NAMES
                 else _("{what} (not a space)").format(what=safe_repr(self.space)))
        card = _card_text(self.card, long=True)
        if self.space == "right":
            return _("{player} plays {card} face down on {where}").format(
                player=who, card=card, where=where)
        return _("{player} plays {card} on {where}").format(player=who, card=card, where=where)

    def seen_by(self, player: int) -> "Play":
        if self.space == "right" and player != self.player:
            return Play(self.player, HIDDEN, self.space, self.who)
        return self


@dataclass(frozen=True)
class Discard(Action):
    """``player`` discards ``card`` while cutting the hand down (hidden from others)."""

    player: int
    card: Any
    who: str | None = field(default=None, compare=False)    # the seat's name, for texts

    def __eq__(self, other):      # the dataclass's equality, cheaper (checked on every move)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.player == other.player and (self.card is other.card
                                                or self.card == other.card)

    def __str__(self):
        return _("{player} discards {card}").format(player=_seat(self.player, self.who),
                                                    card=_card_text(self.card))

    def seen_by(self, player: int) -> "Discard":
        return self if player == self.player else Discard(self.player, HIDDEN, self.who)


# --------------------------------------------------------------------------- turn steps
# What the game waits for (``BlackForestState.step``): one frozen dataclass per kind of
# chance event or decision, dispatched with ``match``.  A step is part of the
# position (immutable, hashable); ``phase`` names it in one word (the old spelling).

@dataclass(frozen=True)
class Revealing:
    """Chance: the next Encounter card of the round is turned face up."""
    phase: ClassVar[str] = "reveal"


@dataclass(frozen=True)
class Dealing:
    """Chance: the first seat still drawing (``BlackForestState.dealing()``) draws a
    card from their deck."""
    phase: ClassVar[str] = "deal"


@dataclass(frozen=True)
class Discarding:
    """The first seat over the hand limit, from the token holder on, discards a card."""
    phase: ClassVar[str] = "discard"


@dataclass(frozen=True)
class Playing:
    """``to_move`` puts a hand card on a space of the current encounter."""
    phase: ClassVar[str] = "play"


@dataclass(frozen=True)
class GameOver:
    """The game has ended (by the rules, or cut short: ``unfinished()``)."""
    phase: ClassVar[str] = "over"


REVEALING, DEALING, DISCARDING, PLAYING, GAME_OVER = (
    Revealing(), Dealing(), Discarding(), Playing(), GameOver())


# --------------------------------------------------------------------------- the game

@dataclass(frozen=True)
class _Made:
    """Every action and chance outcome of one game, made once (they are immutable
    values): ``plays[p][open spaces][card]`` the Plays of that card in ``SPACES`` order
    (for every set of open spaces), ``discards[p][card]``, ``draws[p][card]`` and
    ``reveals[encounter]``.  Read-only; kept beside the game's components
    (``kingdoms.core.cache.owner_cache``), speed only.  ``by_key`` holds the same
    tables keyed by the cards' ``_key`` (a plain tuple, hashed without calling
    ``Card.__hash__``): ``(plays, discards, draws)``."""

    plays: tuple
    discards: tuple
    draws: tuple
    reveals: Mapping
    by_key: tuple = ()


def _made(c: Components) -> _Made:
    """The ready-made actions of the game with components ``c``."""
    table = owner_cache(c, "black_forest ready-made actions", 1)
    made = table.get(0)
    if made is None:
        made = table[0] = _make(c)
    return made


@speed_cache(8)
def _make(c: Components) -> _Made:
    """The ready-made actions for components equal to ``c`` (public values): a game
    unpickled in a worker process finds those of an equal game made there before."""
    names, cards = c.player_names, c.seat_cards
    plays = tuple(_all_plays(p, names[p], cards[p]) for p in range(len(cards)))
    discards = tuple(MappingProxyType({x: Discard(p, x, names[p]) for x in cards[p]})
                     for p in range(len(cards)))
    draws = tuple(MappingProxyType({x: Draw(p, x, names[p]) for x in cards[p]})
                  for p in range(len(cards)))

    def keyed(table):
        return MappingProxyType({x._key: v for x, v in table.items()})
    by_key = (tuple(MappingProxyType({s: keyed(t) for s, t in seat.items()}) for seat in plays),
              tuple(map(keyed, discards)), tuple(map(keyed, draws)))
    return _Made(plays=plays, discards=discards, draws=draws,
                 reveals=MappingProxyType({e: Reveal(e) for e in c.conditions}), by_key=by_key)


def _all_plays(player: int, who: str, cards: tuple):
    """One seat's Plays, ``plays[open spaces][card]``: the Plays of ``card`` in SPACES
    order, for every set of open spaces (made once, read-only)."""
    from itertools import combinations
    made = {}
    for k in range(1, len(SPACES) + 1):
        for spaces in combinations(SPACES, k):
            made[spaces] = MappingProxyType(
                {c: tuple(Play(player, c, s, who) for s in spaces) for c in cards})
    return MappingProxyType(made)


@dataclass(frozen=True)
class BlackForest(Game):
    """Into the Black Forest for 2-4 players.

    Options: ``data`` (path of an edited data file), ``start_player`` (seat that
    starts with the token), ``rounds`` and ``encounters_per_round`` (default: the
    rulebook's 2 rounds, 3 with two players, and 3 encounters; smaller values make
    short teaching games, e.g. ``rounds=1, encounters_per_round=1`` is a single
    encounter).
    """

    name = "black_forest"
    title = "Into the Black Forest"
    min_players = 2
    max_players = 4
    hidden_information = True      # hands, decks, face-down Right cards, discards

    players: int = 2
    data: str | None = None
    start_player: int = 0
    rounds: int | None = None
    encounters_per_round: int | None = None

    def __post_init__(self):
        super().__post_init__()
        # reading the components checks the data file now (``DataError`` names the key)
        self._check_lengths(self.components)

    @cached_property
    def components(self) -> Components:
        """The parts in the box for this player count (``Components.from_data``)."""
        return Components.from_data(self.game_data(), self.players)

    def _check_lengths(self, c: Components) -> None:
        """The options may shorten the game but not lengthen it: longer games could
        run the hands dry in the middle of an encounter, which the rules never face."""
        full = {"rounds": c.rounds, "encounters_per_round": c.encounters_per_round}
        for opt, v in (("rounds", self.n_rounds), ("encounters_per_round", self.n_encounters)):
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= full[opt]:
                raise GameOptionError(_(
                    "{game}: {option} must be a whole number from 1 to {high}, not {value}"
                ).format(game=name(self.title), option=opt, high=full[opt], value=repr(v)))
        if self.n_rounds * self.n_encounters > len(c.conditions):
            raise GameOptionError(_(
                "{game}: {rounds} rounds of {encounters} encounters need more than the "
                "{cards} encounter cards").format(
                game=name(self.title), rounds=self.n_rounds, encounters=self.n_encounters,
                cards=len(c.conditions)))
        if not (isinstance(self.start_player, int) and 0 <= self.start_player < self.players):
            raise GameOptionError(_("{game}: start_player must be a seat 0-{high}, not {value}")
                                  .format(game=name(self.title), high=self.players - 1,
                                          value=repr(self.start_player)))

    @property
    def n_rounds(self) -> int:
        """Rounds in this game (the ``rounds`` option, else the rulebook's)."""
        return self.components.rounds if self.rounds is None else self.rounds

    @property
    def n_encounters(self) -> int:
        """Encounters per round (the ``encounters_per_round`` option, else 3)."""
        c = self.components
        return c.encounters_per_round if self.encounters_per_round is None \
            else self.encounters_per_round

    # the components by name (read-only; ``game.hand_size``, ``game.conditions`` ...)
    hand_size = property(lambda self: self.components.hand_size,
                         doc="Cards in a hand (after discarding down).")
    right_points = property(lambda self: self.components.right_points,
                            doc="Points for winning the Right side.")
    token_points = property(lambda self: self.components.token_points,
                            doc="Points for receiving the start player token.")
    token_point_when_kept = property(
        lambda self: self.components.token_point_when_kept,
        doc="Whether the token scores when it comes back to its holder (assumption).")
    animals = property(lambda self: self.components.animals, doc="The animals.")
    suits = property(lambda self: self.components.suits, doc="The suits.")
    cards_of_deck = property(lambda self: self.components.cards_of_deck,
                             doc="Deck name -> its sorted cards (read-only mapping).")
    seat_cards = property(lambda self: self.components.seat_cards,
                          doc="Each seat's cards, sorted.")
    owner = property(lambda self: self.components.owner,
                     doc="Card -> the seat that plays it (read-only mapping).")
    player_names = property(lambda self: self.components.player_names,
                            doc="Each seat's decks (\"Red/Green\").")

    def player_name(self, player: int) -> str:
        """A seat's name (its decks, "Red/Green") in the current language."""
        return name(super().player_name(player))
    card_named = property(lambda self: self.components.card_named,
                          doc="\"Red 7\" -> that card (read-only mapping).")
    conditions = property(lambda self: self.components.conditions,
                          doc="Encounter -> its Right-side condition (read-only mapping).")

    # every action and chance outcome, made once (read-only; see ``_Made``)
    plays = property(lambda self: _made(self.components).plays,
                     doc="``plays[p][open spaces][card]``: the Plays of that card.")
    discards = property(lambda self: _made(self.components).discards,
                        doc="``discards[p][card]``: that Discard.")
    draws = property(lambda self: _made(self.components).draws,
                     doc="``draws[p][card]``: that Draw.")
    reveals = property(lambda self: _made(self.components).reveals,
                       doc="``reveals[encounter]``: that Reveal.")

    @classmethod
    def data_ranges(cls) -> dict[str, tuple]:
        """The data file's schema (see ``Game.data_ranges``): ``RANGES``, whose "card
        value" applies to both ends of every animal's range (``animals.*``)."""
        return {("animals.*" if k == "card value" else k): (int, lo, hi)
                for k, (lo, hi) in RANGES.items()}

    @classmethod
    def configurations(cls) -> list:
        """Every player count, plus a short teaching game (one round of one encounter)."""
        return [{"players": k} for k in range(cls.min_players, cls.max_players + 1)] + [
            {"players": 3, "rounds": 1, "encounters_per_round": 1}]

    # -- every action, numbered (kingdoms.interop.openspiel) --------------------------
    def action_universe(self) -> tuple:
        """Every action and chance outcome this game can ever produce, in a fixed order
        from the data file: the Reveals (encounters in data order), then per seat (in
        seat order) its Draws, Plays (each card on each space in ``SPACES`` order) and
        Discards, cards in each seat's sorted order."""
        out = [self.reveals[e] for e in self.conditions]
        for p, cards in enumerate(self.seat_cards):
            out += [self.draws[p][c] for c in cards]
            out += [Play(p, c, s, self.player_names[p]) for c in cards for s in SPACES]
            out += [self.discards[p][c] for c in cards]
        return tuple(out)

    def max_game_length(self) -> int:
        """A true bound on the number of actions and chance outcomes in a game: at most
        one Reveal per encounter card, and each Animal card is drawn, played and
        discarded at most once."""
        cards = sum(len(c) for c in self.seat_cards)
        return len(self.conditions) + 3 * cards

    # -- data helpers ---------------------------------------------------------
    @property
    def two_player(self) -> bool:
        return self.players == 2

    def card(self, name: "str | Card") -> Card:
        """The card called ``name`` (``"Red 7"``); raises ``ValueError`` if none."""
        if isinstance(name, Card):
            if name not in self.owner:
                raise ValueError(_("{card} is not a card of this game").format(
                    card=name.text(long=True)))
            return name
        try:
            return self.card_named[str(name).strip()]
        except KeyError:
            raise ValueError(_("no card called {name} in this game (cards look like "
                               "'Red 7'; decks: {decks})").format(
                name=repr(name), decks=", ".join(self.cards_of_deck))) from None

    def condition(self, encounter: str) -> Condition:
        return self.conditions[encounter]

    def encounter_label(self, encounter: str) -> str:
        return _("{encounter} (Right: {condition})").format(
            encounter=name(encounter), condition=self.conditions[encounter].said())

    def objectives(self) -> dict:
        """What a solver or tree may maximise (``kingdoms.core.solve``): the share of
        the win, each player's points, and with two players the points margin."""
        return {**super().objectives(),
                **with_margins(self.players, {"points": lambda s: tuple(s.points)})}

    def initial_state(self) -> "BlackForestState":
        n = self.players
        points = [0] * n
        points[self.start_player] += self.token_points
        empty = tuple(() for _ in range(n))
        return BlackForestState(
            self, step=REVEALING, round=1, played=0, upcoming=(),
            encounter_deck=tuple(sorted(self.conditions)), hands=empty,
            decks=self.seat_cards, to_draw=(self.hand_size,) * n, won=empty,
            discarded=empty, bottom=(), left=(), top=(), right=(), points=tuple(points),
            token=self.start_player, to_move=self.start_player,
            report=(Said(N_("{player} receives the start player token (+{points})."),
                         player=Name(self.player_name(self.start_player)),
                         points=self.token_points),))


# --------------------------------------------------------------------------- scoring

@dataclass(frozen=True)
class Scoring:
    """What one encounter scores: points per player, winning cards, and the story."""

    points: tuple
    winners: tuple          # ((player, card, space), ...)
    lines: tuple


def _duel(pair, lower_wins: bool, where: str, names):
    (p1, c1), (p2, c2) = pair
    if c1.value == c2.value:
        return None, Said(N_("{side}: {card} and {other} tie; both return to their hands."),
                          side=_Side(where), card=c1, other=c2)
    first = (c1.value < c2.value) == lower_wins
    (pw, cw), (_o, cl) = (pair[0], pair[1]) if first else (pair[1], pair[0])
    said = (N_("{side}: {card} is lower than {other}; {player} +{points}.") if lower_wins
            else N_("{side}: {card} is higher than {other}; {player} +{points}."))
    return (pw, cw, cl.value), Said(said, side=_Side(where), card=cw, other=cl,
                                    player=Name(names(pw)), points=cl.value)


class _Side(str):
    """A side of the Encounter card inside a ``Said`` sentence (translated there)."""


def score_encounter(game: BlackForest, encounter: str, bottom, left, top, right) -> Scoring:
    """Score a full encounter in the rulebook's order Bottom, Left, Top, Right.

    ``bottom``/``top`` hold two ``(player, card)`` pairs, ``left`` one, ``right`` any
    number (at most one per player).  Pure function: used by the rules and the odds.
    """
    names = game.player_name
    points = [0] * game.players
    winners = []
    lines = []
    # Bottom: the lowest card wins and scores the other card's value.
    won, line = _duel(bottom, True, "Bottom", names)
    lines.append(line)
    if won:
        points[won[0]] += won[2]
        winners.append((won[0], won[1], "bottom"))
    # Left: wins if its suit matches a Top card's suit; scores its own value.
    (pl, cl), = left
    top_suits = {c.suit for _, c in top}
    if cl.suit in top_suits:
        points[pl] += cl.value
        winners.append((pl, cl, "left"))
        lines.append(Said(N_("Left: {card} matches a Top suit; {player} +{points}."),
                          card=Long((cl,)), player=Name(names(pl)), points=cl.value))
    else:
        lines.append(Said(N_("Left: {card} matches no Top suit ({suits}); it returns to hand."),
                          card=Long((cl,)), suits=tuple(map(Name, sorted(top_suits)))))
    # Top: the highest card wins and scores the other card's value.
    won, line = _duel(top, False, "Top", names)
    lines.append(line)
    if won:
        points[won[0]] += won[2]
        winners.append((won[0], won[1], "top"))
    # Right: the best qualifying card; tied cards cancel, the next one wins.
    cond = game.conditions[encounter]
    if right:
        pr = right_winner(cond, right, bottom)
        shown = tuple(Long((c,)) for p, c in right)
        if pr is None:
            lines.append(Said(N_("Right ({condition}): revealed {cards}; no card wins."),
                              condition=cond, cards=shown))
        else:
            p, c = pr
            points[p] += game.right_points
            winners.append((p, c, "right"))
            lines.append(Said(N_("Right ({condition}): revealed {cards}; {card} wins; "
                              "{player} +{points}."), condition=cond, cards=shown, card=c,
                              player=Name(names(p)), points=game.right_points))
    else:
        lines.append(Said(N_("Right: nobody played there.")))
    return Scoring(tuple(points), tuple(winners), tuple(lines))


def right_winner(cond: Condition, right, bottom=()):
    """The ``(player, card)`` winning the Right side, or ``None``.

    Only cards meeting the condition's filter count; they are ranked by the
    condition; a rank held by two or more cards cancels them all and the next rank
    is tried.
    """
    bottom_sum = sum(c.value for _, c in bottom) if cond.needs_bottom() else None
    ranked: dict = {}
    for p, c in right:
        if cond.qualifies(c):
            ranked.setdefault(cond.key(c, bottom_sum), []).append((p, c))
    for k in sorted(ranked):
        if len(ranked[k]) == 1:
            return ranked[k][0]
    return None


# --------------------------------------------------------------------------- states

def _without(cards: tuple, card) -> tuple:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


_CARD_ORDER = attrgetter("_key")
"""The order of sorted cards (``Card``'s fields in turn)."""


def _with(cards: tuple, card) -> tuple:
    """The sorted ``cards`` with ``card`` put in its place."""
    try:
        i = bisect(cards, _CARD_ORDER(card), key=_CARD_ORDER)
    except AttributeError:                      # a hidden card: no order to keep
        return tuple(sorted(cards + (card,)))
    return cards[:i] + (card,) + cards[i:]


def _sorted(cards) -> tuple:
    """``cards`` in order, as a tuple."""
    try:
        return tuple(sorted(cards, key=_CARD_ORDER))
    except AttributeError:                      # hidden cards
        return tuple(sorted(cards))


def _without_card(cards: tuple, card) -> tuple:
    """The sorted ``cards`` less ``card`` (found by bisection)."""
    try:
        i = bisect_left(cards, _CARD_ORDER(card), key=_CARD_ORDER)
        if cards[i] is card or cards[i] == card:
            return cards[:i] + cards[i + 1:]
    except (AttributeError, IndexError):        # hidden cards, or not there
        pass
    return _without(cards, card)


@speed_cache(256)
def _one_in(n: int) -> Fraction:
    """The chance of each of ``n`` equally likely outcomes."""
    return Fraction(1, n)


@speed_cache(256)
def _running_totals(n: int) -> tuple:
    """1/n, 2/n, ... as ``State._sample_chance`` adds them up (in floats)."""
    p = _one_in(n)
    acc, totals = 0.0, []
    for _ in range(n):
        acc += p.numerator / p.denominator
        totals.append(acc)
    return tuple(totals)


def _pick_one(items: tuple, rng):
    """The item ``State._sample_chance`` draws when all ``items`` are equally likely
    (the first whose running total exceeds ``rng.random()``), without listing them."""
    i = bisect(_running_totals(len(items)), rng.random())
    return items[min(i, len(items) - 1)]


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _spaces_open(bottom: int, left: int, top: int, right_played: bool) -> tuple:
    """The open spaces with that many cards at the Bottom, Left and Top, for a player
    who has (or has not) put a card on the Right side."""
    out = []
    if bottom < CAPACITY["bottom"]:
        out.append("bottom")
    if left < CAPACITY["left"]:
        out.append("left")
    if top < CAPACITY["top"]:
        out.append("top")
    if not right_played:
        out.append("right")
    return tuple(out)


_OPEN_SPACES = MappingProxyType({
    key: _spaces_open(*key) for key in product(range(CAPACITY["bottom"] + 1),
                                               range(CAPACITY["left"] + 1),
                                               range(CAPACITY["top"] + 1), (False, True))})
"""``_spaces_open`` for every position (a constant table: speed only)."""


def _hidden_but(rows: tuple, player: int) -> tuple:
    """Per-seat card rows with every seat's but ``player``'s cards ``HIDDEN``."""
    out = [_HIDDEN_ONE * len(cards) for cards in rows]
    out[player] = rows[player]
    return tuple(out)


_HIDDEN_ONE = (HIDDEN,)


@dataclass(frozen=True)
class BlackForestState(State):
    """A position.  ``step`` is what the game waits for: ``Revealing``/``Dealing``
    (chance), ``Discarding``, ``Playing`` or ``GameOver`` (see the turn steps).

    ``upcoming``: revealed encounters not yet finished (``upcoming[0]`` is in play);
    ``hands``/``decks``/``won``/``discarded``: per seat, sorted tuples of cards;
    ``to_draw``: cards each seat still draws this round; ``bottom``/``left``/``top``/
    ``right``: ``(player, card)`` pairs on the current encounter; ``points``; the
    ``token`` holder; ``to_move``.  ``report`` tells what the last scoring did (not
    part of equality).
    """

    step: object            # the turn step (a step dataclass, see above)
    round: int
    played: int
    upcoming: tuple
    encounter_deck: tuple
    hands: tuple
    decks: tuple
    to_draw: tuple
    won: tuple
    discarded: tuple
    bottom: tuple
    left: tuple
    top: tuple
    right: tuple
    points: tuple
    token: int
    to_move: int
    report: tuple = field(default=(), compare=False)
    cut: bool = False       # stopped by the engine's safeguard (see ``unfinished``)

    # -- whose move -----------------------------------------------------------
    @property
    def phase(self) -> str:
        """The turn step in one word: "reveal", "deal", "discard", "play" or "over"."""
        return self.step.phase

    def _current_player(self):
        match self.step:
            case Playing():
                return self.to_move
            case Revealing() | Dealing():
                return CHANCE
            case Discarding():
                return self._discarder()
        return TERMINAL

    def _discarder(self) -> int:
        n = self.game.players
        limit = self.game.hand_size
        for i in range(n):
            p = (self.token + i) % n
            if len(self.hands[p]) > limit:
                return p
        raise RuntimeError("no hand is over the limit")  # pragma: no cover

    @property
    def encounter(self) -> str | None:
        """The encounter being played (or about to be), if any."""
        if not self.upcoming or isinstance(self.step, GameOver):
            return None
        return self.upcoming[0]

    def open_spaces(self, player: int | None = None) -> tuple:
        """The spaces ``player`` (default: the one to move) may play to now."""
        player = self.to_move if player is None else player
        right_played = False
        for p, _ in self.right:
            if p == player:
                right_played = True
                break
        key = (len(self.bottom), len(self.left), len(self.top), right_played)
        spaces = _OPEN_SPACES.get(key)
        return _spaces_open(*key) if spaces is None else spaces

    def _legal_actions(self):
        p = self.current_player()
        hand = self.hands[p]
        # The game's ready-made actions (made afresh for a hidden hand, in a view),
        # looked up by the cards' keys.
        if isinstance(self.step, Discarding):
            try:
                made = _made(self.game.components).by_key[1][p]
                return tuple(map(made.__getitem__, map(_CARD_ORDER, hand)))
            except (KeyError, AttributeError):
                return tuple(Discard(p, c, self.game.player_name(p)) for c in hand)
        spaces = self.open_spaces(p)
        try:
            plays = _made(self.game.components).by_key[0][p][spaces]    # card -> its Plays
            return tuple(chain.from_iterable(map(plays.__getitem__, map(_CARD_ORDER, hand))))
        except (KeyError, AttributeError):
            who = self.game.player_name(p)
            return tuple(Play(p, c, s, who) for c in hand for s in spaces)

    def _why_illegal(self, action):
        p = self.current_player()
        pname = self.game.player_name(p)
        if isinstance(self.step, Discarding):
            if not isinstance(action, Discard):
                return _("the round is being set up: {player} must first discard down to "
                         "{cards} cards.").format(player=name(pname), cards=self.game.hand_size)
        elif not isinstance(action, Play):
            return _("in an encounter, a turn is playing one card from your hand to a space.")
        n = self.game.players
        who = action.player
        if type(who) is not int:
            return _("the player is a seat number 0-{high}, not {what}.").format(
                high=n - 1, what=safe_repr(who))
        if who != p:
            other = (name(self.game.player_name(who)) if 0 <= who < n
                     else _("seat {number}").format(number=who))
            return _("it is {player}'s turn, not {other}'s.").format(player=name(pname),
                                                                    other=other)
        if not isinstance(action.card, Card):
            return _("{what} is not a card.").format(what=safe_repr(action.card))
        if not any(same_value(c, action.card) for c in self.hands[p]):
            return _("you may only play or discard a card from your own hand "
                     "({card} is not in it).").format(card=_card_text(action.card))
        if isinstance(action, Play):
            if type(action.space) is not str or action.space not in SPACES:
                return _("the spaces are 'bottom', 'left', 'top' and 'right', not "
                         "{what}.").format(what=safe_repr(action.space))
            if action.space == "right":
                return _("each player may put only one card face down on the Right side.")
            return ngettext("{space} holds only {n} card and is full.",
                            "{space} holds only {n} cards and is full.",
                            CAPACITY[action.space]).format(space=_(SPACE_NAMES[action.space]),
                                                           n=CAPACITY[action.space])
        return None

    # -- chance -----------------------------------------------------------------
    def _chance_outcomes(self):
        # The game's ready-made outcomes (made afresh for a hidden deck, in a view),
        # every one equally likely.
        if isinstance(self.step, Revealing):
            deck = self.encounter_deck
            made, make = _made(self.game.components).reveals, Reveal
        else:
            seat = self.dealing()
            deck = self.decks[seat]
            made = _made(self.game.components).draws[seat]
            make = lambda c: Draw(seat, c, self.game.player_name(seat))  # noqa: E731
        try:
            outcomes = tuple(map(made.__getitem__, deck))
        except KeyError:
            outcomes = tuple(map(make, deck))
        return tuple(zip(outcomes, repeat(_one_in(len(deck)))))

    def _sample_chance(self, rng):
        if isinstance(self.step, Revealing):
            e = _pick_one(self.encounter_deck, rng)
            return _made(self.game.components).reveals.get(e) or Reveal(e)
        seat = self.dealing()
        c = _pick_one(self.decks[seat], rng)
        try:
            return _made(self.game.components).by_key[2][seat][c._key]
        except (KeyError, AttributeError):
            return Draw(seat, c)

    def dealing(self) -> int:
        """The seat drawing the next card (in the deal phase)."""
        for i, k in enumerate(self.to_draw):
            if k:
                return i
        raise RuntimeError("nobody is drawing")  # pragma: no cover

    # -- moves ------------------------------------------------------------------
    def _next(self, action):
        if isinstance(action, Play):
            return self._play(action)
        if isinstance(action, Draw):
            p = action.player
            hand = _with(self.hands[p], action.card)
            return _settle(replace(
                self, hands=_set(self.hands, p, hand),
                decks=_set(self.decks, p, _without_card(self.decks[p], action.card)),
                to_draw=_set(self.to_draw, p, self.to_draw[p] - 1)))
        if isinstance(action, Discard):
            p = action.player
            return _settle(replace(
                self, hands=_set(self.hands, p, _without_card(self.hands[p], action.card)),
                discarded=_set(self.discarded, p, _with(self.discarded[p], action.card))))
        if isinstance(action, Reveal):
            deck = self.encounter_deck
            return _settle(replace(self, upcoming=self.upcoming + (action.encounter,),
                                   encounter_deck=_without(deck, action.encounter)))
        raise TypeError(f"unknown action {action!r}")  # pragma: no cover

    def _play(self, a: Play):
        p, c, space = a.player, a.card, a.space
        hands = _set(self.hands, p, _without_card(self.hands[p], c))
        pair = ((p, c),)
        bottom, left, top, right = self.bottom, self.left, self.top, self.right
        if space == "bottom":
            bottom += pair
        elif space == "left":
            left = pair
        elif space == "top":
            top += pair
        else:
            right = tuple(sorted(right + pair))
        if len(bottom) == CAPACITY["bottom"] and len(left) == CAPACITY["left"] \
                and len(top) == CAPACITY["top"]:
            return self._finish_encounter(p, hands, bottom, left, top, right)
        # still playing: of ``_settle``'s clauses only the empty-hand skip applies
        return _skip_empty_hands(replace(self, hands=hands, bottom=bottom, left=left, top=top,
                                         right=right, to_move=(p + 1) % self.game.players))

    def _finish_encounter(self, last: int, hands, bottom, left, top, right):
        """The encounter is full (``hands`` and the spaces after the last card)."""
        g = self.game
        names = g.player_name
        # The token goes to the left of the last player; receiving it scores.
        token = (last + 1) % g.players
        points = list(self.points)
        if token != self.token or g.token_point_when_kept:
            points[token] += g.token_points
            lines = [Said(N_("{player} receives the start player token (+{points})."),
                          player=Name(names(token)), points=g.token_points)]
        else:
            lines = [Said(N_("{player} keeps the start player token (no point)."),
                          player=Name(names(token)))]
        sc = score_encounter(g, self.upcoming[0], bottom, left, top, right)
        lines.extend(sc.lines)
        points = tuple(a + b for a, b in zip(points, sc.points))
        # Winning cards are discarded (to ``won``), the others go back to hand.
        won, back = list(self.won), list(hands)
        winning = {(p, c) for p, c, _ in sc.winners}
        for p, c in bottom + left + top + right:
            if (p, c) in winning:
                won[p] = _with(won[p], c)
            else:
                back[p] = _with(back[p], c)
        played = self.played + 1
        upcoming = self.upcoming[1:]
        after = dict(points=points, token=token, hands=tuple(back), won=tuple(won),
                     bottom=(), left=(), top=(), right=(), to_move=token)
        if played < g.n_encounters and upcoming:
            return _settle(replace(self, played=played, upcoming=upcoming,
                                   report=tuple(lines), **after))
        # End of the round.
        if self.round >= g.n_rounds:
            lines.append(Said(N_("The game is over.")))
            return replace(self, step=GAME_OVER, played=played, upcoming=upcoming,
                           report=tuple(lines), **after)
        decks = self.decks
        if g.two_player:
            to_draw = tuple(min(g.hand_size, len(d)) for d in decks)
        else:
            to_draw = tuple(len(d) for d in decks)
        lines.append(Said(N_("Round {round} is over."), round=self.round))
        return _settle(replace(self, step=REVEALING, round=self.round + 1, played=0,
                               upcoming=(), to_draw=to_draw, report=tuple(lines), **after))

    # -- the end -----------------------------------------------------------------
    def unfinished(self) -> str | None:
        """``None`` when the game ended by the rules; a sentence when the engine had to
        stop it (every hand ran empty in the middle of an encounter, which only edited
        data files with more encounters per round can bring about)."""
        if self.cut:
            return _("Every hand ran empty in the middle of an encounter (possible only "
                     "with edited data: more encounters per round than the rulebook's 3); "
                     "no rule covers this, so the engine stopped the game.")
        return None

    def _returns(self):
        return winners_shares(self.points, tuple(len(h) for h in self.hands))

    def scores(self):
        return self.points

    def winners(self) -> tuple:
        """Seats sharing the win (by points, then most cards in hand)."""
        return tuple(i for i, r in enumerate(self.returns()) if r > 0)

    # -- hidden information --------------------------------------------------------
    def view(self, player: int) -> "BlackForestState":
        """What ``player`` sees: other hands, decks, face-down Right cards and hand
        discards become ``HIDDEN`` (their number stays visible).  Your own deck is
        shown as the set it must be (its order is never stored).  (The core refuses a
        ``player`` out of range before this runs.)"""
        right = self.right
        if right:
            right = tuple([(p, c if p == player else HIDDEN) for p, c in right])
        return replace(
            self, hands=_hidden_but(self.hands, player), decks=_hidden_but(self.decks, player),
            discarded=_hidden_but(self.discarded, player), right=right)


def winners_shares(points, hand_sizes) -> tuple:
    """Win shares: most points; ties broken by most cards in hand; still tied: shared."""
    return win_shares(best_players(tuple(zip(points, hand_sizes))), len(points))


def _draw_the_rest(s: BlackForestState) -> BlackForestState:
    """Seats drawing as many cards as their deck holds take it all: no chance."""
    to_draw, hands, decks = list(s.to_draw), list(s.hands), list(s.decks)
    for p, k in enumerate(to_draw):
        if k and k >= len(decks[p]):
            hands[p] = _sorted(hands[p] + decks[p])
            decks[p] = ()
            to_draw[p] = 0
    return replace(s, hands=tuple(hands), decks=tuple(decks), to_draw=tuple(to_draw))


def _settle(s: BlackForestState) -> BlackForestState:
    """Carry out everything that needs no decision and no chance."""
    g = s.game
    while True:
        match s.step:
            case Playing():
                return _skip_empty_hands(s)
            case Revealing():
                if len(s.upcoming) < g.n_encounters and s.encounter_deck:
                    return s
                s = replace(s, step=DEALING)
            case Dealing():
                for k, d in zip(s.to_draw, s.decks):
                    if k and k >= len(d):
                        s = _draw_the_rest(s)
                        break
                if any(s.to_draw):
                    return s
                s = replace(s, step=DISCARDING)
            case Discarding():
                if any(len(h) > g.hand_size for h in s.hands):
                    return s
                s = replace(s, step=PLAYING, to_move=s.token)
            case _:
                return s


def _skip_empty_hands(s: BlackForestState) -> BlackForestState:
    """A player with an empty hand is skipped (the rulebook does not say)."""
    p = s.to_move
    if s.hands[p]:
        return s
    n = s.game.players
    for _ in range(n):
        if s.hands[p]:
            break
        p = (p + 1) % n
    else:
        # Nobody holds a card in the middle of an encounter.  The rulebook's
        # numbers never come here; an edited data file (more encounters per
        # round) can.  No rule says what happens: the engine stops the game and
        # says so (``unfinished()``), rather than invent a rule.
        return replace(s, step=GAME_OVER, cut=True, report=s.report + (Said(
            "Nobody has a card left to play in the middle of an encounter; the "
            "rulebook never meets this, so the game stops here unfinished."),))
    return s if p == s.to_move else replace(s, to_move=p)
