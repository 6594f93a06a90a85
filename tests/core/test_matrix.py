"""The exact zero-sum matrix-game solver (kingdoms.core.matrix): textbook games with
known solutions, the value checked against the strategies, random matrices against
the equilibrium conditions and against sympy's exact linear programming."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from kingdoms.core.matrix import as_matrix, solve_zero_sum, verify_equilibrium

F = Fraction


def guaranteed(A, x):
    """What the row mix ``x`` earns against the column player's best reply."""
    return min(sum(x[i] * A[i][j] for i in range(len(A))) for j in range(len(A[0])))


def conceded(A, y):
    """What the column mix ``y`` gives away against the row player's best reply."""
    return max(sum(A[i][j] * y[j] for j in range(len(A[0]))) for i in range(len(A)))


def check(A, x, y, v):
    """The definition of the value: x guarantees v, y concedes v, both are mixes."""
    assert all(isinstance(p, Fraction) for p in x + y) and isinstance(v, Fraction)
    assert sum(x) == 1 and sum(y) == 1 and min(x) >= 0 and min(y) >= 0
    assert guaranteed(A, x) == v == conceded(A, y)
    assert verify_equilibrium(A, x, y, v)


def test_matching_pennies():
    A = [[1, -1], [-1, 1]]
    x, y, v = solve_zero_sum(A)
    assert x == y == (F(1, 2), F(1, 2)) and v == 0
    check(A, x, y, v)
    assert not verify_equilibrium(A, (1, 0), (F(1, 2), F(1, 2)), 0)


def test_rock_paper_scissors():
    A = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    x, y, v = solve_zero_sum(A)
    assert x == y == (F(1, 3),) * 3 and v == 0
    check(A, x, y, v)


def test_a_two_by_two_by_hand():
    # row mixes p: 3p - 2(1-p) = -p + 4(1-p)  =>  p = 3/5, value 1
    A = [[3, -1], [-2, 4]]
    x, y, v = solve_zero_sum(A)
    assert x == (F(3, 5), F(2, 5)) and y == (F(1, 2), F(1, 2)) and v == 1
    check(A, x, y, v)


def test_dominated_strategies_get_probability_zero():
    # row 3 is dominated by row 1, column 3 by column 1; what remains is the 2x2 above
    A = [[3, -1, 4], [-2, 4, 5], [1, -2, 2]]
    x, y, v = solve_zero_sum(A)
    assert x == (F(3, 5), F(2, 5), 0) and y == (F(1, 2), F(1, 2), 0) and v == 1
    check(A, x, y, v)


def test_saddle_point():
    A = [[4, 5, 6], [1, 9, 0], [3, 2, 1]]
    x, y, v = solve_zero_sum(A)
    assert v == 4 and x == (1, 0, 0) and y == (1, 0, 0)
    check(A, x, y, v)


def test_a_non_square_game_two_by_four():
    # row 1 with p: columns give 4-2p, 1+2p, 6-5p, 5p; the lower envelope peaks where
    # 1+2p = 6-5p, p = 5/7, value 17/7; the column player mixes columns 2 and 3 (5/7, 2/7)
    A = [[2, 3, 1, 5], [4, 1, 6, 0]]
    x, y, v = solve_zero_sum(A)
    assert x == (F(5, 7), F(2, 7)) and y == (0, F(5, 7), F(2, 7), 0) and v == F(17, 7)
    check(A, x, y, v)
    # the transposed game with the roles swapped: value -17/7, strategies swapped
    B = [[-A[i][j] for i in range(2)] for j in range(4)]
    xb, yb, vb = solve_zero_sum(B)
    assert vb == -v and xb == y and yb == x
    check(B, xb, yb, vb)


def test_one_row_and_one_column():
    assert solve_zero_sum([[F(7, 3)]]) == ((1,), (1,), F(7, 3))
    x, y, v = solve_zero_sum([[5, -2, 3]])          # one row: the column player's min
    assert v == -2 and x == (1,) and y == (0, 1, 0)
    x, y, v = solve_zero_sum([[5], [-2], [3]])      # one column: the row player's max
    assert v == 5 and x == (1, 0, 0) and y == (1,)


def test_adding_a_constant_adds_it_to_the_value():
    A = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    for c in (F(-50), F(1, 3), F(100)):
        x, y, v = solve_zero_sum([[a + c for a in r] for r in A])
        assert v == c and x == y == (F(1, 3),) * 3


def test_not_an_equilibrium_is_rejected():
    A = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    third = (F(1, 3),) * 3
    assert not verify_equilibrium(A, (F(1, 2), F(1, 2), 0), third, 0)   # exploitable
    assert not verify_equilibrium(A, third, third, F(1, 10))              # wrong value
    assert not verify_equilibrium(A, third, (F(1, 2), F(1, 2)), 0)        # wrong length
    assert not verify_equilibrium(A, (F(1, 2), F(1, 2), F(1, 2)), third, 0)  # not a mix
    assert not verify_equilibrium(A, (F(2), F(-1), 0), third, 0)           # negative


def test_bad_matrices_are_refused_with_a_clear_error():
    for bad in ([], [[]], [[1, 2], [3]], 5, [[1, "x"]]):
        with pytest.raises(ValueError):
            solve_zero_sum(bad)
    assert as_matrix([[1, "1/3"]]) == [[F(1), F(1, 3)]]


matrices = st.integers(1, 5).flatmap(lambda m: st.integers(1, 5).flatmap(
    lambda n: st.lists(st.lists(st.fractions(min_value=-20, max_value=20, max_denominator=6),
                                min_size=n, max_size=n), min_size=m, max_size=m)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True)
@given(A=matrices)
def test_random_matrices_satisfy_the_equilibrium_conditions_exactly(A):
    x, y, v = solve_zero_sum(A)
    check(A, x, y, v)


@pytest.mark.slow
def test_value_and_strategies_agree_with_sympy_linear_programming():
    """sympy's exact ``linprog`` solves each player's LP on its own: the same value;
    our strategies are optimal in its LPs."""
    from sympy import Matrix, Rational
    from sympy.solvers.simplex import linprog
    rng = random.Random(5)
    for _ in range(10):
        m, n = rng.randint(2, 5), rng.randint(2, 5)
        A = [[rng.randint(-6, 6) for _ in range(n)] for _ in range(m)]
        B = Matrix([[a + 10 for a in r] for r in A])        # every entry positive
        # column player: max sum(q) s.t. B q <= 1  => value of B = 1 / sum(q)
        best_q, _ = linprog(-Matrix([1] * n), B, Matrix([1] * m))
        # row player: min sum(p) s.t. B^T p >= 1  => value of B = 1 / sum(p)
        best_p, _ = linprog(Matrix([1] * m), -B.T, -Matrix([1] * n))
        x, y, v = solve_zero_sum(A)
        ours = Rational(v.numerator, v.denominator)
        assert 1 / -best_q - 10 == ours == 1 / best_p - 10
        check(A, x, y, v)
