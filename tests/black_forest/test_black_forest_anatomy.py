"""Into the Black Forest follows docs/anatomy.md: components, typed turn steps, the
unseen-cards hook, the render contract, caches beside the game, the players."""
from __future__ import annotations

import ast
import pickle
import random
from collections import Counter
from math import comb
from fractions import Fraction
from pathlib import Path

import pytest

import kingdoms
from kingdoms.black_forest import odds, policies, render
from kingdoms.black_forest.components import Components
from kingdoms.black_forest.rules import (BlackForest, BlackForestState, Dealing, Discarding,
                                         GameOver, Playing, Revealing)
from kingdoms.core import CHANCE, TERMINAL
from kingdoms.core.cache import clear_caches
from kingdoms.core.play import play_state, random_policy

PACKAGE = Path(kingdoms.__file__).parent / "black_forest"


def game(players=3, **options):
    return kingdoms.game("black_forest", players=players, **options)


def playout(g, seed):
    """Every state of a seeded random game."""
    return play_state(g, random_policy, rng=random.Random(seed)).path()


# ------------------------------------------------------------------ components

@pytest.mark.parametrize("players", [2, 3, 4])
def test_components_are_read_once_from_the_data_and_are_values(players):
    g, h = game(players), game(players)
    assert g.components == h.components and g.components is not h.components
    assert g.components == Components.from_data(g.game_data(), players)
    assert g.hand_size == g.components.hand_size == (8 if players == 2 else 6)
    assert g.n_rounds == g.components.rounds == (3 if players == 2 else 2)
    assert g.seat_cards == g.components.seat_cards
    assert game(players).components != game(2 if players != 2 else 3).components


def test_the_game_pickles_without_a_hand_written_reduce():
    assert "__reduce__" not in vars(BlackForest)
    g = game(4, start_player=2, rounds=1)
    back = pickle.loads(pickle.dumps(g))
    assert back == g and back.components == g.components
    s = play_state(g, random_policy, rng=random.Random(5))
    assert pickle.loads(pickle.dumps(s)) == s


def test_no_module_of_the_game_reads_the_data_file_itself():
    for path in PACKAGE.glob("*.py"):
        assert "load_data(" not in path.read_text(encoding="utf-8"), path.name


# ------------------------------------------------------------------ turn steps

@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_waits_for_one_typed_step(players):
    g = game(players)
    seen = set()
    for s in playout(g, players):
        step = s.step
        seen.add(type(step))
        assert hash(step) == hash(type(step)()) and step == type(step)()
        cp = s.current_player()
        match step:
            case Revealing() | Dealing():
                assert cp == CHANCE
            case Playing():
                assert cp == s.to_move and s.hands[cp]
            case Discarding():
                assert len(s.hands[cp]) > g.hand_size
            case GameOver():
                assert cp == TERMINAL
        assert s.phase == {Revealing: "reveal", Dealing: "deal", Discarding: "discard",
                           Playing: "play", GameOver: "over"}[type(step)]
    assert seen == {Revealing, Dealing, Discarding, Playing, GameOver}


def test_no_phase_strings_are_compared_in_the_game():
    for name in ("rules.py", "render.py", "odds.py", "worlds.py", "policies.py"):
        text = (PACKAGE / name).read_text(encoding="utf-8")
        assert ".phase ==" not in text and ".phase !=" not in text and "phase=" not in text, name


# ------------------------------------------------------------------ unseen

@pytest.mark.parametrize("players", [2, 3, 4])
def test_unseen_counts_every_other_seats_hidden_cards(players):
    g = game(players)
    for s in playout(g, 10 + players)[::4]:
        for p in range(players):
            truth = Counter()
            for q in range(players):
                if q != p:
                    truth.update(s.hands[q] + s.decks[q] + s.discarded[q])
                    truth.update(c for o, c in s.right if o == q)
            assert s.unseen(p) == truth
            assert s.view(p).unseen(p) == truth            # from the view alone
            for q in range(players):
                if q != p:
                    assert Counter(odds.unseen_cards(s.view(p), p, q)) == Counter(
                        c for c in truth if g.owner[c] == q)


def test_unseen_of_a_seat_outside_the_game_is_an_error():
    s = game(3).initial_state()
    for bad in (3, -1, True, "0", None):
        with pytest.raises(ValueError, match="unseen"):
            s.unseen(bad)


def test_sampled_worlds_deal_out_exactly_the_unseen_cards():
    g = game(4)
    rng = random.Random(3)
    for s in playout(g, 8)[::9]:
        for p in range(4):
            w = s.sample_world(p, rng)
            dealt = Counter()
            for q in range(4):
                if q != p:
                    dealt.update(w.hands[q] + w.decks[q] + w.discarded[q])
                    dealt.update(c for o, c in w.right if o == q)
            assert dealt == s.unseen(p)


# ------------------------------------------------------------------ render, caches

def test_pictures_come_from_render_and_rules_never_import_it():
    s = playout(game(3), 2)[40]
    assert str(s) == render.text(s) and s._repr_html_() == render.html(s)
    assert s.short() == render.short(s)
    tree = ast.parse((PACKAGE / "rules.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not imported & {"render", "odds"}     # policies: inside the hook only
    for name in ("__str__", "_repr_html_", "short", "action_picture"):
        assert name not in vars(BlackForestState)


def test_caches_change_no_result_and_sit_beside_the_game():
    g = game(4)
    first = play_state(g, None, seed=4)
    clear_caches()
    again = play_state(g, None, seed=4)
    assert first.history() == again.history() and first.points == again.points
    assert not {"plays", "draws", "discards", "reveals"} & set(vars(g))
    with pytest.raises(TypeError):
        g.draws[0][g.card("Red 1")] = None


def test_left_match_helper_is_the_hypergeometric_formula():
    for n, s, k in [(24, 6, 2), (12, 3, 1), (18, 0, 2), (5, 5, 3), (7, 2, 0)]:
        want = 1 - Fraction(comb(n - s, k), comb(n, k))
        assert odds.p_left_match("Wands", (), {"Wands": s, "other": n - s}, k) == want


# ------------------------------------------------------------------ players

def test_players_extend_the_cores_and_stay_reachable_from_odds():
    names = game(3).policies()
    assert list(names)[:2] == ["random", "mcts"]
    assert names["simple"] is policies.simple_policy is odds.simple_policy
    assert names["greedy"] is policies.greedy_policy is odds.greedy_policy
    assert game(3).default_policies() == (policies.simple_policy,) * 3
