"""The dice of My Kingdom for a Horse: the King dice and the pink multiplication die.

The dice model the rules roll with and the odds count with.  One roll is
``(king, mult)``: ``king`` the sorted tuple of the King-die faces (the King dice are
identical, so only the multiset matters), ``mult`` the species on the pink die
(``None`` where a lesson leaves the pink die out).  Every function takes the game's
``Components`` (the faces come from ``data.toml``).

* ``roll_counts`` — one roll of all the dice as integer ways;
* ``king_pool`` — the sorted faces of ``n`` King dice;
* ``keep_options`` — every choice of dice to keep before a re-roll;
* ``reroll`` / ``reroll_ways`` — the dice after keeping some and re-rolling the rest;
* ``dice_gain``, ``halves``, ``die_names``, ``king_face`` — what the dice show.
"""
from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement

from kingdoms.core.cache import speed_cache
from kingdoms.core.distribution import Distribution

from .components import SPECIES, Components

__all__ = ["pool_counts", "king_pool", "roll_counts", "roll_distribution", "keep_options",
           "reroll", "reroll_ways", "scale", "halves", "dice_gain", "die_names", "king_face",
           "king_names", "CATTLE_HALVES", "HALF_CATTLE", "MULTIPLY"]

# "If you have 2 or 3 dice that show a 'half cattle', you receive 1 cattle.  Alone, this
# symbol has no effect." (rulebook, the dice): the halves that make one cattle.
CATTLE_HALVES = 2
# The King-die face that counts towards a cattle (a face name of data.toml).
HALF_CATTLE = "half cattle"
# A die of the pink result as a name: "multiply <species>".
MULTIPLY = "multiply "


def pool_counts(counts: dict, n: int) -> dict:
    """Ways (integer weights) to see each sorted multiset of ``n`` dice whose single
    die shows face f in ``counts[f]`` of its sides."""
    names = sorted(counts)
    out = {}
    fact_n = math.factorial(n)
    for combo in combinations_with_replacement(names, n):
        w = fact_n
        for f, k in Counter(combo).items():
            w = w // math.factorial(k) * counts[f] ** k
        out[combo] = w
    return out


def king_pool(n: int, comp: Components) -> Distribution:
    """The sorted faces of ``n`` King dice."""
    if n == 0:
        return Distribution.always(())
    return Distribution(pool_counts(Counter(f.name for f in comp.king_faces), n))


def roll_counts(comp: Components) -> tuple[dict, int]:
    """``({(king, mult): ways}, total ways)`` for one roll of all four dice."""
    kc = pool_counts(Counter(f.name for f in comp.king_faces), comp.king_count)
    mc = Counter(comp.mult_faces)
    total = len(comp.king_faces) ** comp.king_count * len(comp.mult_faces)
    return {(k, m): w * mw for k, w in kc.items() for m, mw in sorted(mc.items())}, total


def roll_distribution(comp: Components) -> Distribution:
    """One roll of the King dice and the pink die, exactly (from ``roll_counts``)."""
    weights, total = roll_counts(comp)
    return Distribution.from_ways(weights, total)


# ---------------------------------------------------------------- keep / re-roll

def keep_options(roll: tuple) -> tuple:
    """Every choice of dice to keep: ``(kept king faces, keep the pink die?)``
    (``None`` for the pink die when the roll has none).  Keeping everything (listed
    first) means: stop rolling."""
    try:
        return _keep_options_cached(roll)
    except TypeError:               # an unhashable roll: compute it uncached
        return _keep_options(roll)


@speed_cache(maxsize=4096)
def _keep_options_cached(roll):
    return _keep_options(roll)


def _keep_options(roll):
    king, mult = roll
    subs = set()
    n = len(king)
    for mask in range(1 << n):
        subs.add(tuple(king[i] for i in range(n) if mask >> i & 1))
    subs = sorted(subs, key=lambda t: (-len(t), t))
    flags = (True, False) if mult is not None else (None,)
    return tuple((k, f) for k in subs for f in flags)


@speed_cache(maxsize=4096)
def reroll(kept: tuple, keep_mult, mult, comp: Components, use_mult: bool) -> Distribution:
    """The dice after keeping the King faces ``kept`` (and the pink die showing
    ``mult`` if ``keep_mult``) and re-rolling the rest (``use_mult`` False: no pink
    die in play)."""
    n = comp.king_count - len(kept)
    new_king = king_pool(n, comp)
    if not use_mult:
        mults = Distribution.always(None)
    elif keep_mult:
        mults = Distribution.always(mult)
    else:
        mults = Distribution.uniform(comp.mult_faces)
    return new_king.combine(mults, lambda k, m: (tuple(sorted(kept + k)), m))


def scale(comp: Components, use_mult: bool) -> int:
    """A common denominator of every roll and re-roll probability: all the dice
    rolled at once (``6**3 * 6`` with the packaged dice)."""
    return len(comp.king_faces) ** comp.king_count * (len(comp.mult_faces) if use_mult else 1)


@speed_cache(maxsize=4096)
def reroll_ways(kept, keep_mult, mult, comp, use_mult):
    """``reroll`` as integer weights out of ``scale(comp, use_mult)`` cases, in the
    same order: ``((new roll, ways), ...)``."""
    m = scale(comp, use_mult)
    out = []
    for r, p in reroll(kept, keep_mult, mult, comp, use_mult).items():
        w = p * m
        if w.denominator != 1:                 # cannot happen: every total divides m
            raise ArithmeticError(f"re-roll probability {p} is not in {m}ths")
        out.append((r, w.numerator))
    return tuple(out)


# ---------------------------------------------------------------- what the dice show

@speed_cache(maxsize=16)
def _face_table(comp: Components) -> dict:
    table = {}
    for f in comp.king_faces:           # as Components.king_face: the first of a name
        table.setdefault(f.name, f)
    return table


def king_face(comp: Components, name: str):
    """The ``Face`` (its effect) of the King-die face called ``name``."""
    return _face_table(comp)[name]


@speed_cache(maxsize=16)
def king_names(comp: Components) -> tuple:
    """The King die's faces by name, one per side (repeats allowed)."""
    return tuple(f.name for f in comp.king_faces)


def halves(king: tuple, comp: Components) -> int:
    """The half-cattle among the King faces ``king``."""
    return sum(comp.king_face(f).half for f in king)


def dice_gain(roll: tuple, herd: tuple, comp: Components, multiply: bool = True) -> tuple:
    """Animals (per species) and fences the active player gets from all four dice:
    the King-die animals, 1 cattle for 2-3 half cattle, then the multiplication of
    the herd *after* those animals (the order that gains most; capacity ignored).
    Returns ``(animals tuple, fences)``."""
    king, mult = roll
    gain = [0, 0, 0, 0]
    fences = 0
    h = 0
    for f in king:
        face = comp.king_face(f)
        for i in range(4):
            gain[i] += face.animals[i]
        h += face.half
        fences += face.fences
    if h >= CATTLE_HALVES:
        gain[2] += 1
    if multiply and mult is not None:
        s = SPECIES.index(mult)
        gain[s] += (herd[s] + gain[s]) // 2
    return tuple(gain), fences


def die_names(roll: tuple) -> tuple:
    """The four dice of a roll as names: King faces, then ``"multiply <species>"``."""
    king, mult = roll
    return tuple(king) + ((f"{MULTIPLY}{mult}",) if mult is not None else ())
