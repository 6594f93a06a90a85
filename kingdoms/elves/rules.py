"""King of the Elves: the rules, top to bottom.

Setup: all 120 cards form the face-down supply; each player has 12 gold and 4 coat
of arms tokens.  Player 1 (index 0) is the first starting player.

A round: deal (10 cards each in round 1, 8 later; hands are kept between rounds),
planning, journeying, ending the round.  With 2, 3, 4 players there are that many
rounds; with 5 or 6 players, 5.

How chance is modelled: the supply is a shuffled pile whose order nobody sees, so
drawing its top card is the same as drawing a card uniformly at random from the
cards in it.  Every draw is therefore its own chance node with exact probabilities
``copies / cards in the supply`` and the supply is stored as counts per card kind.
A shuffle of the supply (after "No village card!" and at the end of the round)
changes nothing in that model, so it needs no chance node.

Planning (from the starting player, one action a turn, until all players pass in a
row): play a village; "No village card!"; draw 3 and discard 4; buy the top card;
play a gold, thief or obstacle card with a coat of arms token; remove a village of
your own realm; pass.  Journeying: from the starting player clockwise, each player
makes one journey (see ``kingdoms.elves.journey``).  Most gold at the end wins.

Decisions that the rulebook leaves open, and how this model settles them (each also
noted where it is used):

* Ties for most gold share the win (the rulebook names no tie-breaker).
* Coins set apart for bought cards leave the player's gold at once (they are
  paid to the bank at the end of planning and cannot be spent meanwhile).
* The bank never runs out of coins.
* "Draw 3" needs at least 3 cards in the supply and at least one card in hand (so
  that 4 can be discarded); "Buy" needs a card in the supply.
* If the supply runs out while dealing, the deal stops there.
* A player without a village in his realm who cannot get one (none in hand, and the
  supply empty or found to hold no village) may pass; otherwise passing needs a
  village in one's realm (without this, planning could never end).
* "No village card!": the discarded card may be any card of the hand, the new
  village included.
* Gold totals are secret ("keep the total value secret from the other players"):
  a player's view shows only his own; all are shown when the game is over.  The
  coins paid and received are seen by all (actions in the history).
* "No village card!" is two steps: showing the hand (``NoVillageCard``), then
  searching the supply (``TakeVillage``, whose village the others do not see).  Which
  villages the supply holds is learnt only by searching.  If it holds none, the
  search ends the turn without a card taken or discarded, and nobody may say it
  again this round (the supply only shrinks until the round ends).

Why every game ends without an artificial limit: planning has no income, and every
action but passing either puts a hand card on the table or the discard pile (play a
village or special card; draw 3 / discard 4 loses one card net), costs gold (remove
a village), or is capped (at most 3 buys a round).  "No village card!" keeps the hand
size but takes a village out of the supply (which only shrinks until the round ends),
or finds none, after which it cannot be said again that round.  So the hand sizes,
the gold, the remaining buys and the supply's villages cannot all stay the same
forever, and all players must eventually pass in a row.
Every journey step uses up a card.  Rounds are fixed in number.  The data file's
numbers are range-checked so that this holds (``NUMBER_RANGES``: more cards discarded
than drawn, a teleport uses cards, a realm holds a village ...).
"""
from __future__ import annotations

import functools
import os
from bisect import bisect_right
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, chain, compress, repeat
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any, ClassVar

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import N_, _, language, using
from kingdoms.core.scoring import best_players, win_shares
from kingdoms.core.protocol import (CHANCE, HIDDEN, TERMINAL, Action, Game, GameOptionError,
                                    IllegalAction, State, player_label, replace)

from .components import (DATA_RANGES, LIMITS, MAX_PLAYERS, MIN_PLAYERS, NUMBER_RANGES,
                         OBSTACLES, PLANNING_SPECIALS, Components)
from . import journey as J
from .journey import (name_of, ChangeDirection, EndJourney, JourneyRules, Teleport, TeleportCard,
                      TeleportTo, Trip, Visit, never_raises, player_text, table_from_realms)

__all__ = ["Elves", "ElvesState", "Draw", "PlayVillage", "NoVillageCard", "TakeVillage",
           "DrawThree", "ledger_text", "NUMBER_RANGES", "LIMITS",
           "Discard", "Buy", "PlaySpecial", "RemoveVillage", "Pass", "gold_ledger",
           "card_total", "Visit", "ChangeDirection", "Teleport", "TeleportCard", "TeleportTo",
           "EndJourney", "Components", "STEPS", "Dealing", "Planning", "DrawingThree",
           "DrawingBought", "Discarding", "Searching", "Journeying", "GameOver"]

def card_label(kind: str) -> str:
    """``village:plains:2`` -> ``plains village (2)``; ``travel:giant_pig`` -> ``giant pig``
    (in the current language)."""
    return _card_label(kind, language())


@speed_cache(512)
def _card_label(kind: str, code: str) -> str:
    """``card_label`` in the language ``code`` (the current one: the cache keeps each
    language's words apart)."""
    if kind is HIDDEN:
        return "?"
    parts = kind.split(":")
    if parts[0] == "village":
        if language() == "en":
            return f"{parts[1]} village ({parts[2]})"
        return _("{terrain} village ({value})").format(terrain=name_of(parts[1]), value=parts[2])
    return name_of(parts[1])


# =========================================================================== actions

def _seen_by(action, player: int, owner: int, secret: str):
    """``action`` as ``player`` sees it: all of it when he is ``owner`` (the player who
    gets the card), else with the card (field ``secret``) ``HIDDEN``."""
    return action if player == owner else replace(action, **{secret: HIDDEN})


@dataclass(frozen=True)
class Draw(Action):
    """Chance: the top card of the supply goes to player ``to`` (seen only by him)."""

    card: str
    to: int

    def __str__(self):
        return self.text(player_text)

    @never_raises
    def text(self, name) -> str:
        """The text with players named by ``name(player index)`` (``str()``: "Player 1"
        ...; ``Elves.action_text``: the game's ``player_name``)."""
        what = _("a card") if self.card is HIDDEN else card_label(self.card)
        return _("{player} draws {card}").format(player=name(self.to), card=what)

    def seen_by(self, player):
        return _seen_by(self, player, self.to, "card")


