"""make bench: speed of every game beside a peer measured in the same run.

1. Random playouts: actions per second (decisions + chance events) of every registered
   game's configurations, driven by one random loop, beside OpenSpiel's pure-Python
   **block dominoes** (``python_block_dominoes``: a deal, hidden hands and legal-move
   work every step, so a peer of comparable work) driven by the same loop.  Ratio > 1:
   faster; the goal is >= 1.0 for every configuration.  OpenSpiel's pure-Python Kuhn
   poker (``python_kuhn_poker``, whose step does almost no rules work) is printed
   beside it for information (the earlier goal, retired).  The peers are measured in
   slices interleaved with each configuration's, so all see the same machine load;
   times are this process's CPU seconds.  All loops run with the garbage collector's
   thresholds that ``simulate`` uses.
2. ``simulate`` with each game's default players: games per second on one core, the
   time ``simulate(game, 10_000)`` takes at that rate, and the speed-up with a pool
   of 2 worker processes (wall clock, worker start included) with a check that the
   parallel summary equals the serial one: at least 8 CPU seconds of games a run,
   3 runs, the median with its range.
3. Game-specific odds beside their peers, where a game provides ``benchmarks()`` in its
   ``odds`` module (e.g. the Horse's exact dice distribution beside icepool).

Timings are medians of a few repeats; compare ratios, not absolute numbers (on a
machine shared with other work, wall-clock numbers in part 2 are the least reliable).
``python benchmarks/bench.py [SECONDS]``: seconds per measurement (default 2).
"""
from __future__ import annotations

import importlib
import os
import random
import statistics
import sys
import time

import kingdoms

try:
    import resource             # Unix: the workers' CPU time
except ImportError:             # pragma: no cover
    resource = None

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
clock = time.process_time       # CPU seconds of this process: other load does not count


def our_loop(game, rng, budget):
    """Random playouts for ``budget`` CPU seconds; returns actions per second."""
    actions = 0
    start = clock()
    while clock() - start < budget:
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state = state.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (clock() - start)


def openspiel_loop(game, rng, budget):
    """The same loop on an OpenSpiel game."""
    actions = 0
    start = clock()
    while clock() - start < budget:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (clock() - start)


# The peers: (label, OpenSpiel game name, whether its ratio is the goal)
PEERS = (("block dominoes", "python_block_dominoes", True),
         ("Kuhn poker", "python_kuhn_poker", False))


def interleaved_rates(game, peers, repeats=5):
    """Median actions/s of ``game`` and, for each peer, the median of the ratios of
    neighbouring slices (ours, then each peer's): all see the same machine load, so
    the ratio of each pair is steadier than either rate.  Returns ``(rate, {label:
    (peer rate, ratio)})``."""
    ours = []
    theirs = {label: ([], []) for label in peers}
    for i in range(repeats):
        ours.append(our_loop(game, random.Random(i), SECONDS / repeats))
        for label, peer in peers.items():
            rate = openspiel_loop(peer, random.Random(i), SECONDS / repeats)
            theirs[label][0].append(rate)
            theirs[label][1].append(ours[-1] / rate)
    return statistics.median(ours), {label: (statistics.median(rates), statistics.median(ratios))
                                     for label, (rates, ratios) in theirs.items()}


def load_peers() -> dict:
    """The OpenSpiel peers by label (empty without open-spiel)."""
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    except ImportError:
        print("open-spiel is not installed (pip install -e '.[bench]'); no peer ratio")
        return {}
    return {label: pyspiel.load_game(name) for label, name, _ in PEERS}


def random_playouts(peers):
    # every loop runs with the collector's thresholds that ``simulate`` uses while it
    # plays (fewer collections: our states are many small objects; nothing else changes)
    from kingdoms.core.play import _fewer_collections
    with _fewer_collections():
        _random_playouts(peers)


def _random_playouts(peers):
    print("Random playouts, actions per CPU second (median of 5 slices; each peer measured "
          "in slices between ours;\n  ratio: the median of each slice's ratio to the peer "
          "slice after it)")
    labels = list(peers)
    head = "".join(f"  {'ratio to ' + label:>24s}" for label in labels)
    print(f"  {'configuration':44s} {'actions/s':>10s}{head}")
    lowest = {label: None for label in labels}
    peer_rates = {label: [] for label in labels}
    for name in kingdoms.games():
        cls = kingdoms.game_class(name)
        for config in cls.configurations():
            game = kingdoms.game(name, **config)
            rate, against = interleaved_rates(game, peers)
            label = name + " " + " ".join(f"{k}={v}" for k, v in config.items())
            cells = ""
            for peer_label, (peer_rate, r) in against.items():
                peer_rates[peer_label].append(peer_rate)
                low = lowest[peer_label]
                lowest[peer_label] = r if low is None else min(low, r)
                cells += f"  {r:24.2f}"
            print(f"  {label:44s} {rate:>10,.0f}{cells}", flush=True)
    for label, name, goal in PEERS:
        if label in peers and peer_rates[label]:
            print(f"  OpenSpiel {name} (peer): median {statistics.median(peer_rates[label]):,.0f} "
                  f"actions/s; lowest ratio {lowest[label]:.2f} "
                  + ("(goal: >= 1.0 for every configuration)" if goal else
                     "(for information: its step does almost no rules work)"))


