"""``DistributionPlot``: an exact ``Distribution`` as a bar chart, with a seeded
Monte Carlo overlay whose sample size is chosen by a slider.

The chart is SVG (crisp at any size), with labelled axes, the legend below the plot
(never over the bars), the exact probability written above each bar (above the
simulated dot too, so neither hides the other), and — once there are samples — the
95% range in which a simulated frequency falls for that many samples: it narrows as
``n`` grows (the law of large numbers).  Colours are Okabe–Ito (colour-blind safe).
"""
from __future__ import annotations

import base64
import html
import io
import math
import random
from collections import Counter
from typing import Any, Callable

import ipywidgets as W

from ..core.distribution import Distribution
from ..core.i18n import N_, _, language, using
from ..core.text import count, localize_ticks, number
from ..core.tree import PALETTE, format_number
from ._common import speaks

OUTCOME = N_("outcome")

__all__ = ["DistributionPlot", "band95", "plot_distribution"]


def band95(p, n: int) -> tuple[float, float]:
    """The range in which the frequency of an outcome of probability ``p`` falls in
    about 95% of runs of ``n`` samples: ``p ± 1.96·sqrt(p(1-p)/n)``, within [0, 1]."""
    p = float(p)
    if n <= 0:
        return (p, p)
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return (max(0.0, p - half), min(1.0, p + half))


def plot_distribution(ax, dist: Distribution, samples=None, title: str | None = None,
                      xlabel: str | None = None, ylabel: str | None = None):
    """Draw ``dist`` (and the frequencies of ``samples``) on ``ax``; returns ``ax``.
    The axis labels default to "outcome" and "probability" in the current language."""
    xlabel = _(OUTCOME) if xlabel is None else xlabel
    ylabel = _("probability") if ylabel is None else ylabel
    outcomes = list(dist)
    probs = [dist[o] for o in outcomes]
    xs = list(range(len(outcomes)))
    ax.bar(xs, [float(p) for p in probs], width=0.7, color=PALETTE["sky"],
           edgecolor=PALETTE["blue"], label=_("exact probability"), zorder=2)
    tops = [float(p) for p in probs]
    if samples:
        n = len(samples)
        counts = Counter(samples)
        freq = [counts.get(o, 0) / n for o in outcomes]
        lows, highs = zip(*(band95(p, n) for p in probs))
        centre = [float(p) for p in probs]
        ax.errorbar(xs, centre, yerr=[[c - lo for c, lo in zip(centre, lows)],
                                      [hi - c for c, hi in zip(centre, highs)]],
                    fmt="none", ecolor="#333333", elinewidth=1.2, capsize=6, zorder=3,
                    label=_("95% range of a frequency from {count} samples").format(
                        count=count(n)))
        ax.plot(xs, freq, "D", color=PALETTE["vermillion"], markersize=6, zorder=4,
                markeredgecolor="white",
                label=_("simulated frequency ({count} samples)").format(count=count(n)))
        tops = [max(t, f, hi) for t, f, hi in zip(tops, freq, highs)]
    top = max(tops, default=1.0) or 1.0
    if len(outcomes) <= 16:
        for x, p, t in zip(xs, probs, tops):
            ax.annotate(format_number(p, exact=False), (x, t), xytext=(0, 7),
                        textcoords="offset points", ha="center", va="bottom", fontsize=8,
                        zorder=5)
    ax.set_ylim(0, top * 1.18)
    labels = [str(o) for o in outcomes]
    crowded = sum(map(len, labels)) > 70 or max(map(len, labels), default=0) > 12
    ax.set_xticks(xs, labels, rotation=35 if crowded else 0,
                  ha="right" if crowded else "center", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    localize_ticks(ax.yaxis)        # German: 0,25
    ax.grid(axis="y", color="#dddddd", zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35 if crowded else -0.2),
              ncol=3, fontsize=8, frameon=False)
    return ax


