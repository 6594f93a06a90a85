"""Exact odds for King of the Woods: card counting, Fool thresholds, endgames.

Card counting works from what one player can see (``state.view(player)``; an
omniscient state is viewed first).  The model for unseen cards: every arrangement of
the unseen cards over the unknown places (the unknown cards of each opponent's hand
and the set-aside pile) is equally likely.  That is exact right after the deal, and
after Treasurer/Knight/General moves that carry no information about the rest; once
opponents have *chosen* plays their choices may carry information this model ignores.

Fool thresholds and endgames work on a fully known position (every hand known —
build one with ``Woods(...).position(...)`` or ``sample_world``) under a stated model
of play: every player chooses uniformly at random among the legal actions (or any
given stochastic policy), chance events exact.  ``expectimax`` answers how the
players *should* play (perfect information).

Every helper returns a ``Fraction`` or a ``Distribution``; the ``*_simulated``
helpers give the seeded Monte Carlo estimate to set beside the exact answer.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Callable

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import _
from kingdoms.core.distribution import Distribution, hypergeometric, multivariate_hypergeometric
from kingdoms.core.protocol import HIDDEN, check_count, check_name, check_player
from kingdoms.core.cards import exact_deals
from kingdoms.core.solve import TreeTooLarge, expectimax, outcome_distribution, uniform_model

from .rules import FOOL_RUIN, Dealing, card_name, fool_count

__all__ = ["unseen_cards", "unknown_places", "place_name", "fool_distribution", "joint_fools",
           "p_holds", "p_any_opponent_holds", "hand_distribution", "treasurer_draw",
           "knight_take", "knight_expected_gain", "worlds", "sample_world",
           "fool_outcome", "fool_outcome_from_view", "fool_outcome_simulated", "danger_and_rescue",
           "fool_step_value", "expected_at_round_end", "action_values", "single_round",
           "solve_endgame", "endgame_tree", "random_model", "TreeTooLarge"]

SET_ASIDE = "set aside"


# --------------------------------------------------------------------------- card counting

def _view(state, player):
    return state.view(player)


def _card(state, card) -> str:
    """``card`` if it names a card of the game, else a ``ValueError`` naming them."""
    return check_name(card, state.game.components.rank, "card")


def unseen_cards(state, player) -> Counter:
    """The cards ``player`` cannot place (``state.unseen(player)``): this round's deck
    minus their own hand, every court, the Assassins out of the game (or round) and
    the cards they know in other hands."""
    pool = state.unseen(player)
    if sum(pool.values()) != sum(n for n in unknown_places(state, player).values()):
        raise AssertionError("unseen cards and unknown places disagree")  # conservation
    return pool


def unknown_places(state, player) -> dict:
    """``{opponent: unknown cards in their hand, ..., "set aside": n}``."""
    v = _view(state, player)
    out = {q: sum(1 for c in h if c is HIDDEN) for q, h in enumerate(v.hands) if q != player}
    out[SET_ASIDE] = len(v.set_aside)
    return out


def _known(state, player, q) -> Counter:
    v = _view(state, player)
    return Counter(c for c in v.hands[q] if c is not HIDDEN)


def place_name(state, place) -> str:
    """How a place of ``unknown_places``/``fool_distribution`` reads for people: the
    player's name (``game.player_name``, 1-based) or "set aside"."""
    return _("set aside") if place == SET_ASIDE else state.game.player_name(place)


def fool_distribution(state, player, card: str = "Fool") -> dict:
    """For each opponent (and the set-aside pile): the exact distribution of the
    number of ``card`` (default Fools) there, as ``player`` sees the game.  Keys are
    player indices and ``"set aside"``; print them with ``place_name``.
    Known cards count for sure; the unknown places are a hypergeometric draw from the
    unseen cards."""
    _card(state, card)
    pool = unseen_cards(state, player)
    total = sum(pool.values())
    m = pool[card]
    out = {}
    for place, k in unknown_places(state, player).items():
        sure = 0 if place == SET_ASIDE else _known(state, player, place)[card]
        out[place] = hypergeometric(total, m, k).map(lambda x, s=sure: x + s)
    return out