def _children_cpu() -> float:
    """CPU seconds of this process's finished child processes (0 without resource)."""
    if resource is None:
        return 0.0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _speed_up(game, n: int) -> tuple:
    """One parallel run of ``n`` games (a pool of 2 workers, worker start included)
    and the same games serially: (wall-clock speed-up, 'free' speed-up, serial CPU
    seconds, parallel summary == serial summary)."""
    from concurrent.futures import ProcessPoolExecutor
    from kingdoms.core.cache import clear_caches
    from kingdoms.core.play import simulate
    # both runs start from empty speed caches (forked workers would otherwise
    # inherit the caches a serial run of the same games left behind)
    clear_caches()
    children, start_cpu, start_wall = _children_cpu(), clock(), time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:   # worker start counts
        parallel = simulate(game, n, seed=1, progress=False, executor=pool)
    par_wall = time.perf_counter() - start_wall
    # all the CPU time the parallel run took (workers and this process), on 2 cores
    par_cpu = _children_cpu() - children + clock() - start_cpu
    clear_caches()
    start_cpu, start_wall = clock(), time.perf_counter()
    serial = simulate(game, n, seed=1, progress=False)
    cpu, wall = clock() - start_cpu, time.perf_counter() - start_wall
    free = cpu / max(par_cpu / 2, 1e-6) if resource else None
    return wall / par_wall, free, cpu, parallel == serial


def simulate_speed(repeats: int = 3):
    """Games/s of ``simulate`` with the default players, serial and with 2 workers.

    The parallel comparison plays at least ``max(4 * SECONDS, 8)`` CPU seconds of
    games (so that starting the workers is a small part, as in a real 10,000-game
    run) and is repeated ``repeats`` times: the median is printed with the range."""
    from kingdoms.core.play import simulate
    print(f"\nsimulate with the default players (default player count; {os.cpu_count()} "
          f"cores here; speed-ups: median of {repeats} runs, range in brackets)")
    print(f"  {'game':15s} {'games/CPU s':>11s} {'10,000 games':>13s}  "
          f"{'2 workers: wall':>15s} {'free':>16s}   identical")
    for name in kingdoms.games():
        game = kingdoms.game(name)
        simulate(game, 2, seed="warm-up", progress=False)
        # a first small run sizes the measured one
        n, spent = 4, 0.0
        while True:
            start = clock()
            simulate(game, n, seed="size", progress=False)
            spent = clock() - start
            if spent >= SECONDS / 8 or n >= 4096:
                break
            n *= 4
        n = max(8, min(20_000, int(n * max(4 * SECONDS, 8.0) / max(spent, 1e-6))))
        n -= n % 2
        runs = [_speed_up(game, n) for _ in range(repeats)]
        walls = sorted(r[0] for r in runs)
        rate = n / statistics.median(r[2] for r in runs)
        if resource:
            frees = sorted(r[1] for r in runs)
            free = f"{statistics.median(frees):5.2f}x ({frees[0]:.2f}-{frees[-1]:.2f})"
        else:
            free = "–"
        print(f"  {name:15s} {rate:11,.1f} {10_000 / rate:11,.0f} s  "
              f"{statistics.median(walls):5.2f}x ({walls[0]:.2f}-{walls[-1]:.2f}) {free:>16s}  "
              f"{str(all(r[3] for r in runs)):9s} ({n} games)", flush=True)
    print("  (10,000 games: the time simulate(game, 10_000) takes on one core at this rate; "
          "goal about 30 s.\n   Speed-up goal >= 1.7x on 2 cores: 'wall' is measured, "
          "'free' is the serial CPU time over half the\n   CPU time of the parallel run "
          "(workers' start, pickling and all): the speed-up 2 idle cores would give.)")


def main():
    peers = load_peers()
    random_playouts(peers)
    simulate_speed()
    for name in kingdoms.games():
        try:
            odds = importlib.import_module(f"kingdoms.{name}.odds")
        except ImportError:
            continue
        if hasattr(odds, "benchmarks"):
            print(f"\n{name}: odds beside peers")
            for line in odds.benchmarks():
                print("  " + line)
        elif name == "horse":
            import horse_dice           # benchmarks/horse_dice.py, beside this file
            print(f"\n{name}: odds beside peers")
            for line in horse_dice.benchmarks():
                print("  " + line)


if __name__ == "__main__":
    main()
