"""Exact two-player zero-sum matrix games: the value and optimal mixed strategies.

A *matrix game*: the row player picks a row ``i``, the column player a column ``j``,
at the same time; the row player wins ``A[i][j]`` and the column player loses it.  By
von Neumann's minimax theorem there are mixed strategies ``x`` (over rows) and ``y``
(over columns) and a number ``v``, the *value*, such that ``x`` earns at least ``v``
against every column and ``y`` gives away at most ``v`` against every row.

* ``solve_zero_sum(A)`` — ``(x, y, v)`` exactly, in ``Fraction``s, by the simplex
  method on Fractions with Bland's anti-cycling rule (the LP below);
* ``verify_equilibrium(A, x, y, v)`` — checks those conditions exactly.

Why not a library: floating-point solvers (scipy, nashpy) are not exact, and sympy's
exact ``linprog`` works on sympy numbers, needs a second solve for the other player's
strategy and is 3-1000 times slower here (``kingdoms.ten_characters.odds.benchmarks``
compares the two; the tests check the values agree).  Lessons solve such games inside
exact searches (many small matrices), so the solver works on Fractions directly.

The method: shift ``A`` so every entry is at least 1 (``B = A + shift``), solve the
column player's linear program  ``max sum(q)  s.t.  B q <= 1, q >= 0``; then
``v_B = 1 / sum(q)``, ``y = q * v_B``, and the row player's ``x`` is the dual solution
(the final tableau's prices on the slack columns) times ``v_B``; ``v = v_B - shift``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from .i18n import _

__all__ = ["solve_zero_sum", "verify_equilibrium", "as_matrix"]


def as_matrix(A: Sequence[Sequence]) -> list[list[Fraction]]:
    """``A`` as a list of rows of Fractions; ``ValueError`` unless it has at least one
    row and one column and all rows are equally long (anything ``Fraction()``
    takes: ints, Fractions, decimal strings such as ``"1/3"``)."""
    try:
        rows = [list(r) for r in A]
    except TypeError:
        raise ValueError(_("a payoff matrix is a list of rows (lists of numbers)")) from None
    if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise ValueError(_("a payoff matrix needs at least one row and one column, "
                           "all rows equally long"))
    try:
        return [[Fraction(x) for x in r] for r in rows]
    except (TypeError, ValueError):
        raise ValueError(_("payoffs are numbers: ints or Fractions (a float is taken "
                           "at its exact binary value)")) from None


def _tableau(B: list[list[Fraction]]):
    """The simplex tableau of ``max sum(q)  s.t.  B q <= 1, q >= 0``: rows
    ``B | I | 1``, the objective row ``-1 ... | 0 ... | 0`` and the slack basis."""
    m, n = len(B), len(B[0])
    one, zero = Fraction(1), Fraction(0)
    T = [B[i] + [one if i == k else zero for k in range(m)] + [one] for i in range(m)]
    obj = [-one] * n + [zero] * m + [zero]
    return T, obj, [n + i for i in range(m)]


def _leaving_row(T, basis, enter: int) -> int:
    """The row of the minimum ratio test for column ``enter`` (ties: the smallest
    basic variable, Bland's rule)."""
    best = None
    for i, row in enumerate(T):
        a = row[enter]
        if a > 0:
            key = (row[-1] / a, basis[i])
            if best is None or key < best[0]:
                best = (key, i)
    if best is None:  # pragma: no cover - cannot happen: B >= 1 bounds the LP
        raise ArithmeticError("unbounded linear program")
    return best[1]


def _pivot(T, obj, r: int, enter: int):
    """Pivot the tableau on row ``r``, column ``enter``; returns the new objective row."""
    piv = T[r][enter]
    T[r] = [x / piv for x in T[r]]
    for i in range(len(T)):
        if i != r and T[i][enter] != 0:
            f = T[i][enter]
            T[i] = [a - f * b for a, b in zip(T[i], T[r])]
    f = obj[enter]
    return [a - f * b for a, b in zip(obj, T[r])]


def solve_zero_sum(A: Sequence[Sequence]) -> tuple[tuple, tuple, Fraction]:
    """``(x, y, v)``: an exact mixed equilibrium of the zero-sum matrix game ``A``.

    ``A[i][j]`` is what the row player wins (and the column player loses).  ``x``
    (one probability per row) guarantees at least ``v`` against every column; ``y``
    (one per column) concedes at most ``v`` against every row.  All are Fractions.
    """
    M = as_matrix(A)
    m, n = len(M), len(M[0])
    shift = max(Fraction(0), 1 - min(min(r) for r in M))
    T, obj, basis = _tableau([[x + shift for x in r] for r in M])
    while True:
        enter = next((j for j in range(n + m) if obj[j] < 0), None)
        if enter is None:
            break
        r = _leaving_row(T, basis, enter)
        obj = _pivot(T, obj, r, enter)
        basis[r] = enter
    q = [Fraction(0)] * n
    for i, b in enumerate(basis):
        if b < n:
            q[b] = T[i][-1]
    value_b = 1 / obj[-1]               # obj[-1] = sum(q) = 1 / value of B
    x = tuple(p * value_b for p in obj[n:n + m])     # dual prices: the row player's LP
    y = tuple(qj * value_b for qj in q)
    return x, y, value_b - shift


def verify_equilibrium(A: Sequence[Sequence], x: Sequence, y: Sequence, v) -> bool:
    """True iff ``(x, y)`` is a mixed equilibrium of the zero-sum game ``A`` with value
    ``v``, checked exactly: both are probability vectors of the right length, ``x``
    earns at least ``v`` against every column and ``y`` gives away at most ``v``
    against every row."""
    M = [list(r) for r in A]
    if not M or len(x) != len(M) or len(y) != len(M[0]):
        return False
    if any(p < 0 for p in x) or any(p < 0 for p in y) or sum(x) != 1 or sum(y) != 1:
        return False
    m, n = len(M), len(M[0])
    cols_ok = all(sum(x[i] * M[i][j] for i in range(m)) >= v for j in range(n))
    rows_ok = all(sum(M[i][j] * y[j] for j in range(n)) <= v for i in range(m))
    return cols_ok and rows_ok
