"""``DistributionPlot``: an exact ``Distribution`` as a bar chart, with a seeded
Monte Carlo overlay whose sample size is chosen by a slider."""
from __future__ import annotations

import html
import random
from collections import Counter
from typing import Any, Callable

import ipywidgets as W

from ..core.distribution import Distribution
from ._common import figure_png, new_figure

__all__ = ["DistributionPlot"]


class DistributionPlot(W.VBox):
    """Bars: the exact probabilities (labelled with their Fractions).  Dots: the
    relative frequencies in ``n`` simulated samples (``n`` from the slider; 0 = no
    overlay).  ``sampler(rng, n)`` returns a list of ``n`` outcomes (default: draws
    from ``dist`` itself); the same ``seed`` gives the same samples.

    Programmatic API: ``.dist``, ``.n`` (settable), ``.samples``, ``.frequencies()``.
    """

    def __init__(self, dist: Distribution, sampler: Callable[[random.Random, int], list] | None = None,
                 n: int = 0, max_n: int = 20_000, seed: Any = 0, title: str | None = None,
                 render: bool = True):
        if not isinstance(dist, Distribution):
            dist = Distribution(dist)
        self.dist = dist
        self.sampler = sampler or (lambda rng, k: dist.sample(rng, k))
        self.seed = seed
        self.title = title
        self.samples: list = []
        self._render_images = render
        self._slider = W.IntSlider(value=n, min=0, max=max_n, step=max(1, max_n // 200),
                                   description="samples", continuous_update=False,
                                   layout=W.Layout(width="420px"))
        self._slider.add_class("kingdoms-samples")
        self._slider.observe(lambda _c: self._update(), names="value")
        self._image = W.Image(format="png", layout=W.Layout(max_width="100%"))
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

    def __repr__(self):
        return f"DistributionPlot({len(self.dist)} outcomes, {self.n} samples)"

    def _update(self) -> None:
        n = self.n
        self.samples = list(self.sampler(random.Random(self.seed), n)) if n > 0 else []
        freq = self.frequencies()
        rows = []
        for o, p in self.dist.items():
            sim = f"<td>{freq[o]:.4f}</td>" if freq else ""
            rows.append(f"<tr><td>{html.escape(str(o))}</td><td>{p}</td>"
                        f"<td>{float(p):.4f}</td>{sim}</tr>")
        head = "<th>simulated</th>" if freq else ""
        outside = [o for o in set(self.samples) if o not in self.dist]
        extra = (f"<div style='color:#a61b1b'>{len(outside)} simulated outcomes are not in "
                 f"the exact distribution: {html.escape(str(sorted(map(str, outside))[:5]))}</div>"
                 if outside else "")
        self._table.value = ("<table><tr><th>outcome</th><th>P (exact)</th><th>P</th>"
                             f"{head}</tr>{''.join(rows)}</table>{extra}")
        if self._render_images:
            fig = new_figure((max(4, 0.6 * len(self.dist) + 2), 3))
            ax = fig.add_subplot()
            self.dist.plot(ax=ax, samples=self.samples or None, title=self.title)
            self._image.value = figure_png(fig)
