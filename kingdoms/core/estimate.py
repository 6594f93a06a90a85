"""Estimated values where exact ones are out of reach: seeded sampled games.

Exact expectimax (``kingdoms.core.solve``) needs every way the game can go from a
position worked out, and it reads every card.  Mid-game that is far too much (millions
of ways), and in a game with hidden information the exact answer would read cards the
player to move cannot see.  There a tree shows *estimated* values instead:

* **What is estimated.**  The value of a position is the mean of the objective (share
  of the win, points margin, ...) over games played out from it to the end by a named
  policy (default: the game's own players, ``game.default_policies()``).  For a
  player's moves this is the rollout algorithm: the best move is the one whose
  sampled games went best for its player.
* **What the player knows, never the truth.**  In a game with hidden information each
  sampled game starts from a *world*, ``state.sample_world(viewer, rng)`` (the
  protocol's world sampler): a full position consistent with what the ``viewer`` (the
  player to move at the root) has seen.  Two positions the viewer cannot tell apart get
  the same numbers, to the last digit.  A move's value is estimated by making the move
  in worlds sampled at the position (a player's moves are the same in all of them), so
  only the position's view and observation are ever sampled from; the estimate from
  ``state.observed(viewer)`` (the view, carrying what the viewer saw) is the estimate
  from the state.
* **Seeded and bounded.**  Every node draws from its own ``random.Random`` made from
  ``seed`` and its place among the root's children, so the numbers replay on any
  machine.  The work is bounded in *steps* (moves and chance events played), not in
  seconds: a short seeded pilot measures how long games from here last, and each node
  gets ``step_budget // ((steps per game + GAME_COST) * nodes)`` games (between ``MIN_SAMPLES`` and
  ``MAX_SAMPLES``), the same count on every machine.
* **Uncertainty.**  Each number is a mean with its standard error; it prints as
  "≈ 0.62 ± 0.04 (2,000 sampled games)", the ± being the half-width of a 95%
  interval.

``estimate_children(state, objective)`` estimates a position and the positions its
moves (or chance outcomes) lead to; ``estimate_value`` one position.  It knows no
game: every step is ``legal_actions``, ``apply``, ``sample_chance``,
``sample_world``, ``view`` and the objective.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .protocol import CHANCE, State, TooManyOutcomes
from .i18n import _, ngettext
from .text import Z95, count, number

__all__ = ["Estimated", "Estimate", "estimate_value", "estimate_children", "viewer_of",
           "reads_hidden_information", "DEFAULT_STEP_BUDGET", "GAME_COST", "MIN_SAMPLES", "MAX_SAMPLES",
           "EstimateError"]

DEFAULT_STEP_BUDGET = 40_000
"""Work per estimated tree, in steps (moves and chance events played) plus
``GAME_COST`` per sampled game (dealing a world, setting up).  Measured with
``benchmarks/estimate_speed.py`` (2 players, the game's own players, CPU seconds of one
core shared with other work): a step costs 15-40 µs (King of the Elves the dearest),
so one expansion (``game_tree(state, depth=1, values=True)``) takes 0.7-1.7 s at a
mid-game position and 0.7-1.5 s at the first move, in every game: within the ~2 s a
student waits, and the same number of games on every machine."""
GAME_COST = 10
"""The cost of one sampled game besides its steps, in steps (see above)."""
MIN_SAMPLES = 20
"""Fewest sampled games behind one estimated value (a wider ± says so)."""
MAX_SAMPLES = 2_000
"""Most sampled games behind one estimated value (± below 0.03 for a share of the win)."""
PILOT = 8
"""Seeded games from the root that measure how long games from here last."""


class EstimateError(RuntimeError):
    """The values cannot be estimated here (e.g. the game cannot sample a world)."""


@dataclass(frozen=True)
class Estimated:
    """One estimated number: the ``mean`` of ``samples`` sampled games and its
    standard error ``stderr``.  Prints as "≈ 0.62 ± 0.04" (± = half-width of the 95%
    interval); ``interval(z)`` gives the interval for another normal quantile."""

    mean: float
    stderr: float
    samples: int

    exact = False

    def half_width(self, z: float = Z95) -> float:
        return z * self.stderr

    def interval(self, z: float = Z95) -> tuple[float, float]:
        h = self.half_width(z)
        return self.mean - h, self.mean + h

    def __float__(self):
        return float(self.mean)

    def __str__(self):
        digits = _digits(self.half_width())
        return f"≈ {number(self.mean, digits)} ± {number(self.half_width(), digits)}"

    __repr__ = __str__


def _digits(half_width: float) -> int:
    """Decimals worth printing for a number known to ± ``half_width``: two for ±0.04,
    one for ±0.4, none for ±4."""
    if half_width <= 0 or not math.isfinite(half_width):
        return 2
    return max(0, min(4, 1 - math.floor(math.log10(half_width))))


class Estimate(tuple):
    """An estimated value vector: one ``Estimated`` per player, with how many sampled
    games (``samples``) by which players (``policy``, a name for people) from whose
    view (``viewer``, a player index, ``None`` without hidden information).  Prints
    as "≈ 0.62 ± 0.04 (2,000 sampled games)"; ``exact`` is ``False``."""

    exact = False

    def __new__(cls, numbers: Sequence[Estimated], samples: int, policy: str,
                viewer: int | None = None):
        self = super().__new__(cls, numbers)
        self.samples, self.policy, self.viewer = samples, policy, viewer
        return self

    def __reduce__(self):
        return (Estimate, (tuple(self), self.samples, self.policy, self.viewer))

    @property
    def games(self) -> str:
        """ "2,000 sampled games" """
        return ngettext("{count} sampled game", "{count} sampled games", self.samples).format(
            count=count(self.samples))

    def __str__(self):
        return " : ".join(str(x) for x in self) + f" ({self.games})"

    __repr__ = __str__


# --------------------------------------------------------------------------- who looks

def viewer_of(state: State) -> int:
    """Whose knowledge the estimates use: the player to move, else (at a chance event
    or the end) the last player who moved, else Player 1."""
    cp = state.current_player()
    if cp >= 0:
        return cp
    s = state
    while s._last is not None:
        who = s._last[0]
        if who >= 0:
            return who
        s = s._prev
    return 0


def reads_hidden_information(state: State, viewer: int | None = None) -> bool:
    """Would an exact solution from ``state`` read something ``viewer`` cannot see?
    (The game has hidden information and the viewer's view is not the whole state.)"""
    if not state.game.hidden_information:
        return False
    viewer = viewer_of(state) if viewer is None else viewer
    return state.view(viewer) != state


# --------------------------------------------------------------------------- sampling

def _players(game, policy):
    """``(policies by seat, name for people)`` of ``policy``: "default" (the game's
    own players), a name from ``game.policies()``, a policy or one per seat."""
    from .play import _policies_for
    if policy is None or policy == "default":
        return list(game.default_policies()), _("the game's own players")
    pols = _policies_for(game, policy)
    if isinstance(policy, str):
        return pols, _("{name} players").format(name=repr(policy))
    if callable(policy):
        name = getattr(policy, '__name__', None)
        if name is None:
            return pols, _("the given players")
        return pols, _("{name} players").format(name=name).replace("_", " ")
    return pols, _("the given players")


class _Sampler:
    """Plays seeded games from positions, from worlds the viewer cannot tell apart
    from them, and averages the objective."""

    def __init__(self, game, objective: Callable, policy, viewer: int | None,
                 max_steps: int, open_hands: bool = False):
        self.objective = objective
        self.pols, self.policy_name = _players(game, policy)
        # open hands (the lesson's premise: every hand face up): games from the position
        # itself, no world dealt anew; the players still decide from their own views
        self.hidden = bool(game.hidden_information) and not open_hands
        self.views = bool(game.hidden_information)
        self.viewer = viewer
        self.max_steps = max_steps
        self.players = game.players

    def world(self, s: State, rng) -> State:
        if not self.hidden:
            return s
        try:
            return s.sample_world(self.viewer, rng)
        except NotImplementedError as e:
            raise EstimateError(_(
                "{game} cannot yet deal the hidden cards anew here, so no value "
                "can be estimated without reading them ({error})").format(
                    game=s.game.component_name(s.game.title), error=e)) from None

    def playout(self, s: State, rng, first=None) -> tuple[tuple, int]:
        """The objective at the end of one sampled game from ``s`` (``first``: a move
        to make first, in the sampled world), and its steps."""
        from .play import _decide
        w = self.world(s, rng)
        if first is not None:
            w = w.apply(first)
        pols, views = self.pols, self.views
        for steps in range(self.max_steps):
            cp = w.current_player()
            if cp < 0:
                if cp != CHANCE:
                    return tuple(float(x) for x in self.objective(w)), steps
                w = w.apply(w.sample_chance(rng))
            elif views:
                w = w.apply(_decide(w, cp, pols[cp], rng, True))
            else:
                w = w.apply(pols[cp](w, rng))
        raise EstimateError(_("a sampled game did not end within {count} steps").format(
            count=count(self.max_steps)))

    def estimate(self, s: State, n: int, rng, played: Sequence[tuple] = (),
                 first=None) -> Estimate:
        """``n`` sampled games from ``s`` (``played``: results already played;
        ``first``: a move made first in every sampled world)."""
        results = list(played)
        while len(results) < n:
            results.append(self.playout(s, rng, first)[0])
        numbers = []
        for i in range(len(results[0])):        # one number per value the objective gives
            xs = [r[i] for r in results]
            mean = math.fsum(xs) / len(xs)
            var = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
            numbers.append(Estimated(mean, math.sqrt(var / len(xs)), len(xs)))
        return Estimate(numbers, len(results), self.policy_name,
                        self.viewer if self.hidden else None)


def _rng(seed, index) -> random.Random:
    return random.Random(f"kingdoms/estimate/{seed}/{index}")


def _check_count(name: str, value, least: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(_("{name} must be a whole number >= {least}, not {given}").format(
            name=name, least=least, given=repr(value)))


def _sampler(state: State, objective, samples, policy, viewer, max_steps: int,
             what: str, open_hands: bool = False) -> _Sampler:
    """The arguments checked, as a ``_Sampler``."""
    from .solve import resolve_objective
    _check_count("samples", samples, 2)
    _check_count("max_steps", max_steps, 1)
    _, fn = resolve_objective(state, objective)
    if viewer is None:
        viewer = viewer_of(state)
    else:
        state._check_player(viewer, what, "viewer")
    return _Sampler(state.game, fn, policy, viewer, max_steps, open_hands)


def estimate_children(state: State, objective=None, *, samples: int | None = None,
                      seed: int = 0, policy: Any = "default", viewer: int | None = None,
                      step_budget: int = DEFAULT_STEP_BUDGET,
                      max_steps: int = 100_000, open_hands: bool = False
                      ) -> tuple[Estimate, dict]:
    """Estimated values of ``state`` and of each position one step on:
    ``(estimate of state, {action or outcome: estimate of where it leads})``.

    ``objective``: a name from ``state.game.objectives()``, a function of the end, or
    ``(name, function)`` (default the share of the win).  ``samples``: sampled games
    per position (default: as many as ``step_budget`` steps allow, measured by a
    seeded pilot, between ``MIN_SAMPLES`` and ``MAX_SAMPLES``).  ``policy``: who plays
    the sampled games ("default": the game's own players, a name from
    ``game.policies()``, a policy or one per seat).  ``viewer``: whose knowledge is
    used in a game with hidden information (default ``viewer_of(state)``).
    ``open_hands=True``: every hand is face up by the lesson's premise, so the sampled
    games start from the position itself (no world is dealt anew).  The same
    arguments give the same numbers."""
    _check_count("step_budget", step_budget, 1)
    sampler = _sampler(state, objective, samples, policy, viewer, max_steps,
                       "estimate_children", open_hands)
    if state.is_terminal():
        return sampler.estimate(state, 2, _rng(seed, "root")), {}
    cp = state.current_player()
    try:
        moves = ([o for o, _ in state.chance_outcomes()] if cp == CHANCE
                 else list(state.legal_actions()))
    except TooManyOutcomes:         # a shuffle too large to list: the root alone
        moves = []
    root_rng = _rng(seed, "root")
    pilot = [sampler.playout(state, root_rng) for _ in range(PILOT)]
    if samples is None:
        steps = GAME_COST + sum(n for _, n in pilot) / len(pilot)
        samples = int(step_budget // (steps * (1 + len(moves))))
        samples = max(MIN_SAMPLES, min(MAX_SAMPLES, samples))
    root = sampler.estimate(state, max(samples, PILOT), root_rng, [r for r, _ in pilot])
    if cp >= 0:     # a move: made in worlds sampled here (the same in all of them)
        children = {a: sampler.estimate(state, samples, _rng(seed, i), first=a)
                    for i, a in enumerate(moves)}
    else:           # an outcome of chance may exist only in the real position
        children = {a: sampler.estimate(state.apply(a), samples, _rng(seed, i))
                    for i, a in enumerate(moves)}
    return root, children


def estimate_value(state: State, objective=None, *, samples: int = 200, seed: int = 0,
                   policy: Any = "default", viewer: int | None = None,
                   max_steps: int = 100_000, open_hands: bool = False) -> Estimate:
    """The estimated value of ``state``: ``samples`` seeded sampled games (see
    ``estimate_children`` for the arguments)."""
    sampler = _sampler(state, objective, samples, policy, viewer, max_steps,
                       "estimate_value", open_hands)
    return sampler.estimate(state, samples, _rng(seed, "root"))
