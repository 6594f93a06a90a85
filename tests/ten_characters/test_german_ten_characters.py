"""Ten Characters in German (issue 31): names from the German rules, an illegal move's reason."""
from __future__ import annotations

import pytest

import kingdoms
from kingdoms.core.i18n import using
from kingdoms.core.protocol import IllegalAction
from kingdoms.ten_characters.rules import Choose

from german import german_scan


def test_an_illegal_choice_says_why_in_german_with_the_rulebook_name():
    g = kingdoms.game("ten_characters", players=3)
    state = g.position(hands=[["dragon"] * 6, ["king"] * 6, ["queen"] * 6])
    with using("de"):
        with pytest.raises(IllegalAction) as err:
            state.apply(Choose(0, "jester"))
        reason = state._why_illegal(Choose(0, "jester"))   # the game's part of the message
        picture = str(state)
    german_scan([reason, picture], "ten_characters illegal move")
    assert "Hofnarr" in reason and reason in str(err.value) and "Drache" in picture


def _last_turn():
    return kingdoms.game("ten_characters", players=2).position(
        [["dragon", "king", "noble"], ["farmer", "king", "queen"]],
        {"king": 2, "farmer": 1, "noble": 1, "dragon": 1})


def test_the_score_sheet_reads_german_and_english_is_unchanged():
    from kingdoms.ten_characters.scoring import score_pass
    display = {"farmer": 3, "knight": 2, "king": 2, "unicorn": 1, "dragon": 2, "queen": 1,
               "mage": 1, "noble": 4}
    cards = [["farmer", "king"], ["jester", "unicorn"], ["knight", "fortune_teller"],
             ["mage", "noble"], ["queen", "dragon"]]
    english = score_pass(display, cards)
    with using("de"):
        sheet = score_pass(display, cards)
        nobody = score_pass({"farmer": 1, "noble": 2, "king": 1}, [["noble", "jester"], ["king"]])
        texts = sheet.explain().splitlines() + nobody.explain().splitlines()
    german_scan(texts, "ten_characters score sheet")
    assert texts[0].startswith("Auslage: ") and texts[-1].startswith("Summen: ")
    assert "3 × 3 (Bäuerin: 3 ≥ Ritterin: 2)" in sheet.explain()
    assert sheet.totals == english.totals and [t.points for t in sheet.terms] == [
        t.points for t in english.terms]
    assert "  Player 1: Farmer +9  (3 x 3 Farmers (Farmers 3 >= Knights 2))" in english.explain()


def test_the_odds_outputs_and_errors_read_german():
    from kingdoms.ten_characters import odds
    from kingdoms.ten_characters.scoring import score_card
    state = _last_turn()
    with using("de"):
        table = odds.payoff_matrix(state).table()
        errors = []
        for bad in (lambda: score_card("wizard", {}), lambda: score_card("king", {"jester": 1}),
                    lambda: score_card("king", {"king": -1}),
                    lambda: odds.payoff_matrix(kingdoms.game("ten_characters", players=3)
                                               .initial_state())):
            with pytest.raises(ValueError) as err:
                bad()
            errors.append(str(err.value))
    german_scan(table.splitlines() + errors, "ten_characters odds")
    assert "Drache" in table and "Bäuerin" in table
    assert "Dragon" in odds.payoff_matrix(state).table()


def test_every_scoring_line_has_its_german_twin_in_the_data():
    g = kingdoms.game("ten_characters", players=3)
    characters = g.game_data().get("characters", list)
    assert len(characters) == 10
    for c in characters:
        assert c["scoring_de"] and c["scoring_de"] != c["scoring"], c["name"]
        assert g.component_name(c["name"]) == c["name"]     # English: the data's own name
    german_scan([c["scoring_de"] for c in characters], "ten_characters data scoring_de")


def test_a_data_file_error_reads_german():
    from kingdoms.core.data import DataError, GameData
    box = kingdoms.game("ten_characters", players=3).game_data().text
    edited = GameData.from_toml(box.replace('equal_cards_order = "seat"',
                                            'equal_cards_order = "random"', 1))
    with using("de"), pytest.raises(DataError) as err:
        kingdoms.game("ten_characters", players=3, data=edited)
    problem = str(err.value).split("'game.equal_cards_order' ")[1]
    german_scan([problem.replace("'seat'", "")], "ten_characters data error")   # a data value
    assert problem.startswith("sollte 'seat' oder 'rotating' sein") and "random" in problem
