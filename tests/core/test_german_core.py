"""German core (issue 31): numbers with a decimal comma from Babel, and the tables,
sentences, trees, estimates and errors of kingdoms.core in German; English unchanged."""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.distribution import Distribution
from kingdoms.core.estimate import Estimate, Estimated
from kingdoms.core.i18n import using
from kingdoms.core.play import SimulationSummary, simulate
from kingdoms.core.protocol import GameOptionError, IllegalAction, check_count
from kingdoms.core.text import (count, interval_text, localize, number, percent, share_text,
                                 truth)
from kingdoms.core.tournament import tournament
from kingdoms.core.tree import format_number, game_tree, tree_outline, tree_svg

from german import german_scan
from toygame import HighCard, Redraw, Stand

NBSP = "\u00a0"


def test_german_numbers_have_a_decimal_comma_and_a_spaced_percent_sign():
    with using("de"):
        assert number(0.5, 1) == "0,5"
        assert percent(0.125) == f"12,5{NBSP}%"
        assert percent(1) == f"100{NBSP}%" and percent(0) == f"0{NBSP}%"
        assert count(1234567) == "1.234.567"
        assert localize("1,234.5") == "1.234,5"
        assert interval_text(0.056, 0.132) == f"5,6–13,2{NBSP}%"
        assert share_text(Fraction(13, 150), 300) == f"8,7{NBSP}% (6,0–12,4{NBSP}%) von 300 Partien"
        assert share_text(1, 1) == f"100{NBSP}% (20,7–100{NBSP}%) von 1 Partie"
        assert share_text(0.5, 0) == "keine Partien"
        assert format_number(Fraction(19, 23)) == "19/23 ≈ 0,826"
        assert str(Estimated(0.625, 0.0004, 2000)).startswith("≈ 0,6")


def test_english_numbers_are_unchanged():
    assert number(0.5, 1) == "0.5" and percent(0.125) == "12.5%" and count(1234567) == "1,234,567"
    assert share_text(Fraction(13, 150), 300) == "8.7% (6.0-12.4%) of 300 games"
    assert share_text(0.5, 0) == "no games"
    assert format_number(Fraction(19, 23)) == "19/23 ≈ 0.826"


def test_truth_is_yes_or_no_in_german_and_as_python_writes_it_in_english():
    assert (truth(True), truth(1 > 2)) == ("True", "False")
    with using("de"):
        assert (truth(True), truth([])) == ("ja", "nein")


def test_component_names_are_joined_in_the_current_language():
    game = kingdoms.game("woods", players=3)
    assert game.component_names(["Knight", "Squire", "General"]) == "Knight, Squire, General"
    with using("de"):
        assert game.component_names(("Knight", "Fool")) == "Ritter, Narr"


