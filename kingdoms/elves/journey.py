"""Journeying in King of the Elves, as pure functions of a table and a hand.

The journey rules in our own words:

* The villages on the table form one ring.  Realms follow each other clockwise
  (player 0, 1, 2, ...); inside a realm the villages lie right to left from the
  owner's seat, which is also the clockwise order (the first one played is the
  right-hand one).  A ``Table`` lists the villages (``Spot``) in that ring order.
* A traveller starts in his castle.  His first step goes to the first (right-hand)
  village of his own realm, then on clockwise around the ring, one village after
  the other, skipping none.  He may stop whenever he likes, and after going all
  the way round he may go on (each visit pays again).
* To visit a village he plays travel cards of one vehicle: as many as the cost
  table gives for the village's terrain (a vehicle without a cost there cannot go).
  A tree obstacle asks one more card of the same vehicle, a sea monster one more
  raft; neither hinders the player whose coat of arms is on it.
* Each visit pays the village's value, double to the owner of a gold card there.
  A thief there takes 2 gold for its owner; without 2 gold the village cannot be
  visited (the thief's owner is not affected).
* An escort, played as the traveller enters a realm, protects him from thieves and
  obstacles in that realm until he leaves it (then it is discarded).
* A change-direction card reverses the direction of travel; it may be played once
  at least one village of the traveller's own realm has been visited.
* Having visited every village on the table earns a bonus of 10 (once).
* Variant (teleporting magic): after the first own village, pay 3 gold and any 4
  travel cards to jump to any village, which is visited ignoring its obstacles
  (gold and thief work as usual); the direction of travel is kept.

``moves(trip, table, rules)`` lists what the traveller may do, ``advance(trip,
action, table, rules)`` does it, and ``best_journey`` searches every journey
exactly for the one that brings the most gold.  ``JourneyPuzzle`` wraps a journey
as a one-player game so the generic tools (``game_tree``, ``expectimax``, the
widgets) can draw and solve its decisions.
"""
from __future__ import annotations

import dataclasses
import functools
import reprlib
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping, Sequence

from kingdoms.core.cache import owner_cache, speed_cache
from kingdoms.core.i18n import _, language
from kingdoms.core.protocol import TERMINAL, Action, Game, IllegalAction, State, player_label, replace

__all__ = ["Spot", "Table", "JourneyRules", "Trip", "Visit", "ChangeDirection",
           "Teleport", "TeleportCard", "TeleportTo", "EndJourney", "moves", "advance",
           "why_not", "start_trip", "best_journey", "JourneyPlan", "JourneyPuzzle",
           "JourneyState", "journey_tree", "table_from_realms", "village_terrain",
           "village_value"]


def village_terrain(kind: str) -> str:
    """``"village:plains:2"`` -> ``"plains"``."""
    return kind.split(":")[1]


def village_value(kind: str) -> int:
    """``"village:plains:2"`` -> ``2``."""
    return int(kind.split(":")[2])


_NAMES: dict = {}


def name_of(key: str) -> str:
    """A terrain, vehicle or special card (``"giant_pig"``) for people in the current
    language: ``"giant pig"`` in English, the data file's ``name_de`` in German (read
    from the box's data file: texts without the game, such as actions, say these)."""
    code = language()
    if code == "en":
        return key.replace("_", " ")
    names = _NAMES.get(code)
    if names is None:
        from .rules import Elves        # the box's data (rules import this module)
        names = _NAMES[code] = Elves().game_data().names(code)
    return names.get(key, key.replace("_", " "))


def player_text(p) -> str:
    """How an action text names player ``p`` (an index): "Player 1", as
    ``Game.player_name`` names players without names.  Renders that know the game
    use its ``player_name`` (given names)."""
    if type(p) is not int:
        raise TypeError(f"a player is a whole number, not {p!r}")
    return player_label(p)


def _who(p) -> str:
    return player_text(p) if type(p) is int else str(p)


def malformed_text(action) -> str:
    """A text for an action whose fields are not what its type expects (never raises)."""
    parts = []
    try:
        fields = dataclasses.fields(action)
    except Exception:
        fields = ()
    for f in fields:
        try:
            value = reprlib.repr(getattr(action, f.name))
        except Exception:
            value = "?"
        parts.append(f"{f.name}={value}")
    return f"{type(action).__name__}({', '.join(parts)}) with malformed fields"


def never_raises(method):
    """Decorate an action's ``__str__`` (or ``text(name)``): a malformed action (a field
    of a wrong type, a typo in a card name) gets a plain description of its fields
    instead of an error."""
    @functools.wraps(method)
    def text(self, *args):
        try:
            out = method(self, *args)
        except Exception:
            return malformed_text(self)
        return out if isinstance(out, str) else malformed_text(self)
    return text


