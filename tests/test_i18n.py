"""German (issue 31): one switch, a complete catalog, German names from the data, and
no English left in what a German class reads (``german_scan``, tests/german.py)."""
from __future__ import annotations

import importlib.util
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core.i18n import LANGUAGES, _, language, set_language, using

from german import german_scan, readable

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("woods", "black_forest", "elves", "horse", "ten_characters")




def _load_tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the one switch

def test_english_is_the_default_and_set_language_switches():
    assert language() == "en"
    assert _("Chance event") == "Chance event"
    try:
        set_language("de")
        assert language() == "de"
        assert _("Chance event") == "Zufallsereignis"
        assert kingdoms.core.protocol.player_label(0) == "Spieler 1"
    finally:
        set_language("en")
    assert kingdoms.core.protocol.player_label(0) == "Player 1"


@pytest.mark.parametrize("bad", ["fr", "DE", "", None, 3, "x" * 500])
def test_an_unknown_language_is_refused_and_changes_nothing(bad):
    with pytest.raises(ValueError, match="not a language kingdoms speaks"):
        set_language(bad)
    assert language() == "en"
    with pytest.raises(ValueError, match="not a language"):
        with using(bad if bad is not None else 7):
            pass
    assert language() == "en"
    with pytest.raises(ValueError, match="not a language"):
        kingdoms.game("woods", language=bad if bad is not None else 7)


def test_using_is_a_block_and_restores():
    with using("de"):
        assert language() == "de"
        with using(None):
            assert language() == "de"
    assert language() == "en"


@pytest.mark.parametrize("name", GAMES)
def test_a_game_in_german_speaks_german_and_is_the_same_game(name):
    english = kingdoms.game(name)
    german = kingdoms.game(name, language="de")
    assert german == english and hash(german) == hash(english)
    assert german.config() == english.config()
    assert "language" not in english.options()
    state = german.initial_state()      # no set_language: the game's own language
    german_scan([str(state), state.describe(), state.short(), state._repr_html_()], name)
    assert language() == "en"


def test_the_library_speaks_the_languages_it_lists():
    assert set(LANGUAGES) == {"en", "de"}
    for code in LANGUAGES:
        assert kingdoms.core.i18n.translations(code) is not None


# ------------------------------------------------------------------ the catalog

def test_every_text_has_a_german_translation_with_the_same_placeholders():
    catalogs = _load_tool("catalogs")
    problems = catalogs.problems("de")
    assert not problems, "\n".join(problems[:40]) + (
        f"\n... and {len(problems) - 40} more" if len(problems) > 40 else "")


def test_the_compiled_catalog_is_shipped_with_the_package():
    text = (ROOT / "pyproject.toml").read_text()
    assert "*.mo" in text
    assert (ROOT / "kingdoms/locale/de/LC_MESSAGES/kingdoms.mo").exists()


def test_the_catalog_check_finds_a_missing_translation_and_other_placeholders(tmp_path, monkeypatch):
    catalogs = _load_tool("catalogs")
    monkeypatch.setattr(catalogs, "extracted",
                        lambda: {"Player {number}": "x.py:1", "a text nobody translated": "x.py:2"})
    found = "\n".join(catalogs.problems("de"))
    assert "a text nobody translated" in found
    catalog = catalogs.read("de")
    catalog.get("Player {number}").string = "Spieler {nummer}"
    monkeypatch.setattr(catalogs, "read", lambda lang: catalog)
    assert "placeholders ['nummer']" in "\n".join(catalogs.problems("de"))


# ------------------------------------------------------------------ names from the data

def _named_tables(node, path=""):
    if isinstance(node, Mapping):
        if isinstance(node.get("name"), str):
            yield path, node
        for k, v in node.items():
            yield from _named_tables(v, f"{path}{k}.")
    elif isinstance(node, tuple):
        for i, v in enumerate(node):
            yield from _named_tables(v, f"{path}{i}.")


@pytest.mark.parametrize("name", GAMES)
def test_every_named_component_has_a_marked_german_name(name):
    data = kingdoms.game(name).game_data()
    missing = [f"{path}{table['name']}" for path, table in _named_tables(data.raw)
               if "name_de" not in table]
    assert not missing, f"{name}: no name_de for {missing}"
    marks = data.translated_names("de")       # raises unless each is marked
    assert marks and all(how in ("rulebook", "ours") for _e, _l, how, _n in marks)


def test_a_translated_name_needs_its_mark():
    from kingdoms.core.data import DataError, GameData
    data = GameData.from_toml('[[cards]]\nname = "King"\nname_de = "König"\n')
    with pytest.raises(DataError, match="name_de_source"):
        data.translated_names("de")
    ok = GameData.from_toml('[[cards]]\nname = "King"\nname_de = "König"\n'
                            'name_de_source = "German rulebook"\n')
    assert ok.names("de") == {"King": "König"}
    assert ok.sources() == []


# ------------------------------------------------------------------ no English left

def _playout_texts(game, seed: int, steps: int = 400):
    rng = random.Random(seed)
    state = game.initial_state()
    out = [str(state), state.describe(), state.short(), state._repr_html_()]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance():
            action = state.sample_chance(rng)
        else:
            actions = state.legal_actions()
            out += [game.action_text(a) for a in actions]
            action = rng.choice(actions)
        state = state.apply(action)
        out += [str(state), state.describe(), state.short(), state._repr_html_()]
    return out


def _english_names(game) -> dict:
    """``{English name: pattern}`` of every component the data translates differently
    (the title too): none of them may show in a German text."""
    import re
    names = {e for e, local, _how, _note in game.game_data().translated_names("de") if e != local}
    return {e: re.compile(r"(?<!\w)" + re.escape(e) + r"(?!\w)") for e in names}


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_german_game_reads_german_from_start_to_end(name):
    """Seeded random games of every configuration, read in German (half of them with the
    language set, half as a game built with language="de" in an English kernel): every
    picture, status line and action text holds no English word and no English name of
    a card, a character or the game."""
    cls = kingdoms.game_class(name)
    for i, config in enumerate(cls.configurations()):
        if i % 2:
            game = cls.create(**config, language="de")
            texts = _playout_texts(game, seed=sum(map(ord, name)))
        else:
            game = cls.create(**config)
            with using("de"):
                texts = _playout_texts(game, seed=sum(map(ord, name)))
        german_scan(texts, f"{name} {config}")
        names = _english_names(game)
        left = {e: t[:120] for t in texts for e, pattern in names.items()
                if pattern.search(readable(t))}
        assert not left, f"{name} {config}: English names in German texts: {left}"


def test_a_text_made_in_one_language_is_not_served_in_another():
    """Cached texts are cached per language (King of the Elves' card labels)."""
    from kingdoms.elves.rules import card_label
    kinds = ["travel:dragon", "village:forest:3"]
    english = [card_label(k) for k in kinds]
    with using("de"):
        german = [card_label(k) for k in kinds]
    assert german != english
    assert [card_label(k) for k in kinds] == english


@pytest.mark.parametrize("name", GAMES)
def test_the_players_play_the_same_moves_in_every_language(name):
    """A game's default players decide the same way in German (a tie broken by a move's
    text uses its English text): the same seed, the same game."""
    from kingdoms.core.play import play_state
    game = kingdoms.game(name)
    english = play_state(game, seed=5).history()
    german = play_state(kingdoms.game(name, language="de"), seed=5).history()
    with using("de"):
        german_kernel = play_state(game, seed=5).history()
    assert english == german == german_kernel
