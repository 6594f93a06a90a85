"""make bench: how strong is the strong search bot?  Win shares with 95% intervals.

0. Speed: CPU seconds per move and simulations per CPU second of the bot in one game.
1. For every game at 2 players: the strong level (``"mcts-strong"``,
   ``kingdoms.core.search.strong_policy``: up to ``--seconds`` of CPU a move, default 1)
   against ``random`` and against the game's best heuristic, ``--games``
   seat-balanced games each (``tournament``: half the games each way round), with the
   95% Wilson interval of its win share and whether it separates from ½.
2. My Kingdom for a Horse, solo: the best heuristic against Moritz (a win 1, a tie
   ½, a loss 0), with its interval.
3. Beside a peer: the strong level against OpenSpiel's information-set MCTS
   (``open_spiel.python.algorithms.ismcts.ISMCTSBot``: random rollouts, UCT constant
   1 as our default bot's) with the same CPU time per move, in every game through
   ``kingdoms.interop.openspiel.load_game``: win share with its interval and the
   simulations per CPU second of each.

``--quick``: 40 games per pairing and 0.1 s of CPU a move for both searchers (the
strong level at its full second plays ~15-80 moves a game; 600 games at a second a
move are many hours of CPU; docs/bots.md has the quick run's wall times); it
says which intervals separate from ½ and the least share that could at that sample
size.  ``--jobs`` processes (default 2).

Usage: ``python benchmarks/strength.py [--quick] [--games 200] [--jobs 2]
[--only woods,horse] [--seconds 1.0] [--simulations N] [--bot strong|mcts]
[--peer-games 200] [--skip speed,h2h,moritz,peer]``.  Seeded; with ``--simulations``
(and no ``--seconds``) the same arguments give the same games on any machine; on a
CPU-time budget the games depend on the machine's speed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import kingdoms
from kingdoms.core import strong_policy
from kingdoms.core.play import game_rng
from kingdoms.core.search import STRONG_SECONDS, SearchError
from kingdoms.core.text import wilson_interval
from kingdoms.core.tournament import tournament

# the strongest heuristic each game offers at 2 players (its policies() name)
BEST = {"woods": "fool-aware", "black_forest": "greedy", "elves": "planner",
        "ten_characters": "greedy", "horse": "greedy"}
GAMES = ("woods", "black_forest", "elves", "ten_characters", "horse")
QUICK_GAMES = 40
QUICK_SECONDS = 0.1


def least_separating(n: int) -> float:
    """The least win share of ``n`` games (a multiple of ½ game) whose 95% Wilson
    interval lies above ½ (``None``: not even winning every game)."""
    for k in range(n, 2 * n + 1):
        lo, _ = wilson_interval(k / (2 * n), n)
        if lo > 0.5:
            return k / (2 * n)
    return None


def _verdict(share: float, n: int) -> str:
    lo, hi = wilson_interval(share, n)
    if lo > 0.5:
        return "above ½"
    if hi < 0.5:
        return "below ½"
    least = least_separating(n)
    if least is None:
        return f"not separated from ½ (no share of {n} games can separate)"
    return (f"not separated from ½ (at {n} games only a share of {100 * least:.1f}% or "
            f"more would separate)")


def _share(r, name: str, n: int) -> str:
    share = r.win_share(name)
    if share is None:
        return "no game ended by the rules"
    lo, hi = r.interval(name)
    return (f"{100 * float(share):5.1f}%  (95% CI {100 * lo:.1f}–{100 * hi:.1f}%, "
            f"{_verdict(float(share), len(r.finished))}; won/tied/lost "
            f"{'/'.join(map(str, r.record(name)))})")


def _bot(game, which: str, seconds, simulations):
    """The bot to measure: the strong level at ``seconds`` of CPU a move and/or
    ``simulations`` (``which == "strong"``), or the game's own fast ``mcts``."""
    if which == "mcts":
        return game.policies()["mcts"]
    return strong_policy(seconds, simulations)


