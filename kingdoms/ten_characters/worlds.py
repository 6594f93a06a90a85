"""Sampling a full Ten Characters state consistent with what one player has seen
(``TenCharactersState.sample_world``, for determinizing searches such as IS-MCTS).

What player ``p`` does not see (``view(p)``): the other hands (sizes are public), the
others' face-down choices and Unicorn discards (whether they have chosen is public),
the draw pile (its size is public), the discard pile when ``discards_public`` is off,
and what other players' Fortune Tellers saw in third players' hands.

The unseen cards are the data's copies minus everything ``p`` sees: their own hand,
choice and discard, the display (columns and Jesters), the box, the revealed cards
still to go in, a Jester about to go in and the discard pile when it is public.  The
world deals them by a uniform shuffle into: each other player's hand, face-down choice
and face-down discard, then the draw pile (``pile_size`` cards), then (hidden discard
pile) the rest.  With a hidden discard pile, ``p``'s own Unicorn discards lying there
are known to ``p``: they stay in the pile and are not dealt.

Constraint: a character ``p``'s Fortune Teller saw in player ``t``'s hand that ``t``
has not given up publicly since (``known[p][t]``) is still with ``t`` (in the hand, or
face down as this turn's choice or Unicorn discard).  The world is drawn uniformly among
the shuffles that keep these constraints (rejection sampling; after
``MAX_TRIES`` rejections, which needs very unlikely constraints, the required cards are
placed first and the rest shuffled: still consistent, no longer exactly uniform).
"Uniform" means every arrangement of the unseen physical cards consistent with what
``p`` saw is equally likely: it does not weigh a world by how likely it made the card a
Fortune Teller happened to see, nor by what the opponents' choices might betray.

What other players' Fortune Tellers saw in a third player's hand (``known[v][t]``, ``v``
and ``t`` not ``p``) is not visible to ``p``; ``p`` only knows how many looks there were
this pass (``PeekAt`` in ``p``'s history).  The world gives each such look a card drawn
uniformly from ``t``'s sampled hand (an approximation: the true card may have left the
hand since).

Only ``p``'s view and what ``p`` observed on the way are read: ``observation(state,
p)`` (``TenCharactersState._observation``: ``p``'s own discards lying in a hidden
discard pile, and the looks between other players this pass, from ``p``'s history and
the public size of the discard pile).  ``state.observed(p)``, the view the search bot
is handed, carries it, so worlds sampled from that view are those sampled from the
state (the same world for the same random numbers).  A bare ``view(p)`` carries no
history: its worlds know only the position.
"""
from __future__ import annotations

from collections import Counter

from kingdoms.core.protocol import HIDDEN, replace

from .rules import JesterJoins
from .scoring import CHARACTERS, COLUMNS

MAX_TRIES = 10_000


def unseen(state, player: int) -> Counter:
    """``State.unseen(player)``: the characters ``player`` has not seen, counted, from
    ``view(player)`` only: the data's copies minus ``player``'s own hand, choice and
    discard, the display (columns and Jesters), the box, the revealed cards still to go
    in (a Jester about to go in too), the discard pile when it is public and the cards
    ``player``'s Fortune Tellers saw in other hands (``known[player]``).  (With a hidden
    discard pile ``player``'s own discards lying there count as unseen: the view does
    not show them; ``sample_world`` keeps them, from the history.)  Keys in
    ``CHARACTERS`` order, zero counts left out."""
    return _unseen_in(state.view(player), player)


def _unseen_in(view, player: int) -> Counter:
    left = Counter({c: k for c, k in zip(CHARACTERS, view.game.copies) if k})
    seen = Counter(view.hands[player])
    for x in (view.chosen[player], view.discarding[player]):
        if x is not None:
            seen[x] += 1
    for c, k in zip(COLUMNS, view.columns):
        seen[c] += k
    seen["jester"] += sum(view.jesters)
    for c, k in zip(CHARACTERS, view.boxed):
        seen[c] += k
    for _, c in view.queue:
        seen[c] += 1
    if isinstance(view.step, JesterJoins):
        seen["jester"] += 1                         # revealed, about to go in
    if HIDDEN not in view.discard:
        for c, k in zip(CHARACTERS, view.discard):
            seen[c] += k
    for t, k in enumerate(view.known[player]):
        if t != player:
            seen.update(k)
    left.subtract(seen)
    if any(k < 0 for k in left.values()):       # pragma: no cover - a broken state
        raise ValueError("more cards seen than the game has")
    return +left


def _pool(view, player: int, mine: Counter) -> list:
    """The cards ``sample_world`` deals into the hidden places, in ``CHARACTERS``
    order: the unseen ones and those ``player``'s Fortune Tellers saw (they go back to
    their holders), less ``player``'s own discards in a hidden discard pile."""
    pool = _unseen_in(view, player)
    for t, k in enumerate(view.known[player]):
        if t != player:
            pool.update(k)
    pool.subtract(mine)
    return [c for c in CHARACTERS for _ in range(pool[c])]


def own_discards(state, player: int) -> Counter:
    """With a hidden discard pile (``discards_public`` off): the cards ``player``
    discarded after a Unicorn that still lie there (the pile empties publicly when it
    is reshuffled into the draw pile)."""
    from .rules import Discard
    mine = Counter()
    prev = None
    for s in state.path():
        if prev is not None and s._last is not None:
            _, a = s._last
            if not sum(s.discard):          # the pile is empty (public: the view shows it)
                mine = Counter()
            elif isinstance(a, Discard) and a.player == player:
                mine[a.card] += 1
        prev = s
    if state.discarding[player] is not None:     # chosen, not yet on the pile
        mine[state.discarding[player]] -= 1
    return +mine


