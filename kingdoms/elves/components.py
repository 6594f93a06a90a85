"""The components of King of the Elves, read from ``data.toml``.

``Components.from_data(data)`` is the only reader of the data file.  It checks every
value's type and range (``DATA_RANGES``, the game's ``data_ranges()``) and the checks
across keys (totals, the terrains a vehicle reaches, discard more than draw), so a
file that passes makes a game that always ends by its rules, with a legal action at
every decision (see ``kingdoms.elves.rules``); a bad file raises ``DataError`` naming
the key and the allowed range.

Cards are named by kind: ``"village:<terrain>:<value>"`` (villages first, in the
data's order), ``"travel:<vehicle>"``, ``"special:<type>"``.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from kingdoms.core.data import GameData, shown
from kingdoms.core.i18n import _

__all__ = ["Components", "LIMITS", "NUMBER_RANGES", "DATA_RANGES", "PLANNING_SPECIALS",
           "OBSTACLES", "MIN_PLAYERS", "MAX_PLAYERS"]

MIN_PLAYERS, MAX_PLAYERS = 2, 6         # rulebook: "for 2-6 players"
PLANNING_SPECIALS = ("gold", "thief", "tree", "sea_monster")   # rulebook: round symbols
OBSTACLES = ("tree", "sea_monster")

# The allowed range of every number of the data file.  Inside them every game ends by
# its rules and has a legal action at every decision (see ``kingdoms.elves.rules``).
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


@dataclass(frozen=True)
class Components:
    """The parts in the box and the rule numbers, as read from one data file.

    ``kinds``/``deck``: every card kind and its copies (villages first).  ``costs``:
    ``((vehicle, ((terrain, cards), ...)), ...)``; ``obstacles``: ``((name, terrains,
    extra vehicle or None), ...)``.  ``numbers``: the ``[rules]`` numbers by name;
    ``rounds``: ``{players: rounds}``.  The other fields are lookup tables derived
    from these (not compared)."""

    kinds: tuple
    deck: tuple
    terrains: tuple
    vehicles: tuple
    costs: tuple
    obstacles: tuple
    numbers: Mapping = field(hash=False)
    buy_costs: tuple
    rounds: Mapping = field(hash=False)
    # derived from the fields above
    index: Mapping = field(compare=False, repr=False)       # kind -> position in kinds
    villages: int = field(compare=False, repr=False)        # village kinds: kinds[:villages]
    village_idx: tuple = field(compare=False, repr=False)
    travel_idx: tuple = field(compare=False, repr=False)    # per vehicle, in vehicles order
    escort_idx: int = field(compare=False, repr=False)
    turn_idx: int = field(compare=False, repr=False)        # the change-direction card
    special_idx: Mapping = field(compare=False, repr=False)  # planning special -> position
    obstacle_terrains: Mapping = field(compare=False, repr=False)
    digest: str = field(compare=False, repr=False)          # of the file's values

    @classmethod
    def from_data(cls, d: GameData) -> "Components":
        """Read and check every number of the data file ``d`` (see the module doc)."""
        terrains, kinds, counts = _villages(d)
        vehicles, costs = _travel_costs(d, terrains)
        _counts(d, "travel", vehicles, kinds, counts)
        _counts(d, "special", _special_types(d), kinds, counts)
        total = d.get("cards.total", int, **_bounds("cards.total"))
        if sum(counts) != total:
            raise d.error("cards.total", _("is {total}, but the cards listed sum to {listed}").format(
                total=total, listed=sum(counts)))
        numbers = _numbers(d)
        buy_costs = _whole_numbers(d, "rules.buy_costs", *DATA_RANGES["rules.buy_costs"][1:])
        if len(buy_costs) > 10:
            raise d.error("rules.buy_costs", _("should list at most {most} costs, not {n}").format(
                most=10, n=len(buy_costs)))
        rounds = _rounds(d)
        obstacles = _obstacles(d, terrains)
        kinds = tuple(kinds)
        return cls(kinds, tuple(counts), terrains, vehicles, costs, obstacles, numbers,
                   tuple(buy_costs), rounds, **_lookups(kinds, vehicles, obstacles),
                   digest=_digest(d))


def _lookups(kinds: tuple, vehicles: tuple, obstacles: tuple) -> dict:
    """The lookup tables of ``Components`` (derived fields)."""
    index = {k: i for i, k in enumerate(kinds)}
    village_idx = tuple(i for i, k in enumerate(kinds) if k.startswith("village:"))
    assert village_idx == tuple(range(len(village_idx)))      # villages come first
    return dict(
        index=MappingProxyType(index), villages=len(village_idx), village_idx=village_idx,
        travel_idx=tuple(index[f"travel:{v}"] for v in vehicles),
        escort_idx=index["special:escort"], turn_idx=index["special:change_direction"],
        special_idx=MappingProxyType({t: index[f"special:{t}"] for t in PLANNING_SPECIALS}),
        obstacle_terrains=MappingProxyType({name: terr for name, terr, _ in obstacles}))


def _bounds(key: str) -> dict:
    """``min=``/``max=`` of ``key``'s entry in ``DATA_RANGES`` (for ``GameData.get``)."""
    _, lo, hi = DATA_RANGES[key]
    return {"min": lo, "max": hi}


