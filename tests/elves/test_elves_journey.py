"""Journeying: the rulebook's two worked journeys, every journey card, teleporting,
and the best-journey solver (checked against brute force and the generic solver)."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.protocol import IllegalAction
from kingdoms.core.solve import expectimax
from elves_tables import random_table     # (tests/elves_tables.py)
from kingdoms.elves.journey import (ChangeDirection, EndJourney, JourneyPuzzle, Spot, Table,
                                    Teleport, TeleportCard, Visit, advance,
                                    best_journey, gold_change, journey_tree, moves,
                                    play_journey, start_trip, why_not)

RULES = kingdoms.game("elves", players=4).journey_rules
ANNA, BOB, CARL, DORIS = range(4)

# The table of the rulebook's examples: Anna's river village (Doris's sea monster),
# Bob's forest village (Anna's gold card, Carl's tree), Carl's desert village (Bob's
# thief) and plains village, Doris's mountain village.
EXAMPLE_TABLE = Table(4, (
    Spot(ANNA, 0, "river", 2, obstacle="sea_monster", obstacle_owner=DORIS),
    Spot(BOB, 0, "forest", 4, gold=ANNA, obstacle="tree", obstacle_owner=CARL),
    Spot(CARL, 0, "desert", 6, thief=BOB),
    Spot(CARL, 1, "plains", 3),
    Spot(DORIS, 0, "mountain", 5),
))
ANNA_HAND = {"raft": 3, "elfcycle": 2, "unicorn": 2, "magic_cloud": 2, "dragon": 1}
DORIS_HAND = {"raft": 1, "elfcycle": 2, "giant_pig": 2, "trollwagon": 1, "dragon": 3,
              "escort": 1, "change_direction": 1}


def visit(trip, table, vehicle, escort=False, rules=RULES):
    """The legal Visit with this vehicle (fails if there is none)."""
    options = [a for a in moves(trip, table, rules)
               if isinstance(a, Visit) and a.vehicle == vehicle and a.escort == escort]
    assert len(options) == 1, (vehicle, escort, moves(trip, table, rules))
    return options[0]


def walk(trip, table, plan, rules=RULES):
    """Follow ``plan``: vehicle names, ("escort", vehicle), "turn" or "end"."""
    steps = []
    for p in plan:
        if p == "turn":
            a = ChangeDirection()
        elif p == "end":
            a = EndJourney()
        elif isinstance(p, tuple):
            a = visit(trip, table, p[1], escort=True, rules=rules)
        else:
            a = visit(trip, table, p, rules=rules)
        assert a in moves(trip, table, rules)
        trip = advance(trip, a, table, rules)
        steps.append((a, trip))
    return trip, steps


def hand_dict(trip, rules=RULES):
    out = {v: k for v, k in zip(rules.vehicles, trip.hand) if k}
    if trip.escorts:
        out["escort"] = trip.escorts
    if trip.turns:
        out["change_direction"] = trip.turns
    return out


# --------------------------------------------------------------------------- the rulebook

def test_anna_journey_from_the_rulebook():
    start = start_trip(ANNA, 0, ANNA_HAND, RULES)
    end, steps = walk(start, EXAMPLE_TABLE,
                      ["raft", "unicorn", "dragon", "elfcycle", "magic_cloud", "end"])
    acts = [a for a, _ in steps]
    # river: 2 rafts (one for Doris's sea monster), 2 gold
    assert (acts[0].cards, acts[0].gold) == (2, 2)
    # forest: 2 unicorns (Carl's tree), 4 doubled by her own gold card
    assert (acts[1].cards, acts[1].gold) == (2, 8)
    # desert: 1 dragon, 6 gold, 2 to Bob's thief
    assert (acts[2].cards, acts[2].gold, acts[2].thief, acts[2].thief_to) == (1, 6, 2, BOB)
    assert (acts[3].cards, acts[3].gold) == (1, 3)
    assert (acts[4].cards, acts[4].gold, acts[4].bonus) == (1, 5, 10)
    earned = sum(a.gold + a.bonus for a in acts if isinstance(a, Visit))
    paid = sum(a.thief for a in acts if isinstance(a, Visit))
    assert (earned, paid, end.gold) == (34, 2, 32)
    assert hand_dict(end) == {"elfcycle": 1, "raft": 1, "magic_cloud": 1}


def test_doris_journey_from_the_rulebook():
    start = start_trip(DORIS, 0, DORIS_HAND, RULES)
    end, steps = walk(start, EXAMPLE_TABLE,
                      ["dragon", "raft", "giant_pig", ("escort", "dragon"), "trollwagon",
                       "turn", "dragon", "elfcycle", "end"])
    acts = [a for a, _ in steps]
    assert acts[0].gold == 5
    assert (acts[1].cards, acts[1].gold) == (1, 2)           # her own sea monster
    assert (acts[2].cards, acts[2].gold) == (2, 4)           # Carl's tree
    assert (acts[3].escort, acts[3].thief, acts[3].gold) == (True, 0, 6)   # escort: no thief
    assert (acts[4].gold, acts[4].bonus) == (3, 10)
    assert (acts[6].gold, acts[6].thief) == (6, 0)           # still escorted in Carl's realm
    assert (acts[7].cards, acts[7].gold) == (2, 4)           # left Carl's realm: tree again
    assert steps[7][1].escort_realm is None                  # the escort is discarded
    assert end.gold == 40
    assert hand_dict(end) == {}


def test_solver_at_least_matches_the_rulebook_journeys():
    anna = best_journey(EXAMPLE_TABLE, start_trip(ANNA, 0, ANNA_HAND, RULES), RULES)
    doris = best_journey(EXAMPLE_TABLE, start_trip(DORIS, 0, DORIS_HAND, RULES), RULES)
    assert anna.value >= 32 and doris.value >= 40
    # the step list adds up and replays legally
    for plan in (anna, doris):
        assert sum(g for _, g, _ in plan.steps) == plan.value
        trips = play_journey(EXAMPLE_TABLE, plan.start, RULES, plan.actions())
        assert trips[-1].gold - plan.start.gold == plan.value
    assert "net gold of the journey" in str(anna)


# --------------------------------------------------------------------------- each rule

def simple_table(*spots, players=3):
    return Table(players, tuple(spots))


def test_own_villages_right_then_left_then_clockwise():
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "plains", 3), Spot(1, 1, "forest", 4),
                     Spot(2, 0, "plains", 2))
    trip = start_trip(1, 0, {"giant_pig": 9}, RULES)
    order = []
    for _ in range(5):
        a = visit(trip, t, "giant_pig")
        order.append((a.realm, a.slot))
        trip = advance(trip, a, t, RULES)
    assert order == [(1, 0), (1, 1), (2, 0), (0, 0), (1, 0)]   # and round again


def test_villages_cannot_be_skipped():
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "lake", 7))
    trip = advance(start_trip(0, 0, {"giant_pig": 3}, RULES),
                   Visit("giant_pig", 1, 0, 0, gold=2), t, RULES)
    assert [type(a) for a in moves(trip, t, RULES)] == [EndJourney]   # no raft: stop
    skip = Visit("giant_pig", 1, 0, 0, gold=2)
    assert "skipping none" in why_not(trip, skip, t, RULES)


def test_travel_costs_from_the_rulebook():
    costs = {"giant_pig": {"plains": 1, "forest": 1},
             "elfcycle": {"plains": 1, "forest": 1, "mountain": 2},
             "magic_cloud": {"mountain": 1, "plains": 2, "forest": 2},
             "unicorn": {"forest": 1, "mountain": 1, "desert": 2},
             "trollwagon": {"plains": 1, "forest": 2, "desert": 2, "mountain": 2},
             "dragon": {"plains": 1, "desert": 1, "mountain": 1, "forest": 2},
             "raft": {"river": 1, "lake": 2}}
    for v in RULES.vehicles:
        for terrain in ("plains", "forest", "mountain", "desert", "river", "lake"):
            assert RULES.cost(v, terrain) == costs[v].get(terrain)
            t = simple_table(Spot(0, 0, terrain, 3))
            trip = start_trip(0, 0, {v: 5}, RULES)
            vs = [a for a in moves(trip, t, RULES) if isinstance(a, Visit)]
            if terrain in costs[v]:
                assert [a.cards for a in vs] == [costs[v][terrain]]
            else:
                assert vs == []


def test_tree_obstacle_needs_one_more_card_of_the_same_vehicle_but_not_for_its_owner():
    t = simple_table(Spot(0, 0, "mountain", 5, obstacle="tree", obstacle_owner=2))
    trip = start_trip(0, 0, {"elfcycle": 3, "dragon": 1}, RULES)
    vs = {a.vehicle: a.cards for a in moves(trip, t, RULES) if isinstance(a, Visit)}
    assert vs == {"elfcycle": 3}              # 2 + 1; one dragon is not enough any more
    owner = start_trip(2, 0, {"dragon": 1}, RULES)
    t2 = simple_table(Spot(2, 0, "mountain", 5, obstacle="tree", obstacle_owner=2), players=3)
    assert [a.cards for a in moves(owner, t2, RULES) if isinstance(a, Visit)] == [1]


def test_sea_monster_needs_one_more_raft():
    t = simple_table(Spot(0, 0, "lake", 7, obstacle="sea_monster", obstacle_owner=1))
    assert [a for a in moves(start_trip(0, 0, {"raft": 2}, RULES), t, RULES)
            if isinstance(a, Visit)] == []
    (a,) = [a for a in moves(start_trip(0, 0, {"raft": 3}, RULES), t, RULES)
            if isinstance(a, Visit)]
    assert (a.cards, a.gold) == (3, 7)


def test_thief_takes_two_gold_and_bars_the_poor():
    t = simple_table(Spot(0, 0, "plains", 2, thief=1), Spot(1, 0, "lake", 7))
    rich = start_trip(0, 5, {"dragon": 1}, RULES)
    (a,) = [a for a in moves(rich, t, RULES) if isinstance(a, Visit)]
    assert (a.gold, a.thief, a.thief_to) == (2, 2, 1)
    assert advance(rich, a, t, RULES).gold == 5
    poor = start_trip(0, 1, {"dragon": 1}, RULES)
    assert not [a for a in moves(poor, t, RULES) if isinstance(a, Visit)]
    assert "thief" in why_not(poor, Visit("dragon", 1, 0, 0, gold=2, thief=2, thief_to=1), t, RULES)
    owner = start_trip(1, 0, {"dragon": 1}, RULES)
    t1 = simple_table(Spot(1, 0, "plains", 2, thief=1))
    (a,) = [a for a in moves(owner, t1, RULES) if isinstance(a, Visit)]
    assert a.thief == 0


def test_gold_card_doubles_only_for_its_owner():
    t = simple_table(Spot(0, 0, "desert", 6, gold=0), Spot(1, 0, "desert", 6, gold=0))
    trip = start_trip(0, 0, {"dragon": 2}, RULES)
    a = visit(trip, t, "dragon")
    assert a.gold == 12
    other = start_trip(1, 0, {"dragon": 2}, RULES)
    assert visit(other, t, "dragon").gold == 6


def test_escort_protects_in_its_realm_until_leaving():
    # two thieves in realm 1; an escort played on entering saves 4 gold, and it is
    # gone after leaving: the thief in realm 2 takes its gold.
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "plains", 3, thief=2),
                     Spot(1, 1, "forest", 4, thief=2, obstacle="tree", obstacle_owner=2),
                     Spot(2, 0, "plains", 2, thief=1))
    trip = start_trip(0, 10, {"giant_pig": 9, "escort": 1}, RULES)
    trip = advance(trip, visit(trip, t, "giant_pig"), t, RULES)
    a = visit(trip, t, "giant_pig", escort=True)
    assert (a.thief, trip.escorts) == (0, 1)
    trip = advance(trip, a, t, RULES)
    assert trip.escorts == 0 and trip.escort_realm == 1
    b = visit(trip, t, "giant_pig")
    assert (b.thief, b.cards) == (0, 1)          # no thief, no tree obstacle
    trip = advance(trip, b, t, RULES)
    c = visit(trip, t, "giant_pig")
    assert c.thief == 2                          # realm 2: not protected
    trip = advance(trip, c, t, RULES)
    assert trip.escort_realm is None
    # an escort can only be played on entering a realm (not from village to village
    # inside one)
    inside = advance(start_trip(1, 10, {"giant_pig": 9, "escort": 1}, RULES),
                     Visit("giant_pig", 1, 1, 0, gold=3, thief=0), t, RULES)
    assert not [m for m in moves(inside, t, RULES) if isinstance(m, Visit) and m.escort]


def test_change_direction_only_after_an_own_village():
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "plains", 3), Spot(2, 0, "plains", 7))
    trip = start_trip(0, 0, {"giant_pig": 5, "change_direction": 1}, RULES)
    assert ChangeDirection() not in moves(trip, t, RULES)
    assert "own realm" in why_not(trip, ChangeDirection(), t, RULES)
    trip = advance(trip, visit(trip, t, "giant_pig"), t, RULES)
    assert ChangeDirection() in moves(trip, t, RULES)
    trip = advance(trip, ChangeDirection(), t, RULES)
    a = visit(trip, t, "giant_pig")
    assert (a.realm, a.gold) == (2, 7)           # counter-clockwise: player 3's village
    assert trip.turns == 0


def test_all_villages_bonus_once_and_the_journey_goes_on():
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "plains", 2))
    trip = start_trip(0, 0, {"giant_pig": 4}, RULES)
    bonuses = []
    for _ in range(4):
        a = visit(trip, t, "giant_pig")
        bonuses.append(a.bonus)
        trip = advance(trip, a, t, RULES)
    assert bonuses == [0, 10, 0, 0]
    assert trip.gold == 8 + 10


def test_teleport_variant():
    rules = RULES.with_teleport()
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "lake", 7),
                     Spot(2, 0, "desert", 6, thief=1, obstacle="tree", obstacle_owner=1))
    trip = start_trip(0, 3, {"giant_pig": 1, "elfcycle": 2, "unicorn": 2}, rules)
    assert Teleport(3) not in moves(trip, t, rules)          # not before an own village
    assert Teleport(3) not in moves(trip, t, RULES)          # not without the variant
    trip = advance(trip, visit(trip, t, "giant_pig", rules=rules), t, rules)
    assert Teleport(3) in moves(trip, t, rules)
    assert "variant" in why_not(trip, Teleport(3), t, RULES)
    trip = advance(trip, Teleport(3), t, rules)
    assert trip.gold == 2
    for v in ("elfcycle", "unicorn", "elfcycle"):
        assert EndJourney() not in moves(trip, t, rules)
        trip = advance(trip, TeleportCard(v), t, rules)
    trip = advance(trip, TeleportCard("unicorn"), t, rules)
    targets = {(a.realm, a.slot): a for a in moves(trip, t, rules)}
    assert set(targets) == {(0, 0), (1, 0), (2, 0)}          # any village, even the desert
    assert (targets[(2, 0)].thief, targets[(2, 0)].gold) == (2, 6)   # thief yes, tree ignored
    trip = advance(trip, targets[(2, 0)], t, rules)
    assert trip.gold == 2 - 2 + 6 and trip.direction == 1 and trip.pos == 2
    assert trip.hand == (0,) * 7


def test_teleport_needs_three_gold_and_four_travel_cards():
    rules = RULES.with_teleport()
    t = simple_table(Spot(0, 0, "plains", 2), Spot(1, 0, "lake", 7))
    poor = advance(start_trip(0, 0, {"giant_pig": 5}, rules), Visit("giant_pig", 1, 0, 0, gold=2),
                   t, rules)
    assert Teleport(3) not in moves(poor, t, rules)           # 2 gold only
    few = advance(start_trip(0, 1, {"giant_pig": 4}, rules), Visit("giant_pig", 1, 0, 0, gold=2),
                  t, rules)
    assert Teleport(3) not in moves(few, t, rules)            # 3 cards only


# --------------------------------------------------------------------------- the solver

def brute_force_best(table, trip, rules):
    """Best net gold by plain exhaustive recursion (no memo)."""
    best = 0
    for a in moves(trip, table, rules):
        if isinstance(a, EndJourney):
            continue
        best = max(best, gold_change(a) + brute_force_best(table, advance(trip, a, table, rules), rules))
    return best


VEHICLES = RULES.vehicles


@pytest.mark.parametrize("seed", range(12))
def test_solver_equals_brute_force_on_random_tables(seed):
    rng = random.Random(seed)
    rules = RULES.with_teleport(seed % 3 == 0)
    players = rng.randint(2, 4)
    table = random_table(rng, players)
    hand = {v: rng.randint(0, 2) for v in rng.sample(VEHICLES, 4)}
    hand["escort"] = rng.randint(0, 1)
    hand["change_direction"] = rng.randint(0, 1)
    trip = start_trip(rng.randrange(players), rng.randint(0, 6), hand, rules)
    plan = best_journey(table, trip, rules)
    assert plan.value == brute_force_best(table, trip, rules)
    trips = play_journey(table, trip, rules, plan.actions())
    assert trips[-1].gold - trip.gold == plan.value


def test_solver_agrees_with_expectimax_on_the_puzzle_game():
    trip = start_trip(ANNA, 0, ANNA_HAND, RULES)
    puzzle = JourneyPuzzle(table=EXAMPLE_TABLE, trip=trip, rules=RULES)
    sol = expectimax(puzzle.initial_state(), value=("net gold", lambda s: (Fraction(s.net()),)))
    assert sol.value == (best_journey(EXAMPLE_TABLE, trip, RULES).value,)
    with pytest.raises(IllegalAction, match="order"):
        puzzle.initial_state().apply(Visit("dragon", 1, 3, 0, gold=5))


def test_journey_tree_is_a_decision_tree_with_values():
    trip = start_trip(DORIS, 0, DORIS_HAND, RULES)
    g = journey_tree(EXAMPLE_TABLE, trip, RULES, depth=2)
    root = g.graph["root"]
    assert g.nodes[root]["value"] == (Fraction(40),)
    assert any(d.get("best") for _, _, d in g.out_edges(root, data=True))
    assert all(isinstance(d["action"], object) for _, _, d in g.edges(data=True))
