"""The engine's fast paths (s13) give what the plain rules give.

* The Fortune Teller's chance node lists cached ``PeekCard`` objects with cached
  Fractions: the same outcomes with the same probabilities.
* The revealed cards go into the display by initiative, then by the tie order (seat or
  rotating), as the rule-by-rule sort key ``(initiative, _tie_rank)`` says.
* The greedy players' tie-break texts of a discard are the actions' own texts.
"""
from __future__ import annotations

import random
from importlib import resources
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.ten_characters.policies import _discard_texts
from kingdoms.ten_characters.rules import (CHARACTERS, CI, Choosing, Discard,
                                           FortuneTellerSees, PeekCard)


def _states(game, games=30, seed=0):
    """Every state of some seeded random games."""
    rng = random.Random(seed)
    for _ in range(games):
        s = game.initial_state()
        while not s.is_terminal():
            yield s
            if s.is_chance():
                s = s.apply(s.sample_chance(rng))
            else:
                la = s.legal_actions()
                s = s.apply(la[rng.randrange(len(la))])


@pytest.mark.parametrize("players", [2, 3, 5])
def test_fortune_teller_sees_one_random_card_of_the_targets_hand(players):
    game = kingdoms.game("ten_characters", players=players)
    seen = 0
    for s in _states(game):
        if not isinstance(s.step, FortuneTellerSees):
            continue
        seen += 1
        p, t = s.step.player, s.step.target
        hand = s.hands[t]
        expected = tuple((PeekCard(p, t, c), Fraction(hand.count(c), len(hand)))
                         for c in sorted(set(hand)))
        assert s.chance_outcomes() == expected
    assert seen > 0


def _reference_order(s, cards, pass_no, turn):
    ini = s.game.initiative
    return tuple(sorted(enumerate(cards),
                        key=lambda pc: (ini[CI[pc[1]]], s._tie_rank(pc[0], pass_no, turn))))


@pytest.mark.parametrize("order", ["seat", "rotating"])
def test_revealed_cards_go_in_by_initiative_then_tie_order(order, tmp_path):
    path = tmp_path / "data.toml"
    source = resources.files("kingdoms.ten_characters").joinpath("data.toml").read_text("utf-8")
    assert 'equal_cards_order = "seat"' in source
    path.write_text(source.replace('equal_cards_order = "seat"',
                                   f'equal_cards_order = "{order}"'), encoding="utf-8")
    game = kingdoms.game("ten_characters", players=4, data=str(path))
    assert game.equal_order == order
    rng = random.Random(3)
    checked = 0
    for s in _states(game, games=5):
        if isinstance(s.step, Choosing) and s.chosen[0] is None:
            for _ in range(5):
                cards = tuple(rng.choice(CHARACTERS) for _ in range(game.players))
                assert s._ordered(cards, s.pass_no, s.turn) == \
                    _reference_order(s, cards, s.pass_no, s.turn)
                checked += 1
    assert checked > 0


def test_discard_texts_are_the_actions_texts():
    for p in range(5):
        for c in CHARACTERS:
            assert _discard_texts(p)[CI[c]] == str(Discard(p, c))
