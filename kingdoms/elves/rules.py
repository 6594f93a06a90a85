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

import os
import re
from bisect import bisect_right
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from itertools import accumulate, chain, compress, repeat
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from kingdoms.core.data import load_data
from kingdoms.core.protocol import (CHANCE, HIDDEN, TERMINAL, Action, Game, GameOptionError,
                                    IllegalAction, State, replace)

from . import journey as J
from .journey import (ChangeDirection, EndJourney, JourneyRules, Teleport, TeleportCard,
                      TeleportTo, Trip, Visit, never_raises, player_text, table_from_realms)

__all__ = ["Elves", "ElvesState", "Draw", "PlayVillage", "NoVillageCard", "TakeVillage",
           "DrawThree", "ledger_text", "NUMBER_RANGES", "LIMITS",
           "Discard", "Buy", "PlaySpecial", "RemoveVillage", "Pass", "gold_ledger",
           "card_total", "Visit", "ChangeDirection", "Teleport", "TeleportCard", "TeleportTo",
           "EndJourney"]

PLANNING_SPECIALS = ("gold", "thief", "tree", "sea_monster")
OBSTACLES = ("tree", "sea_monster")

# The allowed range of every number of the data file.  Inside them every game ends by
# its rules and has a legal action at every decision (see the module docstring).
LIMITS = MappingProxyType({
    "cards": 2000,          # cards.total, villages/travel/special totals
    "copies": 200,          # copies of one card kind (or villages of one terrain)
    "village_value": 99,
    "travel_cost": 10,      # cards of one vehicle for one village
    "gold": 1000,           # any amount of gold in the rules (buy costs ...)
    "rounds": 10,
})
NUMBER_RANGES = MappingProxyType({          # rules.<key>: (min, max)
    "starting_gold": (0, 1000),
    "tokens": (0, 20),
    "deal_first_round": (1, 30),            # a deal gives at least one card
    "deal_later_rounds": (1, 30),
    "villages_per_realm": (1, 6),           # 0: a village in hand could never be played
    "villages_per_realm_two_players": (1, 6),
    "draw_cards": (1, 10),                  # discard_cards: draw_cards + 1 .. 11
    "remove_village": (0, 1000),
    "remove_per_special": (0, 1000),
    "thief_gold": (0, 1000),
    "all_villages_bonus": (0, 1000),
    "teleport_gold": (0, 1000),
    "teleport_cards": (1, 20),              # 0: a spell for free, over and over
})
# Where each limit applies (``Elves.data_ranges()``): data key (``*`` = any key) ->
# (kind, min, max); a list of numbers: every entry.  Checks across keys (totals, the
# terrains a vehicle reaches, discard more than draw) may refuse values inside them.
DATA_RANGES = MappingProxyType({
    "cards.total": (int, 1, LIMITS["cards"]),
    "villages.total": (int, 1, LIMITS["cards"]),
    "villages.values.*": (int, 1, LIMITS["village_value"]),
    "travel.costs.*.*": (int, 1, LIMITS["travel_cost"]),
    "travel.cards.*": (int, 0, LIMITS["copies"]),
    "travel.total": (int, 0, LIMITS["cards"]),
    "special.cards.*": (int, 0, LIMITS["copies"]),
    "special.total": (int, 0, LIMITS["cards"]),
    **{f"rules.{k}": (int, lo, hi) for k, (lo, hi) in NUMBER_RANGES.items()},
    # from draw_cards + 1 (more cards discarded than drawn)
    "rules.discard_cards": (int, NUMBER_RANGES["draw_cards"][0] + 1,
                            NUMBER_RANGES["draw_cards"][1] + 1),
    "rules.buy_costs": (int, 0, LIMITS["gold"]),
    "rules.rounds.*": (int, 1, LIMITS["rounds"]),
})
_NAME = re.compile(r"[a-z][a-z0-9_]{0,29}")


def _bounds(key: str) -> dict:
    """``min=``/``max=`` of ``key``'s entry in ``DATA_RANGES`` (for ``GameData.get``)."""
    _, lo, hi = DATA_RANGES[key]
    return {"min": lo, "max": hi}


@lru_cache(maxsize=512)
def card_label(kind: str) -> str:
    """``village:plains:2`` -> ``plains village (2)``; ``travel:giant_pig`` -> ``giant pig``."""
    if kind is HIDDEN:
        return "?"
    parts = kind.split(":")
    if parts[0] == "village":
        return f"{parts[1]} village ({parts[2]})"
    return parts[1].replace("_", " ")


