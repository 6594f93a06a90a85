"""Playing and simulating games with policies.

A *policy* is any callable ``policy(state, rng) -> action`` for a decision state.
(A fair policy looks only at ``state.view(state.current_player())``; the simple
ones here look only at the legal actions.)  Chance nodes are sampled with the same
seeded ``random.Random``, so a seed fixes the whole game.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Protocol, Sequence

from .protocol import CHANCE, Game, State
from .records import GameRecord

__all__ = ["Policy", "random_policy", "first_policy", "play", "play_state", "simulate",
           "SimulationSummary", "game_rng"]


class Policy(Protocol):
    def __call__(self, state: State, rng: random.Random) -> Any: ...


def random_policy(state: State, rng: random.Random):
    """Choose uniformly among the legal actions."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def first_policy(state: State, rng: random.Random):
    """Always the first legal action (deterministic; handy in tests)."""
    return state.legal_actions()[0]


def game_rng(seed: Any, index: int = 0) -> random.Random:
    """The random source of game number ``index`` of a run seeded with ``seed``."""
    return random.Random(f"kingdoms/{seed}/{index}")


def _policies_for(game: Game, policies) -> Sequence[Callable]:
    if policies is None:
        return [random_policy] * game.players
    if callable(policies):
        return [policies] * game.players
    policies = list(policies)
    if len(policies) != game.players:
        raise ValueError(f"{len(policies)} policies for {game.players} players")
    return policies


def play_state(game: Game | State, policies=None, seed: Any = None,
               max_steps: int = 1_000_000, rng: random.Random | None = None) -> State:
    """Play from ``game`` (its initial state) or a given state to the end."""
    state = game.initial_state() if isinstance(game, Game) else game
    pols = _policies_for(state.game, policies)
    rng = rng or game_rng(seed)
    for _ in range(max_steps):
        cp = state.current_player()
        if cp < 0:
            if cp != CHANCE:
                return state
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(pols[cp](state, rng))
    raise RuntimeError(f"game did not end within {max_steps} steps")


def play(game: Game, policies=None, seed: Any = None) -> GameRecord:
    """Play one game with ``policies`` (one per player, or one for all; default random).

    The same seed gives the same game.  Returns its ``GameRecord``.
    """
    return GameRecord.of(play_state(game, policies, seed), seed=seed)


@dataclass
class SimulationSummary:
    """What ``simulate`` found: win shares, scores and game lengths."""

    game: str
    players: int
    n: int
    wins: list                      # summed win shares per player (Fractions)
    scores: list = field(default_factory=list)   # per player: Counter of final scores
    lengths: Counter = field(default_factory=Counter)

    def win_rates(self) -> list[float]:
        return [float(w) / self.n for w in self.wins]

    def mean_scores(self) -> list[float] | None:
        if not self.scores:
            return None
        return [sum(s * k for s, k in c.items()) / self.n for c in self.scores]

    def score_distribution(self, player: int):
        """The empirical distribution of ``player``'s final score."""
        from .distribution import Distribution
        return Distribution(self.scores[player])

    def rows(self) -> list[dict]:
        rows = []
        means = self.mean_scores()
        for p in range(self.players):
            row = {"player": p, "win rate": round(self.win_rates()[p], 4)}
            if means is not None:
                row["mean score"] = round(means[p], 3)
            rows.append(row)
        return rows

    def table(self) -> str:
        rows = self.rows()
        cols = list(rows[0])
        lines = ["  ".join(f"{c:>10}" for c in cols)]
        lines += ["  ".join(f"{r[c]:>10}" for c in cols) for r in rows]
        mean_len = sum(k * v for k, v in self.lengths.items()) / self.n
        lines.append(f"{self.n} games of {self.game}; mean length {mean_len:.1f} steps")
        return "\n".join(lines)

    def to_pandas(self):
        import pandas as pd
        return pd.DataFrame(self.rows()).set_index("player")

    def __str__(self):
        return self.table()

    def _repr_html_(self):
        import html
        return f"<pre>{html.escape(self.table())}</pre>"

    def merge(self, other: "SimulationSummary") -> "SimulationSummary":
        scores = [a + b for a, b in zip(self.scores, other.scores)] if self.scores else other.scores
        return SimulationSummary(self.game, self.players, self.n + other.n,
                                 [a + b for a, b in zip(self.wins, other.wins)],
                                 scores, self.lengths + other.lengths)


def _run_batch(args) -> SimulationSummary:
    game, policies, seed, start, stop = args
    summary = SimulationSummary(game.name, game.players, 0, [Fraction(0)] * game.players,
                                [], Counter())
    for i in range(start, stop):
        end = play_state(game, policies, rng=game_rng(seed, i))
        scores = end.scores()
        one = SimulationSummary(
            game.name, game.players, 1, list(end.returns()),
            [Counter({s: 1}) for s in scores] if scores is not None else [],
            Counter({len(end.history()): 1}))
        summary = summary.merge(one)
    return summary


def simulate(game: Game, n: int, policies=None, seed: Any = 0, executor=None,
             batch: int | None = None, progress: bool = True) -> SimulationSummary:
    """Play ``n`` games and summarise them.

    Game ``i`` uses the random source ``game_rng(seed, i)``, so the result depends
    only on ``seed``: serial, a process pool or a Dask cluster give identical
    summaries.  ``executor`` is any ``concurrent.futures.Executor`` (or a
    ``dask.distributed.Client``); policies must then be picklable (module-level
    functions).  A progress bar (tqdm) shows the batches done.
    """
    from tqdm.auto import tqdm
    if n < 1:
        raise ValueError("simulate needs n >= 1")
    if batch is None:
        batch = max(1, min(200, n // 20 or 1))
    chunks = [(game, policies, seed, a, min(a + batch, n)) for a in range(0, n, batch)]
    bar = tqdm(total=n, desc=f"simulating {game.name}", disable=not progress, leave=False)
    total = None
    try:
        if executor is None:
            results = map(_run_batch, chunks)
        else:
            futures = [executor.submit(_run_batch, c) for c in chunks]
            results = (f.result() for f in futures)
        for part in results:           # in submission order: deterministic merge
            total = part if total is None else total.merge(part)
            bar.update(part.n)
    finally:
        bar.close()
    return total
