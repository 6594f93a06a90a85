"""kingdoms.exercises checks: digests, the form of an answer, mistakes by digest,
simulations, and the one-line display of a failure."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from kingdoms.exercises import (ExerciseFailure, NoAnswer, check_answer, check_simulation,
                                digest, show)

RIGHT = digest(Fraction(31, 34), "woods-p2")
WITH_REPLACEMENT = digest(1 - Fraction(13, 17) ** 7, "woods-p2")
MISTAKES = {WITH_REPLACEMENT: "That treats the 7 cards as drawn with replacement."}


def fails(*args, **kwargs) -> ExerciseFailure:
    with pytest.raises(ExerciseFailure) as info:
        check_answer(*args, **kwargs)
    return info.value


def test_the_right_answer_passes_and_says_so(capsys):
    assert check_answer(Fraction(31, 34), "P(Fool)", RIGHT, kind="probability") is None
    assert capsys.readouterr().out == "✓ P(Fool): 31/34 ≈ 0.912 is right.\n"


def test_the_digest_does_not_show_the_answer():
    assert RIGHT.startswith("woods-p2:") and len(RIGHT.split(":")[1]) == 16
    assert digest(Fraction(31, 34), "other-salt") != RIGHT       # salted
    with pytest.raises(ValueError):
        digest(1, "bad:salt")


@given(st.fractions(), st.text(min_size=1, max_size=8, alphabet="abc-"))
def test_equal_exact_numbers_share_a_digest_floats_never(x, salt):
    assert digest(x, salt) == digest(Fraction(x.numerator, x.denominator), salt)
    assert digest(float(x), salt) != digest(x, salt)
    if x.denominator == 1:
        assert digest(int(x), salt) == digest(x, salt)


def test_text_answers_ignore_case_and_spacing():
    assert digest(" Blue ", "s") == digest("blue", "s") != digest("Green", "s")


def test_a_classic_mistake_gets_its_own_hint():
    e = fails(1 - Fraction(13, 17) ** 7, "P(Fool)", RIGHT, kind="probability",
              mistakes=MISTAKES, hint="count hands")
    assert e.mistake == WITH_REPLACEMENT
    assert "with replacement" in str(e) and "count hands" not in str(e)


def test_another_wrong_answer_gets_the_general_hint():
    e = fails(Fraction(1, 2), "P(Fool)", RIGHT, kind="probability", mistakes=MISTAKES,
              hint="count hands")
    assert e.mistake is None and str(e) == "P(Fool): 1/2 ≈ 0.500 is not right. Hint: count hands"


@pytest.mark.parametrize("answer, kind, key, words", [
    (0.912, "probability", "form:float", "exact value as a Fraction"),
    (Fraction(35, 34), "probability", "form:range", "between 0 and 1"),
    ("31/34", "probability", "form:type", "exact number"),
    (True, "exact", "form:type", "exact number"),
    (Fraction(7, 2), "int", "form:type", "whole number"),
    (5, "text", "form:type", "text"),
    ((Fraction(1, 2), Fraction(1, 2)), "probabilities", "form:length", "3 entries"),
    ((Fraction(1, 2), Fraction(1, 3), Fraction(1, 3)), "probabilities", "form:sum", "add up to 1"),
    ((Fraction(1, 2), 0.25, Fraction(1, 4)), "probabilities", "form:float", "exact value"),
])
def test_the_form_is_checked_first(answer, kind, key, words):
    length = 3 if kind == "probabilities" else None
    e = fails(answer, "it", RIGHT, kind=kind, length=length)
    assert e.mistake == key and words in str(e)


def test_choices():
    e = fails("Purple", "the winner", digest("Blue", "w"), kind="text",
              choices=["Red", "Green", "Blue", "Yellow"])
    assert e.mistake == "form:choice" and "Red, Green, Blue, Yellow" in str(e)
    check_answer("blue", "the winner", digest("Blue", "w"), kind="text", choices=["Blue"])
    e = fails(object(), "the move", digest(3, "m"), kind="choice", choices=[1, 2, 3])
    assert e.mistake == "form:choice"


@pytest.mark.parametrize("placeholder", [None, ..., NoAnswer("p")])
def test_no_answer_yet(placeholder):
    e = fails(placeholder, "P(Fool)", RIGHT, kind="probability")
    assert e.mistake == "form:none" and "no answer yet" in str(e)


def test_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown kind"):
        check_answer(1, "x", digest(1, "s"), kind="number")


def test_failure_renders_as_one_line_without_traceback():
    e = fails(Fraction(1, 2), "P(Fool)", RIGHT, kind="probability")
    assert isinstance(e, AssertionError)                    # nbgrader counts the cell failed
    assert e._render_traceback_() == ["✗ P(Fool): 1/2 ≈ 0.500 is not right."]


def test_check_simulation(capsys):
    check_simulation(0.44, Fraction(221, 506), "sim", 2000)
    assert "from 2000 runs" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="4 standard errors"):
        check_simulation(0.60, Fraction(221, 506), "sim", 2000)
    with pytest.raises(ExerciseFailure, match="at least 1000"):
        check_simulation(0.44, Fraction(221, 506), "sim", 10)
    with pytest.raises(ExerciseFailure, match="no answer yet"):
        check_simulation(NoAnswer("freq"), Fraction(1, 2), "sim", 2000)
    check_simulation(4.1, Fraction(4), "mean", 3000, spread=1.63)
    with pytest.raises(ExerciseFailure):
        check_simulation(4.3, Fraction(4), "mean", 3000, spread=1.63)


def test_show_is_for_people():
    assert show(Fraction(19, 23)) == "19/23 ≈ 0.826"
    assert show(Fraction(4)) == "4" and show(0.12345678) == "0.123"
    assert show((Fraction(0), Fraction(1, 5))) == "(0, 1/5 ≈ 0.200)"
    assert "Fraction(" not in show([Fraction(1, 3)])
