"""The parts in the box of Into the Black Forest, read from ``data.toml``.

``Components.from_data(data, players)`` is the only reader of the data file: the
rule numbers (hand size, rounds, encounters per round, the Right side's and the
token's points), the animals and suits, the decks (one Animal card per value, each
with its suit), which decks each seat plays, and the Encounter cards with their
Right-side conditions.  Every value is checked for its type and range (``RANGES``,
``BlackForest.data_ranges()``); a bad file raises ``DataError`` naming the key.

Components are values: two games built from the same data have equal components.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from kingdoms.core.data import FrozenParts, GameData, is_note, shown
from kingdoms.core.i18n import _, language
from kingdoms.core.protocol import Action

__all__ = ["Components", "Card", "Condition", "parse_condition", "RANGES", "RULE_NUMBERS"]

RANGES = MappingProxyType({
    "rules.hand_size": (1, 24),
    "rules.hand_size_two_player": (1, 24),
    "rules.rounds": (1, 6),
    "rules.rounds_two_player": (1, 6),
    "rules.encounters_per_round": (1, 6),
    "rules.right_points": (0, 50),
    "rules.token_points": (0, 50),
    "card value": (1, 24),
    "encounters.count": (1, 60),
})
"""The range of every number read from data.toml (checked when the game is built)."""
RULE_NUMBERS = ("rules.hand_size", "rules.hand_size_two_player", "rules.rounds",
                "rules.rounds_two_player", "rules.encounters_per_round",
                "rules.right_points", "rules.token_points")
"""The rule numbers of ``data.toml`` (each with its rulebook source there)."""
MAX_SUITS = 12                      # a bound on the data file, not a rule
MAX_DECKS = 12                      # likewise
TARGET_RANGE = (1, 24)              # "closest to N": N from 1 to 24 (the data vocabulary)


# --------------------------------------------------------------------------- cards

@dataclass(frozen=True, order=True)
class Card(Action):
    """One Animal card: its deck colour, value, suit and animal."""

    deck: str
    value: int
    suit: str
    animal: str

    # Cards are compared, sorted and hashed on every move: their fields as one tuple
    # (``_key``, the order of sorted cards) and its hash are worked out once.  The
    # answers are the dataclass's own.
    def __post_init__(self):
        key = (self.deck, self.value, self.suit, self.animal)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self._key == other._key

    def __reduce__(self):   # pickled as its fields: the hash is worked out afresh
        return (type(self), self._key)

    def __str__(self):
        return f"{self.deck} {self.value}"

    def label(self) -> str:
        """``"Red 7 (Lynx, Spellbooks)"``."""
        return f"{self.deck} {self.value} ({self.animal}, {self.suit})"

    def text(self, long: bool = False) -> str:
        """The card for people in the current language: ``str(card)``, or with
        ``long`` its ``label()`` (``"Rot 7 (Luchs, Zauberbücher)"`` in German)."""
        if language() == "en":
            return self.label() if long else str(self)
        short = _("{deck} {value}").format(deck=name(self.deck), value=self.value)
        if not long:
            return short
        return _("{card} ({animal}, {suit})").format(card=short, animal=name(self.animal),
                                                      suit=name(self.suit))


# --------------------------------------------------------------------------- names

_NAMES: dict = {}


def name(english: str) -> str:
    """A component's name (a deck colour, a suit, an animal, an encounter; a seat's
    decks ``"Red/Green"``) in the current language, from ``data.toml``'s ``name_de``
    (texts that do not carry the game, such as actions, read the box's data file;
    ``Game.component_name`` reads the game's own)."""
    code = language()
    if code == "en" or not isinstance(english, str):
        return english
    names = _NAMES.get(code)
    if names is None:
        from .rules import BlackForest      # the box's data (rules import this module)
        names = _NAMES[code] = BlackForest().game_data().names(code)
    if "/" in english:
        return "/".join(names.get(part, part) for part in english.split("/"))
    return names.get(english, english)


# --------------------------------------------------------------------------- conditions

@dataclass(frozen=True)
class Condition:
    """A Right-side condition, parsed from the closed vocabulary in ``data.toml``.

    ``rank`` is ``"highest"``, ``"lowest"`` or ``"closest"``; ``target`` (closest
    only) is a number or ``"bottom sum"``; ``filter_kind`` is ``None``, ``"suit"``,
    ``"animal"`` or ``"parity"`` with ``filter_value`` the suit, animal, ``"odd"`` or
    ``"even"``.
    """

    text: str
    rank: str
    target: Any = None
    filter_kind: str | None = None
    filter_value: str | None = None

    def qualifies(self, card: Card) -> bool:
        """Can ``card`` win this Right side at all?"""
        kind = self.filter_kind
        if kind is None:
            return True
        if kind == "suit":
            return card.suit == self.filter_value
        if kind == "animal":
            return card.animal == self.filter_value
        return (card.value % 2 == 1) == (self.filter_value == "odd")

    def needs_bottom(self) -> bool:
        return self.target == "bottom sum"

    def key(self, card: Card, bottom_sum: int | None = None) -> int:
        """Smaller is better; equal keys tie (and cancel)."""
        if self.rank == "highest":
            return -card.value
        if self.rank == "lowest":
            return card.value
        target = bottom_sum if self.target == "bottom sum" else self.target
        return abs(card.value - target)

    def __str__(self):
        return self.text

    def said(self) -> str:
        """The condition for people in the current language (``str(cond)`` in English,
        the data's own words)."""
        if language() == "en":
            return self.text
        if self.rank == "highest":
            rank = _("highest card")
        elif self.rank == "lowest":
            rank = _("lowest card")
        elif self.target == "bottom sum":
            rank = _("closest to the sum of the Bottom cards")
        else:
            rank = _("closest to {number}").format(number=self.target)
        if self.filter_kind is None:
            return rank
        if self.filter_kind == "parity":
            only = _("odd") if self.filter_value == "odd" else _("even")
        else:
            only = name(self.filter_value)
        return _("{rank} ({only})").format(rank=rank, only=only)


def parse_condition(text: str, suits, animals) -> Condition:
    """Parse a condition such as ``"highest Wands"`` or ``"closest to 7 odd"``.

    Raises ``ValueError`` naming what is wrong; nothing is ever evaluated as code.
    """
    if not isinstance(text, str):
        raise ValueError(_("a condition is a string, not {value}").format(value=shown(text)))
    words = text.split()
    if not words:
        raise ValueError(_("the condition is empty"))
    rank, rest = words[0].lower(), words[1:]
    target, rest = _target(text, rank, rest)
    if len(rest) > 1:
        raise ValueError(_("{condition}: at most one filter word (a suit, an animal, odd or "
                           "even)").format(condition=shown(text)))
    kind, value = _filter(text, rest[0], suits, animals) if rest else (None, None)
    return Condition(text=text, rank=rank, target=target, filter_kind=kind, filter_value=value)


def _target(text: str, rank: str, rest: list) -> tuple:
    """``(target, the words after it)`` of a condition ranked ``rank``."""
    if rank in ("highest", "lowest"):
        return None, rest
    if rank != "closest":
        raise ValueError(_("{condition}: a condition starts with 'highest', 'lowest' or "
                           "'closest'").format(condition=shown(text)))
    if len(rest) < 2 or rest[0].lower() != "to":
        raise ValueError(_("{condition}: write 'closest to N' or 'closest to bottom sum'").format(
            condition=shown(text)))
    if len(rest) >= 3 and rest[1].lower() == "bottom" and rest[2].lower() == "sum":
        return "bottom sum", rest[3:]
    lo, hi = TARGET_RANGE
    if rest[1].isdigit() and lo <= int(rest[1]) <= hi:
        return int(rest[1]), rest[2:]
    raise ValueError(_("{condition}: the target must be a number {low}-{high} or 'bottom sum'")
                     .format(condition=shown(text), low=lo, high=hi))


def _filter(text: str, word: str, suits, animals) -> tuple:
    """``(filter_kind, filter_value)`` of a condition's filter ``word``."""
    lowered = {s.lower(): s for s in suits}
    lowered_animals = {a.lower(): a for a in animals}
    if word.lower() in lowered:
        return "suit", lowered[word.lower()]
    if word.lower() in lowered_animals:
        return "animal", lowered_animals[word.lower()]
    if word.lower() in ("odd", "even"):
        return "parity", word.lower()
    raise ValueError(_("{condition}: unknown filter {word} (a suit {suits}; an animal {animals}; "
                       "odd or even)").format(condition=shown(text), word=shown(word),
                                              suits=", ".join(suits), animals=", ".join(animals)))


# --------------------------------------------------------------------------- the box

@dataclass(frozen=True)
class Components(FrozenParts):
    """The parts of one game for its player count.

    Rule numbers: ``hand_size``, ``rounds`` (both for this player count),
    ``encounters_per_round``, ``right_points``, ``token_points`` and
    ``token_point_when_kept``.  Cards: ``animals`` and ``suits`` (data order),
    ``cards_of_deck`` (deck name -> its sorted cards), ``seat_cards`` (each seat's
    sorted cards), ``owner`` (card -> seat), ``player_names`` (each seat's decks,
    "Red/Green"), ``card_named`` ("Red 7" -> card).  Encounters: ``conditions``
    (encounter name -> its Right-side ``Condition``, data order).
    """

    hand_size: int
    rounds: int
    encounters_per_round: int
    right_points: int
    token_points: int
    token_point_when_kept: bool
    animals: tuple
    suits: tuple
    cards_of_deck: Mapping = field(hash=False)
    seat_cards: tuple
    owner: Mapping = field(hash=False)
    player_names: tuple
    card_named: Mapping = field(hash=False)
    conditions: Mapping = field(hash=False)

    @classmethod
    def from_data(cls, data: GameData, players: int) -> "Components":
        """Read and check the components for ``players`` (``DataError`` names the key)."""
        two = players == 2
        rules = {k.partition(".")[2]: data.get(k, int, min=RANGES[k][0], max=RANGES[k][1])
                 for k in RULE_NUMBERS}
        kept = data.get("rules.token_point_when_kept", bool)
        animal_of = _animals(data)
        animals = tuple(a for a in data.get("animals", dict) if not is_note(a))
        suits = _suits(data)
        cards_of_deck = _decks(data, animal_of, suits)
        seat_cards, owner, names = _seating(data, players, cards_of_deck)
        conditions = _encounters(data, suits, animals)
        _check_rounds_fit(data, rules, len(conditions))
        hand_size = rules["hand_size_two_player"] if two else rules["hand_size"]
        for p, cards in enumerate(seat_cards):
            if len(cards) < hand_size:
                raise data.error("decks", _("seat {seat} has only {cards} cards for a hand of "
                                   "{size}").format(seat=p + 1, cards=len(cards),
                                                    size=hand_size))
        return cls(hand_size=hand_size,
                   rounds=rules["rounds_two_player"] if two else rules["rounds"],
                   encounters_per_round=rules["encounters_per_round"],
                   right_points=rules["right_points"], token_points=rules["token_points"],
                   token_point_when_kept=kept, animals=animals, suits=suits,
                   cards_of_deck=MappingProxyType(cards_of_deck), seat_cards=seat_cards,
                   owner=MappingProxyType(owner), player_names=names,
                   card_named=MappingProxyType({str(c): c for c in owner}),
                   conditions=MappingProxyType(conditions))



def _animals(d: GameData) -> dict:
    """``{card value: animal}`` from the ``[animals]`` ranges ``[low, high]``."""
    animal_of: dict[int, str] = {}
    lo, hi = RANGES["card value"]
    for a in d.get("animals", dict):
        if is_note(a):
            continue
        rng = d.get(f"animals.{a}", list)
        if len(rng) != 2 or not all(isinstance(x, int) for x in rng) or rng[0] > rng[1]:
            raise d.error(f"animals.{a}", _("should be [low, high], not {value}").format(
                value=shown(rng)))
        d.get(f"animals.{a}", list, min=lo, max=hi)
        for v in range(rng[0], rng[1] + 1):
            if v in animal_of:
                raise d.error(f"animals.{a}", _("value {value} is also a {animal}").format(
                    value=v, animal=animal_of[v]))
            animal_of[v] = a
    return animal_of


def _suits(d: GameData) -> tuple:
    suits = d.get("suits.names", list)
    if not suits or not all(isinstance(s, str) for s in suits) or len(suits) > MAX_SUITS:
        raise d.error("suits.names", _("should be a list of 1 to {most} suit names").format(
            most=MAX_SUITS))
    return tuple(suits)


def _decks(d: GameData, animal_of: dict, suits: tuple) -> dict:
    """``{deck name: its sorted cards}`` from the ``[[decks]]`` tables."""
    decks = d.get("decks", list)
    if not 1 <= len(decks) <= MAX_DECKS:
        raise d.error("decks", _("should list from 1 to {most} decks, not {n}").format(
            most=MAX_DECKS, n=len(decks)))
    cards_of_deck: dict[str, tuple] = {}
    for i, deck in enumerate(decks):
        if not isinstance(deck, Mapping):
            raise d.error(f"decks.{i}", _("should be a table"))
        name = d.get(f"decks.{i}.name", str)
        cards = _deck(d, i, name, animal_of, suits)
        if name in cards_of_deck:
            raise d.error(f"decks.{i}.name", _("deck {deck} appears twice").format(deck=shown(name)))
        cards_of_deck[name] = tuple(sorted(cards))
    return cards_of_deck


def _deck(d: GameData, i: int, name: str, animal_of: dict, suits: tuple) -> list:
    """The cards of deck ``i`` (called ``name``): one per value, with its suit."""
    values = d.get(f"decks.{i}.values", list)
    dsuits = d.get(f"decks.{i}.suits", list)
    if len(values) != len(dsuits):
        raise d.error(f"decks.{i}.suits", _("has {entries} entries for {values} values").format(
            entries=len(dsuits), values=len(values)))
    cards = []
    for v, s in zip(values, dsuits):
        if type(v) is not int or v not in animal_of:
            raise d.error(f"decks.{i}.values", _("{value} is not a value any animal covers").format(
                value=shown(v)))
        if s not in suits:
            raise d.error(f"decks.{i}.suits",
                          _("{suit} is not one of the suits {suits}").format(
                              suit=shown(s), suits=", ".join(suits)))
        cards.append(Card(name, v, s, animal_of[v]))
    if len(set((c.value, c.suit) for c in cards)) != len(cards) or \
            len(set(values)) != len(values):
        raise d.error(f"decks.{i}.values", _("repeats a value"))
    return cards


def _seating(d: GameData, players: int, cards_of_deck: dict) -> tuple:
    """``(seat_cards, owner, player_names)``: which decks each seat plays."""
    if players == 2:
        seats = d.get("seating.two_player", list)
        if len(seats) != 2:
            raise d.error("seating.two_player", _("should list two groups of decks"))
        for p, group in enumerate(seats):
            if not isinstance(group, tuple) or not all(isinstance(x, str) for x in group):
                raise d.error(f"seating.two_player.{p}", _("should be a list of deck names, not "
                                                                "{value}").format(value=shown(group)))
    else:
        order = d.get("seating.order", list)
        if len(order) < players:
            raise d.error("seating.order", _("names {decks} decks for {players} players").format(
                decks=len(order), players=players))
        for p, deck in enumerate(order):
            if not isinstance(deck, str):
                raise d.error(f"seating.order.{p}", _("should be a deck name, not {value}").format(
                    value=shown(deck)))
        seats = [[c] for c in order[:players]]
    seat_cards, owner, names = [], {}, []
    for p, group in enumerate(seats):
        cards = []
        for deck in group:
            if deck not in cards_of_deck:
                raise d.error("seating", _("names an unknown deck {deck}").format(
                    deck=shown(deck)))
            cards.extend(cards_of_deck[deck])
        for c in cards:
            if c in owner:
                raise d.error("seating", _("gives deck {deck} to two seats").format(
                    deck=c.deck))
            owner[c] = p
        seat_cards.append(tuple(sorted(cards)))
        names.append("/".join(group))
    return tuple(seat_cards), owner, tuple(names)


def _encounters(d: GameData, suits: tuple, animals: tuple) -> dict:
    """``{encounter name: Condition}`` from ``encounters.cards`` (data order)."""
    enc = d.get("encounters.cards", list)
    count = d.get("encounters.count", int, min=RANGES["encounters.count"][0],
                  max=RANGES["encounters.count"][1])
    if len(enc) != count:
        raise d.error("encounters.cards", _("lists {cards} cards but count is {count}").format(
            cards=len(enc), count=count))
    conditions: dict[str, Condition] = {}
    for i, e in enumerate(enc):
        if not isinstance(e, Mapping):
            raise d.error(f"encounters.cards.{i}", _("should be a table"))
        name = d.get(f"encounters.cards.{i}.name", str)
        text = d.get(f"encounters.cards.{i}.right", str)
        if name in conditions:
            raise d.error(f"encounters.cards.{i}.name", _("{value} appears twice").format(value=shown(name)))
        try:
            conditions[name] = parse_condition(text, suits, animals)
        except ValueError as err:
            raise d.error(f"encounters.cards.{i}.right", str(err)) from None
    return conditions


def _check_rounds_fit(d: GameData, rules: dict, encounter_cards: int) -> None:
    """The data's rounds and encounters must fit the encounter deck."""
    per_round = rules["encounters_per_round"]
    for key in ("rules.rounds", "rules.rounds_two_player"):
        r = rules[key.partition(".")[2]]
        if r * per_round > encounter_cards:
            raise d.error(key, _("x rules.encounters_per_round ({rounds} x {per_round}) "
                                   "needs more than the {cards} encounter cards").format(
                rounds=r, per_round=per_round, cards=encounter_cards))
