"""The components of My Kingdom for a Horse, parsed from ``data.toml``.

``Components`` is a frozen bundle: species, supply, trade steps, dice faces (with
each King-die face decoded into its effect), setups, fence layouts and the farm
cards.  Every value is checked for its type and range (``LIMITS``); a malformed or
out-of-range data file raises ``DataError`` naming the key and the allowed range.
"""
from __future__ import annotations

import hashlib
import json
import re
import weakref
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Mapping

from kingdoms.core.cache import BoundedDict
from kingdoms.core.data import GameData, check_range, is_note, load_data, shown
from kingdoms.core.i18n import _
from kingdoms.core.protocol import safe_repr

from . import pasture
from .pasture import edge_index

__all__ = ["Components", "Face", "Card", "components", "components_of", "SPECIES", "LIMITS"]

SPECIES = ("sheep", "pig", "cattle", "horse")


@dataclass(frozen=True)
class Face:
    """What one King-die face gives: animals per species, half cattle, fences."""

    name: str
    animals: tuple = (0, 0, 0, 0)      # per species, in SPECIES order
    half: int = 0
    fences: int = 0


@dataclass(frozen=True)
class Card:
    """A farm card: ``kind`` is "lightning" (one-shot) or "infinity" (permanent)."""

    name: str
    kind: str
    copies: int
    gain: tuple = (0, 0, 0, 0)
    pay: tuple = (0, 0, 0, 0)
    fences: int = 0
    multiply: str | None = None
    trade_all: bool = False
    multiply_bonus: str | None = None
    rate: tuple | None = None          # (give species, new rate)

    def text(self, game=None) -> str:
        """The card and its effect in words (names from ``game``'s data file, else
        the packaged one)."""
        from .words import count_words, kind_words, name, species_word
        parts = []
        if any(self.pay):
            parts.append(_("pay {animals}").format(animals=herd_text(self.pay, game)))
        if any(self.gain):
            parts.append(_("receive {animals}").format(animals=herd_text(self.gain, game)))
        if self.fences:
            parts.append(_("receive {n} fences").format(n=self.fences))
        if self.multiply:
            parts.append(_("your {species} multiply").format(
                species=species_word(self.multiply, 2, game)))
        if self.trade_all:
            parts.append(_("trade all species in every trading phase"))
        if self.multiply_bonus:
            parts.append(_("+1 {one} whenever your {species} multiply").format(
                one=species_word(self.multiply_bonus, 1, game),
                species=species_word(self.multiply_bonus, 2, game)))
        if self.rate:
            parts.append(_("trade {animals} for 1 of the next species").format(
                animals=count_words(self.rate[1], self.rate[0], game)))
        sym = ("⚡ " if self.kind == "lightning" else "∞ ") + kind_words(self.kind)
        return f"{name(self.name, game)} ({sym}): " + "; ".join(parts)


def sheep_values(comp: "Components") -> dict:
    """The worth of each species in sheep at the trade rates (1, 2, 6, 24)."""
    out, v = {"sheep": 1}, 1
    for i, r in enumerate(comp.trade_rates):
        v *= r
        out[SPECIES[i + 1]] = v
    return out


def sheep_value(herd: tuple, comp: "Components") -> int:
    """The herd's worth in sheep (trading keeps it constant)."""
    vals = sheep_values(comp)
    return sum(n * vals[s] for s, n in zip(SPECIES, herd))


def herd_text(herd, game=None) -> str:
    """The animals of ``herd`` in words ("2 sheep, 1 pig"; "nothing")."""
    from .words import herd_words
    return herd_words(herd, SPECIES, game)


