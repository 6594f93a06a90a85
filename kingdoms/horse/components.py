"""The components of My Kingdom for a Horse, parsed from ``data.toml``.

``Components`` is a frozen bundle: species, supply, trade steps, dice faces (with
each King-die face decoded into its effect), setups, fence layouts and the farm
cards.  A malformed data file raises ``DataError`` naming the bad key.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from kingdoms.core.data import GameData, load_data

from .pasture import edge_index

__all__ = ["Components", "Face", "Card", "components", "SPECIES"]

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
        sym = "⚡" if self.kind == "lightning" else "∞"
        return f"{sym} {self.name}: " + "; ".join(parts)


def herd_text(herd) -> str:
    items = [f"{n} {s}" for s, n in zip(SPECIES, herd) if n]
    return ", ".join(items) if items else "nothing"


_FACE = re.compile(r"^\s*(\d+)\s+(sheep|pigs?|fences?)\s*$")


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
        raise data.error(key, f"has a face {text!r} that is not 'N sheep', 'N pig', "
                              "'half cattle' or 'N fence(s)'")
    n, what = int(m.group(1)), m.group(2)
    if what.startswith("fence"):
        return Face(t, fences=n)
    animals = [0, 0, 0, 0]
    animals[0 if what == "sheep" else 1] = n
    return Face(t, animals=tuple(animals))


def _herd(value, key, data) -> tuple:
    if not isinstance(value, Mapping):
        raise data.error(key, f"should be a table of species counts, not {value!r}")
    out = [0, 0, 0, 0]
    for s, n in value.items():
        if s not in SPECIES or not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise data.error(f"{key}.{s}", "should be a species with a count >= 0")
        out[SPECIES.index(s)] = n
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Components:
    """The parsed data.  Compared and hashed by identity (it is built once per data
    file and shared), which keeps the many caches keyed on it cheap."""

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


def parse(data: GameData, easy: bool = False) -> Components:
    species = data.get("species", list)
    if tuple(species) != SPECIES:
        raise data.error("species", f"should be {list(SPECIES)} (the engine's order)")
    supply = tuple(data.get(f"supply.counts.{s}", int) for s in SPECIES)
    steps = data.get("trade.steps", list)
    if len(steps) != 3:
        raise data.error("trade.steps", "should list the 3 upward steps")
    rates = []
    for i, st in enumerate(steps):
        give, get = data.get(f"trade.steps.{i}.give", str), data.get(f"trade.steps.{i}.get", str)
        rate = data.get(f"trade.steps.{i}.rate", int)
        if (give, get) != (SPECIES[i], SPECIES[i + 1]) or rate < 1:
            raise data.error(f"trade.steps.{i}", f"should trade {SPECIES[i]} -> {SPECIES[i+1]} "
                                                   "at a rate >= 1")
        rates.append(rate)
    goal = data.get("goal.easy" if easy else "goal.standard", int)
    rows, cols = data.get("pasture.rows", int), data.get("pasture.cols", int)
    if (rows, cols) != (3, 4):
        raise data.error("pasture.rows", "this engine draws 3x4 pastures only")
    king = data.get("king_die.faces", list)
    if not king:
        raise data.error("king_die.faces", "is empty")
    kfaces = tuple(parse_face(t, f"king_die.faces.{i}", data) for i, t in enumerate(king))
    mult = data.get("multiplication_die.faces", list)
    if not mult or any(m not in SPECIES for m in mult):
        raise data.error("multiplication_die.faces", "should be a non-empty list of species")
    if data.get("multiplication_die.count", int) != 1:
        raise data.error("multiplication_die.count", "should be 1")
    seats = []
    for i, _ in enumerate(data.get("setup.seats", list)):
        f = data.get(f"setup.seats.{i}.fences", int)
        herd = [data.get(f"setup.seats.{i}.{s}", int, 0) for s in SPECIES]
        seats.append((f, tuple(herd)))
    if len(seats) != 4:
        raise data.error("setup.seats", "should give 4 seats")

    def mask(key):
        v = data.get(key, (list, str))
        names = [v] if isinstance(v, str) else list(v)
        m = 0
        for j, e in enumerate(names):
            try:
                m |= 1 << edge_index(e)
            except ValueError as err:
                raise data.error(f"{key}.{j}", str(err)) from None
        return m

    layout, extra = mask("setup.layout"), mask("setup.extra_fence")
    for i, (f, _) in enumerate(seats):
        if f != bin(layout).count("1") + (bin(extra).count("1") if f > bin(layout).count("1") else 0):
            raise data.error(f"setup.seats.{i}.fences", "does not match setup.layout (+ extra_fence)")
    moritz = _herd(data.get("setup.solo_moritz", dict), "setup.solo_moritz", data)
    cards = []
    for i, _ in enumerate(data.get("cards.list", list)):
        key = f"cards.list.{i}"
        name = data.get(key + ".name", str)
        kind = data.get(key + ".kind", str)
        if kind not in ("lightning", "infinity"):
            raise data.error(key + ".kind", "should be 'lightning' or 'infinity'")
        rate = data.get(key + ".rate", dict, None)
        if rate is not None:
            g = data.get(key + ".rate.give", str)
            if g not in SPECIES[:3]:
                raise data.error(key + ".rate.give", "should be sheep, pig or cattle")
            rate = (g, data.get(key + ".rate.rate", int))
        mul = data.get(key + ".multiply", str, None)
        bonus = data.get(key + ".multiply_bonus", str, None)
        for k, v in (("multiply", mul), ("multiply_bonus", bonus)):
            if v is not None and v not in SPECIES:
                raise data.error(f"{key}.{k}", "should be a species")
        cards.append(Card(
            name=name, kind=kind, copies=data.get(key + ".copies", int),
            gain=_herd(data.get(key + ".gain", dict, {}), key + ".gain", data),
            pay=_herd(data.get(key + ".pay", dict, {}), key + ".pay", data),
            fences=data.get(key + ".fences", int, 0), multiply=mul,
            trade_all=data.get(key + ".trade_all", bool, False),
            multiply_bonus=bonus, rate=rate))
    deck = data.get("cards.deck", int)
    if sum(c.copies for c in cards) != deck:
        raise data.error("cards.list", f"copies add up to {sum(c.copies for c in cards)}, "
                                       f"not cards.deck = {deck}")
    return Components(
        species=SPECIES, supply=supply, trade_rates=tuple(rates), goal=goal,
        rows=rows, cols=cols, per_field=data.get("pasture.per_field", int),
        fences_per_player=data.get("pasture.fences_per_player", int),
        king_faces=kfaces, king_count=data.get("king_die.count", int),
        mult_faces=tuple(mult), seats=tuple(seats), layout=layout, extra_fence=extra,
        moritz_start=moritz, moritz_rolls=data.get("moritz.rolls", int),
        moritz_keep=data.get("moritz.keep", int), hand=data.get("setup.hand", int),
        cards=tuple(cards), deck_size=deck)


@lru_cache(maxsize=16)
def components(path: str | None = None, easy: bool = False) -> Components:
    """The parsed components of the packaged data file (or a user's copy)."""
    return parse(load_data("kingdoms.horse", path), easy)


def game_data(path: str | None = None) -> GameData:
    return load_data("kingdoms.horse", path)
