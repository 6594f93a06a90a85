"""The re-roll problem of one dice phase: which dice to keep.

* ``solve_rerolls`` — the optimal keep policy for a goal by dynamic programming over
  kept dice (as for Yahtzee), with its exact value; ``keep_policy`` — the same
  choices only, fast and cached by the goal's values, for bots;
* ``policy_distribution`` — the final dice under a given keep/re-roll policy;
* ``RerollGame`` — the same problem as a tiny protocol game, to draw as a decision
  tree or solve with ``kingdoms.core.solve.expectimax``.

A roll is ``(king, mult)`` as in ``kingdoms.horse.dice``; a goal is
``goal(final roll) -> number`` (``kingdoms.horse.odds.goal_cattle``,
``goal_sheep_value``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from kingdoms.core.cache import speed_cache
from kingdoms.core.distribution import Distribution
from kingdoms.core.i18n import _, ngettext
from kingdoms.core.protocol import (CHANCE, TERMINAL, Action, Game, State, check_count, replace,
                                    safe_repr)

from .actions import KeepDice
from .steps import GAME_OVER, KEEPING, ROLLING, GameOver, Keeping, Rerolling
from .words import face_words, species_word
from .components import Components, game_components
from .dice import (keep_options, king_pool, pool_counts, reroll, reroll_ways,
                   roll_distribution, scale)

__all__ = ["policy_distribution", "solve_rerolls", "RerollPolicy", "keep_policy",
           "KeepPolicy", "RerollGame", "RerollState", "DiceShow", "KeepDice"]


def policy_distribution(policy: Callable, rerolls: int = 2, game=None,
                        use_mult: bool = True) -> Distribution:
    """The final dice when ``policy(roll, rerolls_left) -> (kept king, keep pink?)``
    chooses what to keep after each roll (keeping everything stops)."""
    _checked(policy, rerolls, "policy")
    comp = game_components(game)
    first = _first_roll(comp, use_mult)

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
            d = memo[key] = reroll(tuple(kept), keep_mult, roll[1], comp, use_mult).bind(
                lambda r: go(r, left - 1))
        return d

    return first.bind(lambda r: go(r, rerolls))



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
        """What to do with ``roll`` (the King faces sorted, the pink face or None) and
        ``rerolls_left`` re-rolls left (default: all), in words, with the exact value:
        "1 pig, 2 sheep, half cattle | pink die: pig \u2192 keep half cattle, re-roll 2
        King dice, keep the pink die (value 671/1296)"."""
        left = self.rerolls if rerolls_left is None else rerolls_left
        try:
            kept, keep_mult = self.keep[(roll, left)]
        except (KeyError, TypeError):
            raise ValueError(_(
                "{roll} with {left} re-rolls left is not a position "
                "of this policy: a roll is (King faces in sorted order, pink face or None), "
                "and 1 to {most} re-rolls left (with none left, the roll is final)").format(
                    roll=safe_repr(roll), left=safe_repr(left), most=self.rerolls)
            ) from None
        if len(kept) == len(roll[0]) and (keep_mult or roll[1] is None):
            what = _("stop and keep all dice")
        else:
            rest = len(roll[0]) - len(kept)
            parts = [_("keep {dice}").format(dice=", ".join(face_words(f) for f in kept))
                     if kept else _("keep no King die")]
            if rest:
                parts.append(ngettext("re-roll {n} King die", "re-roll {n} King dice",
                                      rest).format(n=rest))
            if roll[1] is not None:
                parts.append(_("keep the pink die") if keep_mult else _("re-roll the pink die"))
            what = ", ".join(parts)
        shown = ", ".join(face_words(f) for f in roll[0]) + (
            _(" | pink die: {face}").format(face=species_word(roll[1]))
            if roll[1] is not None else "")
        return _("{roll} \u2192 {what} (value {value})").format(
            roll=shown, what=what, value=self.values[(roll, left)])


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
    _checked(goal, rerolls)
    comp = game_components(game)
    first = _first_roll(comp, use_mult)
    m = scale(comp, use_mult)
    lcm, unit, scaled_goal = _scaled_goal(goal, first, m, rerolls)
    solver = _Solver(comp, use_mult, lcm, unit, scaled_goal)
    total = 0
    for roll, p in first.items():
        total += solver.value(roll, rerolls) * p
    value = total / unit[rerolls]
    values = {key: Fraction(v, unit[key[1]]) for key, v in solver.scaled.items()}
    return RerollPolicy(Fraction(value), solver.keep, values, rerolls)


