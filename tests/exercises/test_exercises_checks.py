"""kingdoms.exercises checks: sealed questions (one slow key per answer, hints readable
only after their mistake), the form of an answer, simulations, and how a check reports
(one printed line, never a traceback, strict only for hidden tests)."""
from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from kingdoms import exercises
from kingdoms.exercises import (ExerciseFailure, NoAnswer, check_answer, check_simulation,
                                judge, seal_answer, show)

ROUNDS = 1000          # the real ITERATIONS make a check slow on purpose; not needed here
WITH_REPLACEMENT = 1 - Fraction(13, 17) ** 7
HINT = "That treats the 7 cards as drawn with replacement."
SEALED = seal_answer("woods-p2", Fraction(31, 34), [(WITH_REPLACEMENT, HINT)],
                     "count hands", iterations=ROUNDS)


def verdict(answer, **kw):
    return judge(answer, "P(Fool)", kw.pop("sealed", SEALED), kind=kw.pop("kind", "probability"),
                 **kw)


def test_the_right_answer_passes_and_says_so(capsys):
    ns = {"p": Fraction(31, 34), "check_answer": check_answer}
    exec('check_answer("p", "P(Fool)", kind="probability", sealed=SEALED)', dict(ns, SEALED=SEALED))
    assert capsys.readouterr().out == "✓ P(Fool): 31/34 ≈ 0.912 is right.\n"


def test_the_sealed_string_shows_neither_answer_nor_hint():
    assert "31" not in SEALED.split(":", 4)[4] and "34" not in SEALED
    assert "replacement" not in SEALED and "count hands" not in SEALED
    scheme, kdf, rounds, salt, *_ = SEALED.split(":")
    assert (scheme, kdf, rounds, salt) == ("kx1", "pbkdf2-sha256", str(ROUNDS), "woods-p2")
    # salted: the same answer sealed for another question gives another identifier
    other = seal_answer("woods-p3", Fraction(31, 34), iterations=ROUNDS)
    assert other.split(":")[4] != SEALED.split(":")[4]
    assert seal_answer("woods-p2", Fraction(31, 34), [(WITH_REPLACEMENT, HINT)], "count hands",
                       iterations=ROUNDS) == SEALED            # deterministic: re-sealing is stable


def test_the_rounds_are_read_from_the_string():
    """The cost is stored in the string: a check sealed with other rounds still works,
    and the rounds matter (the same answer with other rounds has another identifier)."""
    fast = seal_answer("s", 3, iterations=10)
    assert judge(3, "x", fast, kind="int").ok
    assert fast.split(":")[4] != seal_answer("s", 3, iterations=11).split(":")[4]


def test_a_classic_mistake_gets_its_own_hint_and_only_it():
    v = verdict(WITH_REPLACEMENT)
    assert not v.ok and v.mistake == 0
    assert HINT in v.message and "count hands" not in v.message


def test_another_wrong_answer_gets_the_general_hint():
    v = verdict(Fraction(1, 2))
    assert v.mistake is None and v.message == "✗ P(Fool): 1/2 ≈ 0.500 is not right. Hint: count hands"


def test_a_hint_opens_only_with_the_key_of_its_mistake():
    blob = exercises._encrypt(HINT, exercises._derive(WITH_REPLACEMENT, "woods-p2", ROUNDS)[1])
    assert exercises._decrypt(blob, exercises._derive(WITH_REPLACEMENT, "woods-p2", ROUNDS)[1]) == HINT
    for wrong in (Fraction(1, 2), Fraction(31, 34)):
        assert exercises._decrypt(blob, exercises._derive(wrong, "woods-p2", ROUNDS)[1]) is None
    tampered = blob[:-2] + ("A" if blob[-2] != "A" else "B") + blob[-1]
    assert exercises._decrypt(tampered, exercises._derive(WITH_REPLACEMENT, "woods-p2", ROUNDS)[1]) is None


def test_a_mistake_equal_to_the_answer_is_refused():
    with pytest.raises(ValueError, match="equals the right answer"):
        seal_answer("s", Fraction(1, 2), [(Fraction(2, 4), "no")], iterations=ROUNDS)
    with pytest.raises(ValueError, match="salt"):
        seal_answer("a:b", 1, iterations=ROUNDS)


@pytest.mark.parametrize("bad", ["", "kx1:pbkdf2-sha256:abc:s:00:00", "nonsense",
                                 "kx1:pbkdf2-sha256:999999999:s:0000000000000000:AA"])
def test_a_broken_sealed_string_is_a_clear_error_in_bounded_time(bad):
    if not bad:
        assert verdict(Fraction(1, 2), sealed=bad).mistake == "form:unsealed"
        return
    with pytest.raises(ValueError, match="sealed check|rounds"):
        verdict(Fraction(1, 2), sealed=bad)


@settings(max_examples=20, deadline=None)
@given(st.fractions(), st.text(min_size=1, max_size=8, alphabet="abc-"))
def test_equal_exact_numbers_share_an_identifier_floats_never(x, salt):
    ident = exercises._derive(x, salt, 2)[0]
    assert ident == exercises._derive(Fraction(x.numerator, x.denominator), salt, 2)[0]
    assert exercises._derive(float(x), salt, 2)[0] != ident
    if x.denominator == 1:
        assert exercises._derive(int(x), salt, 2)[0] == ident


def test_text_answers_ignore_case_and_spacing():
    sealed = seal_answer("w", "Blue", iterations=ROUNDS)
    assert judge(" blue ", "the winner", sealed, kind="text").ok
    assert not judge("Green", "the winner", sealed, kind="text").ok


