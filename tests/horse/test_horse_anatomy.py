"""My Kingdom for a Horse follows docs/anatomy.md: one dice model, typed turn steps,
``Components.from_data``, speed caches that change nothing, ``State.unseen``."""
import random
from collections import Counter

import pytest

import kingdoms
from kingdoms.core.cache import cache_report, clear_caches
from kingdoms.core.play import play
from kingdoms.horse import actions, dice, odds, reroll, steps
from kingdoms.horse.components import Components, components
from kingdoms.horse.worlds import unseen_cards


def test_one_keep_dice_action_for_the_game_and_the_reroll_game():
    assert odds.KeepDice is reroll.KeepDice is actions.KeepDice
    # the game always says whether the pink die is kept; the small game without it says None
    assert str(actions.KeepDice(("half cattle",), True)) == "keep half cattle and the pink die"
    assert str(actions.KeepDice((), False)) == "keep no King die, re-roll the pink die"
    assert str(actions.KeepDice(("half", "other"), None)) == "keep half, other"
    assert str(actions.KeepDice((), None)) == "keep nothing"
    game = odds.RerollGame(rerolls=1)
    root = game.initial_state().apply(odds.DiceShow(("half", "other", "other"), None))
    assert all(type(a) is actions.KeepDice for a in root.legal_actions())


def test_the_reroll_game_waits_in_the_horse_turn_steps():
    """The one-dice-phase game holds a typed step, as the game does: the dice not kept
    wait for their re-roll as a ``Rerolling`` step, never as a bare pair."""
    s = odds.RerollGame(rerolls=1).initial_state()
    assert s.step == steps.ROLLING and s.is_chance()
    s = s.apply(odds.DiceShow(("half", "other", "other"), None))
    assert s.step == steps.KEEPING and s.current_player() == 0 and s.left == 1
    s = s.apply(actions.KeepDice(("half",), None))
    assert s.step == steps.Rerolling(("half",), None) and s.is_chance() and s.left == 0
    outcomes = [o for o, _ in s.chance_outcomes()]
    assert outcomes and all(o.king.count("half") >= 1 for o in outcomes)
    s = s.apply(outcomes[0])
    assert s.step == steps.GAME_OVER and s.is_terminal()
    assert str(s).endswith(f"= {int(outcomes[0].king.count('half') >= 2)}")
    # keeping every die ends the phase at once
    s = odds.RerollGame().initial_state().apply(odds.DiceShow(("half", "half", "other"), None))
    assert s.apply(actions.KeepDice(("half", "half", "other"), None)).step == steps.GAME_OVER


def test_rules_roll_with_the_dice_model_of_the_odds():
    game = kingdoms.game("horse", players=2, easy=True)
    s = game.initial_state()
    assert isinstance(s.step, steps.Rolling)
    listed = {(a.king, a.mult): p for a, p in s.chance_outcomes()}
    assert listed == dict(odds.roll_distribution(game)) == dict(dice.roll_distribution(game.comp))


def test_the_step_is_a_typed_value_and_phase_is_its_name():
    names = set()
    for seed in range(3):
        for st in play(kingdoms.game("horse", players=3), seed=seed).states():
            assert isinstance(st.step, steps.Step) and st.phase == st.step.name
            hash(st.step)
            names.add(st.phase)
            if isinstance(st.step, steps.Rerolling):
                assert st.step.kept == tuple(sorted(st.step.kept))
    assert {"deal", "start", "keep", "effects", "others", "trade", "over"} <= names


def test_housing_says_what_follows_it():
    assert steps.Housing(steps.TRADING) != steps.Housing(None)
    assert steps.Housing(steps.TRADING) == steps.Housing(steps.Trading())
    job = steps.FenceJob(player=1, received=2)
    assert (job.placed, job.moved, job.lifted) == (0, 0, -1)
    with pytest.raises(AttributeError):
        job.placed = 1                                  # frozen: part of the position


def test_components_from_data_is_what_the_game_holds():
    game = kingdoms.game("horse", players=2)
    built = Components.from_data(game.game_data())
    assert built == game.comp == game.components == components()
    assert built.king_faces == game.comp.king_faces and built.cards == game.comp.cards
    easy = kingdoms.game("horse", players=2, easy=True)
    assert Components.from_data(easy.game_data(), easy=True) == easy.comp != game.comp


def test_unseen_counts_the_other_hands_and_the_deck_from_the_view():
    game = kingdoms.game("horse", players=3, max_rounds=3)
    rng = random.Random(2)
    s = game.initial_state()
    while s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    for p in range(3):
        u = s.unseen(p)
        others = Counter(c for q, f in enumerate(s.farms) if q != p for c in f.hand)
        deck = Counter({c.name: k for c, k in zip(game.comp.cards, s.deck) if k})
        assert u == others + deck == Counter(unseen_cards(s.view(p)))
    with pytest.raises(ValueError):
        s.unseen(3)


def test_the_speed_caches_change_nothing():
    game = kingdoms.game("horse", players=2)
    warm = play(game, seed=11).to_json()
    clear_caches()
    assert play(game, seed=11).to_json() == warm
    horse = [name for name, _, _ in cache_report() if name.startswith("kingdoms.horse.")]
    assert "kingdoms.horse.pasture.areas" in horse and "kingdoms.horse.dice.reroll" in horse


def test_the_reroll_game_draws_itself_beside_the_horse_render_module():
    s = odds.RerollGame().initial_state()
    assert s._repr_html_() == "<pre>roll</pre>" and s.action_picture(()) is None
    s = s.apply(odds.DiceShow(("half", "half", "other"), None))
    assert str(s) == "half half other (2 left)" and "half half other" in s._repr_html_()