MAX_REROLLS = 10     # a bound for the solvers' inputs (the rules allow 2 re-rolls)


_FUNCTIONS = {"goal": "a function of the final roll (e.g. odds.goal_cattle(game))",
              "policy": "a function (roll, rerolls_left) -> (King faces kept, pink die kept?)"}


def _checked(f: Callable, rerolls, what: str = "goal") -> None:
    """Refuse a goal or policy that is no function, or re-rolls out of range."""
    if not callable(f):
        raise TypeError(f"{what} must be {_FUNCTIONS[what]}; not {safe_repr(f)}")
    check_count(rerolls, "rerolls", 0, MAX_REROLLS)


def _first_roll(comp: Components, use_mult: bool) -> Distribution:
    """The first roll: all the dice (without the pink die unless ``use_mult``)."""
    if use_mult:
        return roll_distribution(comp)
    return king_pool(comp.king_count, comp).map(lambda k: (k, None))


def _scaled_goal(goal: Callable, first: Distribution, m: int, rerolls: int) -> tuple:
    """The goal of every roll the dice can end on (a re-roll ends on a roll of all the
    dice too, so these are the first roll's outcomes) in whole ``L``-ths (``L`` the
    goals' common denominator): ``(L, [L * m**r for each level r], {roll: goal * L})``."""
    goals = {roll: Fraction(goal(roll)) for roll in first}
    lcm = 1
    for g in goals.values():
        lcm = math.lcm(lcm, g.denominator)
    unit = [lcm * m ** r for r in range(rerolls + 1)]
    return lcm, unit, {roll: int(g * lcm) for roll, g in goals.items()}


class _Solver:
    """``solve_rerolls``' recursion: ``value(roll, r)`` = V(roll, r) * unit[r] (an
    integer), the best choices in ``keep``, every value met in ``scaled``."""

    def __init__(self, comp, use_mult, lcm, unit, scaled_goal):
        self.comp, self.use_mult, self.lcm, self.unit = comp, use_mult, lcm, unit
        self.scaled_goal = scaled_goal
        self.keep: dict = {}
        self.scaled: dict = {}              # (roll, r) -> V(roll, r) * unit[r]
        self.kept_value: dict = {}

    def value(self, roll, r):
        key = (roll, r)
        v = self.scaled.get(key)
        if v is not None:
            return v
        if r == 0:
            v = self.scaled_goal[roll]
        else:
            best, choice = None, None
            for kept, keep_mult in keep_options(roll):
                w = self._keep_value(roll, r, kept, keep_mult)
                if best is None or w > best:
                    best, choice = w, (kept, keep_mult)
            v = best
            self.keep[key] = choice
        self.scaled[key] = v
        return v

    def _keep_value(self, roll, r, kept, keep_mult):
        """The (scaled) value of keeping ``kept`` (and the pink die?) at level ``r``."""
        if len(kept) == len(roll[0]) and keep_mult is not False:
            return self.value(roll, 0) * self.unit[r] // self.lcm   # stop: dice stay
        mult = roll[1] if keep_mult else None
        kk = (kept, keep_mult, mult, r - 1)
        w = self.kept_value.get(kk)
        if w is None:
            w = sum(ways * self.value(nr, r - 1) for nr, ways in
                    reroll_ways(kept, keep_mult, mult, self.comp, self.use_mult))
            self.kept_value[kk] = w
        return w