@dataclass(frozen=True)
class PlayVillage(Action):
    village: str
    realm: int

    def __str__(self):
        return self.text(player_text)

    @never_raises
    def text(self, name) -> str:
        """The text with players named by ``name(player index)`` (see ``Draw.text``)."""
        return _("play the {village} into {player}'s realm").format(
            village=card_label(self.village), player=name(self.realm))


@dataclass(frozen=True)
class NoVillageCard(Action):
    """Say "No village card!" and show the hand (``shown``, every card of it); then
    search the supply (``TakeVillage``) and discard one card."""

    shown: tuple = ()

    @never_raises
    def __str__(self):
        return _('"No village card!" (shows the hand: {cards})').format(
            cards=", ".join(card_label(k) for k in self.shown) or _("no cards"))


@dataclass(frozen=True)
class TakeVillage(Action):
    """After "No village card!": take ``village`` from the supply (``None``: the supply
    holds no village card).  The others do not see which village was taken."""

    village: str | None
    by: int

    def __str__(self):
        return self.text(player_text)

    @never_raises
    def text(self, name) -> str:
        """The text with players named by ``name(player index)`` (see ``Draw.text``)."""
        if self.village is None:
            return _("{player} finds no village card in the supply").format(player=name(self.by))
        if self.village is HIDDEN:
            return _("{player} takes a village card from the supply").format(
                player=name(self.by))
        return _("take the {village} from the supply").format(village=card_label(self.village))

    def seen_by(self, player):
        if self.village is None:                # finding none is seen by all
            return self
        return _seen_by(self, player, self.by, "village")


@dataclass(frozen=True)
class DrawThree(Action):
    """Draw 3 cards and discard 4 (the rulebook's name; the numbers are the data's
    ``rules.draw_cards`` and ``rules.discard_cards``, which ``Elves.action_text`` says)."""

    def __str__(self):
        return _("draw {draw} cards and discard {discard}").format(draw=3, discard=4)


@dataclass(frozen=True)
class Discard(Action):
    card: str

    @never_raises
    def __str__(self):
        return _("discard the {card} (face up)").format(card=card_label(self.card))


@dataclass(frozen=True)
class Buy(Action):
    cost: int

    @never_raises
    def __str__(self):
        return _("buy the top card for {cost} gold").format(cost=f"{self.cost:d}")


@dataclass(frozen=True)
class PlaySpecial(Action):
    """Place a ``special`` card (gold, thief, tree, sea_monster) with a coat of arms
    token next to player ``realm``'s village ``slot`` (0 = the right-hand one)."""

    special: str
    realm: int
    slot: int

    def __str__(self):
        return self.text(player_text)

    @never_raises
    def text(self, name) -> str:
        """The text with players named by ``name(player index)`` (see ``Draw.text``)."""
        return _("play a {special} card at {player}'s village {slot}").format(
            special=name_of(self.special), player=name(self.realm), slot=f"{self.slot + 1:d}")


@dataclass(frozen=True)
class RemoveVillage(Action):
    slot: int
    cost: int

    @never_raises
    def __str__(self):
        return _("remove own village {slot} (pay {cost} gold)").format(
            slot=f"{self.slot + 1:d}", cost=f"{self.cost:d}")


@dataclass(frozen=True)
class Pass(Action):
    def __str__(self):
        return _("pass")


PASS = Pass()
DRAW_THREE = DrawThree()
# the actions whose texts name players (``text(name)``; ``Elves.action_text``)
NAMING_ACTIONS = (Draw, PlayVillage, TakeVillage, PlaySpecial, Visit, TeleportTo)

FIELD_TYPES = MappingProxyType({
    **J.FIELD_TYPES,
    Draw: (("card", "str"), ("to", "int")),
    PlayVillage: (("village", "str"), ("realm", "int")),
    NoVillageCard: (("shown", "strs"),),
    TakeVillage: (("village", "str?"), ("by", "int")),
    DrawThree: (),
    Discard: (("card", "str"),),
    Buy: (("cost", "int"),),
    PlaySpecial: (("special", "str"), ("realm", "int"), ("slot", "int")),
    RemoveVillage: (("slot", "int"), ("cost", "int")),
    Pass: (),
})


# =========================================================================== the turn steps
# What the game waits for (``ElvesState.step``): one frozen value per kind of step,
# dispatched with ``match``.  ``phase`` names the part of the round it belongs to.

@dataclass(frozen=True)
class Dealing:
    """Chance: the deal gives ``cards`` more cards to ``turn`` (then to the next
    players in turn order)."""

    cards: int
    phase: ClassVar[str] = "deal"


@dataclass(frozen=True)
class Planning:
    """``turn`` chooses a planning action (or passes)."""

    phase: ClassVar[str] = "planning"


@dataclass(frozen=True)
class DrawingThree:
    """Chance: ``turn`` draws ``cards`` more of "draw 3, discard 4"."""

    cards: int
    phase: ClassVar[str] = "planning"
    why: ClassVar[str] = "draw3"


@dataclass(frozen=True)
class DrawingBought:
    """Chance: ``turn`` draws the card he bought."""

    phase: ClassVar[str] = "planning"
    why: ClassVar[str] = "buy"


@dataclass(frozen=True)
class Discarding:
    """``turn`` discards ``cards`` more cards of his hand: after drawing 3, or (with
    ``after_search``) the one card after taking a village from the supply."""

    cards: int
    after_search: bool = False
    phase: ClassVar[str] = "planning"


@dataclass(frozen=True)
class Searching:
    """After "No village card!": ``turn`` searches the supply for a village card."""

    phase: ClassVar[str] = "planning"


@dataclass(frozen=True)
class Journeying:
    """``turn`` travels (``ElvesState.trip`` on ``ElvesState.table``)."""

    phase: ClassVar[str] = "journey"


@dataclass(frozen=True)
class GameOver:
    """The last round is over: the richest player wins."""

    phase: ClassVar[str] = "over"


PLANNING, DRAWING_BOUGHT, SEARCHING = Planning(), DrawingBought(), Searching()
JOURNEYING, GAME_OVER = Journeying(), GameOver()
STEPS = (Dealing, Planning, DrawingThree, DrawingBought, Discarding, Searching, Journeying,
         GameOver)


