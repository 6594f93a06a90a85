"""Exact odds for Into the Black Forest.

Two kinds of question:

1. **Placement odds with hidden hands** — "if I put this card on that space, how
   likely does it win, and how many points do I expect?"  The answer depends on what
   the opponents hold and what they will play, so it needs a *model*, stated here
   once and used everywhere:

   * An opponent's hand is a uniformly random set of the right size drawn from that
     opponent's cards you cannot see (their 12 or 24 cards minus those face up on the
     table or already won).  Cards you know are in their hand (``known``: e.g. a card
     that lost an earlier encounter and went back) are in it for sure.
   * The card an opponent plays is a uniformly random card of their hand.  A
     face-down Right card of an opponent is such a card too.
   * The empty slot facing your card (Bottom, Top), the missing Top cards (for the
     Left side) and the missing Bottom cards (for a "closest to bottom sum" Right)
     are filled by one ``rival`` (by default the next opponent in turn order) as long
     as they hold cards; then by the other opponents in turn order; and if no
     opponent has a card left, by a random card of your own hand.

   Under this model everything is a draw without replacement, enumerated exactly;
   the result is a ``Fraction`` or a ``Distribution``.  It answers "how good is this
   card against a random reply", not "against a clever opponent" — for that, see 2.

2. **Open hands** — a two-player encounter with both hands face up is a finite game
   of perfect information; ``open_encounter`` builds such a position (checking that
   every card is real and in the right hands) and ``solve_encounter`` solves it
   exactly with ``kingdoms.core.solve.expectimax``; ``encounter_tree`` draws it.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from kingdoms.core.distribution import Distribution, hypergeometric
from kingdoms.core.i18n import N_, _, language
from kingdoms.core.protocol import HIDDEN, check_count, check_name
from kingdoms.core.solve import expectimax

from .components import name
from .rules import (CAPACITY, PLAYING, SIDE_NAMES, SPACES, BlackForest, BlackForestState, Card,
                    Play, Playing, Said, right_winner)

__all__ = ["unseen_cards", "HandModel", "hand_model", "reply_distribution", "placement_outcome",
           "p_win", "expected_points", "placement_odds", "PlacementOdds", "p_left_match",
           "left_match_probability", "open_encounter", "solve_encounter", "encounter_tree",
           "draw_encounter_tree", "margin", "brute_force_p_win", "greedy_policy", "simple_policy"]


# --------------------------------------------------------------------------- the model

def unseen_cards(state: BlackForestState, player: int, owner: int) -> tuple:
    """``owner``'s cards that ``player`` cannot see on the table: those in the
    owner's hand, deck, face-down on the Right or discarded face down, in the owner's
    card order (``state.unseen(player)`` for one seat).  Works the same on the full
    state and on ``state.view(player)``."""
    if owner == player:
        raise ValueError("a player sees their own cards")
    pool = state.unseen(player)
    return tuple(c for c in state.game.seat_cards[owner] if c in pool)


@dataclass(frozen=True)
class HandModel:
    """An opponent's hand as ``player`` models it: ``known`` cards for sure, plus
    ``slots`` cards drawn uniformly from ``unknown``."""

    owner: int
    known: tuple
    slots: int
    unknown: tuple

    @property
    def size(self) -> int:
        return len(self.known) + self.slots


def hand_model(state: BlackForestState, player: int, owner: int,
               known: Iterable = (), include_right: bool = True) -> HandModel:
    """The model of ``owner``'s hand.  With ``include_right`` the face-down Right card
    of ``owner`` (if any) counts as one more random card of that hand."""
    g = state.game
    pool = unseen_cards(state, player, owner)
    known = tuple(g.card(c) for c in known)
    for c in known:
        if c not in pool:
            raise ValueError(_("{card} cannot be in {player}'s hand: it is not among their "
                               "unseen cards").format(card=c.text(long=True),
                                                      player=name(g.player_name(owner))))
    size = len(state.hands[owner])
    if include_right:
        size += sum(1 for p, _ in state.right if p == owner)
    if len(known) > size:
        raise ValueError(_("{known} known cards but {player} holds {size}").format(
            known=len(known), player=name(g.player_name(owner)), size=size))
    unknown = tuple(c for c in pool if c not in known)
    return HandModel(owner, known, size - len(known), unknown)


def _draws(models: Mapping[int, HandModel], needs: list, feature=None):
    """Ordered draws without replacement: ``needs[i]`` is the owner of draw ``i``.
    Yields ``(cards, probability)``.  With ``feature`` (a function of a card), unseen
    cards with the same feature are drawn as one class (represented by one of them),
    which is exact for any question that depends only on that feature."""
    key = feature or (lambda c: c)
    state = {}
    for o, m in models.items():
        classes: dict = {}
        for c in m.unknown:
            k = key(c)
            if k in classes:
                classes[k][1] += 1
            else:
                classes[k] = [c, 1]
        state[o] = [list(m.known), m.slots, list(classes.values()), len(m.unknown)]

    # the probability of a draw so far as a whole-number fraction num/den, made a
    # Fraction once per complete draw (the same exact value as multiplying Fractions
    # step by step, at a fraction of the cost)
    def go(i, acc, num, den):
        if i == len(needs):
            yield tuple(acc), Fraction(num, den)
            return
        st = state[needs[i]]
        known, slots, classes, n_unknown = st
        total = len(known) + slots
        if total == 0:
            raise ValueError("the model asks an opponent for more cards than they hold")
        for j, c in enumerate(list(known)):
            known.pop(j)
            acc.append(c)
            yield from go(i + 1, acc, num, den * total)
            acc.pop()
            known.insert(j, c)
        if slots:
            st[1], st[3] = slots - 1, n_unknown - 1
            # each unknown card: slots / total, then 1 / n_unknown of them
            base, base_den = num * slots, den * total * n_unknown
            for cls in classes:
                if cls[1]:
                    count = cls[1]
                    cls[1] -= 1
                    acc.append(cls[0])
                    yield from go(i + 1, acc, base * count, base_den)
                    acc.pop()
                    cls[1] = count
            st[1], st[3] = slots, n_unknown

    yield from go(0, [], 1, 1)


def _next_opponent(state, player: int) -> int:
    n = state.game.players
    for i in range(1, n):
        o = (player + i) % n
        if state.hands[o] or any(p == o for p, _ in state.right):
            return o
    return (player + 1) % n


def _fillers(state, player: int, models: dict, rival: int, count: int, used: Counter,
             card=None) -> list:
    """Who plays each of ``count`` missing cards: the ``rival`` while they have cards,
    then the other opponents in turn order, then ``player`` (a random card of their
    own remaining hand).  Adds ``player``'s own hand to ``models`` when needed."""
    n = state.game.players
    order = [rival] + [(rival + i) % n for i in range(1, n) if (rival + i) % n not in (rival, player)]
    out = []
    for _ in range(count):
        for o in order:
            if used[o] < models[o].size:
                break
        else:
            if player not in models:
                own = tuple(c for c in state.hands[player] if c != card)
                models[player] = HandModel(player, own, 0, ())
            o = player
            if used[o] >= models[o].size:
                raise ValueError("nobody holds enough cards to fill the encounter")
        used[o] += 1
        out.append(o)
    return out


