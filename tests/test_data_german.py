"""The texts the games' data files give people, in German: every assumption's reason
(``key_assumed_de`` beside ``key_assumed``), shown by ``Assumption`` when the language is
German; the assumed value as the file writes it (TOML, never Python's containers); Ten
Characters' scoring lines (``scoring_de``).  Keys and values stay as in the file: a
teacher edits the file by them."""
from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

import kingdoms
from kingdoms.core.data import ASSUMED_VALUE_CHARS, DataError, GameData, shown
from kingdoms.core.i18n import using

from german import german_scan

GAMES = ("woods", "black_forest", "elves", "horse", "ten_characters")


def _data(name) -> GameData:
    return kingdoms.game(name).game_data()


def _keys(node, prefix=""):
    """``(dotted path, table, key)`` of every key of the file's tables."""
    if isinstance(node, Mapping):
        for k, v in node.items():
            yield prefix + k, node, k
            yield from _keys(v, f"{prefix}{k}.")
    elif isinstance(node, tuple):
        for i, v in enumerate(node):
            yield from _keys(v, f"{prefix}{i}.")


def _literals(node) -> set:
    """Every text of the file that is a key or a value (what a reason may quote)."""
    out = set()
    for _path, table, k in _keys(node):
        out.add(k)
        v = table[k]
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, str):
                out.add(x)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_assumed_value_gives_its_reason_in_german(name):
    raw = _data(name).raw
    missing = [path for path, table, k in _keys(raw)
               if k.endswith("_assumed") and f"{k}_de" not in table]
    assert not missing, f"{name}: no German reason (key_assumed_de) for {missing}"
    orphans = [path for path, table, k in _keys(raw)
               if k.endswith("_assumed_de") and k[:-3] not in table]
    assert not orphans, f"{name}: German reasons without an English one: {orphans}"
    for a in _data(name).assumptions():
        german = dict(a.reasons)["de"]
        assert german.strip() and german != a.reason, a.key
        assert a.reason_in("de") == german and a.reason_in("en") == a.reason


@pytest.mark.parametrize("name", GAMES)
def test_a_german_class_reads_the_assumptions_in_german(name):
    """The printed assumptions under ``using("de")``, but for the keys and values (the
    file's own words, quoted as in the file where a reason names them), hold no English."""
    data = _data(name)
    literals = _literals(data.raw)
    quoted = re.compile(r"""["'„]([^"'“]+)["'“]""")

    def without_literals(text: str, a) -> str:
        text = text.replace(a.key, " ").replace(shown(a.value, ASSUMED_VALUE_CHARS), " ")
        return quoted.sub(lambda m: " " if m.group(1) in literals else m.group(0), text)

    with using("de"):
        lines = [without_literals(str(a), a) for a in data.assumptions()]
        table = data.assumptions_table()
    assert all("(angenommen: " in line for line in lines)
    german_scan(lines, f"{name}: assumptions in German")
    for a in data.assumptions():
        assert str(a).replace("  (assumed: ", "  (angenommen: ") not in table   # German reasons
    assert len(table.splitlines()) == len(lines) + 2


@pytest.mark.parametrize("name", GAMES)
def test_an_assumed_value_is_shown_as_the_file_writes_it(name):
    """``key = value`` as in the TOML file: ``true``, ``"text"``, ``["a", "b"]``,
    ``{sheep = 1}``; never Python's ``True``, ``'text'``, ``['a']`` or ``{'sheep': 1}``."""
    for a in _data(name).assumptions():
        line = str(a)
        value = line[len(a.key) + 3:line.index("  (assumed: ")]
        assert line.startswith(f"{a.key} = ")
        assert value == shown(a.value, ASSUMED_VALUE_CHARS) and not value.endswith("...")
        assert not re.search(r"\bTrue\b|\bFalse\b|\['|\{'|^'", value), line


