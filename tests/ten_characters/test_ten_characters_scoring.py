"""Each of the ten scorings, one test per rule clause, with the King/Jester interplay."""
from __future__ import annotations

import pytest

import kingdoms
from kingdoms.ten_characters.scoring import (CHARACTERS, COLUMNS, normalise_counts, score_card,
                                             score_pass)


def pts(card, display, others=()):
    return score_card(card, display, others)[0]


def test_farmer_needs_at_least_as_many_farmers_as_knights():
    assert pts("farmer", {"farmer": 3, "knight": 3}) == 9
    assert pts("farmer", {"farmer": 3, "knight": 2}) == 9
    assert pts("farmer", {"farmer": 2, "knight": 3}) == 0
    assert pts("farmer", {}) == 0


def test_noble_needs_at_least_as_many_farmers_as_nobles():
    assert pts("noble", {"noble": 2, "farmer": 2}) == 8
    assert pts("noble", {"noble": 2, "farmer": 5}) == 8
    assert pts("noble", {"noble": 3, "farmer": 2}) == 0


def test_mage_scores_sets_of_mage_and_noble():
    assert pts("mage", {"mage": 3, "noble": 1}) == 3
    assert pts("mage", {"mage": 2, "noble": 4}) == 6
    assert pts("mage", {"mage": 4}) == 0


def test_dragon_scores_four_per_dragon():
    assert pts("dragon", {"dragon": 5, "king": 9}) == 20


def test_fortune_teller_scores_fortune_tellers_and_dragons():
    assert pts("fortune_teller", {"fortune_teller": 2, "dragon": 3}) == 10
    assert pts("fortune_teller", {"dragon": 1}) == 2


def test_king_scores_unless_another_player_keeps_a_jester():
    d = {"king": 3}
    assert pts("king", d, others=("queen", "dragon")) == 12
    assert pts("king", d, others=("queen", "jester")) == 0
    # the player's own Jester does not spoil the own King
    sheet = score_pass(d, [["king", "jester"], ["dragon", "queen"]])
    assert sheet.totals[0] == 12


def test_jester_scores_kings_if_another_player_keeps_a_king():
    d = {"king": 3}
    assert pts("jester", d, others=("king",)) == 12
    assert pts("jester", d, others=("queen",)) == 0
    # the own King does not count for the own Jester
    assert score_pass(d, [["king", "jester"], ["dragon", "queen"]]).totals[0] == 12


def test_king_and_jester_interplay_over_other_players():
    d = {"king": 2}
    sheet = score_pass(d, [["king", "farmer"], ["jester", "farmer"], ["king", "jester"]])
    # P1's King is spoiled (others keep Jesters); P2's Jester sees Kings kept by P1 and P3;
    # P3's King is spoiled by P2's Jester, P3's Jester sees P1's King.
    by = {(t.player, t.card): t.points for t in sheet.terms}
    assert by[(0, "king")] == 0
    assert by[(1, "jester")] == 8
    assert by[(2, "king")] == 0
    assert by[(2, "jester")] == 8


def test_queen_scores_sets_of_queen_and_king():
    assert pts("queen", {"queen": 2, "king": 5}) == 6
    assert pts("queen", {"queen": 4, "king": 1}) == 3


def test_unicorn_scores_only_if_no_column_is_longer():
    assert pts("unicorn", {"unicorn": 3, "dragon": 3, "king": 2}) == 9   # equal is fine
    assert pts("unicorn", {"unicorn": 3, "dragon": 4}) == 0
    assert pts("unicorn", {"unicorn": 0}) == 0


def test_unicorn_counts_jesters_in_the_longer_column():
    g = kingdoms.game("ten_characters", players=2)
    s = g.position([["unicorn"] * 3, ["unicorn"] * 3], {"unicorn": 2, "king": 2}, {"king": 1})
    assert s.display_counts()["king"] == 3
    assert s.score_sheet().totals == (0, 0)