def reply_distribution(state: BlackForestState, player: int | None = None,
                       rival: int | None = None, known: Mapping | None = None) -> Distribution:
    """The card ``rival`` plays next, as ``player`` models it (a ``Distribution`` of cards)."""
    player = state.current_player() if player is None else player
    rival = _next_opponent(state, player) if rival is None else rival
    m = hand_model(state, player, rival, (known or {}).get(rival, ()))
    if not m.size:
        raise ValueError(_("{player} has no card to play").format(
            player=name(state.game.player_name(rival))))
    return Distribution((cards[0], p) for cards, p in _draws({rival: m}, [rival]))


# --------------------------------------------------------------------------- placements

def _check_placement(state, player, card, space):
    g = state.game
    card = g.card(card)
    if space not in SPACES:
        raise ValueError(_("the spaces are bottom, left, top and right, not {what}").format(
            what=repr(space)))
    hand = state.hands[player]
    if HIDDEN not in hand and card not in hand:
        raise ValueError(_("{card} is not in {player}'s hand").format(
            card=card.text(long=True), player=name(g.player_name(player))))
    if space not in state.open_spaces(player):
        raise ValueError(_("{space} is not open to {player} now").format(
            space=_(SIDE_NAMES[space]) if language() != "en" else space,
            player=name(g.player_name(player))))
    if not isinstance(state.step, Playing):
        raise ValueError(_("placement odds are asked during an encounter"))
    return card