SAMPLE = """
[die]
faces = ["1 sheep", "pig"]
faces_assumed = "nobody says"
faces_assumed_de = "niemand sagt es"
kept = true
kept_assumed = "a guess"

[[cards]]
name = "Fool"
pay = { sheep = 1 }
pay_assumed = "even split"
"""


def test_an_assumption_speaks_the_language_and_falls_back_to_english():
    data = GameData.from_toml(SAMPLE, "my.toml")
    faces, kept, pay = data.assumptions()
    assert str(faces) == 'die.faces = ["1 sheep", "pig"]  (assumed: nobody says)'
    assert str(kept) == "die.kept = true  (assumed: a guess)"
    assert str(pay) == "cards.Fool.pay = {sheep = 1}  (assumed: even split)"
    with using("de"):
        assert str(faces) == 'die.faces = ["1 sheep", "pig"]  (angenommen: niemand sagt es)'
        # a teacher's own file without a German reason: the English one
        assert str(kept) == "die.kept = true  (angenommen: a guess)"
    assert faces.reasons == (("de", "niemand sagt es"),) and kept.reasons == ()


def test_a_german_reason_that_is_not_text_is_refused_naming_the_key():
    data = GameData.from_toml(SAMPLE.replace('"niemand sagt es"', "3"), "my.toml")
    with pytest.raises(DataError, match=r"my.toml: 'die.faces_assumed_de' should be a text, not 3"):
        data.assumptions()


def test_german_reasons_beside_values_are_notes_not_values():
    """A reason in German beside a table's entries is read as a note, like the English
    one, by the games that read a table's keys (Into the Black Forest's animals)."""
    text = _data("black_forest").text.replace(
        'Frog = [1, 3]\n', 'Frog = [1, 3]\nFrog_assumed = "a guess"\n'
                           'Frog_assumed_de = "geraten"\n', 1)
    assert "Frog_assumed_de" in text
    game = kingdoms.game("black_forest", data=GameData.from_toml(text))
    assert game.components == kingdoms.game("black_forest").components
    assert [str(a) for a in game.assumptions() if a.key == "animals.Frog"] == [
        "animals.Frog = [1, 3]  (assumed: a guess)"]


def test_ten_characters_scoring_lines_speak_the_language():
    game = kingdoms.game("ten_characters", players=3)
    characters = game.game_data().get("characters", list)
    english = [game.scoring_text(c["name"]) for c in characters]
    assert english == [c["scoring"] for c in characters]
    with using("de"):
        german = [game.scoring_text(c["name"]) for c in characters]
    assert german == [c["scoring_de"] for c in characters]
    german_scan(german, "ten_characters scoring lines")
    with pytest.raises(ValueError, match="not a character"):
        game.scoring_text("Dragon")


def test_a_scoring_line_without_german_falls_back_to_english():
    text = _data("ten_characters").text
    own = re.sub(r'\nscoring_de = "[^"]*"', "", text)
    assert not re.search(r"^scoring_de", own, re.M)
    game = kingdoms.game("ten_characters", players=3, data=GameData.from_toml(own))
    with using("de"):
        assert game.scoring_text("dragon") == "4 per Dragon"
    bad = text.replace('scoring_de = "4 je Drache"', "scoring_de = 4")
    with pytest.raises(DataError, match=r"'characters.1.scoring_de' should be a text, not 4"):
        kingdoms.game("ten_characters", players=3, data=GameData.from_toml(bad))


def test_ten_characters_labels_speak_the_language():
    """``game.labels`` (the lessons print it) is the data's ``label`` in English and
    its ``name_de`` in German."""
    game = kingdoms.game("ten_characters", players=3)
    assert game.labels is game.components.labels and game.labels["jester"] == "Jester"
    with using("de"):
        german = dict(game.labels)
        assert german == {c: game.label(c) for c in game.labels}
    assert german["fortune_teller"] == "Wahrsagerin" and german["jester"] == "Hofnarr"
    german_scan(list(german.values()), "ten_characters labels")