def test_english_numbers_need_no_babel_and_import_kingdoms_loads_none():
    code = ("import sys, kingdoms; from kingdoms.core.text import share_text, percent; "
            "share_text(0.5, 10); percent(0.25); print('babel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _summary():
    return SimulationSummary("highcard", 2, 40, [Fraction(21), Fraction(17)],
                             scores=[Counter({1: 10, 3: 30}), Counter({2: 40})],
                             lengths=Counter({4: 30, 6: 10}), unfinished=2,
                             unfinished_reasons=Counter({"eine Schrittgrenze": 2}),
                             title="Spiel")


def test_german_simulation_summary():
    with using("de"):
        text = _summary().table()
        html = _summary()._repr_html_()
        rows = _summary().rows()
    german_scan([text, html], "SimulationSummary in German")
    assert "Gewinnanteil" in text and "95-%-Intervall" in text and "Mittlere Länge 4,5 Schritte" in text
    assert rows[0]["Spieler"] == "Spieler 1" and "," in rows[0]["mittlere Punktzahl"]
    assert "Mean length 4.5 steps" in _summary().table()      # English unchanged


def test_german_simulation_and_tournament_of_a_german_game():
    game = HighCard(language="de")          # the kernel stays English
    summary = simulate(game, 20, seed=1, progress=False)
    result = tournament(game, {"Anna": "random", "Ben": "random"}, 20, seed=1,
                        progress=False)
    texts = [summary.table(), result.table(), result._repr_html_(), repr(result),
             result.plot().svg, str(summary)]
    english = simulate(HighCard(), 20, seed=1, progress=False)
    assert english.table().startswith("player") and english.wins == summary.wins
    texts = [t.replace("High Card", "") for t in texts]
    german_scan(texts, "simulate/tournament in German")
    assert "gewonnen / Gleichstand / verloren" in texts[1] and "jede Sitzreihenfolge" in texts[1]
    assert "Gewinnanteil" in texts[4] and "gleicher Anteil" in texts[4] and ">0,2<" in texts[4]


def test_german_tree_outline_drawing_and_estimates():
    state = HighCard(language="de", players=2).initial_state()
    for card in (3, 1):
        state = state.apply(next(o for o, _p in state.chance_outcomes() if o.card == card))
    g = game_tree(state, depth=2, values=True, open_hands=True)
    outline = tree_outline(g)                    # the graph's game speaks German
    svg = tree_svg(g)
    moves = ("stand", "redraw", "deal a")
    plain = [outline, svg]
    for m in moves:
        plain = [t.replace(m, "") for t in plain]
    german_scan(plain, "a German game tree")
    assert "Gewinnanteil" in svg and "Was von hier aus geschehen kann" in svg
    assert "★ beste" in outline and "Wahrscheinlichkeit" in outline
    est = Estimate([Estimated(0.62, 0.0004, 2000), Estimated(0.38, 0.0004, 2000)], 2000,
                   "den eigenen Spielern des Spiels")
    with using("de"):
        assert est.games == "2.000 gezogene Partien"
        assert ", " not in str(est).split(" (")[0] or "0,6" in str(est)


def test_german_distribution_table():
    d = Distribution({"a": 1, "b": 3})
    with using("de"):
        text, html = d.table(), d._repr_html_()
    assert "Ausgang" in text and "P (exakt)" in text and "0,2500" in text
    assert "<th>Ausgang</th>" in html and "0,7500" in html
    assert d.table().splitlines()[0].strip().startswith("outcome")   # English unchanged


def test_errors_a_student_meets_are_german():
    with using("de"):
        with pytest.raises(GameOptionError) as e1:
            kingdoms.game("horse", players=9)
        with pytest.raises(GameOptionError) as e2:
            kingdoms.game("horse", colour="blau")
        with pytest.raises(ValueError) as e3:
            check_count(-1, "rerolls", 0, 10)
        with pytest.raises(ValueError) as e4:
            simulate(HighCard(), 0)
    import re
    title = type(kingdoms.game("horse")).title           # the game's (its own catalog)
    said = [re.sub(r"\w+=\S*", "", str(e.value).replace(title, ""))   # option names
            for e in (e1, e2, e3, e4)]
    german_scan(said, "errors in German")
    assert "ist für" in str(e1.value) and "hat keine Option colour" in str(e2.value)
    assert str(e3.value) == "rerolls muss eine ganze Zahl von 0 bis 10 sein; nicht -1"


def test_an_illegal_move_is_refused_in_the_games_language():
    state = HighCard(language="de").initial_state()
    while state.current_player() < 0:
        state = state.apply(state.chance_outcomes()[0][0])
    with pytest.raises(IllegalAction) as e:      # the kernel is English, the game German
        state.apply("nonsense")
    assert str(e.value).startswith("Spieler 1 darf das nicht: ")
    english = HighCard().initial_state()
    while english.current_player() < 0:
        english = english.apply(english.chance_outcomes()[0][0])
    with pytest.raises(IllegalAction, match="^Player 1 may not do that"):
        english.apply("nonsense")
    assert Stand() in state.legal_actions() and Redraw() in state.legal_actions()


def test_lesson_feedback_is_german(capsys):
    from kingdoms.lessons import check_by_hand, compare_guess
    with using("de"):
        compare_guess(..., Fraction(1, 2))
        compare_guess(0.7, Fraction(1, 2), "die Wahrscheinlichkeit")
        compare_guess("rot", "blau", "die Farbe")
        check_by_hand(..., Fraction(2, 3))
        check_by_hand("zwei Drittel", Fraction(2, 3))
        check_by_hand(Fraction(2, 3), Fraction(2, 3), "die Wahrscheinlichkeit")
        check_by_hand(0.6667, Fraction(2, 3), "die Wahrscheinlichkeit")
        check_by_hand(Fraction(1, 3), Fraction(2, 3), "die Wahrscheinlichkeit")
        check_by_hand(Fraction(4, 3), Fraction(2, 3), "die Wahrscheinlichkeit")
    out = capsys.readouterr().out
    import re
    german_scan([re.sub(r"`[^`]*`", "", line) for line in out.splitlines()],   # code stays
                "lesson feedback in German")
    assert "zu hoch" in out and "Gegenereignis" in out and "Richtig:" in out
    compare_guess(0.7, Fraction(1, 2))
    assert capsys.readouterr().out.startswith("You guessed 0.7; the answer is 1/2")


def test_record_and_data_errors_are_german():
    from kingdoms.core.data import DataError, GameData
    from kingdoms.core.records import GameRecord, RecordError
    bad = ['{"format": "nonsense"}', "[1, 2]", "not json at all",
           '{"format": 2, "game": "woods", "config": {}, "steps": [{"who": 9}]}']
    said = []
    with using("de"):
        for text in bad:
            with pytest.raises(RecordError) as e:
                GameRecord.from_json(text)
            said.append(str(e.value))
        with pytest.raises(DataError) as e:
            GameData.from_toml("x = [1, 2", "meine.toml")
        said.append(str(e.value).split("(")[0])          # the TOML parser's own words aside
        data = GameData.from_toml("zahl = 'drei'", "meine.toml")
        with pytest.raises(DataError) as e:
            data.get("zahl", int)
        said.append(str(e.value))
    import re
    said[2] = said[2].split(":")[0]                      # the json module's own words aside
    keys = r"'[^']*'|\w+\[\d+\](\.\w+)?|format"            # the record's keys stay
    german_scan([re.sub(keys, "", s) for s in said], "record and data errors in German")
    assert said[-1] == "meine.toml: 'zahl' sollte eine ganze Zahl sein, nicht \"drei\""


@pytest.mark.parametrize("name", ["mcts", "mcts-strong"])
def test_the_search_bots_report_reads_german(name):
    """What the search bot found (``analyse``), its description and its table, in German;
    the English report keeps its English words."""
    import random
    game = kingdoms.game("woods", players=2)
    state = game.initial_state()
    rng = random.Random(3)
    while state.is_chance():
        state = state.apply(state.sample_chance(rng))
    if name == "mcts":
        bot = kingdoms.core.mcts_policy(simulations=30)
    else:
        bot = kingdoms.core.strong_policy(seconds=None, simulations=30)
    english = str(bot.analyse(state, random.Random(1)))
    assert "simulations" in english and "share" in english
    with using("de"):
        report = bot.analyse(state, random.Random(1))
        texts = [str(report), report._repr_html_(), repr(bot)]
    german_scan(texts, f"{name} report")
    assert "Simulationen" in texts[0]
