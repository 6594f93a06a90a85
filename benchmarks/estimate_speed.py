"""How long one tree expansion with estimated values takes, for every game.

For each game (2 players) a few seeded mid-game positions (a game played by the
game's own players, stopped at a decision between a quarter and three quarters of its
way), and for each the CPU seconds of ``game_tree(state, depth=1, values=True)``: the
tree a student opens (``TreeExplorer``'s first view and the Stepper's "Open tree
here").  Issue 28 asks for about 2 s per expansion on one core; the work is bounded in
steps (``kingdoms.core.estimate.DEFAULT_STEP_BUDGET``), so this measures what a step
costs in each game and whether the budget keeps every game within that.

``python benchmarks/estimate_speed.py [POSITIONS]``: positions per game (default 4).
"""
from __future__ import annotations

import statistics
import sys
import time

import kingdoms
from kingdoms.core.tree import game_tree, sample_positions

POSITIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 4


def main() -> None:
    print(f"{'game':16} {'where':10} {'median s':>9} {'max s':>7} {'games per value':>16}")
    for name in kingdoms.games():
        for where, (a, b) in (("first move", (0, 0)), ("mid-game", (0.25, 0.75))):
            times, samples = [], []
            game = kingdoms.game(name, players=2)
            for s in sample_positions(game, POSITIONS, start=a, stop=b):
                start = time.process_time()
                g = game_tree(s, depth=1, values=True)
                times.append(time.process_time() - start)
                v = g.nodes[s].get("value")
                samples.append(getattr(v, "samples", 0))
            print(f"{name:16} {where:10} {statistics.median(times):9.2f} {max(times):7.2f} "
                  f"{min(samples):>7,}-{max(samples):,}")


if __name__ == "__main__":
    main()
