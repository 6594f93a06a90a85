"""King of the Woods, speed work (s13): the play tables made once per game and the
next turn's position built field by field give exactly what the plain rules give."""
from __future__ import annotations

import dataclasses
import random

import pytest

import kingdoms
from kingdoms.core.protocol import replace
from kingdoms.woods import rules as R
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


def test_the_next_turn_is_the_position_replace_makes():
    fields = {f.name for f in dataclasses.fields(R.WoodsState) if f.init}
    for players in (2, 3, 5):
        g = kingdoms.game("woods", players=players)
        rng = random.Random(players)
        s, seen = g.initial_state(), 0
        while not s.is_terminal() and seen < 400:
            if type(s.step) is R.Playing and not s.over:
                q = (s.turn + 1) % players
                made = s._next_turn(q, s.hands, s.known, s.courts, s.removed)
                want = replace(s, hands=s.hands, known=s.known, courts=s.courts,
                               removed=s.removed, turn=q, step=R.PLAYING, after=())
                assert made == want and hash(made) == hash(want)
                assert set(made.__dict__) == fields          # no route, no caches
                assert made._prev is None and made._last is None
                seen += 1
            la = s.legal_actions() if not s.is_chance() else None
            s = s.apply(s.sample_chance(rng) if la is None else la[rng.randrange(len(la))])