# --------------------------------------------------------------------------- the table

@dataclass(frozen=True)
class Spot:
    """One village on the table with the special cards next to it.

    ``gold``, ``thief`` and ``obstacle_owner`` are the players whose coat of arms
    lies on that card (``None``: no such card).  ``obstacle`` is ``"tree"`` or
    ``"sea_monster"`` (or ``None``).
    """

    realm: int
    slot: int
    terrain: str
    value: int
    gold: int | None = None
    thief: int | None = None
    obstacle: str | None = None
    obstacle_owner: int | None = None

    def name(self) -> str:
        """E.g. "Player 2's forest village (4)" (renders of a game use its player names)."""
        return _("{player}'s {terrain} village ({value})").format(
            player=_who(self.realm), terrain=name_of(self.terrain), value=self.value)

    def extras(self) -> str:
        parts = []
        of = _("{special} of {player}")
        if self.gold is not None:
            parts.append(of.format(special=name_of("gold"), player=_who(self.gold)))
        if self.thief is not None:
            parts.append(of.format(special=name_of("thief"), player=_who(self.thief)))
        if self.obstacle is not None:
            parts.append(of.format(special=name_of(self.obstacle),
                                   player=_who(self.obstacle_owner)))
        return ", ".join(parts)


@dataclass(frozen=True)
class Table:
    """The villages of all realms in clockwise ring order."""

    players: int
    spots: tuple

    def __post_init__(self):
        order = [(s.realm, s.slot) for s in self.spots]
        if order != sorted(order) or len(set(order)) != len(order):
            raise ValueError("spots must be listed realm by realm, slots in order")
        object.__setattr__(self, "_index", MappingProxyType({rs: i for i, rs in enumerate(order)}))

    def __reduce__(self):       # the index is rebuilt (mapping proxies do not pickle)
        return (Table, (self.players, self.spots))

    def index_of(self, realm: int, slot: int) -> int:
        """The ring position of player ``realm``'s village ``slot``."""
        return self._index[(realm, slot)]

    def __len__(self):
        return len(self.spots)

    def realm_spots(self, realm: int) -> tuple:
        return tuple(i for i, s in enumerate(self.spots) if s.realm == realm)

    def first_step(self, player: int) -> int | None:
        """Where a journey from ``player``'s castle goes first: his right-hand village,
        or (with an empty realm) the first village clockwise after his realm."""
        if not self.spots:
            return None
        n = self.players
        for k in range(n):
            realm = (player + k) % n
            own = self.realm_spots(realm)
            if own:
                return own[0]
        return None

    def step_from(self, pos: int, direction: int) -> int:
        return (pos + direction) % len(self.spots)

    def leaves_realm(self, pos: int | None, nxt: int, direction: int) -> bool:
        """Does the step ``pos`` -> ``nxt`` leave the realm the traveller is in?
        (From the castle every step enters a realm.)"""
        if pos is None:
            return True
        a, b = self.spots[pos], self.spots[nxt]
        return a.realm != b.realm or b.slot != a.slot + direction

    def describe(self) -> str:
        lines = []
        for i, s in enumerate(self.spots):
            extra = s.extras()
            lines.append(f"{i}: {s.name()}" + (f" [{extra}]" if extra else ""))
        return "\n".join(lines) or "(no villages)"


def table_from_realms(players: int, realms: Sequence[Sequence]) -> Table:
    """A ``Table`` from ``realms[p] = ((village_kind, ((special, owner), ...)), ...)``.

    Special names: ``gold``, ``thief``, ``tree``, ``sea_monster``.
    """
    spots = []
    for p, realm in enumerate(realms):
        for slot, (kind, specials) in enumerate(realm):
            kw = {}
            for special, owner in specials:
                if special in ("gold", "thief"):
                    kw[special] = owner
                else:
                    kw["obstacle"] = special
                    kw["obstacle_owner"] = owner
            spots.append(Spot(p, slot, village_terrain(kind), village_value(kind), **kw))
    return Table(players, tuple(spots))


# --------------------------------------------------------------------------- the rules