def head_to_head(name: str, n: int, executor, which="strong", seconds=STRONG_SECONDS,
                 simulations=None, rivals=("random", "best")) -> None:
    game = kingdoms.game(name, players=2)
    pols = game.policies()
    bot = _bot(game, which, seconds, simulations)
    which = "mcts-strong" if which == "strong" else which
    for rival in (BEST[name] if r == "best" else r for r in rivals):
        start = time.perf_counter()
        try:
            r = tournament(game, {which: bot, rival: pols[rival]}, n,
                           seed=f"strength/{rival}", executor=executor, progress=False)
        except (SearchError, ValueError) as e:
            print(f"{name:15s} {which} vs {rival:11s} skipped: {e}", flush=True)
            return
        dt = time.perf_counter() - start
        extra = f"; {r.unfinished} unfinished" if r.unfinished else ""
        print(f"{name:15s} {which} vs {rival:11s} {_share(r, which, n)}  [{n} games, "
              f"{dt:.0f} s wall{extra}; {bot!r}]", flush=True)


def speed(name: str, which="strong", seconds=STRONG_SECONDS, simulations=None) -> None:
    """One seeded game of the bot against the best heuristic: CPU seconds per move
    (mean, max) and simulations per CPU second."""
    from kingdoms.core.play import play_state
    game = kingdoms.game(name, players=2)
    bot = _bot(game, which, seconds, simulations)
    times, sims = [], 0

    def timed(state, rng):                  # play hands it what its player sees
        nonlocal sims
        t = time.process_time()
        try:
            return bot(state, rng)
        finally:
            if bot.last_simulations:
                times.append(time.process_time() - t)
                sims += bot.last_simulations
    timed.observes = True
    try:
        play_state(game, [timed, game.policies()[BEST[name]]], seed="strength/speed")
    except (SearchError, ValueError) as e:
        print(f"{name:15s} speed: skipped ({e})", flush=True)
        return
    print(f"{name:15s} {bot!r}: {len(times)} searched moves, CPU s/move mean "
          f"{sum(times) / len(times):.2f}, max {max(times):.2f}; "
          f"{sims / sum(times):.0f} simulations/s", flush=True)


def horse_vs_moritz(n: int, executor) -> None:
    game = kingdoms.game("horse", players=1)
    best = BEST["horse"]
    start = time.perf_counter()
    r = tournament(game, {best: game.policies()[best]}, n, seed="strength/moritz",
                   executor=executor, progress=False)
    print(f"{'horse (solo)':15s} {best} vs Moritz {_share(r, best, n)}  [{n} games, "
          f"{time.perf_counter() - start:.0f} s wall]", flush=True)
    # the strongest solo player (policies()["solo"]) beside it, under the shipped dice faces
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from horse_solo import solo_vs_moritz
    solo_vs_moritz(n, executor, variants=["as in data.toml"])


# --------------------------------------------------------------------------- OpenSpiel

