"""King of the Elves in German (issue 31): the gold ledger, a journey's table and rule
reasons, odds and data errors in German; a German game keeps its language when pickled."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core.data import DataError
from kingdoms.core.i18n import using
from kingdoms.core.play import play_state
from kingdoms.elves import ledger_text, odds
from kingdoms.elves.journey import (ChangeDirection, Spot, Table, Teleport, Visit,
                                    best_journey, start_trip, why_not)

from german import german_scan

DATA = Path(kingdoms.__file__).parent / "elves" / "data.toml"
RULES = kingdoms.game("elves", players=4).journey_rules
TABLE = Table(4, (
    Spot(0, 0, "river", 2, obstacle="sea_monster", obstacle_owner=3),
    Spot(1, 0, "forest", 4, gold=0, obstacle="tree", obstacle_owner=2),
    Spot(2, 0, "desert", 6, thief=1),
    Spot(2, 1, "plains", 3),
    Spot(3, 0, "mountain", 5),
))
HAND = {"raft": 3, "elfcycle": 2, "unicorn": 2, "magic_cloud": 2, "dragon": 1}


def test_a_german_game_keeps_its_language_through_pickling():
    g = kingdoms.game("elves", players=3, teleport=True, player_names=("Anna", "Bob", "Carl"),
                      language="de")
    s = play_state(g, seed=4)
    g2, s2 = pickle.loads(pickle.dumps(g)), pickle.loads(pickle.dumps(s))
    assert g2 == g and s2 == s
    assert (g2.language, s2.game.language) == ("de", "de")
    assert (g2.teleport, g2.player_names) == (True, ("Anna", "Bob", "Carl"))
    assert str(s2) == str(s) and "Gold" in str(s2)
    english = kingdoms.game("elves", players=2)
    assert pickle.loads(pickle.dumps(english)).language is None


def test_the_gold_ledger_reads_german_and_english_is_unchanged():
    g = kingdoms.game("elves", players=3, language="de")
    s = play_state(g, seed=2)
    text = ledger_text(s)               # the game's language
    german_scan(text.splitlines(), "elves gold ledger")
    assert "die Bank zahlt Spieler 1" in text and "(Startgold)" in text
    assert "zahlt der Bank" in text
    english = ledger_text(play_state(kingdoms.game("elves", players=3), seed=2))
    assert english.splitlines()[0] == "the bank pays Player 1 12 gold (starting gold)"


def test_a_journey_table_and_its_rule_reasons_read_german():
    trip = start_trip(0, 0, HAND, RULES)
    plan = best_journey(TABLE, trip, RULES)
    bad = [ChangeDirection(), Teleport(cost=3), Visit("raft", 1, 2, 1)]
    with using("de"):
        table = plan.table_text()
        reasons = [why_not(trip, a, TABLE, RULES) for a in bad]
    assert all(reasons)
    german_scan(table.splitlines() + reasons, "elves journey")
    assert "Gold der Reise (netto)" in table and "Richtungswechsel" in reasons[0]
    assert "net gold of the journey" in plan.table_text()


def test_odds_and_data_errors_read_german(tmp_path):
    g = kingdoms.game("elves", players=3)
    with using("de"):
        shown = [str(odds.village_count_distribution(g)), str(odds.deal_can_reach(g))]
        with pytest.raises(ValueError) as err:
            odds.p_success_after_draw3({}, {"travel:raft": 5}, bool, draw=1, discard=4)
        bad = tmp_path / "bad.toml"
        bad.write_text(DATA.read_text(encoding="utf-8").replace("raft = 10\n", "raft = 11\n"),
                       encoding="utf-8")
        with pytest.raises(DataError) as data_err:
            kingdoms.game("elves", data=str(bad))
    problem = str(data_err.value).split("'travel.cards' ")[1]
    german_scan(shown + [str(err.value), problem], "elves odds and data errors")
    assert "abzuwerfen" in str(err.value) and "ergeben zusammen" in problem


def test_option_errors_read_german():
    # the core checks an option's kind first (its own texts); the game checks the rest
    from kingdoms.core.protocol import GameOptionError
    with using("de"):
        with pytest.raises(GameOptionError) as err:
            kingdoms.game("elves", players=2, player_names=("Anna", "Anna"))
    reason = str(err.value)
    german_scan([reason.replace("player_names", "")], "elves option errors")
    assert "müssen sich voneinander unterscheiden" in reason