@dataclass(frozen=True)
class JourneyRules:
    """The numbers the journey needs (normally read from the game's data file).

    ``costs``: ``((vehicle, ((terrain, cards), ...)), ...)``; the vehicle order is
    the order of ``Trip.hand``.  ``obstacles``: ``((name, terrains, extra_vehicle),
    ...)`` where ``extra_vehicle`` ``None`` means "one more of the same vehicle".
    """

    costs: tuple
    obstacles: tuple = (("tree", ("plains", "forest", "desert", "mountain"), None),
                        ("sea_monster", ("river", "lake"), "raft"))
    thief_gold: int = 2
    all_villages_bonus: int = 10
    teleport: bool = False
    teleport_gold: int = 3
    teleport_cards: int = 4
    _cost: dict = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_cost", MappingProxyType(
            {(v, t): n for v, row in self.costs for t, n in row}))
        object.__setattr__(self, "_vehicles", tuple(v for v, _ in self.costs))
        object.__setattr__(self, "_vindex", MappingProxyType(
            {v: i for i, v in enumerate(self._vehicles)}))

    def __reduce__(self):       # the tables are rebuilt (mapping proxies do not pickle)
        return (JourneyRules, (self.costs, self.obstacles, self.thief_gold,
                               self.all_villages_bonus, self.teleport, self.teleport_gold,
                               self.teleport_cards))

    @property
    def vehicles(self) -> tuple:
        return self._vehicles

    def vehicle_index(self, vehicle: str) -> int:
        return self._vindex[vehicle]

    def cost(self, vehicle: str, terrain: str) -> int | None:
        return self._cost.get((vehicle, terrain))

    def obstacle_extra(self, obstacle: str) -> str | None:
        for name, _, extra in self.obstacles:
            if name == obstacle:
                return extra
        raise KeyError(obstacle)

    def with_teleport(self, on: bool = True) -> "JourneyRules":
        return replace(self, teleport=on)

    @classmethod
    def from_mapping(cls, costs: Mapping[str, Mapping[str, int]], **kw) -> "JourneyRules":
        return cls(tuple((v, tuple(row.items())) for v, row in costs.items()), **kw)


# --------------------------------------------------------------------------- the traveller

@dataclass(frozen=True)
class Trip:
    """A journey in progress.

    ``hand``: travel cards per vehicle (in ``rules.vehicles`` order); ``escorts`` and
    ``turns``: escort and change-direction cards; ``gold``: the traveller's gold;
    ``pos``: index of the village he is at (``None``: still in his castle);
    ``visited``: bit mask of the villages visited; ``escort_realm``: the realm his
    escort protects him in; ``teleport_left``: travel cards still to hand in for a
    teleport under way (0: none); ``done``: the journey is over.
    """

    player: int
    gold: int
    hand: tuple
    escorts: int = 0
    turns: int = 0
    pos: int | None = None
    direction: int = 1
    visited: int = 0
    own_visited: bool = False
    bonus: bool = False
    escort_realm: int | None = None
    teleport_left: int = 0
    done: bool = False

    def cards(self) -> int:
        return sum(self.hand)


def start_trip(player: int, gold: int, hand: Mapping[str, int] | Sequence[int],
               rules: JourneyRules, escorts: int = 0, turns: int = 0) -> Trip:
    """A traveller in his castle with ``hand`` (``{vehicle: cards}`` or counts)."""
    if isinstance(hand, Mapping):
        unknown = set(hand) - set(rules.vehicles) - {"escort", "change_direction"}
        if unknown:
            raise ValueError(_("unknown cards in the hand: {cards}").format(
                cards=sorted(unknown)))
        escorts = hand.get("escort", escorts)
        turns = hand.get("change_direction", turns)
        hand = tuple(hand.get(v, 0) for v in rules.vehicles)
    return Trip(player, gold, tuple(hand), escorts, turns)


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Visit(Action):
    """Travel to the next village with ``cards`` cards of ``vehicle`` (``escort``:
    play an escort card as you enter its realm).  The gold fields record what the
    visit pays: ``gold`` from the bank, ``thief`` to player ``thief_to``, ``bonus``
    for having now visited every village."""

    vehicle: str
    cards: int
    realm: int
    slot: int
    escort: bool = False
    gold: int = 0
    thief: int = 0
    thief_to: int | None = None
    bonus: int = 0

    def __str__(self):
        return self.text(player_text)

    @never_raises
    def text(self, name) -> str:
        """The text with players named by ``name(player index)`` (``str()``: "Player 1"
        ...; ``Elves.action_text``: the game's ``player_name``)."""
        how = _("{cards} {vehicle} to").format(cards=f"{self.cards:d}",
                                                vehicle=name_of(self.vehicle))
        return _arrival_text(self, how, name)


@dataclass(frozen=True)
class ChangeDirection(Action):
    def __str__(self):
        return _("play change direction")


@dataclass(frozen=True)
class Teleport(Action):
    """Begin a teleporting spell: pay ``cost`` gold (then hand in the travel cards)."""

    cost: int = 3

    @never_raises
    def __str__(self):
        return _("cast teleport (pay {cost} gold)").format(cost=f"{self.cost:d}")


