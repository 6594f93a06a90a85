"""Exact odds of My Kingdom for a Horse, against brute force and simulation."""
import math
import random
from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import pytest

from kingdoms.core.solve import expectimax
from kingdoms.horse import odds
from kingdoms.horse.components import SPECIES, components

COMP = components()
KING = [f.name for f in COMP.king_faces]
MULT = list(COMP.mult_faces)


def brute_rolls():
    """Every ordered roll of the 4 dice, equally likely."""
    for k in product(KING, repeat=3):
        for m in MULT:
            yield (tuple(sorted(k)), m)


def tol(p, n, sigmas=4.5):
    return sigmas * math.sqrt(float(p) * (1 - float(p)) / n) + 1e-9


def test_roll_distribution_matches_brute_force_and_icepool():
    d = odds.roll_distribution()
    assert sum(d.values()) == 1
    c = Counter(brute_rolls())
    n = sum(c.values())
    assert n == 6 ** 4
    assert dict(d) == {r: Fraction(k, n) for r, k in c.items()}
    ice = odds.icepool_roll_distribution()
    assert {r: Fraction(w, ice.denominator()) for r, w in ice.items()} == dict(d)


def test_p_cattle_brute_force_formula_and_simulation():
    p = odds.p_cattle()
    brute = Fraction(sum(1 for r in brute_rolls() if r[0].count("half cattle") >= 2), 6 ** 4)
    assert p == brute == 3 * Fraction(1, 6) ** 2 * Fraction(5, 6) + Fraction(1, 6) ** 3
    rng = random.Random(4)
    n = 20000
    hits = sum(sum(rng.choice(KING) == "half cattle" for _ in range(3)) >= 2 for _ in range(n))
    assert abs(hits / n - float(p)) < tol(p, n)


def test_optimal_cattle_policy_is_keep_the_halves():
    pol = odds.solve_rerolls(odds.goal_cattle())
    q = 1 - Fraction(5, 6) ** 3            # each die becomes a half cattle within 3 tries
    assert pol.value == 3 * q ** 2 * (1 - q) + q ** 3
    # the same value from expectimax on the abstract dice game
    sol = expectimax(odds.RerollGame().initial_state())
    assert sol.value == (pol.value,)
    # and from the explicit policy "keep the half cattle"
    hold = lambda roll, left: (tuple(f for f in roll[0] if f == "half cattle"), True)
    d = odds.policy_distribution(hold)
    assert d.P(lambda r: r[0].count("half cattle") >= 2) == pol.value
    # seeded simulation of that policy
    rng = random.Random(7)
    n, hits = 20000, 0
    for _ in range(n):
        halves = 0
        for _roll in range(3):
            halves += sum(rng.choice(KING) == "half cattle" for _ in range(3 - halves))
        hits += halves >= 2
    assert abs(hits / n - float(pol.value)) < tol(pol.value, n)


def test_explain_says_what_to_keep_in_words_and_refuses_a_position_it_has_not():
    pol = odds.solve_rerolls(odds.goal_cattle())
    roll = (("1 pig", "2 sheep", "half cattle"), "pig")
    assert pol.explain(roll) == (
        "1 pig, 2 sheep, half cattle | pink die: pig \u2192 keep half cattle, re-roll 2 King "
        f"dice, keep the pink die (value {pol.values[(roll, 2)]})")
    done = (("half cattle", "half cattle", "half cattle"), "pig")
    assert pol.explain(done, 1).startswith("half cattle, half cattle, half cattle | pink die: "
                                           "pig \u2192 stop and keep all dice (value 1)")
    for bad, left in ((roll, 0), ((("2 sheep", "1 pig", "half cattle"), "pig"), 2), ([1], 1)):
        with pytest.raises(ValueError, match="not a position of this policy.*1 to 2 re-rolls"):
            pol.explain(bad, left)


@pytest.mark.slow
def test_sheep_value_policy_agrees_with_expectimax_on_full_dice():
    herd = (3, 1, 0, 0)
    goal = odds.goal_sheep_value(herd)
    pol = odds.solve_rerolls(goal, rerolls=1)
    game = odds.RerollGame(faces=tuple(Counter(KING).items()), mult=tuple(MULT),
                           rerolls=1, goal=goal)
    sol = expectimax(game.initial_state(), max_states=500_000)
    assert sol.value == (pol.value,)
    # no re-roll at all is worse or equal; never re-rolling gives the plain mean
    plain = odds.roll_distribution().E(goal)
    assert odds.solve_rerolls(goal, rerolls=0).value == plain <= pol.value
    assert pol.value <= odds.solve_rerolls(goal, rerolls=2).value


