"""Two simple strategies for My Kingdom for a Horse (policies ``(state, rng) -> action``).

``greedy_policy``: re-rolls with the exact optimal keep policy for the sheep-value of
the dice given its herd (``odds.solve_rerolls``'s choices, computed by
``odds.keep_policy``; a fence counts 3 sheep while its
target layout is unfinished), carries out every die (animals
before multiplication), plays a free farm card, builds towards a fixed 4-area
layout, takes the most valuable die as another player, and trades surplus upward
while keeping 2 of each species.  ``no_reroll_policy``: the same, but never
re-rolls.  ``solo_policy``: the race player against Moritz (``kingdoms.horse.solo``).
All look only at what their player may see.
"""
from __future__ import annotations

from kingdoms.core.cache import speed_cache

from . import odds, pasture, solo
from .actions import (Discard, KeepDice, LiftFence, PlaceFence, PlayCard, RunAway, Trade,
                      UseCattle, UseDie)
from .components import SPECIES
from .dice import MULTIPLY, king_face
from .steps import (BeforeRoll, Discarding, Effects, FinalTrading, Housing, Keeping,
                    OthersChoose, Trading)

__all__ = ["greedy_policy", "no_reroll_policy", "solo_policy", "TARGET_LAYOUT",
           "named_policies", "default_policies"]

# Four areas: three 2-field areas on the left (rows 0, 1, 2) and the right half (6 fields).
TARGET_LAYOUT = sum(1 << pasture.edge_index(e) for e in (
    "H00", "H01", "H10", "H11", "V00", "V02", "H20", "H21", "H30", "H31", "V20", "V22",
    "V10", "V12", "H02", "H03", "H32", "H33", "V04", "V14", "V24"))
_ORDER = [pasture.edge_index(e) for e in ("V10", "V12", "H02", "H03", "V04", "V14",
                                           "V24", "H32", "H33")]
_ORDER_SET = frozenset(_ORDER)


@speed_cache(maxsize=4096)
def _reroll_policy(herd, comp, want_fences):
    # odds.keep_policy: solve_rerolls' choices, cached by the dice values (herds
    # whose goal gives every roll the same value share one policy)
    # (an int fence value: the same numbers as Fraction(3), computed faster)
    value = 3 if want_fences else 0
    return odds.keep_policy(odds.goal_sheep_value(herd, comp, fence_value=value), game=comp)


def _value(comp, herd, fences, die):
    """What a die is worth in sheep to a player with ``herd`` and ``fences`` (0 for
    animals that could not be housed: they would run away at the end of the phase)."""
    if die is None or die == "half cattle":
        return 0
    gain = _gain(comp, herd, die)
    if gain is None:
        return king_face(comp, die).fences * 0.5
    if not _houses(comp, fences, herd, gain):
        return 0
    return sum(a * v for a, v in zip(gain, _sheep_values(comp)))


@speed_cache(maxsize=16)
def _sheep_values(comp):
    """``odds.sheep_values`` in the order of ``SPECIES``."""
    vals = odds.sheep_values(comp)
    return tuple(vals[s] for s in SPECIES)


def _gain(comp, herd, die):
    """The animals a die gives (None for a fence die)."""
    if die.startswith(MULTIPLY):
        i = SPECIES.index(die[len(MULTIPLY):])
        g = [0, 0, 0, 0]
        g[i] = herd[i] // 2
        return tuple(g)
    face = king_face(comp, die)
    return None if face.fences else face.animals


def _houses(comp, fences, herd, gain):
    new = (herd[0] + gain[0], herd[1] + gain[1], herd[2] + gain[2], herd[3] + gain[3])
    return pasture.fits_cached(fences, new, comp.per_field)


def _policy(state, rng, reroll=True):
    """The greedy player (``reroll`` False: it never re-rolls), step by step."""
    acts = state.legal_actions()
    farm = state.farms[state.current_player()]
    if state.fence_job is not None:
        return _fence_choice(state.fence_job, acts)
    match state.step:                # (the most frequent steps first)
        case Effects():
            return _effects_choice(state, farm, acts)
        case Trading() | FinalTrading():
            return _trade_choice(state.game.comp, farm, acts)
        case OthersChoose():         # the die worth most to us (ties: the larger name)
            comp, herd, fences = state.game.comp, farm.herd, farm.fences
            return max(acts, key=lambda a: (_value(comp, herd, fences, a.die), str(a.die)))
        case BeforeRoll():           # before the first roll: roll (cards come later)
            return acts[-1]
        case Keeping():
            if not reroll:
                return acts[0]                         # keep everything: stop rolling
            want = bool(TARGET_LAYOUT & ~farm.fences)
            pol = _reroll_policy(farm.herd, state.game.comp, want)
            kept, keep_mult = pol(state.dice, state.rerolls_left)
            return KeepDice(kept, keep_mult)
        case Housing():
            # give up the animal we can best spare: most above the goal, cheapest first
            goal = state.game.comp.goal
            return max(acts, key=lambda a: (farm.herd[SPECIES.index(a.species)] - goal,
                                            -SPECIES.index(a.species)))
        case Discarding():
            return acts[0]                             # keep the hand
    return acts[0]


