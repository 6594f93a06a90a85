"""My Kingdom for a Horse, solo: how often can a player beat Moritz?

For every plausible set of dice faces (``kingdoms.horse.solo.FACE_VARIANTS``: the data
as shipped, then one assumed face changed at a time) it plays ``--games`` seeded solo
games for each player (``greedy``, the old best, and ``solo``, the race player) and
prints the win share (a win 1, a tie ½, a loss 0) with its 95% Wilson interval, the
CPU time, and Moritz's exact mean number of turns to the set.

Usage: ``python benchmarks/horse_solo.py [--games 2000] [--jobs 1] [--seed horse_solo]
[--variants all|default]``.  Seeded: the same arguments give the same games (the
win shares do not depend on the machine; the timings do).  ``solo_vs_moritz`` is the
one call for other benchmarks (e.g. ``strength.py``'s Moritz section).
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from kingdoms.core.text import share_text
from kingdoms.core.tournament import tournament
from kingdoms.horse import odds
from kingdoms.horse.solo import FACE_VARIANTS, face_variant_game

PLAYERS = ("greedy", "solo")
SEED = "horse_solo"


def solo_vs_moritz(n: int, executor=None, variants=None, players=PLAYERS,
                   seed: str = SEED) -> list[dict]:
    """Play ``n`` solo games per player and face variant; print one line each and
    return the rows ``{variant, player, share, low, high, record, cpu}``."""
    rows = []
    for variant in variants or FACE_VARIANTS:
        game = face_variant_game(variant)
        mean = odds.moritz_mean_turns(game.comp)
        print(f"{variant} (Moritz needs {float(mean):.2f} turns on average, exactly "
              f"computed)", flush=True)
        for name in players:
            start = time.process_time()
            r = tournament(game, {name: game.policies()[name]}, n, seed=seed,
                           executor=executor, progress=False)
            cpu = time.process_time() - start
            share = r.win_share(name)
            lo, hi = r.interval(name)
            won, tied, lost = r.record(name)
            print(f"  {name:8s} {share_text(share, n)}  (won/tied/lost "
                  f"{won}/{tied}/{lost}; {cpu:.1f} s CPU here)", flush=True)
            rows.append(dict(variant=variant, player=name, share=share, low=lo, high=hi,
                             record=(won, tied, lost), cpu=cpu))
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default=SEED)
    ap.add_argument("--variants", default="all", choices=("all", "default"))
    args = ap.parse_args(argv)
    variants = list(FACE_VARIANTS)[:1] if args.variants == "default" else None
    print(f"Horse solo against Moritz: {args.games} seeded games (seed {args.seed!r}) "
          f"per player and dice faces; win share with its 95% Wilson interval", flush=True)
    executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        solo_vs_moritz(args.games, executor, variants, seed=args.seed)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)


if __name__ == "__main__":
    main(sys.argv[1:])
