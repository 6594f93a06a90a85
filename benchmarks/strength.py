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
   simulations per CPU second of each (``PEER_GAMES`` = 100 games a game in the full
   run: an interval above ½ is what is asked there).

``--quick``: 40 games per pairing and 0.05 s of CPU a move for both searchers, so it
ends in under half an hour on two cores (the strong level at its full second plays
~15-100 moves a game; 3,000 games at a second a move are days of CPU: see
docs/bots.md); it says which intervals separate from ½ and the least share that could
at that sample size.  ``--jobs`` processes (default 2).

The full run logs every game it plays (``--log``; ``make bench`` uses
``benchmarks/results/strength.jsonl``): run it again and it plays only the games the
log lacks, for the same budget and code (``code_fingerprint``).  ``--hours H`` starts no
game after H hours of wall time and reports what the log holds.  The pairings' games
are interleaved, so a run cut short has played every pairing about equally.

Usage: ``python benchmarks/strength.py [--quick] [--games 200] [--jobs 2]
[--only woods,horse] [--seconds 1.0] [--simulations N] [--bot strong|mcts]
[--peer-games 100] [--skip speed,h2h,moritz,peer] [--log FILE] [--hours H]``.  Seeded; with ``--simulations``
(and no ``--seconds``) the same arguments give the same games on any machine; on a
CPU-time budget the games depend on the machine's speed.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import kingdoms
from kingdoms.core import strong_policy
from kingdoms.core.play import game_rng
from kingdoms.core.search import STRONG_SECONDS, SearchError
from kingdoms.core.text import plural, wilson_interval
from kingdoms.core.tournament import tournament

# the strongest heuristic each game offers at 2 players (its policies() name)
BEST = {"woods": "fool-aware", "black_forest": "greedy", "elves": "planner",
        "ten_characters": "greedy", "horse": "greedy"}
GAMES = ("woods", "black_forest", "elves", "ten_characters", "horse")
QUICK_GAMES = 40
QUICK_SECONDS = 0.05
PEER_GAMES = 100
"""Games against OpenSpiel's bot in the full run: what is asked there is an interval
above ½, which 100 games give for a share of 60% or more (the pairings against
``random`` and the heuristics play 200, as asked); both players think a full second a
move, so these games cost twice as much and fewer of them halve the run."""


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
        return f"not separated from ½ (no share of {plural(n, 'game')} can separate)"
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


# ------------------------------------------------------------- the log of played games

PEER = "OpenSpiel ISMCTSBot"


# the modules a strength game starts from: the game's package (the registry imports it
# by name) and the core's players and tournament; a peer game also the OpenSpiel
# adapter and the game's render (OpenSpiel's bot tells what it has seen apart by the
# view's text: ``str(view)``, which the core finds in ``render`` by name)
_RUN_ROOTS = ("kingdoms.core.search", "kingdoms.core.play", "kingdoms.core.tournament")
_PEER_ROOTS = ("kingdoms.interop.openspiel", "kingdoms.{name}.render")


def _module_file(root: Path, module: str) -> Path | None:
    """The file of a ``kingdoms`` module (``None`` for any other, or a name that is no
    module, such as a function imported from a package)."""
    parts = module.split(".")
    if parts[0] != "kingdoms":
        return None
    base = root.joinpath(*parts[1:])
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            return f
    return None


def _imported(module: str, f: Path) -> list:
    """Every module ``f`` imports (also inside functions), absolute names."""
    package = module if f.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(f.read_bytes())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{up}.{base}" if base else up
            found += [base] + [f"{base}.{a.name}" for a in node.names]
    return found


