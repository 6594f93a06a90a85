"""Exact expectimax for small subgames.

At a chance node the value is the probability-weighted average of the outcomes'
values; at a decision node the player to move picks the action that maximises *their
own* component of the value vector (for one player this is the optimal policy; for
two players with win shares it is expectiminimax).  Values are tuples of Fractions,
one per player.  States are memoised (they are hashable), so transpositions are
solved once.

What is maximised is the *objective*: a function of a finished (or, with ``depth``,
a horizon) state giving one value per player.  Games name the objectives they offer
in ``Game.objectives()`` (default ``{"share of the win": returns}``); pass
``objective="points margin"`` (a name), a function, or ``(name, function)``.  The
``Solution`` keeps the objective's name, so what is printed can say what "best" means.

The search refuses quickly rather than running for hours: it first estimates the size
of the tree by a few random walks (Knuth's estimator) and refuses trees that are
clearly far beyond ``max_states``; it refuses chance events with more outcomes than
the budget; and it counts every new state as it enters it, stopping with
``TreeTooLarge`` beyond ``max_states``.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from .i18n import N_, _
from .protocol import CHANCE, TERMINAL, State, TooManyOutcomes
from .text import count as _count, localize

__all__ = ["expectimax", "Solution", "TreeTooLarge", "resolve_objective",
           "estimate_tree_size", "DEFAULT_OBJECTIVE"]

DEFAULT_OBJECTIVE = N_("share of the win")

# A tree whose estimated size exceeds the budget by this factor is refused before the
# search starts.  The estimate counts routes, not distinct positions (transpositions
# merge many routes), so the margin is wide.
_ESTIMATE_MARGIN = 1_000


class TreeTooLarge(RuntimeError):
    """The game tree from this state is too large to solve within the budget.

    ``limit`` is the budget (``max_states``); ``outcomes`` is set when a single chance
    event has too many outcomes; ``estimate`` when the tree was refused on its
    estimated size.  The message is a sentence for a student."""

    def __init__(self, message: str, limit: int | None = None, outcomes: int | None = None,
                 estimate: float | None = None):
        super().__init__(message)
        self.limit = limit
        self.outcomes = outcomes
        self.estimate = estimate


def _default_value(s: State):
    return s.returns()


def objective_text(name: str) -> str:
    """An objective's name for people in the current language: its translation where
    the catalog has it (the games mark their objective names), "<name> margin" (see
    ``kingdoms.core.scoring.with_margins``) built from its measure's; else the name."""
    if not isinstance(name, str) or not name:
        return name
    if name.endswith(" margin") and len(name) > 7:
        return _("{measure} margin").format(measure=objective_text(name[:-7]))
    return _(name)


def resolve_objective(state: State, objective=None, value: Callable | None = None
                      ) -> tuple[str, Callable[[State], tuple]]:
    """``(name, function)`` of an objective given as a name from
    ``state.game.objectives()``, a function, a ``(name, function)`` pair or ``None``
    (``value`` if given, else the share of the win)."""
    if objective is None and value is not None:
        objective = value
    if objective is None:
        objective = DEFAULT_OBJECTIVE
    if isinstance(objective, tuple) and len(objective) == 2 and isinstance(objective[0], str) \
            and callable(objective[1]):
        return objective
    offered = _objectives_of(state)
    if isinstance(objective, str):
        if objective in offered:
            return objective, offered[objective]
        if objective == DEFAULT_OBJECTIVE:
            return objective, _default_value
        raise ValueError(_("{game} offers the objectives {names}; not {given}").format(
            game=state.game.title, names=", ".join(repr(k) for k in offered),
            given=repr(objective)))
    if callable(objective):
        for name, fn in offered.items():       # a game's own function: use its name
            if fn is objective:
                return name, fn
        name = getattr(objective, "objective_name", None) or (
            objective.__name__.replace("_", " ")
            if getattr(objective, "__name__", "<lambda>") != "<lambda>" else None)
        if not name:        # a value shown to people is named in the lesson's words
            raise ValueError(_("name what the values measure, in the lesson's words: "
                               "objective=(\"net gold\", function) or a def with that name; "
                               "the objectives {game} names are {names}").format(
                                   game=state.game.title,
                                   names=", ".join(repr(k) for k in offered)))
        return name, objective
    raise TypeError(_("objective is a name, a function of a state, or (name, function)"))