# =========================================================================== actions

@dataclass(frozen=True)
class Draw(Action):
    """Chance: the top card of the supply goes to player ``to`` (seen only by him)."""

    card: str
    to: int

    @never_raises
    def __str__(self):
        what = "a card" if self.card is HIDDEN else card_label(self.card)
        return f"{player_text(self.to)} draws {what}"

    def seen_by(self, player):
        return self if player == self.to else Draw(HIDDEN, self.to)  # type: ignore[arg-type]


@dataclass(frozen=True)
class PlayVillage(Action):
    village: str
    realm: int

    @never_raises
    def __str__(self):
        return f"play the {card_label(self.village)} into {player_text(self.realm)}'s realm"


@dataclass(frozen=True)
class NoVillageCard(Action):
    """Say "No village card!" and show the hand (``shown``, every card of it); then
    search the supply (``TakeVillage``) and discard one card."""

    shown: tuple = ()

    @never_raises
    def __str__(self):
        return ('"No village card!" (shows the hand: '
                + (", ".join(card_label(k) for k in self.shown) or "no cards") + ")")


@dataclass(frozen=True)
class TakeVillage(Action):
    """After "No village card!": take ``village`` from the supply (``None``: the supply
    holds no village card).  The others do not see which village was taken."""

    village: str | None
    by: int

    @never_raises
    def __str__(self):
        if self.village is None:
            return f"{player_text(self.by)} finds no village card in the supply"
        if self.village is HIDDEN:
            return f"{player_text(self.by)} takes a village card from the supply"
        return f"take the {card_label(self.village)} from the supply"

    def seen_by(self, player):
        if player == self.by or self.village is None:
            return self
        return TakeVillage(HIDDEN, self.by)  # type: ignore[arg-type]


@dataclass(frozen=True)
class DrawThree(Action):
    def __str__(self):
        return "draw 3 cards and discard 4"


@dataclass(frozen=True)
class Discard(Action):
    card: str

    @never_raises
    def __str__(self):
        return f"discard the {card_label(self.card)} (face up)"


@dataclass(frozen=True)
class Buy(Action):
    cost: int

    @never_raises
    def __str__(self):
        return f"buy the top card for {self.cost:d} gold"


@dataclass(frozen=True)
class PlaySpecial(Action):
    """Place a ``special`` card (gold, thief, tree, sea_monster) with a coat of arms
    token next to player ``realm``'s village ``slot`` (0 = the right-hand one)."""

    special: str
    realm: int
    slot: int

    @never_raises
    def __str__(self):
        return (f"play a {self.special.replace('_', ' ')} card at {player_text(self.realm)}'s "
                f"village {self.slot + 1:d}")


@dataclass(frozen=True)
class RemoveVillage(Action):
    slot: int
    cost: int

    @never_raises
    def __str__(self):
        return f"remove own village {self.slot + 1:d} (pay {self.cost:d} gold)"


@dataclass(frozen=True)
class Pass(Action):
    def __str__(self):
        return "pass"


PASS = Pass()
DRAW_THREE = DrawThree()

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


# =========================================================================== the game