@dataclass(frozen=True)
class TeleportCard(Action):
    vehicle: str

    @never_raises
    def __str__(self):
        return _("hand in a {vehicle} for the spell").format(vehicle=name_of(self.vehicle))


@dataclass(frozen=True)
class TeleportTo(Action):
    """Arrive by magic at player ``realm``'s village ``slot`` (obstacles ignored)."""

    realm: int
    slot: int
    escort: bool = False
    gold: int = 0
    thief: int = 0
    thief_to: int | None = None
    bonus: int = 0

    def __str__(self):
        return self.text(player_text)

    @never_raises
    def text(self, name) -> str:
        """The text with players named by ``name(player index)`` (see ``Visit.text``)."""
        return _arrival_text(self, _("teleport to"), name)


def _arrival_text(a, how: str, name) -> str:
    """The text of arriving at a village (by travel cards or by magic) and its gains,
    players named by ``name(player index)``."""
    s = _("{how} {player}'s village {slot}: +{gold}").format(
        how=how, player=name(a.realm), slot=f"{a.slot + 1:d}", gold=f"{a.gold:d}")
    if a.escort:
        s = _("play an escort, {arrival}").format(arrival=s)
    if a.thief:
        s += _(", pay {gold} to {player}").format(gold=f"{a.thief:d}", player=name(a.thief_to))
    if a.bonus:
        s += _(", bonus +{gold}").format(gold=f"{a.bonus:d}")
    return s


@dataclass(frozen=True)
class EndJourney(Action):
    def __str__(self):
        return _("end the journey")


JOURNEY_ACTIONS = (Visit, ChangeDirection, Teleport, TeleportCard, TeleportTo, EndJourney)

# The type of every field of the actions (``check_fields``): "int" is a whole number
# (not a bool), "int?" also None, "str?" also None, "strs" a tuple of texts.
FIELD_TYPES = {
    Visit: (("vehicle", "str"), ("cards", "int"), ("realm", "int"), ("slot", "int"),
            ("escort", "bool"), ("gold", "int"), ("thief", "int"), ("thief_to", "int?"),
            ("bonus", "int")),
    ChangeDirection: (),
    Teleport: (("cost", "int"),),
    TeleportCard: (("vehicle", "str"),),
    TeleportTo: (("realm", "int"), ("slot", "int"), ("escort", "bool"), ("gold", "int"),
                 ("thief", "int"), ("thief_to", "int?"), ("bonus", "int")),
    EndJourney: (),
}

_KIND_TEST = {
    "int": lambda v: type(v) is int,
    "int?": lambda v: v is None or type(v) is int,
    "str": lambda v: type(v) is str,
    "str?": lambda v: v is None or type(v) is str,
    "bool": lambda v: type(v) is bool,
    "strs": lambda v: type(v) is tuple and all(type(x) is str for x in v),
}
_KIND_TEXT = {"int": "a whole number", "int?": "a whole number or None", "str": "a text",
              "str?": "a text or None", "bool": "True or False", "strs": "a tuple of texts"}


def check_fields(action, types=FIELD_TYPES) -> str | None:
    """What is wrong with the fields of ``action`` (one of the types in ``types``), or
    ``None``.  Other objects are left to ``apply``'s own check."""
    spec = types.get(type(action))
    if spec is None:
        return None
    for name, kind in spec:
        try:
            value = action.__dict__[name]
        except (KeyError, AttributeError, TypeError):
            return f"{type(action).__name__} has no field {name!r}"
        if not _KIND_TEST[kind](value):
            return (f"{type(action).__name__}.{name} should be {_KIND_TEXT[kind]}, "
                    f"not {reprlib.repr(value)}")
    return None

# actions are immutable values: ``moves`` hands out one object per distinct action
CHANGE_DIRECTION = ChangeDirection()
END_JOURNEY = EndJourney()
# (``moves`` passes ``escort`` as a bool and the numbers as ints, so equal arguments
# are the same values: the cache needs no ``typed``)
_visit = speed_cache(4096)(Visit)
_teleport_to = speed_cache(4096)(TeleportTo)
_teleport_card = speed_cache(64)(TeleportCard)
_teleport = speed_cache(16)(Teleport)


def gold_change(action) -> int:
    """The traveller's gold change from one journey action."""
    if isinstance(action, (Visit, TeleportTo)):
        return action.gold - action.thief + action.bonus
    if isinstance(action, Teleport):
        return -action.cost
    return 0


# --------------------------------------------------------------------------- the moves

