"""Exact odds for My Kingdom for a Horse (Fractions and Distributions).

Every helper reads the dice faces, trade rates and goal from the game's data (the
packaged ``data.toml`` unless a game built from a user's copy is passed), so
correcting an assumed die face changes every number here.

Dice notation: one roll is ``(king, mult)`` where ``king`` is the sorted tuple of
the three King-die faces (e.g. ``("1 pig", "2 sheep", "half cattle")``) and
``mult`` is the species on the multiplication die.  The King dice are identical, so
only the multiset matters.

* ``roll_distribution`` — one roll of the four dice; ``p_cattle`` — P(a cattle).
* ``policy_distribution`` — the final dice under a given keep/re-roll policy.
* ``solve_rerolls`` — the optimal keep policy for a goal by dynamic programming over
  kept dice (as for Yahtzee), with its exact value (``keep_policy``: the same choices
  only, fast and cached by the goal's values, for bots); ``RerollGame`` is the same
  problem as a tiny protocol game, to draw as a decision tree or solve with
  ``kingdoms.core.solve.expectimax``.
* ``multiplication_distribution`` / ``aim_multiplication`` — the pink die.
* ``trade_graph``, ``sheep_value``, ``fewest_trading_phases``, ``can_finish_now``,
  ``extra_sheep_needed`` — trade chains.
* ``useful_die_left`` — the others' dice: is a useful die left for seat k?
* ``moritz_chain``, ``moritz_turns``, ``moritz_mean_turns``, ``simulate_moritz`` —
  the solo race as an exact Markov chain, with a Monte Carlo check.  The chain
  ignores the animal supply (Moritz's herd stays far below it); a test checks the
  chain's mean against solo games played by the rules engine, which uses the supply.
* ``icepool_roll_distribution`` — the same roll computed by icepool (benchmark).

Conventions: ``herd`` = counts ``(sheep, pigs, cattle, horses)``; ``goal`` = an int
(that many of each species) or a herd; ``game`` = a ``Horse`` game (its data) or
None for the packaged data.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Callable

from kingdoms.core.distribution import Distribution
from kingdoms.core.protocol import CHANCE, TERMINAL, Action, Game, State

from .components import SPECIES, Components, components

__all__ = [
    "roll_distribution", "roll_counts", "p_cattle", "king_pool", "dice_gain",
    "policy_distribution", "solve_rerolls", "RerollPolicy", "keep_options",
    "keep_policy", "KeepPolicy",
    "goal_cattle", "goal_sheep_value", "RerollGame",
    "multiplication_distribution", "multiplication_new_animals", "aim_multiplication",
    "trade_graph", "sheep_values", "sheep_value", "trade_cascade", "can_reach_by_trading",
    "fewest_trading_phases", "can_finish_now", "extra_sheep_needed", "trade_chain",
    "useful_die_left", "die_names",
    "moritz_step", "moritz_chain", "moritz_turns", "moritz_mean_turns", "simulate_moritz",
    "icepool_roll_distribution",
]


def _comp(game=None) -> Components:
    if game is None:
        return components()
    if isinstance(game, Components):
        return game
    return game.comp


# =========================================================================== dice

def _pool_counts(counts: dict, n: int) -> dict:
    """Ways (integer weights) to see each sorted multiset of ``n`` dice whose single
    die shows face f in ``counts[f]`` of its sides."""
    names = sorted(counts)
    out = {}
    fact_n = math.factorial(n)
    for combo in combinations_with_replacement(names, n):
        w = fact_n
        for f, k in Counter(combo).items():
            w = w // math.factorial(k) * counts[f] ** k
        out[combo] = w
    return out


def king_pool(n: int, game=None) -> Distribution:
    """The sorted faces of ``n`` King dice."""
    comp = _comp(game)
    if n == 0:
        return Distribution.always(())
    return Distribution(_pool_counts(Counter(f.name for f in comp.king_faces), n))


def roll_counts(game=None) -> tuple[dict, int]:
    """``({(king, mult): ways}, total ways)`` for one roll of all four dice."""
    comp = _comp(game)
    kc = _pool_counts(Counter(f.name for f in comp.king_faces), comp.king_count)
    mc = Counter(comp.mult_faces)
    total = len(comp.king_faces) ** comp.king_count * len(comp.mult_faces)
    return {(k, m): w * mw for k, w in kc.items() for m, mw in sorted(mc.items())}, total


def roll_distribution(game=None) -> Distribution:
    """One roll of the 3 King dice and the multiplication die, exactly.

    Outcomes ``(king, mult)``: ``king`` the sorted King-die faces, ``mult`` the
    species on the pink die.  With the packaged (assumed) faces: 56 x 3 = 168
    outcomes, probabilities in 1296ths.
    """
    weights, total = roll_counts(game)
    return _exact(weights, total)


def _exact(weights: dict, total: int) -> Distribution:
    """A Distribution from integer weights (in sorted order) out of ``total`` cases."""
    return Distribution.from_ways(weights, total)


def icepool_roll_distribution(game=None):
    """The same distribution computed by icepool (for the benchmark and tests)::

        king = icepool.Die(king_face_names); mult = icepool.Die(mult_face_names)
        icepool.tupleize(king.pool(3).expand(), mult)
    """
    import icepool
    comp = _comp(game)
    king = icepool.Die([f.name for f in comp.king_faces])
    mult = icepool.Die(list(comp.mult_faces))
    return icepool.tupleize(king.pool(comp.king_count).expand(), mult)


def halves(king: tuple, comp: Components) -> int:
    return sum(comp.king_face(f).half for f in king)


def p_cattle(game=None, roll: Distribution | None = None) -> Fraction:
    """P(at least 2 half-cattle among the King dice) in one roll (or in ``roll``)."""
    comp = _comp(game)
    roll = roll_distribution(comp) if roll is None else roll
    return roll.P(lambda r: halves(r[0], comp) >= 2)


def dice_gain(roll: tuple, herd: tuple = (0, 0, 0, 0), game=None,
              multiply: bool = True) -> tuple:
    """Animals (per species) and fences the active player gets from all four dice:
    the King-die animals, 1 cattle for 2-3 half cattle, then the multiplication of
    the herd *after* those animals (the order that gains most; capacity ignored).
    Returns ``(animals tuple, fences)``."""
    comp = _comp(game)
    king, mult = roll
    gain = [0, 0, 0, 0]
    fences = 0
    h = 0
    for f in king:
        face = comp.king_face(f)
        for i in range(4):
            gain[i] += face.animals[i]
        h += face.half
        fences += face.fences
    if h >= 2:
        gain[2] += 1
    if multiply and mult is not None:
        s = SPECIES.index(mult)
        gain[s] += (herd[s] + gain[s]) // 2
    return tuple(gain), fences


# ---------------------------------------------------------------- keep / re-roll

def keep_options(roll: tuple) -> tuple:
    """Every choice of dice to keep: ``(kept king faces, keep the pink die?)``
    (``None`` for the pink die when the roll has none).  Keeping everything (listed
    first) means: stop rolling."""
    try:
        return _keep_options_cached(roll)
    except TypeError:               # an unhashable roll: compute it uncached
        return _keep_options(roll)


@lru_cache(maxsize=4096)
def _keep_options_cached(roll):
    return _keep_options(roll)


def _keep_options(roll):
    king, mult = roll
    subs = set()
    n = len(king)
    for mask in range(1 << n):
        subs.add(tuple(king[i] for i in range(n) if mask >> i & 1))
    subs = sorted(subs, key=lambda t: (-len(t), t))
    flags = (True, False) if mult is not None else (None,)
    return tuple((k, f) for k in subs for f in flags)


def _reroll(kept: tuple, keep_mult: bool, mult, comp: Components, use_mult: bool) -> Distribution:
    return _reroll_cached(kept, keep_mult, mult, comp, use_mult)


@lru_cache(maxsize=4096)
def _reroll_cached(kept, keep_mult, mult, comp, use_mult):
    n = comp.king_count - len(kept)
    new_king = king_pool(n, comp)
    if not use_mult:
        mults = Distribution.always(None)
    elif keep_mult:
        mults = Distribution.always(mult)
    else:
        mults = Distribution.uniform(comp.mult_faces)
    return new_king.combine(mults, lambda k, m: (tuple(sorted(kept + k)), m))


def _scale(comp: Components, use_mult: bool) -> int:
    """A common denominator of every roll and re-roll probability: all the dice
    rolled at once (``6**3 * 6`` with the packaged dice)."""
    return len(comp.king_faces) ** comp.king_count * (len(comp.mult_faces) if use_mult else 1)


@lru_cache(maxsize=4096)
def _reroll_ways(kept, keep_mult, mult, comp, use_mult):
    """``_reroll_cached`` as integer weights out of ``_scale(comp, use_mult)`` cases,
    in the same order: ``((new roll, ways), ...)``."""
    m = _scale(comp, use_mult)
    out = []
    for r, p in _reroll_cached(kept, keep_mult, mult, comp, use_mult).items():
        w = p * m
        if w.denominator != 1:                 # cannot happen: every total divides m
            raise ArithmeticError(f"re-roll probability {p} is not in {m}ths")
        out.append((r, w.numerator))
    return tuple(out)


def policy_distribution(policy: Callable, rerolls: int = 2, game=None,
                        use_mult: bool = True) -> Distribution:
    """The final dice when ``policy(roll, rerolls_left) -> (kept king, keep pink?)``
    chooses what to keep after each roll (keeping everything stops)."""
    comp = _comp(game)
    first = roll_distribution(comp) if use_mult else king_pool(comp.king_count, comp).map(
        lambda k: (k, None))

    memo: dict = {}

    def go(roll, left):
        if left == 0:
            return Distribution.always(roll)
        kept, keep_mult = policy(roll, left)
        if len(kept) == len(roll[0]) and (keep_mult or roll[1] is None):
            return Distribution.always(roll)
        key = (tuple(kept), keep_mult, roll[1] if keep_mult else None, left)
        d = memo.get(key)
        if d is None:       # the same kept dice always lead to the same future
            d = memo[key] = _reroll(tuple(kept), keep_mult, roll[1], comp, use_mult).bind(
                lambda r: go(r, left - 1))
        return d

    return first.bind(lambda r: go(r, rerolls))


def goal_cattle(game=None) -> Callable:
    """Goal: 1 if the final dice give a cattle (2+ half cattle), else 0."""
    comp = _comp(game)
    return lambda roll: 1 if halves(roll[0], comp) >= 2 else 0


def sheep_values(game=None) -> dict:
    """The worth of each species in sheep at the trade rates (1, 2, 6, 24)."""
    comp = _comp(game)
    out, v = {"sheep": 1}, 1
    for i, r in enumerate(comp.trade_rates):
        v *= r
        out[SPECIES[i + 1]] = v
    return out


def goal_sheep_value(herd: tuple, game=None, fence_value: Fraction = Fraction(0)) -> Callable:
    """Goal: the sheep-value of what all four dice give a player with ``herd``
    (animals first, then multiplication; capacity ignored), plus ``fence_value``
    per fence."""
    comp = _comp(game)
    vals = [sheep_values(comp)[s] for s in SPECIES]
    herd = tuple(herd)

    def value(roll):
        king, mult = roll
        gain, worth, fences = _king_part(tuple(king), comp)
        if mult is not None:            # the multiplication counts the new animals
            s = SPECIES.index(mult)
            worth += (herd[s] + gain[s]) // 2 * vals[s]
        return worth + fence_value * fences
    return value


@lru_cache(maxsize=1024)
def _king_part(king: tuple, comp: Components) -> tuple:
    """What the King dice alone give: ``(animals, their sheep-value, fences)``."""
    gain, fences = dice_gain((king, None), (0, 0, 0, 0), comp, multiply=False)
    vals = sheep_values(comp)
    return gain, sum(g * vals[s] for g, s in zip(gain, SPECIES)), fences


@dataclass
class RerollPolicy:
    """An optimal keep policy: ``value`` (exact expected goal under optimal play),
    ``keep[(roll, rerolls_left)]`` the best dice to keep and ``values`` the value of
    every (roll, rerolls_left)."""

    value: Fraction
    keep: dict = field(repr=False)
    values: dict = field(repr=False)
    rerolls: int = 2

    def __call__(self, roll, rerolls_left):
        return self.keep[(roll, rerolls_left)]

    def explain(self, roll, rerolls_left=None) -> str:
        left = self.rerolls if rerolls_left is None else rerolls_left
        kept, keep_mult = self.keep[(roll, left)]
        if len(kept) == len(roll[0]) and (keep_mult or roll[1] is None):
            what = "stop and keep all dice"
        else:
            rest = len(roll[0]) - len(kept)
            parts = [f"keep {list(kept)}" if kept else "keep no King die"]
            if rest:
                parts.append(f"re-roll {rest} King {'die' if rest == 1 else 'dice'}")
            if roll[1] is not None:
                parts.append("keep the pink die" if keep_mult else "re-roll the pink die")
            what = ", ".join(parts)
        return f"{roll}: {what} (value {self.values[(roll, left)]})"


def solve_rerolls(goal: Callable, rerolls: int = 2, game=None,
                  use_mult: bool = True) -> RerollPolicy:
    """The optimal keep/re-roll policy for ``goal(final roll) -> number``, by
    dynamic programming over (dice, re-rolls left), exactly (Fractions).

    V(roll, 0) = goal(roll); V(roll, r) = max over the dice K to keep of
    E[V(K + fresh dice, r - 1)].  Ties go to keeping more dice.

    (Computed in exact integers: every probability is a whole number of
    ``M``-ths, ``M`` = the cases of one roll of all dice, and every goal value a
    whole number of ``L``-ths, so ``V(roll, r) * L * M**r`` is an integer; the
    values are returned as Fractions.  Same numbers, same choices, same ties.)
    """
    comp = _comp(game)
    first = roll_distribution(comp) if use_mult else king_pool(comp.king_count, comp).map(
        lambda k: (k, None))
    m = _scale(comp, use_mult)
    goals: dict = {}               # roll -> Fraction(goal(roll)), asked once per roll
    keep: dict = {}
    scaled: dict = {}              # (roll, r) -> V(roll, r) * unit[r], an integer
    kept_value: dict = {}

    def goal_of(roll):
        g = goals.get(roll)
        if g is None:
            g = goals[roll] = Fraction(goal(roll))
        return g

    # the goal of every roll the dice can end on (a re-roll ends on a roll of all the
    # dice too, so these are the first roll's outcomes), for the common denominator L
    finals = list(first)
    lcm = 1
    for roll in finals:
        lcm = math.lcm(lcm, goal_of(roll).denominator)
    unit = [lcm * m ** r for r in range(rerolls + 1)]
    scaled_goal = {roll: int(g * lcm) for roll, g in goals.items()}

    def V(roll, r):
        key = (roll, r)
        v = scaled.get(key)
        if v is not None:
            return v
        if r == 0:
            v = scaled_goal[roll]
        else:
            best, choice = None, None
            for kept, keep_mult in keep_options(roll):
                if len(kept) == len(roll[0]) and keep_mult is not False:
                    w = V(roll, 0) * unit[r] // lcm   # stop: the dice stay as they are
                else:
                    kk = (kept, keep_mult, roll[1] if keep_mult else None, r - 1)
                    w = kept_value.get(kk)
                    if w is None:
                        w = sum(ways * V(nr, r - 1) for nr, ways in
                                _reroll_ways(kept, keep_mult, roll[1] if keep_mult else None,
                                             comp, use_mult))
                        kept_value[kk] = w
                if best is None or w > best:
                    best, choice = w, (kept, keep_mult)
            v = best
            keep[key] = choice
        scaled[key] = v
        return v

    total = 0
    for roll, p in first.items():
        total += V(roll, rerolls) * p
    value = total / unit[rerolls]
    values = {key: Fraction(v, unit[key[1]]) for key, v in scaled.items()}
    return RerollPolicy(Fraction(value), keep, values, rerolls)


@lru_cache(maxsize=8)
def _keep_shape(comp: Components, use_mult: bool) -> tuple:
    """What ``solve_rerolls`` computes that does not depend on the goal: the rolls
    (first-roll order), each roll's keep options as ``(choice, kept state)`` (state
    -1: stop) and each kept state's outcomes as (roll indices, ways out of ``m``)."""
    first = roll_distribution(comp) if use_mult else king_pool(comp.king_count, comp).map(
        lambda k: (k, None))
    rolls = tuple(first)
    index = {r: i for i, r in enumerate(rolls)}
    states: dict = {}
    outcomes = []
    options = []
    for roll in rolls:
        opts = []
        for kept, keep_mult in keep_options(roll):
            if len(kept) == len(roll[0]) and keep_mult is not False:
                opts.append(((kept, keep_mult), -1))
                continue
            kk = (kept, keep_mult, roll[1] if keep_mult else None)
            j = states.get(kk)
            if j is None:
                j = states[kk] = len(outcomes)
                ways = _reroll_ways(*kk, comp, use_mult)
                outcomes.append((tuple(index[nr] for nr, _ in ways),
                                 tuple(w for _, w in ways)))
            opts.append(((kept, keep_mult), j))
        options.append(tuple(opts))
    return rolls, index, _scale(comp, use_mult), tuple(outcomes), tuple(options)