def placement_outcome(state: BlackForestState, card, space: str, player: int | None = None,
                      rival: int | None = None, known: Mapping | None = None,
                      later_right: "Iterable[int] | str" = "all") -> Distribution:
    """The exact distribution of ``(wins, points)`` for ``card`` put on ``space``.

    ``points`` is what that card scores when the encounter is scored (the losing
    card's value at Bottom/Top, its own value on the Left, the Right's 6 points).
    ``later_right``: opponents assumed to add a random face-down Right card before
    the encounter ends, besides those already there: ``"all"`` (the default: every
    opponent still holding cards) or a list of seats (``()`` for nobody else).
    """
    player = state.current_player() if player is None else player
    card = _check_placement(state, player, card, space)
    rival = _next_opponent(state, player) if rival is None else rival
    if rival == player:
        raise ValueError("the rival must be an opponent")
    return _outcome(state, player, card, space, rival, _models(state, player, known),
                    later_right)


def _models(state, player: int, known: Mapping | None = None) -> dict:
    """``{opponent: hand_model(...)}``: every opponent's hand as ``player`` models it
    (one position's models serve all of its placements: ``greedy_policy``)."""
    known = known or {}
    return {o: hand_model(state, player, o, known.get(o, ()))
            for o in range(state.game.players) if o != player}


def _outcome(state, player: int, card: Card, space: str, rival: int, models: dict,
             later_right) -> Distribution:
    """``placement_outcome`` of a checked placement, given the opponents' ``models``
    (copied here: filling the encounter may add ``player``'s own hand to them)."""
    models = dict(models)
    if space in ("bottom", "top"):
        return _pair_outcome(state, player, card, space, models, rival)
    if space == "left":
        return _left_outcome(state, player, card, models, rival)
    opponents = [o for o in range(state.game.players) if o != player]
    return _right_outcome(state, player, card, models, rival, opponents, later_right)


def _pair_outcome(state, player: int, card: Card, space: str, models: dict,
                  rival: int) -> Distribution:
    """``placement_outcome`` at the Bottom (lower wins) or the Top (higher wins)."""
    slot = state.bottom if space == "bottom" else state.top
    lower = space == "bottom"

    def result(mine: Card, other: Card):
        if mine.value == other.value or (mine.value < other.value) != lower:
            return (False, 0)
        return (True, other.value)

    if slot:
        return Distribution.always(result(card, slot[0][1]))
    needs = _fillers(state, player, models, rival, 1, Counter(), card)
    return Distribution((result(card, cards[0]), p)
                        for cards, p in _draws(models, needs, lambda c: c.value))


def _left_outcome(state, player: int, card: Card, models: dict, rival: int) -> Distribution:
    """``placement_outcome`` on the Left: a hit when a Top card shares the suit."""
    suits = {c.suit for _, c in state.top}
    missing = CAPACITY["top"] - len(state.top)

    def result(cards):
        hit = card.suit in suits or any(c.suit == card.suit for c in cards)
        return (True, card.value) if hit else (False, 0)

    needs = _fillers(state, player, models, rival, missing, Counter(), card)
    return Distribution((result(cards), p)
                        for cards, p in _draws(models, needs, lambda c: c.suit))


def _right_outcome(state, player: int, card: Card, models: dict, rival: int,
                   opponents: list, later_right) -> Distribution:
    """``placement_outcome`` on the Right side, against the face-down cards there and
    those of ``later_right``."""
    g = state.game
    cond = g.conditions[state.encounter]
    if later_right == "all":
        later_right = [o for o in opponents if state.hands[o]]
    others = [p for p, _ in state.right] + [o for o in later_right
                                             if all(p != o for p, _ in state.right)]
    if player in others:
        raise ValueError("later_right may not name the player asking")
    others = [o for o in others if models[o].size]
    missing_bottom = CAPACITY["bottom"] - len(state.bottom) if cond.needs_bottom() else 0
    used = Counter(others)
    needs = others + _fillers(state, player, models, rival, missing_bottom, used, card)
    n_right = len(others)

    def result(cards):
        right = [(player, card)] + list(zip(others, cards[:n_right]))
        bottom = list(state.bottom) + list(zip(needs[n_right:], cards[n_right:]))
        won = right_winner(cond, right, bottom) == (player, card)
        return (True, g.right_points) if won else (False, 0)

    # Right cards matter only through their rank (or not qualifying at all); the
    # Bottom cards only through their value.
    def feature(c):
        return (cond.qualifies(c), c.value) if cond.needs_bottom() or missing_bottom else \
            (cond.key(c) if cond.qualifies(c) else None)

    return Distribution((result(cards), p) for cards, p in _draws(models, needs, feature))


