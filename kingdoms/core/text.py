"""Words and numbers for people: counted results, percentages and plurals.

A counted result (a win share over simulated games) is an estimate: it is shown as a
percentage with its 95% interval and the number of games it rests on,
``"8.7% (5.6-13.2%) of 300 games"``, never as a reduced fraction like ``13/150``
(exact fractions stay where the exactness is the lesson: the odds).

Numbers follow the current language (``kingdoms.core.i18n``): in English exactly as
Python writes them (``"0.5"``, ``"12.5%"``, ``"1,234"``); in another language with
that language's symbols from Babel (German: ``"0,5"``, ``"12,5 %"``, ``"1.234"``),
the same digits rounded the same way.  Babel is imported only when the language is
not English.  Fractions stay ``1/6`` in every language.
"""
from __future__ import annotations

import functools
import math

from .i18n import _, language, ngettext, using

__all__ = ["Z95", "wilson_interval", "percent", "share_text", "plural", "progress_bar",
           "number", "count", "localize", "interval_text", "localize_ticks", "speaks", "truth"]

_symbols_cache: dict = {}


def speaks(method):
    """Run a method in its object's language (its ``_language``: a widget's or a result's
    game's; ``None``: the current language): a German game's widget or table is German
    also where the method runs outside the cell's ``using`` block (ipywidgets runs a
    button's callback in the kernel's comm handler)."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with using(getattr(self, "_language", None)):
            return method(self, *args, **kwargs)
    return run


def _symbols(code: str) -> tuple[str, str, str]:
    """``(decimal mark, group mark, percent suffix)`` of the language ``code``
    (Babel's locale data; imported only here, for a language other than English)."""
    found = _symbols_cache.get(code)
    if found is None:
        from babel import Locale
        from babel.numbers import get_decimal_symbol, get_group_symbol
        pattern = Locale.parse(code).percent_formats[None]
        found = (get_decimal_symbol(code), get_group_symbol(code), pattern.suffix[0])
        _symbols_cache[code] = found
    return found


def localize(text: str) -> str:
    """A number written the English way (``"1,234.5"``, ``"-0.25"``) in the current
    language's symbols (German ``"1.234,5"``); unchanged in English."""
    code = language()
    if code == "en":
        return text
    dec, group, _pct = _symbols(code)
    return text.translate({ord("."): dec, ord(","): group})   # both at once


def number(x, digits: int = 2) -> str:
    """``x`` with ``digits`` decimals for people (``0.5 -> "0.50"``; German ``"0,50"``)."""
    return localize(f"{x:.{digits}f}")


def truth(flag) -> str:
    """Whether something holds, for people: in English as Python writes it (``"True"``,
    ``"False"``), in German ``"ja"``, ``"nein"``."""
    return _("True") if flag else _("False")


def localize_ticks(axis) -> None:
    """A matplotlib axis (``ax.xaxis``) whose tick labels use the current language's
    decimal mark (German ``0,25``); nothing changes in English."""
    if language() != "en":
        from matplotlib.ticker import FuncFormatter
        axis.set_major_formatter(FuncFormatter(lambda v, _pos: localize(f"{v:g}")))


def count(n: int) -> str:
    """A whole number with thousands marks (``12345 -> "12,345"``; German ``"12.345"``)."""
    return localize(f"{n:,}")

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


def _percent_number(x, digits: int = 1) -> str:
    value = 100 * float(x)
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".") if float(text) in (0.0, 100.0) else text
    return text


def _percent_sign() -> str:
    code = language()
    return "%" if code == "en" else _symbols(code)[2]


def percent(x, digits: int = 1) -> str:
    """``0.0867 -> "8.7%"``; whole hundreds without decimals (``"100%"``, ``"0%"``).
    German: ``"8,7 %"`` (a non-breaking space before the sign, as Babel's data says)."""
    return localize(_percent_number(x, digits)) + _percent_sign()


def interval_text(lo, hi, digits: int = 1) -> str:
    """A 95% interval of two shares for people, ``"5.6-13.2%"`` (German
    ``"5,6–13,2 %"``)."""
    if language() == "en":
        return f"{_percent_number(lo, digits)}-{percent(hi, digits)}"
    return f"{localize(_percent_number(lo, digits))}\u2013{percent(hi, digits)}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "card") -> "1 card"``, ``plural(3, "card") -> "3 cards"``;
    ``many`` for an irregular plural (``plural(2, "die", "dice")``).  English words
    only: a text in the catalog counts with ``ngettext("{n} card", "{n} cards", n)``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {many if many is not None else word + 's'}"


def share_text(share, n: int, of: str = "game") -> str:
    """A share counted over ``n`` trials, for people: the percentage, its 95% Wilson
    interval and what it rests on, ``"8.7% (5.6-13.2%) of 300 games"``.  ``share`` is
    the mean (ties counted as parts); with no trials: ``"no games"``."""
    if of == "game":
        if n <= 0:
            return _("no games")
        trials = ngettext("{n} game", "{n} games", n).format(n=n)
    else:                       # another word: English only (its callers say it)
        if n <= 0:
            return f"no {plural(2, of)[2:]}"
        trials = plural(n, of)
    lo, hi = wilson_interval(share, n)
    return _("{share} ({interval}) of {trials}").format(
        share=percent(share), interval=interval_text(lo, hi), trials=trials)


# A progress bar shows how far the work is and how long it has left, not a rate
# ("1061.94it/s" means nothing to a student).
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"


def progress_bar(total: int, desc: str, show: bool = True):
    """A tqdm bar (the notebook widget where there is one) for ``total`` games, without
    rates; ``show=False`` gives a bar that draws nothing.  ``desc`` is shown as given
    (callers translate it)."""
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=desc, disable=not show, leave=False, bar_format=BAR_FORMAT,
                unit="game")
