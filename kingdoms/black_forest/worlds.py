"""Hidden information in Into the Black Forest: what one player has not seen
(``BlackForestState.unseen``) and a full state consistent with what they have seen
(``BlackForestState.sample_world``, for determinizing searches such as IS-MCTS).

What player ``p`` does not see (``view(p)``): the other players' hands, decks, hand
discards and face-down Right cards (their numbers are public).  Everything else is
public, and each seat has its own cards (``game.seat_cards``), so the unseen cards of
another seat ``q`` are its cards less those won and those lying face up on the
encounter; they fill ``q``'s hand, face-down Right card (if ``q`` has one down), hand
discards and deck, each of its known size.

What ``p`` knows about where they are: a card of ``q`` that ``p`` saw on the encounter
(face up, or a Right card revealed at the scoring: the scoring report shows them) and
that went back to ``q``'s hand is with ``q`` (hand or face down on the Right side), and
after ``q`` next discards down to the hand limit it may also be among the discards; it
is never back in the deck (drawn cards never return there).  The world is drawn
uniformly among the arrangements of ``q``'s unseen cards that keep these facts: the
cards known to be in hand-or-Right are put on random free places there first, then
those that may also be discarded, then the rest (with nested constraints this gives
every consistent arrangement the same chance).  "Uniform" does not weigh worlds by
what ``q``'s choices (which card to play face down, which to discard) might betray.

Only ``p``'s view, ``p``'s history and the scoring reveals are read: at each finished
encounter the cards that lay on it (the face-down Right cards included, which the
scoring turns face up for everybody) are taken from the position before the last play.
What ``p`` knows this way is ``observation(state, p)`` (``BlackForestState._observation``):
``state.observed(p)``, the view the search bot is handed, carries it, so worlds sampled
from that view are those sampled from the state (the same world for the same random
numbers).  A bare ``view(p)`` carries no history: its worlds know only the position.
"""
from __future__ import annotations

from collections import Counter

from kingdoms.core.protocol import replace

from .rules import Discard, Play

IN_HAND, NOT_IN_DECK = 1, 2


def unseen(state, player: int) -> Counter:
    """``State.unseen(player)``: the cards ``player`` has not seen, counted (each card
    once), from ``view(player)`` only: every other seat's cards less those won (public)
    and those face up on the encounter.  They are in that seat's hand, deck, hand
    discards or face down on the Right side.  ``player``'s own deck is not counted:
    its cards are known (only their order is not, and it is never stored)."""
    view = state.view(player)
    g = view.game
    face_up = view.bottom + view.left + view.top
    out = Counter()
    for q in range(g.players):
        if q != player:
            public = set(view.won[q])
            public.update(c for o, c in face_up if o == q)
            out.update(c for c in g.seat_cards[q] if c not in public)
    return out


def known_places(state, player: int) -> list:
    """For every seat ``q``: ``{card: IN_HAND or NOT_IN_DECK}``, what ``player`` knows
    about where ``q``'s cards that went back to ``q``'s hand are (see the module doc)."""
    n = state.game.players
    know = [dict() for _ in range(n)]
    prev = None
    for s in state.path():
        if prev is not None and s._last is not None:
            _, a = s._last
            if isinstance(a, Discard) and a.player != player:
                # ``player`` sees only that a card went (Discard.seen_by hides it)
                k = know[a.player]
                for c, where in k.items():
                    if where == IN_HAND:
                        k[c] = NOT_IN_DECK
            elif isinstance(a, Play) and prev.bottom + prev.left + prev.top \
                    and not (s.bottom or s.left or s.top):
                # the encounter ended: every card on it was shown; the winners are in
                # ``won`` (public), the others went back to their owners' hands
                for q, c in prev.bottom + prev.left + prev.top + prev.right + ((a.player, a.card),):
                    if q != player and c not in s.won[q]:
                        know[q][c] = IN_HAND
                    elif q != player:
                        know[q].pop(c, None)            # won: public from now on
            elif isinstance(a, Play) and a.space != "right":
                know[a.player].pop(a.card, None)        # face up on the encounter: public
        prev = s
    return know


def observation(state, player: int) -> tuple:
    """``known_places`` as a value: for every seat, its ``(card, IN_HAND or
    NOT_IN_DECK)`` pairs in the rules' card order.  ``BlackForestState._observation``:
    what ``state.observed(player)`` carries."""
    return tuple(tuple(sorted(k.items(), key=lambda item: item[0]._key))
                 for k in known_places(state, player))


def sample_world(state, player: int, rng):
    """A full state ``player`` cannot tell from ``state`` (see the module doc)."""
    view = state.view(player)
    g = view.game
    know = [dict(k) for k in state.observation(player)]
    pool = unseen(state, player)
    hands, decks, discarded = list(view.hands), list(view.decks), list(view.discarded)
    right = dict(view.right)
    for q in range(g.players):
        if q == player:
            continue
        unseen_q = [c for c in g.seat_cards[q] if c in pool]
        sizes = (len(view.hands[q]), 1 if q in right else 0, len(view.discarded[q]),
                 len(view.decks[q]))
        if sum(sizes) != len(unseen_q):             # pragma: no cover - a broken state
            raise ValueError(f"{len(unseen_q)} unseen cards of seat {q} for {sum(sizes)} places")
        # places 0..: hand, Right, discards, deck
        slots = [0] * sizes[0] + [1] * sizes[1] + [2] * sizes[2] + [3] * sizes[3]
        free = list(range(len(slots)))
        place = {}
        k = know[q]
        for level, allowed in ((IN_HAND, (0, 1)), (NOT_IN_DECK, (0, 1, 2))):
            cards = [c for c in unseen_q if k.get(c) == level]
            room = [i for i in free if slots[i] in allowed]
            if len(cards) > len(room):              # pragma: no cover - a broken state
                raise ValueError("no arrangement keeps what the player knows")
            for c, i in zip(cards, rng.sample(room, len(cards))):
                place[c] = i
            taken = set(place.values())
            free = [i for i in free if i not in taken]
        rest = [c for c in unseen_q if c not in place]
        rng.shuffle(free)
        for c, i in zip(rest, free):
            place[c] = i
        got = ([], [], [], [])
        for c, i in place.items():
            got[slots[i]].append(c)
        key = lambda c: c._key                      # noqa: E731 - the rules' card order
        hands[q] = tuple(sorted(got[0], key=key))
        if sizes[1]:
            right[q] = got[1][0]
        discarded[q] = tuple(sorted(got[2], key=key))
        decks[q] = tuple(sorted(got[3], key=key))
    return replace(view, hands=tuple(hands), decks=tuple(decks), discarded=tuple(discarded),
                   right=tuple((q, right[q]) for q, _ in view.right))