def _objectives_of(state: State) -> dict:
    try:
        offered = dict(state.game.objectives())
    except Exception:        # a game's hook failing must not hide the default
        offered = {}
    offered.setdefault(DEFAULT_OBJECTIVE, _default_value)
    return offered


@dataclass
class Solution:
    """The exact value of a state and the best action there (``None`` at chance or
    terminal states).  ``values`` maps every solved state to its value vector,
    ``best`` maps decision states to a best action (the first of any tied ones;
    ``best_actions(state)`` lists them all).  ``objective`` names what the values
    measure (e.g. "share of the win")."""

    state: State
    value: tuple
    action: Any
    values: dict = field(repr=False)
    best: dict = field(repr=False)
    objective: str = DEFAULT_OBJECTIVE

    @property
    def states(self) -> int:
        return len(self.values)

    def policy(self, state: State, rng=None):
        """The solved best action at ``state`` (usable as a policy)."""
        return self.best[state]

    def action_values(self, state: State | None = None) -> dict:
        """Every legal action at ``state`` with the value of the state it leads to."""
        state = self.state if state is None else state
        return {a: self.values[state.apply(a)] for a in state.legal_actions()}

    def best_actions(self, state: State | None = None) -> list:
        """Every action at decision ``state`` whose value (for the player to move) is
        the best: more than one when moves tie."""
        state = self.state if state is None else state
        cp = state.current_player()
        if cp < 0:
            return []
        av = self.action_values(state)
        top = max(v[cp] for v in av.values())
        return [a for a, v in av.items() if v[cp] == top]

    def is_tie(self, state: State | None = None) -> bool:
        return len(self.best_actions(state)) > 1


def estimate_tree_size(state: State, probes: int = 12, depth: int | None = None,
                       cap: float = float("inf"), seed: int = 0) -> float:
    """Knuth's estimate of the number of nodes (routes, not distinct positions) in the
    tree below ``state``: random walks multiply the branching factors.  Returns the
    smallest of ``probes`` estimates (conservative), stopping early above ``cap``."""
    rng = random.Random(seed)
    smallest = float("inf")
    for _probe in range(probes):
        s, width, total, d = state, 1.0, 1.0, 0
        while total <= cap and (depth is None or d < depth):
            cp = s.current_player()
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                try:
                    options = [o for o, _ in s.chance_outcomes()]
                except TooManyOutcomes as e:
                    width *= e.count
                    total += width
                    break
            else:
                options = list(s.legal_actions())
            if not options:
                break
            width *= len(options)
            total += width
            s = s.apply(rng.choice(options))
            d += 1
        smallest = min(smallest, total)
        if smallest <= cap:     # one walk within the cap: the tree may be small
            break
    return smallest


def expectimax(state: State, value: Callable[[State], tuple] | None = None,
               max_states: int = 200_000, depth: int | None = None,
               horizon_value: Callable[[State], tuple] | None = None,
               objective=None) -> Solution:
    """Solve ``state`` exactly.

    ``objective``: what each player maximises, a name from
    ``state.game.objectives()``, a function ``f(finished_state) -> per-player values``
    or ``(name, f)``; default the share of the win (``returns()``).  ``value`` is the
    older name for a function objective.  With ``depth`` the search stops after that
    many steps and scores the frontier with ``horizon_value`` (required then).
    Raises ``TreeTooLarge`` beyond ``max_states`` distinct states (quickly: a tree
    estimated far beyond the budget is refused before the search).
    """
    name, value = resolve_objective(state, objective, value)
    if depth is not None and horizon_value is None:
        raise ValueError(_("a depth-limited search needs horizon_value(state)"))
    if not isinstance(max_states, int) or max_states < 1:
        raise ValueError(_("max_states is a positive whole number, not {given}").format(
            given=repr(max_states)))
    _refuse_a_tree_far_too_large(state, depth, max_states)
    solver = _Expectimax(value, horizon_value, max_states)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        v = solver.solve(state, depth)
    finally:
        sys.setrecursionlimit(limit)
    values, best = solver.values, solver.best
    if depth is not None:   # expose values keyed by state for the root's children
        values = {**{k[0]: val for k, val in values.items()}, **values}
        best = {**{k[0]: a for k, a in best.items()}, **best}
    return Solution(state, v, best.get(state), values, best, name)