# ------------------------------------------------------------------ limits
# Every number read from data.toml is checked against these ranges when a game is
# built (``DataError`` names the key and the range).  They are wide enough for any
# edition of the box and narrow enough that every game stays small and ends: e.g. at
# most 5 King dice (2^5 keep choices, a few hundred roll outcomes), hands of at most
# 6 cards (64 discard choices), fences only on the 31 borders.
LIMITS = MappingProxyType({
    "supply": (0, 200),            # animals of one species in the supply
    "rate": (1, 20),               # animals given for 1 of the next species
    "goal": (1, 6),                # animals of each species to win
    "per_field": (1, 6),           # animals per field
    "fences_per_player": (1, pasture.EDGES),
    "king_count": (1, 5),          # King dice
    "faces": (1, 24),              # faces listed on one die (repeats allowed)
    "face_amount": (1, 6),         # animals or fences shown on one King face
    "seat_fences": (0, pasture.EDGES),
    "herd": (0, 24),               # animals of one species at the start
    "hand": (0, 6),                # farm cards in hand
    "moritz_rolls": (1, 4),
    "moritz_keep": (0, 24),
    "copies": (0, 40),             # copies of one card type
    "deck": (0, 200),
    "card_amount": (0, 6),         # animals gained/paid or fences received by a card
    "cards": (0, 60),              # card types
    "borders": (0, pasture.EDGES),  # borders named by setup.layout / setup.extra_fence
})
# Where each limit applies: data key (``*`` = any key or list index) -> (kind, limit).
# ``int``: the number (every entry of a list); ``list``: the number of entries.
DATA_KEYS = MappingProxyType({
    "supply.counts.*": (int, "supply"),
    "trade.steps.*.rate": (int, "rate"),
    "goal.standard": (int, "goal"),
    "goal.easy": (int, "goal"),
    "pasture.per_field": (int, "per_field"),
    "pasture.fences_per_player": (int, "fences_per_player"),
    "king_die.count": (int, "king_count"),
    "king_die.faces": (list, "faces"),
    "multiplication_die.faces": (list, "faces"),
    "setup.seats.*.fences": (int, "seat_fences"),
    **{f"setup.seats.*.{s}": (int, "herd") for s in SPECIES},
    "setup.solo_moritz.*": (int, "herd"),
    "setup.layout": (list, "borders"),
    "setup.extra_fence": (list, "borders"),
    "setup.hand": (int, "hand"),
    "moritz.rolls": (int, "moritz_rolls"),
    "moritz.keep": (int, "moritz_keep"),
    "cards.deck": (int, "deck"),
    "cards.list": (list, "cards"),
    "cards.list.*.copies": (int, "copies"),
    "cards.list.*.gain.*": (int, "card_amount"),
    "cards.list.*.pay.*": (int, "card_amount"),
    "cards.list.*.fences": (int, "card_amount"),
    "cards.list.*.rate.rate": (int, "rate"),
})


def data_ranges() -> dict:
    """The data file's schema, ``{key: (kind, min, max)}`` (``Game.data_ranges``),
    from ``DATA_KEYS`` and ``LIMITS``."""
    return {key: (kind, *LIMITS[name]) for key, (kind, name) in DATA_KEYS.items()}


def _limit(name):
    return LIMITS[name]


_FACE = re.compile(r"^\s*(\d{1,3})\s+(sheep|pigs?|fences?)\s*$")


def parse_face(text: str, key: str, data: GameData) -> Face:
    if not isinstance(text, str):
        raise data.error(key, f"should be a face text, not {shown(text)}")
    t = text.strip()
    if t == "half cattle":
        return Face(t, half=1)
    if t in ("blank", "nothing"):
        return Face(t)
    m = _FACE.match(t)
    if not m:
        raise data.error(key, f"has a face {shown(text[:40])} that is not 'N sheep', 'N pig', "
                              "'half cattle' or 'N fence(s)'")
    n, what = int(m.group(1)), m.group(2)
    check_range(data, key, n, *_limit("face_amount"))
    if what.startswith("fence"):
        return Face(t, fences=n)
    animals = [0, 0, 0, 0]
    animals[0 if what == "sheep" else 1] = n
    return Face(t, animals=tuple(animals))


