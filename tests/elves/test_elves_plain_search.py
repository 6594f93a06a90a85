"""``journey_search.plain_search`` (the speed path of ``best_journey`` without teleporting)
examines exactly the trips that the search with ``Trip`` values and ``moves`` examines:
the same keys in the same order with the same values, the same best move at each, the
same plan, the same count, and the same ``max_trips`` limit."""
from __future__ import annotations

import random

import pytest

import kingdoms
from kingdoms.elves.journey import (EndJourney, advance, best_journey,
                                    best_journey_by_trips, moves, start_trip)
from kingdoms.elves.journey_search import plain_key, plain_search, plain_search_applies
from elves_tables import random_table     # (tests/elves_tables.py)

RULES = kingdoms.game("elves", players=4).journey_rules
LIMIT = 3_000       # trips a case may examine (bigger ones: the limit is compared)


def random_trip(rng, table, rules, big=False):
    """A trip in a castle or (after a few random moves) under way."""
    hand = {v: rng.choice((0, 1, 2, 3, 40 if big else 2)) for v in rules.vehicles}
    hand["escort"] = rng.randint(0, 2)
    hand["change_direction"] = rng.randint(0, 2)
    trip = start_trip(rng.randrange(table.players), rng.randint(0, 8), hand, rules)
    for _ in range(rng.randint(0, 3)):
        options = [a for a in moves(trip, table, rules) if not isinstance(a, EndJourney)]
        if not options:
            break
        trip = advance(trip, rng.choice(options), table, rules)
    return trip


def plain_view(memo, width, rules):
    """The by-trips memo in the plain search's terms: key -> (gold, cards)."""
    out = {}
    for k, (best, _) in memo.items():
        pos, direction, hand, escorts, turns, visited, own, bonus, er, tl, done, gold = k
        assert tl == 0 and not done
        guard = 1 << (width - 1)
        number = sum((c | guard) << (width * i) for i, c in enumerate(hand))
        out[(pos, direction, number, escorts, turns, visited, own, bonus, er, gold)] = best
    return out


def cases(n, seed, big=False):
    rng = random.Random(seed)
    for _ in range(n):
        table = random_table(rng, rng.randint(2, 5), most=3)
        rules = RULES if rng.random() < 0.8 else kingdoms.game(
            "elves", players=3).journey_rules
        yield table, random_trip(rng, table, rules, big), rules


@pytest.mark.parametrize("seed", range(6))
def test_plain_search_examines_the_same_trips_in_the_same_order(seed):
    searched = []
    for table, trip, rules in cases(25, seed, big=seed % 2 == 1):
        assert plain_search_applies(trip, rules)
        memo = {}
        try:
            by_trips = best_journey_by_trips(table, trip, rules, LIMIT, memo=memo)
        except RuntimeError:        # too big for a test: the limit test covers these
            continue
        plain, width = plain_search(table, trip, rules, LIMIT)
        expected = plain_view(memo, width, rules)
        assert list(plain) == list(expected)
        assert [v for v, _ in plain.values()] == list(expected.values())
        plan = best_journey(table, trip, rules, LIMIT)
        assert plan == by_trips
        searched.append(plan.searched)
        assert plan.searched == by_trips.searched == len(memo)
        # the best move remembered at every trip on the plan is the plan's move
        t = trip
        for a, _, after in plan.steps:
            assert moves(t, table, rules)[plain[plain_key(t, width, rules.thief_gold)][1]] == a
            t = after
    assert max(searched) > 500 and len(searched) >= 10     # the cases are not all trivial


@pytest.mark.parametrize("seed", range(3))
def test_plain_search_stops_at_the_same_trip_limit(seed):
    rng = random.Random(100 + seed)
    for table, trip, rules in cases(30, 50 + seed):
        try:
            size = best_journey_by_trips(table, trip, rules, LIMIT).searched
        except RuntimeError:
            size = LIMIT
        for limit in {max(0, size - 1), size, rng.randint(0, size + 1)}:
            outcomes = []
            for search in (best_journey_by_trips, best_journey):
                try:
                    outcomes.append(search(table, trip, rules, max_trips=limit))
                except RuntimeError as e:
                    outcomes.append(str(e))
            assert outcomes[0] == outcomes[1]


def test_teleporting_journeys_keep_the_search_by_trips():
    rules = RULES.with_teleport(True)
    trip = start_trip(0, 5, {rules.vehicles[0]: 2}, rules)
    assert not plain_search_applies(trip, rules)
    assert plain_search_applies(trip, RULES)