def joint_fools(state, player, card: str = "Fool") -> Distribution:
    """The joint distribution of the unseen ``card`` copies over the unknown places:
    outcomes are tuples in the order of ``unknown_places`` (multivariate
    hypergeometric: the copies are placed like draws among the unknown slots)."""
    _card(state, card)
    places = unknown_places(state, player)
    m = unseen_cards(state, player)[card]
    return multivariate_hypergeometric(places, m)


def p_holds(state, player, card: str, opponent: int, at_least: int = 1) -> Fraction:
    """P(``opponent`` holds at least ``at_least`` copies of ``card``), for ``player``."""
    state._check_player(player, "p_holds")
    check_player(state.game, opponent, "p_holds", "opponent", other_than=player)
    return fool_distribution(state, player, card)[opponent].P(lambda x: x >= at_least)


def p_any_opponent_holds(state, player, card: str) -> Fraction:
    """P(some opponent holds a ``card``) = 1 - P(every unseen copy is set aside)."""
    _card(state, card)
    state._check_player(player, "p_any_opponent_holds")
    if any(_known(state, player, q)[card] for q in range(state.game.players) if q != player):
        return Fraction(1)
    places = unknown_places(state, player)
    pool = unseen_cards(state, player)
    total, m, aside = sum(pool.values()), pool[card], places[SET_ASIDE]
    return 1 - hypergeometric(total, m, aside).prob(m)


def hand_distribution(state, player, opponent: int) -> Distribution:
    """The exact distribution of ``opponent``'s whole hand (a sorted tuple) as
    ``player`` sees it."""
    state._check_player(player, "hand_distribution")
    check_player(state.game, opponent, "hand_distribution", "opponent", other_than=player)
    pool = unseen_cards(state, player)
    kinds = [k for k in sorted(pool) if pool[k] > 0]
    known = tuple(sorted(_known(state, player, opponent).elements()))
    draws = unknown_places(state, player)[opponent]
    if draws == 0:
        return Distribution.always(known)
    comp = multivariate_hypergeometric({k: pool[k] for k in kinds}, draws)

    def hand(counts):
        cards = list(known)
        for k, n in zip(kinds, counts):
            cards += [k] * n
        return tuple(sorted(cards))

    return comp.map(hand)


def treasurer_draw(state, player, victim: int) -> Distribution:
    """The card a Treasurer played by ``player`` to ``victim``'s court draws, as the
    player sees it: each card of the hand is equally likely, and an unknown card is
    distributed like the unseen cards."""
    v = _view(state, player)
    state._check_player(victim, "treasurer_draw", "victim")
    hand = v.hands[victim]
    if not hand:
        raise ValueError(_("that hand is empty: the {treasurer} draws nothing").format(
            treasurer=card_name("Treasurer", state.game)))
    n = len(hand)
    known = Counter(c for c in hand if c is not HIDDEN)
    u = n - sum(known.values())
    weights = Counter({c: Fraction(k, n) for c, k in known.items()})
    if u:
        pool = unseen_cards(state, player)
        total = sum(pool.values())
        for c, k in pool.items():
            if k:
                weights[c] += Fraction(u, n) * Fraction(k, total)
    return Distribution(weights)


def knight_take(hand, influence) -> str:
    """The card a Knight takes from ``hand``: the Squire if there is one (forced),
    otherwise a card of highest influence."""
    if "Squire" in hand:
        return "Squire"
    return max(hand, key=lambda c: (influence[c], c))


def knight_expected_gain(state, player, victim: int) -> Distribution:
    """The influence of the card a Knight takes from ``victim``'s hand (taking the
    best card; a Squire is forced), as ``player`` sees the game before looking."""
    infl = state.game.influence
    return hand_distribution(state, player, victim).map(
        lambda h: infl[knight_take(h, infl)] if h else 0)


# --------------------------------------------------------------------------- worlds