def test_the_pure_python_key_derivation_matches_hashlib():
    """Where ``hashlib.pbkdf2_hmac`` is missing (Python built without OpenSSL, e.g. some
    Pyodide builds) the fallback derives the same bytes, so the same notebooks work."""
    for password, salt, rounds in [(b"Q31/34", b"kingdoms-check:s", 1), (b"x" * 100, b"s", 3),
                                   (b"Q1/2", b"kingdoms-check:woods-p2", 2000)]:
        assert exercises._pbkdf2_python(password, salt, rounds) == \
            hashlib.pbkdf2_hmac("sha256", password, salt, rounds, 32)


def test_without_openssl_the_fallback_is_used(monkeypatch):
    monkeypatch.delattr(hashlib, "pbkdf2_hmac")
    assert judge(Fraction(31, 34), "P(Fool)", SEALED, kind="probability").ok
    assert verdict(WITH_REPLACEMENT).mistake == 0


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
    v = verdict(answer, kind=kind, length=length)
    assert v.mistake == key and words in v.message


def test_choices():
    sealed = seal_answer("w", "Blue", iterations=ROUNDS)
    v = judge("Purple", "the winner", sealed, kind="text", choices=["Red", "Green", "Blue"])
    assert v.mistake == "form:choice" and "Red, Green, Blue" in v.message
    assert judge(object(), "the move", seal_answer("m", 3, iterations=ROUNDS), kind="choice",
                 choices=[1, 2, 3]).mistake == "form:choice"


@pytest.mark.parametrize("placeholder", [None, ..., NoAnswer("p")])
def test_no_answer_yet(placeholder):
    v = verdict(placeholder)
    assert v.mistake == "form:none" and "no answer yet" in v.message


def test_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown kind"):
        judge(1, "x", SEALED, kind="number")
    with pytest.raises(TypeError, match="name in quotes"):
        check_answer(Fraction(1, 2), "x", sealed=SEALED)


def run(code: str, **ns) -> dict:
    """Run ``code`` as a notebook cell would (its globals are the notebook's)."""
    env = {"check_answer": check_answer, "check_simulation": check_simulation,
           "SEALED": SEALED, "Fraction": Fraction, **ns}
    exec(code, env)
    return env


def test_an_answer_not_set_yet_is_a_sentence_not_a_name_error(capsys):
    run('check_answer("p_player2", "P(Fool)", kind="probability", sealed=SEALED)')
    out = capsys.readouterr().out
    assert out.startswith("✗ P(Fool): no answer yet") and "p_player2 is not set yet" in out
    # choices named in the notebook are looked up only once the answer is there
    run('check_answer("winner", "the winner", kind="text", choices="players", sealed=SEALED)')
    assert "no answer yet" in capsys.readouterr().out


def test_a_wrong_answer_prints_and_does_not_stop_the_cell(capsys):
    """Of two answers checked in one cell, the second is checked when the first is wrong."""
    run('check_answer("a", "first", kind="probability", sealed=SEALED)\n'
        'check_answer("b", "second", kind="probability", sealed=SEALED)',
        a=Fraction(1, 2), b=Fraction(31, 34))
    assert capsys.readouterr().out.splitlines() == [
        "✗ first: 1/2 ≈ 0.500 is not right. Hint: count hands",
        "✓ second: 31/34 ≈ 0.912 is right."]


def test_strict_raises_a_one_line_failure():
    with pytest.raises(ExerciseFailure) as info:
        run('check_answer("a", "P(Fool)", kind="probability", sealed=SEALED, strict=True)',
            a=WITH_REPLACEMENT)
    e = info.value
    assert isinstance(e, AssertionError) and e.mistake == 0         # nbgrader: the cell failed
    assert e._render_traceback_() == [f"✗ P(Fool): {show(WITH_REPLACEMENT)} is not right. {HINT}"]


def test_check_simulation(capsys):
    check_simulation(0.44, Fraction(221, 506), "sim", 2000)
    assert "from 2000 runs" in capsys.readouterr().out
    check_simulation(0.60, Fraction(221, 506), "sim", 2000)
    assert "4 standard errors" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="4 standard errors"):
        check_simulation(0.60, Fraction(221, 506), "sim", 2000, strict=True)
    with pytest.raises(ExerciseFailure, match="at least 1000"):
        check_simulation(0.44, Fraction(221, 506), "sim", 10, strict=True)
    with pytest.raises(ExerciseFailure, match="no answer yet"):
        check_simulation(NoAnswer("freq"), Fraction(1, 2), "sim", 2000, strict=True)
    check_simulation(4.1, Fraction(4), "mean", 3000, spread=1.63)
    assert "✓" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure):
        check_simulation(4.3, Fraction(4), "mean", 3000, spread=1.63, strict=True)


def test_check_simulation_by_name(capsys):
    run('check_simulation("freq", "p", "sim", "n")', p=Fraction(221, 506), n=2000)
    assert "no answer yet — freq is not set yet" in capsys.readouterr().out
    run('check_simulation("freq", "p", "sim", "n")', freq=0.44, p=Fraction(221, 506), n=2000)
    assert capsys.readouterr().out.startswith("✓ sim: 0.440 from 2000 runs")


def test_show_is_for_people():
    assert show(Fraction(19, 23)) == "19/23 ≈ 0.826"
    assert show(Fraction(4)) == "4" and show(0.12345678) == "0.123"
    assert show((Fraction(0), Fraction(1, 5))) == "(0, 1/5 ≈ 0.200)"
    assert "Fraction(" not in show([Fraction(1, 3)])