def test_policy_distribution_sums_to_one_and_stop_policy_is_plain_roll():
    stop = lambda roll, left: (roll[0], True)
    assert odds.policy_distribution(stop) == odds.roll_distribution()


def test_dice_gain_rulebook_example():
    # Black: 2 sheep die + two half cattle + sheep multiply
    gain, fences = odds.dice_gain((("2 sheep", "half cattle", "half cattle"), "sheep"),
                                  (3, 0, 0, 0))
    assert gain == (2 + (3 + 2) // 2, 0, 1, 0) and fences == 0


def test_multiplication_example_and_distribution():
    d = odds.multiplication_distribution((5, 0, 0, 0))
    assert d[("sheep", 2)] == Fraction(MULT.count("sheep"), len(MULT))   # 5 sheep -> +2
    brute = Counter((m, (5, 0, 0, 0)[SPECIES.index(m)] // 2) for m in MULT)
    assert dict(d) == {k: Fraction(v, len(MULT)) for k, v in brute.items()}
    aim = odds.aim_multiplication((6, 4, 2, 0))
    # 1 new cattle (6 sheep-value) beats 2 new pigs (4) and 3 new sheep (3)
    assert [(v, s) for v, s, _ in aim] == [(6, "cattle"), (4, "pig"), (3, "sheep")]


def test_trade_graph_values_and_chain():
    g = odds.trade_graph()
    assert [(a, b, g.edges[a, b]["rate"]) for a, b in g.edges] == [
        ("sheep", "pig", 2), ("pig", "cattle", 3), ("cattle", "horse", 4)]
    assert odds.sheep_values() == {"sheep": 1, "pig": 2, "cattle": 6, "horse": 24}
    assert odds.trade_chain("sheep", "horse") == (24, 3, ("sheep", "pig", "cattle", "horse"))
    assert odds.sheep_value((6, 0, 0, 0)) == odds.sheep_value((0, 3, 0, 0))


def _bfs_brute(herd, goal):
    """Independent BFS: each phase one species traded up, any number of times."""
    rates = (2, 3, 4)
    seen = {herd}
    layer = [herd]
    d = 0
    while layer:
        if any(all(x >= goal for x in h) for h in layer):
            return d
        nxt = []
        for h in layer:
            for i, r in enumerate(rates):
                for k in range(1, h[i] // r + 1):
                    n = list(h)
                    n[i] -= k * r
                    n[i + 1] += k
                    n = tuple(n)
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
        layer, d = nxt, d + 1
    return None


@pytest.mark.parametrize("herd", [(2, 2, 2, 2), (6, 2, 2, 2), (2, 2, 10, 0), (4, 2, 8, 1),
                                  (20, 8, 8, 0), (2, 2, 2, 1), (60, 2, 2, 0), (2, 8, 8, 1)])
def test_fewest_trading_phases_matches_brute_force(herd):
    assert odds.fewest_trading_phases(herd) == _bfs_brute(herd, 2)
    assert odds.can_reach_by_trading(herd) == (_bfs_brute(herd, 2) is not None)
    assert odds.can_finish_now(herd) == (_bfs_brute(herd, 2) in (0, 1))


def test_extra_sheep_needed():
    assert odds.extra_sheep_needed((2, 2, 2, 0)) == 48          # two horses' worth
    assert odds.extra_sheep_needed((2, 2, 2, 2)) == 0
    x = odds.extra_sheep_needed((3, 5, 7, 1))
    assert odds.can_reach_by_trading((3 + x, 5, 7, 1))
    assert x == 0 or not odds.can_reach_by_trading((3 + x - 1, 5, 7, 1))


def test_useful_die_left_brute_force():
    useful = lambda d: d == "2 sheep"
    for seat in (1, 2, 3):
        exact = odds.useful_die_left(useful, seat)
        total = Fraction(0)
        for king in product(KING, repeat=3):
            for m in MULT:
                dice = list(king) + [f"multiply {m}"]
                orders = list(permutations(range(4), seat - 1))
                ok = sum(any(useful(d) for i, d in enumerate(dice) if i not in o) for o in orders)
                total += Fraction(ok, len(orders))
        assert exact == total / 6 ** 4
    # seat 1 sees all dice: P(some 2-sheep die) = 1 - (5/6)^3
    assert odds.useful_die_left(useful, 1) == 1 - Fraction(5, 6) ** 3
    # a greedy earlier player who always takes the 2 sheep leaves one only if 2+ were rolled
    greedy = odds.useful_die_left(useful, 2, pick=["2 sheep"])
    assert greedy == 1 - Fraction(5, 6) ** 3 - 3 * Fraction(1, 6) * Fraction(5, 6) ** 2


@pytest.mark.slow
def test_moritz_chain_rows_and_mean_against_pmf_and_simulation():
    chain = odds.moritz_chain()
    assert all(sum(row.values()) == 1 for row in chain.values())
    mean = odds.moritz_mean_turns()
    pmf, tail = odds.moritz_turns(40)
    assert sum(pmf) + tail == 1 and tail < Fraction(1, 10 ** 50)
    approx = sum((t + 1) * p for t, p in enumerate(pmf))
    assert abs(approx - mean) < Fraction(1, 10 ** 40)
    sims = odds.simulate_moritz(3000, seed=11)
    m = sum(sims) / len(sims)
    var = sum((t + 1) ** 2 * p for t, p in enumerate(pmf)) - approx ** 2
    assert abs(m - float(mean)) < 4.5 * math.sqrt(float(var) / len(sims))


def test_moritz_step_and_trade():
    h = odds.moritz_step((2, 1, 0, 0), (("2 sheep", "half cattle", "half cattle"), "sheep"))
    assert h == (4 + 2, 1, 1, 0)
    assert odds.moritz_trade((9, 1, 0, 0)) == (3, 4, 0, 0)   # 9 sheep: 6 traded, keep 3
    assert odds.moritz_trade((3, 8, 3, 0)) == (3, 2, 5, 0)   # 6 pigs -> 2 cattle; 5 cattle keep
    assert odds.moritz_trade((3, 8, 6, 0)) == (3, 2, 4, 1)   # cascade: ... 8 cattle -> 1 horse


def test_roll_distribution_is_sorted_like_the_generic_constructor():
    from kingdoms.core.distribution import Distribution
    weights, total = odds.roll_counts()
    d = odds.roll_distribution()
    assert list(d) == list(Distribution(weights)) and hash(d) == hash(Distribution(weights))
    assert total == 6 ** 4


def test_useful_die_left_against_simulation():
    useful = lambda d: d in ("2 sheep", "multiply sheep")
    exact = odds.useful_die_left(useful, 3)
    rng = random.Random(21)
    n, hits = 20000, 0
    for _ in range(n):
        dice = [rng.choice(KING) for _ in range(3)] + [f"multiply {rng.choice(MULT)}"]
        for _ in range(2):
            dice.pop(rng.randrange(len(dice)))
        hits += any(useful(d) for d in dice)
    assert abs(hits / n - float(exact)) < tol(exact, n)


def test_sheep_value_of_a_roll_against_simulation():
    herd = (4, 2, 0, 0)
    goal = odds.goal_sheep_value(herd)
    exact = odds.roll_distribution().E(goal)
    brute = Fraction(sum(goal(r) for r in brute_rolls()), 6 ** 4)
    assert exact == brute
    rng = random.Random(5)
    n = 20000
    vals = [goal((tuple(sorted(rng.choice(KING) for _ in range(3))), rng.choice(MULT)))
            for _ in range(n)]
    mean = sum(vals) / n
    var = sum((v - mean) ** 2 for v in vals) / n
    assert abs(mean - float(exact)) < 4.5 * math.sqrt(var / n)


def test_multiplication_mean_against_simulation():
    herd = (7, 5, 3, 0)
    d = odds.multiplication_new_animals(herd)
    rng = random.Random(9)
    n = 20000
    sims = [herd[SPECIES.index(rng.choice(MULT))] // 2 for _ in range(n)]
    assert abs(sum(sims) / n - float(d.mean())) < 4.5 * math.sqrt(float(d.variance()) / n)
    assert d.mean() == Fraction(3 + 2 + 1, 3)


def _horse_dice_benchmarks():
    """``benchmarks/horse_dice.py`` (a script beside ``bench.py``, not a package)."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parents[2] / "benchmarks" / "horse_dice.py"
    spec = importlib.util.spec_from_file_location("horse_dice", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_lines_compare_the_same_distribution_as_icepool():
    lines = _horse_dice_benchmarks().benchmarks(repeats=1)
    assert "same distribution: True" in lines[0] and "ratio" in lines[0]
    best = odds.solve_rerolls(odds.goal_cattle(), rerolls=2).value
    assert any("goal 'a cattle'" in ln and f"P = {best})" in ln for ln in lines)