def _names(d: GameData, key: str, lo: int, hi: int) -> tuple:
    """A list of distinct lower-case names (no ':' — they make card kinds)."""
    value = d.get(key, list)
    if not lo <= len(value) <= hi:
        raise d.error(key, _("should list from {low} to {high} names, not {n}").format(
            low=lo, high=hi, n=len(value)))
    for v in value:
        if not isinstance(v, str) or not _NAME.fullmatch(v):
            raise d.error(key, _("should list names of lower-case letters, digits and '_' "
                                  "(at most 30), not {value}").format(value=shown(v)))
    if len(set(value)) != len(value):
        raise d.error(key, _("lists a name twice"))
    return tuple(value)


def _whole_numbers(d: GameData, key: str, lo: int, hi: int):
    """A list of whole numbers, each from ``lo`` to ``hi``."""
    value = d.get(key, list)
    for v in value:
        if type(v) is not int or not lo <= v <= hi:
            raise d.error(key, _("should list whole numbers from {low} to {high}, not {value}")
                          .format(low=lo, high=hi, value=shown(v)))
    return value


def _villages(d: GameData) -> tuple:
    """``(terrains, kinds, counts)`` of the village cards, checked against their total."""
    terrains = _names(d, "villages.terrains", 1, 12)
    kinds, counts = [], []
    village_cards = 0
    for t in terrains:
        key = f"villages.values.{t}"
        values = _whole_numbers(d, key, *DATA_RANGES["villages.values.*"][1:])
        if len(values) > LIMITS["copies"]:
            raise d.error(key, _("should list at most {most} cards, not {n}").format(
                most=LIMITS['copies'], n=len(values)))
        for v in sorted(set(values)):
            kinds.append(f"village:{t}:{v}")
            counts.append(values.count(v))
        village_cards += len(values)
    village_total = d.get("villages.total", int, **_bounds("villages.total"))
    if village_cards != village_total:
        raise d.error("villages.values", _("lists {cards} cards, but villages.total is {total}")
                      .format(cards=village_cards, total=village_total))
    return terrains, kinds, counts


def _travel_costs(d: GameData, terrains: tuple) -> tuple:
    """``(vehicles, cost rows)`` of the travel cost table."""
    costs = d.get("travel.costs", dict)
    vehicles = tuple(costs)
    if not 1 <= len(vehicles) <= 12:
        raise d.error("travel.costs", _("should name from {low} to {high} vehicles, not {n}")
                      .format(low=1, high=12, n=len(vehicles)))
    cost_rows = []
    for v in vehicles:
        if not isinstance(v, str) or not _NAME.fullmatch(v):
            raise d.error(f"travel.costs.{v}", _("is not a vehicle name (lower-case letters, digits "
                                                   "and '_')"))
        row = d.get(f"travel.costs.{v}", dict)
        for t in row:
            if t not in terrains:
                raise d.error(f"travel.costs.{v}.{t}", _("is not a village terrain"))
            d.get(f"travel.costs.{v}.{t}", int, **_bounds("travel.costs.*.*"))
        cost_rows.append((v, tuple(row.items())))
    if "raft" not in vehicles:
        raise d.error("travel.costs", _("needs a raft (the sea monster asks one more raft)"))
    return vehicles, tuple(cost_rows)