# =========================================================================== the game

@dataclass(frozen=True)
class ActionTables:
    """What one configuration (components, players, variant) plays with, made once:
    the journey rules, the rounds, the realm limit, and every action and chance
    outcome that can recur (immutable values, so one object serves every state)."""

    journey_rules: JourneyRules
    rounds: int
    realm_limit: int
    draws: tuple            # draws[kind][player]
    discards: tuple         # discards[kind]
    village_plays: tuple    # village_plays[village kind][realm]
    buys: tuple             # the n-th buy of a round
    planning_specials_of: Any = field(compare=False)   # hand -> its gold, thief, tree, sea monster
    special_plays: Any = field(compare=False)          # special -> [realm][slot] -> PlaySpecial
    special_fits: Any = field(compare=False)           # special -> villages it may lie next to

    @classmethod
    def of(cls, c: Components, players: int, teleport: bool) -> "ActionTables":
        num, kinds = c.numbers, c.kinds
        realm_limit = num["villages_per_realm_two_players" if players == 2
                          else "villages_per_realm"]
        journey_rules = JourneyRules(
            c.costs, obstacles=c.obstacles, thief_gold=num["thief_gold"],
            all_villages_bonus=num["all_villages_bonus"], teleport=teleport,
            teleport_gold=num["teleport_gold"], teleport_cards=num["teleport_cards"])
        return cls(
            journey_rules, c.rounds[players], realm_limit,
            draws=tuple(tuple(Draw(k, to) for to in range(players)) for k in kinds),
            discards=tuple(Discard(k) for k in kinds),
            village_plays=tuple(tuple(PlayVillage(kinds[i], r) for r in range(players))
                                for i in c.village_idx),
            buys=tuple(Buy(cost) for cost in c.buy_costs),
            planning_specials_of=itemgetter(*(c.special_idx[t] for t in PLANNING_SPECIALS)),
            special_plays=MappingProxyType({t: tuple(
                tuple(PlaySpecial(t, r, slot) for slot in range(realm_limit))
                for r in range(players)) for t in PLANNING_SPECIALS}),
            special_fits=MappingProxyType({t: frozenset(
                kinds[i] for i in c.village_idx
                if t not in OBSTACLES or J.village_terrain(kinds[i]) in c.obstacle_terrains[t])
                for t in PLANNING_SPECIALS}))


