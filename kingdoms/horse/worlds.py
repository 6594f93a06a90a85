"""Sampling a full Horse state consistent with what one player has seen
(``HorseState.sample_world``, for determinizing searches such as IS-MCTS).

What a player does not see: the farm cards in the other hands and the farm deck (the
copies left per card type).  Everything else is public: hand sizes, the discard pile
(discards and played lightning cards are shown), every tableau of infinity cards and
the number of cards in the deck.

So the unseen cards are exactly the data's copies minus the player's own hand, all
tableaux and the discard pile; they lie in the other hands and the deck.  Draws are
secret and nothing played face up reveals where an unseen card was, so (ignoring
what the opponents' choices might betray) every arrangement of the unseen physical
cards is equally likely: the world deals them by a uniform shuffle, the other hands
to their known sizes (seat order), the rest to the deck.  The world is built from
``view(player)`` alone, so it cannot use hidden data.
"""
from __future__ import annotations

from collections import Counter

from kingdoms.core.protocol import replace


def unseen_cards(view) -> list:
    """The unseen cards (card names, one entry per physical card) in ``view``."""
    comp = view.game.comp
    left = {c.name: c.copies for c in comp.cards}
    for farm in view.farms:
        for name in farm.hand + farm.tableau:
            if isinstance(name, str):
                left[name] -= 1
    for c, k in zip(comp.cards, view.discard):
        left[c.name] -= k
    if any(k < 0 for k in left.values()):           # pragma: no cover - a broken state
        raise ValueError("more cards seen than the data's copies")
    return [name for name, k in left.items() for _ in range(k)]


def unseen(state, player: int) -> Counter:
    """``State.unseen``: the cards ``player`` has not seen (the other hands and the
    deck), counted, from ``view(player)`` alone."""
    return Counter(unseen_cards(state.view(player)))


def sample_world(state, player: int, rng):
    """A full state ``player`` cannot tell from ``state`` (see the module doc)."""
    view = state.view(player)
    cards = unseen_cards(view)
    rng.shuffle(cards)
    farms, i = [], 0
    for q, farm in enumerate(view.farms):
        if q != player and farm.hand:
            n = len(farm.hand)
            farm = replace(farm, hand=tuple(sorted(cards[i:i + n])))
            i += n
        farms.append(farm)
    comp = view.game.comp
    index = {c.name: j for j, c in enumerate(comp.cards)}
    deck = [0] * len(comp.cards)
    for name in cards[i:]:
        deck[index[name]] += 1
    if sum(deck) != view.deck_count:                # pragma: no cover - a broken state
        raise ValueError(f"{sum(deck)} unseen cards left for a deck of {view.deck_count}")
    return replace(view, farms=tuple(farms), deck=tuple(deck))
