"""The re-roll solver in exact integers (``solve_rerolls``), its fast choices-only form
(``keep_policy``, cached by the dice values) and the greedy bot that uses it."""
import pytest
from fractions import Fraction

from hypothesis import given, settings, strategies as st

import kingdoms
from kingdoms.horse import dice, odds
from kingdoms.horse.actions import KeepDice
from kingdoms.horse.components import components
from kingdoms.horse.strategies import TARGET_LAYOUT, greedy_policy

COMP = components()
ROLLS = tuple(odds.roll_distribution(COMP))


def reference_solve(goal, rerolls, use_mult=True):
    """The textbook Fraction recursion: V(roll, 0) = goal; V(roll, r) = max over the
    keep options (in keep_options order, first best wins) of E[V(next, r - 1)]."""
    memo = {}

    def V(roll, r):
        if (roll, r) in memo:
            return memo[(roll, r)]
        if r == 0:
            out = (Fraction(goal(roll)), None)
        else:
            best = choice = None
            for kept, keep_mult in odds.keep_options(roll):
                if len(kept) == len(roll[0]) and keep_mult is not False:
                    w = V(roll, 0)[0]
                else:
                    dist = dice.reroll(kept, keep_mult, roll[1], COMP, use_mult)
                    w = sum((p * V(nr, r - 1)[0] for nr, p in dist.items()), Fraction(0))
                if best is None or w > best:
                    best, choice = w, (kept, keep_mult)
            out = (best, choice)
        memo[(roll, r)] = out
        return out

    first = odds.roll_distribution(COMP) if use_mult else odds.king_pool(3, COMP).map(
        lambda k: (k, None))
    return first.E(lambda roll: V(roll, rerolls)[0]), memo


goal_tables = st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=7),
                       min_size=len(ROLLS), max_size=len(ROLLS))


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(goal_tables, st.integers(0, 2))
def test_solve_rerolls_equals_the_fraction_recursion(table, rerolls):
    goal = dict(zip(ROLLS, table)).__getitem__
    value, memo = reference_solve(goal, rerolls)
    pol = odds.solve_rerolls(goal, rerolls=rerolls, game=COMP)
    assert pol.value == value
    for key, v in pol.values.items():
        assert type(v) is Fraction and v == memo[key][0]
    for key, choice in pol.keep.items():
        assert choice == memo[key][1]
    # and keep_policy makes the same choices, ties included
    fast = odds.keep_policy(goal, rerolls=rerolls, game=COMP)
    for (roll, left), choice in pol.keep.items():
        assert fast(roll, left) == choice


def test_keep_policy_same_choices_as_solve_rerolls_for_the_bot_goals():
    for herd in [(0, 0, 0, 0), (4, 2, 0, 0), (3, 5, 1, 0), (7, 3, 2, 1), (1, 1, 1, 1)]:
        for fence in (0, 3):
            goal = odds.goal_sheep_value(herd, COMP, fence_value=Fraction(fence))
            pol = odds.solve_rerolls(goal, game=COMP)
            fast = odds.keep_policy(goal, game=COMP)
            assert pol.keep and all(fast(r, left) == c for (r, left), c in pol.keep.items())


def test_keep_policy_without_the_pink_die_and_for_the_cattle_goal():
    for use_mult in (True, False):
        pol = odds.solve_rerolls(odds.goal_cattle(), game=COMP, use_mult=use_mult)
        fast = odds.keep_policy(odds.goal_cattle(), game=COMP, use_mult=use_mult)
        assert all(fast(r, left) == c for (r, left), c in pol.keep.items())


def test_keep_policy_shared_by_goals_differing_by_a_constant_or_a_scale():
    base = odds.goal_sheep_value((2, 1, 0, 0), COMP, fence_value=3)
    a = odds.keep_policy(base, game=COMP)
    assert odds.keep_policy(lambda r: 2 * base(r) + 7, game=COMP) is a
    assert odds.keep_policy(lambda r: Fraction(base(r), 3) - 1, game=COMP) is a


def test_goal_sheep_value_is_the_value_of_dice_gain():
    vals = odds.sheep_values(COMP)
    for herd in [(0, 0, 0, 0), (5, 3, 1, 0), (2, 7, 4, 1)]:
        for fence in (Fraction(0), Fraction(3), Fraction(1, 2)):
            goal = odds.goal_sheep_value(herd, COMP, fence_value=fence)
            for roll in ROLLS:
                gain, fences = odds.dice_gain(roll, herd, COMP)
                want = sum(g * vals[s] for g, s in zip(gain, odds.SPECIES)) + fence * fences
                assert goal(roll) == want and type(goal(roll)) is Fraction


def test_greedy_keeps_what_solve_rerolls_says_is_optimal():
    """The greedy bot's documented re-roll rule: the optimal keep for the sheep-value
    of the dice given its herd (a fence worth 3 sheep while its layout is unfinished)."""
    checked = 0
    for players, seed in [(2, 0), (3, 1)]:
        g = kingdoms.game("horse", players=players)
        rec = kingdoms.core.play(g, [greedy_policy] * players, seed=seed)
        s, states = g.initial_state(), []
        for _, a in rec.steps:             # replay the game to visit every keep state
            if not s.is_chance() and s.phase == "keep":
                states.append(s)
            s = s.apply(a)
        for st_ in states[:12]:
            farm = st_.farms[st_.current_player()]
            fence = Fraction(3) if TARGET_LAYOUT & ~farm.fences else Fraction(0)
            pol = odds.solve_rerolls(odds.goal_sheep_value(farm.herd, g.comp, fence),
                                     game=g.comp)
            kept, keep_mult = pol(st_.dice, st_.rerolls_left)
            assert greedy_policy(st_, None) == KeepDice(kept, keep_mult)
            checked += 1
    assert checked >= 6
