"""King of the Elves follows docs/anatomy.md: components, render contract, action
texts built with the players' names, caches that change nothing."""
from __future__ import annotations

import ast
import html
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core.cache import clear_caches
from kingdoms.core.data import DataError, GameData, load_data
from kingdoms.core.play import play
from kingdoms.elves import render, rules
from kingdoms.elves.components import Components
from kingdoms.elves.journey import JourneyPuzzle, Spot, Table, Visit, start_trip
from kingdoms.elves.rules import (Draw, DrawThree, PlaySpecial, PlayVillage, TakeVillage,
                                  HIDDEN)

PACKAGE = Path(rules.__file__).parent
# the modules this file checks (worlds.py has its own tests)
MODULES = ("__init__.py", "components.py", "rules.py", "journey.py", "journey_search.py",
           "render.py", "odds.py", "policies.py")


def game(players=3, **kw):
    return kingdoms.game("elves", players=players, **kw)


# ------------------------------------------------------------------ components

def test_components_are_read_once_and_are_values():
    """``Components.from_data`` reads the file; two games from the same data share equal
    components whatever the player count and variant."""
    a, b = game(3), game(5, teleport=True)
    assert isinstance(a.components, Components)
    assert a.components == b.components
    assert a.components == Components.from_data(load_data("kingdoms.elves"))
    assert hash(a.components) == hash(b.components)
    assert a.kinds is a.components.kinds and a.numbers is a.components.numbers
    assert a.rounds == 3 and b.rounds == 5            # rules.rounds by player count


def test_components_refuse_a_bad_value_naming_the_key():
    text = (PACKAGE / "data.toml").read_text().replace("thief_gold = 2", "thief_gold = -1")
    with pytest.raises(DataError, match=r"rules\.thief_gold'.*from 0 to 1000"):
        Components.from_data(GameData.from_toml(text))


def test_no_module_reads_the_data_file_but_components():
    """The game gets its data through ``Game.game_data()``; only components.py reads it."""
    for name in MODULES:
        if name != "components.py":
            assert "load_data(" not in (PACKAGE / name).read_text(), name


def test_rounds_missing_for_the_player_count_is_refused(tmp_path):
    text = (PACKAGE / "data.toml").read_text().replace(
        "rounds = { 2 = 2, 3 = 3, 4 = 4, 5 = 5, 6 = 5 }", "rounds = { 2 = 2, 3 = 3 }")
    f = tmp_path / "few-rounds.toml"
    f.write_text(text)
    assert game(3, data=str(f)).rounds == 3
    with pytest.raises(DataError, match="no number of rounds for 4 players"):
        game(4, data=str(f))


# ------------------------------------------------------------------ imports go one way

def _imports(path: Path) -> set:
    """The package modules ``path`` imports at module level (a hook that needs a policy
    or a world imports it inside the hook)."""
    out = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out.add(node.module or "")
            out.update(a.name for a in node.names if not node.module)
    return out


def test_rules_never_import_render_odds_policies():
    for name in ("rules.py", "journey.py", "components.py"):
        assert not _imports(PACKAGE / name) & {"render", "odds", "policies"}, name
    assert not _imports(PACKAGE / "components.py") & {"rules", "journey"}


# ------------------------------------------------------------------ render contract

def test_render_draws_the_state_by_the_core_contract():
    s = game(3).initial_state()
    assert str(s) == render.text(s) and s._repr_html_() == render.html(s)
    assert s.short() == render.short(s) == "R1 deal chance"
    for name in ("__str__", "_repr_html_", "short"):
        assert name not in vars(rules.ElvesState)


def test_a_journey_puzzle_renders_too():
    """The puzzle's states live in this package, so the core asks this render module
    for their pictures (its HTML used to fail on the game state's fields)."""
    g = game(3)
    table = Table(3, (Spot(0, 0, "plains", 2), Spot(1, 0, "forest", 4)))
    trip = start_trip(0, 5, {"giant_pig": 2}, g.journey_rules)
    s = JourneyPuzzle(table=table, trip=trip, rules=g.journey_rules).initial_state()
    assert str(s).startswith("Journey of Player 1: in the castle, clockwise, gold 5")
    assert s._repr_html_() == f"<pre>{html.escape(str(s))}</pre>"
    assert s.short() == "castle +0g 2c"
    s = s.apply(s.legal_actions()[0])
    assert s.short() == "P1.1 +2g 1c"


# ------------------------------------------------------------------ action texts

