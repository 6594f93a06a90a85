"""Exact odds for King of the Elves: deals, buying a card, draw 3 / discard 4.

Cards are named by kind (``"village:lake:7"``, ``"travel:raft"``, ``"special:thief"``).
A *pile* is ``{kind: copies}``.  All answers are exact ``Fraction``s or
``Distribution``s built on the multivariate hypergeometric law: a hand of ``n``
cards drawn without replacement from a pile.

Why the *unseen* pile is the right pile: a player who knows his hand, the table and
the discard pile cannot tell the supply's cards from the other players' hidden
cards, so for him the top card of the supply is equally likely to be any card he
has not seen (``state.unseen(player)``, the core's hook; ``unseen_pile`` gives it as
a pile).
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Callable, Mapping

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import _
from kingdoms.core.protocol import check_count, check_name
from kingdoms.core.distribution import (Distribution, composition_ways,
                                         multivariate_hypergeometric)

__all__ = ["reachable_terrains", "can_reach", "deal_can_reach", "deal_can_reach_terrain",
           "deal_reach_by_enumeration", "p_success_after_buying", "p_success_after_draw3",
           "journey_value_after_buying", "unseen_pile", "village_count_distribution",
           "sample_deal_can_reach"]


def _vehicle(kind: str) -> str | None:
    return kind.split(":")[1] if kind.startswith("travel:") else None


def reachable_terrains(travel: Mapping[str, int], rules) -> frozenset:
    """The terrains that one visit could reach with these travel cards
    (``{vehicle: cards}``), ignoring obstacles: some vehicle has enough cards."""
    out = set()
    for (vehicle, row) in rules.costs:
        have = travel.get(vehicle, 0)
        for terrain, need in row:
            if have >= need:
                out.add(terrain)
    return frozenset(out)


def can_reach(hand: Mapping[str, int], rules) -> bool:
    """Does ``hand`` hold a village and the travel cards to visit it (one visit,
    no obstacles)?"""
    travel = {_vehicle(k): c for k, c in hand.items() if _vehicle(k) and c}
    terrains = {k.split(":")[1] for k, c in hand.items() if k.startswith("village:") and c}
    return bool(terrains & reachable_terrains(travel, rules))


def _deal_size(game, cards, pile: Mapping[str, int]) -> int:
    """``cards`` (default: the first round's deal) if a deal of that many cards can be
    dealt from ``pile``, else a ``ValueError`` saying what can."""
    if cards is None:
        return game.numbers["deal_first_round"]
    return check_count(cards, "cards (the number of cards dealt)", 0, sum(pile.values()))


def _terrains(game, terrains) -> frozenset | None:
    """``terrains`` (one name or several) checked against the game's terrains."""
    if terrains is None:
        return None
    if isinstance(terrains, str):
        terrains = (terrains,)
    return frozenset(check_name(t, game.terrains, "terrain") for t in terrains)


def deal_can_reach(game, cards: int | None = None, pile: Mapping[str, int] | None = None,
                   terrains=None) -> Fraction:
    """P(a deal of ``cards`` cards holds a village plus enough travel cards to reach it).

    Exact: the deal's travel cards follow a multivariate hypergeometric law over the
    vehicles (the other cards lumped); given them, the reachable terrains are fixed and
    the remaining cards are a uniform draw from the non-travel cards, which misses every
    reachable village with probability ``C(others - reachable villages, r) / C(others, r)``.
    ``terrains`` restricts which villages count (a terrain or several; default: all).
    """
    pile = dict(game.deck_counts() if pile is None else pile)
    cards = _deal_size(game, cards, pile)
    terrains = _terrains(game, terrains)
    rules = game.journey_rules
    vehicles = rules.vehicles
    counts = {v: pile.get(f"travel:{v}", 0) for v in vehicles}
    others = sum(c for k, c in pile.items() if not k.startswith("travel:"))
    villages = Counter()
    for k, c in pile.items():
        if k.startswith("village:"):
            villages[k.split(":")[1]] += c
    counts["other"] = others
    hands = math.comb(sum(counts.values()), cards)
    # P = sum over the deals' travel cards (and r other cards) of
    #     ways / hands * (1 - comb(others - good, r) / comb(others, r)),
    # summed in whole numbers for each r
    hits: dict = {}
    for (reach, r), ways in _deals_by_reach(tuple(counts.items()), cards, rules).items():
        if terrains is not None:
            reach = reach & terrains
        good = sum(villages[t] for t in reach)
        hits[r] = hits.get(r, 0) + ways * (math.comb(others, r) - math.comb(others - good, r))
    return sum((Fraction(n, hands * math.comb(others, r)) for r, n in hits.items()),
               Fraction(0))


@speed_cache(64)
def _deals_by_reach(counts: tuple, cards: int, rules) -> dict:
    """``{(reachable terrains, other cards): hands}``: the deals of ``cards`` cards from
    a pile of ``counts`` (``((vehicle, copies), ..., ("other", copies))``), counted by
    what their travel cards reach and how many other cards they hold."""
    vehicles = [v for v, _ in counts[:-1]]
    out: dict = {}
    for outcome, ways in composition_ways(dict(counts), cards).items():
        key = (reachable_terrains(dict(zip(vehicles, outcome[:-1])), rules), outcome[-1])
        out[key] = out.get(key, 0) + ways
    return out


def deal_can_reach_terrain(game, cards: int | None = None) -> dict:
    """For each terrain: P(the deal holds a village of that terrain and the cards to
    reach it)."""
    return {t: deal_can_reach(game, cards, terrains=(t,)) for t in game.terrains}


def deal_reach_by_enumeration(game, cards: int, pile: Mapping[str, int] | None = None) -> Fraction:
    """The same probability by brute force over every composition of the deal by card
    kind (slow; for checking small deals)."""
    pile = dict(game.deck_counts() if pile is None else pile)
    kinds = [k for k, c in pile.items() if c]
    dist = multivariate_hypergeometric({k: pile[k] for k in kinds}, cards)
    rules = game.journey_rules
    return dist.P(lambda outcome: can_reach(dict(zip(kinds, outcome)), rules))


def sample_deal_can_reach(game, cards: int, n: int, seed=0) -> Fraction:
    """Monte Carlo estimate of ``deal_can_reach`` (shuffle and deal ``n`` times)."""
    import random
    cards = _deal_size(game, cards, game.deck_counts())
    check_count(n, "n (the number of deals)", 1)
    rng = random.Random(seed)
    deck = [k for k, c in game.deck_counts().items() for _ in range(c)]
    hits = 0
    for _ in range(n):
        hand = Counter(rng.sample(deck, cards))
        hits += can_reach(hand, game.journey_rules)
    return Fraction(hits, n)


def village_count_distribution(game, cards: int | None = None) -> Distribution:
    """How many village cards a deal holds (hypergeometric)."""
    from kingdoms.core.distribution import hypergeometric
    pile = game.deck_counts()
    cards = _deal_size(game, cards, pile)
    villages = sum(c for k, c in pile.items() if k.startswith("village:"))
    return hypergeometric(sum(pile.values()), villages, cards)


# --------------------------------------------------------------------------- improving a hand

def unseen_pile(state, player: int) -> dict:
    """The cards ``player`` has not seen, as a pile ``{kind: copies}``: the whole deck
    minus his hand, the table and the discard pile (``state.unseen(player)``, read
    from his view only).  For him the top card of the supply is uniform over these."""
    return dict(state.unseen(player))


def p_success_after_buying(hand: Mapping[str, int], pile: Mapping[str, int],
                           success: Callable[[Counter], bool], cards: int = 1) -> Fraction:
    """P(``success(hand + bought cards)``) when buying ``cards`` top cards drawn from
    ``pile``."""
    kinds = [k for k, c in pile.items() if c]
    dist = multivariate_hypergeometric({k: pile[k] for k in kinds}, cards)
    base = Counter(hand)

    def ok(outcome):
        h = base.copy()
        for k, c in zip(kinds, outcome):
            if c:
                h[k] += c
        return success(h)

    return dist.P(ok)


def _sub_multisets(hand: Counter, size: int):
    kinds = [k for k, c in hand.items() if c > 0]

    def go(i, left, acc):
        if i == len(kinds):
            if left == 0:
                yield Counter({k: c for k, c in zip(kinds, acc) if c})
            return
        rest = sum(hand[k] for k in kinds[i + 1:])
        for c in range(max(0, left - rest), min(hand[kinds[i]], left) + 1):
            yield from go(i + 1, left - c, acc + (c,))

    yield from go(0, size, ())


def p_success_after_draw3(hand: Mapping[str, int], pile: Mapping[str, int],
                          success: Callable[[Counter], bool], draw: int = 3,
                          discard: int = 4) -> Fraction:
    """P(after drawing ``draw`` cards from ``pile`` some choice of ``discard`` cards to
    throw away leaves a hand with ``success``) — the player discards as well as he can."""
    kinds = [k for k, c in pile.items() if c]
    dist = multivariate_hypergeometric({k: pile[k] for k in kinds}, draw)
    base = Counter(hand)
    keep = sum(base.values()) + draw - discard
    if keep < 0:
        raise ValueError(_("the hand is too small to discard that many cards"))
    memo: dict = {}

    def ok(outcome):
        h = base.copy()
        for k, c in zip(kinds, outcome):
            if c:
                h[k] += c
        key = frozenset(h.items())
        if key not in memo:
            memo[key] = any(success(kept) for kept in _sub_multisets(h, keep))
        return memo[key]

    return dist.P(ok)


def journey_value_after_buying(table, trip, rules, pile: Mapping[str, int]) -> Distribution:
    """The distribution of the best journey's net gold after buying one card from
    ``pile`` (the card's cost not included).  Only travel, escort and
    change-direction cards change a journey; the rest are lumped."""
    from dataclasses import replace

    from .journey import best_journey
    vehicles = rules.vehicles
    weights = Counter()
    for k, c in pile.items():
        if not c:
            continue
        v = _vehicle(k)
        if v in vehicles:
            i = vehicles.index(v)
            t = replace(trip, hand=trip.hand[:i] + (trip.hand[i] + 1,) + trip.hand[i + 1:])
        elif k == "special:escort":
            t = replace(trip, escorts=trip.escorts + 1)
        elif k == "special:change_direction":
            t = replace(trip, turns=trip.turns + 1)
        else:
            t = trip
        weights[t] += c
    values = Counter()
    for t, c in weights.items():
        values[best_journey(table, t, rules).value] += c
    return Distribution.from_counts(values)
