"""Dealing cards one at a time, with exact probabilities.

A shuffle-and-deal is one chance event with too many outcomes to list (the protocol
raises ``TooManyOutcomes``).  ``SequentialDeal`` describes the same event as a
sequence of small ones: the items of a multiset (a deck) are dealt into places of
known sizes (hands, a pile set aside), place after place in a fixed order, each step
drawing one item with probability copies-left / items-left.  Dealing this way gives
every final deal (each place's items as a multiset) exactly the probability of a
fair shuffle.  A game offers it with the hook ``State.chance_steps()``; its
``outcome(dealt)`` is the game's own outcome that ``apply`` accepts.

>>> from kingdoms.core.cards import SequentialDeal
>>> deal = SequentialDeal(("A", "A", "B"), sizes=(1, 2), owners=(None, 0),
...                       outcome=lambda piles: piles)
>>> deal.steps(())
(('A', Fraction(2, 3)), ('B', Fraction(1, 3)))
>>> deal.outcome(("B", "A", "A"))
(('B',), ('A', 'A'))
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

from .cache import speed_cache
from .i18n import _

__all__ = ["SequentialDeal", "count_deals", "deal_probability", "exact_deals"]


class SequentialDeal:
    """A deal of the multiset ``items`` into places of ``sizes`` (dealt in that
    order), one item per step.

    ``owners[i]`` is the player who sees what place ``i`` receives (``None``: nobody,
    e.g. cards set aside face down).  ``outcome(piles)`` turns the finished deal (a
    tuple per place of the items it received, in dealing order) into the chance
    outcome the game's ``apply`` accepts.  ``dealt`` arguments below are the items
    dealt so far, in order.  The sizes must add up to the number of items."""

    __slots__ = ("items", "sizes", "owners", "_outcome", "_kinds")

    def __init__(self, items: Iterable[Hashable], sizes: Sequence[int],
                 owners: Sequence[int | None], outcome: Callable[[tuple], Any]):
        items = tuple(items)
        sizes = tuple(sizes)
        owners = tuple(owners)
        if len(owners) != len(sizes):
            raise ValueError(_("a deal into {places} places needs {places} owners, "
                               "not {owners}").format(places=len(sizes), owners=len(owners)))
        if any(type(n) is not int or n < 0 for n in sizes) or sum(sizes) != len(items):
            raise ValueError(_("place sizes {sizes} must be whole numbers >= 0 adding up to "
                               "the {count} items dealt").format(sizes=sizes, count=len(items)))
        kinds: dict = {}
        for x in items:
            kinds[x] = kinds.get(x, 0) + 1
        self.items = items
        self.sizes = sizes
        self.owners = owners
        self._outcome = outcome
        self._kinds = kinds         # copies of each kind, in order of first appearance

    @property
    def total(self) -> int:
        """The number of steps (items dealt)."""
        return len(self.items)

    def left(self, dealt: Sequence[Hashable] = ()) -> dict:
        """``{kind: copies not yet dealt}`` (kinds in order of first appearance in
        ``items``; kinds all dealt have 0).  Raises ``ValueError`` when ``dealt``
        holds an item more often than the deal has it."""
        left = dict(self._kinds)
        for x in dealt:
            n = left.get(x, 0)
            if n <= 0:
                raise ValueError(_("no {item} is left to deal").format(item=x))
            left[x] = n - 1
        return left

    def steps(self, dealt: Sequence[Hashable] = ()) -> tuple:
        """``((kind, Fraction), ...)``: the next item with its exact probability
        (copies left / items left), kinds in order of first appearance; ``()`` once
        the deal is complete."""
        left = self.left(dealt)
        rest = len(self.items) - len(dealt)
        if rest <= 0:
            return ()
        return tuple((x, Fraction(n, rest)) for x, n in left.items() if n)

    def place_of(self, i: int) -> int:
        """The place that receives the ``i``-th item dealt (0-based)."""
        if type(i) is not int or i < 0:
            raise ValueError(_("step {given} is not a whole number >= 0").format(given=repr(i)))
        for place, n in enumerate(self.sizes):
            if i < n:
                return place
            i -= n
        raise ValueError(_("the deal has no more items"))

    def owner_of(self, i: int) -> int | None:
        """Who sees the ``i``-th item dealt (``None``: nobody)."""
        return self.owners[self.place_of(i)]

    def is_complete(self, dealt: Sequence[Hashable]) -> bool:
        return len(dealt) >= len(self.items)

    def piles(self, dealt: Sequence[Hashable]) -> tuple:
        """What each place has received so far: a tuple per place, in dealing order."""
        out, i = [], 0
        for n in self.sizes:
            out.append(tuple(dealt[i:i + n]))
            i += n
        return tuple(out)

    def outcome(self, dealt: Sequence[Hashable]):
        """The game's chance outcome for the complete deal ``dealt``."""
        dealt = tuple(dealt)
        self.left(dealt)                        # checks the items
        if len(dealt) != len(self.items):
            raise ValueError(_("the deal is not complete: {dealt} of {count} items "
                               "dealt").format(dealt=len(dealt), count=len(self.items)))
        return self._outcome(self.piles(dealt))


