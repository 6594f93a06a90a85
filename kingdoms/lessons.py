"""Sentences for the student tasks of the lesson notebooks.

Every lesson notebook has three kinds of task (cells tagged ``student-task``):

* **predict, then check**: the student types ``my_guess = ...`` *before* the notebook
  computes the answer; :func:`compare_guess` then says in a sentence how the guess compares
  with the truth;
* **by hand**: the student computes ``by_hand = ...`` (a ``Fraction``, a whole number)
  with pencil and paper; :func:`check_by_hand` compares it with the exact value the
  notebook computed and names the likely slip;
* **explain in words**: a question and an answer cell (no code).

Both functions print one or two sentences and return nothing (so that a notebook shows
the sentence, not a ``True`` under it), never a traceback: a lesson, not an exam, so the
exact value is shown after the verdict. A right answer's sentence starts with "Well
predicted" or "Right".
"""
from __future__ import annotations

from fractions import Fraction
from numbers import Number

from kingdoms.core.i18n import N_, _

__all__ = ["blank", "number_text", "compare_guess", "check_by_hand"]

NOT_YET = N_("Type your guess first: replace the ... in the cell above (`{name} = ...`), "
             "run it, then run this cell again.")


def blank(value) -> bool:
    """True when the student has not typed anything yet (``...``, ``None`` or ``""``)."""
    return value is ... or value is None or (isinstance(value, str) and not value.strip())


def number_text(x) -> str:
    """A number for people, as the exercises print it (``kingdoms.exercises.show``):
    ``Fraction(46, 17) -> "46/17 ≈ 2.706"``, ``Fraction(4, 2) -> "2"``, ``0.25 -> "0.250"``."""
    from kingdoms.exercises import show
    return show(x)


def _as_number(value):
    """A typed number as a Fraction (exactly for int/Fraction, from its decimal for a
    float), or None when the value is no number."""
    if isinstance(value, bool) or not isinstance(value, Number):
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    try:
        return Fraction(str(float(value)))
    except (ValueError, OverflowError):
        return None


def compare_guess(guess, truth, what: str | None = None, *, close: float = 0.1,
                  name: str = "my_guess", percent: bool = False) -> None:
    """Print how a prediction compares with the truth.

    ``truth`` a number: the guess counts as right when it lies within ``close`` (a share
    of the truth: 0.1 = within 10%) of it; the sentence says whether it was too high or
    too low (``percent=True``: a share counted in games, shown as a percentage, since
    it is an estimate and not an exact fraction).  ``truth`` a string: the guess is right
    when it names the same thing (letter case and surrounding spaces ignored).  A guess left as ``...`` gets
    "type your guess first".
    """
    what = _("the answer") if what is None else what
    if blank(guess):
        print(_(NOT_YET).format(name=name))
        return
    if isinstance(truth, str):
        right = isinstance(guess, str) and guess.strip().lower() == truth.strip().lower()
        if right:
            print(_("Well predicted: you said “{guess}”, and {what}: {truth}.").format(
                guess=guess.strip(), what=what, truth=truth))
        else:
            print(_("You said “{guess}”; {what}: {truth}. What made you expect "
                    "otherwise?").format(guess=guess, what=what, truth=truth))
        return
    g, t = _as_number(guess), _as_number(truth)
    if g is None or t is None:
        print(_("Type your guess as a number (for example 0.5); {what} is {truth}.").format(
            what=what, truth=number_text(truth)))
        return
    if percent:
        from kingdoms.core.text import percent as pct
        shown, true_text = pct(float(g)), pct(float(t))
    else:
        # the guess as the student typed it; the truth exact
        shown = f"{guess:g}" if isinstance(guess, float) else number_text(guess)
        true_text = number_text(truth)
    if g == t or (t != 0 and abs(g - t) <= abs(t) * Fraction(str(close))):
        print(_("Well predicted: you guessed {guess}, and {what} is {truth}.").format(
            guess=shown, what=what, truth=true_text))
        return
    if g > t:
        print(_("You guessed {guess}; {what} is {truth}, so your guess was too high.").format(
            guess=shown, what=what, truth=true_text))
    else:
        print(_("You guessed {guess}; {what} is {truth}, so your guess was too low.").format(
            guess=shown, what=what, truth=true_text))


def check_by_hand(by_hand, exact, what: str | None = None, *, name: str = "by_hand") -> None:
    """Print whether a value worked out by hand equals the exact value.

    The sentence names the usual slips: a decimal instead of an exact fraction, the
    complement (``1 - p``) instead of ``p``, a value off by a whole factor."""
    what = _("the value") if what is None else what
    if blank(by_hand):
        print(_("Work it out on paper first, then type it in the cell above "
                "(`{name} = ...`) and run this cell again.").format(name=name))
        return
    value, truth = _as_number(by_hand), Fraction(exact)
    if value is None:
        print(_("`{name}` should be a number: a whole number, or an exact fraction written as "
                "in the example in the cell above; you typed {typed}.").format(
                    name=name, typed=repr(by_hand)))
        return
    if value == truth and not isinstance(by_hand, float):
        print(_("Right: {what} is exactly {truth}.").format(what=what, truth=number_text(truth)))
        return
    if isinstance(by_hand, float) and abs(float(truth) - by_hand) < 5e-3 * max(1, abs(float(truth))):
        print(_("Close: {typed} is {what} rounded. Write it exactly, as a fraction "
                "(as in the example in the cell above): it is {truth}.").format(
                    typed=by_hand, what=what, truth=number_text(truth)))
        return
    if 0 < truth < 1 and value == 1 - truth:
        print(_("Not yet: {value} is the complement, 1 minus {what}. "
                "Which event did you count? {What} is {truth}.").format(
                    value=number_text(value), what=what, What=what[:1].upper() + what[1:],
                    truth=number_text(truth)))
        return
    hint = ""
    if truth != 0 and value != 0:
        ratio = value / truth
        if ratio.denominator == 1 or (1 / ratio).denominator == 1:
            hint = _(" Your value is {ratio} times the exact one: a factor counted twice or "
                     "left out?").format(ratio=number_text(ratio))
    if value > truth:
        print(_("Not yet: your {value} is larger than {what}, which is {truth}.{hint}").format(
            value=number_text(value), what=what, truth=number_text(truth), hint=hint))
    else:
        print(_("Not yet: your {value} is smaller than {what}, which is {truth}.{hint}").format(
            value=number_text(value), what=what, truth=number_text(truth), hint=hint))