def _fill(state, player, placement):
    v = _view(state, player)
    hands = list(v.hands)
    for q in range(len(hands)):
        if q != player:
            hands[q] = tuple(sorted([c for c in hands[q] if c is not HIDDEN]
                                    + list(placement[q])))
    # the true knowledge rows of a filled world are unknown; keep the player's own
    known = tuple(v.known[o] if o == player else tuple(() for _ in hands)
                  for o in range(len(hands)))
    return replace(v, hands=tuple(hands), set_aside=tuple(placement[SET_ASIDE]), known=known)


def worlds(state, player, limit: int = 20_000) -> Distribution:
    """Every complete position consistent with what ``player`` sees, with its exact
    probability (uniform shuffling of the unseen cards).  Other players' knowledge
    is not modelled in these worlds.  Raises ``ValueError`` beyond ``limit`` worlds."""
    pool = unseen_cards(state, player)
    places = unknown_places(state, player)
    out = {}
    for placement, p in exact_deals(pool, places):
        out[_fill(state, player, placement)] = p
        if len(out) > limit:
            raise ValueError(_("more than {limit} worlds: use sample_world and "
                               "simulation").format(limit=limit))
    return Distribution(out)


def sample_world(state, player, rng: random.Random):
    """One complete position consistent with ``player``'s view, drawn uniformly
    (``state.sample_world``, ``kingdoms.woods.worlds``)."""
    return state.sample_world(player, rng)


# --------------------------------------------------------------------------- play to round end

random_model = uniform_model
"""The stated model of play: each legal action equally likely
(``kingdoms.core.solve.uniform_model``)."""


def _round_done(s) -> bool:
    return s.is_terminal() or isinstance(s.step, Dealing)


def _end_distribution(state, f, model, max_states):
    """The exact distribution of ``f`` at the end of this round under ``model``
    (``kingdoms.core.solve.outcome_distribution``)."""
    if isinstance(state.step, Dealing):
        raise ValueError(_("this position is between rounds; build a mid-round position"))
    try:
        return outcome_distribution(state, model, f, stop=_round_done, max_states=max_states)
    except TreeTooLarge as e:
        if e.outcomes is not None:
            raise
        raise TreeTooLarge(_("more than {limit} states before the round ends; "
                             "use the simulated version").format(limit=max_states),
                           limit=max_states) from None


def fool_outcome(state, court: int, model: Callable = random_model,
                 max_states: int = 200_000) -> Distribution:
    """The exact distribution of the number of uncovered Fools at ``court`` when the
    round ends, from a fully known position, if every decision follows ``model``
    (default: uniformly random legal actions).  Raises ``TreeTooLarge`` if the rest
    of the round has more than ``max_states`` positions."""
    state._check_player(court, "fool_outcome", "court")
    return _end_distribution(state, lambda s: fool_count(s.courts[court]), model, max_states)


def fool_outcome_from_view(state, player: int, court: int, model: Callable = random_model,
                           max_worlds: int = 2_000, max_states: int = 200_000) -> Distribution:
    """The same from ``player``'s view: averaged exactly over every world consistent with
    what they see (``worlds``), each played out under ``model``.  Only for small
    positions; otherwise sample worlds with ``sample_world`` and simulate."""
    state._check_player(court, "fool_outcome_from_view", "court")
    return worlds(state, player, limit=max_worlds).bind(
        lambda w: fool_outcome(w, court, model, max_states))


def fool_outcome_simulated(state, court: int, n: int = 2000, seed=0, policy=None,
                           player: int | None = None) -> Distribution:
    """The same, estimated by ``n`` seeded random playouts (``policy(state, rng)``;
    default uniformly random), as an empirical ``Distribution``.  With ``player``,
    each playout starts from a world drawn from that player's view (``sample_world``),
    so it also works when hands are hidden."""
    state._check_player(court, "fool_outcome_simulated", "court")
    check_count(n, "n (the number of playouts)", 1)
    rng = random.Random(f"woods-fools/{seed}")
    out = Counter()
    for _ in range(n):
        s = state if player is None else sample_world(state, player, rng)
        while not _round_done(s):
            if s.is_chance():
                s = s.apply(s.sample_chance(rng))
            elif policy is None:
                la = s.legal_actions()
                s = s.apply(la[rng.randrange(len(la))])
            else:
                s = s.apply(policy(s, rng))
        out[fool_count(s.courts[court])] += 1
    return Distribution(out)


