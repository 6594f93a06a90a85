"""Words and numbers for people (issue 28): counted shares as percentages with their 95%
interval, plurals, progress bars without rates."""
import io
from fractions import Fraction

import pytest

from kingdoms.core.text import (BAR_FORMAT, percent, plural, progress_bar, share_text,
                                wilson_interval)


def test_percent():
    assert percent(Fraction(13, 150)) == "8.7%"
    assert percent(1) == "100%" and percent(0) == "0%"
    assert percent(0.5) == "50.0%" and percent(0.0005) == "0.1%"


def test_plural():
    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards"
    assert plural(2, "die", "dice") == "2 dice" and plural(1, "die", "dice") == "1 die"
    assert plural(1, "re-roll") == "1 re-roll" and plural(2, "Fool") == "2 Fools"


def test_share_text_is_a_percentage_with_its_wilson_interval():
    share = Fraction(13, 150)
    lo, hi = wilson_interval(share, 300)
    assert 0.059 < lo < 0.061 and 0.123 < hi < 0.125
    assert share_text(share, 300) == f"8.7% ({100 * lo:.1f}-{100 * hi:.1f}%) of 300 games"
    assert share_text(1, 1) == "100% (20.7-100%) of 1 game"
    assert share_text(0, 0) == "no games"
    assert "13/150" not in share_text(share, 300)


def test_the_interval_covers_the_true_share_about_95_percent_of_the_time():
    import random
    rng = random.Random(7)
    p, n, hits = 0.3, 50, 0
    for _ in range(2000):
        k = sum(rng.random() < p for _ in range(n))
        lo, hi = wilson_interval(k / n, n)
        hits += lo <= p <= hi
    assert 0.93 < hits / 2000 < 0.97


def test_progress_bar_shows_no_rate():
    out = io.StringIO()
    bar = progress_bar(300, "simulating woods")
    bar.fp = out
    bar.update(120)
    bar.refresh()
    text = bar.format_meter(**bar.format_dict)
    bar.close()
    assert "120/300" in text and "it/s" not in text and "?it" not in text
    assert "{rate" not in BAR_FORMAT