def _herd(value, key, data, limit="card_amount") -> tuple:
    if not isinstance(value, Mapping):
        raise data.error(key, f"should be a table of species counts, not {shown(value)}")
    lo, hi = _limit(limit)
    out = [0, 0, 0, 0]
    for s, n in value.items():
        if s not in SPECIES:
            raise data.error(f"{key}.{s}", f"is not a species (use {', '.join(SPECIES)})")
        if type(n) is not int:          # check_range alone lets 2.5 or 1e0 through
            raise data.error(f"{key}.{s}", f"should be a whole number from {lo} to {hi}, "
                                           f"not {shown(n)}")
        check_range(data, f"{key}.{s}", n, lo, hi)
        out[SPECIES.index(s)] = n
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Components:
    """The parsed data.  Two bundles are equal when they come from the same data
    content (``key``, a digest of the file's values and the variant), so an edited
    file gives a different bundle while copies (pickled, deep-copied) of one bundle
    stay equal, hash alike and come back as the one shared object."""

    species: tuple
    supply: tuple                      # per species
    trade_rates: tuple                 # rate to trade species i -> i+1 (len 3)
    goal: int
    rows: int
    cols: int
    per_field: int
    fences_per_player: int
    king_faces: tuple                  # Face objects (repeats allowed)
    king_count: int
    mult_faces: tuple                  # species names
    seats: tuple                       # ((fences, herd tuple), ...)
    layout: int                        # fence bitmask of the starting layout
    extra_fence: int                   # bitmask of the extra fence(s)
    moritz_start: tuple
    moritz_rolls: int
    moritz_keep: int
    hand: int
    cards: tuple                       # Card objects, one per card type
    deck_size: int
    key: str = ""                      # digest of the data content (and the variant)

    def __eq__(self, other):
        return self is other or (isinstance(other, Components) and self.key == other.key)

    def __hash__(self):
        return hash(self.key)

    def __reduce__(self):
        # copies (pickle, deepcopy) come back as the interned bundle of this content
        return (_intern, (self.key, tuple(getattr(self, f.name) for f in fields(self))))

    @classmethod
    def from_data(cls, data: GameData, easy: bool = False) -> "Components":
        """Check every value (type and range) and build the components.  A value out
        of range raises ``DataError`` naming the key and the allowed range."""
        supply = _read_supply(data)
        rates = _read_rates(data)
        goal = _read_goal(data, easy)
        rows, cols, per_field, fpp = _read_pasture(data, goal, easy)
        king_faces, king_count, mult_faces = _read_dice(data)
        seats = _read_seats(data)
        layout, extra = _read_layout(data, seats, fpp)
        moritz = _read_moritz_start(data, seats, supply, goal)
        hand = _ranged(data, "setup.hand", "hand")
        cards, deck = _read_cards(data, hand)
        return cls(
            species=SPECIES, supply=supply, trade_rates=rates, goal=goal,
            rows=rows, cols=cols, per_field=per_field, fences_per_player=fpp,
            king_faces=king_faces, king_count=king_count, mult_faces=mult_faces,
            seats=seats, layout=layout, extra_fence=extra, moritz_start=moritz,
            moritz_rolls=_ranged(data, "moritz.rolls", "moritz_rolls"),
            moritz_keep=_ranged(data, "moritz.keep", "moritz_keep"),
            hand=hand, cards=cards, deck_size=deck, key=content_key(data, easy))

    def king_face(self, name: str) -> Face:
        for f in self.king_faces:
            if f.name == name:
                return f
        raise KeyError(name)

    def card(self, name: str) -> Card:
        for c in self.cards:
            if c.name == name:
                return c
        raise KeyError(name)


# One live bundle per data content: states, games and their copies share it, so the
# caches keyed on it stay small.  Weak: a bundle nobody uses any more is dropped.
_INTERNED: "weakref.WeakValueDictionary[str, Components]" = weakref.WeakValueDictionary()


def _intern(key: str, values: tuple) -> Components:
    comp = _INTERNED.get(key)
    if comp is None:
        comp = Components(*values)
        if comp.key != key:
            raise ValueError("inconsistent components copy")
        _INTERNED[key] = comp
    return comp


def parse(data: GameData, easy: bool = False) -> Components:
    """``Components.from_data(data, easy)`` (the name older code calls)."""
    return Components.from_data(data, easy)


# ---- Components.from_data, one part of the box at a time (in the file's order, so a
# file with several bad values names the same key first as before)

def _ranged(data: GameData, key: str, limit: str, *default):
    """The int at ``key``, checked against ``LIMITS[limit]``."""
    lo, hi = _limit(limit)
    return data.get(key, int, *default, min=lo, max=hi)


def _read_supply(data: GameData) -> tuple:
    """The species (in the engine's order) and the supply of each."""
    if tuple(data.get("species", list)) != SPECIES:
        raise data.error("species", f"should be {list(SPECIES)} (the engine's order)")
    return tuple(_ranged(data, f"supply.counts.{s}", "supply") for s in SPECIES)


def _read_rates(data: GameData) -> tuple:
    """The 3 upward trade steps' rates (sheep -> pig -> cattle -> horse)."""
    if len(data.get("trade.steps", list)) != 3:
        raise data.error("trade.steps", "should list the 3 upward steps")
    rates = []
    for i in range(3):
        give, get = data.get(f"trade.steps.{i}.give", str), data.get(f"trade.steps.{i}.get", str)
        if (give, get) != (SPECIES[i], SPECIES[i + 1]):
            raise data.error(f"trade.steps.{i}", f"should trade {SPECIES[i]} -> {SPECIES[i+1]}")
        rates.append(_ranged(data, f"trade.steps.{i}.rate", "rate"))
    return tuple(rates)


def _read_goal(data: GameData, easy: bool) -> int:
    """The goal of the variant played (the other variant's goal is checked too: one
    file serves both)."""
    goal = _ranged(data, "goal.easy" if easy else "goal.standard", "goal")
    _ranged(data, "goal.standard" if easy else "goal.easy", "goal")
    return goal


