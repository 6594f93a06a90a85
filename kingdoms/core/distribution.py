"""Exact finite probability distributions with Fraction weights.

``Distribution`` is the one noun the odds helpers of every game return::

    >>> d6 = Distribution.uniform(range(1, 7))
    >>> (d6 + d6).P(lambda s: s == 7)
    Fraction(1, 6)
    >>> d6.mean()
    Fraction(7, 2)

Outcomes may be any hashable values.  Arithmetic operators combine *independent*
distributions outcome by outcome (convolution); ``map`` transforms outcomes;
``given`` conditions on an event.
"""
from __future__ import annotations

import math
import operator
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any, Callable, Hashable, Iterable, Mapping

from .i18n import _
from .protocol import safe_repr
from .text import localize_ticks, number

__all__ = ["Distribution", "hypergeometric", "multivariate_hypergeometric", "composition_ways"]


def _as_fraction(p) -> Fraction:
    if isinstance(p, Fraction):
        return p
    if isinstance(p, int):
        return Fraction(p)
    if isinstance(p, float):
        raise TypeError(_("probability {given} is a float; use Fraction or int weights").format(
            given=repr(p)))
    return Fraction(p)


class Distribution(Mapping):
    """An exact probability distribution over hashable outcomes.

    Build it from weights (``Distribution({"H": 1, "T": 1})``; weights are normalised)
    or with ``uniform``, ``from_counts``, ``always``.  It is an immutable mapping
    outcome -> Fraction probability, in the order outcomes were first given (or
    sorted, where the outcomes are sortable).
    """

    __slots__ = ("_p", "_hash")

    def __init__(self, weights: Mapping[Hashable, Any] | Iterable[tuple[Hashable, Any]] = ()):
        items = weights.items() if isinstance(weights, Mapping) else weights
        # each outcome's weights summed per denominator in whole numbers, then made one
        # Fraction: the same exact sums, without a Fraction addition per weight
        parts: dict = {}
        try:
            for outcome, w in items:
                if type(w) is int:
                    n, d = w, 1
                else:
                    w = _as_fraction(w)
                    n, d = w.numerator, w.denominator
                if n < 0:
                    raise ValueError(_("negative weight {weight} for outcome {outcome}").format(
                        weight=_as_fraction(w), outcome=repr(outcome)))
                if n:
                    by_den = parts.get(outcome)
                    if by_den is None:
                        parts[outcome] = {d: n}
                    else:
                        by_den[d] = by_den.get(d, 0) + n
        except (TypeError, ValueError) as e:
            if "unpack" not in str(e) and "not iterable" not in str(e):
                raise
            raise TypeError(_("a Distribution is built from {{outcome: weight}} or (outcome, "
                              "weight) pairs, the weights whole numbers or Fractions; not "
                              "{given}").format(given=safe_repr(weights))) from None
        acc = {o: sum(Fraction(n, d) for d, n in by_den.items())
               for o, by_den in parts.items()}
        total = sum(acc.values())
        if not acc:
            raise ValueError(_("a distribution needs at least one outcome of positive weight"))
        try:
            keys = sorted(acc)
        except TypeError:
            keys = list(acc)
        self._p = {k: Fraction(acc[k]) / total for k in keys}
        self._hash = None

    # -- construction ---------------------------------------------------------------
    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> "Distribution":
        """Every listed outcome equally likely (repeats count twice)."""
        return cls((o, 1) for o in outcomes)

    @classmethod
    def from_counts(cls, counts: Mapping[Hashable, int]) -> "Distribution":
        return cls(counts)

    @classmethod
    def always(cls, outcome: Hashable) -> "Distribution":
        return cls({outcome: 1})

    @classmethod
    def from_ways(cls, ways: Mapping[Hashable, int], total: int) -> "Distribution":
        """Outcomes that happen in ``ways[o]`` of ``total`` equally likely cases (e.g.
        of the 6**4 rolls of four dice), kept in the order given.  The counts must be
        positive integers summing to ``total``; this skips the general constructor's
        re-summing and sorting, for odds helpers that count cases themselves."""
        if sum(ways.values()) != total:
            raise ValueError(_("the ways sum to {sum}, not to total={total}").format(
                sum=sum(ways.values()), total=total))
        d = cls.__new__(cls)
        p = {}
        for o, w in ways.items():
            if not isinstance(w, int) or w <= 0:
                raise ValueError(_("ways[{outcome}] = {given} is not a positive integer").format(
                    outcome=repr(o), given=repr(w)))
            p[o] = Fraction(w, total)
        d._p = p
        d._hash = None
        return d

    @classmethod
    def from_samples(cls, samples: Iterable[Hashable]) -> "Distribution":
        """The empirical distribution of observed samples."""
        return cls(Counter(samples))

    # -- mapping protocol --------------------------------------------------------------
    def __getitem__(self, outcome) -> Fraction:
        return self._p[outcome]

    def __iter__(self):
        return iter(self._p)

    def __len__(self):
        return len(self._p)

    def __eq__(self, other):
        if isinstance(other, Distribution):
            return self._p == other._p
        return NotImplemented

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(frozenset(self._p.items()))
        return self._hash

    def prob(self, outcome) -> Fraction:
        """P(outcome), 0 if it cannot happen."""
        return self._p.get(outcome, Fraction(0))

    def support(self) -> tuple:
        return tuple(self._p)

    # -- questions -------------------------------------------------------------------
    def P(self, event: Callable[[Any], bool]) -> Fraction:
        """The probability that ``event(outcome)`` is true."""
        return sum((p for o, p in self._p.items() if event(o)), Fraction(0))

    def mean(self) -> Fraction:
        return sum((o * p for o, p in self._p.items()), Fraction(0))


    def E(self, f: Callable[[Any], Any]) -> Fraction:
        """The expected value of ``f(outcome)``."""
        return sum((f(o) * p for o, p in self._p.items()), Fraction(0))

    def variance(self) -> Fraction:
        m = self.mean()
        return sum(((o - m) ** 2 * p for o, p in self._p.items()), Fraction(0))

    def std(self) -> float:
        return math.sqrt(self.variance())

    def cdf(self, x) -> Fraction:
        """P(outcome <= x)."""
        return self.P(lambda o: o <= x)

    def mode(self):
        return max(self._p, key=self._p.get)

    # -- transformations ---------------------------------------------------------------
    def map(self, f: Callable[[Any], Hashable]) -> "Distribution":
        """The distribution of ``f(outcome)``."""
        return Distribution((f(o), p) for o, p in self._p.items())

    def given(self, event: Callable[[Any], bool]) -> "Distribution":
        """The conditional distribution given that ``event`` happened."""
        kept = [(o, p) for o, p in self._p.items() if event(o)]
        if not kept:
            raise ValueError(_("conditioning on an event of probability 0"))
        return Distribution(kept)

    def bind(self, f: Callable[[Any], "Distribution"]) -> "Distribution":
        """Two-stage experiment: draw ``o``, then draw from ``f(o)``."""
        out: dict = {}
        for o, p in self._p.items():
            for o2, p2 in f(o).items():
                out[o2] = out.get(o2, 0) + p * p2
        return Distribution(out)

    def combine(self, other: "Distribution", op: Callable[[Any, Any], Hashable]) -> "Distribution":
        """Independent draws from both, combined with ``op`` (convolution for ``+``)."""
        out: dict = {}
        for (a, p), (b, q) in product(self._p.items(), _lift(other)._p.items()):
            o = op(a, b)
            out[o] = out.get(o, 0) + p * q
        return Distribution(out)


    def repeat(self, n: int, op: Callable = operator.add) -> "Distribution":
        """``n`` independent draws combined with ``op`` (default: their sum)."""
        if n < 1:
            raise ValueError(_("repeat needs n >= 1"))
        result = self
        for _k in range(n - 1):
            result = result.combine(self, op)
        return result

    def pool(self, n: int) -> "Distribution":
        """``n`` independent draws as a sorted tuple (the dice you see on the table)."""
        if n == 0:
            return Distribution.always(())
        return self.map(lambda o: (o,)).repeat(n, lambda a, b: tuple(sorted(a + b)))

    def __add__(self, other):
        return self.combine(other, operator.add)

    def __radd__(self, other):
        return _lift(other).combine(self, operator.add)

    def __sub__(self, other):
        return self.combine(other, operator.sub)

    def __mul__(self, other):
        return self.combine(other, operator.mul)

    def __rmul__(self, other):
        return _lift(other).combine(self, operator.mul)

    # -- sampling and export ------------------------------------------------------------
    def sample(self, rng, n: int | None = None):
        """One outcome (or a list of ``n``) drawn with ``rng`` (a ``random.Random``)."""
        outcomes = list(self._p)
        weights = [float(p) for p in self._p.values()]
        if n is None:
            return rng.choices(outcomes, weights)[0]
        return rng.choices(outcomes, weights, k=n)

    def to_sympy(self, name: str = "X"):
        """A ``sympy.stats`` finite random variable with exact Rational probabilities."""
        import sympy
        from sympy.stats import FiniteRV
        density = {sympy.sympify(o) if not isinstance(o, tuple) else sympy.Tuple(*o):
                   sympy.Rational(p.numerator, p.denominator) for o, p in self._p.items()}
        return FiniteRV(name, density)

    def table(self, outcome: str | None = None) -> str:
        """A text table: a header (``outcome`` names the first column, e.g. "Fools in
        hand"), then each outcome with its exact probability and the decimal, one per
        line (the columns of the HTML table)."""
        outcome = _("outcome") if outcome is None else outcome
        rows = [(str(o), str(p), number(float(p), 4)) for o, p in self._p.items()]
        width = max([len(outcome)] + [len(o) for o, _d, _p in rows])
        exact = max([9] + [len(p) for _o, p, _d in rows])
        head = f"{outcome:>{width}}  {_('P (exact)'):>{exact}}  {'P':>6}"
        return "\n".join([head] + [f"{o:>{width}}  {p:>{exact}}  {d:>6}" for o, p, d in rows])

    def __repr__(self):
        inner = ", ".join(f"{o!r}: {p}" for o, p in list(self._p.items())[:12])
        more = ", ..." if len(self._p) > 12 else ""
        return f"Distribution({{{inner}{more}}})"

    def _repr_html_(self):
        import html
        rows = "".join(f"<tr><td>{html.escape(str(o))}</td><td>{p}</td>"
                       f"<td>{number(float(p), 4)}</td></tr>" for o, p in self._p.items())
        return ("<table><tr><th>{outcome}</th><th>{exact}</th><th>P</th></tr>".format(
            outcome=_("outcome"), exact=_("P (exact)")) + f"{rows}</table>")

    def plot(self, ax=None, samples: Iterable | None = None, title: str | None = None,
             label_fractions: bool = True):
        """A bar chart of the exact probabilities; optional Monte Carlo overlay.

        ``samples``: observed outcomes; their relative frequencies are drawn as dots.
        Returns the matplotlib Axes.
        """
        import matplotlib.pyplot as plt
        if ax is None:
            _fig, ax = plt.subplots(figsize=(max(4, 0.6 * len(self) + 2), 3))
        labels = [str(o) for o in self._p]
        xs = range(len(labels))
        probs = [float(p) for p in self._p.values()]
        bars = ax.bar(xs, probs, color="#7aa6c2", label=_("exact"))
        if label_fractions and len(labels) <= 16:
            for bar, p in zip(bars, self._p.values()):
                ax.annotate(str(p), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=8)
        if samples is not None:
            samples = list(samples)
            counts = Counter(samples)
            freq = [counts.get(o, 0) / len(samples) for o in self._p]
            ax.plot(list(xs), freq, "o", color="#c0392b", label=_("simulated (n={n})").format(n=len(samples)))
            ax.legend()
        ax.set_xticks(list(xs), labels, rotation=45 if len(labels) > 8 else 0)
        ax.set_ylabel(_("probability"))
        localize_ticks(ax.yaxis)
        if title:
            ax.set_title(title)
        return ax


