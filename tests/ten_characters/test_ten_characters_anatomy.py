"""Ten Characters in the shape of docs/anatomy.md: the components read once from the
data, typed turn steps, the unseen-cards hook, the pictures found by the core."""
from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections import Counter
from pathlib import Path
from types import MappingProxyType

import pytest

import kingdoms
from kingdoms.core.protocol import CHANCE, TERMINAL
from kingdoms.ten_characters import odds, render
from kingdoms.ten_characters.components import Components
from kingdoms.ten_characters.rules import (Choosing, Dealing, Effect, FortuneTellerPicks,
                                           FortuneTellerSees, GameOver, JesterJoins,
                                           KnightMayRemove, MageMayRemove, TenCharactersState,
                                           UnicornDiscards, UnicornDraws)

DATA = Path(kingdoms.__file__).parent / "ten_characters" / "data.toml"


def random_states(game, seed: int, every: int = 1):
    """Every ``every``-th state of a random game (chance sampled)."""
    rng = random.Random(seed)
    s = game.initial_state()
    i = 0
    while True:
        if i % every == 0:
            yield s
        if s.is_terminal():
            return
        s = s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
        i += 1


# ------------------------------------------------------------------ components

def test_components_are_read_once_from_the_data_and_are_values():
    g = kingdoms.game("ten_characters", players=3)
    c = g.components
    assert c == Components.from_data(g.game_data())
    assert c == kingdoms.game("ten_characters", players=5).components      # same data
    assert (g.passes, g.scoring_cards, g.hand, g.turns_per_pass) == (3, 2, 6, 4)
    assert kingdoms.game("ten_characters", players=2).hand == c.hand_for(2) == 8
    assert g.copies == c.copies == (10,) * 10 and g.points is c.points
    assert isinstance(g.points, MappingProxyType) and isinstance(g.labels, MappingProxyType)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.passes = 4
    for twin in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert twin == g and twin.components == c and twin.points == g.points


def test_an_edited_file_gives_other_components(tmp_path):
    path = tmp_path / "data.toml"
    path.write_text(DATA.read_text(encoding="utf-8").replace("passes = 3", "passes = 2"),
                    encoding="utf-8")
    g = kingdoms.game("ten_characters", players=3, data=str(path))
    assert g.passes == g.components.passes == 2
    assert g.components != kingdoms.game("ten_characters", players=3).components


# ------------------------------------------------------------------ turn steps

STEPS = (Dealing, Choosing, GameOver, KnightMayRemove, MageMayRemove, JesterJoins,
         FortuneTellerPicks, FortuneTellerSees, UnicornDraws, UnicornDiscards)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4},
                                     {"players": 3, "unicorn": "own"}])
def test_every_position_waits_for_one_typed_step(options):
    """The step is a frozen, hashable value of one of the step types, and it says who
    acts: the chooser, chance, the effect's player, or nobody at the end."""
    g = kingdoms.game("ten_characters", **options)
    kinds = Counter()
    for seed in range(6):
        for s in random_states(g, seed):
            step = s.step
            assert type(step) in STEPS
            kinds[type(step).__name__] += 1
            hash(step)
            assert dataclasses.is_dataclass(step) and type(step).__dataclass_params__.frozen
            cp = s.current_player()
            if isinstance(step, (Dealing, FortuneTellerSees, UnicornDraws)):
                assert cp == CHANCE
            elif isinstance(step, GameOver):
                assert cp == TERMINAL
            elif isinstance(step, Choosing):
                assert cp == s.chosen.index(None)
            elif isinstance(step, UnicornDiscards):
                assert cp in step.players and s.discarding[cp] is None
            else:
                assert cp == step.player and isinstance(step, Effect)
                assert step.rule
            assert s.view(0).step == step          # the step is public
    for kind in ("Dealing", "Choosing", "GameOver", "UnicornDraws", "UnicornDiscards"):
        assert kinds[kind], kind


def test_rules_state_draws_no_pictures_itself():
    """The render contract: the state has no picture methods of its own; the core
    finds ``render.text/html/short``."""
    for name in ("__str__", "_repr_html_", "short", "action_picture"):
        assert name not in TenCharactersState.__dict__
    s = next(s for s in random_states(kingdoms.game("ten_characters", players=3), 1)
             if isinstance(s.step, Effect))
    assert str(s) == render.text(s) and s._repr_html_() == render.html(s)
    assert s.short() == render.short(s)


# ------------------------------------------------------------------ unseen

def _hidden_places(s, p) -> int:
    """Cards in places ``p`` cannot see, less those ``p``'s Fortune Tellers saw there."""
    n = s.game.players
    out = s.pile_size + (0 if s.game.discards_public else sum(s.discard))
    for q in range(n):
        if q != p:
            out += len(s.hands[q]) + (s.chosen[q] is not None) + (s.discarding[q] is not None)
            out -= len(s.known[p][q])
    return out


@pytest.mark.parametrize("public", [True, False])
def test_unseen_hook_counts_what_the_view_hides(tmp_path, public):
    """``State.unseen(p)`` (``worlds.unseen``): from the view alone, it fills exactly
    the hidden places p knows nothing about, and ``odds.unseen_cards`` lists it."""
    path = tmp_path / "data.toml"
    path.write_text(DATA.read_text(encoding="utf-8").replace(
        "discards_public = true", f"discards_public = {str(public).lower()}"), encoding="utf-8")
    g = kingdoms.game("ten_characters", players=3, data=str(path))
    peeked = 0
    for seed in range(4):
        for s in random_states(g, seed, 3):
            for p in range(3):
                pool = s.unseen(p)
                assert isinstance(pool, Counter) and min(pool.values(), default=1) > 0
                assert pool == s.view(p).unseen(p)
                assert sum(pool.values()) == _hidden_places(s, p)
                assert odds.unseen_cards(s, p) == {c: pool[c] for c in kingdoms.ten_characters.CHARACTERS}
                peeked += any(s.known[p][q] for q in range(3) if q != p)
    assert peeked
    with pytest.raises(ValueError, match="Player 1"):
        s.unseen(3)


def test_a_seeded_game_is_the_same_with_empty_caches():
    """The speed caches (``kingdoms.core.cache``) change no result: the same seeded game
    with the default (greedy) players, played after ``clear_caches()``."""
    from kingdoms.core import play
    from kingdoms.core.cache import clear_caches
    g = kingdoms.game("ten_characters", players=3)
    first = play(g, None, seed=7).to_json()
    clear_caches()
    assert play(g, None, seed=7).to_json() == first