class DistributionPlot(W.VBox):
    """Bars: the exact probabilities (labelled with their fractions).  Diamonds: the
    relative frequencies in ``n`` simulated samples (``n`` from the slider; 0 = no
    overlay), with the 95% range a frequency from ``n`` samples falls in.
    ``sampler(rng, n)`` returns a list of ``n`` outcomes (default: draws from ``dist``
    itself); the same ``seed`` gives the same samples.  ``xlabel`` names the outcome
    axis (e.g. "number of Fools").

    Programmatic API: ``.dist``, ``.n`` (settable), ``.samples``, ``.frequencies()``,
    ``.svg()``.
    """

    def __init__(self, dist: Distribution, sampler: Callable[[random.Random, int], list] | None = None,
                 n: int = 0, max_n: int = 20_000, seed: Any = 0, title: str | None = None,
                 render: bool = True, xlabel: str | None = None):
        self._language = language()     # callbacks (the slider) keep it
        with using(self._language):
            self._init(dist, sampler, n, max_n, seed, title, render, xlabel)

    def _init(self, dist, sampler, n, max_n, seed, title, render, xlabel) -> None:
        if not isinstance(dist, Distribution):
            dist = Distribution(dist)
        self.dist = dist
        self.sampler = sampler or (lambda rng, k: dist.sample(rng, k))
        self.seed = seed
        self.title = title
        self.xlabel = _(OUTCOME) if xlabel is None else xlabel
        self.samples: list = []
        self._render_images = render
        self._slider = W.IntSlider(value=n, min=0, max=max_n, step=max(1, max_n // 200),
                                   description=_("samples"), continuous_update=False,
                                   layout=W.Layout(width="420px"))
        self._slider.add_class("kingdoms-samples")
        self._slider.observe(lambda _c: self._update(), names="value")
        self._image = W.HTML(layout=W.Layout(max_width="100%"))
        self._image.add_class("kingdoms-distribution-image")
        self._table = W.HTML()
        self._table.add_class("kingdoms-distribution-table")
        super().__init__([self._slider, self._image, self._table])
        self.add_class("kingdoms-distribution")
        self._update()

    @property
    def n(self) -> int:
        return self._slider.value

    @n.setter
    def n(self, value: int) -> None:
        self._slider.value = value

    def frequencies(self) -> dict:
        """Relative frequency of each outcome of ``dist`` in the current samples."""
        if not self.samples:
            return {}
        c = Counter(self.samples)
        return {o: c.get(o, 0) / len(self.samples) for o in self.dist}

    @speaks
    def __repr__(self):
        return _("DistributionPlot({outcomes} outcomes, {samples} samples)").format(
            outcomes=len(self.dist), samples=self.n)

    @speaks
    def svg(self) -> str:
        """The chart as SVG text."""
        import matplotlib
        from matplotlib.figure import Figure
        with matplotlib.rc_context({"svg.fonttype": "none"}):
            fig = Figure(figsize=(max(5, 0.7 * len(self.dist) + 2.5), 3.6))
            ax = fig.add_subplot()
            plot_distribution(ax, self.dist, self.samples or None, self.title, self.xlabel)
            buf = io.StringIO()
            fig.savefig(buf, format="svg", bbox_inches="tight")
        return buf.getvalue()

    @speaks
    def _alt_text(self) -> str:
        parts = [f"{o}: {format_number(p)}" for o, p in list(self.dist.items())[:12]]
        text = ((_("Bar chart: {title}. Exact probabilities — ").format(title=self.title)
                 if self.title else _("Bar chart. Exact probabilities — "))
                + "; ".join(parts))
        if self.samples:
            text += _(". Simulated frequencies from {count} samples shown as dots.").format(
                count=count(len(self.samples)))
        return text

    @speaks
    def _update(self) -> None:
        n = self.n
        self.samples = list(self.sampler(random.Random(self.seed), n)) if n > 0 else []
        freq = self.frequencies()
        rows = []
        for o, p in self.dist.items():
            sim = ""
            if freq:
                lo, hi = band95(p, len(self.samples))
                sim = "<td>{freq}</td><td>{range}</td>".format(
                    freq=number(freq[o], 3), range=_("{low} to {high}").format(
                        low=number(lo, 3), high=number(hi, 3)))
            rows.append(f"<tr><td>{html.escape(str(o))}</td><td>{html.escape(format_number(p))}</td>"
                        f"{sim}</tr>")
        head = ("<th>{freq}</th><th>{range}</th>".format(
            freq=_("simulated frequency"), range=_("95% range for this many samples"))
            if freq else "")
        outside = [o for o in set(self.samples) if o not in self.dist]
        extra = ("<div style='color:#a61b1b'>" + _(
            "{count} simulated outcomes are not in the exact distribution: {outcomes}").format(
                count=len(outside), outcomes=html.escape(', '.join(sorted(map(str, outside))[:5])))
            + "</div>" if outside else "")
        exact = _("exact probability")
        self._table.value = (f"<table cellpadding='4'><tr><th>{html.escape(self.xlabel)}</th>"
                             f"<th>{exact}</th>{head}</tr>{''.join(rows)}</table>{extra}")
        if self._render_images:
            data = base64.b64encode(self.svg().encode("utf-8")).decode("ascii")
            self._image.value = (f'<img src="data:image/svg+xml;base64,{data}" '
                                 f'alt="{html.escape(self._alt_text())}" '
                                 'style="max-width:100%;height:auto">')