@dataclass(frozen=True)
class Elves(Game):
    """King of the Elves for 2-6 players.

    Options: ``teleport`` (the teleporting-magic variant), ``data`` (path of an
    edited copy of the component file), ``player_names``.
    """

    name = "elves"
    title = "King of the Elves"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    # hands, the supply and the gold totals are secret
    hidden_information = True

    players: int = 2
    teleport: bool = False
    data: str | None = None
    player_names: tuple = ()
    # the data file's content (a digest): games built from different contents of one
    # path are different games (not an option; rebuilt from the file)
    _data_digest: str = field(default="", init=False, repr=False)
    # the parts in the box (``Components.from_data``) and what this configuration
    # plays with (``ActionTables``): read from the data file, not options
    components: Components = field(default=None, init=False, repr=False, compare=False)
    tables: "ActionTables" = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        if isinstance(self.players, bool):
            raise GameOptionError(_("players must be a whole number, not {value}").format(
                value=repr(self.players)))
        super().__post_init__()
        if not isinstance(self.teleport, bool):
            raise GameOptionError(_("teleport must be True or False, not {value}").format(
                value=repr(self.teleport)))
        # every option value is hashable and JSON-able: data is a path *text*, the
        # names a tuple of texts (a JSON list of names is read back as that tuple)
        data = self.data
        if isinstance(data, os.PathLike):
            data = os.fspath(data)
        if data is not None and not isinstance(data, str):
            raise GameOptionError(_("data must be the path of a data file (a str) or None, "
                                    "not {kind}").format(kind=type(self.data).__name__))
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "player_names", self._checked_names())
        d = self.game_data()
        c = Components.from_data(d)
        if self.players not in c.rounds:
            raise d.error("rules.rounds", _("gives no number of rounds for {players} players")
                          .format(players=self.players))
        object.__setattr__(self, "components", c)
        object.__setattr__(self, "tables", ActionTables.of(c, self.players, self.teleport))
        object.__setattr__(self, "_data_digest", c.digest)

    def _checked_names(self) -> tuple:
        """The ``player_names`` option: none, or one distinct text per player."""
        names = self.player_names
        if isinstance(names, (str, bytes)) or not isinstance(names, (tuple, list)):
            raise GameOptionError(_("player_names must be a tuple of names (one text per "
                                    "player), not {kind}").format(kind=type(names).__name__))
        if names:
            if len(names) != self.players:
                raise GameOptionError(_("player_names needs {players} names, not {n}").format(
                    players=self.players, n=len(names)))
            if not all(isinstance(n, str) and n.strip() for n in names):
                raise GameOptionError(_("player_names must all be non-empty texts"))
            if len(set(names)) != len(names):
                raise GameOptionError(_("player_names must be different from each other"))
        return tuple(names)

    def __reduce__(self):
        # rebuilt from its options (the parsed data holds unpicklable mapping proxies),
        # so games and states can be sent to worker processes by ``simulate``
        # and its language (not an option), all by keyword: a field order does not matter
        return (functools.partial(type(self), players=self.players, teleport=self.teleport,
                                  data=self.data, player_names=self.player_names,
                                  language=self.language), ())

    # the components under the names the rules, lessons and notebooks use
    kinds = property(attrgetter("components.kinds"), doc="Every card kind (villages first).")
    deck = property(attrgetter("components.deck"), doc="Copies of each card kind.")
    index = property(attrgetter("components.index"), doc="Card kind -> position in kinds.")
    terrains = property(attrgetter("components.terrains"))
    vehicles = property(attrgetter("components.vehicles"))
    numbers = property(attrgetter("components.numbers"), doc="The [rules] numbers by name.")
    buy_costs = property(attrgetter("components.buy_costs"))
    village_idx = property(attrgetter("components.village_idx"))
    travel_idx = property(attrgetter("components.travel_idx"))
    escort_idx = property(attrgetter("components.escort_idx"))
    turn_idx = property(attrgetter("components.turn_idx"))
    special_idx = property(attrgetter("components.special_idx"))
    obstacle_terrains = property(attrgetter("components.obstacle_terrains"))
    rounds = property(attrgetter("tables.rounds"), doc="Rounds with this many players.")
    realm_limit = property(attrgetter("tables.realm_limit"), doc="Villages a realm may hold.")
    journey_rules = property(attrgetter("tables.journey_rules"))

    @classmethod
    def data_ranges(cls) -> dict[str, tuple]:
        """The data file's schema: ``DATA_RANGES`` (see ``Game.data_ranges``)."""
        return dict(DATA_RANGES)

    @classmethod
    def configurations(cls):
        return ([{"players": k} for k in range(cls.min_players, cls.max_players + 1)]
                + [{"players": 3, "teleport": True}])

    # ---- every action, numbered (kingdoms.interop.openspiel) --------------------
    def action_universe(self) -> tuple:
        """Every action and chance outcome this game can ever produce, as *keys* (see
        ``action_key``), in a fixed order from the data file: Draw (card kinds in data
        order, then player), PlayVillage, NoVillageCard, TakeVillage (``None`` last),
        DrawThree, Discard, Buy (``rules.buy_costs``), PlaySpecial, RemoveVillage,
        Pass, then the journey steps: Visit (vehicle, realm, village slot, escort),
        ChangeDirection, Teleport, TeleportCard, TeleportTo, EndJourney."""
        n = range(self.players)
        slots = range(self.realm_limit)
        villages = tuple(self.kinds[i] for i in self.village_idx)
        out = [Draw(k, to) for k in self.kinds for to in n]
        out += [PlayVillage(v, r) for v in villages for r in n]
        out.append(NoVillageCard(()))
        out += [TakeVillage(v, p) for p in n for v in villages + (None,)]
        out.append(DRAW_THREE)
        out += [Discard(k) for k in self.kinds]
        out += [Buy(c) for c in sorted(set(self.buy_costs))]
        out += [PlaySpecial(t, r, s) for t in PLANNING_SPECIALS for r in n for s in slots]
        out += [RemoveVillage(s, 0) for s in slots]
        out.append(PASS)
        out += [J.Visit(v, 0, r, s, e) for v in self.vehicles for r in n for s in slots
                for e in (False, True)]
        out.append(ChangeDirection())
        out.append(Teleport(0))
        out += [TeleportCard(v) for v in self.vehicles]
        out += [J.TeleportTo(r, s, e) for r in n for s in slots for e in (False, True)]
        out.append(EndJourney())
        return tuple(out)

    @staticmethod
    def action_key(action):
        """The entry of ``action_universe()`` that stands for ``action``: the action with
        the fields that follow from the position dropped (the hand a "No village
        card!" shows, the cards a visit costs and the gold it pays, a removal's or a
        spell's price).  At any state the legal actions have distinct keys."""
        kind = type(action)
        if kind is NoVillageCard:
            return NoVillageCard(())
        if kind is RemoveVillage:
            return RemoveVillage(action.slot, 0)
        if kind is Teleport:
            return Teleport(0)
        if kind is J.Visit:
            return J.Visit(action.vehicle, 0, action.realm, action.slot, action.escort)
        if kind is J.TeleportTo:
            return J.TeleportTo(action.realm, action.slot, action.escort)
        return action

    def max_game_length(self) -> int:
        """A true bound on the number of actions and chance outcomes in a game (C cards,
        n players, fixed rounds).  Planning: ``2H + R + 3B + V + F`` (hand cards,
        villages in realms, buys left (at most one per buy cost a round), villages in the supply, "No village card!"
        still allowed) falls with every action but a pass (see the module docstring),
        each such action takes at most ``3 + draw + discard`` steps, and at most n-1
        passes come between two of them; a round deals at most C cards and each
        journey step uses a card (a spell: its cards, its step and the arrival)."""
        n = self.players
        cards = sum(self.deck)
        num = self.numbers
        potential = 4 * cards + 3 * len(self.buy_costs) * n + 1
        per_action = 3 + num["draw_cards"] + num["discard_cards"]
        planning = (potential + 1) * (per_action + n - 1) + n
        journeys = n * (3 * cards + 2)
        return self.rounds * (cards + planning + journeys)

    # ---- convenience ------------------------------------------------------------

    def deck_counts(self) -> dict:
        """``{card kind: copies}`` of the whole deck."""
        return dict(zip(self.kinds, self.deck))

    def objectives(self) -> dict:
        """What a solver or tree may maximise (``kingdoms.core.solve``): the share of
        the win, or each player's gold."""
        return {"share of the win": lambda s: s.returns(), "gold": lambda s: tuple(s.gold)}

    def initial_state(self) -> "ElvesState":
        n = self.players
        empty = (0,) * len(self.kinds)
        return ElvesState(
            self, round=1, start=0, step=Dealing(self.numbers["deal_first_round"]),
            supply=self.deck, discard=empty, hands=(empty,) * n,
            gold=(self.numbers["starting_gold"],) * n, realms=((),) * n, bought=(0,) * n,
            turn=0, passes=0, trip=None, table=None, journeys=0)

    def player_name(self, player: int) -> str:
        if self.player_names and 0 <= player < len(self.player_names):
            return str(self.player_names[player])
        return player_label(player)

    def action_text(self, action) -> str:
        """The action's text with the players named by ``player_name`` (an action's own
        ``str()`` cannot know the names: it says "Player 1" ...), in the game's language."""
        with using(self.language):
            return self._named_action_text(action)

    def _named_action_text(self, action) -> str:
        if type(action) is DrawThree:  # its str() says the rulebook's numbers: say ours
            num = self.numbers
            return _("draw {draw} cards and discard {discard}").format(
                draw=num['draw_cards'], discard=num['discard_cards'])
        if not isinstance(action, NAMING_ACTIONS):
            return super().action_text(action)
        text = action.text(self._name_in_text)
        # cut as the core cuts action texts (``Game.action_text``)
        return text if len(text) <= 200 else text[:200] + "..."

    def _name_in_text(self, player) -> str:
        player_text(player)            # a player is a whole number, as in ``str()``
        return self.player_name(player)


