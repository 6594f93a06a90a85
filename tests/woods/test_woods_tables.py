"""King of the Woods, speed work (s13): the play tables made once per game give exactly
what the plain rules give."""
from __future__ import annotations

import pytest

import kingdoms
from kingdoms.woods.rules import Play


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_tables_hold_each_followers_plays_in_follower_order(players):
    g = kingdoms.game("woods", players=players)
    t = g.tables
    assert [card for card, _ in t.plays] == list(g.followers)
    for card, plays in t.plays:
        assert plays == tuple(Play(card, k) for k in range(players))
    assert t.squire_plays == tuple(Play("Squire", k) for k in range(players))
    assert kingdoms.game("woods", players=players).tables == t      # a value of the config
