import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, strategies as st

from kingdoms.core import (Distribution, composition_ways, hypergeometric,
                           multivariate_hypergeometric)

d6 = Distribution.uniform(range(1, 7))


def test_two_dice():
    two = d6 + d6
    assert two[7] == Fraction(1, 6)
    assert two.mean() == 7
    assert two.variance() == Fraction(35, 6)
    assert sum(two.values()) == 1
    assert two == Distribution.uniform(a + b for a, b in product(range(1, 7), repeat=2))


def test_questions_and_transformations():
    assert d6.P(lambda x: x % 2 == 0) == Fraction(1, 2)
    assert d6.cdf(2) == Fraction(1, 3)
    assert d6.map(lambda x: x > 4)[True] == Fraction(1, 3)
    assert d6.given(lambda x: x > 3).mean() == 5
    assert d6.E(lambda x: x * x) == Fraction(91, 6)
    assert d6.prob(9) == 0
    assert d6.repeat(3).mean() == Fraction(21, 2)
    assert (d6 - d6).mean() == 0
    assert (2 * d6).support() == (2, 4, 6, 8, 10, 12)
    assert d6.bind(lambda n: Distribution.uniform(range(n))).P(lambda x: x == 0) == sum(
        Fraction(1, 6) / n for n in range(1, 7))


def test_pool_is_multiset_of_dice():
    coin = Distribution.uniform("HT")
    pool = coin.pool(3)
    assert pool[("H", "H", "T")] == Fraction(3, 8)
    assert len(pool) == 4


def test_bad_weights_are_rejected():
    with pytest.raises(ValueError):
        Distribution({})
    with pytest.raises(ValueError):
        Distribution({1: -1, 2: 2})
    with pytest.raises(TypeError, match="float"):
        Distribution({1: 0.5})
    with pytest.raises(ValueError, match="probability 0"):
        d6.given(lambda x: x > 6)


def test_hypergeometric_matches_brute_force():
    deck = ["A"] * 4 + ["x"] * 8
    hands = list(combinations(range(len(deck)), 5))
    brute = Distribution.uniform(sum(deck[i] == "A" for i in h) for h in hands)
    assert hypergeometric(12, 4, 5) == brute
    with pytest.raises(ValueError):
        hypergeometric(3, 4, 1)


def test_multivariate_hypergeometric_matches_brute_force():
    deck = ["r"] * 3 + ["g"] * 2 + ["b"] * 4
    brute = Distribution.uniform(
        tuple(sum(deck[i] == c for i in h) for c in "rgb")
        for h in combinations(range(len(deck)), 4))
    assert multivariate_hypergeometric({"r": 3, "g": 2, "b": 4}, 4) == brute


@given(st.lists(st.integers(1, 5), min_size=1, max_size=6), st.integers(0, 6))
def test_multivariate_agrees_with_univariate_marginal(counts, draws):
    total = sum(counts)
    draws = min(draws, total)
    mv = multivariate_hypergeometric(dict(enumerate(counts)), draws)
    assert sum(mv.values()) == 1
    assert mv.map(lambda t: t[0]) == hypergeometric(total, counts[0], draws)


def test_sample_agrees_with_exact():
    rng = random.Random(1)
    n = 6000
    samples = (d6 + d6).sample(rng, n)
    p = float((d6 + d6)[7])
    assert abs(samples.count(7) / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    emp = Distribution.from_samples(samples)
    assert abs(float(emp.mean()) - 7) < 0.15


def test_sympy_export():
    from sympy.stats import E, P
    X = d6.to_sympy("X")
    assert E(X) == Fraction(7, 2)
    assert P(X > 4) == Fraction(1, 3)


@pytest.mark.slow
def test_tables_and_plot():
    assert "1/6" in d6.table()
    assert "<table>" in d6._repr_html_()
    import matplotlib
    matplotlib.use("Agg")
    ax = d6.plot(samples=d6.sample(random.Random(0), 100))
    assert len(ax.patches) == 6


def test_the_text_table_has_the_columns_of_the_html_table():
    """A header names the columns (the outcome's name given by the lesson), then one
    line per outcome: the outcome, its exact probability and the decimal, aligned."""
    lines = hypergeometric(20, 4, 5).table("Fools in hand").splitlines()
    assert lines[0].split() == ["Fools", "in", "hand", "P", "(exact)", "P"]
    assert lines[1].split() == ["0", "91/323", "0.2817"]
    assert lines[5].split() == ["4", "1/969", "0.0010"]
    assert len({len(line) for line in lines}) == 1          # one width: aligned columns
    assert d6.table().splitlines()[0].split()[0] == "outcome"
    long = Distribution({"x": Fraction(12345, 123456), "y": 1 - Fraction(12345, 123456)})
    assert len({len(line) for line in long.table().splitlines()}) == 1


def test_from_ways_counts_equally_likely_cases_and_checks_them():
    two_dice = {s: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s)
                for s in range(2, 13)}
    d = Distribution.from_ways(two_dice, 36)
    d6 = Distribution.uniform(range(1, 7))
    assert d == d6 + d6 and list(d) == list(range(2, 13))
    with pytest.raises(ValueError, match="sum to 36, not to total=35"):
        Distribution.from_ways(two_dice, 35)
    with pytest.raises(ValueError, match="not a positive integer"):
        Distribution.from_ways({"a": 1, "b": 0}, 1)


@given(st.lists(st.tuples(st.integers(0, 4),
                          st.one_of(st.integers(0, 9),
                                    st.fractions(min_value=0, max_value=5, max_denominator=12))),
                min_size=1, max_size=30))
def test_weights_are_summed_exactly_per_outcome_in_first_seen_order(items):
    # the reference: one Fraction addition per weight, outcomes as first given
    acc = {}
    for o, w in items:
        if w:
            acc[o] = acc.get(o, 0) + Fraction(w)
    if not acc:
        with pytest.raises(ValueError, match="at least one outcome"):
            Distribution(items)
        return
    d = Distribution(items)
    total = sum(acc.values())
    assert list(d) == sorted(acc)
    assert dict(d) == {o: w / total for o, w in acc.items()}
    assert all(type(p) is Fraction for p in d.values()) and sum(d.values()) == 1


def test_a_negative_weight_is_named_in_the_error():
    with pytest.raises(ValueError, match=r"negative weight -1/3 for outcome 'b'"):
        Distribution([("a", 1), ("b", Fraction(-1, 3))])
    with pytest.raises(ValueError, match=r"negative weight -2 for outcome 'b'"):
        Distribution([("a", Fraction(1, 2)), ("b", -2)])


def test_composition_ways_count_every_hand_once():
    counts = {"r": 3, "g": 2, "b": 4}
    ways = composition_ways(counts, 4)
    hands = Counter(tuple(sum(kind == c for kind in h) for c in "rgb")
                    for h in combinations("rrrggbbbb", 4))
    assert ways == dict(hands) and sum(ways.values()) == math.comb(9, 4)
    assert multivariate_hypergeometric(counts, 4) == Distribution(ways)
    with pytest.raises(ValueError):
        composition_ways(counts, 10)


@pytest.mark.parametrize("bad", ["x", 5, [(1,)], [(1, 2, 3)], None])
def test_a_distribution_from_something_that_is_no_weights_says_what_it_is_built_from(bad):
    with pytest.raises(TypeError, match=r"^a Distribution is built from \{outcome: weight\} or "
                                        r"\(outcome, weight\) pairs"):
        Distribution(bad)
