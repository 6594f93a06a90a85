"""Exact odds: checked against brute-force enumeration and seeded simulation."""
from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

import kingdoms
from kingdoms.elves import odds
from kingdoms.elves.journey import Spot, Table, best_journey, start_trip

G = kingdoms.game("elves", players=4)
RULES = G.journey_rules


def test_reachable_terrains_follow_the_cost_table():
    assert odds.reachable_terrains({"raft": 1}, RULES) == {"river"}
    assert odds.reachable_terrains({"raft": 2}, RULES) == {"river", "lake"}
    assert odds.reachable_terrains({"unicorn": 2}, RULES) == {"forest", "mountain", "desert"}
    assert odds.reachable_terrains({"trollwagon": 1}, RULES) == {"plains"}


@pytest.mark.slow
@pytest.mark.parametrize("cards", [2, 4])
def test_deal_odds_equal_enumeration_by_kind(cards):
    assert odds.deal_can_reach(G, cards) == odds.deal_reach_by_enumeration(G, cards)


def test_deal_odds_on_a_tiny_pile_by_listing_every_hand():
    pile = {"village:lake:7": 1, "village:plains:2": 1, "travel:raft": 2, "travel:dragon": 1,
            "special:gold": 1}
    cards = [k for k, c in pile.items() for _ in range(c)]
    hands = list(combinations(range(len(cards)), 3))
    good = sum(odds.can_reach(Counter(cards[i] for i in h), RULES) for h in hands)
    assert odds.deal_can_reach(G, 3, pile=pile) == Fraction(good, len(hands))


@pytest.mark.slow
def test_ten_card_deal_odds_against_simulation():
    p = odds.deal_can_reach(G)            # the first round's 10 cards
    n = 20_000
    est = odds.sample_deal_can_reach(G, 10, n, seed=1)
    sd = math.sqrt(float(p) * (1 - float(p)) / n)
    assert abs(float(est) - float(p)) < 4 * sd
    assert Fraction(8, 10) < p < Fraction(9, 10)


def test_per_terrain_odds_are_at_most_the_total():
    per = odds.deal_can_reach_terrain(G, 6)
    total = odds.deal_can_reach(G, 6)
    assert all(0 < v <= total for v in per.values())
    assert max(per.values()) == per["plains"] and min(per.values()) == per["lake"]


def test_buying_odds_by_hand():
    hand = {"village:lake:7": 1, "travel:raft": 1}
    pile = {"travel:raft": 3, "travel:dragon": 5, "special:gold": 2}
    p = odds.p_success_after_buying(hand, pile, lambda h: h["travel:raft"] >= 2)
    assert p == Fraction(3, 10)
    p2 = odds.p_success_after_buying(hand, pile, lambda h: h["travel:raft"] >= 2, cards=2)
    assert p2 == 1 - Fraction(math.comb(7, 2), math.comb(10, 2))


def test_draw_three_discard_four_odds_by_brute_force():
    hand = {"village:lake:7": 1, "travel:raft": 1, "special:gold": 2}
    pile = {"travel:raft": 3, "travel:dragon": 4, "special:thief": 3}
    want = lambda h: h["village:lake:7"] >= 1 and h["travel:raft"] >= 2
    p = odds.p_success_after_draw3(hand, pile, want)
    # brute force: every 3-card draw of distinct physical cards; keep = 3 cards
    cards = [k for k, c in pile.items() for _ in range(c)]
    good = 0
    draws = list(combinations(range(len(cards)), 3))
    for d in draws:
        h = Counter(hand) + Counter(cards[i] for i in d)
        flat = [k for k, c in h.items() for _ in range(c)]
        good += any(want(Counter(flat[i] for i in keep)) for keep in combinations(range(len(flat)), 3))
    assert p == Fraction(good, len(draws))
    # and by simulation
    rng = random.Random(2)
    hits = 0
    for _ in range(4000):
        d = rng.sample(cards, 3)
        h = Counter(hand) + Counter(d)
        hits += h["travel:raft"] >= 2            # the lake is always kept
    assert abs(hits / 4000 - float(p)) < 0.05


def test_unseen_pile_and_journey_value_after_buying():
    g = kingdoms.game("elves", players=2)
    s = g.initial_state()
    rng = random.Random(0)
    while s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    pile = odds.unseen_pile(s, 0)
    assert sum(pile.values()) == 110
    table = Table(2, (Spot(0, 0, "river", 3), Spot(1, 0, "lake", 7)))
    trip = start_trip(0, 0, {"raft": 2}, RULES)
    dist = odds.journey_value_after_buying(table, trip, RULES, {"travel:raft": 1, "travel:dragon": 3})
    # a third raft reaches the lake too: 3 + 7 + bonus 10; otherwise only the river
    assert dict(dist) == {20: Fraction(1, 4), 3: Fraction(3, 4)}
    assert best_journey(table, trip, RULES).value == 3


def test_deal_odds_name_a_wrong_terrain_or_deal_size_instead_of_answering():
    """Before: terrains="lake" (a string, not a tuple) and a misspelt terrain gave
    probability 0, and a negative deal size a message about hypergeometric draws."""
    g = kingdoms.game("elves", players=4)
    assert odds.deal_can_reach(g, 10, terrains="lake") == odds.deal_can_reach(
        g, 10, terrains=("lake",)) > 0
    with pytest.raises(ValueError, match="no terrain called 'lakes'; the terrains are: plains"):
        odds.deal_can_reach(g, 10, terrains=("lakes",))
    for call in (lambda: odds.deal_can_reach(g, -3), lambda: odds.village_count_distribution(g, "x"),
                 lambda: odds.village_count_distribution(g, 121),
                 lambda: odds.sample_deal_can_reach(g, 500, 10)):
        with pytest.raises(ValueError, match=r"cards \(the number of cards dealt\) must be a "
                                             r"whole number from 0 to 120"):
            call()
    with pytest.raises(ValueError, match=r"n \(the number of deals\) must be a whole number of at least 1"):
        odds.sample_deal_can_reach(g, 10, -5)
