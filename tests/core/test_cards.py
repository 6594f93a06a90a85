"""kingdoms.core.cards.SequentialDeal: a deal one item at a time, exact probabilities."""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from kingdoms.core.cards import SequentialDeal
from kingdoms.core.distribution import multivariate_hypergeometric


def _final_deals(deal: SequentialDeal) -> dict:
    """Every complete deal (each place's items as a sorted tuple) with its probability,
    by walking every sequence of single-item steps."""
    out: Counter = Counter()

    def walk(dealt, p):
        steps = deal.steps(dealt)
        if not steps:
            out[deal.outcome(dealt)] += p
            return
        for item, q in steps:
            walk(dealt + (item,), p * q)

    walk((), Fraction(1))
    return dict(out)


def _sorted_piles(piles):
    return tuple(tuple(sorted(p)) for p in piles)


def _multinomial_probability(items, sizes, piles) -> Fraction:
    """P(each place gets exactly these multisets) for a fair shuffle, by counting:
    prod over kinds of multinomial(copies; per-place counts) / multinomial(N; sizes)."""
    copies = Counter(items)
    ways = 1
    for kind, n in copies.items():
        counts = [Counter(p)[kind] for p in piles]
        ways *= math.factorial(n) // math.prod(math.factorial(c) for c in counts)
    total = math.factorial(len(items)) // math.prod(math.factorial(s) for s in sizes)
    return Fraction(ways, total)


TOY = SequentialDeal(("A", "A", "A", "B", "B", "C"), sizes=(1, 2, 3), owners=(None, 0, 1),
                     outcome=_sorted_piles)


def test_toy_deal_final_probabilities_sum_to_one_and_are_the_multinomial_counts():
    finals = _final_deals(TOY)
    assert sum(finals.values()) == 1
    for piles, p in finals.items():
        assert p == _multinomial_probability(TOY.items, TOY.sizes, piles)
    # every way to split the multiset into places of these sizes occurs
    assert len(finals) == sum(1 for _ in _splits(Counter(TOY.items), TOY.sizes))


def _splits(left: Counter, sizes):
    if not sizes:
        yield ()
        return
    kinds = sorted(k for k in left if left[k])

    def choose(i, need, acc):
        if need == 0:
            yield acc
            return
        if i == len(kinds):
            return
        for c in range(min(need, left[kinds[i]]), -1, -1):
            yield from choose(i + 1, need - c, acc + (kinds[i],) * c)

    for pile in choose(0, sizes[0], ()):
        rest = left - Counter(pile)
        for more in _splits(rest, sizes[1:]):
            yield (pile,) + more


def test_toy_deal_first_place_is_multivariate_hypergeometric():
    finals = _final_deals(TOY)
    kinds = ("A", "B", "C")
    first: Counter = Counter()
    for piles, p in finals.items():
        first[tuple(Counter(piles[0])[k] for k in kinds)] += p
    expected = multivariate_hypergeometric({"A": 3, "B": 2, "C": 1}, TOY.sizes[0])
    assert dict(first) == {o: expected[o] for o in expected if expected[o]}


def test_each_step_is_copies_left_over_items_left():
    assert TOY.steps(()) == (("A", Fraction(1, 2)), ("B", Fraction(1, 3)), ("C", Fraction(1, 6)))
    assert TOY.steps(("A", "C")) == (("A", Fraction(1, 2)), ("B", Fraction(1, 2)))
    assert TOY.steps(("A", "A", "A", "B", "B", "C")) == ()


def test_places_owners_and_outcome():
    assert [TOY.place_of(i) for i in range(6)] == [0, 1, 1, 2, 2, 2]
    assert [TOY.owner_of(i) for i in range(6)] == [None, 0, 0, 1, 1, 1]
    assert TOY.outcome(("C", "B", "A", "A", "B", "A")) == (("C",), ("A", "B"), ("A", "A", "B"))
    with pytest.raises(ValueError, match="no more items"):
        TOY.place_of(6)


def test_bad_deals_are_refused():
    with pytest.raises(ValueError, match="not complete"):
        TOY.outcome(("A", "B"))
    with pytest.raises(ValueError, match="no C is left"):
        TOY.steps(("C", "C"))
    with pytest.raises(ValueError, match="adding up"):
        SequentialDeal(("A", "B"), sizes=(1, 2), owners=(0, 1), outcome=tuple)
    with pytest.raises(ValueError, match="owners"):
        SequentialDeal(("A", "B"), sizes=(1, 1), owners=(0,), outcome=tuple)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3),
       st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_any_small_deal_gives_the_multinomial_probabilities(copies, sizes):
    items = tuple(x for k, n in enumerate(copies) for x in (f"k{k}",) * n)
    if sum(sizes) != len(items):
        sizes = sizes[:-1] + [len(items) - sum(sizes[:-1])]
        if sizes[-1] < 0:
            sizes = [len(items)]
    deal = SequentialDeal(items, sizes, (None,) * len(sizes), _sorted_piles)
    finals = _final_deals(deal)
    assert sum(finals.values()) == 1
    for piles, p in finals.items():
        assert p == _multinomial_probability(items, sizes, piles)