def p_win(state: BlackForestState, card, space: str, player: int | None = None, **model) -> Fraction:
    """Exact probability that ``card`` on ``space`` wins (under the module's model)."""
    return placement_outcome(state, card, space, player, **model).P(lambda o: o[0])


def expected_points(state: BlackForestState, card, space: str, player: int | None = None,
                    **model) -> Fraction:
    """Exact expected points that ``card`` scores on ``space``."""
    return placement_outcome(state, card, space, player, **model).E(lambda o: o[1])


@dataclass(frozen=True)
class PlacementOdds:
    card: Card
    space: str
    p_win: Fraction
    expected_points: Fraction

    def __str__(self):
        if language() == "en":
            return (f"{self.card.label():<26} {self.space:<7} P(win) {str(self.p_win):>7} "
                    f"= {float(self.p_win):.3f}   E[points] {float(self.expected_points):6.3f}")
        return _("{card} {space} P(win) {p_win} = {p_win_decimal}   E[points] {points}").format(
            card=f"{self.card.text(long=True):<30}", space=f"{_(SIDE_NAMES[self.space]):<7}",
            p_win=f"{str(self.p_win):>7}", p_win_decimal=_decimal(self.p_win, 3),
            points=f"{_decimal(self.expected_points, 3):>6}")


def _decimal(x, digits: int) -> str:
    """``x`` with ``digits`` decimals in the current language (a decimal comma in German;
    Babel, imported only then)."""
    if language() == "en":
        return f"{float(x):.{digits}f}"
    from babel.numbers import format_decimal
    return format_decimal(float(x), format="0." + "0" * digits, locale=language())


def placement_odds(state: BlackForestState, player: int | None = None, **model) -> list:
    """Every legal placement of ``player`` with its exact P(win) and expected
    points, best expected points first."""
    player = state.current_player() if player is None else player
    rows = []
    for c in state.hands[player]:
        for space in state.open_spaces(player):
            d = placement_outcome(state, c, space, player, **model)
            rows.append(PlacementOdds(c, space, d.P(lambda o: o[0]), d.E(lambda o: o[1])))
    rows.sort(key=lambda r: (-r.expected_points, -r.p_win, r.card, r.space))
    return rows


# --------------------------------------------------------------------------- Left side

def p_left_match(suit: str, top_suits: Iterable[str], pool_suits: Mapping[str, int],
                 draws: int) -> Fraction:
    """P(the Left card's ``suit`` matches a Top card) when the Top already shows
    ``top_suits`` and ``draws`` more Top cards come from a pile whose suits are
    counted in ``pool_suits`` (drawn without replacement):

        P = 1 - C(N - s, k) / C(N, k)   with N the pile, s its cards of the suit.
    """
    if isinstance(top_suits, str) or not isinstance(pool_suits, Mapping):
        raise TypeError("top_suits is a list of suits and pool_suits a dict {suit: cards}; "
                        f"not {type(top_suits).__name__} and {type(pool_suits).__name__}")
    check_count(draws, "draws")
    if suit in set(top_suits):
        return Fraction(1)
    n = sum(pool_suits.values())
    s = pool_suits.get(suit, 0)
    if draws > n:
        raise ValueError(_("{draws} draws from a pile of {n}").format(draws=draws, n=n))
    return 1 - hypergeometric(n, s, draws).prob(0)


def left_match_probability(state: BlackForestState, suit: str, player: int | None = None,
                           rival: int | None = None, known: Mapping | None = None) -> Fraction:
    """P(a Left card of ``suit`` will match a Top suit), with the missing Top cards
    played by ``rival`` (under the module's model)."""
    check_name(suit, state.game.components.suits, "suit")
    player = state.current_player() if player is None else player
    rival = _next_opponent(state, player) if rival is None else rival
    known = known or {}
    models = {o: hand_model(state, player, o, known.get(o, ()))
              for o in range(state.game.players) if o != player}
    suits = {c.suit for _, c in state.top}
    if suit in suits:
        return Fraction(1)
    missing = CAPACITY["top"] - len(state.top)
    needs = _fillers(state, player, models, rival, missing, Counter())
    return sum((p for cards, p in _draws(models, needs, lambda c: c.suit)
                if any(c.suit == suit for c in cards)), Fraction(0))


# --------------------------------------------------------------------------- brute force

