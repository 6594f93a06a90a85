"""make bench: how strong is the search bot?  Win shares with 95% intervals.

0. Speed: CPU seconds per move and simulations per second of the bot in one game.
1. For every game at 2 players: the search bot (the game's own
   ``policies()["mcts"]``; ``kingdoms.core.search``) against ``random`` and against the
   game's best heuristic, ``--games`` seat-balanced games each (``tournament``:
   half the games each way round), with the 95% Wilson interval of its win share.
2. My Kingdom for a Horse, solo: the best heuristic against Moritz (a win 1, a tie
   ½, a loss 0), with its interval.
3. Beside a peer: our search bot against OpenSpiel's information-set MCTS
   (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random rollouts, the same
   number of simulations and the same UCT constant) on one game through
   ``kingdoms.interop.openspiel.load_game``: win share with its interval and the
   simulations per second of each (every game of ours has hidden information, so
   the peer of a determinizing search is IS-MCTS; OpenSpiel's plain ``MCTSBot``
   would search the true hidden cards).

Usage: ``python benchmarks/strength.py [--games 200] [--jobs 2] [--only woods,horse]
[--simulations N] [--rollout random|default|POLICY]
[--prior POLICY] [--peer-games 40] [--skip speed,h2h,moritz,peer]``.  Seeded: the same arguments give the same
games (win shares do not depend on the machine; the timings do).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import kingdoms
from kingdoms.core import mcts_policy
from kingdoms.core.play import game_rng
from kingdoms.core.search import DEFAULT_SIMULATIONS, SearchError
from kingdoms.core.tournament import tournament, wilson_interval

# the strongest heuristic each game offers at 2 players (its policies() name)
BEST = {"woods": "fool-aware", "black_forest": "greedy", "elves": "planner",
        "ten_characters": "greedy", "horse": "greedy"}
GAMES = ("woods", "black_forest", "elves", "ten_characters", "horse")

def _share(r, name: str) -> str:
    share = r.win_share(name)
    if share is None:
        return "no game ended by the rules"
    lo, hi = r.interval(name)
    verdict = "above ½" if lo > 0.5 else "below ½" if hi < 0.5 else "not separated from ½"
    return (f"{100 * float(share):5.1f}%  (95% CI {100 * lo:.1f}–{100 * hi:.1f}%, "
            f"{verdict}; won/tied/lost {'/'.join(map(str, r.record(name)))})")


def _mcts(game, simulations=None, rollout=None, prior=None):
    """The bot to measure: the game's own ``policies()["mcts"]`` (its default bot),
    with any of simulations, rollout, prior given instead (``"none"``: no prior)."""
    base = game.policies().get("mcts") or mcts_policy()
    kw = dict(simulations=base.simulations, rollout=base.rollout, prior=base.prior,
              prior_weight=base.prior_weight, exploration=base.exploration,
              final=base.final)
    for key, value in (("simulations", simulations), ("rollout", rollout),
                       ("prior", prior)):
        if value:
            kw[key] = None if value == "none" else value
    kw.setdefault("simulations", DEFAULT_SIMULATIONS)
    return mcts_policy(**kw)


def head_to_head(name: str, n: int, executor, simulations=None, rollout=None,
                 rivals=("random", "best"), prior=None) -> None:
    game = kingdoms.game(name, players=2)
    pols = game.policies()
    bot = _mcts(game, simulations, rollout, prior)
    for rival in (BEST[name] if r == "best" else r for r in rivals):
        start = time.perf_counter()
        try:
            r = tournament(game, {"mcts": bot, rival: pols[rival]}, n, seed=f"strength/{rival}",
                           executor=executor, progress=False)
        except (SearchError, ValueError) as e:
            print(f"{name:15s} mcts vs {rival:11s} skipped: {e}", flush=True)
            return
        dt = time.perf_counter() - start
        extra = f"; {r.unfinished} unfinished" if r.unfinished else ""
        print(f"{name:15s} mcts vs {rival:11s} {_share(r, 'mcts')}  [{n} games, "
              f"{dt:.0f} s wall{extra}; {bot!r}]", flush=True)


def speed(name: str, simulations=None, rollout=None, prior=None) -> None:
    """One seeded game of the bot against the best heuristic: CPU seconds per move
    (mean, max) and simulations per CPU second."""
    from kingdoms.core.play import play_state
    game = kingdoms.game(name, players=2)
    bot = _mcts(game, simulations, rollout, prior)
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
    print(f"{'horse (solo)':15s} {best} vs Moritz {_share(r, best)}  [{n} games, "
          f"{time.perf_counter() - start:.0f} s wall]", flush=True)


# --------------------------------------------------------------------------- OpenSpiel

def _peer_game(args) -> tuple:
    """One game, our bot in seat ``ours``: (our return, our sims, our seconds, their
    sims, their seconds)."""
    name, simulations, i = args
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    from kingdoms.interop.openspiel import load_game
    og = load_game(name, players=2)
    ours_seat = i % 2
    rng = game_rng("strength/openspiel", i // 2)
    np_rng = np.random.RandomState(i)
    peer = ismcts.ISMCTSBot(og, mcts.RandomRolloutEvaluator(1, np_rng), uct_c=1.0,
                            max_simulations=simulations, random_state=np_rng)
    bot = mcts_policy(simulations, exploration=1.0)
    stats = [0, 0.0, 0, 0.0]
    state = og.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            p = state.current_player()
            several = len(state.legal_actions()) > 1
            t = time.process_time()
            if p == ours_seat:
                k = state.kstate
                a = og.universe.id_of(bot(k.view(p), rng), k)
                sims = bot.last_simulations
            else:
                a = peer.step(state)
                sims = simulations if several else 0
            dt = time.process_time() - t
            if several:
                j = 0 if p == ours_seat else 2
                stats[j] += sims
                stats[j + 1] += dt
        state.apply_action(a)
    return (state.returns()[ours_seat], *stats)


def beside_openspiel(name: str, simulations: int, n: int, executor) -> None:
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed (pip install kingdoms[openspiel]): skipped")
        return
    start = time.perf_counter()
    jobs = [(name, simulations, i) for i in range(n)]
    results = list(executor.map(_peer_game, jobs) if executor else map(_peer_game, jobs))
    shares = [r[0] for r in results]
    share = sum(shares) / n
    lo, hi = wilson_interval(share, n)
    ours = sum(r[1] for r in results) / max(1e-9, sum(r[2] for r in results))
    theirs = sum(r[3] for r in results) / max(1e-9, sum(r[4] for r in results))
    print(f"{name:15s} mcts vs OpenSpiel ISMCTSBot ({simulations} simulations each): "
          f"{100 * share:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%) [{n} games, "
          f"{time.perf_counter() - start:.0f} s wall]", flush=True)
    print(f"{'':15s} simulations/s (CPU): ours {ours:.0f}, OpenSpiel's {theirs:.0f}; "
          f"ratio {ours / theirs:.2f}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per match (even)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--simulations", type=int, default=0,
                    help="the bot's simulations per move (default: --bot's)")
    ap.add_argument("--rollout", default=None,
                    help="the bot's rollouts: random, default or a policy name")
    ap.add_argument("--prior", default=None,
                    help="the bot's prior: a policy name, or none")
    ap.add_argument("--rivals", default="random,best",
                    help="comma-separated: random, best (the game's best heuristic)")
    ap.add_argument("--moritz-games", type=int, default=200)
    ap.add_argument("--peer-game", default="ten_characters")
    ap.add_argument("--peer-games", type=int, default=40)
    ap.add_argument("--peer-simulations", type=int, default=100)
    ap.add_argument("--skip", default="",
                    help="comma-separated: speed, h2h, moritz, peer")
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    print(f"Strength: the search bot's share of the win, 95% Wilson intervals "
          f"({args.jobs} process{'es' if args.jobs > 1 else ''})", flush=True)
    try:
        if "speed" not in skip:
            for name in filter(None, args.only.split(",")):
                speed(name, args.simulations, args.rollout, args.prior)
        if "h2h" not in skip:
            for name in filter(None, args.only.split(",")):
                head_to_head(name, args.games, executor, args.simulations, args.rollout,
                             tuple(args.rivals.split(",")), args.prior)
        if "moritz" not in skip:
            horse_vs_moritz(args.moritz_games, executor)
        if "peer" not in skip:
            beside_openspiel(args.peer_game, args.peer_simulations, args.peer_games,
                             executor)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)


if __name__ == "__main__":
    main(sys.argv[1:])