@speed_cache(maxsize=8)
def _keep_shape(comp: Components, use_mult: bool) -> tuple:
    """What ``solve_rerolls`` computes that does not depend on the goal: the rolls
    (first-roll order), each roll's keep options as ``(choice, kept state)`` (state
    -1: stop) and each kept state's outcomes as (roll indices, ways out of ``m``)."""
    first = _first_roll(comp, use_mult)
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
                ways = reroll_ways(*kk, comp, use_mult)
                outcomes.append((tuple(index[nr] for nr, _ in ways),
                                 tuple(w for _, w in ways)))
            opts.append(((kept, keep_mult), j))
        options.append(tuple(opts))
    return rolls, index, scale(comp, use_mult), tuple(outcomes), tuple(options)


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
    _checked(goal, rerolls)
    comp = game_components(game)
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


@speed_cache(maxsize=4096)
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
class DiceShow(Action):
    king: tuple
    mult: str | None

    def __str__(self):
        return (" ".join(face_words(f) for f in self.king)
                + (f" | {face_words(self.mult)}" if self.mult else ""))


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
        return RerollState(self, roll=None, left=self.rerolls, step=ROLLING)


@dataclass(frozen=True)
class RerollState(State):
    """A dice phase alone, with the Horse's own turn steps: ``Rolling`` (the first
    roll), ``Keeping`` (keep dice: keeping them all stops), ``Rerolling`` (the dice not
    kept are re-rolled) and ``GameOver`` (the roll is final)."""
    roll: tuple | None              # (King faces sorted, pink face or None); None: not rolled
    left: int                       # re-rolls left
    step: Rolling | Keeping | Rerolling | GameOver

    def _current_player(self):
        match self.step:
            case Keeping():
                return 0
            case GameOver():
                return TERMINAL
        return CHANCE

    def _legal_actions(self):
        return tuple(KeepDice(k, m) for k, m in keep_options(self.roll))

    def _chance_outcomes(self):
        g = self.game
        step = self.step
        kept, keep_mult = ((step.kept, step.keep_mult) if isinstance(step, Rerolling)
                           else ((), False))
        n = g.dice - len(kept)
        kd = Distribution(pool_counts(dict(g.faces), n)) if n else Distribution.always(())
        if g.mult is None:
            md = Distribution.always(None)
        elif keep_mult:
            md = Distribution.always(self.roll[1])
        else:
            md = Distribution.uniform(g.mult)
        d = kd.combine(md, lambda k, m: (tuple(sorted(kept + k)), m))
        return tuple((DiceShow(k, m), p) for (k, m), p in d.items())

    def _next(self, a):
        if isinstance(a, DiceShow):         # the dice show: keep, unless none is left
            return replace(self, roll=(a.king, a.mult),
                           step=GAME_OVER if self.left == 0 else KEEPING)
        stop = len(a.kept) == len(self.roll[0]) and (a.keep_mult or self.roll[1] is None)
        if stop:                            # all dice kept: the roll is final
            return replace(self, step=GAME_OVER)
        return replace(self, step=Rerolling(a.kept, a.keep_mult), left=self.left - 1)

    def _returns(self):
        return (Fraction(self.game.goal(self.roll)),)

    def short(self):
        if self.roll is None:
            return _("roll")
        r = (" ".join(face_words(f) for f in self.roll[0])
             + (f"|{face_words(self.roll[1])}" if self.roll[1] else ""))
        if isinstance(self.step, GameOver):
            return f"{r} = {self._returns()[0]}"
        return _("{roll} ({n} left)").format(roll=r, n=self.left)

    def __str__(self):
        return self.short()

    def _describe(self):
        """A line about the dice phase: a final roll says what it scores (this small
        game has no winner to name)."""
        if isinstance(self.step, GameOver):
            return _("final roll {roll}").format(roll=self.short())
        return super()._describe()

    # The core finds pictures in the package's render.py, which draws the Horse game;
    # this small game of the same package draws itself.
    def _repr_html_(self):
        import html
        return f"<pre>{html.escape(str(self))}</pre>"

    def action_picture(self, actions):
        return None