def _arrival(trip: Trip, table: Table, idx: int, protected: bool, rules: JourneyRules,
             gold_now: int):
    """(gold, thief, thief_to, bonus) of arriving at spot ``idx``, or None if the
    thief there bars the visit."""
    spot = table.spots[idx]
    thief = 0
    if spot.thief is not None and spot.thief != trip.player and not protected:
        if gold_now < rules.thief_gold:
            return None
        thief = rules.thief_gold
    gold = spot.value * (2 if spot.gold == trip.player else 1)
    visited = trip.visited | (1 << idx)
    bonus = rules.all_villages_bonus if (not trip.bonus and visited == (1 << len(table)) - 1) else 0
    return gold, thief, (spot.thief if thief else None), bonus


def _vehicle_needs(spot: Spot, vehicle: str, player: int, protected: bool,
                   rules: JourneyRules) -> dict | None:
    base = rules.cost(vehicle, spot.terrain)
    if base is None:
        return None
    need = {vehicle: base}
    if spot.obstacle is not None and spot.obstacle_owner != player and not protected:
        extra = rules.obstacle_extra(spot.obstacle) or vehicle
        need[extra] = need.get(extra, 0) + 1
    return need


# the table asked about last and its ``_needs`` memo (a journey asks about one table
# many times in a row; a public thing, like the memo itself)
_LAST_TABLE: list = [None, None]


def _needs(table: Table, idx: int, player: int, protected: bool, rules: JourneyRules) -> tuple:
    """``((vehicle, ((vehicle index, cards), ...), cards in all), ...)``: what a visit
    of spot ``idx`` by ``player`` costs with each vehicle that can go there (in
    ``rules.vehicles`` order; ``_vehicle_needs``).  Kept beside the table (a public
    thing): the key is the spot, the traveller and whether he is protected."""
    last = _LAST_TABLE
    if last[0] is table:
        memo = last[1]
    else:
        memo = owner_cache(table, "elves.journey.needs", 4096)
        last[:] = (table, memo)
    key = (idx, player, protected)
    hit = memo.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    spot = table.spots[idx]
    out = []
    for v in rules.vehicles:
        need = _vehicle_needs(spot, v, player, protected, rules)
        if need is not None:
            out.append((v, tuple((rules.vehicle_index(w), k) for w, k in need.items()),
                        sum(need.values())))
    out = tuple(out)
    memo[key] = (rules, out)
    return out


def next_spot(trip: Trip, table: Table) -> int | None:
    if not table.spots:
        return None
    if trip.pos is None:
        return table.first_step(trip.player)
    return table.step_from(trip.pos, trip.direction)


def moves(trip: Trip, table: Table, rules: JourneyRules) -> tuple:
    """Everything the traveller may do now (empty when the journey is over)."""
    if trip.done:
        return ()
    vehicles = rules.vehicles
    if trip.teleport_left > 0:      # hand in the spell's travel cards one by one
        return tuple(_teleport_card(v) for v, k in zip(vehicles, trip.hand) if k)
    if trip.teleport_left < 0:      # cards handed in: choose the village
        return tuple(_teleport_targets(trip, table, rules))
    out = []
    nxt = next_spot(trip, table)
    if nxt is not None:
        spot = table.spots[nxt]
        entering = table.leaves_realm(trip.pos, nxt, trip.direction)
        options = [False]
        if trip.escorts and entering:
            options.append(True)
        for esc in options:
            if esc:
                protected = True
            else:
                protected = (not entering) and trip.escort_realm == spot.realm
            arrival = _arrival(trip, table, nxt, protected, rules, trip.gold)
            if arrival is None:
                continue
            gold, thief, thief_to, bonus = arrival
            hand = trip.hand
            for v, need, cards in _needs(table, nxt, trip.player, protected, rules):
                for i, k in need:
                    if hand[i] < k:
                        break
                else:
                    out.append(_visit(v, cards, spot.realm, spot.slot, esc,
                                      gold, thief, thief_to, bonus))
    if trip.turns and trip.own_visited:
        out.append(CHANGE_DIRECTION)
    if (rules.teleport and trip.own_visited and trip.gold >= rules.teleport_gold
            and trip.cards() >= rules.teleport_cards
            and _teleport_targets(trip, table, rules, trip.gold - rules.teleport_gold)):
        out.append(_teleport(rules.teleport_gold))
    out.append(END_JOURNEY)
    return tuple(out)


def _teleport_targets(trip: Trip, table: Table, rules: JourneyRules, gold: int | None = None):
    gold = trip.gold if gold is None else gold
    out = []
    cur_realm = table.spots[trip.pos].realm if trip.pos is not None else None
    for idx, spot in enumerate(table.spots):
        same = cur_realm == spot.realm
        options = [False]
        if trip.escorts and not same:
            options.append(True)
        for esc in options:
            protected = esc or (same and trip.escort_realm == spot.realm)
            arrival = _arrival(trip, table, idx, protected, rules, gold)
            if arrival is None:
                continue
            out.append(_teleport_to(spot.realm, spot.slot, esc, *arrival))
    return out


