"""King of the Woods in German (issue 31): odds outputs, an illegal move's reason,
the decisions and names read German; English stays as it was."""
from __future__ import annotations

import pytest

import kingdoms
from kingdoms.core.i18n import using
from kingdoms.core.protocol import IllegalAction
from kingdoms.woods import odds

from german import german_scan


def _position(game):
    return game.position(hands=[("Fool", "Fool", "Knight"), ("Guard", "Trader"), ("Priest",)],
                         courts=[("Fool",), (), ("Scholar",)])


def test_german_odds_outputs_read_german():
    game = kingdoms.game("woods", players=3, language="de")
    state = _position(game)
    with using("de"):
        dist = odds.fool_distribution(state, 0)
        texts = [odds.place_name(state, place) for place in dist]
        texts += list(odds.danger_and_rescue(odds.fool_outcome(state, 0)))
        texts += [str(dist[1]), game.setup_summary()]
        decisions = list(kingdoms.woods.DECISIONS) + list(kingdoms.woods.OPTIONS.values())
    german_scan(texts, "woods odds")
    # (the decisions quote option values such as 'nobody' and use "also", a German
    # word too, so they are checked as translated, not scanned)
    english = list(kingdoms.woods.DECISIONS) + list(kingdoms.woods.OPTIONS.values())
    assert len(decisions) == len(english) and not set(decisions) & set(english)
    assert any("Prinzessin" in d for d in decisions)
    assert "beiseitegelegt" in texts
    assert any(t.startswith("Gefahr") for t in texts)


def test_an_illegal_move_says_why_in_german():
    game = kingdoms.game("woods", players=3, language="de")
    state = _position(game)
    with using("de"), pytest.raises(IllegalAction) as err:
        state.apply(kingdoms.woods.Play("Princess", 0))
    # the reason after the core's "<player> ...:" (the core's own words are its helper's)
    german_scan([str(err.value).partition(": ")[2]], "woods illegal move")
    assert "Prinzessin" in str(err.value)
    # a game in German says it in German even in an English kernel; an English game in English
    with pytest.raises(IllegalAction) as german:
        state.apply(kingdoms.woods.Play("Princess", 0))
    assert "Prinzessin" in str(german.value)
    with pytest.raises(IllegalAction) as english:
        _position(kingdoms.game("woods", players=3)).apply(kingdoms.woods.Play("Princess", 0))
    assert "You can only play a card from your hand (no Princess there)" in str(english.value)


def test_names_come_from_the_data_and_english_is_unchanged():
    game = kingdoms.game("woods", players=3)
    with using("de"):
        assert game.action_text(kingdoms.woods.Play("Fool", 1)) == \
            "Narr an den Hof von Spieler 2 spielen"
        assert game.component_name(game.title) == "Der König des Waldes"
    assert game.action_text(kingdoms.woods.Play("Fool", 1)) == "play the Fool to Player 2's court"
    assert "The first round is started by Player 1 (the rulebook: whoever last saw a stag)." \
        in kingdoms.woods.DECISIONS