def _refuse_a_tree_far_too_large(state: State, depth: int | None, max_states: int) -> None:
    """Refuse quickly, before searching, a tree estimated far beyond the budget."""
    cap = float(max_states) * _ESTIMATE_MARGIN
    estimate = estimate_tree_size(state, depth=depth, cap=cap)
    if estimate > cap:
        raise TreeTooLarge(_(
            "The game can go on in more than {ways} different ways from here, "
            "far beyond the {count} positions this solver works through: too "
            "many to solve exactly. Start nearer the end of the game, where fewer moves "
            "are left, or ask a smaller question.").format(ways=_words(cap),
                                                            count=_count(max_states)),
            limit=max_states, estimate=estimate)


class _Expectimax:
    """The memoised search behind ``expectimax``: ``values`` and ``best`` are keyed by
    state (by ``(state, depth left)`` in a depth-limited search)."""

    def __init__(self, value, horizon_value, max_states: int):
        self.value, self.horizon_value, self.max_states = value, horizon_value, max_states
        self.values: dict = {}
        self.best: dict = {}
        self.entered = 0

    def solve(self, s: State, d: int | None) -> tuple:
        key = s if d is None else (s, d)
        v = self.values.get(key)
        if v is not None:
            return v
        self.entered += 1       # count a state when it is entered, not when solved
        if self.entered > self.max_states:
            raise TreeTooLarge(_(
                "There are more than {count} positions to work through from "
                "here: too many to solve exactly. Start nearer the end of the game, where "
                "fewer moves are left, or ask a smaller question.").format(
                    count=_count(self.max_states)), limit=self.max_states)
        cp = s.current_player()
        if cp == TERMINAL:
            v = tuple(Fraction(x) for x in self.value(s))
        elif d == 0:
            v = tuple(Fraction(x) for x in self.horizon_value(s))
        elif cp == CHANCE:
            v = self._chance(s, d)
        else:
            v = self._decision(s, d, cp, key)
        self.values[key] = v
        return v

    def _chance(self, s: State, d: int | None) -> tuple:
        try:
            outcomes = s.chance_outcomes()
        except TooManyOutcomes as e:
            raise TreeTooLarge(_chance_too_large(e.count), limit=self.max_states,
                               outcomes=e.count) from None
        if len(outcomes) > self.max_states - self.entered:
            raise TreeTooLarge(_chance_too_large(len(outcomes)), limit=self.max_states,
                               outcomes=len(outcomes))
        acc = None
        for o, p in outcomes:
            child = self.solve(s.apply(o), None if d is None else d - 1)
            acc = [p * x for x in child] if acc is None else [a + p * x for a, x in zip(acc, child)]
        return tuple(acc)

    def _decision(self, s: State, d: int | None, cp: int, key) -> tuple:
        bv = None
        for a in s.legal_actions():
            child = self.solve(s.apply(a), None if d is None else d - 1)
            if bv is None or child[cp] > bv[cp]:
                bv, self.best[key] = child, a
        return bv


def _chance_too_large(count: int) -> str:
    return _("The next chance event (a shuffle, deal or roll) has {count} possible "
             "outcomes: too many to work through one by one. Let chance decide first "
             "(roll or deal), then solve from there.").format(count=_count(count))


def _words(x: float) -> str:
    """A large number in words: 200 million, 3 billion."""
    for size, word in ((1e12, N_("{count} trillion")), (1e9, N_("{count} billion")),
                       (1e6, N_("{count} million"))):
        if x >= size:
            return _(word).format(count=localize(f"{x / size:,.0f}"))
    return _count(int(x))


