"""Into the Black Forest in German (issue 31): odds outputs and an illegal move's reason."""
from __future__ import annotations

import pytest

import kingdoms
from kingdoms.black_forest import odds
from kingdoms.core.i18n import using
from kingdoms.core.protocol import IllegalAction

from german import german_scan


def _encounter():
    return odds.open_encounter([["Red 3", "Red 9", "Red 12", "Red 5"], ["Blue 2", "Blue 8", "Blue 11"]],
                               "Wolf Ridge")


def test_placement_odds_and_the_tree_read_german():
    state = _encounter()
    with using("de"):
        rows = [str(r) for r in odds.placement_odds(state)]
        labels = [d["label"] for _a, _b, d in odds.encounter_tree(state, depth=2, max_nodes=200)
                  .edges(data=True) if "label" in d]
        texts = rows + labels + [str(state), state._repr_html_()]
    german_scan(texts, "black_forest odds")
    assert any("P(Sieg)" in r and "," in r.split("=")[1] for r in rows)   # decimal comma
    english = [str(r) for r in odds.placement_odds(state)]
    assert all("P(win)" in r for r in english)


def test_an_illegal_move_says_why_in_german():
    state = _encounter()
    bad = kingdoms.black_forest.rules.Play(1, state.game.card("Blue 2"), "bottom")
    with using("de"):
        with pytest.raises(IllegalAction) as err:
            state.apply(bad)
        reason = state._why_illegal(bad)      # the game's part of the message
    german_scan([reason], "black_forest illegal move")
    assert "ist am Zug" in reason and reason in str(err.value)


def test_a_data_file_error_reads_german(tmp_path):
    from pathlib import Path
    from kingdoms.core.data import DataError
    text = (Path(kingdoms.__file__).parent / "black_forest" / "data.toml").read_text(encoding="utf-8")
    old = 'suits = ["Wands", "Swords"'
    assert old in text
    bad = tmp_path / "bf.toml"
    bad.write_text(text.replace(old, 'suits = ["Wands", "Swordz"', 1), encoding="utf-8")
    with using("de"):
        with pytest.raises(DataError) as err:
            kingdoms.game("black_forest", players=2, data=str(bad))
    problem = str(err.value).split("'decks.0.suits' ")[1]
    german_scan([problem], "black_forest data error")
    assert "ist keine der Farben" in problem and "Swordz" in problem