def _counts(d: GameData, section: str, names, kinds: list, counts: list) -> None:
    """Copies per card of ``section`` (travel, special), checked against its total,
    added to ``kinds`` and ``counts``."""
    cards = 0
    for t in names:
        n = d.get(f"{section}.cards.{t}", int, **_bounds(f"{section}.cards.*"))
        kinds.append(f"{section}:{t}")
        counts.append(n)
        cards += n
    total = d.get(f"{section}.total", int, **_bounds(f"{section}.total"))
    if cards != total:
        raise d.error(f"{section}.cards", _("sum to {cards}, but {section}.total is {total}").format(
            cards=cards, section=section, total=total))


def _special_types(d: GameData) -> tuple:
    """The special card types, planning ones first (fixed by the rules)."""
    planning = d.get("special.planning", list)
    journeying = d.get("special.journeying", list)
    for key, names, fixed in (("special.planning", planning, PLANNING_SPECIALS),
                              ("special.journeying", journeying, ("change_direction", "escort"))):
        if tuple(sorted(map(str, names))) != tuple(sorted(fixed)):
            raise d.error(key, _("the special card types are fixed by the rules: {types}")
                          .format(types=", ".join(fixed)))
    return tuple(planning) + tuple(journeying)


def _numbers(d: GameData) -> Mapping:
    """The ``[rules]`` numbers by name, each in its range."""
    num = {k: d.get(f"rules.{k}", int, **_bounds(f"rules.{k}")) for k in NUMBER_RANGES}
    # draw 3 / discard 4 must lose cards, or planning need never end
    num["discard_cards"] = d.get("rules.discard_cards", int, **{
        **_bounds("rules.discard_cards"), "min": num["draw_cards"] + 1})
    return MappingProxyType(num)


def _rounds(d: GameData) -> Mapping:
    """``{players: rounds}`` (the file's keys are player counts)."""
    rounds = d.get("rules.rounds", dict)
    counts = {str(n): n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    for k in rounds:
        if k not in counts:
            raise d.error(f"rules.rounds.{k}", _("is not a player count ({low} to {high})").format(
                low=MIN_PLAYERS, high=MAX_PLAYERS))
        d.get(f"rules.rounds.{k}", int, **_bounds("rules.rounds.*"))
    return MappingProxyType({counts[k]: n for k, n in rounds.items()})


def _obstacles(d: GameData, terrains: tuple) -> tuple:
    """``((name, terrains, extra vehicle), ...)``: a tree asks one more card of the same
    vehicle, a sea monster one more raft (rulebook: Obstacle cards)."""
    obstacle_terrains = []
    for name in OBSTACLES:
        key = f"special.{name}_terrains"
        value = _names(d, key, 0, len(terrains))
        for t in value:
            if t not in terrains:
                raise d.error(key, _("names {value}, which is not a village terrain").format(
                    value=shown(t)))
        obstacle_terrains.append(value)
    return (("tree", obstacle_terrains[0], None),
            ("sea_monster", obstacle_terrains[1], "raft"))


def _digest(d: GameData) -> str:
    """The sha256 of the file's values (not its comments): games built from files with
    the same values are equal games."""
    text = json.dumps(d.raw, sort_keys=True, default=_plain)
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(x):
    """JSON for the data file's read-only mappings (for its digest)."""
    if isinstance(x, MappingProxyType):
        return dict(x)
    raise TypeError(f"not data: {type(x).__name__}")