def test_knight_scores_sets_of_knight_queen_unicorn():
    assert pts("knight", {"knight": 2, "queen": 3, "unicorn": 2}) == 10
    assert pts("knight", {"knight": 2, "queen": 3, "unicorn": 0}) == 0


def test_each_scoring_card_scores_separately():
    sheet = score_pass({"dragon": 2}, [["dragon", "dragon"]])
    assert sheet.totals == (16,)
    assert len(sheet.terms) == 2


def test_explanation_names_every_term():
    sheet = score_pass({"dragon": 2, "king": 1}, [["dragon", "king"], ["jester", "farmer"]])
    text = sheet.explain()
    assert "4 x 2 Dragons" in text and "another player keeps a Jester" in text
    # P2's Jester counts the King because P1 keeps a King
    assert "Totals: Player 1 8, Player 2 4" in text


def test_every_character_has_a_scoring_and_bad_input_is_refused():
    for c in CHARACTERS:
        score_card(c, {})
    with pytest.raises(ValueError):
        score_card("wizard", {})
    with pytest.raises(ValueError):
        normalise_counts({"jester": 1})
    assert normalise_counts([1] * len(COLUMNS))["king"] == 1


def test_scoring_is_a_pure_function_of_display_and_cards():
    d = {"farmer": 2, "knight": 1}
    cards = [["farmer", "noble"], ["knight", "mage"]]
    assert score_pass(d, cards) == score_pass(dict(d), [list(c) for c in cards])
    assert d == {"farmer": 2, "knight": 1}


def test_counts_and_points_are_checked_the_same_on_every_path():
    """``normalise_counts`` and the points check: the quick path for a game's full
    display / points gives what the careful path gives, and bad values are refused on
    both (a bool, a negative or fractional count, a missing or unknown character)."""
    from types import MappingProxyType
    from kingdoms.ten_characters.scoring import DEFAULT_POINTS
    full = {c: i for i, c in enumerate(COLUMNS)}               # every column, in order
    shuffled = dict(reversed(list(full.items())))
    assert list(normalise_counts(full).items()) == list(normalise_counts(shuffled).items()) \
        == list(zip(COLUMNS, range(len(COLUMNS))))
    assert normalise_counts(full) == normalise_counts(tuple(range(len(COLUMNS))))
    for bad in (True, -1, 1.5, "2"):
        with pytest.raises(ValueError):
            normalise_counts({**full, "king": bad})
    game_points = MappingProxyType(dict(DEFAULT_POINTS))
    cards = [["king", "farmer"], ["jester", "unicorn"]]
    assert score_pass(full, cards, game_points) == score_pass(full, cards, None)
    for bad in ({**DEFAULT_POINTS, "king": True}, {**DEFAULT_POINTS, "king": 4.0},
                {k: v for k, v in DEFAULT_POINTS.items() if k != "king"},
                {**DEFAULT_POINTS, "wizard": 1}):
        for points in (bad, MappingProxyType(bad)):
            with pytest.raises(ValueError, match="points"):
                score_pass(full, cards, points)


def test_card_values_are_the_same_with_and_without_the_speed_cache():
    """``card_values`` is cached (``kingdoms.core.cache``): emptying the caches changes
    no value, and the cached values are each card's score on the display."""
    import random
    from kingdoms.core.cache import clear_caches
    from kingdoms.ten_characters.odds import card_values
    rng = random.Random(4)
    displays = [{c: rng.randint(0, 4) for c in COLUMNS} for _ in range(30)]
    first = [card_values(d) for d in displays]
    clear_caches()
    assert [card_values(d) for d in displays] == first
    for d, vals in zip(displays, first):
        for c in CHARACTERS:
            others = ["king"] if c == "jester" else []
            assert vals[c] == score_card(c, d, others)[0]
        vals["king"] = -99                                # a caller's copy: the cache keeps its own
    assert [card_values(d) for d in displays][0]["king"] != -99