def _read_pasture(data: GameData, goal: int, easy: bool) -> tuple:
    """``(rows, cols, per_field, fences_per_player)``; the goal must fit a pasture."""
    rows, cols = data.get("pasture.rows", int), data.get("pasture.cols", int)
    if (rows, cols) != (3, 4):
        raise data.error("pasture.rows", "this engine draws 3x4 pastures only (3 rows, 4 cols)")
    per_field = _ranged(data, "pasture.per_field", "per_field")
    if 4 * goal > rows * cols * per_field:
        raise data.error("goal.easy" if easy else "goal.standard",
                         f"asks for {4 * goal} animals, more than a pasture holds "
                         f"({rows * cols} fields x {per_field})")
    return rows, cols, per_field, _ranged(data, "pasture.fences_per_player", "fences_per_player")


def _read_dice(data: GameData) -> tuple:
    """``(King faces, King dice, pink faces)``."""
    king = data.get("king_die.faces", list)
    check_range(data, "king_die.faces (number of faces)", len(king), *_limit("faces"))
    faces = tuple(parse_face(t, f"king_die.faces.{i}", data) for i, t in enumerate(king))
    king_count = _ranged(data, "king_die.count", "king_count")
    mult = data.get("multiplication_die.faces", list)
    check_range(data, "multiplication_die.faces (number of faces)", len(mult),
                *_limit("faces"))
    for i, m in enumerate(mult):
        if m not in SPECIES:
            raise data.error(f"multiplication_die.faces.{i}",
                             f"should be a species ({', '.join(SPECIES)}), not {shown(m)}")
    data.get("multiplication_die.count", int, min=1, max=1)
    return faces, king_count, tuple(mult)


def _read_seats(data: GameData) -> tuple:
    """Each of the 4 seats' ``(fences, starting herd)``."""
    if len(data.get("setup.seats", list)) != 4:
        raise data.error("setup.seats", "should give 4 seats")
    seats = []
    for i in range(4):
        key = f"setup.seats.{i}"
        for k in data.get(key, dict):
            if k != "fences" and k not in SPECIES and not is_note(k):
                raise data.error(f"{key}.{k}", "is not 'fences' or a species")
        f = _ranged(data, f"{key}.fences", "seat_fences")
        herd = tuple(_ranged(data, f"{key}.{s}", "herd", 0) for s in SPECIES)
        seats.append((f, herd))
    return tuple(seats)


def _border_mask(data: GameData, key: str) -> int:
    """The borders named at ``key`` (a name or a list of names) as a bitmask."""
    v = data.get(key, (list, str))
    names = [v] if isinstance(v, str) else list(v)
    check_range(data, f"{key} (number of borders)", len(names), *_limit("borders"))
    m = 0
    for j, e in enumerate(names):
        if not isinstance(e, str):
            raise data.error(f"{key}.{j}", f"should be a border name like 'H00', not {shown(e)}")
        try:
            m |= 1 << edge_index(e)
        except ValueError as err:
            raise data.error(f"{key}.{j}", str(err)) from None
    return m


def _read_layout(data: GameData, seats: tuple, fpp: int) -> tuple:
    """``(layout, extra fence)`` bitmasks, agreeing with each seat's fences."""
    layout, extra = _border_mask(data, "setup.layout"), _border_mask(data, "setup.extra_fence")
    if layout & extra:
        raise data.error("setup.extra_fence", "is a border that setup.layout already fences")
    nl, ne = pasture.popcount(layout), pasture.popcount(extra)
    for i, (f, _) in enumerate(seats):
        if f not in (nl, nl + ne):
            raise data.error(f"setup.seats.{i}.fences",
                             f"should be {nl} (setup.layout) or {nl + ne} (with extra_fence)")
        if f > fpp:
            raise data.error(f"setup.seats.{i}.fences",
                             f"should be at most pasture.fences_per_player = {fpp}")
    return layout, extra


def _read_moritz_start(data: GameData, seats: tuple, supply: tuple, goal: int) -> tuple:
    """Moritz's starting herd; the supply must hold every start and the goal."""
    moritz = _herd(data.get("setup.solo_moritz", dict), "setup.solo_moritz", data, "herd")
    for i in range(4):
        need = [sum(seats[j][1][i] for j in range(4)),
                seats[0][1][i] + moritz[i]]
        if max(need) > supply[i]:
            raise data.error(f"supply.counts.{SPECIES[i]}",
                             f"should be at least {max(need)}: the starting herds need them")
        if supply[i] < goal:
            raise data.error(f"supply.counts.{SPECIES[i]}",
                             f"should be at least the goal ({goal}): else nobody can win")
    return moritz


