"""King of the Woods, speed work (issue 14): the malformed-action check moved from an
``apply`` override into the core hook ``_refuse_malformed``; the messages stay word for
word, the state is unchanged, and the game's own listed actions skip the check."""
from __future__ import annotations

import random
from unittest import mock

import pytest

import kingdoms
from kingdoms.core import IllegalAction
from kingdoms.core.play import play_state
from kingdoms.woods import rules as R
from kingdoms.woods.rules import Play

MALFORMED = [
    (None, "None is not an action of King of the Woods (a NoneType)"),
    (Play("Fool", "0"), "Play.court should be a player number 0..2, not '0'"),
    (Play("Fool", 0.0), "Play.court should be a player number 0..2, not 0.0"),
    (mock.ANY, "<ANY> is not an action of King of the Woods (a _ANY)"),
    (Play("Nobody", 1), "Play.card should be a follower's name, not 'Nobody'"),
]


def _positions():
    g = kingdoms.game("woods", players=3)
    deal = g.initial_state()
    first = deal.apply(deal.sample_chance(random.Random(1)))
    return deal, first, play_state(g, seed=3)


def _refusal(state, action) -> str:
    before = str(state), state.current_player()
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert (str(state), state.current_player()) == before
    return str(e.value)


@pytest.mark.parametrize("action,problem", MALFORMED)
def test_malformed_actions_keep_their_messages_at_every_kind_of_node(action, problem):
    deal, first, end = _positions()
    assert _refusal(first, action) == f"Player 1 may not do that: {problem}"
    assert _refusal(deal, action) == f"{problem}: it cannot happen at this chance event"
    assert _refusal(end, action) == f"The game is over: no more actions ({problem})."


def test_a_well_formed_action_at_the_end_names_the_action():
    _, _, end = _positions()
    assert _refusal(end, Play("Fool", 1)) == (
        "The game is over: no more actions (play the Fool to Player 2's court).")


def test_listed_actions_skip_the_check_and_equal_copies_are_checked(monkeypatch):
    _, first, _ = _positions()
    asked = []
    real = R._malformed
    monkeypatch.setattr(R, "_malformed", lambda a, g: asked.append(a) or real(a, g))
    listed = first.legal_actions()[0]
    after = first.apply(listed)
    assert asked == []
    copy = Play(listed.card, listed.court)
    assert copy is not listed
    again = first.apply(copy)
    assert asked == [copy]
    assert str(again) == str(after) and again._last[1] is listed


def test_distinct_lists_card_kinds_in_follower_order_without_hidden_cards():
    g = kingdoms.game("woods", players=3)
    s = g.initial_state()
    hand = tuple(sorted(g.deck, reverse=True)) + (R.HIDDEN,)
    assert s._distinct(hand) == [c for c in g.followers if c in set(g.deck)]
    assert s._distinct(("Princess", "Assassin", "Princess")) == [
        c for c in g.followers if c in ("Princess", "Assassin")]
    assert s._distinct(("Nobody", "Fool")) == ["Fool"]