def why_not(trip: Trip, action, table: Table, rules: JourneyRules) -> str | None:
    """The journey rule that ``action`` breaks here (``None`` if it is allowed)."""
    if action in moves(trip, table, rules):
        return None
    if trip.done:
        return _("This journey is over.")
    if trip.teleport_left and not isinstance(action, (TeleportCard, TeleportTo)):
        return _("Finish the teleporting spell first: hand in {cards} travel cards, then "
                 "choose the village.").format(cards=rules.teleport_cards)
    if isinstance(action, ChangeDirection):
        if not trip.turns:
            return _("You have no change-direction card.")
        return _("Change direction only after you have visited at least one village in your "
                 "own realm.")
    if isinstance(action, Teleport):
        if not rules.teleport:
            return _("Teleporting magic is a variant that is not in play.")
        if not trip.own_visited:
            return _("You may teleport only after visiting the first village in your realm.")
        return _("A teleport costs {gold} gold and any {cards} travel cards.").format(
            gold=rules.teleport_gold, cards=rules.teleport_cards)
    if isinstance(action, Visit):
        nxt = next_spot(trip, table)
        if nxt is None:
            return _("There is no village to travel to.")
        spot = table.spots[nxt]
        if (spot.realm, spot.slot) != (action.realm, action.slot):
            return _("You must visit the villages in order, skipping none: the next one is "
                     "{village}.").format(village=spot.name())
        if action.escort and not trip.escorts:
            return _("You have no escort card.")
        if action.escort and not table.leaves_realm(trip.pos, nxt, trip.direction):
            return _("An escort is played as you enter a realm.")
        if rules.cost(action.vehicle, spot.terrain) is None:
            if language() == "en":
                return f"The {action.vehicle.replace('_', ' ')} cannot go to a {spot.terrain} village."
            return _("The {vehicle} cannot go to a {terrain} village.").format(
                vehicle=name_of(action.vehicle), terrain=name_of(spot.terrain))
        if spot.thief is not None and spot.thief != trip.player and trip.gold < rules.thief_gold:
            return _("A thief lives there: without {gold} gold to give him you may not visit "
                     "this village.").format(gold=rules.thief_gold)
        return _("You do not have the travel cards this visit needs (one more card of the "
                 "same vehicle for a tree obstacle, one more raft for a sea monster).")
    return _("{action} is not a move of this journey now.").format(action=action)


def _after_visit(trip: Trip, action: "Visit", table: Table, rules: JourneyRules) -> Trip:
    """``advance`` for a visit: the common step, in one go."""
    idx = table._index[action.realm, action.slot]
    spot = table.spots[idx]
    leaving = table.leaves_realm(trip.pos, idx, trip.direction)
    protected = action.escort or (trip.escort_realm == spot.realm and not leaving)
    hand = list(trip.hand)
    for v, need, _ in _needs(table, idx, trip.player, bool(protected), rules):
        if v == action.vehicle:
            for i, k in need:
                hand[i] -= k
            break
    else:           # (not checked: as ``_vehicle_needs`` says)
        need = _vehicle_needs(spot, action.vehicle, trip.player, protected, rules)
        for w, k in need.items():
            hand[rules.vehicle_index(w)] -= k
    escort_realm = None if leaving else trip.escort_realm  # an escort leaves with its realm
    escorts = trip.escorts
    if action.escort:
        escorts -= 1
        escort_realm = spot.realm
    # ``replace(trip, ...)`` without its checks (a Trip is a plain value dataclass)
    d = trip.__dict__.copy()
    d.update(hand=tuple(hand), escorts=escorts, pos=idx,
             gold=trip.gold + action.gold - action.thief + action.bonus,
             visited=trip.visited | (1 << idx),
             own_visited=trip.own_visited or spot.realm == trip.player,
             bonus=trip.bonus or bool(action.bonus), escort_realm=escort_realm,
             teleport_left=0)
    new = object.__new__(Trip)
    object.__setattr__(new, "__dict__", d)
    return new


