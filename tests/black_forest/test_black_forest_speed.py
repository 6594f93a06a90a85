"""Into the Black Forest, speed work (issue 14): the default player reads the table once
per decision (same choices as rating each placement on its own), views hide what they
hid, and a game unpickled in a worker finds the ready-made actions of an equal game."""
from __future__ import annotations

import pickle

import pytest

import kingdoms
from kingdoms.black_forest import rules as R
from kingdoms.black_forest.policies import TOP_VALUE, simple_policy
from kingdoms.black_forest.rules import CAPACITY, Discarding
from kingdoms.core.play import play_state
from kingdoms.core.protocol import HIDDEN


def _reference_rate(state, a, top_suits):
    """``simple_policy``'s documented rating of one placement, written out plainly."""
    v = a.card.value
    if a.space in ("bottom", "top"):
        pair = state.bottom if a.space == "bottom" else state.top
        if pair:
            other = pair[0][1].value
            wins = v < other if a.space == "bottom" else v > other
            return other if wins else -0.5
        return (TOP_VALUE - v) / 3 if a.space == "bottom" else (v - 1) / 3
    if a.space == "left":
        if a.card.suit in top_suits:
            return v
        return v / 3 if len(state.top) < CAPACITY["top"] else -1
    cond = state.game.conditions[state.upcoming[0]]
    if not cond.qualifies(a.card):
        return -1
    if cond.rank == "highest":
        share = v / TOP_VALUE
    elif cond.rank == "lowest":
        share = (TOP_VALUE + 1 - v) / TOP_VALUE
    else:
        target = sum(c.value for _, c in state.bottom) if cond.needs_bottom() else cond.target
        share = max(0.0, 1 - abs(v - (target or 0)) / 6)
    return state.game.right_points * share - 1


def _reference_choice(state):
    acts = state.legal_actions()
    top_suits = {c.suit for _, c in state.top if c is not HIDDEN}
    return max(acts, key=lambda a: (_reference_rate(state, a, top_suits), -a.card.value,
                                    a.space))


def _decisions(players, seeds):
    """Every placement decision of seeded games (full states)."""
    g = kingdoms.game("black_forest", players=players)
    for seed in seeds:
        s = play_state(g, seed=seed)
        while s is not None:
            if s.current_player() >= 0 and not isinstance(s.step, Discarding):
                yield s
            s = s._prev


def _decision_views(players, seeds):
    for s in _decisions(players, seeds):
        yield s.view(s.current_player())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simple_policy_picks_the_first_best_rated_placement(players):
    views = list(_decision_views(players, range(6)))
    assert len(views) > 100
    for v in views:
        assert simple_policy(v) is _reference_choice(v)


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_hides_every_other_seat_and_keeps_the_counts(players):
    for full in _decisions(players, range(2)):
        p = full.to_move
        w = full.view(p)
        assert w.right == tuple((q, c if q == p else HIDDEN) for q, c in full.right)
        for rows in ("hands", "decks", "discarded"):
            got = getattr(w, rows)
            for q, cards in enumerate(got):
                if q == p:
                    assert cards == getattr(full, rows)[q]
                else:
                    assert cards == (HIDDEN,) * len(getattr(full, rows)[q])


def test_an_unpickled_game_reuses_the_ready_made_actions_of_an_equal_game():
    g = kingdoms.game("black_forest", players=3)
    made = R._made(g.components)
    g2 = pickle.loads(pickle.dumps(g))
    assert g2 == g and g2.components is not g.components
    assert R._made(g2.components) is made
    s, s2 = play_state(g, seed=5), play_state(g2, seed=5)
    assert str(s) == str(s2) and s.returns() == s2.returns()


@pytest.mark.parametrize("players", [2, 4])
def test_the_tables_by_card_key_hold_the_same_ready_made_actions(players):
    g = kingdoms.game("black_forest", players=players)
    made = R._made(g.components)
    plays, discards, draws = made.by_key
    for p, cards in enumerate(g.components.seat_cards):
        for spaces, table in made.plays[p].items():
            assert all(plays[p][spaces][c._key] is table[c] for c in cards)
        assert all(discards[p][c._key] is made.discards[p][c] for c in cards)
        assert all(draws[p][c._key] is made.draws[p][c] for c in cards)


def test_legal_actions_are_the_ready_made_ones_and_a_hidden_hand_lists_plain_values():
    for full in _decisions(3, range(2)):
        p = full.current_player()
        acts = full.legal_actions()
        spaces = full.open_spaces(p)
        table = R._made(full.game.components).plays[p][spaces]
        assert acts == tuple(a for c in full.hands[p] for a in table[c])
        assert all(a is b for a, b in zip(acts, (a for c in full.hands[p] for a in table[c])))
        assert full.view(p).legal_actions() == acts
        other = full.view((p + 1) % 3)          # another seat's view: hidden cards
        assert all(a.card is HIDDEN for a in other.legal_actions())
