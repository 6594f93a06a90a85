"""Ten Characters rules: data, simultaneous choice without leaks, resolution order, every
immediate effect, the end of a pass, the end of the game, and random playouts."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core import GameRecord, IllegalAction
from kingdoms.core.data import DataError
from kingdoms.core.play import game_rng, play, play_state
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL, GameOptionError
from kingdoms.ten_characters import (Choose, DealCard, Discard, JesterTo, KnightRemove,
                                     MageRemove, PeekAt, PeekCard, UnicornDraw, score_pass)
from kingdoms.ten_characters.rules import (CI, Choosing, Dealing, FortuneTellerPicks,
                                          KnightMayRemove, MageMayRemove, UnicornDraws)

DATA = Path(kingdoms.__file__).parent / "ten_characters" / "data.toml"


def game(n=2, **kw):
    return kingdoms.game("ten_characters", players=n, **kw)


def choose_all(state, cards):
    for p, c in enumerate(cards):
        state = state.apply(Choose(p, c))
    return state


# ------------------------------------------------------------------------ data

def test_components_and_hand_sizes():
    assert sum(game(2).copies) == 100 and set(game(2).copies) == {10}
    assert game(2).hand == 8 and game(2).turns_per_pass == 6
    for n in (3, 4, 5):
        assert game(n).hand == 6 and game(n).turns_per_pass == 4
    assert game(3).passes == 3 and game(3).scoring_cards == 2


def test_unknowns_are_documented_assumptions():
    keys = {a.key for a in game(2).assumptions()}
    for k in ("game.min_players", "game.max_players", "game.refill", "game.empty_pile",
              "game.equal_cards_order", "characters.unicorn.initiative",
              "characters.dragon.initiative", "characters.jester.initiative"):
        assert k in keys, k
    assert "ASSUMES" in game(2).assumptions_table()


def test_player_range():
    with pytest.raises(GameOptionError):
        game(1)
    with pytest.raises(GameOptionError):
        game(6)


def test_bad_data_names_the_key(tmp_path):
    text = DATA.read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('equal_cards_order = "seat"', 'equal_cards_order = "random"'),
                   encoding="utf-8")
    with pytest.raises(DataError, match="equal_cards_order"):
        game(2, data=str(bad))
    bad.write_text(text.replace("hand_size = 6", 'hand_size = "six"'), encoding="utf-8")
    with pytest.raises(DataError, match="hand_size"):
        game(3, data=str(bad))
    bad.write_text(text.replace('name = "dragon"', 'name = "wyrm"'), encoding="utf-8")
    with pytest.raises(DataError, match="characters"):
        game(3, data=str(bad))


def test_edited_initiative_changes_the_order(tmp_path):
    text = DATA.read_text(encoding="utf-8")
    # give the Dragon initiative 9: it now goes in after the Knight, which finds no Dragon
    edited = tmp_path / "edited.toml"
    edited.write_text(text.replace(
        'name = "dragon"\nlabel = "Dragon"\ngerman = "Drache"\ncopies = 10\n',
        'name = "dragon"\nlabel = "Dragon"\ngerman = "Drache"\ncopies = 10\n', 1).replace(
        'initiative = 0\ninitiative_assumed = "not stated; assumed to have no initiative number '
        'because it has no immediate effect"\ninitiative_assumed_de = "nicht angegeben; ohne '
        'Initiativzahl angenommen, weil die Karte keinen Soforteffekt hat"\n'
        'points = 4\npoints_source = "rules overview: 4 points '
        'per Dragon"', 'initiative = 9\npoints = 4\npoints_source = "rules overview: 4 points per Dragon"'),
        encoding="utf-8")
    g = game(2, data=str(edited))
    assert g.initiative[CI["dragon"]] == 9
    s = g.position([["knight"] * 3, ["dragon"] * 3])
    s = choose_all(s, ["knight", "dragon"])
    assert s.step == Dealing() and s.display_counts()["dragon"] == 1   # no Knight decision:
    # the pass ends (hands of 3)


# ------------------------------------------------------------------------ deal

def test_deal_is_card_by_card_with_exact_probabilities():
    s = game(3).initial_state()
    assert s.current_player() == CHANCE
    outs = s.chance_outcomes()
    assert len(outs) == 10 and all(p == Fraction(1, 10) for _, p in outs)
    s = s.apply(DealCard(0, "king"))
    assert dict(s.chance_outcomes())[DealCard(0, "king")] == Fraction(9, 99)
    assert DealCard(0, "king").seen_by(1) == DealCard(0, HIDDEN)


# ------------------------------------------------------------------------ simultaneous choice

def test_choices_are_hidden_until_everyone_has_chosen():
    s = game(3).position([["dragon", "farmer", "king"], ["mage", "farmer", "king"],
                          ["noble", "farmer", "king"]], {"farmer": 1})
    s1 = s.apply(Choose(0, "dragon"))
    assert s1.current_player() == 1
    v = s1.view(1)
    assert v.chosen[0] is HIDDEN and v.hands[0] == (HIDDEN, HIDDEN)
    other = s.apply(Choose(0, "farmer")).view(1)      # a different hidden choice ...
    assert v == other and str(v) == str(other)          # ... looks exactly the same
    assert v._repr_html_() == other._repr_html_()
    assert "Dragon" not in str(v)
    assert "Dragon" in str(s1.view(0))
    assert Choose(0, "dragon").seen_by(1) == Choose(0, HIDDEN)
    assert "Dragon" not in str(Choose(0, "dragon").seen_by(2))
    s2 = s1.apply(Choose(1, "mage"))
    assert s2.view(2).chosen == (HIDDEN, HIDDEN, None)
    assert s2.revealed == (None, None, None)   # nothing revealed yet
    s3 = s2.apply(Choose(2, "noble"))          # the reveal happens together
    assert s3.revealed == ("dragon", "mage", "noble")
    assert all(s3.view(p).revealed == ("dragon", "mage", "noble") for p in range(3))


def test_you_can_only_choose_a_card_you_hold():
    s = game(2).position([["dragon", "farmer", "king"], ["mage", "farmer", "king"]])
    with pytest.raises(IllegalAction, match="no Mage"):
        s.apply(Choose(0, "mage"))
    with pytest.raises(IllegalAction, match="Player 1's decision"):
        s.apply(Choose(1, "mage"))


# ------------------------------------------------------------------------ resolution order

def test_cards_without_initiative_first_then_ascending_initiative():
    s = game(4).position([["mage"] * 3, ["knight"] * 3, ["dragon"] * 3, ["fortune_teller"] * 3])
    s = s.apply(Choose(0, "mage")).apply(Choose(1, "knight")).apply(Choose(2, "dragon"))
    order = s.apply(Choose(3, "fortune_teller"))
    # the state after the reveal has placed the Dragon and waits for the Fortune Teller
    assert order.display_counts()["dragon"] == 1
    assert order.step == FortuneTellerPicks(3)
    assert [c for _, c in order.queue] == ["knight", "mage"]


def test_resolution_order_lists_all_revealed_cards():
    s = game(3).position([["jester"] * 3, ["unicorn"] * 3, ["queen"] * 3])
    assert s.resolution_order() == ()                   # nothing revealed yet
    s = choose_all(s, ["jester", "unicorn", "queen"])
    assert s.resolution_order() == ((2, "queen"), (1, "unicorn"), (0, "jester"))


def test_equal_cards_in_seat_order_or_rotating(tmp_path):
    s = game(3).position([["mage", "farmer", "noble"]] * 3, {"king": 1})
    s = choose_all(s, ["mage"] * 3)
    assert s.step == MageMayRemove(0)
    s = s.apply(MageRemove(0, None))
    assert s.step == MageMayRemove(1)
    text = DATA.read_text(encoding="utf-8").replace('equal_cards_order = "seat"',
                                                    'equal_cards_order = "rotating"')
    path = tmp_path / "rot.toml"
    path.write_text(text, encoding="utf-8")
    g = game(3, data=str(path))
    s = g.position([["mage", "farmer", "farmer", "noble"]] * 3, {"king": 1})
    s = choose_all(s, ["mage"] * 3)                      # turn 3 of pass 1: player 3 first
    assert s.turn == 3 and s.step == MageMayRemove(2)


# ------------------------------------------------------------------------ effects

def test_knight_may_remove_a_dragon():
    s = game(2).position([["knight"] * 3, ["farmer"] * 3], {"dragon": 2})
    s = choose_all(s, ["knight", "farmer"])
    assert s.current_player() == 0 and set(s.legal_actions()) == {KnightRemove(0, True),
                                                                  KnightRemove(0, False)}
    kept = s.apply(KnightRemove(0, False))
    assert kept.display_counts()["dragon"] == 2
    gone = s.apply(KnightRemove(0, True))
    assert gone.display_counts()["dragon"] == 1 and gone.boxed[CI["dragon"]] == 1
    assert gone.display_counts()["knight"] == 1


def test_knight_with_no_dragon_just_goes_into_the_display():
    s = game(2).position([["knight"] * 4, ["farmer"] * 4], {"king": 1})
    s = choose_all(s, ["knight", "farmer"])
    assert s.step == Choosing() and s.turn == 6
    assert s.display_counts()["knight"] == 1 and s.display_counts()["farmer"] == 1


def test_knight_removes_a_jester_first():
    s = game(2).position([["knight"] * 3, ["farmer"] * 3], {"dragon": 2}, {"dragon": 1})
    s = choose_all(s, ["knight", "farmer"]).apply(KnightRemove(0, True))
    assert s.jesters == (0,) * 9 and s.columns[1] == 2
    assert s.boxed[CI["jester"]] == 1 and s.boxed[CI["dragon"]] == 0


def test_knight_removes_a_dragon_made_only_of_a_jester():
    s = game(2).position([["knight"] * 3, ["farmer"] * 3], {}, {"dragon": 1})
    s = choose_all(s, ["knight", "farmer"])
    assert s.step == KnightMayRemove(0)
    s = s.apply(KnightRemove(0, True))
    assert s.display_counts()["dragon"] == 0 and s.boxed[CI["jester"]] == 1


def test_mage_may_remove_any_card_jester_first():
    s = game(2).position([["mage"] * 4, ["farmer"] * 4], {"king": 2, "queen": 1}, {"king": 1})
    s = choose_all(s, ["mage", "farmer"])
    cols = {a.column for a in s.legal_actions()}
    assert cols == {None, "king", "queen", "farmer", "mage"}
    t = s.apply(MageRemove(0, "king"))
    assert t.columns[8] == 2 and t.jesters[8] == 0 and t.boxed[CI["jester"]] == 1
    t = t.apply(Choose(0, "mage")).apply(Choose(1, "farmer")).apply(MageRemove(0, "king"))
    assert t.columns[8] == 1 and t.boxed[CI["king"]] == 1
    u = s.apply(MageRemove(0, None))
    assert u.display_counts() == s.display_counts()
    with pytest.raises(IllegalAction):
        s.apply(MageRemove(0, "dragon"))


def test_jester_goes_into_the_box_if_the_display_is_empty():
    s = game(2).position([["jester"] * 4, ["jester"] * 4])
    s = choose_all(s, ["jester", "jester"])
    assert s.boxed[CI["jester"]] == 2 and sum(s.jesters) == 0 and s.step == Choosing()


def test_jester_joins_the_only_column_by_itself():
    s = game(2).position([["jester"] * 4, ["dragon"] * 4])
    s = choose_all(s, ["jester", "dragon"])      # the Dragon goes in first (no initiative)
    assert s.jesters[1] == 1 and s.display_counts()["dragon"] == 2 and s.step == Choosing()


def test_jester_joins_an_occupied_column_of_its_owners_choice_and_counts_there():
    s = game(2).position([["jester"] * 3, ["dragon"] * 3], {"king": 1})
    s = choose_all(s, ["jester", "dragon"])
    assert s.current_player() == 0
    assert set(s.legal_actions()) == {JesterTo(0, "king"), JesterTo(0, "dragon")}
    with pytest.raises(IllegalAction, match="already holds cards"):
        s.apply(JesterTo(0, "queen"))
    t = s.apply(JesterTo(0, "king"))
    assert t.display_counts()["king"] == 2
    assert t.score_sheet([["king"], ["queen"]]).totals == (8, 0)


def test_unicorn_own_reading_unicorns_draw_then_discard_together_without_leaks():
    # the documented other reading: only the Unicorns' players draw and discard
    s = game(2, unicorn="own").position([["unicorn", "king", "king"], ["unicorn", "queen", "queen"]],
                         {"dragon": 1})
    s = choose_all(s, ["unicorn", "unicorn"])
    assert s.display_counts()["unicorn"] == 2
    assert s.current_player() == CHANCE and isinstance(s.step, UnicornDraws)
    outs = dict(s.chance_outcomes())
    assert sum(outs.values()) == 1 and outs[UnicornDraw(0, "unicorn")] == Fraction(8, 93)
    s = s.apply(UnicornDraw(0, "mage"))
    assert s.view(1).hands[0] == (HIDDEN,) * 3
    assert UnicornDraw(0, "mage").seen_by(1) == UnicornDraw(0, HIDDEN)
    s = s.apply(UnicornDraw(1, "noble"))
    assert s.current_player() == 0 and len(s.hands[0]) == 3
    s = s.apply(Discard(0, "mage"))
    assert s.current_player() == 1
    v = s.view(1)
    assert v.discarding[0] is HIDDEN and "Mage" not in str(v)
    assert sum(s.discard) == 0                         # not yet revealed
    s = s.apply(Discard(1, "queen"))
    assert s.discard[CI["mage"]] == 1 and s.discard[CI["queen"]] == 1
    assert s.hands == ((), ())                            # last turn: the pass was scored
    assert s.scoring_log and s.scoring_log[-1][1] == (("king", "king"), ("noble", "queen"))


def test_unicorn_draws_from_reshuffled_discards_when_the_pile_is_empty():
    s = game(2, unicorn="own").position([["unicorn", "king", "king"], ["farmer"] * 3])
    pile = s.pile
    s = dataclasses.replace(s, pile=(0,) * 10, pile_size=0, discard=pile)
    s = choose_all(s, ["unicorn", "farmer"])
    outs = dict(s.chance_outcomes())
    assert outs[UnicornDraw(0, "dragon")] == Fraction(10, sum(pile))
    t = s.apply(UnicornDraw(0, "dragon"))
    assert t.pile_size == sum(pile) - 1 and sum(t.discard) == 0


def test_fortune_teller_sees_a_random_card_and_remembers_it():
    s = game(3).position([["fortune_teller", "king", "king", "mage"],
                          ["dragon", "dragon", "noble", "farmer"],
                          ["queen", "queen", "queen", "queen"]], {"farmer": 1})
    s = choose_all(s, ["fortune_teller", "farmer", "queen"])
    assert set(s.legal_actions()) == {PeekAt(0, 1), PeekAt(0, 2)}
    s = s.apply(PeekAt(0, 1))
    outs = dict(s.chance_outcomes())
    assert outs == {PeekCard(0, 1, "dragon"): Fraction(2, 3), PeekCard(0, 1, "noble"): Fraction(1, 3)}
    s = s.apply(PeekCard(0, 1, "dragon"))
    assert s.known[0][1] == ("dragon",)
    assert s.view(0).known[0][1] == ("dragon",)          # the looker knows
    assert s.view(1).known[0][1] == ("dragon",)          # the target saw which card
    assert s.view(2).known[0][1] == ()                   # the third player sees nothing
    assert "Dragon" not in str(s.view(2)).split("Revealed")[0]
    assert PeekCard(0, 1, "dragon").seen_by(2) == PeekCard(0, 1, HIDDEN)
    # the target plays the seen card: after the reveal the knowledge is gone
    t = choose_all(s, ["king", "dragon", "queen"])
    assert t.known[0][1] == ()


def test_fortune_teller_with_two_players_looks_at_the_other_hand():
    s = game(2).position([["fortune_teller"] * 3, ["noble", "noble", "noble"]])
    s = choose_all(s, ["fortune_teller", "noble"])
    assert s.chance_outcomes() == ((PeekCard(0, 1, "noble"), Fraction(1)),)


# ------------------------------------------------------------------------ passes and the end

def test_pass_ends_with_two_cards_scored_and_display_stays():
    s = game(2).position([["dragon", "dragon", "king"], ["farmer", "queen", "king"]],
                         {"dragon": 1, "king": 2})
    s = choose_all(s, ["king", "farmer"])
    display = {"dragon": 1, "king": 3, "farmer": 1}
    expect = score_pass(display, [["dragon", "dragon"], ["king", "queen"]]).totals
    assert s.points == expect == (8, 12)   # the Queen has no Queen+King set
    assert s.hands == ((), ()) and s.step == Dealing() and s.pass_no == 2
    assert {k: v for k, v in s.display_counts().items() if v} == display
    assert s.boxed[CI["dragon"]] == 2 and s.card_count() == 100


def test_game_ends_after_three_passes_and_ties_share():
    s = game(2).position([["dragon", "dragon", "farmer"], ["dragon", "dragon", "farmer"]],
                         {"dragon": 1}, pass_no=3, points=(10, 10))
    s = choose_all(s, ["farmer", "farmer"])
    assert s.current_player() == TERMINAL
    assert s.points == (18, 18) and s.returns() == (Fraction(1, 2), Fraction(1, 2))
    s = game(2).position([["dragon", "dragon", "farmer"], ["dragon", "dragon", "farmer"]],
                         {"dragon": 1}, pass_no=3, points=(10, 9))
    assert choose_all(s, ["farmer", "farmer"]).returns() == (1, 0)


# ------------------------------------------------------------------------ playouts

def check_invariants(s):
    assert s.card_count() == 100
    n = s.game.players
    sizes = {len(h) for h in s.hands}
    if isinstance(s.step, Choosing):
        assert len({len(h) + (c is not None) for h, c in zip(s.hands, s.chosen)}) == 1
    for p in range(n):
        v = s.view(p)
        for q in range(n):
            if q != p:
                assert all(c is HIDDEN for c in v.hands[q])
                assert v.chosen[q] in (None, HIDDEN)
                assert v.discarding[q] in (None, HIDDEN)
    return sizes


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_terminate_and_conserve_cards(players):
    g = game(players)
    for i in range(6):
        rng = game_rng("tc-playout", i)
        s = g.initial_state()
        steps = 0
        while not s.is_terminal():
            check_invariants(s)
            if s.is_chance():
                s = s.apply(s.sample_chance(rng))
            else:
                acts = s.legal_actions()
                assert acts
                s = s.apply(acts[rng.randrange(len(acts))])
            steps += 1
            assert steps < 5000
        assert s.card_count() == 100 and len(s.scoring_log) == 3
        assert sum(s.returns()) == 1
        assert s.points == tuple(sum(e[2][p] for e in s.scoring_log) for p in range(players))


@pytest.mark.parametrize("players", [2, 5])
def test_records_round_trip(players):
    rec = play(game(players), seed=7)
    again = GameRecord.from_json(rec.to_json())
    assert again.replay() == rec.replay()
    assert rec.replay().short().startswith("3.")


def test_rendering_has_a_short_label():
    s = play_state(game(3), rng=game_rng("render", 0))
    assert len(s.short()) <= 40 and "Game over" in str(s) and "<table>" in s._repr_html_()


def edited_game(tmp_path, old, new, players=2):
    text = DATA.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "edited.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return game(players, data=str(path))


def test_face_down_discards_option(tmp_path):
    g = edited_game(tmp_path, "discards_public = true", "discards_public = false")
    s = g.position([["unicorn", "king", "king", "mage"], ["farmer"] * 4])
    s = choose_all(s, ["unicorn", "farmer"]).apply(UnicornDraw(0, "noble"))
    s = s.apply(UnicornDraw(1, "king")).apply(Discard(0, "noble")).apply(Discard(1, "farmer"))
    assert s.discard[CI["noble"]] == 1
    assert all(k is HIDDEN for k in s.view(1).discard)
    assert "Noble" not in str(s.view(1))


def test_mage_may_not_remove_own_option(tmp_path):
    g = edited_game(tmp_path, "mage_may_remove_own = true", "mage_may_remove_own = false")
    s = g.position([["mage"] * 4, ["farmer"] * 4], {"king": 1})
    s = choose_all(s, ["mage", "farmer"])
    assert {a.column for a in s.legal_actions()} == {None, "king", "farmer"}


def test_game_and_states_pickle_for_worker_processes():
    import pickle
    g = game(3)
    assert pickle.loads(pickle.dumps(g)) == g
    s = play_state(g, rng=game_rng("pickle", 1))
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.game.copies == g.copies