def advance(trip: Trip, action, table: Table, rules: JourneyRules) -> Trip:
    """The trip after a legal ``action`` (not checked: see ``moves``)."""
    if isinstance(action, Visit):       # the common step
        return _after_visit(trip, action, table, rules)
    if isinstance(action, EndJourney):
        return replace(trip, done=True)
    if isinstance(action, ChangeDirection):
        return replace(trip, turns=trip.turns - 1, direction=-trip.direction)
    if isinstance(action, Teleport):
        return replace(trip, gold=trip.gold - action.cost, teleport_left=rules.teleport_cards)
    if isinstance(action, TeleportCard):
        i = rules.vehicle_index(action.vehicle)
        hand = trip.hand[:i] + (trip.hand[i] - 1,) + trip.hand[i + 1:]
        left = trip.teleport_left - 1
        return replace(trip, hand=hand, teleport_left=left if left else -1)
    if isinstance(action, TeleportTo):
        idx = table.index_of(action.realm, action.slot)
        spot = table.spots[idx]
        hand = trip.hand
        cur = table.spots[trip.pos].realm if trip.pos is not None else None
        leaving = cur != spot.realm
        escort_realm = trip.escort_realm
        if leaving:
            escort_realm = None   # the escort is discarded on leaving its realm
        escorts = trip.escorts
        if action.escort:
            escorts -= 1
            escort_realm = spot.realm
        return replace(trip, hand=hand, escorts=escorts, pos=idx,
                       gold=trip.gold + action.gold - action.thief + action.bonus,
                       visited=trip.visited | (1 << idx),
                       own_visited=trip.own_visited or spot.realm == trip.player,
                       bonus=trip.bonus or bool(action.bonus), escort_realm=escort_realm,
                       teleport_left=0)
    raise IllegalAction(f"{action} is not a journey action")


# --------------------------------------------------------------------------- best journey

@dataclass(frozen=True)
class JourneyPlan:
    """The best journey found: its net gold and the steps with the gold of each."""

    value: int
    steps: tuple        # ((action, gold change, trip after), ...)
    start: Trip
    table: Table = field(repr=False)
    searched: int = 0   # distinct trips examined

    def actions(self) -> tuple:
        return tuple(a for a, _, _ in self.steps)

    def table_text(self, name=None) -> str:
        """The steps as a table; ``name(player)`` names players (e.g. the game's
        ``player_name``; default "Player 1" ...)."""
        if language() == "en":
            head = f"{'step':>4}  {'gold':>5}  {'total':>5}  action"
        else:
            head = "{step:>4}  {gold:>5}  {total:>5}  {action}".format(
                step=_("step"), gold=_("gold"), total=_("total"), action=_("action"))
        lines = [head]
        total = 0
        for i, (a, g, _trip) in enumerate(self.steps, 1):
            total += g
            text = a.text(name) if name is not None and hasattr(a, "text") else str(a)
            lines.append(f"{i:>4}  {g:>+5}  {total:>5}  {text}")
        lines.append(_("net gold of the journey: {value}").format(value=self.value))
        return "\n".join(lines)

    def __str__(self):
        return self.table_text()

    def remaining_hand(self, rules: JourneyRules) -> dict:
        end = self.steps[-1][2] if self.steps else self.start
        out = {v: k for v, k in zip(rules.vehicles, end.hand) if k}
        if end.escorts:
            out["escort"] = end.escorts
        if end.turns:
            out["change_direction"] = end.turns
        return out


def best_journey(table: Table, trip: Trip, rules: JourneyRules,
                 max_trips: int = 2_000_000) -> JourneyPlan:
    """The journey from ``trip`` that ends with the most gold (exact search).

    Every legal sequence of visits, escorts, direction changes, teleports and the
    choice of where to stop is examined (equal trips are solved once).  Among
    journeys with equal gold the one that keeps the most cards wins (cards are kept
    for the next round); remaining ties go to the first in the order of ``moves``.
    ``value`` is the net gold (earnings and bonus minus thieves and spells).
    Journeys without teleporting are searched by ``journey_search.plain_search`` (the
    same trips, in the same order, with plain numbers).
    """
    from .journey_search import plain_search_applies
    if plain_search_applies(trip, rules):
        return _best_plain_journey(table, trip, rules, max_trips)
    return best_journey_by_trips(table, trip, rules, max_trips)