@speed_cache(4096)
def _fraction(a: int, b: int) -> Fraction:
    return Fraction(a, b)


SPECIAL_TYPE = {"gold": "gold", "thief": "thief", "tree": "obstacle", "sea_monster": "obstacle"}


def _clashes(special: str, specials: tuple) -> bool:
    """Only one card of each type may lie next to a village: one gold, one thief, one
    obstacle.  Does ``special`` clash with the ``(special, owner)`` cards there?"""
    kind = SPECIAL_TYPE[special]
    return any(SPECIAL_TYPE[t] == kind for t, _ in specials)


@speed_cache(256)
def _remove_village(slot: int, cost: int) -> "RemoveVillage":
    return RemoveVillage(slot, cost)


def _add(counts: tuple, i: int, k: int = 1) -> tuple:
    counts = list(counts)
    counts[i] += k
    return tuple(counts)


def _set(tup: tuple, i: int, value) -> tuple:
    tup = list(tup)
    tup[i] = value
    return tuple(tup)


# =========================================================================== the state

@dataclass(frozen=True)
class ElvesState(State):
    """A position.

    ``supply``, ``discard`` and each of ``hands`` are card counts in the order of
    ``game.kinds`` (in a player's view, hidden piles are ``(HIDDEN, size)``).
    ``realms[p]`` is player ``p``'s villages right to left, each ``(village kind,
    ((special, owner), ...))``.  ``step`` is what the game waits for (one of
    ``STEPS``: ``Dealing``, ``Planning``, ``DrawingThree``, ``DrawingBought``,
    ``Discarding``, ``Searching``, ``Journeying``, ``GameOver``); ``turn`` is the
    player to receive cards / to act / to travel.  ``trip`` and ``table`` describe
    the journey under way.

    A view (``view(p)``) hides the supply's cards (``(HIDDEN, size)``), the other
    players' hands (``(HIDDEN, size)``) and gold totals (``HIDDEN``), and another
    traveller's cards and gold; the searcher of "No village card!" sees the supply.
    """

    round: int
    start: int
    step: Any
    supply: tuple
    discard: tuple
    hands: tuple
    gold: tuple
    realms: tuple
    bought: tuple
    turn: int
    passes: int
    trip: Any
    table: Any
    journeys: int
    # a "No village card!" search found no village in the supply this round (public:
    # the supply only shrinks during planning, so none can be found until the round ends)
    villages_gone: bool = False

    # ---- whose move ---------------------------------------------------------------
    def apply(self, action):
        """As ``State.apply``; an action whose fields have the wrong types (``None``, an
        object that equals everything, a number as text) is refused first."""
        problem = J.check_fields(action, FIELD_TYPES)
        if problem is not None:
            raise IllegalAction(_("Not an action of King of the Elves: {problem}").format(
                problem=problem))
        return super().apply(action)

    @property
    def phase(self) -> str:
        """The part of the round: ``"deal"``, ``"planning"``, ``"journey"`` or ``"over"``."""
        return self.step.phase

    def _current_player(self):
        match self.step:
            case GameOver():
                return TERMINAL
            case Dealing() | DrawingThree() | DrawingBought():
                return CHANCE
        return self.turn

    # ---- chance ------------------------------------------------------------------------
    def _chance_outcomes(self):
        self._check_supply_known()
        total = sum(self.supply)
        to = self.turn
        return tuple((draws[to], _fraction(c, total))
                     for draws, c in zip(self.game.tables.draws, self.supply) if c)

    def _sample_chance(self, rng):
        # card number r of the supply, counting kind by kind
        self._check_supply_known()
        supply = self.supply
        r = rng.randrange(sum(supply))
        i = bisect_right(tuple(accumulate(supply)), r)
        if i == len(supply):
            raise AssertionError("empty supply at a draw")
        return self.game.tables.draws[i][self.turn]

    # ---- decisions ----------------------------------------------------------------------
    def _legal_actions(self):
        if self.gold[self.turn] is HIDDEN:
            raise ValueError(_("this view does not show {player}'s cards and gold, so it cannot "
                               "list that player's actions; ask view({seat}) or the full "
                               "state").format(player=self.game.player_name(self.turn),
                                               seat=self.turn))
        match self.step:
            case Journeying():
                return J.moves(self.trip, self.table, self.game.journey_rules)
            case Searching():                   # after "No village card!"
                return self._search_actions()
            case Discarding():                  # any card in hand
                return tuple(compress(self.game.tables.discards, self.hands[self.turn]))
        return self._planning_actions()

    def _check_supply_known(self):
        if _is_hidden(self.supply):
            raise ValueError(_("a player's view does not know the cards of the supply, so it "
                               "has no chance outcomes; ask the full state"))

    def supply_size(self) -> int:
        """Cards in the supply (known to everyone, also in a view)."""
        return self.supply[1] if _is_hidden(self.supply) else sum(self.supply)

    def _search_actions(self):
        g = self.game
        p = self.turn
        found = tuple(TakeVillage(g.kinds[i], p) for i in g.village_idx if self.supply[i])
        return found or (TakeVillage(None, p),)

    def tokens_left(self, p: int) -> int:
        used = 0
        for realm in self.realms:
            for _, specials in realm:
                for _, owner in specials:
                    used += owner == p
        return self.game.numbers["tokens"] - used

    def _planning_actions(self):
        g = self.game
        p = self.turn
        hand = self.hands[p]
        realms = self.realms
        supply_cards = self.supply_size()
        out = []
        # play a village card
        has_village = any(hand[:g.components.villages])
        if has_village:
            limit = g.realm_limit
            open_realms = [r for r, realm in enumerate(realms) if len(realm) < limit]
            for plays in compress(g.tables.village_plays, hand):      # villages held, in order
                out.extend([plays[r] for r in open_realms])
        # "No village card!" (what the supply holds is seen only when searching it)
        if not realms[p] and not has_village and supply_cards and not self.villages_gone:
            shown = tuple(chain.from_iterable(map(repeat, g.kinds, hand)))   # each card
            out.append(NoVillageCard(shown))
        # draw 3, discard 4
        n_draw, n_discard = g.numbers["draw_cards"], g.numbers["discard_cards"]
        if supply_cards >= n_draw and sum(hand) + n_draw >= n_discard:
            out.append(DRAW_THREE)
        # buy a card
        b = self.bought[p]
        if b < len(g.buy_costs) and self.gold[p] >= g.buy_costs[b] and supply_cards:
            out.append(g.tables.buys[b])
        # gold, thief and obstacle cards
        held = list(compress(PLANNING_SPECIALS, g.tables.planning_specials_of(hand)))
        if held and self.tokens_left(p) > 0:
            for special in held:
                fits, plays = g.tables.special_fits[special], g.tables.special_plays[special]
                for r, realm in enumerate(realms):
                    for slot, (kind, specials) in enumerate(realm):
                        # obstacles only next to villages of their terrains; one card
                        # of each type next to a village
                        if kind in fits and not (specials and _clashes(special, specials)):
                            out.append(plays[r][slot])
        # remove a village from one's own realm
        base, per_special = g.numbers["remove_village"], g.numbers["remove_per_special"]
        for slot, (_, specials) in enumerate(realms[p]):
            cost = base + per_special * len(specials)
            if self.gold[p] >= cost:
                out.append(_remove_village(slot, cost))
        # pass: with a village in one's realm, or (a decision of this model) when one
        # cannot get one: none in hand and none to be found in the supply
        if realms[p] or (not has_village and (self.villages_gone or not supply_cards)):
            out.append(PASS)
        return tuple(out)

    def _why_illegal(self, action):
        """The rule ``action`` breaks: the clause of the step under way, else of the
        planning action it tries (``_why_not_*``)."""
        match self.step:
            case Journeying():
                return J.why_not(self.trip, action, self.table, self.game.journey_rules)
            case Searching():
                return self._why_not_search(action)
            case Discarding(cards=left):
                if isinstance(action, Discard):
                    return "You can only discard a card that is in your hand."
                return f"First discard {left} more card(s)."
        for kind, why_not in _WHY_NOT:
            if isinstance(action, kind):
                return why_not(self, action)
        return f"{action} is not a planning action."

    def _why_not_search(self, action):
        """After "No village card!" the player takes a village from the supply."""
        p = self.turn
        if isinstance(action, TakeVillage):
            if action.by != p:
                return f"It is {self.game.player_name(p)} who searches the supply."
            return ("Take a village card that is in the supply (or, when it holds none, "
                    "say so).")
        return '"No village card!": first take a village card from the supply.'

    def _why_not_play_village(self, action):
        """Play a village card: from the hand, into a realm with room."""
        g = self.game
        hand = self.hands[self.turn]
        if action.village not in g.index or not hand[g.index[action.village]]:
            return "You can only play a village card from your hand."
        if not 0 <= action.realm < g.players:
            return "There is no such realm."
        two = g.numbers["villages_per_realm_two_players"]
        return (f"A realm may hold at most {g.realm_limit} villages"
                f"{f' ({two} with two players)' if g.players == 2 else ''}.")

    def _why_not_no_village_card(self, action):
        """"No village card!": no village in the realm nor in the hand, a supply."""
        g = self.game
        p = self.turn
        if self.realms[p] or any(self.hands[p][i] for i in g.village_idx):
            return ('You may say "No village card!" only with no village in your realm '
                    "and none in your hand.")
        if self.villages_gone or not self.supply_size():
            return ('"No village card!" needs a supply to search; this round\'s search '
                    "already found no village card in it.")
        return '"No village card!" shows your whole hand (shown = every card in it).'

    def _why_not_take_village(self, action):
        return 'Take a village card from the supply only after saying "No village card!".'

    def _why_not_draw_three(self, action):
        """Draw 3 and discard 4: cards to draw, and a hand to discard from."""
        num = self.game.numbers
        draw = num["draw_cards"]
        return (f"Draw {draw} needs {draw} cards in the supply and a hand from which "
                f"{num['discard_cards']} cards can then be discarded.")

    def _why_not_buy(self, action):
        """Buy the top card: the round's next price, at most ``buy_costs`` cards."""
        costs = self.game.buy_costs
        b = self.bought[self.turn]
        if b >= len(costs):
            return f"You may not buy a card number {b + 1} in a round."
        if action.cost != costs[b]:
            return f"Your next card costs {costs[b]} gold."
        return "You need the gold for the card (and a card in the supply)."

    def _why_not_play_special(self, action):
        """Gold, thief and obstacle cards: from the hand, with a token, next to a
        village of the right terrain, one card of each type there."""
        g = self.game
        if action.special not in PLANNING_SPECIALS:
            return "Only gold, thief and obstacle cards are played while planning."
        if not self.hands[self.turn][g.special_idx[action.special]]:
            return "You can only play a special card from your hand."
        if self.tokens_left(self.turn) <= 0:
            return "You have used all your coat of arms tokens this round."
        if not (0 <= action.realm < g.players
                and 0 <= action.slot < len(self.realms[action.realm])):
            return "There is no village there."
        kind, _ = self.realms[action.realm][action.slot]
        terrain = J.village_terrain(kind)
        if action.special in OBSTACLES and terrain not in g.obstacle_terrains[action.special]:
            where = " or ".join(g.obstacle_terrains[action.special])
            return f"The {action.special.replace('_', ' ')} may only go next to a {where} village."
        return ("Only one card of each type may lie next to a village (one gold, one "
                "thief, one obstacle).")

    def _why_not_remove_village(self, action):
        """Remove a village of one's own realm, paying for it and its special cards."""
        if not 0 <= action.slot < len(self.realms[self.turn]):
            return "You may only remove villages from your own realm."
        num = self.game.numbers
        return (f"Removing a village costs {num['remove_village']} gold plus "
                f"{num['remove_per_special']} for each gold, thief and obstacle "
                "card next to it, and you must have the gold.")

    def _why_not_pass(self, action):
        return "You may pass only when you have at least one village in your realm."

    # ---- what an action does ------------------------------------------------------------
    def _next(self, action):
        # each branch builds the next position with a single ``replace``
        g = self.game
        if isinstance(action, Draw):
            return self._after_draw(action)
        if type(self.step) is Journeying:
            return self._journey_step(action)
        p = self.turn
        hands, hand = self.hands, self.hands[self.turn]
        if isinstance(action, TakeVillage):
            if action.village is None:         # nothing to take: the turn ends
                return self._end_turn(False, villages_gone=True)
            i = g.index[action.village]
            return replace(self, supply=_add(self.supply, i, -1),
                           hands=_set(hands, p, _add(hand, i)), step=Discarding(1, True))
        if type(self.step) is Discarding:
            return self._discard(action)
        if isinstance(action, Pass):
            return self._end_turn(passed=True)
        if isinstance(action, PlayVillage):
            i = g.index[action.village]
            realms = _set(self.realms, action.realm,
                          self.realms[action.realm] + ((action.village, ()),))
            return self._end_turn(False, hands=_set(hands, p, _add(hand, i, -1)), realms=realms)
        if isinstance(action, NoVillageCard):
            return replace(self, step=SEARCHING)
        if isinstance(action, DrawThree):
            return replace(self, step=DrawingThree(g.numbers["draw_cards"]))
        if isinstance(action, Buy):
            return replace(self, gold=_set(self.gold, p, self.gold[p] - action.cost),
                           bought=_set(self.bought, p, self.bought[p] + 1),
                           step=DRAWING_BOUGHT)
        if isinstance(action, PlaySpecial):
            i = g.special_idx[action.special]
            kind, specials = self.realms[action.realm][action.slot]
            spot = (kind, tuple(sorted(specials + ((action.special, p),))))
            realm = _set(self.realms[action.realm], action.slot, spot)
            return self._end_turn(False, hands=_set(hands, p, _add(hand, i, -1)),
                                  realms=_set(self.realms, action.realm, realm))
        if isinstance(action, RemoveVillage):
            kind, specials = self.realms[p][action.slot]
            discard = _add(self.discard, g.index[kind])
            for special, _ in specials:        # tokens go back to their owners
                discard = _add(discard, g.special_idx[special])
            realm = self.realms[p][:action.slot] + self.realms[p][action.slot + 1:]
            return self._end_turn(False, discard=discard, realms=_set(self.realms, p, realm),
                                  gold=_set(self.gold, p, self.gold[p] - action.cost))
        raise ValueError(f"unknown action {action!r}")

    def _discard(self, action: Discard):
        """One card of the hand to the discard pile; the turn ends after the last."""
        p = self.turn
        i = self.game.index[action.card]
        hands = _set(self.hands, p, _add(self.hands[p], i, -1))
        discard = _add(self.discard, i)
        left = self.step.cards - 1
        if left:
            return replace(self, hands=hands, discard=discard,
                           step=Discarding(left, self.step.after_search))
        return self._end_turn(False, hands=hands, discard=discard)

    def _after_draw(self, action: Draw):
        g = self.game
        i = g.index[action.card]
        to = action.to
        supply = _add(self.supply, i, -1)
        hands = _set(self.hands, to, _add(self.hands[to], i))
        match self.step:
            case Dealing(cards=left):
                return self._continue_deal(left - 1, supply, hands=hands)
            case DrawingThree(cards=left) if left > 1:
                return replace(self, supply=supply, hands=hands, step=DrawingThree(left - 1))
            case DrawingThree():
                return replace(self, supply=supply, hands=hands,
                               step=Discarding(g.numbers["discard_cards"]))
        return self._end_turn(False, supply=supply, hands=hands)       # a bought card

    def _continue_deal(self, left: int, supply: tuple, **changes):
        """With the supply now ``supply`` (and the other ``changes`` made), deal ``left``
        more cards to ``turn``, then to the next players in turn order."""
        g = self.game
        if left > 0 and any(supply):
            return replace(self, supply=supply, step=Dealing(left), **changes)
        nxt = (self.turn + 1) % g.players
        if nxt != self.start and any(supply):
            size = g.numbers["deal_first_round" if self.round == 1 else "deal_later_rounds"]
            return replace(self, supply=supply, turn=nxt, step=Dealing(size), **changes)
        # the deal is over (or the supply ran out): planning begins
        return replace(self, supply=supply, step=PLANNING, turn=self.start, passes=0,
                       **changes)

    def _end_turn(self, passed: bool, **changes):
        """The turn ends (after the ``changes`` the action made to the position)."""
        g = self.game
        passes = self.passes + 1 if passed else 0
        s = replace(self, step=PLANNING, passes=passes, turn=(self.turn + 1) % g.players,
                    **changes)
        if passes < g.players:
            return s
        # all passed in a row: the bought cards' coins went to the bank already;
        # journeys begin with the starting player
        table = table_from_realms(g.players, s.realms)
        return s._begin_journey(s.start, table, 0)

    def _begin_journey(self, player: int, table, done: int):
        g = self.game
        hand = self.hands[player]
        trip = Trip(player, self.gold[player], tuple(hand[i] for i in g.travel_idx),
                    hand[g.escort_idx], hand[g.turn_idx])
        return replace(self, step=JOURNEYING, turn=player, trip=trip, table=table,
                       journeys=done, passes=0)

    def _journey_step(self, action):
        g = self.game
        p = self.turn
        old = self.trip
        trip = J.advance(old, action, self.table, g.journey_rules)
        hand, discard = self.hands[p], self.discard
        used = [(g.travel_idx[k], old.hand[k] - trip.hand[k]) for k in range(len(g.travel_idx))]
        used += [(g.escort_idx, old.escorts - trip.escorts), (g.turn_idx, old.turns - trip.turns)]
        for i, k in used:
            if k:
                hand = _add(hand, i, -k)
                discard = _add(discard, i, k)
        gold = _set(self.gold, p, trip.gold)
        if getattr(action, "thief", 0):
            gold = _set(gold, action.thief_to, gold[action.thief_to] + action.thief)
        s = replace(self, hands=_set(self.hands, p, hand), discard=discard, gold=gold, trip=trip)
        if not trip.done:
            return s
        done = self.journeys + 1
        if done < g.players:
            return s._begin_journey((p + 1) % g.players, self.table, done)
        return s._end_round()

    def _end_round(self):
        g = self.game
        discard = self.discard
        for realm in self.realms:              # table cards to the discard pile
            for kind, specials in realm:
                discard = _add(discard, g.index[kind])
                for special, _ in specials:
                    discard = _add(discard, g.special_idx[special])
        supply = tuple(a + b for a, b in zip(self.supply, discard))   # shuffled together
        empty = (0,) * len(g.kinds)
        base = dict(realms=((),) * g.players, discard=empty, supply=supply,
                    bought=(0,) * g.players, trip=None, table=None, journeys=0, passes=0,
                    villages_gone=False)
        if self.round >= g.rounds:
            return replace(self, step=GAME_OVER, **base)
        start = (self.start + 1) % g.players
        s = replace(self, round=self.round + 1, start=start, turn=start,
                    step=Dealing(g.numbers["deal_later_rounds"]), **base)
        if not sum(supply):
            return s._continue_deal(0, supply)
        return s

    # ---- the end ----------------------------------------------------------------------
    def _returns(self):
        return win_shares(best_players(self.gold), self.game.players)

    def scores(self):
        return tuple(self.gold)

    # ---- hidden information --------------------------------------------------------------
    def view(self, player: int) -> "ElvesState":
        """What ``player`` may see: his own hand and gold, the table, the discard pile,
        how many cards the supply and each hand hold.  Hidden: the supply's cards
        (except while he searches it after "No village card!"), the other hands, the
        other players' gold totals (the rulebook keeps them secret) and another
        traveller's cards and gold.  At the end of the game everything is shown.
        (The core refuses a ``player`` out of range before this runs.)"""
        if type(self.step) is GameOver:
            return self
        hands = tuple(h if p == player else _hidden_pile(h) for p, h in enumerate(self.hands))
        gold = tuple(x if p == player else HIDDEN for p, x in enumerate(self.gold))
        trip = self.trip
        if trip is not None and trip.player != player:
            trip = replace(trip, hand=(HIDDEN,) * len(trip.hand), escorts=HIDDEN, turns=HIDDEN,
                           gold=HIDDEN)
        searching = type(self.step) is Searching and self.turn == player
        supply = self.supply if searching else _hidden_pile(self.supply)
        return replace(self, hands=hands, supply=supply, trip=trip, gold=gold)

    def is_view(self) -> bool:
        return any(x is HIDDEN for x in self.gold)

    # ---- counting ----------------------------------------------------------------------
    def card_counts(self) -> dict:
        """Cards in the supply, the discard pile, the hands and on the table."""
        table = sum(1 + len(sp) for realm in self.realms for _, sp in realm)
        return {"supply": self.supply_size(), "discard": sum(self.discard),
                "hands": sum(_pile_size(h) for h in self.hands), "table": table}

    def hand_cards(self, player: int) -> dict:
        """``{card label: count}`` of a player's hand."""
        return {card_label(k): c for k, c in zip(self.game.kinds, self.hands[player]) if c}


