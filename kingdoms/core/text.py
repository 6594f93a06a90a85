"""Words and numbers for people: counted results, percentages and plurals.

A counted result (a win share over simulated games) is an estimate: it is shown as a
percentage with its 95% interval and the number of games it rests on,
``"8.7% (5.6-13.2%) of 300 games"``, never as a reduced fraction like ``13/150``
(exact fractions stay where the exactness is the lesson: the odds).
"""
from __future__ import annotations

import math

__all__ = ["Z95", "wilson_interval", "percent", "share_text", "plural", "progress_bar"]

Z95 = 1.959963984540054     # the 97.5% quantile of the standard normal distribution


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a proportion ``share`` observed
    in ``n`` trials; ``(0.0, 1.0)`` when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = float(share)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percent(x, digits: int = 1) -> str:
    """``0.0867 -> "8.7%"``; whole hundreds without decimals (``"100%"``, ``"0%"``)."""
    value = 100 * float(x)
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".") if float(text) in (0.0, 100.0) else text
    return text + "%"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "card") -> "1 card"``, ``plural(3, "card") -> "3 cards"``;
    ``many`` for an irregular plural (``plural(2, "die", "dice")``)."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {many if many is not None else word + 's'}"


def share_text(share, n: int, of: str = "game") -> str:
    """A share counted over ``n`` trials, for people: the percentage, its 95% Wilson
    interval and what it rests on, ``"8.7% (5.6-13.2%) of 300 games"``.  ``share`` is
    the mean (ties counted as parts); with no trials: ``"no games"``."""
    if n <= 0:
        return f"no {plural(2, of)[2:]}"
    lo, hi = wilson_interval(share, n)
    return f"{percent(share)} ({percent(lo)[:-1]}-{percent(hi)}) of {plural(n, of)}"


# A progress bar shows how far the work is and how long it has left, not a rate
# ("1061.94it/s" means nothing to a student).
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"


def progress_bar(total: int, desc: str, show: bool = True):
    """A tqdm bar (the notebook widget where there is one) for ``total`` games, without
    rates; ``show=False`` gives a bar that draws nothing."""
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=desc, disable=not show, leave=False, bar_format=BAR_FORMAT,
                unit="game")
