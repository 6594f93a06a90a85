"""Sampling a full King of the Elves state consistent with what one player has seen
(``ElvesState.sample_world``, for determinizing searches such as IS-MCTS).

Scope: this sampler is exact only where the consistent worlds are known to be simple,
and raises ``NotImplementedError`` everywhere else (see "Not covered" below).

What player ``p`` does not see (``view(p)``): the cards of the supply, the other
hands (their sizes are public), the other players' gold totals and another
traveller's cards and gold.

Gold: every gold transfer is an action everybody sees (a buy's price, a removal's
price, a spell's price, what a visit pays and the thief takes), so each player's gold
is the starting gold plus the transfers in ``p``'s history (``history(p)``, the same
sums as ``rules.gold_ledger``).  A world's gold is the true gold.

Cards (round 1): the unseen cards are the deck less ``p``'s hand, the discard pile
(face up) and the cards on the table.  The world deals them by a uniform shuffle
into the other hands (each of its known size) and the supply.  "Uniform" means every
arrangement of the unseen physical cards is equally likely; it does not weigh a world
by what the other players' choices might betray.  In round 1, with none of the events
below, every such arrangement is consistent with what ``p`` saw: all cards started in
the supply and none went back to it, so a supply always held the cards drawn from it
later, and a player's cards played or discarded face up can be given to his earliest
draws (he had drawn at least k cards before his k-th card left his hand: hand sizes
are public), his present hand to the others.  One constraint concerns the present:
a traveller of the teleporting variant who has cast the spell and still has ``k``
travel cards to hand in holds at least ``k`` travel cards; his hand is dealt
uniformly among the arrangements that keep this (exactly: the number of travel cards
is drawn with its conditional hypergeometric weight).

Not covered (``NotImplementedError``): rounds after the first (cards come back to the
supply at the end of a round, so some arrangements have no history that explains
them); a "No village card!" anywhere in the history (a shown hand, a hidden village
taken from the supply, the supply found without villages, ``p``'s own look at the
supply); another player passing with an empty realm (he then held no village); a
state without its history from the start of the game (the other players' gold is
then unknown).  A finished game is public: the world is the state itself.

Only ``view(p)`` and ``history(p)`` are read (and whether that history starts at
the game's initial state, which is public).
"""
from __future__ import annotations

from kingdoms.core.protocol import CHANCE, replace

from .journey import Teleport, TeleportTo, Visit

__all__ = ["sample_world", "public_gold"]


def _not_here(why: str):
    return NotImplementedError(f"King of the Elves does not sample worlds "
                               f"(State.sample_world) {why} yet")


def public_gold(state, player: int) -> tuple:
    """Every player's gold from the transfers in ``state.history(player)`` (actions
    everyone sees: see the module doc)."""
    from .rules import Buy, RemoveVillage
    g = state.game
    gold = [g.numbers["starting_gold"]] * g.players
    for who, a in state.history(player):
        if isinstance(a, (Buy, RemoveVillage, Teleport)):
            gold[who] -= a.cost
        elif isinstance(a, (Visit, TeleportTo)):
            gold[who] += a.gold + a.bonus - a.thief
            if a.thief:
                gold[a.thief_to] += a.thief
    return tuple(gold)


def _check_covered(state, view, player: int, steps: tuple) -> None:
    """Raise ``NotImplementedError`` where this sampler is not exact (module doc)."""
    from .rules import NoVillageCard, Pass, PlayVillage, RemoveVillage, TakeVillage
    g = state.game
    if view.round != 1:
        raise _not_here("after the first round")
    if state.root() != g.initial_state():
        raise _not_here("for a position without its history from the start")
    villages = [0] * g.players
    for who, a in steps:
        if isinstance(a, (NoVillageCard, TakeVillage)):
            raise _not_here('after a "No village card!"')
        if isinstance(a, PlayVillage):
            villages[a.realm] += 1
        elif isinstance(a, RemoveVillage):
            villages[who] -= 1
        elif isinstance(a, Pass) and who != player and who != CHANCE and not villages[who]:
            raise _not_here("after a player passed with an empty realm")


def sample_world(state, player: int, rng):
    """A full state ``player`` cannot tell from ``state`` (see the module doc)."""
    view = state.view(player)
    if view.phase == "over":            # everything is shown
        return view
    steps = state.history(player)
    _check_covered(state, view, player, steps)
    g = view.game
    n = g.players
    # the unseen cards, kind by kind in the data's order
    left = [c - h - d for c, h, d in zip(g.deck, view.hands[player], view.discard)]
    for realm in view.realms:
        for kind, specials in realm:
            left[g.index[kind]] -= 1
            for special, _ in specials:
                left[g.special_idx[special]] -= 1
    if min(left) < 0:                   # pragma: no cover - a broken state
        raise ValueError("more cards seen than the game has")
    sizes = {q: view.hands[q][1] for q in range(n) if q != player}
    if sum(sizes.values()) + view.supply[1] != sum(left):   # pragma: no cover
        raise ValueError(f"{sum(left)} unseen cards do not fill the hidden places")
    cards = [i for i, k in enumerate(left) for _ in range(k)]
    fixed = {}
    trip = view.trip
    if trip is not None and trip.player != player and trip.teleport_left > 0:
        # the spell's caster holds the travel cards still to hand in
        fixed[trip.player] = _hand_with_travel(cards, sizes[trip.player], trip.teleport_left,
                                               set(g.travel_idx), rng)
        for i in fixed[trip.player]:
            cards.remove(i)
    rng.shuffle(cards)
    hands = list(view.hands)
    at = 0
    for q, size in sizes.items():
        got = fixed.get(q)
        if got is None:
            got, at = cards[at:at + size], at + size
        hand = [0] * len(g.kinds)
        for i in got:
            hand[i] += 1
        hands[q] = tuple(hand)
    supply = [0] * len(g.kinds)
    for i in cards[at:]:
        supply[i] += 1
    gold = public_gold(state, player)
    fields = dict(hands=tuple(hands), supply=tuple(supply), gold=gold)
    if trip is not None and trip.player != player:
        hand = hands[trip.player]
        fields["trip"] = replace(trip, hand=tuple(hand[i] for i in g.travel_idx),
                                 escorts=hand[g.escort_idx], turns=hand[g.turn_idx],
                                 gold=gold[trip.player])
    return replace(view, **fields)


def _hand_with_travel(cards: list, size: int, need: int, travel: set, rng) -> list:
    """``size`` of ``cards`` drawn uniformly among the draws with at least ``need``
    travel cards: the number of travel cards with its exact weight, then the cards."""
    from math import comb
    t = [i for i in cards if i in travel]
    o = [i for i in cards if i not in travel]
    weights = [(j, comb(len(t), j) * comb(len(o), size - j))
               for j in range(need, min(size, len(t)) + 1) if size - j <= len(o)]
    total = sum(w for _, w in weights)
    if not total:                       # pragma: no cover - a broken state
        raise ValueError("the spell's caster cannot hold the travel cards he hands in")
    r = rng.randrange(total)
    for j, w in weights:
        if r < w:
            break
        r -= w
    return rng.sample(sorted(t), j) + rng.sample(sorted(o), size - j)