def _lift(x) -> Distribution:
    return x if isinstance(x, Distribution) else Distribution.always(x)


def hypergeometric(population: int, successes: int, draws: int) -> Distribution:
    """Number of successes in ``draws`` cards drawn without replacement from
    ``population`` cards of which ``successes`` are successes."""
    if not (0 <= successes <= population and 0 <= draws <= population):
        raise ValueError(_("need 0 <= successes <= population and 0 <= draws <= population"))
    failures = population - successes
    return Distribution({k: math.comb(successes, k) * math.comb(failures, draws - k)
                         for k in range(max(0, draws - failures), min(draws, successes) + 1)})


def multivariate_hypergeometric(counts: Mapping[Hashable, int], draws: int) -> Distribution:
    """The composition of ``draws`` cards drawn without replacement from a pile with
    ``counts[kind]`` cards of each kind.  Outcomes are tuples of per-kind counts in
    the order of ``counts`` (use ``.map`` to ask questions of them)."""
    return Distribution(composition_ways(counts, draws))


def composition_ways(counts: Mapping[Hashable, int], draws: int) -> dict:
    """``{composition: hands}``: of the ``comb(total cards, draws)`` equally likely hands
    of ``draws`` cards, how many have each composition (a tuple of per-kind counts in
    the order of ``counts``): the whole-number weights of
    ``multivariate_hypergeometric``, for odds helpers that count cases themselves."""
    kinds = list(counts)
    sizes = [counts[k] for k in kinds]
    if any(s < 0 for s in sizes) or draws < 0 or draws > sum(sizes):
        raise ValueError(_("need non-negative counts and 0 <= draws <= total cards"))
    weights: dict = {}

    def go(i, left, acc, w):
        if i == len(sizes) - 1:
            if left <= sizes[i]:
                weights[acc + (left,)] = w * math.comb(sizes[i], left)
            return
        rest = sum(sizes[i + 1:])
        for k in range(max(0, left - rest), min(left, sizes[i]) + 1):
            go(i + 1, left - k, acc + (k,), w * math.comb(sizes[i], k))

    if not sizes:
        raise ValueError(_("no kinds of card"))
    go(0, draws, (), 1)
    return weights
