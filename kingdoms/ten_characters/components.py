"""The parts in the Ten Characters box, read from ``data.toml``.

``Components.from_data(data)`` is the only reader of the data file: it checks every
value's type and range (``RANGES``, the game's ``data_ranges()``) and that the ten
characters are the rules' ten, with their effects and columns, raising ``DataError``
naming the key.  The numbers' sources (rules overview, or "assumed") are in the file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from kingdoms.core.data import GameData, shown
from kingdoms.core.i18n import _

from .scoring import CHARACTERS

__all__ = ["Components", "RANGES", "EFFECTS"]

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

# Each character's immediate effect, as the rules overview gives it (the data file must
# agree: the effects are rules, not numbers).
EFFECTS = MappingProxyType({
    "fortune_teller": "peek", "dragon": "none", "mage": "remove-any", "noble": "none",
    "farmer": "none", "knight": "remove-dragon", "unicorn": "draw-discard",
    "queen": "none", "king": "none", "jester": "join-column"})

# Readings of the rules this program implements, one value each (data key -> value).
_ONLY = (("refill", "new-hands"), ("empty_pile", "reshuffle-discards"),
         ("removed_to", "box"), ("fortune_teller_card", "random"))


def _number(data: GameData, key: str, rkey: str | None = None) -> int:
    lo, hi = RANGES[rkey or key]
    return data.get(key, int, min=lo, max=hi)


@dataclass(frozen=True)
class Components:
    """Everything ``data.toml`` says, checked.  Count tuples are in ``CHARACTERS`` order.

    ``hand_size`` is a hand with 3-5 players, ``hand_size_two`` with two;
    ``equal_order`` orders equal revealed cards ("seat" or "rotating");
    ``ft_self``: a Fortune Teller may look into its own player's hand;
    ``mage_own``: a Mage may remove a card from the Mage column."""

    data: GameData
    passes: int
    scoring_cards: int
    hand_size: int
    hand_size_two: int
    min_players: int
    max_players: int
    equal_order: str
    discards_public: bool
    ft_self: bool
    mage_own: bool
    copies: tuple
    initiative: tuple
    points: Mapping = field(hash=False)       # character -> the number in its scoring
    labels: Mapping = field(hash=False)       # character -> its name on the card
    point_values: tuple = ()                  # the points again, in CHARACTERS order
    # character -> {language: its scoring line} (``scoring``, ``scoring_de``: texts for
    # people; the scoring itself is ``scoring.py``'s)
    scorings: Mapping = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def __reduce__(self):
        # mapping proxies do not pickle: a copy is read again from the same data
        return (Components.from_data, (self.data,))

    @classmethod
    def from_data(cls, data: GameData) -> "Components":
        """Check every value of ``data`` (type, range, agreement with the rules) and
        build the components; ``DataError`` names the first bad key."""
        game = _game_section(data)
        copies, initiative, points, labels = _characters(data)
        scorings = {name: MappingProxyType(data.texts(f"characters.{i}.scoring"))
                    for i, name in enumerate(_character_names(data))}
        return cls(data=data, **game, copies=copies, initiative=initiative,
                   points=MappingProxyType(points), labels=MappingProxyType(labels),
                   point_values=tuple(points[c] for c in CHARACTERS),
                   scorings=MappingProxyType(scorings))

    def hand_for(self, players: int) -> int:
        """Hand cards dealt to each player in a game of ``players``."""
        return self.hand_size_two if players == 2 else self.hand_size


def _game_section(data: GameData) -> dict:
    """The ``[game]`` table's numbers and readings, checked."""
    g = "game"
    out = {"passes": _number(data, f"{g}.passes"),
           "scoring_cards": _number(data, f"{g}.scoring_cards"),
           "hand_size": _number(data, f"{g}.hand_size"),
           "hand_size_two": _number(data, f"{g}.hand_size_two_players"),
           "min_players": _number(data, f"{g}.min_players"),
           "max_players": _number(data, f"{g}.max_players")}
    if out["min_players"] > out["max_players"]:
        raise data.error(f"{g}.min_players", _("should be at most game.max_players ({most}), not {value}")
                         .format(most=out['max_players'], value=out['min_players']))
    for key, dkey in (("hand_size", "hand_size"), ("hand_size_two", "hand_size_two_players")):
        if out[key] <= out["scoring_cards"]:
            raise data.error(f"{g}.{dkey}", _("should be larger than game.scoring_cards (each pass "
                                                 "needs at least one turn)"))
    order = data.get(f"{g}.equal_cards_order", str)
    if order not in ("seat", "rotating"):
        raise data.error(f"{g}.equal_cards_order",
                         _("should be 'seat' or 'rotating', not {value}").format(value=shown(order)))
    out["equal_order"] = order
    for key, allowed in _ONLY:
        v = data.get(f"{g}.{key}", str)
        if v != allowed:
            raise data.error(f"{g}.{key}", _("only {allowed} is implemented, not {value}").format(
                allowed=shown(allowed), value=shown(v)))
    out["discards_public"] = data.get(f"{g}.discards_public", bool)
    out["ft_self"] = data.get(f"{g}.fortune_teller_self", bool)
    out["mage_own"] = data.get(f"{g}.mage_may_remove_own", bool)
    return out


def _character_names(data: GameData) -> list:
    """The ``[[characters]]`` entries' names: exactly the ten characters."""
    chars = data.get("characters", list)
    names = []
    if len(chars) != len(CHARACTERS):
        raise data.error("characters", _("should list exactly the ten characters {characters} "
                                          "(got {n} entries)").format(
            characters=", ".join(CHARACTERS), n=len(chars)))
    for i, ch in enumerate(chars):
        if not isinstance(ch, Mapping):
            raise data.error(f"characters.{i}", _("should be a table"))
        names.append(data.get(f"characters.{i}.name", str))
    if sorted(names) != sorted(CHARACTERS) or len(names) != len(CHARACTERS):
        raise data.error("characters", _("should list exactly the ten characters {characters} "
                                          "(got {names})").format(
            characters=", ".join(CHARACTERS), names=", ".join(names)))
    return names


def _characters(data: GameData) -> tuple:
    """``(copies, initiative, points, labels)``: the first two as tuples in
    ``CHARACTERS`` order, the others as ``{character: value}``."""
    copies, initiative, points, labels = {}, {}, {}, {}
    for i, name in enumerate(_character_names(data)):
        key = f"characters.{name}"
        c = _number(data, f"characters.{i}.copies", "characters.copies")
        ini = _number(data, f"characters.{i}.initiative", "characters.initiative")
        pts = _number(data, f"characters.{i}.points", "characters.points")
        eff = data.get(f"characters.{i}.effect", str)
        if eff != EFFECTS[name]:
            raise data.error(f"{key}.effect", _("should be {effect} (the rules' effect of the {character}), "
                                                 "not {value}").format(
                effect=shown(EFFECTS[name]), character=name, value=shown(eff)))
        col = data.get(f"characters.{i}.column", bool)
        if col != (name != "jester"):
            raise data.error(f"{key}.column", _("only the Jester has no column of its own"))
        copies[name], initiative[name], points[name] = c, ini, pts
        labels[name] = data.get(f"characters.{i}.label", str)
    return (tuple(copies[c] for c in CHARACTERS), tuple(initiative[c] for c in CHARACTERS),
            points, labels)