class KeepPolicy:
    """The optimal keep choices of ``solve_rerolls`` (the same choices, ties kept
    the same way) without the values: ``policy(roll, rerolls_left) -> (kept king
    faces, keep the pink die?)``.  Built by ``keep_policy``."""

    __slots__ = ("_index", "_choices", "rerolls")

    def __init__(self, index, choices, rerolls):
        self._index, self._choices, self.rerolls = index, choices, rerolls

    def __call__(self, roll, rerolls_left):
        if not 1 <= rerolls_left <= self.rerolls:
            raise KeyError((roll, rerolls_left))
        return self._choices[rerolls_left][self._index[tuple(roll)]]


def keep_policy(goal: Callable, rerolls: int = 2, game=None,
                use_mult: bool = True) -> KeepPolicy:
    """``solve_rerolls(goal, ...)``'s keep choices, fast, for bots that ask for
    many goals.  The choices depend only on the goal's value on each final roll,
    and not on adding a constant to every value or multiplying them all by a
    positive number; so they are cached by those values (as whole numbers, the
    smallest at 0, with no common factor) and computed in exact integers, level by
    level.  (Integer goals are fastest.)"""
    comp = _comp(game)
    rolls = _keep_shape(comp, use_mult)[0]
    values = [goal(r) for r in rolls]
    if not all(type(v) is int for v in values):
        values = [Fraction(v) for v in values]
        lcm = 1
        for v in values:
            lcm = math.lcm(lcm, v.denominator)
        values = [int(v * lcm) for v in values]
    low = min(values)
    values = [v - low for v in values]
    common = math.gcd(*values) or 1
    return _keep_policy(tuple(v // common for v in values), rerolls, comp, use_mult)


@lru_cache(maxsize=4096)
def _keep_policy(goal: tuple, rerolls: int, comp: Components, use_mult: bool):
    """The choices for integer goal values ``goal[i]`` = V(rolls[i], 0)."""
    rolls, index, m, outcomes, options = _keep_shape(comp, use_mult)
    prev = goal
    choices: list = [None]
    factor = 1
    for _ in range(rerolls):
        factor *= m                             # level r is in (m**r)-ths
        kept = [sum(map(int.__mul__, ways, map(prev.__getitem__, idx)))
                for idx, ways in outcomes]
        cur, chosen = [], []
        for i, opts in enumerate(options):
            stop = goal[i] * factor
            best = choice = None
            for c, j in opts:
                w = stop if j < 0 else kept[j]
                if best is None or w > best:
                    best, choice = w, c
            cur.append(best)
            chosen.append(choice)
        choices.append(tuple(chosen))
        prev = cur
    return KeepPolicy(index, tuple(choices), rerolls)


# ---- the same problem as a tiny protocol game (trees, expectimax) ----------------

@dataclass(frozen=True)
class KeepDice(Action):
    kept: tuple
    keep_mult: bool | None

    def __str__(self):
        k = ", ".join(self.kept) or "nothing"
        return f"keep {k}" + (" + pink" if self.keep_mult else "")


@dataclass(frozen=True)
class DiceShow(Action):
    king: tuple
    mult: str | None

    def __str__(self):
        return " ".join(self.king) + (f" | {self.mult}" if self.mult else "")


@dataclass(frozen=True)
class RerollGame(Game):
    """One dice phase alone: roll, keep/re-roll up to ``rerolls`` times, score
    ``goal(final roll)``.  ``faces`` may be an abstraction of the King die (e.g.
    ``(("half", 1), ("other", 5))``) and ``mult`` the pink faces (None: ignore it),
    which keeps trees small enough to draw."""

    name = "horse_rerolls"
    title = "My Kingdom for a Horse: one dice phase"
    min_players = 1
    max_players = 1
    players: int = 1
    faces: tuple = (("half", 1), ("other", 5))
    mult: tuple | None = None
    dice: int = 3
    rerolls: int = 2
    goal: Callable = field(default=lambda roll: int(roll[0].count("half") >= 2),
                           compare=False)

    def initial_state(self):
        return RerollState(self, roll=None, left=self.rerolls, pending=None)


@dataclass(frozen=True)
class RerollState(State):
    roll: tuple | None
    left: int
    pending: tuple | None          # (kept, keep_mult) waiting for the dice
    done: bool = False

    def _current_player(self):
        if self.done:
            return TERMINAL
        if self.roll is None or self.pending is not None:
            return CHANCE
        return 0

    def _legal_actions(self):
        return tuple(KeepDice(k, m) for k, m in keep_options(self.roll))

    def _chance_outcomes(self):
        g = self.game
        kept, keep_mult = self.pending if self.pending else ((), False)
        n = g.dice - len(kept)
        kd = Distribution(_pool_counts(dict(g.faces), n)) if n else Distribution.always(())
        if g.mult is None:
            md = Distribution.always(None)
        elif keep_mult:
            md = Distribution.always(self.roll[1])
        else:
            md = Distribution.uniform(g.mult)
        d = kd.combine(md, lambda k, m: (tuple(sorted(kept + k)), m))
        return tuple((DiceShow(k, m), p) for (k, m), p in d.items())

    def _next(self, a):
        from dataclasses import replace
        if isinstance(a, DiceShow):
            roll = (a.king, a.mult)
            return replace(self, roll=roll, pending=None, done=self.left == 0)
        stop = len(a.kept) == len(self.roll[0]) and (a.keep_mult or self.roll[1] is None)
        if stop:
            return replace(self, done=True)
        return replace(self, pending=(a.kept, a.keep_mult), left=self.left - 1)

    def _returns(self):
        return (Fraction(self.game.goal(self.roll)),)

    def short(self):
        if self.roll is None:
            return "roll"
        r = " ".join(self.roll[0]) + (f"|{self.roll[1]}" if self.roll[1] else "")
        return f"{r} ({self.left} left)" if not self.done else f"{r} = {self._returns()[0]}"

    def __str__(self):
        return self.short()


# ======================================================== multiplication

def multiplication_distribution(herd: tuple, game=None) -> Distribution:
    """``(species, new animals)`` from the pink die alone for ``herd`` (counts per
    species): 1 new animal per 2 of the species shown."""
    comp = _comp(game)
    return Distribution.uniform(comp.mult_faces).map(
        lambda s: (s, herd[SPECIES.index(s)] // 2))


def multiplication_new_animals(herd: tuple, game=None) -> Distribution:
    """The number of new animals the pink die alone brings ``herd`` (any species)."""
    return multiplication_distribution(herd, game).map(lambda o: o[1])


def aim_multiplication(herd: tuple, game=None) -> list:
    """Which species to aim the pink die at: ``[(sheep-value gained, species, new
    animals)]``, best first."""
    comp = _comp(game)
    vals = sheep_values(comp)
    out = [(herd[SPECIES.index(s)] // 2 * vals[s], s, herd[SPECIES.index(s)] // 2)
           for s in sorted(set(comp.mult_faces), key=SPECIES.index)]
    return sorted(out, key=lambda t: -t[0])


# ======================================================== trade chains

def trade_graph(game=None):
    """The exchange graph: species -> next species, edge attribute ``rate`` (animals
    given per animal received) and ``value`` (sheep-value of one received)."""
    import networkx as nx
    comp = _comp(game)
    vals = sheep_values(comp)
    g = nx.DiGraph()
    for s in SPECIES:
        g.add_node(s, sheep_value=vals[s])
    for i, r in enumerate(comp.trade_rates):
        g.add_edge(SPECIES[i], SPECIES[i + 1], rate=r, label=f"{r}:1")
    return g


def trade_chain(give: str, get: str, game=None) -> tuple:
    """``(animals of give per 1 get, trading phases needed, path)`` along the graph."""
    import networkx as nx
    g = trade_graph(game)
    path = nx.shortest_path(g, give, get)
    n = 1
    for a, b in zip(path, path[1:]):
        n *= g.edges[a, b]["rate"]
    return n, len(path) - 1, tuple(path)


def sheep_value(herd: tuple, game=None) -> int:
    """The herd's worth in sheep (trading keeps it constant)."""
    vals = sheep_values(game)
    return sum(n * vals[s] for s, n in zip(SPECIES, herd))


def _goal_herd(goal, comp):
    if goal is None:
        return (comp.goal,) * 4
    if isinstance(goal, int):
        return (goal,) * 4
    return tuple(goal)


def trade_cascade(herd: tuple, goal=None, game=None) -> tuple | None:
    """Trade surplus upward, keeping the goal of each species (sheep first): the herd
    after the cascade, or None if some species cannot reach the goal this way."""
    comp = _comp(game)
    goal = _goal_herd(goal, comp)
    h = list(herd)
    for i, r in enumerate(comp.trade_rates):
        if h[i] < goal[i]:
            return None
        k = (h[i] - goal[i]) // r
        h[i] -= k * r
        h[i + 1] += k
    return tuple(h) if h[3] >= goal[3] else None


def can_reach_by_trading(herd: tuple, goal=None, game=None) -> bool:
    """Can trading alone (any number of phases) turn ``herd`` into the goal?"""
    return trade_cascade(herd, goal, game) is not None


def _meets(h, goal):
    return all(a >= b for a, b in zip(h, goal))


def can_finish_now(herd: tuple, goal=None, game=None, all_species: bool = False) -> bool:
    """Does ``herd`` meet the goal after ONE trading phase (one species given,
    any count; or every species once with ``all_species``, as in the final trade
    or with Training to Merchant Sheep)?"""
    comp = _comp(game)
    g = _goal_herd(goal, comp)
    if all_species:
        return can_reach_by_trading(herd, g, comp)
    return any(_meets(h, g) for h in _one_phase(tuple(herd), comp))


def _one_phase(h, comp):
    yield h
    for i, r in enumerate(comp.trade_rates):
        for k in range(1, h[i] // r + 1):
            n = list(h)
            n[i] -= k * r
            n[i + 1] += k
            yield tuple(n)


def fewest_trading_phases(herd: tuple, goal=None, game=None) -> int | None:
    """The fewest trading phases (one species traded per phase, no new animals)
    that turn ``herd`` into one meeting the goal; None if impossible."""
    comp = _comp(game)
    g = _goal_herd(goal, comp)
    start = tuple(herd)
    if not can_reach_by_trading(start, g, comp):
        return None
    frontier, seen, d = [start], {start}, 0
    while frontier:
        if any(_meets(h, g) for h in frontier):
            return d
        nxt = []
        for h in frontier:
            for n in _one_phase(h, comp):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier, d = nxt, d + 1
    return None


def extra_sheep_needed(herd: tuple, goal=None, game=None) -> int:
    """The fewest extra sheep that would let trading alone reach the goal."""
    comp = _comp(game)
    g = _goal_herd(goal, comp)
    h = list(herd)
    x = 0
    while not can_reach_by_trading((h[0] + x, h[1], h[2], h[3]), g, comp):
        x += 1
    return x


# ======================================================== others' dice

def die_names(roll: tuple) -> tuple:
    """The four dice of a roll as names: King faces, then ``"multiply <species>"``."""
    king, mult = roll
    return tuple(king) + ((f"multiply {mult}",) if mult is not None else ())


def useful_die_left(useful: Callable[[str], bool], seat: int, pick="random",
                    roll: Distribution | None = None, game=None) -> Fraction:
    """P(a die ``useful(name)`` is still there when the player ``seat`` places after
    the active player chooses (seat 1 chooses first, from all four dice).

    The earlier ``seat - 1`` players each take one die: ``pick="random"`` (any die
    with equal chance), or a list of die names in order of preference (each takes
    the first one still there, else a random one).  ``roll``: the final dice
    (default: one plain roll).
    """
    comp = _comp(game)
    roll = roll_distribution(comp) if roll is None else roll

    def taken_dist(dice: tuple, k: int) -> Distribution:
        if k == 0 or not dice:
            return Distribution.always(dice)
        if pick == "random":
            opts = list(range(len(dice)))
        else:
            opts = next(([i] for name in pick for i, d in enumerate(dice) if d == name),
                        list(range(len(dice))))
        return Distribution.uniform(opts).bind(
            lambda i: taken_dist(dice[:i] + dice[i + 1:], k - 1))

    def left_ok(r):
        rest = taken_dist(die_names(r), seat - 1)
        return rest.P(lambda ds: any(useful(d) for d in ds))

    return roll.E(left_ok)


# ======================================================== the solo race

def moritz_step(herd: tuple, roll: tuple, game=None) -> tuple:
    """Moritz after one roll: the animals shown, then his multiplication."""
    comp = _comp(game)
    gain, _ = dice_gain(roll, herd, comp)
    return tuple(a + b for a, b in zip(herd, gain))


def moritz_trade(herd: tuple, game=None) -> tuple:
    """Moritz trades as much as he can, always keeping 2 of each (sheep first)."""
    comp = _comp(game)
    h = list(herd)
    for i, r in enumerate(comp.trade_rates):
        if h[i] > comp.moritz_keep:
            k = (h[i] - comp.moritz_keep) // r
            h[i] -= k * r
            h[i + 1] += k
    return tuple(h)


def _cap(h, goal):
    return h[:3] + (min(h[3], goal),)


@lru_cache(maxsize=8)
def _roll_effects(comp: Components):
    """One roll compressed to what matters for Moritz: {(king gain, mult): ways}."""
    weights, total = roll_counts(comp)
    eff = Counter()
    for (king, mult), w in weights.items():
        gain, _ = dice_gain((king, None), (0, 0, 0, 0), comp, multiply=False)
        eff[(gain, mult)] += w
    return tuple(eff.items()), total


def _apply_effect(h, eff):
    gain, mult = eff
    h = [a + b for a, b in zip(h, gain)]
    if mult is not None:
        s = SPECIES.index(mult)
        h[s] += h[s] // 2
    return tuple(h)


def moritz_chain(game=None, goal=None) -> dict:
    """The Markov chain of Moritz's herd from turn to turn (after his trades):
    ``{herd: {next herd: probability}}`` over every herd reachable from his start;
    horses are capped at the goal, and herds meeting the goal are absorbing."""
    comp = _comp(game)
    g = comp.goal if goal is None else goal
    effects, total = _roll_effects(comp)
    start = _cap(moritz_trade(comp.moritz_start, comp), g)
    chain: dict = {}
    todo = [start]
    while todo:
        h = todo.pop()
        if h in chain:
            continue
        if min(h) >= g:
            chain[h] = {h: Fraction(1)}
            continue
        dist = {h: 1}
        for _ in range(comp.moritz_rolls):
            nd = Counter()
            for x, wx in dist.items():
                for eff, w in effects:
                    nd[_apply_effect(x, eff)] += wx * w
            dist = nd
        out = Counter()
        for x, w in dist.items():
            out[_cap(moritz_trade(x, comp), g)] += w
        denom = total ** comp.moritz_rolls
        chain[h] = {y: Fraction(w, denom) for y, w in out.items()}
        todo.extend(y for y in out if y not in chain)
    return chain


def moritz_start(game=None, goal=None) -> tuple:
    comp = _comp(game)
    g = comp.goal if goal is None else goal
    return _cap(moritz_trade(comp.moritz_start, comp), g)


def moritz_mean_turns(game=None, goal=None) -> Fraction:
    """E[number of Moritz turns until his herd meets the goal], exactly.

    Solves E[T(x)] = 1 + sum_y P(x,y) E[T(y)] (E = 0 on the goal) one strongly
    connected part of the chain at a time, the parts nearest the goal first.  (His
    sheep-value never falls, so most parts are single herds; capping horses at the
    goal makes a few small cycles, solved by exact Gaussian elimination.)"""
    import networkx as nx
    comp = _comp(game)
    g = comp.goal if goal is None else goal
    chain = moritz_chain(comp, g)
    graph = nx.DiGraph()
    graph.add_nodes_from(chain)
    for h, row in chain.items():
        graph.add_edges_from((h, y) for y in row if y != h)
    cond = nx.condensation(graph)
    E: dict = {}
    for c in reversed(list(nx.topological_sort(cond))):
        members = sorted(cond.nodes[c]["members"])
        idx = {h: i for i, h in enumerate(members)}
        n = len(members)
        # rows: x_i - sum_{j in part} P(i,j) x_j = 1 + sum_{y outside} P(i,y) E[y]
        A = [[Fraction(0)] * n + [Fraction(0)] for _ in range(n)]
        for h in members:
            i = idx[h]
            if min(h) >= g:
                A[i][i] = Fraction(1)
                continue
            A[i][i] += 1
            A[i][n] = Fraction(1)
            for y, p in chain[h].items():
                if y in idx:
                    A[i][idx[y]] -= p
                else:
                    A[i][n] += p * E[y]
        for col in range(n):                        # Gauss-Jordan, exact
            piv = next(r for r in range(col, n) if A[r][col] != 0)
            A[col], A[piv] = A[piv], A[col]
            inv = 1 / A[col][col]
            A[col] = [v * inv for v in A[col]]
            for r in range(n):
                if r != col and A[r][col] != 0:
                    f = A[r][col]
                    A[r] = [a - f * b for a, b in zip(A[r], A[col])]
        for h in members:
            E[h] = A[idx[h]][n]
    return E[moritz_start(comp, g)]


def moritz_turns(max_turns: int = 60, game=None, goal=None) -> tuple:
    """``(pmf, tail)``: ``pmf[t-1]`` = P(Moritz first meets the goal after exactly
    t of his turns), t = 1..max_turns, and ``tail`` = P(more than max_turns)."""
    comp = _comp(game)
    g = comp.goal if goal is None else goal
    chain = moritz_chain(comp, g)
    dist = {moritz_start(comp, g): Fraction(1)}
    pmf = []
    for _ in range(max_turns):
        nd: dict = {}
        done = Fraction(0)
        for h, p in dist.items():
            for y, q in chain[h].items():
                if min(y) >= g:
                    done += p * q
                else:
                    nd[y] = nd.get(y, 0) + p * q
        pmf.append(done)
        dist = nd
    return tuple(pmf), sum(dist.values(), Fraction(0))


def simulate_moritz(n: int, seed=0, game=None, goal=None, max_turns: int = 1000) -> list:
    """Monte Carlo: the number of turns Moritz needs in ``n`` seeded games."""
    import random
    comp = _comp(game)
    g = comp.goal if goal is None else goal
    rng = random.Random(seed)
    kings = [f.name for f in comp.king_faces]
    out = []
    for _ in range(n):
        h = moritz_trade(comp.moritz_start, comp)
        t = 0
        while min(h) < g and t < max_turns:
            t += 1
            for _ in range(comp.moritz_rolls):
                roll = (tuple(sorted(rng.choice(kings) for _ in range(comp.king_count))),
                        rng.choice(comp.mult_faces))
                h = moritz_step(h, roll, comp)
            h = moritz_trade(h, comp)
        out.append(t)
    return out


# ============================================================================ benchmark

def benchmarks(repeats: int = 20) -> list[str]:
    """``make bench``: the exact 4-dice roll beside icepool computing the same
    distribution in the same run, and the time to solve the optimal re-roll policies.
    Medians of ``repeats`` runs; ratio > 1 means ours is faster."""
    import importlib.util
    import statistics
    import time

    def timed(f):
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            result = f()
            times.append(time.perf_counter() - t)
        return statistics.median(times), result

    comp = components()
    t_ours, ours = timed(lambda: roll_distribution(comp))
    lines = []
    if importlib.util.find_spec("icepool") is None:
        lines.append(f"4-dice roll: ours {t_ours * 1e3:.2f} ms; icepool not installed "
                     "(pip install -e '.[bench]'), no ratio")
    else:
        t_ice, ice = timed(lambda: icepool_roll_distribution(comp))
        same = {r: Fraction(w, ice.denominator()) for r, w in ice.items()} == dict(ours)
        lines.append(f"4-dice roll ({len(ours)} outcomes): ours {t_ours * 1e3:.2f} ms, "
                     f"icepool {t_ice * 1e3:.2f} ms, ratio {t_ice / t_ours:.1f}, "
                     f"same distribution: {same}")

    def solve(goal):
        _reroll_cached.cache_clear()          # time a cold solve, not a cache lookup
        _reroll_ways.cache_clear()
        _keep_options_cached.cache_clear()
        return solve_rerolls(goal, rerolls=2, game=comp)
    t_cattle, cattle = timed(lambda: solve(goal_cattle(comp)))
    t_value, value = timed(lambda: solve(goal_sheep_value((4, 2, 0, 0), comp)))
    lines.append(f"optimal re-roll policy, goal 'a cattle': {t_cattle * 1e3:.1f} ms "
                 f"(P = {cattle.value})")
    lines.append(f"optimal re-roll policy, goal 'sheep-value for 4 sheep, 2 pigs': "
                 f"{t_value * 1e3:.1f} ms (E = {value.value})")
    return lines

