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


# ---- the play list, the Treasurer's draw and the hand helpers (speed work, s12) --------

def _random_hands(rng, game, count):
    deck = list(game.deck)
    for _ in range(count):
        rng.shuffle(deck)
        yield tuple(sorted(deck[:rng.randint(1, min(9, len(deck)))]))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_plays_list_each_card_kind_to_each_court_in_follower_order(players):
    g = kingdoms.game("woods", players=players)
    s = g.initial_state()
    rng = random.Random(players)
    for hand in _random_hands(rng, g, 60):
        for barred in (None,) + tuple(range(players)):
            expected = tuple(Play(c, k) for c in s._distinct(hand) for k in range(players)
                             if not (c == "Princess" and k == barred))
            assert s._plays(hand, barred=barred) == expected


def test_the_princess_to_her_own_court_is_left_out_only_for_that_court():
    g = kingdoms.game("woods", players=3)
    s = g.initial_state()
    plays = s._plays(("Fool", "Princess"), barred=1)
    assert Play("Princess", 1) not in plays
    assert Play("Princess", 0) in plays and Play("Princess", 2) in plays
    assert [a for a in plays if a.card == "Fool"] == [Play("Fool", k) for k in range(3)]


def test_treasurer_draw_chances_are_the_card_counts_over_the_hand_size():
    from collections import Counter
    from fractions import Fraction
    g = kingdoms.game("woods", players=4)
    s = g.initial_state()
    rng = random.Random(5)
    hands = list(_random_hands(rng, g, 40)) + [("Fool", "Fool", R.HIDDEN, R.HIDDEN, R.HIDDEN)]
    for hand in hands:
        t = R.replace(s, hands=(("Knight",), hand, (), ()), turn=0,
                      step=R.TreasurerDrawing(1))
        counts = Counter(hand)
        expected = tuple((R.TreasurerDraw(c, 0, 1), Fraction(counts[c], len(hand)))
                         for c in sorted(counts, key=R._sort_key))
        assert t._draws(0, 1) == expected
        assert sum(p for _, p in t._draws(0, 1)) == 1


def test_share_table_holds_every_fraction_k_over_n():
    from fractions import Fraction
    table = R._shares(12)
    assert len(table) == 13 and table[0] == ()
    for n in range(1, 13):
        assert table[n] == tuple(Fraction(k, n) for k in range(n + 1))


def test_hand_less_removes_one_copy_from_one_hand_only():
    hands = (("Fool", "Fool", "Guard"), ("Fool",), ())
    assert R._hand_less(hands, 0, "Fool") == (("Fool", "Guard"), ("Fool",), ())
    assert R._hand_less(hands, 1, "Fool") == (("Fool", "Fool", "Guard"), (), ())
    with pytest.raises(ValueError):
        R._hand_less(hands, 2, "Fool")


@pytest.mark.parametrize("card", ["Trader", "Knight", "Scholar", "Treasurer", "General"])
def test_intrigue_at_your_own_court_ends_the_turn_without_a_step(card):
    g = kingdoms.game("woods", players=2)
    s = g.position([[card, "Fool"], ["Guard", "Squire"]], courts=[["Guard"], ["Fool"]])
    after = s.apply(Play(card, 0))
    assert type(after.step) is R.Playing and after.turn == 1
    assert after.courts[0] == (("Guard",), (card,)) and after.hands[0] == ("Fool",)


def test_plays_follow_the_influence_order_of_an_edited_data_file(tmp_path):
    from importlib import resources
    text = resources.files("kingdoms.woods").joinpath("data.toml").read_text()
    edited = text.replace('name = "Princess"\ninfluence = 7', 'name = "Princess"\ninfluence = 0')
    assert edited != text
    f = tmp_path / "low_princess.toml"
    f.write_text(edited)
    g = kingdoms.game("woods", players=2, data=str(f))
    assert g.followers.index("Princess") < g.followers.index("Trader")
    s = g.initial_state()
    plays = s._plays(("Fool", "Princess", "Trader"))
    assert [a.card for a in plays] == [c for c in g.followers
                                       if c in ("Fool", "Princess", "Trader") for _ in range(2)]
    assert plays[0].card == "Princess"
