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

from kingdoms.core.data import GameData, check_range, load_data

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

    def text(self) -> str:
        parts = []
        if any(self.pay):
            parts.append("pay " + herd_text(self.pay))
        if any(self.gain):
            parts.append("receive " + herd_text(self.gain))
        if self.fences:
            parts.append(f"receive {self.fences} fences")
        if self.multiply:
            parts.append(f"your {self.multiply} multiply")
        if self.trade_all:
            parts.append("trade all species in every trading phase")
        if self.multiply_bonus:
            parts.append(f"+1 {self.multiply_bonus} whenever your {self.multiply_bonus} multiply")
        if self.rate:
            parts.append(f"trade {self.rate[1]} {self.rate[0]} for 1 of the next species")
        sym = "⚡ lightning" if self.kind == "lightning" else "∞ infinity"
        return f"{self.name} ({sym}): " + "; ".join(parts)


def herd_text(herd) -> str:
    items = [f"{n} {s}" for s, n in zip(SPECIES, herd) if n]
    return ", ".join(items) if items else "nothing"


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
        raise data.error(key, f"should be a face text, not {text!r}")
    t = text.strip()
    if t == "half cattle":
        return Face(t, half=1)
    if t in ("blank", "nothing"):
        return Face(t)
    m = _FACE.match(t)
    if not m:
        raise data.error(key, f"has a face {text[:40]!r} that is not 'N sheep', 'N pig', "
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
        raise data.error(key, f"should be a table of species counts, not {value!r}")
    lo, hi = _limit(limit)
    out = [0, 0, 0, 0]
    for s, n in value.items():
        if s not in SPECIES:
            raise data.error(f"{key}.{s}", f"is not a species (use {', '.join(SPECIES)})")
        if type(n) is not int:          # check_range alone lets 2.5 or 1e0 through
            raise data.error(f"{key}.{s}", f"should be a whole number from {lo} to {hi}, "
                                           f"not {n!r}")
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
    """Check every value (type and range) and build the components.  A value out of
    range raises ``DataError`` naming the key and the allowed range."""
    get = data.get
    species = get("species", list)
    if tuple(species) != SPECIES:
        raise data.error("species", f"should be {list(SPECIES)} (the engine's order)")
    supply = tuple(get(f"supply.counts.{s}", int, min=_limit("supply")[0],
                       max=_limit("supply")[1]) for s in SPECIES)
    steps = get("trade.steps", list)
    if len(steps) != 3:
        raise data.error("trade.steps", "should list the 3 upward steps")
    rates = []
    for i in range(3):
        give, get_ = get(f"trade.steps.{i}.give", str), get(f"trade.steps.{i}.get", str)
        if (give, get_) != (SPECIES[i], SPECIES[i + 1]):
            raise data.error(f"trade.steps.{i}", f"should trade {SPECIES[i]} -> {SPECIES[i+1]}")
        rates.append(get(f"trade.steps.{i}.rate", int, min=_limit("rate")[0],
                         max=_limit("rate")[1]))
    lo, hi = _limit("goal")
    goal = get("goal.easy" if easy else "goal.standard", int, min=lo, max=hi)
    # the other variant's goal is checked too (one file serves both)
    get("goal.standard" if easy else "goal.easy", int, min=lo, max=hi)
    rows, cols = get("pasture.rows", int), get("pasture.cols", int)
    if (rows, cols) != (3, 4):
        raise data.error("pasture.rows", "this engine draws 3x4 pastures only (3 rows, 4 cols)")
    per_field = get("pasture.per_field", int, min=_limit("per_field")[0],
                    max=_limit("per_field")[1])
    if 4 * goal > rows * cols * per_field:
        raise data.error("goal.easy" if easy else "goal.standard",
                         f"asks for {4 * goal} animals, more than a pasture holds "
                         f"({rows * cols} fields x {per_field})")
    fpp = get("pasture.fences_per_player", int, min=_limit("fences_per_player")[0],
              max=_limit("fences_per_player")[1])
    king = get("king_die.faces", list)
    check_range(data, "king_die.faces (number of faces)", len(king), *_limit("faces"))
    kfaces = tuple(parse_face(t, f"king_die.faces.{i}", data) for i, t in enumerate(king))
    king_count = get("king_die.count", int, min=_limit("king_count")[0],
                     max=_limit("king_count")[1])
    mult = get("multiplication_die.faces", list)
    check_range(data, "multiplication_die.faces (number of faces)", len(mult),
                *_limit("faces"))
    for i, m in enumerate(mult):
        if m not in SPECIES:
            raise data.error(f"multiplication_die.faces.{i}",
                             f"should be a species ({', '.join(SPECIES)}), not {m!r}")
    get("multiplication_die.count", int, min=1, max=1)
    seat_list = get("setup.seats", list)
    if len(seat_list) != 4:
        raise data.error("setup.seats", "should give 4 seats")
    seats = []
    for i in range(4):
        key = f"setup.seats.{i}"
        entry = get(key, dict)
        for k in entry:
            if k != "fences" and k not in SPECIES and not k.endswith(("_source", "_assumed")):
                raise data.error(f"{key}.{k}", "is not 'fences' or a species")
        f = get(f"{key}.fences", int, min=_limit("seat_fences")[0], max=_limit("seat_fences")[1])
        herd = tuple(get(f"{key}.{s}", int, 0, min=_limit("herd")[0], max=_limit("herd")[1])
                     for s in SPECIES)
        seats.append((f, herd))

    def mask(key):
        v = get(key, (list, str))
        names = [v] if isinstance(v, str) else list(v)
        check_range(data, f"{key} (number of borders)", len(names), *_limit("borders"))
        m = 0
        for j, e in enumerate(names):
            if not isinstance(e, str):
                raise data.error(f"{key}.{j}", f"should be a border name like 'H00', not {e!r}")
            try:
                m |= 1 << edge_index(e)
            except ValueError as err:
                raise data.error(f"{key}.{j}", str(err)) from None
        return m

    layout, extra = mask("setup.layout"), mask("setup.extra_fence")
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
    moritz = _herd(get("setup.solo_moritz", dict), "setup.solo_moritz", data, "herd")
    for i in range(4):
        need = [sum(seats[j][1][i] for j in range(4)),
                seats[0][1][i] + moritz[i]]
        if max(need) > supply[i]:
            raise data.error(f"supply.counts.{SPECIES[i]}",
                             f"should be at least {max(need)}: the starting herds need them")
        if supply[i] < goal:
            raise data.error(f"supply.counts.{SPECIES[i]}",
                             f"should be at least the goal ({goal}): else nobody can win")
    hand = get("setup.hand", int, min=_limit("hand")[0], max=_limit("hand")[1])
    card_list = get("cards.list", list)
    check_range(data, "cards.list (number of card types)", len(card_list), *_limit("cards"))
    cards = []
    lo, hi = _limit("card_amount")
    for i in range(len(card_list)):
        key = f"cards.list.{i}"
        get(key, dict)
        name = get(key + ".name", str)
        if not name.strip() or len(name) > 60:
            raise data.error(key + ".name", "should be a name of 1 to 60 characters")
        if any(c.name == name for c in cards):
            raise data.error(key + ".name", f"repeats the card name {name!r}")
        kind = get(key + ".kind", str)
        if kind not in ("lightning", "infinity"):
            raise data.error(key + ".kind", "should be 'lightning' or 'infinity'")
        rate = get(key + ".rate", dict, None)
        if rate is not None:
            g = get(key + ".rate.give", str)
            if g not in SPECIES[:3]:
                raise data.error(key + ".rate.give", "should be sheep, pig or cattle")
            rate = (g, get(key + ".rate.rate", int, min=_limit("rate")[0],
                           max=_limit("rate")[1]))
        mul = get(key + ".multiply", str, None)
        bonus = get(key + ".multiply_bonus", str, None)
        for k, v in (("multiply", mul), ("multiply_bonus", bonus)):
            if v is not None and v not in SPECIES:
                raise data.error(f"{key}.{k}", f"should be a species ({', '.join(SPECIES)})")
        cards.append(Card(
            name=name, kind=kind,
            copies=get(key + ".copies", int, min=_limit("copies")[0], max=_limit("copies")[1]),
            gain=_herd(get(key + ".gain", dict, {}), key + ".gain", data),
            pay=_herd(get(key + ".pay", dict, {}), key + ".pay", data),
            fences=get(key + ".fences", int, 0, min=lo, max=hi), multiply=mul,
            trade_all=get(key + ".trade_all", bool, False),
            multiply_bonus=bonus, rate=rate))
    deck = get("cards.deck", int, min=_limit("deck")[0], max=_limit("deck")[1])
    if sum(c.copies for c in cards) != deck:
        raise data.error("cards.list", f"copies add up to {sum(c.copies for c in cards)}, "
                                       f"not cards.deck = {deck}")
    if deck < 4 * hand:
        raise data.error("cards.deck", f"should hold at least 4 hands of setup.hand = {hand} "
                                       f"cards ({4 * hand})")
    moritz_rolls = get("moritz.rolls", int, min=_limit("moritz_rolls")[0],
                       max=_limit("moritz_rolls")[1])
    moritz_keep = get("moritz.keep", int, min=_limit("moritz_keep")[0],
                      max=_limit("moritz_keep")[1])
    return Components(
        species=SPECIES, supply=supply, trade_rates=tuple(rates), goal=goal,
        rows=rows, cols=cols, per_field=per_field, fences_per_player=fpp,
        king_faces=kfaces, king_count=king_count,
        mult_faces=tuple(mult), seats=tuple(seats), layout=layout, extra_fence=extra,
        moritz_start=moritz, moritz_rolls=moritz_rolls, moritz_keep=moritz_keep,
        hand=hand, cards=tuple(cards), deck_size=deck,
        key=content_key(data, easy))


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


def components_of(data: GameData, easy: bool = False) -> Components:
    """The components of already-loaded data (checked, interned by content)."""
    key = content_key(data, easy)
    comp = _INTERNED.get(key)
    if comp is None:
        comp = parse(data, easy)
        comp = _INTERNED.setdefault(key, comp)
    _RECENT[key] = comp                 # keep the last few alive between games
    while len(_RECENT) > 8:
        _RECENT.pop(next(iter(_RECENT)))
    return comp


_RECENT: dict = {}


def game_data(path: str | None = None) -> GameData:
    return load_data("kingdoms.horse", path)