# the clause each planning action may break (``ElvesState._why_illegal``)
_WHY_NOT = ((PlayVillage, ElvesState._why_not_play_village),
            (NoVillageCard, ElvesState._why_not_no_village_card),
            (TakeVillage, ElvesState._why_not_take_village),
            (DrawThree, ElvesState._why_not_draw_three),
            (Buy, ElvesState._why_not_buy),
            (PlaySpecial, ElvesState._why_not_play_special),
            (RemoveVillage, ElvesState._why_not_remove_village),
            (Pass, ElvesState._why_not_pass))


def _is_hidden(pile) -> bool:
    return len(pile) == 2 and pile[0] is HIDDEN


def _pile_size(pile) -> int:
    return pile[1] if _is_hidden(pile) else sum(pile)


def _hidden_pile(pile) -> tuple:
    return pile if _is_hidden(pile) else (HIDDEN, sum(pile))


def card_total(state: ElvesState) -> int:
    return sum(state.card_counts().values())


def gold_ledger(state: ElvesState) -> list:
    """Every gold transfer of the game so far, as ``(from, to, amount, why)``; ``from``
    and ``to`` are player indices or ``"bank"``.  Derived from the action log alone."""
    g = state.game
    # the reasons are English keys (ledger_text says them in the reader's language)
    out = [("bank", p, g.numbers["starting_gold"], N_("starting gold"))
           for p in range(g.players)]
    for who, a in state.history():
        if isinstance(a, Buy):
            out.append((who, "bank", a.cost, N_("bought card")))
        elif isinstance(a, RemoveVillage):
            out.append((who, "bank", a.cost, N_("removed village")))
        elif isinstance(a, Teleport):
            out.append((who, "bank", a.cost, N_("teleport")))
        elif isinstance(a, (Visit, TeleportTo)):
            if a.thief:
                out.append((who, a.thief_to, a.thief, N_("thief")))
            out.append(("bank", who, a.gold, N_("village")))
            if a.bonus:
                out.append(("bank", who, a.bonus, N_("all villages bonus")))
    return out


def ledger_balances(state: ElvesState) -> tuple:
    """Each player's gold according to ``gold_ledger`` (equals ``state.gold``)."""
    bal = [0] * state.game.players
    for src, dst, amount, _ in gold_ledger(state):
        if src != "bank":
            bal[src] -= amount
        if dst != "bank":
            bal[dst] += amount
    return tuple(bal)


def ledger_text(state: ElvesState) -> str:
    """``gold_ledger`` as sentences, players named as the game names them."""
    g = state.game

    def line(src, dst, amount, why):
        if src == "bank":
            text = _("the bank pays {player} {amount} gold ({why})")
        elif dst == "bank":
            text = _("{player} pays the bank {amount} gold ({why})")
        else:
            text = _("{player} pays {payee} {amount} gold ({why})")
        return text.format(player=g.player_name(dst if src == "bank" else src),
                           payee=g.player_name(dst) if dst != "bank" else "",
                           amount=amount, why=_(why))

    with using(g.language):
        return "\n".join(line(*entry) for entry in gold_ledger(state))
