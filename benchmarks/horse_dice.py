"""My Kingdom for a Horse: the exact dice beside icepool, and the re-roll solver.

``benchmarks()`` returns the lines ``benchmarks/bench.py`` prints under "horse: odds
beside peers" (``make bench``); ``python benchmarks/horse_dice.py`` prints them alone.
"""
from __future__ import annotations

import importlib.util
import statistics
import time
from fractions import Fraction


def _timed(f, repeats):
    times = []
    result = None
    for _ in range(repeats):
        t = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def _roll_line(comp, repeats) -> str:
    """The exact 4-dice roll, ours beside icepool's (same run, same data)."""
    from kingdoms.horse import odds
    t_ours, ours = _timed(lambda: odds.roll_distribution(comp), repeats)
    if importlib.util.find_spec("icepool") is None:
        return (f"4-dice roll: ours {t_ours * 1e3:.2f} ms; icepool not installed "
                "(pip install -e '.[bench]'), no ratio")
    t_ice, ice = _timed(lambda: odds.icepool_roll_distribution(comp), repeats)
    same = {r: Fraction(w, ice.denominator()) for r, w in ice.items()} == dict(ours)
    return (f"4-dice roll ({len(ours)} outcomes): ours {t_ours * 1e3:.2f} ms, "
            f"icepool {t_ice * 1e3:.2f} ms, ratio {t_ice / t_ours:.1f}, "
            f"same distribution: {same}")


def benchmarks(repeats: int = 20) -> list[str]:
    """``make bench``: the exact 4-dice roll beside icepool computing the same
    distribution in the same run, and the time to solve the optimal re-roll policies.
    Medians of ``repeats`` runs; ratio > 1 means ours is faster."""
    from kingdoms.core.cache import clear_caches
    from kingdoms.horse import odds
    from kingdoms.horse.components import components

    comp = components()
    lines = [_roll_line(comp, repeats)]

    def solve(goal):
        clear_caches()                      # time a cold solve, not a cache lookup
        return odds.solve_rerolls(goal, rerolls=2, game=comp)
    t_cattle, cattle = _timed(lambda: solve(odds.goal_cattle(comp)), repeats)
    t_value, value = _timed(lambda: solve(odds.goal_sheep_value((4, 2, 0, 0), comp)), repeats)
    lines.append(f"optimal re-roll policy, goal 'a cattle': {t_cattle * 1e3:.1f} ms "
                 f"(P = {cattle.value})")
    lines.append(f"optimal re-roll policy, goal 'sheep-value for 4 sheep, 2 pigs': "
                 f"{t_value * 1e3:.1f} ms (E = {value.value})")
    return lines


if __name__ == "__main__":
    for line in benchmarks():
        print(line)