def run_files(name: str, peer: bool = False) -> list:
    """The files a strength game of ``name`` can run: every ``kingdoms`` module the
    game's package and the core's players and tournament import (with ``peer``: also
    the OpenSpiel adapter and the game's render), directly or not (their packages'
    ``__init__`` too), and the game's data file.  Widgets, lessons, odds tables no
    player imports and (but for peer games) the render are not among them: they do
    not play (the rules never import ``render``; the core finds it by name)."""
    root = Path(kingdoms.__file__).parent
    seen: dict = {}
    todo = [*_RUN_ROOTS, f"kingdoms.{name}"]
    if peer:
        todo += [m.format(name=name) for m in _PEER_ROOTS]
    while todo:
        module = todo.pop()
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        if module in seen or (f := _module_file(root, module)) is None:
            continue
        seen[module] = f
        todo += _imported(module, f)
    return sorted(set(seen.values())) + [root / name / "data.toml"]


def code_fingerprint(name: str, peer: bool = False) -> str:
    """A hash of the code a pairing's games ran on (``run_files``: the modules they
    can run and the game's data file).  A logged game counts only for the same
    fingerprint (and budget): a change to a notebook, a widget or the catalog keeps
    the logged games; a change to anything a game runs starts its pairings again."""
    root = Path(kingdoms.__file__).parent
    h = hashlib.sha256()
    for f in run_files(name, peer):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


class GameLog:
    """The games played so far, one JSON line each (``--log``): a run that stops (the
    ``--hours`` limit, an interrupt) is continued by running it again; only games of the
    same pairing, budget and code fingerprint count."""

    def __init__(self, path: str | None):
        self.path = Path(path) if path else None
        self.rows: dict = {}
        if self.path is not None and self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.rows[(row["key"], row["index"])] = row

    def get(self, key: str, index: int):
        return self.rows.get((key, index))

    def add(self, row: dict) -> None:
        self.rows[(row["key"], row["index"])] = row
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row, sort_keys=True) + "\n")