# --------------------------------------------------------------------------- outcome distributions

def uniform_model(state: State) -> tuple:
    """The stochastic policy "every legal action equally likely":
    ``((action, Fraction), ...)``."""
    actions = state.legal_actions()
    p = Fraction(1, len(actions))
    return tuple((a, p) for a in actions)


def outcome_distribution(state: State, policies=None, outcome: Callable | None = None, *,
                         stop: Callable[[State], bool] | None = None,
                         max_states: int = 200_000):
    """The exact ``Distribution`` of ``outcome(end)`` over the ends of play from
    ``state`` when every decision follows a stated *stochastic policy* and every
    chance event its exact probabilities.

    ``policies``: ``None`` (every legal action equally likely, ``uniform_model``), one
    stochastic policy for every seat, or a sequence with one per player.  A
    stochastic policy is ``model(state) -> ((action, Fraction), ...)``: the legal
    actions it may take, with probabilities summing to 1 (a policy
    ``policy(state, rng)`` that draws one action has no exact probabilities: state
    its model instead).  ``outcome``: a function of the end state (default
    ``returns()``); ``stop(state)``: where play ends (default: the game's end; a game
    passes e.g. "the round is over").  States are memoised, so transpositions are
    played once.  Raises ``TreeTooLarge`` beyond ``max_states`` distinct states or at
    a chance event too large to list."""
    if not isinstance(max_states, int) or max_states < 1:
        raise ValueError(_("max_states is a positive whole number, not {given}").format(
            given=repr(max_states)))
    if policies is None or callable(policies):
        model_of = (lambda _cp, m=policies or uniform_model: m)
    else:
        seats = tuple(policies)
        if len(seats) != state.game.players or not all(map(callable, seats)):
            raise ValueError(_("policies: one stochastic policy per player "
                               "({players}), or one for every seat").format(
                                   players=state.game.players))
        model_of = seats.__getitem__
    ends = stop if stop is not None else State.is_terminal
    value = outcome if outcome is not None else State.returns
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return _OutcomeWalk(model_of, ends, value, max_states).distribution(state)
    finally:
        sys.setrecursionlimit(limit)


class _OutcomeWalk:
    """The memoised walk behind ``outcome_distribution``: ``memo[state]`` is the
    ``{outcome: Fraction}`` of the ends below ``state``."""

    def __init__(self, model_of, ends, value, max_states: int):
        self.model_of, self.ends, self.value = model_of, ends, value
        self.max_states = max_states
        self.memo: dict = {}

    def distribution(self, state: State):
        from .distribution import Distribution
        return Distribution(self.go(state))

    def go(self, s: State) -> dict:
        r = self.memo.get(s)
        if r is not None:
            return r
        if len(self.memo) >= self.max_states:
            raise TreeTooLarge(_(
                "There are more than {count} positions to work through from "
                "here: too many to count exactly. Start nearer the end, or simulate.").format(
                    count=_count(self.max_states)), limit=self.max_states)
        if self.ends(s):
            r = {self.value(s): Fraction(1)}
        else:
            r = {}
            for a, p in self._pairs(s):
                for o, q in self.go(s.apply(a)).items():
                    r[o] = r.get(o, 0) + p * q
        self.memo[s] = r
        return r

    def _pairs(self, s: State):
        cp = s.current_player()
        if cp == CHANCE:
            try:
                return s.chance_outcomes()
            except TooManyOutcomes as e:
                raise TreeTooLarge(_chance_too_large(e.count), limit=self.max_states,
                                   outcomes=e.count) from None
        if cp == TERMINAL:
            raise ValueError(_("play reached the end of the game before stop(state) held"))
        pairs = tuple(self.model_of(cp)(s))
        if sum(p for _, p in pairs) != 1:
            raise ValueError(_("the stochastic policy of {player} gives "
                               "probabilities that do not add up to 1").format(
                                   player=s.game.player_name(cp)))
        return pairs