def brute_force_p_win(state: BlackForestState, card, space: str, player: int | None = None,
                      rival: int | None = None) -> Fraction:
    """P(win) at Bottom/Top/Left by listing every hand the rival may hold and every
    card(s) they may play from it — the slow, obvious computation that the model's
    shortcut (``p_win``) must agree with.  No known cards, no Right side."""
    from itertools import combinations, permutations
    player = state.current_player() if player is None else player
    card = _check_placement(state, player, card, space)
    rival = _next_opponent(state, player) if rival is None else rival
    pool = unseen_cards(state, player, rival)
    hands = list(combinations(pool, len(state.hands[rival])))
    total = Fraction(0)
    for hand in hands:
        if space in ("bottom", "top"):
            slot = state.bottom if space == "bottom" else state.top
            replies = [(slot[0][1],)] if slot else [(c,) for c in hand]
            wins = 0
            for (other,) in replies:
                if other.value != card.value and (card.value < other.value) == (space == "bottom"):
                    wins += 1
            total += Fraction(wins, len(replies))
        elif space == "left":
            suits = {c.suit for _, c in state.top}
            missing = CAPACITY["top"] - len(state.top)
            plays = list(permutations(hand, missing))
            wins = sum(1 for pl in plays if card.suit in suits | {c.suit for c in pl})
            total += Fraction(wins, len(plays))
        else:
            raise ValueError("brute_force_p_win covers bottom, top and left")
    return total / len(hands)


# --------------------------------------------------------------------------- open hands

def open_encounter(hands, encounter: str, *, bottom=(), left=(), top=(), right=(),
                   to_move: int = 0, token: int | None = None, points=None,
                   data: str | None = None) -> BlackForestState:
    """A single encounter with every hand face up, ready to solve.

    ``hands``: one list of card names per player (``["Red 3", "Green 9"]``); each
    card must belong to that player's deck(s).  ``bottom``/``left``/``top``/``right``:
    cards already on the encounter as ``(player, card name)`` pairs.  The game ends
    when this encounter has been scored.  Raises ``ValueError`` naming any problem.
    """
    players = len(hands)
    g = BlackForest(players=players, data=data, rounds=1, encounters_per_round=1)
    if encounter not in g.conditions:
        raise ValueError(_("no encounter called {name}; they are: {encounters}").format(
            name=repr(encounter), encounters=", ".join(sorted(g.conditions))))
    hand_cards, board = _open_cards(g, hands, (("bottom", bottom), ("left", left),
                                               ("top", top), ("right", right)))
    seen = {c for h in hand_cards for c in h}
    seen.update(c for pairs in board.values() for _, c in pairs)
    if not (0 <= to_move < players) or not hand_cards[to_move]:
        raise ValueError(_("to_move={value} must be a seat with cards in hand").format(
            value=repr(to_move)))
    token = to_move if token is None else token
    points = tuple(points) if points is not None else (0,) * players
    if len(points) != players:
        raise ValueError(_("points needs one number per player"))
    decks = tuple(tuple(c for c in g.seat_cards[p] if c not in seen) for p in range(players))
    empty = tuple(() for _ in range(players))
    return BlackForestState(
        g, step=PLAYING, round=1, played=0, upcoming=(encounter,),
        encounter_deck=tuple(sorted(e for e in g.conditions if e != encounter)),
        hands=hand_cards, decks=decks, to_draw=(0,) * players, won=empty, discarded=empty,
        bottom=board["bottom"], left=board["left"], top=board["top"],
        right=tuple(sorted(board["right"])), points=points, token=token, to_move=to_move,
        report=(Said(N_("Open hands: a single encounter.")),))


def _open_cards(g: BlackForest, hands, spaces) -> tuple:
    """``(hands, board)`` of an open encounter: each hand's cards (sorted) and the
    ``(player, card)`` pairs on each space, checked (``ValueError`` names a problem)."""
    players = len(hands)
    seen: dict = {}

    def take(card_name, seat, where):
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(_("{where}: {seat} is not a seat 0-{high}").format(
                where=where, seat=repr(seat), high=players - 1))
        c = g.card(card_name)
        if g.owner[c] != seat:
            raise ValueError(_("{where}: {card} belongs to {owner}, not {player}").format(
                where=where, card=c.text(long=True), owner=name(g.player_name(g.owner[c])),
                player=name(g.player_name(seat))))
        if c in seen:
            raise ValueError(_("{where}: {card} is already in {place}").format(
                where=where, card=c.text(), place=seen[c]))
        seen[c] = where
        return c

    hand_cards = tuple(tuple(sorted(take(n, p, _("{player}'s hand").format(
        player=name(g.player_name(p)))) for n in h)) for p, h in enumerate(hands))
    board = {}
    for space, pairs in spaces:
        pairs = tuple(pairs)
        cap = CAPACITY.get(space, players)
        if len(pairs) > cap:
            raise ValueError(_("{space} takes at most {cap} cards, not {n}").format(
                space=space, cap=cap, n=len(pairs)))
        board[space] = tuple((p, take(n, p, _(SIDE_NAMES[space]) if language() != "en"
                                      else space)) for p, n in pairs)
    _check_open_board(board, hand_cards)
    return hand_cards, board


