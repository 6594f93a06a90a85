"""Elves positions built for tests (shared by tests/elves)."""
from __future__ import annotations

import dataclasses
from collections import Counter

from kingdoms.elves.rules import PLANNING


def planning_state(g, hands=None, realms=None, gold=None, turn=0, supply=None):
    """A planning position of game ``g`` with the given hands ``{player: {kind: n}}``
    and realms; the other cards are in the supply (or, with ``supply``, that list is
    the supply and the rest lies on the discard pile), so the 120 cards are conserved."""
    n = g.players
    hc = [[0] * len(g.kinds) for _ in range(n)]
    for p, h in (hands or {}).items():
        for k, c in h.items():
            hc[p][g.index[k]] += c
    realms = tuple(tuple((k, tuple(sorted(sp))) for k, sp in r) for r in (realms or [()] * n))
    used = Counter()
    for h in hc:
        for i, c in enumerate(h):
            used[i] += c
    for r in realms:
        for k, sp in r:
            used[g.index[k]] += 1
            for s, _ in sp:
                used[g.index["special:" + s]] += 1
    sup = tuple(c - used[i] for i, c in enumerate(g.deck))
    assert min(sup) >= 0
    disc = (0,) * len(g.kinds)
    if supply is not None:
        keep = Counter(supply)
        disc = tuple(c - keep[g.kinds[i]] for i, c in enumerate(sup))
        sup = tuple(keep[g.kinds[i]] for i in range(len(sup)))
    s = g.initial_state()
    return dataclasses.replace(s, step=PLANNING, supply=sup, discard=disc,
                               hands=tuple(tuple(h) for h in hc), realms=realms,
                               gold=tuple(gold) if gold else s.gold, turn=turn)
