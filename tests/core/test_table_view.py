"""``State.table_view()``: what every player may see (a projector in a class), for
every game through the protocol only, and ``Action.seen_at_table``.

The table view shows a part of the position only where every player's ``view(p)``
shows it; the tests check that (a) two positions that differ only in what some player
may not see (``sample_world``) look the same at the table, picture included, (b) the
table never shows a part that a player's view hides, (c) it does hide something (a
hand), so these checks can fail.
"""
from __future__ import annotations

import dataclasses
import random

import pytest

import kingdoms
from kingdoms.core.protocol import HIDDEN, Action, State, common_part

GAMES = [g for g in kingdoms.games() if g != "highcard"]


def first_decision(game, seed):
    """The first decision of a seeded game (its set-up chance events played)."""
    rng = random.Random(seed)
    s = game.initial_state()
    while s.is_chance():
        s = s.apply(s.sample_chance(rng))
    return s, rng


def shown_only_if_seen(table, views) -> list[str]:
    """Where ``table`` shows something that one of ``views`` hides: a list of places
    (empty when the table shows nothing beyond any view)."""
    bad = []

    def walk(t, vs, where):
        if t is HIDDEN or all(v is t or v == t for v in vs):
            return
        if isinstance(t, tuple) and all(isinstance(v, tuple) and len(v) == len(t) for v in vs):
            if any(x is HIDDEN for x in t) and any(v == t for v in vs):
                return      # a row as a player who knows less sees it (a known card, ?s)
            for i, x in enumerate(t):
                walk(x, [v[i] for v in vs], f"{where}[{i}]")
            return
        if dataclasses.is_dataclass(t) and all(type(v) is type(t) for v in vs):
            for f in dataclasses.fields(t):
                if f.init:
                    walk(getattr(t, f.name), [getattr(v, f.name) for v in vs],
                         f"{where}.{f.name}")
            return
        # shown differently from some view: only the form in which a player who does
        # not know it sees it (e.g. a face-down pile as (HIDDEN, size))
        if not any(v == t for v in vs) or not _hides(t):
            bad.append(where)

    walk(table, list(views), "state")
    return bad


def _hides(x) -> bool:
    if x is HIDDEN:
        return True
    if isinstance(x, (tuple, frozenset)):
        return any(map(_hides, x)) or len(x) == 0
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return any(_hides(getattr(x, f.name)) for f in dataclasses.fields(x) if f.init)
    return False


@pytest.mark.parametrize("name", GAMES)
def test_positions_differing_in_hidden_cards_look_the_same_at_the_table(name):
    game = kingdoms.game(name, players=3 if name != "horse" else 2)
    for seed in (1, 2, 3):
        s, rng = first_decision(game, seed)
        table = s.table_view()
        picture = table._repr_html_()
        for p in range(game.players):
            other = s.sample_world(p, rng)
            assert other != s or game.players == 1
            assert other.table_view() == table, (seed, p)
            assert other.table_view()._repr_html_() == picture, (seed, p)
        # and the table is not a player's view: some hand is hidden from it
        assert all(table != s.view(p) for p in range(game.players))
        assert all(s.view(p)._repr_html_() != picture for p in range(game.players))


@pytest.mark.parametrize("name", GAMES)
def test_the_table_shows_nothing_a_player_does_not_see(name):
    for config in type(kingdoms.game(name)).configurations()[:3]:
        game = kingdoms.game(name, **config)
        rng = random.Random(5)
        s = game.initial_state()
        for step in range(120):
            if s.is_terminal():
                break
            if step % 5 == 0:
                views = [s.view(p) for p in range(game.players)]
                table = s.table_view()
                assert shown_only_if_seen(table, views) == [], (config, step, s.short())
                assert table.current_player() == s.current_player()
                table._repr_html_()
                str(table)
            s = s.apply(s.sample_chance(rng) if s.is_chance()
                        else rng.choice(s.legal_actions()))
        for _, action in s.history():
            if isinstance(action, Action):
                seen = [action.seen_by(p) for p in range(game.players)]
                at_table = action.seen_at_table(game.players)
                assert shown_only_if_seen(at_table, seen) == []
                game.action_text(at_table)


def test_a_card_every_player_sees_stays_and_a_hand_is_hidden():
    from toygame import Deal
    game = kingdoms.game("highcard", players=2)
    s = game.initial_state().apply(Deal(1)).apply(Deal(3))
    table = s.table_view()
    assert s.view(0).hands[0] == 1 and s.view(1).hands[1] == 3      # each sees their own
    assert table.hands == (HIDDEN, HIDDEN)
    assert table.current_player() == s.current_player()
    assert Deal(3).seen_at_table(2) == Deal(HIDDEN)
    with pytest.raises(ValueError, match="players must be a whole number"):
        Deal(3).seen_at_table(0)


def test_common_part_rules():
    assert common_part([(1, 2), (1, 2)]) == (1, 2)
    assert common_part([(1, 2), (1, 3)]) == (1, HIDDEN)               # entry by entry
    assert common_part([(1, 2, 3), (HIDDEN, 3)]) == (HIDDEN, 3)        # the hidden form
    assert common_part([("a",), ()]) == ()                             # one knows nothing
    assert common_part([(1, HIDDEN), (1, 2)]) == (1, HIDDEN)
    assert common_part([(1, HIDDEN), (HIDDEN, 2), (1, 2)]) == (HIDDEN, HIDDEN)
    assert common_part([1, 2]) is HIDDEN
    assert common_part([1, True]) is HIDDEN                            # not the same value

    @dataclasses.dataclass(frozen=True)
    class Pair:
        a: int
        b: int

        def __post_init__(self):                 # a check that would refuse HIDDEN
            if not isinstance(self.b, int):
                raise TypeError("b must be an int")

    mixed = common_part([Pair(1, 2), Pair(1, 3)])
    assert (mixed.a, mixed.b) == (1, HIDDEN)


def test_a_game_without_hidden_information_shows_everything_at_the_table(monkeypatch):
    game = kingdoms.game("highcard", players=2)
    s = game.initial_state()
    assert s.table_view() is not s and isinstance(s.table_view(), State)
    monkeypatch.setattr(type(game), "hidden_information", False)
    assert s.table_view() is s