def best_journey_by_trips(table: Table, trip: Trip, rules: JourneyRules,
                          max_trips: int = 2_000_000, memo: dict | None = None) -> JourneyPlan:
    """``best_journey`` searched with ``Trip`` values and the actions of ``moves`` (any
    journey, teleporting too); ``memo`` (if given, empty) receives every trip examined,
    ``key -> ((gold, cards), best action)``, in the order they were solved."""
    memo = {} if memo is None else memo
    tele = rules.teleport_gold if rules.teleport else 0

    def key(t: Trip) -> tuple:
        # Trips that must have the same future share a key: after the bonus the
        # villages visited no longer matter, and gold beyond what the rest of the
        # journey could ever have to pay (thieves, spells: each step uses a card)
        # cannot change what is allowed.
        cards = t.cards() + t.escorts + t.turns
        cap = rules.thief_gold * (cards + 1) + tele * (cards // max(1, rules.teleport_cards) + 1)
        return (t.pos, t.direction, t.hand, t.escorts, t.turns,
                0 if t.bonus else t.visited, t.own_visited, t.bonus, t.escort_realm,
                t.teleport_left, t.done, min(t.gold, cap))

    def solve(t: Trip) -> tuple:
        k = key(t)
        v = memo.get(k)
        if v is not None:
            return v[0]
        if len(memo) >= max_trips:
            raise RuntimeError(f"more than {max_trips} trips; raise max_trips")
        best, best_a = None, None
        for a in moves(t, table, rules):
            if isinstance(a, EndJourney):
                val = (0, t.cards() + t.escorts + t.turns)
            else:
                g, c = solve(advance(t, a, table, rules))
                val = (gold_change(a) + g, c)
            if best is None or val > best:
                best, best_a = val, a
        memo[k] = (best, best_a)
        return best

    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        value = solve(trip)[0]
    finally:
        sys.setrecursionlimit(limit)
    steps = []
    t = trip
    while not t.done:
        a = memo[key(t)][1]
        t = advance(t, a, table, rules)
        steps.append((a, gold_change(a), t))
    return JourneyPlan(value, tuple(steps), trip, table, len(memo))


def _best_plain_journey(table: Table, trip: Trip, rules: JourneyRules,
                        max_trips: int) -> JourneyPlan:
    """``best_journey`` by ``plain_search``: the plan follows each trip's best move."""
    from .journey_search import plain_key, plain_search
    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        memo, width = plain_search(table, trip, rules, max_trips)
    finally:
        sys.setrecursionlimit(limit)
    value = memo[plain_key(trip, width, rules.thief_gold)][0][0]
    steps = []
    t = trip
    while not t.done:
        a = moves(t, table, rules)[memo[plain_key(t, width, rules.thief_gold)][1]]
        t = advance(t, a, table, rules)
        steps.append((a, gold_change(a), t))
    return JourneyPlan(value, tuple(steps), trip, table, len(memo))


def play_journey(table: Table, trip: Trip, rules: JourneyRules, actions) -> tuple:
    """Follow ``actions`` (checking each is legal); returns the trips along the way."""
    out = [trip]
    for a in actions:
        legal = moves(trip, table, rules)
        if a not in legal:
            raise IllegalAction(why_not(trip, a, table, rules)
                                or _("{action} is not allowed").format(action=a))
        trip = advance(trip, a, table, rules)
        out.append(trip)
    return tuple(out)


# --------------------------------------------------------------------------- as a game

@dataclass(frozen=True)
class JourneyPuzzle(Game):
    """One journey as a one-player game (for decision trees and the widgets).

    The puzzle is won (return 1) when the journey nets at least ``target`` gold.
    ``scores()`` gives the net gold so far.
    """

    name = "elves_journey"
    title = "King of the Elves: one journey"
    min_players = 1
    max_players = 1

    players: int = 1
    table: Table = None
    trip: Trip = None
    rules: JourneyRules = None
    target: int = 0

    def initial_state(self):
        return JourneyState(self, trip=self.trip)


@dataclass(frozen=True)
class JourneyState(State):
    trip: Trip

    def _current_player(self):
        return TERMINAL if self.trip.done else 0

    def apply(self, action):
        problem = check_fields(action)
        if problem is not None:
            raise IllegalAction(_("Not an action of this journey: {problem}").format(
                problem=problem))
        return super().apply(action)

    def _legal_actions(self):
        return moves(self.trip, self.game.table, self.game.rules)

    def _why_illegal(self, action):
        return why_not(self.trip, action, self.game.table, self.game.rules)

    def _next(self, action):
        return replace(self, trip=advance(self.trip, action, self.game.table, self.game.rules))

    def net(self) -> int:
        return self.trip.gold - self.game.trip.gold

    def _returns(self):
        return (Fraction(1 if self.net() >= self.game.target else 0),)

    def scores(self):
        return (self.net(),)


def journey_tree(table: Table, trip: Trip, rules: JourneyRules, depth: int = 3,
                 max_nodes: int = 300, values: bool = True):
    """The decision tree of a journey (networkx graph from ``kingdoms.core.tree``),
    annotated with the best net gold reachable from every node when ``values``."""
    from kingdoms.core.tree import game_tree
    puzzle = JourneyPuzzle(table=table, trip=trip, rules=rules)
    return game_tree(puzzle.initial_state(), depth=depth, values=values, max_nodes=max_nodes,
                     value=("net gold", lambda s: (Fraction(s.net()),)))