@dataclass(frozen=True)
class Elves(Game):
    """King of the Elves for 2-6 players.

    Options: ``teleport`` (the teleporting-magic variant), ``data`` (path of an
    edited copy of the component file), ``player_names``.
    """

    name = "elves"
    title = "King of the Elves"
    min_players = 2
    max_players = 6
    # hands, the supply and the gold totals are secret
    hidden_information = True

    players: int = 2
    teleport: bool = False
    data: str | None = None
    player_names: tuple = ()
    # the data file's content (a digest): games built from different contents of one
    # path are different games (not an option; rebuilt from the file)
    _data_digest: str = field(default="", init=False, repr=False)

    def __post_init__(self):
        if isinstance(self.players, bool):
            raise GameOptionError(f"players must be a whole number, not {self.players!r}")
        super().__post_init__()
        if not isinstance(self.teleport, bool):
            raise GameOptionError(f"teleport must be True or False, not {self.teleport!r}")
        # every option value is hashable and JSON-able: data is a path *text*, the
        # names a tuple of texts (a JSON list of names is read back as that tuple)
        data = self.data
        if isinstance(data, os.PathLike):
            data = os.fspath(data)
        if data is not None and not isinstance(data, str):
            raise GameOptionError(f"data must be the path of a data file (a str) or None, "
                                  f"not {type(self.data).__name__}")
        object.__setattr__(self, "data", data)
        names = self.player_names
        if isinstance(names, (str, bytes)) or not isinstance(names, (tuple, list)):
            raise GameOptionError("player_names must be a tuple of names (one text per "
                                  f"player), not {type(names).__name__}")
        if names:
            if len(names) != self.players:
                raise GameOptionError(f"player_names needs {self.players} names, not {len(names)}")
            if not all(isinstance(n, str) and n.strip() for n in names):
                raise GameOptionError("player_names must all be non-empty texts")
            if len(set(names)) != len(names):
                raise GameOptionError("player_names must be different from each other")
        object.__setattr__(self, "player_names", tuple(names))
        d = load_data("kingdoms.elves", self.data)
        object.__setattr__(self, "_data", d)
        self._parse(d)
        text = json.dumps(d.raw, sort_keys=True, default=_plain)
        object.__setattr__(self, "_data_digest", hashlib.sha256(text.encode()).hexdigest())

    def __reduce__(self):
        # rebuilt from its options (the parsed data holds unpicklable mapping proxies),
        # so games and states can be sent to worker processes by ``simulate``
        return (type(self), (self.players, self.teleport, self.data, self.player_names))

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

    # ---- the component file ---------------------------------------------------
    def _parse(self, d):
        """Read and check every number of the data file (type and range, see
        ``LIMITS``); a file that passes makes a game that always ends by its rules,
        with a legal action at every decision."""
        s = object.__setattr__
        lim = LIMITS

        def names(key, lo, hi):
            """A list of distinct lower-case names (no ':' — they make card kinds)."""
            value = d.get(key, list)
            if not lo <= len(value) <= hi:
                raise d.error(key, f"should list from {lo} to {hi} names, not {len(value)}")
            for v in value:
                if not isinstance(v, str) or not _NAME.fullmatch(v):
                    raise d.error(key, f"should list names of lower-case letters, digits and "
                                  f"'_' (at most 30), not {v!r}")
            if len(set(value)) != len(value):
                raise d.error(key, "lists a name twice")
            return tuple(value)

        def whole_numbers(key, lo, hi):
            """A list of whole numbers, each from ``lo`` to ``hi``."""
            value = d.get(key, list)
            for v in value:
                if type(v) is not int or not lo <= v <= hi:
                    raise d.error(key, f"should list whole numbers from {lo} to {hi}, not {v!r}")
            return value

        terrains = names("villages.terrains", 1, 12)
        kinds, counts = [], []
        village_cards = 0
        for t in terrains:
            key = f"villages.values.{t}"
            values = whole_numbers(key, *DATA_RANGES["villages.values.*"][1:])
            if len(values) > lim["copies"]:
                raise d.error(key, f"should list at most {lim['copies']} cards, not {len(values)}")
            for v in sorted(set(values)):
                kinds.append(f"village:{t}:{v}")
                counts.append(values.count(v))
            village_cards += len(values)
        village_total = d.get("villages.total", int, **_bounds("villages.total"))
        if village_cards != village_total:
            raise d.error("villages.values", f"lists {village_cards} cards, but villages.total is "
                          f"{village_total}")
        costs = d.get("travel.costs", dict)
        vehicles = tuple(costs)
        if not 1 <= len(vehicles) <= 12:
            raise d.error("travel.costs", f"should name from 1 to 12 vehicles, not {len(vehicles)}")
        cost_rows = []
        for v in vehicles:
            if not isinstance(v, str) or not _NAME.fullmatch(v):
                raise d.error(f"travel.costs.{v}", "is not a vehicle name (lower-case letters, "
                              "digits and '_')")
            row = d.get(f"travel.costs.{v}", dict)
            for t in row:
                if t not in terrains:
                    raise d.error(f"travel.costs.{v}.{t}", "is not a village terrain")
                d.get(f"travel.costs.{v}.{t}", int, **_bounds("travel.costs.*.*"))
            cost_rows.append((v, tuple(row.items())))
        if "raft" not in vehicles:
            raise d.error("travel.costs", "needs a raft (the sea monster asks one more raft)")

        def read_counts(section: str, names) -> None:
            """Copies per card of ``section`` (travel, special), checked against its total."""
            cards = 0
            for t in names:
                n = d.get(f"{section}.cards.{t}", int, **_bounds(f"{section}.cards.*"))
                kinds.append(f"{section}:{t}")
                counts.append(n)
                cards += n
            total = d.get(f"{section}.total", int, **_bounds(f"{section}.total"))
            if cards != total:
                raise d.error(f"{section}.cards", f"sum to {cards}, but {section}.total is {total}")

        read_counts("travel", vehicles)
        planning = d.get("special.planning", list)
        journeying = d.get("special.journeying", list)
        if tuple(sorted(map(str, planning))) != tuple(sorted(PLANNING_SPECIALS)) or \
                tuple(sorted(map(str, journeying))) != ("change_direction", "escort"):
            raise d.error("special.planning", "the special card types are fixed by the rules")
        read_counts("special", tuple(planning) + tuple(journeying))
        total = d.get("cards.total", int, **_bounds("cards.total"))
        if sum(counts) != total:
            raise d.error("cards.total", f"is {total}, but the cards listed sum to {sum(counts)}")
        r = "rules."
        num = {}
        for k in NUMBER_RANGES:
            num[k] = d.get(r + k, int, **_bounds(r + k))
        # draw 3 / discard 4 must lose cards, or planning need never end
        num["discard_cards"] = d.get(r + "discard_cards", int, **{
            **_bounds(r + "discard_cards"), "min": num["draw_cards"] + 1})
        buy_costs = whole_numbers("rules.buy_costs", *DATA_RANGES["rules.buy_costs"][1:])
        if len(buy_costs) > 10:
            raise d.error("rules.buy_costs", f"should list at most 10 costs, not {len(buy_costs)}")
        rounds = d.get("rules.rounds", dict)
        for k in rounds:
            if k not in {str(n) for n in range(self.min_players, self.max_players + 1)}:
                raise d.error(f"rules.rounds.{k}", "is not a player count (2 to 6)")
            d.get(f"rules.rounds.{k}", int, **_bounds("rules.rounds.*"))
        if str(self.players) not in rounds:
            raise d.error("rules.rounds", f"gives no number of rounds for {self.players} players")
        obstacle_terrains = []
        for name in OBSTACLES:
            key = f"special.{name}_terrains"
            value = names(key, 0, len(terrains))
            for t in value:
                if t not in terrains:
                    raise d.error(key, f"names {t!r}, which is not a village terrain")
            obstacle_terrains.append(value)
        obstacles = (("tree", obstacle_terrains[0], None),
                     ("sea_monster", obstacle_terrains[1], "raft"))
        jr = JourneyRules(tuple(cost_rows),
                          obstacles=obstacles, thief_gold=num["thief_gold"],
                          all_villages_bonus=num["all_villages_bonus"], teleport=self.teleport,
                          teleport_gold=num["teleport_gold"], teleport_cards=num["teleport_cards"])
        kinds = tuple(kinds)
        s(self, "kinds", kinds)
        s(self, "deck", tuple(counts))
        s(self, "index", MappingProxyType({k: i for i, k in enumerate(kinds)}))
        s(self, "terrains", tuple(terrains))
        s(self, "vehicles", vehicles)
        s(self, "village_idx", tuple(i for i, k in enumerate(kinds) if k.startswith("village:")))
        s(self, "travel_idx", tuple(self.index[f"travel:{v}"] for v in vehicles))
        s(self, "escort_idx", self.index["special:escort"])
        s(self, "turn_idx", self.index["special:change_direction"])
        s(self, "special_idx", MappingProxyType(
            {t: self.index[f"special:{t}"] for t in PLANNING_SPECIALS}))
        s(self, "obstacle_terrains", MappingProxyType({name: terr for name, terr, _ in obstacles}))
        s(self, "numbers", MappingProxyType(num))
        s(self, "buy_costs", tuple(buy_costs))
        s(self, "rounds", rounds[str(self.players)])
        s(self, "realm_limit", num["villages_per_realm_two_players"] if self.players == 2
          else num["villages_per_realm"])
        s(self, "journey_rules", jr)
        self._action_tables()

    def _action_tables(self):
        """Every action and chance outcome that can recur, made once (they are
        immutable values, so the same object serves every state)."""
        s = object.__setattr__
        kinds, players = self.kinds, self.players
        # the village cards come first in ``kinds``: a hand's villages are hand[:villages]
        s(self, "villages", len(self.village_idx))
        assert self.village_idx == tuple(range(self.villages))
        s(self, "draws", tuple(tuple(Draw(k, to) for to in range(players)) for k in kinds))
        s(self, "discards", tuple(Discard(k) for k in kinds))
        s(self, "village_plays", tuple(tuple(PlayVillage(kinds[i], r) for r in range(players))
                                       for i in self.village_idx))
        s(self, "buys", tuple(Buy(c) for c in self.buy_costs))
        # hand -> its counts of gold, thief, tree, sea monster (PLANNING_SPECIALS order)
        s(self, "planning_specials_of",
          itemgetter(*(self.special_idx[t] for t in PLANNING_SPECIALS)))
        # PlaySpecial(special, realm, slot), and the villages each special may lie next to
        s(self, "special_plays", MappingProxyType({t: tuple(tuple(PlaySpecial(t, r, slot)
                                                  for slot in range(self.realm_limit))
                                            for r in range(players))
                                  for t in PLANNING_SPECIALS}))
        s(self, "special_fits", MappingProxyType({t: frozenset(
            kinds[i] for i in self.village_idx
            if t not in OBSTACLES or J.village_terrain(kinds[i]) in self.obstacle_terrains[t])
            for t in PLANNING_SPECIALS}))

    # ---- convenience ------------------------------------------------------------



    def policies(self) -> dict:
        """``random`` and the heuristics of ``kingdoms.elves.policies``."""
        from .policies import named_policies
        return named_policies()

    def default_policies(self) -> tuple:
        """The ``planner`` in every seat (plays villages it can reach, lays gold at home
        and thieves and obstacles on its left, buys cheap cards, journeys by the best
        journey, travelling greedily where that search is too big).  Every game
        ends by the rules: the rounds are fixed in number."""
        from .policies import default_planner
        player = default_planner()
        return (player,) * self.players

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
            self, round=1, start=0, phase="deal", supply=self.deck, discard=empty,
            hands=(empty,) * n, gold=(self.numbers["starting_gold"],) * n,
            realms=((),) * n, bought=(0,) * n, turn=0, passes=0,
            pending=(self.numbers["deal_first_round"],), trip=None, table=None, journeys=0)

    def player_name(self, player: int) -> str:
        if self.player_names and 0 <= player < len(self.player_names):
            return str(self.player_names[player])
        return f"Player {player + 1}"

    def action_text(self, action) -> str:
        """The action's text with the players' given names: an action names players
        "Player 1" … (it does not carry the game), as ``journey``'s texts do."""
        text = super().action_text(action)
        if not self.player_names:
            return text
        return _PLAYER_IN_TEXT.sub(lambda m: self._named(int(m.group(1))), text)

    def _named(self, number: int) -> str:
        return self.player_name(number - 1) if 1 <= number <= self.players else f"Player {number}"