# --------------------------------------------------------------------------- whole deals, exactly
# A deal of a multiset into places of given sizes (hands, a pile set aside), every
# place's items taken as a multiset: how many deals there are, the exact probability
# of one under a fair shuffle, and every deal with its probability.

def count_deals(copies: Sequence[int], sizes: Sequence[int]) -> int:
    """The number of distinct deals of a multiset with ``copies`` of each kind into
    places of ``sizes`` (each place's items as a multiset).  The sizes must add up to
    the number of items for a complete deal (otherwise some items stay undealt and
    the count is of the ways to fill the places exactly with all items: 0)."""
    return _count_deals(tuple(copies), tuple(sorted(sizes)))


@speed_cache(maxsize=4096)
def _count_deals(copies: tuple, caps: tuple) -> int:
    """Ways to split a multiset (``copies`` per kind) into groups of sizes ``caps``."""
    if not copies:
        return 1 if all(c == 0 for c in caps) else 0
    first, rest = copies[0], copies[1:]
    total = 0

    def spread(i, left, acc):
        nonlocal total
        if i == len(caps):
            if left == 0:
                total += _count_deals(rest, tuple(sorted(acc)))
            return
        for k in range(min(left, caps[i]) + 1):
            spread(i + 1, left - k, acc + [caps[i] - k])

    spread(0, first, [])
    return total


def deal_probability(groups: Sequence[Sequence[Hashable]], items: Iterable[Hashable]) -> Fraction:
    """The exact probability that a fair shuffle of ``items`` dealt into places of the
    sizes of ``groups`` gives each place the multiset ``groups[i]``."""
    from collections import Counter
    groups = [tuple(g) for g in groups]
    items = tuple(items)
    num = math.prod(math.factorial(len(g)) for g in groups)
    num *= math.prod(math.factorial(k) for k in Counter(items).values())
    den = math.factorial(len(items))
    for g in groups:
        den *= math.prod(math.factorial(k) for k in Counter(g).values())
    return Fraction(num, den)


def exact_deals(pool: Mapping[Hashable, int], places: Mapping[Hashable, int]):
    """Every way to deal the multiset ``pool`` (``{kind: copies}``) into ``places``
    (``{place: size}``, sizes adding up to the pool's items), with its probability
    under a fair shuffle: yields ``({place: sorted tuple of kinds}, Fraction)``."""
    kinds = sorted(k for k in pool if pool[k])
    names = list(places)
    sizes = [places[p] for p in names]
    total = sum(sizes)
    # probability of a given matrix m[kind][place]:
    #   prod_places size! * prod_kinds copies! / (total! * prod m!)
    base = Fraction(math.prod(math.factorial(s) for s in sizes)
                    * math.prod(math.factorial(pool[k]) for k in kinds), math.factorial(total))
    for matrix in _matrices(kinds, pool, sizes):
        p = base
        for row in matrix:
            for x in row:
                p /= math.factorial(x)
        groups = []
        for j in range(len(names)):
            cards = []
            for k, row in zip(kinds, matrix):
                cards += [k] * row[j]
            groups.append(tuple(sorted(cards)))
        yield dict(zip(names, groups)), p


def _matrices(kinds, pool, sizes):
    """Every matrix ``m[kind][place]`` of copies per place filling ``sizes`` exactly."""
    def rec(i, caps, acc):
        if i == len(kinds):
            if all(c == 0 for c in caps):
                yield acc
            return
        for split in _splits(pool[kinds[i]], caps):
            yield from rec(i + 1, [c - s for c, s in zip(caps, split)], acc + [split])
    return rec(0, sizes, [])


def _splits(n, caps):
    """Every way to put ``n`` copies into places with room ``caps``."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    for k in range(min(n, caps[0]) + 1):
        for rest in _splits(n - k, caps[1:]):
            yield (k,) + rest
