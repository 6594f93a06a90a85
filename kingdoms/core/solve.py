"""Exact expectimax for small subgames.

At a chance node the value is the probability-weighted average of the outcomes'
values; at a decision node the player to move picks the action that maximises *their
own* component of the value vector (for one player this is the optimal policy; for
two players with win shares it is expectiminimax).  Values are tuples of Fractions,
one per player.  States are memoised (they are hashable), so transpositions are
solved once.

The search counts distinct states and stops with ``TreeTooLarge`` beyond
``max_states`` rather than running for hours; raise the bound knowingly.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from .protocol import CHANCE, TERMINAL, State, TooManyOutcomes

__all__ = ["expectimax", "Solution", "TreeTooLarge"]


class TreeTooLarge(RuntimeError):
    """The game tree from this state has more states than the bound allows."""


@dataclass
class Solution:
    """The exact value of a state and the best action there (``None`` at chance or
    terminal states).  ``values`` maps every solved state to its value vector,
    ``best`` maps decision states to their best action."""

    state: State
    value: tuple
    action: Any
    values: dict = field(repr=False)
    best: dict = field(repr=False)

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


def expectimax(state: State, value: Callable[[State], tuple] | None = None,
               max_states: int = 200_000, depth: int | None = None,
               horizon_value: Callable[[State], tuple] | None = None) -> Solution:
    """Solve ``state`` exactly.

    ``value(terminal_state)`` gives the value vector at the end (default:
    ``returns()``, the win shares).  With ``depth`` the search stops after that many
    steps and scores the frontier with ``horizon_value`` (required then).
    Raises ``TreeTooLarge`` beyond ``max_states`` distinct states.
    """
    value = value or (lambda s: s.returns())
    if depth is not None and horizon_value is None:
        raise ValueError("a depth-limited search needs horizon_value(state)")
    values: dict = {}
    best: dict = {}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))

    def solve(s: State, d: int | None) -> tuple:
        key = s if d is None else (s, d)
        v = values.get(key)
        if v is not None:
            return v
        if len(values) >= max_states:
            raise TreeTooLarge(
                f"more than {max_states} states from here; pass a larger max_states "
                f"(or a smaller subgame) to solve it")
        cp = s.current_player()
        if cp == TERMINAL:
            v = tuple(Fraction(x) for x in value(s))
        elif d == 0:
            v = tuple(Fraction(x) for x in horizon_value(s))
        elif cp == CHANCE:
            try:
                outcomes = s.chance_outcomes()
            except TooManyOutcomes as e:
                raise TreeTooLarge(f"a chance node with {e.count} outcomes: {e}") from None
            acc = None
            for o, p in outcomes:
                child = solve(s.apply(o), None if d is None else d - 1)
                acc = [p * x for x in child] if acc is None else [a + p * x for a, x in zip(acc, child)]
            v = tuple(acc)
        else:
            bv = None
            for a in s.legal_actions():
                child = solve(s.apply(a), None if d is None else d - 1)
                if bv is None or child[cp] > bv[cp]:
                    bv, best[key] = child, a
            v = bv
        values[key] = v
        return v

    try:
        v = solve(state, depth)
    finally:
        sys.setrecursionlimit(limit)
    if depth is not None:   # expose values keyed by state for the root's children
        values = {**{k[0]: val for k, val in values.items()}, **values}
        best = {**{k[0]: a for k, a in best.items()}, **best}
    return Solution(state, v, best.get(state), values, best)