# how action texts name a player (journey's ``_p``): "Player 3"
_PLAYER_IN_TEXT = re.compile(r"\bPlayer (\d+)\b")


def _plain(x):
    """JSON for the data file's read-only mappings (for its digest)."""
    if isinstance(x, MappingProxyType):
        return dict(x)
    raise TypeError(f"not data: {type(x).__name__}")


@lru_cache(maxsize=4096)
def _fraction(a: int, b: int) -> Fraction:
    return Fraction(a, b)


SPECIAL_TYPE = {"gold": "gold", "thief": "thief", "tree": "obstacle", "sea_monster": "obstacle"}


def _clashes(special: str, specials: tuple) -> bool:
    """Only one card of each type may lie next to a village: one gold, one thief, one
    obstacle.  Does ``special`` clash with the ``(special, owner)`` cards there?"""
    kind = SPECIAL_TYPE[special]
    return any(SPECIAL_TYPE[t] == kind for t, _ in specials)


@lru_cache(maxsize=256)
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
    ((special, owner), ...))``.  ``phase`` is ``deal``, ``planning``, ``journey`` or
    ``over``; ``turn`` is the player to receive cards / to act / to travel.
    ``pending`` is a step under way: during the deal ``(cards still to give turn,)``,
    in planning ``("draw", cards, why)`` or ``("discard", cards, why)``.
    ``trip`` and ``table`` describe the journey under way.  After "No village card!"
    ``pending`` is ``("search", 1, "nvc")`` while the player searches the supply.

    A view (``view(p)``) hides the supply's cards (``(HIDDEN, size)``), the other
    players' hands (``(HIDDEN, size)``) and gold totals (``HIDDEN``), and another
    traveller's cards and gold; the searcher of "No village card!" sees the supply.
    """

    round: int
    start: int
    phase: str
    supply: tuple
    discard: tuple
    hands: tuple
    gold: tuple
    realms: tuple
    bought: tuple
    turn: int
    passes: int
    pending: tuple
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
            raise IllegalAction(f"Not an action of King of the Elves: {problem}")
        return super().apply(action)

    def _current_player(self):
        if self.phase == "over":
            return TERMINAL
        if self.phase == "deal":
            return CHANCE
        if self.phase == "planning" and self.pending and self.pending[0] == "draw":
            return CHANCE
        return self.turn

    # ---- chance ------------------------------------------------------------------------
    def _chance_outcomes(self):
        self._check_supply_known()
        total = sum(self.supply)
        to = self.turn
        return tuple((draws[to], _fraction(c, total))
                     for draws, c in zip(self.game.draws, self.supply) if c)

    def _sample_chance(self, rng):
        # card number r of the supply, counting kind by kind
        self._check_supply_known()
        supply = self.supply
        r = rng.randrange(sum(supply))
        i = bisect_right(tuple(accumulate(supply)), r)
        if i == len(supply):
            raise AssertionError("empty supply at a draw")
        return self.game.draws[i][self.turn]

    # ---- decisions ----------------------------------------------------------------------
    def _legal_actions(self):
        if self.gold[self.turn] is HIDDEN:
            raise ValueError(f"this view does not show {self.game.player_name(self.turn)}'s "
                             "cards and gold, so it cannot list that player's actions; "
                             f"ask view({self.turn}) or the full state")
        if self.phase == "journey":
            return J.moves(self.trip, self.table, self.game.journey_rules)
        if self.pending:
            if self.pending[0] == "search":    # after "No village card!"
                return self._search_actions()
            # ("discard", k, why): any card in hand
            return tuple(compress(self.game.discards, self.hands[self.turn]))
        return self._planning_actions()

    def _check_supply_known(self):
        if _is_hidden(self.supply):
            raise ValueError("a player's view does not know the cards of the supply, so it "
                             "has no chance outcomes; ask the full state")

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
        has_village = any(hand[:g.villages])
        if has_village:
            limit = g.realm_limit
            open_realms = [r for r, realm in enumerate(realms) if len(realm) < limit]
            for plays in compress(g.village_plays, hand):      # villages held, in order
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
            out.append(g.buys[b])
        # gold, thief and obstacle cards
        held = list(compress(PLANNING_SPECIALS, g.planning_specials_of(hand)))
        if held and self.tokens_left(p) > 0:
            for special in held:
                fits, plays = g.special_fits[special], g.special_plays[special]
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
        g = self.game
        p = self.turn
        if self.phase == "journey":
            return J.why_not(self.trip, action, self.table, g.journey_rules)
        if self.pending and self.pending[0] == "search":
            if isinstance(action, TakeVillage):
                if action.by != p:
                    return f"It is {g.player_name(p)} who searches the supply."
                return ("Take a village card that is in the supply (or, when it holds none, "
                        "say so).")
            return '"No village card!": first take a village card from the supply.'
        if self.pending and self.pending[0] == "discard":
            if isinstance(action, Discard):
                return "You can only discard a card that is in your hand."
            return f"First discard {self.pending[1]} more card(s)."
        hand = self.hands[p]
        if isinstance(action, PlayVillage):
            if action.village not in g.index or not hand[g.index[action.village]]:
                return "You can only play a village card from your hand."
            if not 0 <= action.realm < g.players:
                return "There is no such realm."
            return (f"A realm may hold at most {g.realm_limit} villages"
                    f"{' (3 with two players)' if g.players == 2 else ''}.")
        if isinstance(action, NoVillageCard):
            if self.realms[p] or any(hand[i] for i in g.village_idx):
                return ('You may say "No village card!" only with no village in your realm '
                        "and none in your hand.")
            if self.villages_gone or not self.supply_size():
                return ('"No village card!" needs a supply to search; this round\'s search '
                        "already found no village card in it.")
            return '"No village card!" shows your whole hand (shown = every card in it).'
        if isinstance(action, TakeVillage):
            return 'Take a village card from the supply only after saying "No village card!".'

        if isinstance(action, DrawThree):
            return ("Draw 3 needs 3 cards in the supply and a hand from which 4 cards can "
                    "then be discarded.")
        if isinstance(action, Buy):
            b = self.bought[p]
            if b >= len(g.buy_costs):
                return f"You may not buy a card number {b + 1} in a round."
            if action.cost != g.buy_costs[b]:
                return f"Your next card costs {g.buy_costs[b]} gold."
            return "You need the gold for the card (and a card in the supply)."
        if isinstance(action, PlaySpecial):
            if action.special not in PLANNING_SPECIALS:
                return "Only gold, thief and obstacle cards are played while planning."
            if not hand[g.special_idx[action.special]]:
                return "You can only play a special card from your hand."
            if self.tokens_left(p) <= 0:
                return "You have used all your coat of arms tokens this round."
            if not (0 <= action.realm < g.players and 0 <= action.slot < len(self.realms[action.realm])):
                return "There is no village there."
            kind, _ = self.realms[action.realm][action.slot]
            terrain = J.village_terrain(kind)
            if action.special in OBSTACLES and terrain not in g.obstacle_terrains[action.special]:
                where = " or ".join(g.obstacle_terrains[action.special])
                return f"The {action.special.replace('_', ' ')} may only go next to a {where} village."
            return ("Only one card of each type may lie next to a village (one gold, one "
                    "thief, one obstacle).")
        if isinstance(action, RemoveVillage):
            if not 0 <= action.slot < len(self.realms[p]):
                return "You may only remove villages from your own realm."
            return ("Removing a village costs 2 gold plus 1 for each gold, thief and obstacle "
                    "card next to it, and you must have the gold.")
        if isinstance(action, Pass):
            return "You may pass only when you have at least one village in your realm."
        return f"{action} is not a planning action."

    # ---- what an action does ------------------------------------------------------------
    def _next(self, action):
        # each branch builds the next position with a single ``replace``
        g = self.game
        if isinstance(action, Draw):
            return self._after_draw(action)
        if self.phase == "journey":
            return self._journey_step(action)
        p = self.turn
        hands, hand = self.hands, self.hands[self.turn]
        if isinstance(action, TakeVillage):
            if action.village is None:         # nothing to take: the turn ends
                return self._end_turn(False, villages_gone=True)
            i = g.index[action.village]
            return replace(self, supply=_add(self.supply, i, -1),
                           hands=_set(hands, p, _add(hand, i)), pending=("discard", 1, "nvc"))
        if self.pending:                       # a discard
            i = g.index[action.card]
            hands = _set(hands, p, _add(hand, i, -1))
            discard = _add(self.discard, i)
            left = self.pending[1] - 1
            if left:
                return replace(self, hands=hands, discard=discard,
                               pending=("discard", left, self.pending[2]))
            return self._end_turn(False, hands=hands, discard=discard)
        if isinstance(action, Pass):
            return self._end_turn(passed=True)
        if isinstance(action, PlayVillage):
            i = g.index[action.village]
            realms = _set(self.realms, action.realm,
                          self.realms[action.realm] + ((action.village, ()),))
            return self._end_turn(False, hands=_set(hands, p, _add(hand, i, -1)), realms=realms)
        if isinstance(action, NoVillageCard):
            return replace(self, pending=("search", 1, "nvc"))
        if isinstance(action, DrawThree):
            return replace(self, pending=("draw", g.numbers["draw_cards"], "draw3"))
        if isinstance(action, Buy):
            return replace(self, gold=_set(self.gold, p, self.gold[p] - action.cost),
                           bought=_set(self.bought, p, self.bought[p] + 1),
                           pending=("draw", 1, "buy"))
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

    def _after_draw(self, action: Draw):
        g = self.game
        i = g.index[action.card]
        to = action.to
        supply = _add(self.supply, i, -1)
        hands = _set(self.hands, to, _add(self.hands[to], i))
        if self.phase == "deal":
            return self._continue_deal(self.pending[0] - 1, supply, hands=hands)
        left = self.pending[1] - 1
        why = self.pending[2]
        if left:
            return replace(self, supply=supply, hands=hands, pending=("draw", left, why))
        if why == "draw3":
            return replace(self, supply=supply, hands=hands,
                           pending=("discard", g.numbers["discard_cards"], why))
        return self._end_turn(False, supply=supply, hands=hands)       # a bought card

    def _continue_deal(self, left: int, supply: tuple, **changes):
        """With the supply now ``supply`` (and the other ``changes`` made), deal ``left``
        more cards to ``turn``, then to the next players in turn order."""
        g = self.game
        if left > 0 and any(supply):
            return replace(self, supply=supply, pending=(left,), **changes)
        nxt = (self.turn + 1) % g.players
        if nxt != self.start and any(supply):
            size = g.numbers["deal_first_round" if self.round == 1 else "deal_later_rounds"]
            return replace(self, supply=supply, turn=nxt, pending=(size,), **changes)
        # the deal is over (or the supply ran out): planning begins
        return replace(self, supply=supply, phase="planning", turn=self.start, pending=(),
                       passes=0, **changes)

    def _end_turn(self, passed: bool, **changes):
        """The turn ends (after the ``changes`` the action made to the position)."""
        g = self.game
        passes = self.passes + 1 if passed else 0
        s = replace(self, pending=(), passes=passes, turn=(self.turn + 1) % g.players, **changes)
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
        return replace(self, phase="journey", turn=player, trip=trip, table=table,
                       journeys=done, pending=(), passes=0)

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
            return replace(self, phase="over", pending=(), **base)
        start = (self.start + 1) % g.players
        s = replace(self, round=self.round + 1, start=start, phase="deal", turn=start,
                    pending=(g.numbers["deal_later_rounds"],), **base)
        if not sum(supply):
            return s._continue_deal(0, supply)
        return s

    # ---- the end ----------------------------------------------------------------------
    def _returns(self):
        best = max(self.gold)
        winners = [p for p, x in enumerate(self.gold) if x == best]
        return tuple(Fraction(1, len(winners)) if p in winners else Fraction(0)
                     for p in range(self.game.players))

    def scores(self):
        return tuple(self.gold)

    # ---- hidden information --------------------------------------------------------------
    def view(self, player: int) -> "ElvesState":
        """What ``player`` may see: his own hand and gold, the table, the discard pile,
        how many cards the supply and each hand hold.  Hidden: the supply's cards
        (except while he searches it after "No village card!"), the other hands, the
        other players' gold totals (the rulebook keeps them secret) and another
        traveller's cards and gold.  At the end of the game everything is shown."""
        n = self.game.players
        if type(player) is not int or not 0 <= player < n:
            raise ValueError(f"view(player): player must be one of 0..{n - 1} "
                             f"({', '.join(self.game.player_name(i) for i in range(n))}), "
                             f"not {player!r}")
        if self.phase == "over":
            return self
        hands = tuple(h if p == player else _hidden_pile(h) for p, h in enumerate(self.hands))
        gold = tuple(x if p == player else HIDDEN for p, x in enumerate(self.gold))
        trip = self.trip
        if trip is not None and trip.player != player:
            trip = replace(trip, hand=(HIDDEN,) * len(trip.hand), escorts=HIDDEN, turns=HIDDEN,
                           gold=HIDDEN)
        searching = (self.pending and self.pending[0] == "search" and self.turn == player)
        supply = self.supply if searching else _hidden_pile(self.supply)
        return replace(self, hands=hands, supply=supply, trip=trip, gold=gold)

    def sample_world(self, player: int, rng):
        from .worlds import sample_world
        return sample_world(self, player, rng)

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

    # ---- rendering ---------------------------------------------------------------------
    def short(self) -> str:
        if self.phase == "over":
            return "game over " + "/".join(map(str, self.gold))
        who = "chance" if self.current_player() == CHANCE else f"P{self.turn + 1}"
        return f"R{self.round} {self.phase} {who}"

    def __str__(self):
        from .render import text
        return text(self)

    def _repr_html_(self):
        from .render import html
        return html(self)


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
    out = [("bank", p, g.numbers["starting_gold"], "starting gold") for p in range(g.players)]
    for who, a in state.history():
        if isinstance(a, Buy):
            out.append((who, "bank", a.cost, "bought card"))
        elif isinstance(a, RemoveVillage):
            out.append((who, "bank", a.cost, "removed village"))
        elif isinstance(a, Teleport):
            out.append((who, "bank", a.cost, "teleport"))
        elif isinstance(a, (Visit, TeleportTo)):
            if a.thief:
                out.append((who, a.thief_to, a.thief, "thief"))
            out.append(("bank", who, a.gold, "village"))
            if a.bonus:
                out.append(("bank", who, a.bonus, "all villages bonus"))
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

    def who(x):
        return "the bank" if x == "bank" else g.player_name(x)

    lines = [f"{who(src)} pays {who(dst)} {amount} gold ({why})"
             for src, dst, amount, why in gold_ledger(state)]
    return "\n".join(lines)