def _read_card(data: GameData, i: int, cards: list) -> Card:
    """The farm card ``cards.list.i`` (``cards``: those read before it)."""
    key = f"cards.list.{i}"
    data.get(key, dict)
    name = data.get(key + ".name", str)
    if not name.strip() or len(name) > 60:
        raise data.error(key + ".name", "should be a name of 1 to 60 characters")
    if any(c.name == name for c in cards):
        raise data.error(key + ".name", f"repeats the card name {shown(name)}")
    kind = data.get(key + ".kind", str)
    if kind not in ("lightning", "infinity"):
        raise data.error(key + ".kind", "should be 'lightning' or 'infinity'")
    rate = data.get(key + ".rate", dict, None)
    if rate is not None:
        g = data.get(key + ".rate.give", str)
        if g not in SPECIES[:3]:
            raise data.error(key + ".rate.give", "should be sheep, pig or cattle")
        rate = (g, _ranged(data, key + ".rate.rate", "rate"))
    mul = data.get(key + ".multiply", str, None)
    bonus = data.get(key + ".multiply_bonus", str, None)
    for k, v in (("multiply", mul), ("multiply_bonus", bonus)):
        if v is not None and v not in SPECIES:
            raise data.error(f"{key}.{k}", f"should be a species ({', '.join(SPECIES)})")
    return Card(
        name=name, kind=kind, copies=_ranged(data, key + ".copies", "copies"),
        gain=_herd(data.get(key + ".gain", dict, {}), key + ".gain", data),
        pay=_herd(data.get(key + ".pay", dict, {}), key + ".pay", data),
        fences=_ranged(data, key + ".fences", "card_amount", 0), multiply=mul,
        trade_all=data.get(key + ".trade_all", bool, False),
        multiply_bonus=bonus, rate=rate)


def _read_cards(data: GameData, hand: int) -> tuple:
    """``(cards, deck size)``: the card types, their copies adding up to the deck."""
    card_list = data.get("cards.list", list)
    check_range(data, "cards.list (number of card types)", len(card_list), *_limit("cards"))
    cards: list = []
    for i in range(len(card_list)):
        cards.append(_read_card(data, i, cards))
    deck = _ranged(data, "cards.deck", "deck")
    if sum(c.copies for c in cards) != deck:
        raise data.error("cards.list", f"copies add up to {sum(c.copies for c in cards)}, "
                                       f"not cards.deck = {deck}")
    if deck < 4 * hand:
        raise data.error("cards.deck", f"should hold at least 4 hands of setup.hand = {hand} "
                                       f"cards ({4 * hand})")
    return tuple(cards), deck


def content_key(data: GameData, easy: bool) -> str:
    """A digest of the data's values (not its path) and the variant."""
    text = json.dumps(_plain(data.raw), sort_keys=True, default=str)
    return hashlib.sha256(f"{bool(easy)}\n{text}".encode()).hexdigest()


def _plain(x):
    if isinstance(x, Mapping):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    return x


def components(path: str | None = None, easy: bool = False) -> Components:
    """The parsed components of the packaged data file (or a user's copy).

    The file is read each time (an edited file takes effect); parsing is cached by
    content, and equal content gives the one shared bundle."""
    return components_of(game_data(path), easy)


def game_components(game=None) -> Components:
    """The components of ``game`` (a Horse game, or already ``Components``); None:
    those of the packaged data file."""
    if game is None:
        return components()
    if isinstance(game, Components):
        return game
    try:
        comp = game.comp
    except Exception:
        comp = None
    if not isinstance(comp, Components):
        raise TypeError("game must be a Horse game (kingdoms.game(\"horse\", ...)), its "
                        f"Components, or None for the packaged data; not {safe_repr(game)}")
    return comp


def components_of(data: GameData, easy: bool = False) -> Components:
    """The components of already-loaded data (checked, interned by content)."""
    key = content_key(data, easy)
    comp = _INTERNED.get(key)
    if comp is None:
        comp = _INTERNED.setdefault(key, Components.from_data(data, easy))
    _RECENT[key] = comp
    return comp


# Speed only: the last few bundles stay alive between games (``_INTERNED`` is weak).
_RECENT = BoundedDict(8)


def game_data(path: str | None = None) -> GameData:
    """The packaged ``data.toml`` (or the user's copy at ``path``) for ``components()``,
    the lessons' shortcut; a game reads its data through ``Game.game_data()``."""
    return load_data(__package__, path)