def _peeks_this_pass(state, player: int) -> list:
    """``(looker, target)`` of the Fortune Teller looks of this pass that ``player``
    only saw as a hidden card (neither looker nor target)."""
    from .rules import DealCard, PeekCard
    looks, dealing = [], False
    for _, a in state.history(player):
        if isinstance(a, DealCard):
            if not dealing:
                looks = []          # a new pass: everybody's knowledge starts empty
            dealing = True
            continue
        dealing = False
        if isinstance(a, PeekCard) and player not in (a.player, a.target):
            looks.append((a.player, a.target))
    return looks


def observation(state, player: int) -> tuple:
    """What ``player`` observed that a world needs beyond ``view(player)``:
    ``(own discards, looks)``: ``player``'s own Unicorn discards lying in a hidden
    discard pile (``(character, copies)`` pairs, see ``own_discards``) and the
    ``(looker, target)`` Fortune Teller looks of this pass between two other players
    (``_peeks_this_pass``).  ``TenCharactersState._observation``: what
    ``state.observed(player)`` carries."""
    mine = own_discards(state, player) if not state.game.components.discards_public \
        else Counter()
    return tuple(sorted(mine.items())), tuple(_peeks_this_pass(state, player))


def sample_world(state, player: int, rng):
    """A full state ``player`` cannot tell from ``state`` (see the module doc)."""
    view = state.view(player)
    hidden_discard = HIDDEN in view.discard
    discards, looks = state.observation(player)
    mine = Counter(dict(discards)) if hidden_discard else Counter()
    cards = _pool(view, player, mine)
    places = _hidden_places(view, player, len(cards), hidden_discard)
    need = {t: Counter(k) for t, k in enumerate(view.known[player]) if t != player and k}
    for _ in range(MAX_TRIES if need else 1):
        rng.shuffle(cards)
        out = _deal(cards, places)
        if _keeps(out, need):
            break
    else:
        out = _constructive(cards, places, need, rng)
    fields = _dealt(view, out)
    if hidden_discard:
        got = Counter(out["discard", None]) + mine
        fields["discard"] = tuple(got[c] for c in CHARACTERS)
    fields["known"] = _others_looks(view, looks, fields["hands"], rng)
    return replace(view, **fields)


def _hidden_places(view, player: int, cards: int, hidden_discard: bool) -> list:
    """The places ``player`` cannot see, in a fixed order, as ``(kind, seat, size)``:
    each other player's hand, face-down choice and face-down discard, the draw pile,
    then the rest of the ``cards`` unseen cards (the hidden discard pile)."""
    places = []
    for q in range(view.game.players):
        if q == player:
            continue
        places.append(("hand", q, len(view.hands[q])))
        if view.chosen[q] is not None:
            places.append(("chosen", q, 1))
        if view.discarding[q] is not None:
            places.append(("discarding", q, 1))
    places.append(("pile", None, view.pile_size))
    rest = cards - sum(size for _, _, size in places)
    if rest < 0 or (rest and not hidden_discard):     # pragma: no cover - a broken state
        raise ValueError(f"{cards} unseen cards do not fill the hidden places")
    places.append(("discard", None, rest))
    return places


def _deal(order: list, places: list) -> dict:
    """``{(kind, seat): cards}``: ``order`` dealt into ``places`` one after another."""
    out, i = {}, 0
    for kind, q, size in places:
        out[kind, q] = order[i:i + size]
        i += size
    return out


def _keeps(out: dict, need: dict) -> bool:
    """Whether each player ``t`` holds (hand, choice or discard) the characters
    ``need[t]`` that were seen in their hand."""
    for t, chars in need.items():
        held = set(out["hand", t]) | set(out.get(("chosen", t), ())) \
            | set(out.get(("discarding", t), ()))
        if not set(chars) <= held:
            return False
    return True


def _dealt(view, out: dict) -> dict:
    """The state's fields with the dealt ``out`` in the hidden places."""
    hands = list(view.hands)
    chosen = list(view.chosen)
    discarding = list(view.discarding)
    for (kind, q), got in out.items():
        if kind == "hand":
            hands[q] = tuple(sorted(got))
        elif kind == "chosen":
            chosen[q] = got[0]
        elif kind == "discarding":
            discarding[q] = got[0]
    pile = tuple(Counter(out["pile", None])[c] for c in CHARACTERS)
    return dict(hands=tuple(hands), chosen=tuple(chosen), discarding=tuple(discarding),
                pile=pile)


def _others_looks(view, looks: tuple, hands: tuple, rng) -> tuple:
    """``known`` in the world: the player's own as seen; each of the ``looks`` of this
    pass between two other players gets a card drawn from the target's sampled hand."""
    known = [list(row) for row in view.known]
    for v, t in looks:
        if hands[t]:
            k = known[v][t]
            c = rng.choice(hands[t])
            if c not in k:
                known[v][t] = tuple(sorted(k + (c,)))
    return tuple(tuple(row) for row in known)


def _constructive(cards, places, need, rng):
    """Place one card of each required character with its holder first, then shuffle
    the rest into the remaining room (consistent, not exactly uniform)."""
    pool = list(cards)
    first = {}
    for t, chars in need.items():
        for c in chars:
            if c in pool:
                pool.remove(c)
                first.setdefault(t, []).append(c)
    rng.shuffle(pool)
    order = []
    for kind, q, size in places:
        fixed = first.pop(q, []) if kind == "hand" else []
        take = size - len(fixed)
        order += fixed + pool[:take]
        pool = pool[take:]
    return _deal(order, places)