def _timed_ismcts(og, seconds: float, np_rng):
    """OpenSpiel's ``ISMCTSBot`` held to ``seconds`` of CPU a move: its own
    ``run_search`` counts simulations only, so this subclass repeats that loop (the
    same steps, in its order) until the CPU clock reaches the budget."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        last_simulations = 0

        def run_search(self, state):
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                self.last_simulations = 0
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = time.process_time() + seconds
            done = 0
            # at least 2: after one simulation its root has no visits to choose by
            # (where one random rollout outlasts the budget, e.g. Horse at 0.1 s)
            while done < 2 or time.process_time() < deadline:
                self.run_simulation(self.sample_root_state(state))
                done += 1
            self.last_simulations = done
            node = self._root_node
            if self._allow_inconsistent_action_sets:
                node = self.filter_illegals(node, legal_actions)
            return self.get_final_policy(state, node)

    assert og.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    # allow_inconsistent_action_sets: in King of the Elves two positions the searcher
    # cannot tell apart may offer different moves (its bot stops with a KeyError else)
    return TimedISMCTSBot(og, mcts.RandomRolloutEvaluator(1, np_rng), uct_c=1.0,
                          max_simulations=1, random_state=np_rng,
                          allow_inconsistent_action_sets=True)


def _peer_game(args) -> tuple:
    """One game, the strong level in seat ``i % 2``, OpenSpiel's bot in the other:
    (our return, our sims, our CPU seconds, their sims, their CPU seconds)."""
    name, seconds, simulations, i = args
    import numpy as np
    from kingdoms.interop.openspiel import load_game
    og = load_game(name, players=2)
    ours_seat = i % 2
    rng = game_rng("strength/openspiel", i // 2)
    np_rng = np.random.RandomState(i)
    peer = _timed_ismcts(og, seconds, np_rng)
    bot = strong_policy(seconds, simulations)
    stats = [0, 0.0, 0, 0.0]
    state = og.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            p = state.current_player()
            t = time.process_time()
            if p == ours_seat:
                k = state.kstate
                a = og.universe.id_of(bot(k.observed(p), rng), k)
                sims = bot.last_simulations
            else:
                a = peer.step(state)
                sims = peer.last_simulations
            dt = time.process_time() - t
            if sims:
                j = 0 if p == ours_seat else 2
                stats[j] += sims
                stats[j + 1] += dt
        state.apply_action(a)
    return (state.returns()[ours_seat], *stats)


def beside_openspiel(name: str, seconds: float, simulations, n: int, executor) -> None:
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed (pip install kingdoms[openspiel]): skipped")
        return
    start = time.perf_counter()
    jobs = [(name, seconds, simulations, i) for i in range(n)]
    try:
        results = list(executor.map(_peer_game, jobs) if executor else map(_peer_game, jobs))
    except (SearchError, ValueError, NotImplementedError) as e:
        print(f"{name:15s} mcts-strong vs OpenSpiel ISMCTSBot skipped: {e}", flush=True)
        return
    share = sum(r[0] for r in results) / n
    lo, hi = wilson_interval(share, n)
    ours = sum(r[1] for r in results) / max(1e-9, sum(r[2] for r in results))
    theirs = sum(r[3] for r in results) / max(1e-9, sum(r[4] for r in results))
    ours_t = sum(r[2] for r in results) / max(1, n)
    theirs_t = sum(r[4] for r in results) / max(1, n)
    print(f"{name:15s} mcts-strong vs OpenSpiel ISMCTSBot ({seconds:g} s of CPU a move "
          f"each): {100 * share:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%, "
          f"{_verdict(share, n)}) [{n} games, {time.perf_counter() - start:.0f} s wall]",
          flush=True)
    print(f"{'':15s} simulations per CPU second: ours {ours:.0f}, OpenSpiel's "
          f"{theirs:.0f}; CPU seconds of search a game: ours {ours_t:.1f}, OpenSpiel's "
          f"{theirs_t:.1f} (ours stops early when its choice is clear)", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help=f"{QUICK_GAMES} games per pairing, {QUICK_SECONDS:g} s of CPU a move")
    ap.add_argument("--games", type=int, default=None,
                    help="games per pairing (even; default 200, --quick 40)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--bot", default="strong", choices=("strong", "mcts"),
                    help="strong: mcts-strong; mcts: the game's own fast search bot")
    ap.add_argument("--seconds", type=float, default=None,
                    help=f"CPU seconds a move (default {STRONG_SECONDS:g}, --quick "
                         f"{QUICK_SECONDS:g})")
    ap.add_argument("--simulations", type=int, default=None,
                    help="at most this many simulations a move (reproducible)")
    ap.add_argument("--rivals", default="random,best",
                    help="comma-separated: random, best (the game's best heuristic)")
    ap.add_argument("--moritz-games", type=int, default=None)
    ap.add_argument("--peer-games", type=int, default=None)
    ap.add_argument("--skip", default="",
                    help="comma-separated: speed, h2h, moritz, peer")
    args = ap.parse_args(argv)
    games = args.games or (QUICK_GAMES if args.quick else 200)
    seconds = args.seconds or (QUICK_SECONDS if args.quick else STRONG_SECONDS)
    skip = set(filter(None, args.skip.split(",")))
    only = [g for g in args.only.split(",") if g]
    executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    began = time.perf_counter()
    print(f"Strength: the search bot's share of the win, 95% Wilson intervals; "
          f"{games} seat-balanced games a pairing, {seconds:g} s of CPU a move "
          f"({args.jobs} process{'es' if args.jobs > 1 else ''})", flush=True)
    if args.quick:
        print(f"Quick mode: at {games} games an interval separates from ½ only when the "
              f"share is at least {100 * least_separating(games):.1f}%; the strong "
              f"level's full budget is {STRONG_SECONDS:g} s a move (the default run).",
              flush=True)
    try:
        if "speed" not in skip:
            for name in only:
                speed(name, args.bot, seconds, args.simulations)
        if "h2h" not in skip:
            for name in only:
                head_to_head(name, games, executor, args.bot, seconds, args.simulations,
                             tuple(args.rivals.split(",")))
        if "moritz" not in skip and "horse" in only:
            horse_vs_moritz(args.moritz_games or games, executor)
        if "peer" not in skip:
            for name in only:
                beside_openspiel(name, seconds, args.simulations,
                                 args.peer_games or games, executor)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    print(f"Strength run: {(time.perf_counter() - began) / 60:.0f} minutes of wall time",
          flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
