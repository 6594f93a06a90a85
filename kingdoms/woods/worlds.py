"""Sampling a full King of the Woods state consistent with what one player has seen
(``WoodsState.sample_world``, for determinizing searches such as IS-MCTS).

What player ``p`` does not see (``view(p)``): the other hands except the cards ``p``
knows are there (``known[p][q]``: cards ``p`` gave, took back, saw taken publicly, saw
with the Knight or the General), the set-aside cards, the card a Trader gave when ``p``
is neither giver nor receiver, and what the other players know (``known[o]``).

Every card of the game is somewhere (``cards()`` is always the game's deck): the unseen
cards are the deck less the Assassins out of the game, the courts, ``p``'s hand, the
cards ``p`` knows in other hands and an Assassin waiting for its target.  The world
deals them by a uniform shuffle to the other hands (the unknown part, to its known
size) and to the set-aside pile: every arrangement of the unseen physical cards
consistent with ``p``'s knowledge is equally likely (not weighed by what the others'
choices might betray).

Not sampled exactly (documented approximations, none visible to ``p``):

* A Trader's card given between two other players: the world takes a card of the
  receiver's sampled hand that ``p`` does not know to be there (uniformly).
* What the other players know (``known[o]`` for ``o`` not ``p``): the world leaves
  it empty (they know nothing of the other hands), except that a Knight's player
  deciding what to take sees the victim's whole hand (as the rules give it).  It is
  hidden from ``p`` and takes no other part in the rules; only what ``o`` would see in
  the world (its view) is poorer than in truth.

Only ``view(p)`` is read.
"""
from __future__ import annotations

from collections import Counter

from kingdoms.core.protocol import HIDDEN, replace

from .rules import AssassinAiming, Dealing, KnightLooking, TraderReturning


def unseen(state, player: int) -> Counter:
    """``State.unseen(player)``: the cards ``player`` has not seen, counted, from
    ``view(player)`` only (see the module doc)."""
    return unseen_cards(state.view(player), player)


def unseen_cards(view, player: int) -> Counter:
    """The cards ``player`` has not seen, as a Counter, in ``view(player)``."""
    g = view.game
    left = Counter(g.deck)
    left.subtract(view.removed)
    for court in view.courts:
        for pile in court:
            left.subtract(pile)
    left.subtract(view.hands[player])
    for q, row in enumerate(view.known[player]):
        if q != player:
            left.subtract(row)
    if isinstance(view.step, AssassinAiming):
        left["Assassin"] -= 1                   # played, her target not yet chosen
    if any(k < 0 for k in left.values()):       # pragma: no cover - a broken state
        raise ValueError(f"more cards seen than the game has: {dict(+left)}")
    return +left


def sample_world(state, player: int, rng):
    """A full state ``player`` cannot tell from ``state`` (see the module doc)."""
    view = state.view(player)
    g = view.game
    n = g.players
    mine = view.known[player]
    cards = list(unseen_cards(view, player).elements())
    rng.shuffle(cards)
    hands, i = list(view.hands), 0
    for q in range(n):
        if q == player:
            continue
        k = len(view.hands[q]) - len(mine[q])
        hands[q] = tuple(sorted(tuple(mine[q]) + tuple(cards[i:i + k])))
        i += k
    aside = tuple(sorted(cards[i:i + len(view.set_aside)]))
    dealing = isinstance(view.step, Dealing)
    if len(aside) != len(view.set_aside) or (len(cards) != i + len(aside) and not dealing):
        # pragma: no cover - a broken state (before a deal, cards are still undealt)
        raise ValueError(f"{len(cards)} unseen cards do not fill the hidden places")
    pending = view.step
    if isinstance(pending, TraderReturning) and pending.card is HIDDEN:
        receiver = pending.receiver
        unknown = list((Counter(hands[receiver]) - Counter(mine[receiver])).elements())
        pending = replace(pending, card=rng.choice(unknown or list(hands[receiver])))
    rows = [list(mine) if o == player else [()] * n for o in range(n)]
    if isinstance(pending, KnightLooking) and view.turn != player:
        # a Knight's player is looking at the victim's hand right now (the rules give
        # them the whole hand; their decision depends on it)
        rows[view.turn][pending.victim] = hands[pending.victim]
    known = tuple(tuple(row) for row in rows)
    return replace(view, hands=tuple(hands), set_aside=aside, known=known, step=pending)

