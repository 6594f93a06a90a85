"""My Kingdom for a Horse in German (issue 31): the solo game with Moritz, odds and
re-roll explanations, an illegal move's reason; English stays as it was."""
from __future__ import annotations

import random

import pytest

import kingdoms
from kingdoms.core.i18n import using
from kingdoms.core.protocol import IllegalAction
from kingdoms.horse import odds
from kingdoms.horse.actions import RollDice, Trade, UseCattle

from german import german_scan


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_the_solo_game_with_moritz_reads_german():
    game = kingdoms.game("horse", players=1, language="de")
    rng = random.Random(3)
    state, texts, moritz = game.initial_state(), [], False
    for _ in range(300):
        texts += [str(state), state.short(), state.describe(), state._repr_html_()]
        moritz = moritz or "Moritz würfelt" in state.describe()
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            texts += [game.action_text(a) for a in actions]
            picture = state.action_picture(actions)
            if picture is not None:
                texts.append(picture[0])
            state = state.apply(rng.choice(actions))
    german_scan(texts, "horse solo")
    assert moritz and any("Moritz:" in t for t in texts)


def test_german_odds_and_reroll_explanations():
    game = kingdoms.game("horse", players=2)
    with using("de"):
        texts = [card.text() for card in game.comp.cards]
        policy = kingdoms.horse.reroll.solve_rerolls(odds.goal_cattle(game), game=game)
        roll = next(iter(policy.keep))
        texts.append(policy.explain(*roll))
        with pytest.raises(ValueError) as err:
            odds.trade_chain("horse", "sheep")
        texts.append(str(err.value))
    german_scan(texts, "horse odds")
    assert any("Ausbildung zum Händlerschaf" in t for t in texts)


def test_an_illegal_move_says_why_in_german():
    game = kingdoms.game("horse", players=2, language="de")
    state = game.initial_state()
    while state.is_chance():
        state = state.apply(state.sample_chance(random.Random(0)))
    with using("de"), pytest.raises(IllegalAction) as err:
        state.apply(UseCattle())
    # the reason after the core's "<player> ...:" (the core's own words are its helper's)
    german_scan([str(err.value).partition(": ")[2]], "horse illegal move")
    assert "Rind" in str(err.value) or "Rinder" in str(err.value)
    assert game.action_text(Trade("sheep", 4, "pig", 2)) == "4 Schafe gegen 2 Schweine tauschen"
    assert str(Trade("sheep", 4, "pig", 2)) == "trade 4 sheep for 2 pig"
    assert str(RollDice()) == "roll the dice"


def test_dice_in_words_follow_the_language():
    """A lesson's dice ("Übrige Würfel: ...") are the faces in the current language,
    English as the data writes them."""
    from kingdoms.horse.words import dice_words
    faces = ("2 sheep", "half cattle", "1 fence", "multiply pig")
    assert dice_words(faces) == "2 sheep, half cattle, 1 fence, multiply pig"
    with using("de"):
        german = dice_words(faces)
    assert german.split(", ")[:3] == ["2 Schafe", "halbes Rind", "1 Zaun"]
    assert "pig" not in german and "Schwein" in german


def test_the_simplified_dice_phase_reads_german():
    """The lesson's small tree (King die as "half" / "other"): its moves, outcomes and
    positions name the faces in the current language, English as the code writes them."""
    small = odds.RerollGame(rerolls=1)
    root = small.initial_state().apply(odds.DiceShow(("half", "other", "other"), None))
    keep = root.legal_actions()
    english = [small.action_text(a) for a in keep] + [root.short()]
    assert "keep half, other, other" in english and "half other other (1 left)" in english
    with using("de"):
        texts = [small.action_text(a) for a in keep] + [root.short()]
        texts += [str(a) for a, _p in root.apply(keep[-1]).chance_outcomes()]
    assert "halb, anderes, anderes behalten" in texts
    assert not any(word in t.split() for t in texts for word in ("half", "other", "other,"))
    german_scan(texts, "horse simplified dice phase")
