"""make bench: speed of every game beside a peer measured in the same run.

1. Random playouts: actions per second (decisions + chance events) of every registered
   game's configurations, driven by one random loop, beside OpenSpiel's pure-Python
   Kuhn poker (``python_kuhn_poker``) driven by the same loop.  Ratio > 1: faster.
2. Game-specific odds beside their peers, where a game provides ``benchmarks()`` in its
   ``odds`` module (e.g. the Horse's exact dice distribution beside icepool).

Timings are wall-clock medians of a few repeats; compare ratios, not absolute numbers.
"""
from __future__ import annotations

import importlib
import random
import statistics
import sys
import time

import kingdoms

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0


def our_loop(game, rng, budget):
    """Random playouts for ``budget`` seconds; returns actions per second."""
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state = state.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def openspiel_loop(game, rng, budget):
    """The same loop on an OpenSpiel game."""
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - start)


def median_rate(loop, game, repeats=3):
    return statistics.median(loop(game, random.Random(i), SECONDS / repeats)
                             for i in range(repeats))


def main():
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
        peer = median_rate(openspiel_loop, pyspiel.load_game("python_kuhn_poker"))
    except ImportError:
        peer = None
        print("open-spiel is not installed (pip install -e '.[bench]'); no peer ratio")
    print("Random playouts, actions/s (median of 3)")
    if peer:
        print(f"  {'OpenSpiel python_kuhn_poker (peer)':44s} {peer:>10,.0f}")
    for name in kingdoms.games():
        cls = kingdoms.game_class(name)
        for config in cls.configurations():
            game = kingdoms.game(name, **config)
            rate = median_rate(our_loop, game)
            label = name + " " + " ".join(f"{k}={v}" for k, v in config.items())
            ratio = f"  ratio {rate / peer:5.2f}" if peer else ""
            print(f"  {label:44s} {rate:>10,.0f}{ratio}")
    for name in kingdoms.games():
        try:
            odds = importlib.import_module(f"kingdoms.{name}.odds")
        except ImportError:
            continue
        if hasattr(odds, "benchmarks"):
            print(f"\n{name}: odds beside peers")
            for line in odds.benchmarks():
                print("  " + line)


if __name__ == "__main__":
    main()
