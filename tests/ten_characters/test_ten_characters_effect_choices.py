"""The players' effect choices (Knight, Mage, Jester, Fortune Teller, Unicorn discard)
equal their rule-by-rule definition.

``policies._effect_choice`` values each option from the cached value rows and a hand's
values read with one ``itemgetter`` (``policies._values_of``; a hand of one card or
none goes another way); the definition here works from ``hand_potential`` on the
display the option leaves, ties to the action whose text comes last (the first of
equal texts).
"""
from __future__ import annotations

import random
from importlib import resources

import pytest

import kingdoms
from kingdoms.core.cache import clear_caches
from kingdoms.core.play import play_state
from kingdoms.ten_characters.odds import hand_potential
from kingdoms.ten_characters.policies import _values_of, greedy_policy, hold_back_policy
from kingdoms.ten_characters.rules import (Choosing, Discard, JesterTo, KnightRemove,
                                           MageRemove)


def _reference_effect(view, p):
    """The effect option after which the best scoring cards of the hand score most."""
    g = view.game
    display = view.display_counts()
    best, best_key = None, None
    for a in view.legal_actions():
        hand, after = list(view.hands[p]), dict(display)
        if isinstance(a, Discard):
            hand.remove(a.card)
        elif isinstance(a, KnightRemove) and a.remove:
            after["dragon"] -= 1
        elif isinstance(a, MageRemove) and a.column is not None:
            after[a.column] -= 1
        elif isinstance(a, JesterTo):
            after[a.column] += 1
        key = (hand_potential(hand, after, g.scoring_cards, g.points), str(a))
        if best_key is None or key > best_key:
            best, best_key = a, key
    return best


def _game(players, scoring_cards, tmp_path):
    if scoring_cards == 2:
        return kingdoms.game("ten_characters", players=players)
    source = resources.files("kingdoms.ten_characters").joinpath("data.toml").read_text("utf-8")
    assert "\nscoring_cards = 2\n" in source
    path = tmp_path / "data.toml"
    path.write_text(source.replace("\nscoring_cards = 2\n", f"\nscoring_cards = {scoring_cards}\n"),
                    "utf-8")
    return kingdoms.game("ten_characters", players=players, data=str(path))


@pytest.mark.parametrize("players, scoring_cards", [(2, 2), (3, 2), (5, 2), (2, 1), (4, 1)])
def test_effect_choices_equal_the_rule_by_rule_definition(players, scoring_cards, tmp_path):
    g = _game(players, scoring_cards, tmp_path)
    seen = set()

    def watch(state, rng):
        p = state.current_player()
        pick = greedy_policy(state, rng)
        if not isinstance(state.step, Choosing):
            want = _reference_effect(state, p)
            assert pick == want and str(pick) == str(want)
            assert hold_back_policy(state, rng) == want
            seen.add((type(state.step).__name__, len(state.hands[p]) > 1))
        return pick

    for seed in range(4):
        clear_caches()          # with cold and warm caches alike
        play_state(g, watch, rng=random.Random(seed))
    kinds = {k for k, _ in seen}
    assert {"KnightMayRemove", "MageMayRemove", "JesterJoins", "UnicornDiscards"} <= kinds
    if scoring_cards == 1:      # one card left in hand: the other way of reading values
        assert any(not several for _, several in seen)


@pytest.mark.parametrize("hand", [[], [3], [9, 0], [1, 1, 4], [8, 2, 2, 7, 0, 5]])
def test_values_of_reads_the_hands_values(hand):
    row = (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
    assert _values_of(hand)(row) == tuple(row[i] for i in hand)
