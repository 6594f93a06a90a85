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
  ``kingdoms.core.solve.expectimax``.  (These live in ``kingdoms.horse.reroll``, the
  dice model in ``kingdoms.horse.dice``; both are re-exported here.)
* ``multiplication_distribution`` / ``aim_multiplication`` — the pink die.
* ``trade_graph``, ``sheep_value``, ``fewest_trading_phases``, ``can_finish_now``,
  ``extra_sheep_needed`` — trade chains.
* ``useful_die_left`` — the others' dice: is a useful die left for seat k?
* ``moritz_chain``, ``moritz_turns``, ``moritz_mean_turns``, ``simulate_moritz`` —
  the solo race as an exact Markov chain, with a Monte Carlo check.  The chain
  ignores the animal supply (Moritz's herd stays far below it); a test checks the
  chain's mean against solo games played by the rules engine, which uses the supply.
* ``icepool_roll_distribution`` — the same roll computed by icepool (the benchmark
  beside it: ``benchmarks/horse_dice.py``).

Conventions: ``herd`` = counts ``(sheep, pigs, cattle, horses)``; ``goal`` = an int
(that many of each species) or a herd; ``game`` = a ``Horse`` game (its data) or
None for the packaged data.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Callable

from kingdoms.core.cache import speed_cache
from kingdoms.core.distribution import Distribution
from kingdoms.core.i18n import _
from kingdoms.core.protocol import check_count

from . import dice, pasture
from .components import SPECIES, Components, game_components
from .components import sheep_value as herd_sheep_value, sheep_values as species_values
from .dice import CATTLE_HALVES, die_names, halves, keep_options
from .reroll import (DiceShow, KeepDice, KeepPolicy, RerollGame, RerollPolicy, RerollState,
                     keep_policy, policy_distribution, solve_rerolls)

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
# Re-exported from ``dice`` and ``reroll`` (lessons call them as ``odds.<name>``).
_REEXPORTED = (halves, DiceShow, KeepDice, RerollState)
_comp = game_components


def _herd(herd, what: str = "herd") -> tuple:
    """``herd`` as a tuple if it counts the animals of each species (``SPECIES``)."""
    return pasture.check_herd(herd, SPECIES, what)


def _roll(roll, comp) -> tuple:
    """``roll`` if it is a roll of this game's dice: ``(King faces, pink face or None)``,
    else a ``ValueError`` naming the faces."""
    names = dice.king_names(comp)
    try:
        king, mult = roll
        ok = (not isinstance(king, str) and all(f in names for f in king)
              and len(king) == comp.king_count
              and (mult is None or mult in comp.mult_faces))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(_("a roll is (the {n} King faces, the pink face or None), "
                           "e.g. {example}; King faces: {king}; pink faces: {pink}; "
                           "not {roll}").format(
            n=comp.king_count, example="(('1 pig', '2 sheep', 'half cattle'), 'pig')",
            king=", ".join(sorted(set(names))), pink=", ".join(sorted(set(comp.mult_faces))),
            roll=f"{roll!r:.80}"))
    return (tuple(king), mult)



# =========================================================================== dice

def king_pool(n: int, game=None) -> Distribution:
    """The sorted faces of ``n`` King dice."""
    return dice.king_pool(check_count(n, "n (the number of King dice)", 0, 10), _comp(game))


def roll_counts(game=None) -> tuple[dict, int]:
    """``({(king, mult): ways}, total ways)`` for one roll of all four dice."""
    return dice.roll_counts(_comp(game))


def roll_distribution(game=None) -> Distribution:
    """One roll of the 3 King dice and the multiplication die, exactly.

    Outcomes ``(king, mult)``: ``king`` the sorted King-die faces, ``mult`` the
    species on the pink die.  With the packaged (assumed) faces: 56 x 3 = 168
    outcomes, probabilities in 1296ths.
    """
    return dice.roll_distribution(_comp(game))




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



def p_cattle(game=None, roll: Distribution | None = None) -> Fraction:
    """P(at least 2 half-cattle among the King dice) in one roll (or in ``roll``)."""
    comp = _comp(game)
    roll = roll_distribution(comp) if roll is None else roll
    return roll.P(lambda r: halves(r[0], comp) >= CATTLE_HALVES)




def dice_gain(roll: tuple, herd: tuple = (0, 0, 0, 0), game=None,
              multiply: bool = True) -> tuple:
    """Animals (per species) and fences the active player gets from all four dice:
    the King-die animals, 1 cattle for 2-3 half cattle, then the multiplication of
    the herd *after* those animals (the order that gains most; capacity ignored).
    Returns ``(animals tuple, fences)``."""
    comp = _comp(game)
    return dice.dice_gain(_roll(roll, comp), _herd(herd), comp, multiply)


def goal_cattle(game=None) -> Callable:
    """Goal: 1 if the final dice give a cattle (2+ half cattle), else 0."""
    comp = _comp(game)
    return lambda roll: 1 if halves(roll[0], comp) >= CATTLE_HALVES else 0


def sheep_values(game=None) -> dict:
    """The worth of each species in sheep at the trade rates (1, 2, 6, 24)."""
    return species_values(_comp(game))


def goal_sheep_value(herd: tuple, game=None, fence_value: Fraction = Fraction(0)) -> Callable:
    """Goal: the sheep-value of what all four dice give a player with ``herd``
    (animals first, then multiplication; capacity ignored), plus ``fence_value``
    per fence."""
    comp = _comp(game)
    vals = [sheep_values(comp)[s] for s in SPECIES]
    herd = _herd(herd)

    def value(roll):
        king, mult = roll
        gain, worth, fences = _king_part(tuple(king), comp)
        if mult is not None:            # the multiplication counts the new animals
            s = SPECIES.index(mult)
            worth += (herd[s] + gain[s]) // 2 * vals[s]
        return worth + fence_value * fences
    return value


@speed_cache(maxsize=1024)
def _king_part(king: tuple, comp: Components) -> tuple:
    """What the King dice alone give: ``(animals, their sheep-value, fences)``."""
    gain, fences = dice_gain((king, None), (0, 0, 0, 0), comp, multiply=False)
    vals = sheep_values(comp)
    return gain, sum(g * vals[s] for g, s in zip(gain, SPECIES)), fences



# ======================================================== multiplication

def multiplication_distribution(herd: tuple, game=None) -> Distribution:
    """``(species, new animals)`` from the pink die alone for ``herd`` (counts per
    species): 1 new animal per 2 of the species shown."""
    comp = _comp(game)
    herd = _herd(herd)
    return Distribution.uniform(comp.mult_faces).map(
        lambda s: (s, herd[SPECIES.index(s)] // 2))


def multiplication_new_animals(herd: tuple, game=None) -> Distribution:
    """The number of new animals the pink die alone brings ``herd`` (any species)."""
    return multiplication_distribution(herd, game).map(lambda o: o[1])


def aim_multiplication(herd: tuple, game=None) -> list:
    """Which species to aim the pink die at: ``[(sheep-value gained, species, new
    animals)]``, best first."""
    comp = _comp(game)
    herd = _herd(herd)
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
    for name, what in ((give, "give"), (get, "get")):
        if name not in SPECIES:
            raise ValueError(_("{what} is one of the species {species}; not {value}").format(
                what=what, species=", ".join(SPECIES), value=f"{name!r:.40}"))
    if SPECIES.index(give) > SPECIES.index(get):
        raise ValueError(_("trades go up the chain {chain}: no trade turns {give} into "
                           "{get}").format(chain=" -> ".join(SPECIES), give=give, get=get))
    g = trade_graph(game)
    path = nx.shortest_path(g, give, get)
    n = 1
    for a, b in zip(path, path[1:]):
        n *= g.edges[a, b]["rate"]
    return n, len(path) - 1, tuple(path)


def sheep_value(herd: tuple, game=None) -> int:
    """The herd's worth in sheep (trading keeps it constant)."""
    return herd_sheep_value(_herd(herd), _comp(game))


def _goal_herd(goal, comp):
    if goal is None:
        return (comp.goal,) * 4
    if type(goal) is int:
        return _herd((goal,) * 4, "goal")
    return _herd(goal, "goal")


def trade_cascade(herd: tuple, goal=None, game=None) -> tuple | None:
    """Trade surplus upward, keeping the goal of each species (sheep first): the herd
    after the cascade, or None if some species cannot reach the goal this way."""
    comp = _comp(game)
    goal = _goal_herd(goal, comp)
    h = list(_herd(herd))
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
    herd = _herd(herd)
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
    start = _herd(herd)
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
    h = list(_herd(herd))
    x = 0
    while not can_reach_by_trading((h[0] + x, h[1], h[2], h[3]), g, comp):
        x += 1
    return x


# ======================================================== others' dice

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
    check_count(seat, "seat (1: the first to choose after the active player)", 1,
           comp.king_count + 1)
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
    herd = _herd(herd)
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


@speed_cache(maxsize=8)
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
    check_count(max_turns, "max_turns", 1, 10_000)
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
    check_count(n, "n (the number of games)", 1)
    check_count(max_turns, "max_turns", 1)
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