def _fence_choice(job, acts):
    """Build towards ``TARGET_LAYOUT``: put a lifted fence on it, place new fences in
    ``_ORDER``, move a fence that is not part of it, else done."""
    if job.lifted >= 0:                                # put the lifted fence
        for a in acts:
            if a.edge in _ORDER_SET:
                return a
        return acts[0]
    place = {a.edge: a for a in acts if type(a) is PlaceFence}
    for e in _ORDER:
        if e in place:
            return place[e]
    for a in acts:
        if type(a) is LiftFence and not TARGET_LAYOUT >> a.edge & 1:
            return a
    return acts[-1]                                    # done with the fences


def _effects_choice(state, farm, acts):
    """Animals and fences first, then the half cattle, a free farm card, then the
    multiplication (it counts the animals just received).  Dice whose animals could
    not be housed, with no fence die left, are declined: they would only run away
    at the end of the phase."""
    comp = state.game.comp
    herd, fences, unused = farm.herd, farm.fences, state.unused
    cattle = card = mult = None
    for a in acts:
        t = type(a)
        if t is UseDie:
            gain = _gain(comp, herd, a.die)
            if gain is not None and not _houses(comp, fences, herd, gain) \
                    and not _fence_left(comp, unused):
                continue
            if not a.die.startswith(MULTIPLY):
                return a
            mult = a
        elif t is UseCattle:
            if _houses(comp, fences, herd, (0, 0, 1, 0)) or _fence_left(comp, unused):
                cattle = a
        elif t is PlayCard and card is None and not any(comp.card(a.card).pay):
            c = comp.card(a.card)
            if c.fences or c.multiply or _houses(comp, fences, herd, c.gain):
                card = a
    return cattle or card or mult or acts[-1]          # last: finish


@speed_cache(maxsize=1 << 12)
def _fence_left(comp, unused):
    """Is a fence die among the dice ``unused``?  (Speed only: the dice are public.)"""
    return any(king_face(comp, d).fences for d in unused if not d.startswith(MULTIPLY))


def _trade_choice(comp, farm, acts):
    """The highest trade (then the largest) that keeps the goal of the species
    given and still fits the fences (unless the herd does not fit anyway)."""
    best = None
    herd, fences = farm.herd, farm.fences
    for a in acts:
        if type(a) is not Trade:
            continue
        i = SPECIES.index(a.give)
        if herd[i] - a.pay < comp.goal or not (
                best is None or i > SPECIES.index(best.give)
                or (a.give == best.give and a.count > best.count)):
            continue                                   # below the goal, or no better
        after = list(herd)
        after[i] -= a.pay
        after[i + 1] += a.count
        if not pasture.fits_cached(fences, tuple(after), comp.per_field) \
                and pasture.fits_cached(fences, herd, comp.per_field):
            continue                                   # would not fit: keep the herd
        best = a
    return best if best is not None else acts[-1]      # no (more) trades


def greedy_policy(state, rng):
    return _policy(state, rng, reroll=True)


def solo_policy(state, rng):
    """The race player against Moritz (``kingdoms.horse.solo`` says what it weighs):
    the exact re-roll solver for the race goal, the engine cards at once, the trades
    that leave the best herd for the race, ``greedy``'s fences.  ``rng`` is not used:
    it plays the same move in the same position."""
    acts = state.legal_actions()
    if state.fence_job is not None:
        return _fence_choice(state.fence_job, acts)
    comp = state.game.comp
    farm = state.farms[state.current_player()]
    match state.step:
        case Effects():
            plain = tuple(a for a in acts if type(a) is not PlayCard)
            choice = _effects_choice(state, farm, plain)
            if type(choice) is UseCattle or (type(choice) is UseDie
                                             and not choice.die.startswith(MULTIPLY)):
                return choice                          # animals and fences first
            return solo.best_card(comp, farm, acts, layout=TARGET_LAYOUT) or choice
        case Trading() | FinalTrading():
            return solo.trade_choice(state, acts)
        case Keeping():
            return solo.keep_choice(state, TARGET_LAYOUT)
        case BeforeRoll():                             # the engines at once, else roll
            return solo.best_card(comp, farm, acts, permanent_only=True,
                                  layout=TARGET_LAYOUT) or acts[-1]
        case Housing():                                # keep the best herd
            return max((a for a in acts if type(a) is RunAway),
                       key=lambda a: solo.herd_score(comp, _one_less(farm.herd, a.species)))
        case Discarding():
            junk = tuple(c for c in farm.hand if solo.junk(comp, farm, c, TARGET_LAYOUT))
            for a in acts:
                if type(a) is Discard and a.cards == junk:
                    return a
    return _policy(state, rng)


def _one_less(herd, species):
    i = SPECIES.index(species)
    return herd[:i] + (herd[i] - 1,) + herd[i + 1:]


def no_reroll_policy(state, rng):
    return _policy(state, rng, reroll=False)


# ---- the game's players, attached to ``Horse`` by the package (``Game.attach``) ----------

def named_policies(game) -> dict:
    """``greedy`` and ``no_reroll`` beside the core's players.  ``mcts`` here: 50
    simulations a move played out by ``greedy`` (random Horse games last ~1,000 steps
    and rarely end by the rules), starting from ``greedy``'s move (its prior).
    ``solo``: the race player against Moritz (``kingdoms.horse.solo``)."""
    from kingdoms.core.search import mcts_policy
    return {"greedy": greedy_policy, "no_reroll": no_reroll_policy,
            "mcts": mcts_policy(50, rollout="greedy", prior="greedy"),
            "solo": solo_policy}


def default_policies(game) -> tuple:
    """``no_reroll_policy`` in every seat: cheap (no re-roll search), sensible, and its
    games end by the rules."""
    return (no_reroll_policy,) * game.players