@dataclass
class Pairing:
    """One line of the report: the bot against one rival in one game, ``n`` games,
    played in jobs of ``unit`` games (a seat-balanced pair, or one peer game)."""
    name: str
    rival: str
    n: int
    key: str
    unit: int
    job: Callable
    args: tuple

    def jobs(self):
        return range(self.n // self.unit)


def _h2h_job(name, which, seconds, simulations, rival, block) -> dict:
    """One seat-balanced pair of games (block ``block`` of ``tournament``'s seeding
    with seed ``strength/<rival>``: the same games ``tournament`` plays as its games
    ``2 block`` and ``2 block + 1``)."""
    from kingdoms.core.tournament import _play_games, _players, _views_for
    game = kingdoms.game(name, players=2)
    bot = _bot(game, which, seconds, simulations)
    _, policies = _players(game, {"bot": bot, rival: game.policies()[rival]})
    start = time.process_time()
    games = _play_games((game, policies, f"strength/{rival}", ((0, 1), (1, 0)),
                         2 * block, 2 * block + 2, _views_for(game, None)))
    ours = [float(g.returns[g.seats.index(0)]) for g in games]
    return {"ours": ours, "unfinished": [g.unfinished is not None for g in games],
            "cpu": time.process_time() - start}


def _peer_job(name, seconds, simulations, i) -> dict:
    ours, our_sims, our_cpu, their_sims, their_cpu, cut = _peer_game(
        (name, seconds, simulations, i))
    return {"ours": [float(ours)], "unfinished": [cut], "our_sims": our_sims,
            "our_cpu": our_cpu, "their_sims": their_sims, "their_cpu": their_cpu}


def run_pairings(pairings: list, executor, log: GameLog, deadline: float | None) -> None:
    """Play every job not in the log, the pairings' jobs interleaved (the first job of
    every pairing, then the second ...), so a run cut by ``deadline`` (wall clock,
    ``time.perf_counter``) has played every pairing about equally; each finished job
    is logged at once."""
    todo = []
    for j in range(max((p.n // p.unit for p in pairings), default=0)):
        for p in pairings:
            if j < p.n // p.unit and log.get(p.key, j) is None:
                todo.append((p, j))
    if not todo or deadline is not None and time.perf_counter() > deadline:
        return

    failed: set = set()

    def record(p, j, run):
        if p.key in failed:
            return
        try:
            result = run()
        except (SearchError, ValueError, NotImplementedError) as e:
            failed.add(p.key)
            print(f"{p.name:15s} vs {p.rival}: stopped ({type(e).__name__}: {e})",
                  flush=True)
            return
        log.add({"key": p.key, "game": p.name, "rival": p.rival, "index": j, **result})

    if executor is None:
        for p, j in todo:
            if deadline is not None and time.perf_counter() > deadline:
                return
            record(p, j, lambda p=p, j=j: p.job(*p.args, j))
        return
    futures = {executor.submit(p.job, *p.args, j): (p, j) for p, j in todo}
    try:
        for f in as_completed(futures):
            if f.cancelled():
                continue
            p, j = futures[f]
            record(p, j, f.result)
            if deadline is not None and time.perf_counter() > deadline:
                for g in futures:
                    g.cancel()
    finally:
        for g in futures:
            g.cancel()


def report(p: Pairing, log: GameLog, which: str) -> None:
    rows = [r for r in (log.get(p.key, j) for j in p.jobs()) if r is not None]
    shares = [x for r in rows for x, cut in zip(r["ours"], r["unfinished"]) if not cut]
    cut = sum(sum(r["unfinished"]) for r in rows)
    played = sum(len(r["ours"]) for r in rows)
    label = f"{p.name:15s} {which} vs {p.rival:11s}"
    if not shares:
        print(f"{label} no game played yet (of {p.n})", flush=True)
        return
    k = len(shares)
    share = sum(shares) / k
    lo, hi = wilson_interval(share, k)
    won = sum(x == 1 for x in shares)
    lost = sum(x == 0 for x in shares)
    extra = f"; {cut} unfinished" if cut else ""
    so_far = "" if played >= p.n else f"; {played} of {p.n} so far: run again to go on"
    cpu = sum(r.get("cpu", r.get("our_cpu", 0) + r.get("their_cpu", 0)) for r in rows)
    print(f"{label} {100 * share:5.1f}%  (95% CI {100 * lo:.1f}–{100 * hi:.1f}%, "
          f"{_verdict(share, k)}; won/tied/lost {won}/{k - won - lost}/{lost})  "
          f"[{plural(played, 'game')}{so_far}{extra}; {cpu / max(1, played):.0f} s of CPU a game]",
          flush=True)
    if p.rival == PEER:
        ours = sum(r["our_sims"] for r in rows) / max(1e-9, sum(r["our_cpu"] for r in rows))
        theirs = sum(r["their_sims"] for r in rows) / max(1e-9, sum(r["their_cpu"]
                                                                     for r in rows))
        print(f"{'':15s} simulations per CPU second: ours {ours:.0f}, OpenSpiel's "
              f"{theirs:.0f}; CPU seconds of search a game: ours "
              f"{sum(r['our_cpu'] for r in rows) / played:.1f}, OpenSpiel's "
              f"{sum(r['their_cpu'] for r in rows) / played:.1f}", flush=True)


def h2h_pairings(name: str, n: int, which, seconds, simulations, rivals) -> list:
    budget = f"{which}|seconds={seconds}|simulations={simulations}"
    code = code_fingerprint(name)
    return [Pairing(name, rival, n, f"{name}|{rival}|{budget}|{code}", 2, _h2h_job,
                    (name, which, seconds, simulations, rival))
            for rival in (BEST[name] if r == "best" else r for r in rivals)]


def peer_pairing(name: str, n: int, seconds, simulations) -> Pairing:
    budget = f"strong|seconds={seconds}|simulations={simulations}"
    return Pairing(name, PEER, n, f"{name}|{PEER}|{budget}|{code_fingerprint(name, True)}", 1,
                   _peer_job, (name, seconds, simulations))


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
            while done < 1 or time.process_time() < deadline:
                self.run_simulation(self.sample_root_state(state))
                done += 1
            self.last_simulations = done
            node = self._root_node
            if node.total_visits <= 0:
                # out of time after the first simulation (it only evaluates the root:
                # one random rollout of a Horse game can outlast 0.1 s): no move was
                # tried, so any legal move is as good as another to it
                return [(a, 1 / len(legal_actions)) for a in legal_actions]
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
    (our return, our sims, our CPU seconds, their sims, their CPU seconds, whether an
    engine safeguard rather than the rules ended it)."""
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
    return (state.returns()[ours_seat], *stats, state.kstate.unfinished() is not None)


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
    ap.add_argument("--peer-games", type=int, default=None,
                    help=f"games against OpenSpiel's bot (default {PEER_GAMES}, or --games "
                         f"when fewer)")
    ap.add_argument("--skip", default="",
                    help="comma-separated: speed, h2h, moritz, peer")
    ap.add_argument("--log", default=None,
                    help="JSON lines of the games played: a run that stops is continued "
                         "by running it again with the same log")
    ap.add_argument("--hours", type=float, default=None,
                    help="start no game after this many hours of wall time; report "
                         "what was played (with --log, the next run goes on from there; "
                         "--hours 0 only reports the log)")
    args = ap.parse_args(argv)
    games = args.games or (QUICK_GAMES if args.quick else 200)
    seconds = args.seconds or (QUICK_SECONDS if args.quick else STRONG_SECONDS)
    skip = set(filter(None, args.skip.split(",")))
    only = [g for g in args.only.split(",") if g]
    executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    began = time.perf_counter()
    deadline = None if args.hours is None else began + 3600 * args.hours
    log = GameLog(args.log)
    print(f"Strength: the search bot's share of the win, 95% Wilson intervals; "
          f"{games} seat-balanced games a pairing, {seconds:g} s of CPU a move "
          f"({args.jobs} process{'es' if args.jobs > 1 else ''})", flush=True)
    if args.quick:
        print(f"Quick mode: at {games} games an interval separates from ½ only when the "
              f"share is at least {100 * least_separating(games):.1f}%; the strong "
              f"level's full budget is {STRONG_SECONDS:g} s a move (the default run).",
              flush=True)
    if args.log:
        print(f"Games are logged to {args.log} ({sum(1 for _ in log.rows)} jobs there "
              f"already); a pairing counts the logged games of its budget and code.",
              flush=True)
    which = "mcts-strong" if args.bot == "strong" else args.bot
    try:
        if "speed" not in skip:
            for name in only:
                speed(name, args.bot, seconds, args.simulations)
        pairings = []
        if "h2h" not in skip:
            for name in only:
                pairings += h2h_pairings(name, games, args.bot, seconds, args.simulations,
                                         tuple(args.rivals.split(",")))
        if "peer" not in skip:
            try:
                import open_spiel  # noqa: F401
            except ImportError:
                print("OpenSpiel is not installed (pip install kingdoms[openspiel]): "
                      "the comparison with its ISMCTSBot is skipped")
            else:
                pairings += [peer_pairing(name, args.peer_games or min(games, PEER_GAMES), seconds,
                                          args.simulations) for name in only]
        if pairings:
            start = time.perf_counter()
            run_pairings(pairings, executor, log, deadline)
            print(f"Pairings ({len(pairings)}): {time.perf_counter() - start:.0f} s of "
                  f"wall time", flush=True)
            for p in pairings:
                report(p, log, which if p.rival != PEER else "mcts-strong")
        if "moritz" not in skip and "horse" in only:
            horse_vs_moritz(args.moritz_games or games, executor)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    print(f"Strength run: {(time.perf_counter() - began) / 60:.0f} minutes of wall time",
          flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