def _check_open_board(board: dict, hand_cards: tuple) -> None:
    """The encounter must be open and the hands able to finish it."""
    players = len(hand_cards)
    if len({p for p, _ in board["right"]}) != len(board["right"]):
        raise ValueError(_("each player has at most one card on the Right side"))
    missing = sum(CAPACITY.values()) - sum(len(board[s]) for s in CAPACITY)
    if missing == 0:
        raise ValueError(_("Bottom, Left and Top are full: the encounter is already over"))
    free_right = players - len(board["right"])
    if sum(len(h) for h in hand_cards) < missing + free_right:
        raise ValueError(_("the hands must hold at least {needed} cards (the {missing} open "
                           "Bottom/Left/Top spaces plus {right} possible Right cards), so that "
                           "the encounter can always be finished; they hold {held}").format(
            needed=missing + free_right, missing=missing, right=free_right,
            held=sum(len(h) for h in hand_cards)))


def margin(state: BlackForestState) -> tuple:
    """Value vector for two players: each one's points minus the other's."""
    a, b = state.points
    return (Fraction(a - b), Fraction(b - a))


_OBJECTIVES = {
    "margin": margin,
    "points": lambda s: tuple(Fraction(x) for x in s.points),
    "win": lambda s: s.returns(),
}
_OBJECTIVE_NAMES = {"margin": N_("points margin"), "points": N_("points"),
                    "win": N_("share of the win")}
"""The lesson's words for each objective (the names the game's ``objectives()`` uses)."""


def solve_encounter(state: BlackForestState, objective: str = "margin", max_states: int = 200_000):
    """Solve an open-hands encounter exactly (``kingdoms.core.solve.expectimax``).

    ``objective``: ``"margin"`` (two players; zero-sum points difference, so this is
    minimax), ``"points"`` (each player maximises their own points) or ``"win"``
    (win shares).  Returns the ``Solution``.
    """
    if objective not in _OBJECTIVES:
        raise ValueError(_("objective is one of {objectives}").format(
            objectives=", ".join(_OBJECTIVES)))
    if objective == "margin" and state.game.players != 2:
        raise ValueError(_("the margin objective is for two players"))
    return expectimax(state, objective=(_(_OBJECTIVE_NAMES[objective]), _OBJECTIVES[objective]),
                      max_states=max_states)


def encounter_tree(state: BlackForestState, depth: int | None = None, objective: str = "margin",
                   max_nodes: int = 500):
    """The decision tree of an open encounter (networkx), values from ``objective``:
    exact, with every hand face up (the encounter is open by construction)."""
    from kingdoms.core.tree import game_tree
    if objective not in _OBJECTIVES:
        raise ValueError(_("objective is one of {objectives}").format(
            objectives=", ".join(_OBJECTIVES)))
    if depth is None:
        depth = sum(len(h) for h in state.hands) + 1
    g = game_tree(state, depth=depth, values=True, open_hands=True, max_nodes=max_nodes,
                  objective=(_(_OBJECTIVE_NAMES[objective]), _OBJECTIVES[objective]))
    for _a, _b, d in g.edges(data=True):        # short edge labels: "Red 9 top"
        a = d["action"]
        if isinstance(a, Play):
            d["label"] = (f"{a.card} {a.space}" if language() == "en"
                          else f"{a.card.text()} {_(SIDE_NAMES[a.space])}")
    return g


def draw_encounter_tree(state: BlackForestState, ax=None, objective: str = "margin",
                        max_nodes: int = 120, **kwargs):
    """Draw the decision tree of an open encounter; the best moves are drawn thick."""
    from kingdoms.core.tree import draw_tree
    return draw_tree(encounter_tree(state, objective=objective, max_nodes=max_nodes), ax=ax,
                     **kwargs)


# --------------------------------------------------------------------------- players

def __getattr__(name: str):
    # the bots live in ``policies`` (they use these odds); kept reachable here by name
    if name in ("greedy_policy", "simple_policy"):
        from . import policies
        return getattr(policies, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