def danger_and_rescue(dist: Distribution) -> dict:
    """From a distribution of the final uncovered Fools at a court: P(danger: exactly
    ``FOOL_RUIN``, the court scores 0) and P(rescue: more)."""
    r = FOOL_RUIN
    return {_("danger (exactly {n})").format(n=r): dist.prob(r),
            _("rescue ({n} or more)").format(n=r + 1): dist.P(lambda k: k > r),
            _("safe (0-{n})").format(n=r - 1): dist.P(lambda k: k < r)}


def fool_step_value(base: int, k: int, fool: int | None = None) -> int:
    """How a court's round-end score changes if one more Fool joins its ``k``
    uncovered Fools (``base``: influence of its other uncovered followers; ``fool``:
    a Fool's influence, by default the packaged data's)."""
    if fool is None:
        fool = _packaged_influence("Fool")

    def score(j):
        return 0 if j == FOOL_RUIN else base + fool * j
    return score(k + 1) - score(k)


@speed_cache(maxsize=16)
def _packaged_influence(card: str) -> int:
    """``card``'s influence in the packaged data file."""
    from .rules import Woods
    return Woods().influence[card]


def expected_at_round_end(state, f: Callable, model: Callable = random_model,
                          max_states: int = 200_000) -> Fraction:
    """E[f(position at round end)] from a fully known position under ``model``."""
    return _end_distribution(state, f, model, max_states).mean()


def action_values(state, f: Callable, model: Callable = random_model,
                  max_states: int = 200_000) -> dict:
    """For each legal action of the player to move: E[f(round end)] if they take it and
    everything afterwards follows ``model``."""
    return {a: expected_at_round_end(state.apply(a), f, model, max_states)
            for a in state.legal_actions()}


# --------------------------------------------------------------------------- endgames

def single_round(state):
    """The same position in a game that ends with this round (won by the round's
    winner), so the end of the round is the end of the tree."""
    g = state.game
    if g.one_round:
        return state
    return replace(state, game=replace(g, one_round=True))


def _objective(kind: str, players: int):
    """``(name, function)`` of an objective, named in the game's words (its
    ``objectives()``); ``None`` for the share of the win."""
    if kind == "win":
        return None
    if kind == "score":
        return ("court influence", lambda s: tuple(Fraction(x) for x in s.court_scores()))
    if kind == "margin":
        if players != 2:
            raise ValueError(_("'margin' is for two players"))
        return ("court influence margin",
                lambda s: (Fraction(s.court_scores()[0] - s.court_scores()[1]),
                           Fraction(s.court_scores()[1] - s.court_scores()[0])))
    raise ValueError(_("objective is 'win', 'score' or 'margin'"))


def solve_endgame(state, objective: str = "win", max_states: int = 200_000):
    """Perfect-information expectimax of the rest of the round (every hand known).

    ``objective``: "win" (share of the round win, Princess tie-break), "score" (each
    player maximises their own court score), "margin" (two players: score
    difference, zero-sum).  Returns ``kingdoms.core.solve.Solution``."""
    s = single_round(state)
    return expectimax(s, objective=_objective(objective, s.game.players), max_states=max_states)


def endgame_tree(state, depth: int = 4, objective: str = "win", max_nodes: int = 200):
    """The decision tree of the rest of the round with exact values (for ``draw_tree``),
    every hand face up (the lesson's premise, as in ``solve_endgame``)."""
    from kingdoms.core.tree import game_tree
    s = single_round(state)
    return game_tree(s, depth=depth, values=True, open_hands=True, max_nodes=max_nodes,
                     objective=_objective(objective, s.game.players))
