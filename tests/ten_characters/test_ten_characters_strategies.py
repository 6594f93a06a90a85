"""The simple strategies play legal moves and look only at their own view."""
from __future__ import annotations

import dataclasses

import pytest

import kingdoms
from kingdoms.core.play import game_rng, play_state
from kingdoms.ten_characters.policies import STRATEGIES, greedy_policy, hold_back_policy


@pytest.mark.parametrize("players", [2, 4])
def test_strategies_finish_games(players):
    g = kingdoms.game("ten_characters", players=players)
    pols = [STRATEGIES[k] for k in ("greedy", "hold back", "random", "greedy", "hold back")][:players]
    end = play_state(g, pols, rng=game_rng("strategies", players))
    assert end.is_terminal() and end.card_count() == 100


def test_strategies_ignore_hidden_cards():
    g = kingdoms.game("ten_characters", players=2)
    a = g.position([["dragon", "king", "noble", "farmer"], ["queen"] * 4], {"king": 1})
    b = dataclasses.replace(a, hands=(a.hands[0], ("mage",) * 4))   # other hidden hand
    for pol in (greedy_policy, hold_back_policy):
        assert pol(a, None) == pol(b, None)


def test_greedy_keeps_the_dragons_it_holds():
    g = kingdoms.game("ten_characters", players=2)
    s = g.position([["dragon", "dragon", "farmer"], ["queen"] * 3], {"dragon": 3})
    assert greedy_policy(s, None).card == "farmer"


def test_the_former_module_name_still_gives_the_same_players():
    """``strategies`` (the notebooks' import) is ``policies`` under its former name."""
    from kingdoms.ten_characters import policies, strategies
    assert strategies.STRATEGIES is policies.STRATEGIES
    assert (strategies.greedy_policy, strategies.hold_back_policy, strategies.random_policy) \
        == (policies.greedy_policy, policies.hold_back_policy, policies.random_policy)
