"""The fast paths give the same numbers and the same decisions as the plain rules.

The players value displays with ``scoring.best_case_row`` (numbers only, cached on the
public display) instead of ``card_values`` (``_score_card`` with its reasons): the two
must agree everywhere, and the greedy and hold-back players must pick exactly what the
rule-by-rule definition (``card_values`` / ``hand_potential``) picks.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kingdoms
from kingdoms.core.cache import clear_caches
from kingdoms.core.play import play_state
from kingdoms.ten_characters.odds import (best_without, card_values, display_rows, hand_potential,
                                          value_row)
from kingdoms.ten_characters.policies import greedy_policy, hold_back_policy
from kingdoms.ten_characters.rules import COLUMNS, Choosing
from kingdoms.ten_characters.scoring import (CHARACTERS, DEFAULT_POINTS, best_case_row,
                                             best_case_rows_after, pass_totals, score_pass)

counts9 = st.tuples(*[st.integers(0, 14)] * len(COLUMNS))
points10 = st.tuples(*[st.integers(0, 50)] * len(CHARACTERS))


@settings(max_examples=400, deadline=None)
@given(counts9, points10)
def test_best_case_row_agrees_with_card_values(counts, points):
    values = card_values(dict(zip(COLUMNS, counts)), dict(zip(CHARACTERS, points)))
    assert best_case_row(counts, points) == tuple(values[c] for c in CHARACTERS)
    assert value_row(counts, points) == best_case_row(counts, points)


@settings(max_examples=100, deadline=None)
@given(counts9)
def test_display_rows_are_the_rows_one_card_later(counts):
    pts = tuple(DEFAULT_POINTS[c] for c in CHARACTERS)
    now, rows = display_rows(counts, pts)
    assert now == best_case_row(counts, pts)
    for i, c in enumerate(COLUMNS):
        later = card_values({**dict(zip(COLUMNS, counts)), c: counts[i] + 1})
        assert rows[i] == tuple(later[x] for x in CHARACTERS)


@settings(max_examples=400, deadline=None)
@given(counts9, st.tuples(*[st.integers(-5, 50)] * len(CHARACTERS)))
def test_rows_one_card_later_are_best_case_rows_of_the_longer_column(counts, points):
    now = best_case_row(counts, points)
    later = best_case_rows_after(counts, points, now)
    assert later == tuple(best_case_row(counts[:i] + (k + 1,) + counts[i + 1:], points)
                          for i, k in enumerate(counts))


@settings(max_examples=400, deadline=None)
@given(counts9, points10,
       st.lists(st.lists(st.sampled_from(CHARACTERS), max_size=3), min_size=2, max_size=5))
def test_pass_totals_are_the_score_sheets_totals(counts, points, cards):
    cards = tuple(map(tuple, cards))
    sheet = score_pass(dict(zip(COLUMNS, counts)), cards, dict(zip(CHARACTERS, points)))
    assert pass_totals(counts, cards, points) == sheet.totals


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(-20, 60), min_size=1, max_size=10), st.data(),
       st.integers(1, 5))
def test_best_without_is_the_best_of_the_hand_less_that_card(values, data, keep):
    v = data.draw(st.sampled_from(values))
    rest = list(values)
    rest.remove(v)
    want = sum(sorted(rest, reverse=True)[:keep])
    assert best_without(sorted(values, reverse=True), v, keep) == want


def _reference_greedy(view, p):
    """The greedy choice of a card, rule by rule (``card_values``/``hand_potential``)."""
    g = view.game
    disp = view.display_counts()
    now = card_values(disp, g.points)
    best, best_key = None, None
    for a in view.legal_actions():
        h = list(view.hands[p])
        h.remove(a.card)
        if a.card == "jester":
            options = [c for c in COLUMNS if disp[c]]
            val = max((hand_potential(h, {**disp, c: disp[c] + 1}, g.scoring_cards, g.points)
                       for c in options), default=hand_potential(h, disp, g.scoring_cards, g.points))
        else:
            val = hand_potential(h, {**disp, a.card: disp[a.card] + 1}, g.scoring_cards, g.points)
        key = (val, -now[a.card], a.card)
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


@pytest.mark.parametrize("players", [2, 3, 5])
def test_players_choose_as_the_rule_by_rule_definition(players):
    g = kingdoms.game("ten_characters", players=players)
    checked = 0

    def watch(state, rng):
        nonlocal checked
        p = state.current_player()
        pick = greedy_policy(state, rng)
        if isinstance(state.step, Choosing):
            assert pick == _reference_greedy(state, p)
            vals = card_values(state.display_counts(), g.points)
            assert hold_back_policy(state, rng) == min(
                state.legal_actions(), key=lambda a: (vals[a.card], a.card))
            checked += 1
        return pick

    for seed in range(3):
        clear_caches()          # with cold and warm caches alike
        play_state(g, watch, rng=random.Random(seed))
    assert checked > 0


def test_a_view_of_another_player_lists_no_hand_actions():
    g = kingdoms.game("ten_characters", players=3)
    s = g.initial_state()
    rng = random.Random(0)
    while s.is_chance():
        s = s.apply(s.sample_chance(rng))
    p = s.current_player()
    other = (p + 1) % 3
    assert s.view(other).legal_actions() == ()
    assert s.view(p).legal_actions() == s.legal_actions()