@pytest.mark.parametrize("action, plain, named", [
    (Draw("travel:raft", 1), "Player 2 draws raft", "Bob draws raft"),
    (Draw(HIDDEN, 2), "Player 3 draws a card", "Cy draws a card"),
    (PlayVillage("village:lake:7", 0), "play the lake village (7) into Player 1's realm",
     "play the lake village (7) into Ann's realm"),
    (TakeVillage(None, 1), "Player 2 finds no village card in the supply",
     "Bob finds no village card in the supply"),
    (PlaySpecial("sea_monster", 2, 0), "play a sea monster card at Player 3's village 1",
     "play a sea monster card at Cy's village 1"),
    (Visit("raft", 1, 2, 0, True, 7, 2, 0, 10),
     "play an escort, 1 raft to Player 3's village 1: +7, pay 2 to Player 1, bonus +10",
     "play an escort, 1 raft to Cy's village 1: +7, pay 2 to Ann, bonus +10"),
    # a player outside the game, and a malformed one, read as in str()
    (PlayVillage("village:lake:7", 7), "play the lake village (7) into Player 8's realm",
     "play the lake village (7) into Player 8's realm"),
])
def test_action_texts_name_players_by_the_game(action, plain, named):
    assert str(action) == plain == game(3).action_text(action)
    assert game(3, player_names=("Ann", "Bob", "Cy")).action_text(action) == named


def test_a_malformed_action_text_never_names_a_bool_as_a_player():
    a = PlayVillage("village:lake:7", True)
    text = game(3, player_names=("Ann", "Bob", "Cy")).action_text(a)
    assert text == str(a) and "malformed" in text and "Bob" not in text


def test_draw_three_says_the_data_numbers(tmp_path):
    """"Draw 3 cards and discard 4 cards": the numbers are the data file's."""
    assert game(3).action_text(DrawThree()) == "draw 3 cards and discard 4"
    text = (PACKAGE / "data.toml").read_text().replace("draw_cards = 3", "draw_cards = 2")
    f = tmp_path / "draw-two.toml"
    f.write_text(text)
    assert game(3, data=str(f)).action_text(DrawThree()) == "draw 2 cards and discard 4"


# ------------------------------------------------------------------ caches

def test_clearing_the_speed_caches_changes_nothing():
    g = game(4, teleport=True)
    first = play(g, seed=11).to_json()
    clear_caches()
    assert play(g, seed=11).to_json() == first


def test_no_bare_lru_cache_in_the_package():
    for name in MODULES:
        assert "lru_cache" not in (PACKAGE / name).read_text(), name


# ------------------------------------------------------------------ short functions

def test_no_function_over_60_lines():
    long = []
    for name in MODULES:
        for node in ast.walk(ast.parse((PACKAGE / name).read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno - node.lineno + 1 > 60:
                    long.append(f"{name}:{node.name}")
    assert not long


# ------------------------------------------------------------------ unseen cards

def test_unseen_pile_is_the_core_hook_read_from_the_view():
    """The top card of the supply is uniform over the cards a player has not seen:
    the deck less his hand, the discard pile and the table (``State.unseen``)."""
    from collections import Counter
    from kingdoms.core.play import play_state
    from kingdoms.elves import odds
    g = game(3)
    s = play_state(g, seed=5)
    s = next(st for st in s.path() if st.phase == "planning" and st.passes == 1)
    for p in range(3):
        pile = odds.unseen_pile(s, p)
        assert pile == dict(s.unseen(p)) == odds.unseen_pile(s.view(p), p)
        table = Counter()
        for realm in s.realms:
            for kind, specials in realm:
                table[kind] += 1
                table.update(f"special:{t}" for t, _ in specials)
        expect = Counter(g.deck_counts())
        expect.subtract(dict(zip(g.kinds, s.hands[p])))
        expect.subtract(dict(zip(g.kinds, s.discard)))
        expect.subtract(table)
        assert pile == {k: c for k, c in expect.items() if c > 0}
        others = sum(s.supply) + sum(sum(h) for q, h in enumerate(s.hands) if q != p)
        assert sum(pile.values()) == others


# ------------------------------------------------------------------ typed turn steps

def test_every_position_waits_for_one_typed_step():
    """``step`` is one frozen value of ``STEPS``; ``phase`` (kept for lessons) follows
    from it; whose move it is follows the step's kind."""
    from kingdoms.core.play import play_state
    from kingdoms.core.protocol import CHANCE, TERMINAL
    from kingdoms.elves.rules import (STEPS, Dealing, DrawingBought, DrawingThree,
                                      GameOver)
    seen = set()
    for seed in range(3):
        for s in play_state(game(3, teleport=True), seed=seed).path():
            assert type(s.step) in STEPS and s.phase == type(s.step).phase
            hash(s.step)
            seen.add(type(s.step))
            cp = s.current_player()
            if isinstance(s.step, GameOver):
                assert cp == TERMINAL
            elif isinstance(s.step, (Dealing, DrawingThree, DrawingBought)):
                assert cp == CHANCE
            else:
                assert cp == s.turn
    assert {"Dealing", "Planning", "Journeying", "GameOver"} <= {t.__name__ for t in seen}


def test_no_phase_strings_in_the_rules_and_pictures():
    for name in ("rules.py", "render.py", "odds.py", "policies.py"):
        text = (PACKAGE / name).read_text()
        assert "phase ==" not in text and ".pending" not in text, name
