"""Classroom exercises: self-checks that do not give the answer away.

Exercise notebooks follow nbgrader's course layout: the teacher copies (solutions and
hidden tests in place) are ``exercises/source/<game>/<name>.ipynb``, one nbgrader
assignment per game; the student copies are ``exercises/release/<game>/<name>.ipynb``
(``make exercises``).  Solution regions lie between ``### BEGIN SOLUTION`` and
``### END SOLUTION``, hidden tests between ``### BEGIN HIDDEN TESTS`` and
``### END HIDDEN TESTS``, with nbgrader cell metadata.

**The visible check.**  ``check_answer("p_six", "P(a die shows a six twice)",
kind="probability", sealed="kx1:...")`` looks the answer up by name (so a check whose
answer cell was not run says "no answer yet" instead of raising ``NameError``),
checks its *form* (an exact Fraction, between 0 and 1, the right length ...), then
derives from (the question's salt, the answer) one slow key (PBKDF2-HMAC-SHA256,
``ITERATIONS`` rounds, ~60 ms of CPU): part of it is compared with the right answer's
identifier stored in ``sealed``, the rest is the key that opens the hint stored for
that classic mistake (if the answer is one).  So the cell shows neither the answer nor
a mistake's hint before that mistake is made, and confirming a guess costs the
attacker one slow key per guess and per check.  What this cannot protect: an answer
among a few choices, or a small whole number, can still be found by trying them all.

The check *prints* one line (``✓ ...`` or ``✗ ...``) and never raises: Run All on a
fresh student copy goes through, and of two answers in one cell the second is checked
even when the first is wrong.  Grades come from the hidden tests (``assert``, or
``strict=True``), which nbgrader puts back when it grades.

**The teacher's part.**  The hint texts live in the hidden tests of the teacher copy::

    # hint: p_six: Two independent rolls: multiply their chances.
    # mistake: p_six = Fraction(1, 6) + Fraction(1, 6)
    #     Adding gives "a six in either roll" (roughly); both rolls must show one.

(a ``# hint:`` for any other wrong answer; each ``# mistake:`` line is an expression
for a classic wrong answer, the indented comment lines below it its hint; a mistake
without a hint must be caught by the form check, e.g. ``float(p)``).  ``python -m
kingdoms.exercises seal exercises/source`` runs each teacher copy and writes the
``sealed=`` strings (``make exercises`` does it first); ``python -m kingdoms.exercises
student exercises/source exercises/release`` writes the student copies (solutions
replaced by ``# YOUR CODE HERE``, hidden tests removed, outputs cleared, nbgrader
metadata kept) without needing nbgrader.  ``teacher_secrets(path)`` lists what no
student file may contain.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import math
import sys

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from kingdoms.core.i18n import N_, _, language, using

__all__ = ["check", "check_answer", "check_simulation", "judge", "Verdict", "seal_answer",
           "show", "ExerciseFailure", "NoAnswer", "ExerciseFormatError", "ITERATIONS",
           "student_version", "make_student_versions", "strip_solutions",
           "strip_hidden_tests", "seal_notebook", "teacher_secrets"]


class ExerciseFailure(AssertionError):
    """A strict check that did not pass (hidden tests, ``strict=True``, ``check``).

    IPython shows it as its message alone (``_render_traceback_``): one short line,
    not a traceback, and the cell still counts as failed for nbgrader.  ``mistake``
    is the index of the classic mistake recognised (or ``"form:..."`` for an answer of
    the wrong form), ``None`` if the answer is wrong in no known way."""

    def __init__(self, message: str, mistake: int | str | None = None):
        super().__init__(message)
        self.mistake = mistake

    def _render_traceback_(self):
        text = self.args[0]
        return [text if text.startswith("\u2717") else f"\u2717 {text}"]


class NoAnswer:
    """The placeholder a student version puts where a solution was (``answer =
    NoAnswer("answer")``).  Any use of it — iterating, indexing, comparing,
    arithmetic, calling — raises ``NotImplementedError`` naming the missing answer,
    and the checks report it as "no answer yet"."""

    __slots__ = ("name",)

    def __init__(self, name: str = "answer"):
        object.__setattr__(self, "name", name)

    def _missing(self, *args, **kwargs):
        raise NotImplementedError(_("{name}: no answer yet — write your code where it says "
                                    "YOUR CODE HERE and run that cell.").format(name=self.name))

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._missing()

    def __repr__(self):
        return _("<no answer yet for {name}>").format(name=self.name)

    __str__ = __repr__
    __iter__ = __len__ = __getitem__ = __contains__ = __call__ = __hash__ = _missing
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _missing
    __bool__ = __float__ = __int__ = __index__ = __neg__ = __abs__ = _missing
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _missing
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __pow__ = __rpow__ = _missing
    __mod__ = __rmod__ = __and__ = __rand__ = __or__ = __ror__ = _missing


def _unanswered(x: Any) -> bool:
    return x is None or x is Ellipsis or isinstance(x, NoAnswer)


def _decimal(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals in the current language (``0.912``; German
    ``0,912``, through Babel, imported only then)."""
    if language() == "en":
        return f"{x:.{digits}f}"
    from babel.numbers import format_decimal
    return format_decimal(x, format="0." + "0" * digits, locale=language())


def show(x: Any) -> str:
    """A value as a person reads it: ``31/34 ≈ 0.912`` for a Fraction, ``0.912`` for a
    float, tuples and lists element by element, anything else as ``str``.  In German
    the decimal comma (``31/34 ≈ 0,912``), so the items of a tuple are parted by
    ``"; "``."""
    if isinstance(x, NoAnswer):
        return repr(x)
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return str(x.numerator)
        return f"{x.numerator}/{x.denominator} \u2248 {_decimal(float(x), 3)}"
    if isinstance(x, float):
        return _decimal(x, 3) if abs(x) >= 0.0005 or x == 0 else _decimal(x, 6)
    comma = ", " if language() == "en" else "; "
    if isinstance(x, (tuple, list)):
        inner = comma.join(show(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if isinstance(x, Mapping):
        return comma.join(f"{show(k)}: {show(v)}" for k, v in x.items())
    return str(x)


def _canonical(x: Any) -> str:
    """One text per value: ints and Fractions equal as numbers share it, floats never
    share one with an exact number, text ignores case and surrounding spaces."""
    if isinstance(x, bool):
        return f"B{x}"
    if isinstance(x, (int, Fraction)):
        f = Fraction(x)
        return f"Q{f.numerator}/{f.denominator}"
    if isinstance(x, float):
        return f"R{x!r}"
    if isinstance(x, str):
        return "S" + " ".join(x.split()).lower()
    if isinstance(x, (tuple, list)):
        return "T(" + ",".join(_canonical(v) for v in x) + ")"
    if isinstance(x, (set, frozenset)):
        return "U{" + ",".join(sorted(_canonical(v) for v in x)) + "}"
    if isinstance(x, Mapping):
        return "M{" + ",".join(sorted(f"{_canonical(k)}:{_canonical(v)}"
                                      for k, v in x.items())) + "}"
    with using("en"):      # an object's text in one language: a seal holds in every language
        return "O" + str(x)


# --------------------------------------------------------------------------- sealing
#
# One PBKDF2-HMAC-SHA256 per answer checked: dk = PBKDF2(canonical answer, salt).
# identifier = SHA-256("id" + dk)[:8], key = SHA-256("key" + dk).  A hint is stored as
# tag + (hint XOR SHAKE-256(key + tag)), tag = HMAC-SHA256(key, hint)[:12] (a synthetic
# IV: deterministic, so re-sealing an unchanged question writes the same string, and a
# wrong key is detected).  The general hint (for any other wrong answer) is only
# obscured (its key comes from the salt): any wrong answer shows it, by design.

#: PBKDF2 rounds per check: ~60 ms in CPython with OpenSSL on a laptop core (a student
#: waits that long; an attacker pays it per guess and per check).  Stored in each
#: sealed string, so it can change later without breaking old notebooks.
ITERATIONS = 250_000
_MAX_ITERATIONS = 5_000_000          # a crafted string cannot make a check run for hours
_SCHEME = "kx1"
_KDF = "pbkdf2-sha256"
_TAG = 12


def _pbkdf2_python(password: bytes, salt: bytes, iterations: int) -> bytes:
    """PBKDF2-HMAC-SHA256 (RFC 8018), one 32-byte block, for a Python without OpenSSL
    (``hashlib.pbkdf2_hmac`` exists only when Python is built with OpenSSL, e.g. not in
    every Pyodide build).  Same bytes as ``hashlib.pbkdf2_hmac``; a few times slower."""
    if len(password) > 64:
        password = hashlib.sha256(password).digest()
    key = password.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def prf(message: bytes) -> bytes:
        i = inner.copy()
        i.update(message)
        o = outer.copy()
        o.update(i.digest())
        return o.digest()

    u = prf(salt + b"\x00\x00\x00\x01")
    acc = int.from_bytes(u, "big")
    for _ in range(iterations - 1):
        u = prf(u)
        acc ^= int.from_bytes(u, "big")
    return acc.to_bytes(32, "big")


def _pbkdf2(password: bytes, salt: bytes, iterations: int) -> bytes:
    fast = getattr(hashlib, "pbkdf2_hmac", None)
    if fast is not None:
        try:
            return fast("sha256", password, salt, iterations, 32)
        except ValueError:          # no OpenSSL digest behind it
            pass
    return _pbkdf2_python(password, salt, iterations)


def _derive(value: Any, salt: str, iterations: int) -> tuple[str, bytes]:
    """``(identifier, key)`` of an answer: one slow key derivation."""
    dk = _pbkdf2(_canonical(value).encode(), f"kingdoms-check:{salt}".encode(), iterations)
    return hashlib.sha256(b"id" + dk).hexdigest()[:16], hashlib.sha256(b"key" + dk).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _xor(data: bytes, key: bytes, tag: bytes) -> bytes:
    stream = hashlib.shake_256(key + tag).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream))


def _encrypt(text: str, key: bytes) -> str:
    plain = text.encode()
    tag = hmac.new(key, plain, hashlib.sha256).digest()[:_TAG]
    return _b64(tag + _xor(plain, key, tag))


def _decrypt(blob: str, key: bytes) -> str | None:
    """The hint, or ``None`` if ``key`` is not the one it was sealed with."""
    try:
        data = _unb64(blob)
    except ValueError:
        return None
    tag, body = data[:_TAG], data[_TAG:]
    plain = _xor(body, key, tag)
    if not hmac.compare_digest(hmac.new(key, plain, hashlib.sha256).digest()[:_TAG], tag):
        return None
    return plain.decode("utf-8", "replace")


def _general_key(salt: str) -> bytes:
    return hashlib.sha256(f"kingdoms-general-hint:{salt}".encode()).digest()


def seal_answer(salt: str, right: Any, mistakes: list[tuple[Any, str]] = (),
                hint: str = "", iterations: int = ITERATIONS) -> str:
    """The ``sealed=`` string of one question: ``kx1:pbkdf2-sha256:ROUNDS:SALT:ID:G:M1:...``
    (the right answer's identifier, the general hint ``G`` (obscured), and each classic
    mistake's hint, encrypted with that mistake's key).  Deterministic."""
    if not salt or any(c in salt for c in ": \n"):
        raise ValueError(f"a salt is a non-empty word without ':' or spaces, not {salt!r}")
    right_id, _ = _derive(right, salt, iterations)
    parts = [_SCHEME, _KDF, str(iterations), salt, right_id, _encrypt(hint, _general_key(salt))]
    for value, text in mistakes:
        if _canonical(value) == _canonical(right):
            raise ValueError(f"a mistake equals the right answer ({show(right)})")
        parts.append(_encrypt(text, _derive(value, salt, iterations)[1]))
    return ":".join(parts)


@dataclass(frozen=True)
class _Sealed:
    iterations: int
    salt: str
    right: str
    general: str
    mistakes: tuple[str, ...]


def _open(sealed: str) -> _Sealed:
    parts = sealed.split(":") if isinstance(sealed, str) else []
    if len(parts) < 6 or parts[0] != _SCHEME or parts[1] != _KDF or not parts[2].isdigit():
        raise ValueError(f"not a sealed check (expected '{_SCHEME}:{_KDF}:ROUNDS:...'): "
                         f"{str(sealed)[:40]!r}")
    rounds = int(parts[2])
    if not 1 <= rounds <= _MAX_ITERATIONS:
        raise ValueError(f"a sealed check asks for {rounds} rounds; at most {_MAX_ITERATIONS}")
    return _Sealed(rounds, parts[3], parts[4], parts[5], tuple(parts[6:]))


def _has_float(x: Any) -> bool:
    if isinstance(x, float):
        return True
    if isinstance(x, (tuple, list, set, frozenset)):
        return any(_has_float(v) for v in x)
    if isinstance(x, Mapping):
        return any(_has_float(v) for v in x.values())
    return False


_KINDS = ("probability", "exact", "int", "text", "choice", "probabilities", "tuple")


def _form_problem(answer: Any, kind: str, length: int | None, choices) -> tuple[str, str] | None:
    """``(mistake key, message)`` if ``answer`` has the wrong form for ``kind``."""
    if kind not in _KINDS:
        raise ValueError(f"unknown kind {kind!r}; use one of {', '.join(_KINDS)}")
    if length is not None and kind not in ("probabilities", "tuple"):
        raise ValueError("length= only goes with kind='tuple' or 'probabilities'")
    if kind in ("probability", "exact", "probabilities", "tuple") and _has_float(answer):
        return ("form:float", _("is a float (a rounded decimal); give the exact value as a "
                                "Fraction, e.g. Fraction(3, 7) or 1 - Fraction(2, 9) (from "
                                "fractions import Fraction)."))
    exact = (int, Fraction)
    if kind in ("probability", "exact"):
        if isinstance(answer, bool) or not isinstance(answer, exact):
            return ("form:type", _("should be an exact number (a Fraction or a whole number), "
                                   "not a {type}.").format(type=type(answer).__name__))
        if kind == "probability" and not 0 <= answer <= 1:
            return ("form:range", _("is not between 0 and 1, so it cannot be a probability."))
    elif kind == "int":
        if isinstance(answer, bool) or not isinstance(answer, exact) or \
                Fraction(answer).denominator != 1:
            return ("form:type", _("should be a whole number, not {value}.").format(
                value=show(answer)))
    elif kind == "text":
        if not isinstance(answer, str):
            return ("form:type", _("should be a text (a str in quotes), not a {type}.").format(
                type=type(answer).__name__))
        if choices is not None and " ".join(answer.split()).lower() not in \
                {" ".join(str(c).split()).lower() for c in choices}:
            return ("form:choice", _("should be one of: {choices}.").format(
                choices=", ".join(map(str, choices))))
    elif kind == "choice":
        try:
            ok = any(answer == c for c in choices)
        except Exception:
            ok = False
        if not ok:
            return ("form:choice", _("should be one of: {choices}.").format(
                choices="; ".join(map(str, choices))))
    else:   # probabilities, tuple
        if not isinstance(answer, (tuple, list)):
            return ("form:type", _("should be a tuple, not a {type}.").format(
                type=type(answer).__name__))
        if length is not None and len(answer) != length:
            return ("form:length", _("should have {length} entries, not {count}.").format(
                length=length, count=len(answer)))
        if kind == "probabilities":
            if not all(isinstance(v, exact) and not isinstance(v, bool) for v in answer):
                return ("form:type", _("should hold exact numbers (Fractions)."))
            if not all(0 <= v <= 1 for v in answer) or sum(answer) != 1:
                return ("form:sum", _("should hold probabilities (each between 0 and 1) that "
                                      "add up to 1."))
    return None


@dataclass(frozen=True)
class Verdict:
    """What a check found: ``ok``; ``message``, the one line shown (``✓ ...`` or
    ``✗ ...``); ``mistake``: the index of the classic mistake recognised, ``"form:..."``
    for an answer of the wrong form (``"form:none"``: no answer yet), else ``None``."""
    ok: bool
    message: str
    mistake: int | str | None = None


def _no_answer(what: str, name: str | None = None) -> Verdict:
    if name is None:
        text = _("\u2717 {what}: no answer yet — write your answer where it says YOUR CODE "
                 "HERE and run that cell.")
    else:
        text = _("\u2717 {what}: no answer yet — {name} is not set yet: run the cell where "
                 "you write it (and the cells above it) first.")
    return Verdict(False, text.format(what=what, name=name), "form:none")


def judge(answer: Any, what: str, sealed: str, *, kind: str = "exact",
          length: int | None = None, choices=None) -> Verdict:
    """Check ``answer`` against a sealed question without revealing the right one:
    first its form (``kind``: ``"probability"``, ``"exact"``, ``"int"``, ``"text"`` or
    ``"choice"`` (with ``choices``), ``"probabilities"`` or ``"tuple"`` (with
    ``length``)), then one slow key derivation: right, a classic mistake (its hint
    decrypted), or wrong in no known way (the general hint)."""
    if _unanswered(answer):
        return _no_answer(what)
    problem = _form_problem(answer, kind, length, choices)
    if problem is not None:
        return Verdict(False, _("\u2717 {what} {problem}").format(what=what, problem=problem[1]),
                       problem[0])
    if not sealed:
        return Verdict(False, _("\u2717 {what}: this check is not sealed yet (for the "
                                "teacher: run python -m kingdoms.exercises seal).").format(
                                    what=what), "form:unsealed")
    s = _open(sealed)
    ident, key = _derive(answer, s.salt, s.iterations)
    if hmac.compare_digest(ident, s.right):
        return Verdict(True, _("\u2713 {what}: {answer} is right.").format(
            what=what, answer=show(answer)))
    wrong = _("\u2717 {what}: {answer} is not right.").format(what=what, answer=show(answer))
    for k, blob in enumerate(s.mistakes):
        hint = _decrypt(blob, key)
        if hint is not None:
            return Verdict(False, f"{wrong} {hint}", k)
    general = _decrypt(s.general, _general_key(s.salt))
    if general:
        wrong += " " + _("Hint: {hint}").format(hint=general)
    return Verdict(False, wrong)


_MISSING = object()


def _lookup(path: str, ns: Mapping[str, Any]) -> Any:
    """``name`` or ``name.attr.attr`` in the namespace ``ns``; ``_MISSING`` if unset."""
    first, *attrs = path.split(".")
    value = ns.get(first, _MISSING)
    for a in attrs:
        if value is _MISSING or a.startswith("_"):
            return _MISSING
        value = getattr(value, a, _MISSING)
    return value


def _report(verdict: Verdict, strict: bool) -> None:
    if strict and not verdict.ok:
        raise ExerciseFailure(verdict.message, verdict.mistake)
    print(verdict.message)


def check_answer(name: str, what: str, *, sealed: str = "", kind: str = "exact",
                 length: int | None = None, choices=None, strict: bool = False) -> None:
    """Check the answer called ``name`` (looked up where the check is called: the
    notebook) against a sealed question (``judge``) and print one line: ``✓`` if right,
    ``✗`` and a hint for the mistake made if not, "no answer yet" if the answer is not
    set.  Never raises for a wrong answer (Run All goes on), unless ``strict``.
    ``choices`` is a list, or the name of one in the notebook (``"players"``,
    ``"M.rows"``), looked up only once the answer is there."""
    if not isinstance(name, str) or not name.isidentifier():
        raise TypeError(_("check_answer takes the answer's name in quotes "
                          "(check_answer(\"p\", ...)), not {name}").format(name=repr(name)))
    ns = sys._getframe(1).f_globals
    answer = ns.get(name, _MISSING)
    if answer is _MISSING:
        return _report(_no_answer(what, name), strict)
    if isinstance(choices, str):
        resolved = _lookup(choices, ns)
        if resolved is _MISSING:
            return _report(_no_answer(what, choices.split(".")[0]), strict)
        choices = list(resolved)
    return _report(judge(answer, what, sealed, kind=kind, length=length, choices=choices), strict)


def check_simulation(estimate: Any, exact: Any, what: str, n: Any, *, min_n: int = 1000,
                     spread: float | None = None, strict: bool = False) -> None:
    """Check that a simulated ``estimate`` (a frequency or a mean over ``n`` runs) lies
    within 4 standard errors of the ``exact`` value (a probability unless the standard
    deviation of one run, ``spread``, is given).  ``estimate``, ``exact`` and ``n`` may
    be names in quotes, looked up in the notebook (an unset one: "no answer yet").
    Prints one line; raises ``ExerciseFailure`` instead only if ``strict``."""
    ns = sys._getframe(1).f_globals
    values = []
    labels = (N_("the estimate"), N_("the exact value"), "n")
    for label, x in zip(labels, (estimate, exact, n)):
        if isinstance(x, str):
            found = ns.get(x, _MISSING)
            if found is _MISSING:
                return _report(_no_answer(what, x), strict)
            x = found
        if _unanswered(x):
            return _report(Verdict(False, _("\u2717 {what}: no answer yet for {label} — run "
                                            "the cells above first.").format(
                                                what=what, label=_(label)), "form:none"), strict)
        values.append(x)
    estimate, exact, n = values
    if isinstance(n, bool) or not isinstance(n, int) or n < min_n:
        return _report(Verdict(False, _("\u2717 {what}: simulate at least {min_n} times "
                                        "(n = {n}).").format(what=what, min_n=min_n, n=show(n)),
                               "form:n"), strict)
    if isinstance(estimate, bool) or not isinstance(estimate, (int, float, Fraction)):
        return _report(Verdict(False, _("\u2717 {what}: the estimate should be a number, not "
                                        "a {type}.").format(what=what,
                                                            type=type(estimate).__name__),
                               "form:type"), strict)
    if isinstance(exact, bool) or not isinstance(exact, (int, float, Fraction)):
        return _report(Verdict(False, _("\u2717 {what}: the exact value should be a number, "
                                        "not a {type}.").format(what=what,
                                                                type=type(exact).__name__),
                               "form:type"), strict)
    p = float(exact)
    sd = spread if spread is not None else math.sqrt(max(p * (1 - p), 0.0))
    tolerance = 4 * sd / math.sqrt(n) + 1 / n
    exact_text = show(Fraction(exact)) if not isinstance(exact, float) else show(exact)
    if abs(float(estimate) - p) <= tolerance:
        return _report(Verdict(True, _("\u2713 {what}: {estimate} from {n} runs, {exact} "
                                       "exactly: within {tolerance}.").format(
            what=what, estimate=show(float(estimate)), n=n, exact=exact_text,
            tolerance=show(tolerance))), strict)
    _report(Verdict(False, _("\u2717 {what}: {estimate} from {n} runs is more than 4 standard "
                             "errors ({tolerance}) from the exact {exact}. Does the simulation "
                             "follow the same model (without replacement, the same "
                             "cards)?").format(what=what, estimate=show(float(estimate)), n=n,
                                               tolerance=show(tolerance), exact=exact_text)),
            strict)


def _same(answer: Any, expected: Any) -> bool:
    if isinstance(expected, Fraction) and isinstance(answer, float):
        return False  # an exact answer is asked for
    try:
        return answer == expected
    except Exception:
        return False


def check(answer: Any, expected: Any, what: str | None = None, hint: str = "") -> bool:
    """Compare ``answer`` with ``expected`` directly, for hidden tests and teachers' own
    checks (a student copy uses ``check_answer``, which hides the answer).

    Prints a short confirmation when right, raises ``ExerciseFailure`` with a helpful
    message when not (a hidden test must fail for nbgrader to count it).
    """
    if what is None:
        what = _("your answer")
    if _unanswered(answer):
        raise ExerciseFailure(_("{what}: no answer yet — replace the placeholder with your "
                                "code.").format(what=what), "form:none")
    if _same(answer, expected):
        print(_("\u2713 {what}: {answer} is right.").format(what=what, answer=show(answer)))
        return True
    msg = _("{what}: {answer} is not right.").format(what=what, answer=show(answer))
    if isinstance(expected, Fraction) and isinstance(answer, float):
        msg = _("{what} is a float ({answer}); give the exact value as a Fraction "
                "(from fractions import Fraction).").format(what=what, answer=show(answer))
    elif type(answer) is not type(expected) and not (
            isinstance(answer, (int, Fraction)) and isinstance(expected, (int, Fraction))):
        msg += " " + _("(Expected a {expected}, got a {got}.)").format(
            expected=type(expected).__name__, got=type(answer).__name__)
    if hint:
        msg += " " + _("Hint: {hint}").format(hint=hint)
    raise ExerciseFailure(msg)
# --------------------------------------------------------------------------- student versions
#
# ``make exercises`` turns the solution notebooks in ``exercises/`` into student
# versions without needing nbgrader: the same transformation as nbgrader's
# ClearSolutions + ClearHiddenTests + ClearOutput preprocessors.

import ast
import re

from pathlib import Path

#: What replaces a top-level solution region: no ``raise`` (nbgrader's own stub), so Run
#: All on a fresh student copy goes through and each check says "no answer yet".
CODE_STUB = "# YOUR CODE HERE"
#: Inside a function body a statement is needed: nbgrader's stub.
INDENTED_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
MARKDOWN_STUB = "YOUR ANSWER HERE"

_BEGIN_SOLUTION = re.compile(r"^(\s*)(?:#+|<!--)?\s*BEGIN SOLUTION\b")
_END_SOLUTION = re.compile(r"^\s*(?:#+|<!--)?\s*END SOLUTION\b")
_BEGIN_HIDDEN = re.compile(r"^\s*(?:#+|<!--)?\s*BEGIN HIDDEN TESTS\b")
_END_HIDDEN = re.compile(r"^\s*(?:#+|<!--)?\s*END HIDDEN TESTS\b")


class ExerciseFormatError(ValueError):
    """An exercise notebook that breaks the nbgrader conventions (e.g. a solution
    region with no end).  The message names the notebook and the cell."""


def _assigned(lines: list[str]) -> set[str]:
    """The names that top-level assignments in ``lines`` bind (empty if they do not parse)."""
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _placeholders(solution_lines: list[str], used: set[str] | None = None,
                  skip: set[str] = frozenset()) -> list[str]:
    """``name = NoAnswer("name")`` for each top-level name the solution assigns, and
    a stub ``def`` for each function it defines, so that a student's test cell fails
    with a friendly ``check`` message (or ``NotImplementedError``), not a
    ``NameError`` or ``TypeError``.  Names in ``skip`` (already given a placeholder
    before the region, e.g. ``answer = ...``) get none."""
    try:
        tree = ast.parse("\n".join(solution_lines))
    except SyntaxError:
        return []
    out: list[str] = []
    seen: set[str] = set()

    def wanted(name: str) -> bool:
        return name not in seen and (used is None or name in used) and name not in skip

    def add_name(target):
        if isinstance(target, ast.Name) and wanted(target.id):
            seen.add(target.id)
            out.append(f'{target.id} = NoAnswer("{target.id}")   # replace with your answer')
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                add_name(t)

    for node in tree.body:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                add_name(t)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            add_name(node.target)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and wanted(node.name):
            seen.add(node.name)
            out.append(f"def {node.name}(*args, **kwargs):   # replace with your function\n"
                       f"    return NoAnswer(\"{node.name}(...)\")")
    return out


def strip_solutions(source: str, cell_type: str = "code", where: str = "cell",
                    used: set[str] | None = None) -> str:
    """Replace every ``BEGIN SOLUTION``..``END SOLUTION`` region of ``source``.

    Code: ``# YOUR CODE HERE`` (inside a function, with ``raise NotImplementedError()``)
    at the region's indentation (at top level followed by ``name = NoAnswer("name")``
    placeholders for the names the solution defines, so later cells run politely;
    with ``used``, only for those names — the ones other cells refer to — so a
    solution's helper functions are not given away).  Markdown: ``YOUR ANSWER HERE``.
    """
    lines = source.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _BEGIN_SOLUTION.match(lines[i])
        if not m:
            if _END_SOLUTION.match(lines[i]):
                raise ExerciseFormatError(f"{where}: END SOLUTION without BEGIN SOLUTION "
                                          f"(line {i + 1})")
            out.append(lines[i])
            i += 1
            continue
        indent = m.group(1)
        j = i + 1
        while j < len(lines) and not _END_SOLUTION.match(lines[j]):
            if _BEGIN_SOLUTION.match(lines[j]):
                raise ExerciseFormatError(f"{where}: BEGIN SOLUTION inside a solution region "
                                          f"(line {j + 1})")
            j += 1
        if j == len(lines):
            raise ExerciseFormatError(f"{where}: BEGIN SOLUTION (line {i + 1}) has no "
                                      "END SOLUTION")
        if cell_type == "code":
            stub = (INDENTED_STUB if indent else CODE_STUB).splitlines()
            if not indent:
                holders = [p for ph in _placeholders(lines[i + 1:j], used, _assigned(out))
                           for p in ph.splitlines()]
                if any("NoAnswer(" in h for h in holders):
                    holders.insert(0, "from kingdoms.exercises import NoAnswer")
                stub[1:] = holders
            out.extend(indent + s if s.strip() else s for s in stub)
        else:
            out.append(indent + MARKDOWN_STUB)
        i = j + 1
    return "\n".join(out)


def strip_hidden_tests(source: str, where: str = "cell") -> str:
    """Remove every ``BEGIN HIDDEN TESTS``..``END HIDDEN TESTS`` region (markers too)."""
    lines = source.splitlines()
    out: list[str] = []
    hidden_from = None
    for k, line in enumerate(lines):
        if hidden_from is None:
            if _BEGIN_HIDDEN.match(line):
                hidden_from = k
            elif _END_HIDDEN.match(line):
                raise ExerciseFormatError(f"{where}: END HIDDEN TESTS without BEGIN "
                                          f"(line {k + 1})")
            else:
                out.append(line)
        elif _END_HIDDEN.match(line):
            hidden_from = None
    if hidden_from is not None:
        raise ExerciseFormatError(f"{where}: BEGIN HIDDEN TESTS (line {hidden_from + 1}) "
                                  "has no END HIDDEN TESTS")
    return "\n".join(out)


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _source(cell) -> str:
    return cell.source if isinstance(cell.source, str) else "".join(cell.source)


def _nbgrader(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _visible(cell, where: str) -> str:
    """What a student sees of a code cell: no solution regions, no hidden tests."""
    lines, inside = [], False
    for line in strip_hidden_tests(_source(cell), where).splitlines():
        if _BEGIN_SOLUTION.match(line):
            inside = True
        elif _END_SOLUTION.match(line):
            inside = False
        elif not inside:
            lines.append(line)
    return "\n".join(lines)


def _names_used(source: str) -> set[str]:
    """The names a code cell refers to (not words inside its strings); every identifier
    if the cell does not parse (IPython magics)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set(_IDENTIFIER.findall(source))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def student_version(nb, name: str = "notebook"):
    """The student version of an exercise notebook (an ``nbformat`` node; the input
    is not changed): solutions and hidden tests stripped, outputs cleared, nbgrader
    metadata kept."""
    import copy
    nb = copy.deepcopy(nb)
    names = [_names_used(_visible(c, f"{name}, cell {k}"))
             if c.cell_type == "code" else set() for k, c in enumerate(nb.cells)]
    for k, cell in enumerate(nb.cells):
        used = set().union(*(n for i, n in enumerate(names) if i != k))
        where = f"{name}, cell {k}"
        meta = _nbgrader(cell)
        src = _source(cell)
        has_region = any(_BEGIN_SOLUTION.match(line) for line in src.splitlines())
        if meta.get("solution"):
            if has_region:
                src = strip_solutions(src, cell.cell_type, where, used)
            else:   # nbgrader: a solution cell without markers is replaced entirely
                src = CODE_STUB if cell.cell_type == "code" else MARKDOWN_STUB
        elif has_region:
            raise ExerciseFormatError(
                f"{where}: a BEGIN SOLUTION region in a cell whose nbgrader metadata is "
                'not "solution": true (nbgrader would refuse it too)')
        if any(_BEGIN_HIDDEN.match(line) for line in src.splitlines()):
            if not meta.get("grade"):
                raise ExerciseFormatError(f"{where}: hidden tests belong in a test cell "
                                          '(nbgrader metadata "grade": true)')
            src = strip_hidden_tests(src, where)
        cell.source = src
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    return nb


def make_student_versions(src_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write the student version of every ``src_dir/**/*.ipynb`` into ``out_dir``,
    keeping the subfolders.  Returns the paths written."""
    import nbformat
    src_dir, out_dir = Path(src_dir), Path(out_dir)
    if not src_dir.is_dir():
        raise FileNotFoundError(f"no exercises folder {src_dir}")
    if out_dir.resolve() == src_dir.resolve() or src_dir.resolve() in out_dir.resolve().parents:
        raise ValueError("the student versions must go outside the exercises folder")
    written = []
    for path in sorted(src_dir.rglob("*.ipynb")):
        rel = path.relative_to(src_dir)
        if any(part.startswith(".") for part in rel.parts):   # .ipynb_checkpoints
            continue
        nb = nbformat.read(path, as_version=4)
        student = student_version(nb, name=str(path))
        target = out_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(student, target)
        written.append(target)
    return written


_MISTAKE_LINE = re.compile(r"^# mistake: (\w+) = (.+)$", re.M)
_HIDDEN_REGION = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)



# --------------------------------------------------------------------------- the teacher's side
#
# In a test cell's hidden tests:
#   # hint: NAME: the hint for any other wrong answer (continued on "#     " lines)
#   # mistake: NAME = EXPRESSION      (a classic wrong answer, run in the notebook)
#   #     its hint (continued on more "#     " lines; none for a mistake of the wrong form)

_HINT_LINE = re.compile(r"^#\s*hint:\s*(\w+):\s*(.*)$")
_MISTAKE_LINE = re.compile(r"^#\s*mistake:\s*(\w+)\s*=\s*(.+)$")
_MORE_LINE = re.compile(r"^#\s{2,}(\S.*)$")


@dataclass
class _Entry:
    name: str
    expression: str | None      # None: the general hint
    text: str = ""


def _hidden_regions(source: str) -> list[str]:
    out, inside = [], None
    for line in source.splitlines():
        if inside is None and _BEGIN_HIDDEN.match(line):
            inside = []
        elif inside is not None and _END_HIDDEN.match(line):
            out.append("\n".join(inside))
            inside = None
        elif inside is not None:
            inside.append(line)
    return out


def _teacher_entries(source: str) -> list[_Entry]:
    """The ``# hint:`` and ``# mistake:`` entries of a cell's hidden tests."""
    entries: list[_Entry] = []
    for region in _hidden_regions(source):
        current = None
        for line in region.splitlines():
            line = line.rstrip()
            if m := _HINT_LINE.match(line):
                current = _Entry(m.group(1), None, m.group(2).strip())
                entries.append(current)
            elif m := _MISTAKE_LINE.match(line):
                current = _Entry(m.group(1), m.group(2).strip())
                entries.append(current)
            elif current is not None and (m := _MORE_LINE.match(line)):
                current.text = f"{current.text} {m.group(1).strip()}".strip()
            else:
                current = None
    return entries


def _check_calls(tree: ast.AST, before_line: int) -> list[ast.Call]:
    """The top-level ``check_answer(...)`` statements above line ``before_line``."""
    calls = []
    for stmt in getattr(tree, "body", []):
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
                getattr(stmt.value.func, "id", None) == "check_answer" and \
                stmt.lineno < before_line:
            calls.append(stmt.value)
    return calls


def _literal(text: str) -> str:
    """A Python string literal, double-quoted, non-ASCII kept."""
    import json
    return json.dumps(text, ensure_ascii=False)


def _format_call(name: str, what: str, options: list[str], sealed: str) -> str:
    head = f"check_answer({_literal(name)}, {_literal(what)}, " + ", ".join(options) + ","
    pad = " " * len("check_answer(")
    chunks = [sealed[i:i + 72] for i in range(0, len(sealed), 72)] or [""]
    lines = [head, pad + "sealed=" + _literal(chunks[0])]
    lines += [pad + " " * len("sealed=") + _literal(c) for c in chunks[1:]]
    return "\n".join(lines) + ")"


class _Quiet:
    """Run teacher code with its printing swallowed."""

    def __enter__(self):
        import contextlib
        import io
        self._cm = contextlib.redirect_stdout(io.StringIO())
        return self._cm.__enter__()

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


def _salt_of(grade_id: str, name: str) -> str:
    return f"{grade_id}-{name}".replace("_", "-")


def _mistake_values(name, right, entries, ns, form, where) -> list[tuple]:
    """``[(value, hint)]`` of the ``# mistake:`` lines of ``name``: each expression run
    in a copy of the teacher copy's namespace ``ns``; ``form = (kind, length,
    choices)`` of the check.  Refuses a mistake that raises, that the form check
    already catches while it has a hint, that has no hint, that is right, or that gives
    the value of another mistake with another hint."""
    mistakes = []
    for e in entries:
        if e.name != name or e.expression is None:
            continue
        trial = dict(ns)
        try:
            with _Quiet():
                exec(compile(f"{name} = {e.expression}", f"<{where}: mistake>", "exec"), trial)
        except Exception as err:
            raise ExerciseFormatError(f"{where}: the mistake {name} = {e.expression} "
                                      f"raises {type(err).__name__}: {err}") from err
        value = trial[name]
        caught = _form_problem(value, *form) is not None
        if caught and e.text:
            raise ExerciseFormatError(f"{where}: the mistake {name} = {e.expression} is "
                                      "caught by the form check: its hint would never show")
        if caught:
            continue
        if not e.text:
            raise ExerciseFormatError(f"{where}: the mistake {name} = {e.expression} "
                                      "has no hint (write it on '#     ' lines below)")
        if _canonical(value) == _canonical(right):
            raise ExerciseFormatError(f"{where}: the mistake {name} = {e.expression} "
                                      f"gives the right answer {show(right)}")
        mistakes.append((value, e.text))
    values = [_canonical(v) for v, _ in mistakes]
    for i, v in enumerate(values):
        for j in range(i):
            if v == values[j] and mistakes[i][1] != mistakes[j][1]:
                raise ExerciseFormatError(f"{where}: two mistakes of {name} give the "
                                          "same value with different hints")
    return mistakes


def _sealed_call(call, src, lines, ns, entries, where, grade_id, iterations):
    """One ``check_answer`` call of a graded cell sealed anew: ``(report line, new text
    of the call, or None if it is up to date)``."""
    if len(call.args) != 2 or not all(isinstance(a, ast.Constant) and
                                      isinstance(a.value, str) for a in call.args):
        raise ExerciseFormatError(f"{where}: write check_answer(\"name\", \"what\", "
                                  "kind=..., sealed=...)")
    name, what = call.args[0].value, call.args[1].value
    kw = {x.arg: x.value for x in call.keywords}
    kind = ast.literal_eval(kw["kind"]) if "kind" in kw else "exact"
    length = ast.literal_eval(kw["length"]) if "length" in kw else None
    choices = None
    if "choices" in kw:
        choices = ast.literal_eval(kw["choices"])
        if isinstance(choices, str):
            choices = _lookup(choices, ns)
    if name not in ns:
        raise ExerciseFormatError(f"{where}: the solution does not set {name}")
    right = ns[name]
    if _form_problem(right, kind, length, choices):
        raise ExerciseFormatError(f"{where}: the right answer {name} = {show(right)} "
                                  f"fails the form check of kind={kind!r}")
    general = " ".join(e.text for e in entries if e.name == name and not e.expression)
    mistakes = _mistake_values(name, right, entries, ns, (kind, length, choices), where)
    sealed = seal_answer(_salt_of(grade_id, name), right, mistakes, general, iterations)
    old = ast.literal_eval(kw["sealed"]) if "sealed" in kw else ""
    options = [f"{x.arg}={ast.get_source_segment(src, x.value)}"
               for x in call.keywords if x.arg not in ("sealed",)]
    text = _format_call(name, what, options, sealed)
    current = "\n".join(lines[call.lineno - 1:call.end_lineno])
    state = "ok" if old == sealed and current == text else "stale"
    line = f"{name}: {len(mistakes)} mistake hint(s) sealed: {state}"
    return line, (None if current == text else text)


def _sealed_cell(cell, src, ns, where, grade_id, iterations):
    """A graded cell sealed anew: ``(report lines, new source or None)``."""
    tree = ast.parse(src)
    lines = src.splitlines()
    hidden_at = next((i + 1 for i, line in enumerate(lines) if _BEGIN_HIDDEN.match(line)),
                     len(lines) + 1)
    calls = _check_calls(tree, hidden_at)
    entries = _teacher_entries(src)
    names = {c.args[0].value for c in calls if c.args and isinstance(c.args[0], ast.Constant)}
    for e in entries:
        if e.name not in names:
            raise ExerciseFormatError(f"{where}: '# {'mistake' if e.expression else 'hint'}: "
                                      f"{e.name} ...' but no check_answer({e.name!r}, ...) "
                                      "above the hidden tests")
    report, replacements = [], []
    for call in calls:
        line, text = _sealed_call(call, src, lines, ns, entries, where, grade_id, iterations)
        report.append(line)
        if text is not None:
            replacements.append(((call.lineno, call.end_lineno), text))
    if not replacements:
        return report, None
    for (first, last), text in sorted(replacements, reverse=True):
        lines[first - 1:last] = text.split("\n")
    return report, "\n".join(lines)


def seal_notebook(path: str | Path, write: bool = True,
                  iterations: int = ITERATIONS) -> tuple[list[str], bool]:
    """Run a teacher copy in this process and (re)write the ``sealed=`` string of every
    ``check_answer`` from the right answer and the ``# hint:`` / ``# mistake:`` lines
    of its hidden tests.  Returns ``(report lines, changed)``; raises
    ``ExerciseFormatError`` for a problem the teacher must fix (a hidden test that
    fails, a mistake that is right, a mistake without a hint that the form check does
    not catch, ...).  With ``write=False`` nothing is written (``--check``)."""
    import nbformat
    from kingdoms.core import i18n
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    before = i18n._default      # the kernel's language (not a using() block's)
    try:    # a German teacher copy sets kingdoms.set_language("de"): not for the next one
        report, changed = _seal_cells(nb, path, iterations)
    finally:
        i18n.set_language(before)
    if changed and write:
        nbformat.write(nb, path)
    return report, changed


def _seal_cells(nb, path: Path, iterations: int) -> tuple[list[str], bool]:
    ns: dict = {"__name__": "__main__"}
    report: list[str] = []
    changed = False
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        where = f"{path}, cell {k}"
        src = _source(cell)
        try:
            with _Quiet():
                exec(compile(src, f"<{path.name}, cell {k}>", "exec"), ns)
        except Exception as e:
            raise ExerciseFormatError(f"{where}: the teacher copy raises {type(e).__name__}: "
                                      f"{e} (a hidden test that fails, or a bug)") from e
        if not _nbgrader(cell).get("grade"):
            continue
        grade_id = _nbgrader(cell).get("grade_id", path.stem)
        lines, source = _sealed_cell(cell, src, ns, where, grade_id, iterations)
        report += [f"cell {k}: {line}" for line in lines]
        if source is not None:
            changed = True
            cell.source = source
    return report, changed


def _notebooks(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(q for q in p.rglob("*.ipynb")
                          if not any(part.startswith(".") for part in q.relative_to(p).parts))
        elif p.is_file():
            out.append(p)
        else:
            raise FileNotFoundError(f"no notebook or folder {p}")
    return out


_SECRET_MIN = 16     # shorter lines ("n = 2000", "return value") are not secrets


def teacher_secrets(path: str | Path) -> list[str]:
    """The readable texts of a teacher copy that no student file may contain: every
    hint (general and per mistake, whole and line by line), and every line of the
    solution regions and hidden tests of at least 16 characters that is not an import
    and does not appear in the student copy itself (given code repeated in a solution)."""
    import nbformat
    nb = nbformat.read(path, as_version=4)
    student = student_version(nb, name=str(path))
    visible = {line.strip() for c in student.cells for line in _source(c).splitlines()}
    secrets: list[str] = []

    def add(text: str):
        text = text.strip()
        if len(text) >= _SECRET_MIN and text not in visible and text not in secrets:
            secrets.append(text)

    for cell in nb.cells:
        src = _source(cell)
        for entry in _teacher_entries(src):
            add(entry.text)
        regions = _hidden_regions(src)
        inside = False
        for line in src.splitlines():
            if _BEGIN_SOLUTION.match(line):
                inside = True
            elif _END_SOLUTION.match(line):
                inside = False
            elif inside:
                regions.append(line)
        for region in regions:
            for line in region.splitlines():
                s = line.strip()
                if s.startswith(("import ", "from ")) or _BEGIN_HIDDEN.match(s) or \
                        _END_HIDDEN.match(s):
                    continue
                if m := _MORE_LINE.match(s):
                    add(m.group(1))
                add(s)
    return secrets


def main(argv: list[str] | None = None) -> int:
    """``python -m kingdoms.exercises seal PATH...`` (``--check``) or
    ``python -m kingdoms.exercises student SRC_DIR OUT_DIR``"""
    import argparse
    parser = argparse.ArgumentParser(
        prog="python -m kingdoms.exercises",
        description="Seal the self-checks of nbgrader-style exercise notebooks and make "
                    "their student versions.")
    sub = parser.add_subparsers(dest="command", required=True)
    se = sub.add_parser("seal", help="(re)write each check's sealed= string from the teacher "
                                     "copy's answers and '# hint:' / '# mistake:' lines "
                                     "(runs the notebooks' code)")
    se.add_argument("paths", nargs="+", help="teacher copies or folders of them, e.g. "
                                             "exercises/source")
    se.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a sealed string is out of date")
    st = sub.add_parser("student", help="strip solutions and hidden tests, clear outputs")
    st.add_argument("src_dir", help="the exercises folder (teacher copies)")
    st.add_argument("out_dir", help="where the student versions go (subfolders kept)")
    args = parser.parse_args(argv)
    if args.command == "seal":
        stale = False
        try:
            for nb in _notebooks(args.paths):
                report, changed = seal_notebook(nb, write=not args.check)
                stale |= changed
                word = ("out of date" if args.check else "resealed") if changed else "up to date"
                print(f"{nb}: {len(report)} checks, {word}")
                if args.check and changed:
                    print("\n".join("  " + line for line in report if line.endswith("stale")))
        except (ExerciseFormatError, FileNotFoundError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        return 1 if (args.check and stale) else 0
    try:
        written = make_student_versions(args.src_dir, args.out_dir)
    except (ExerciseFormatError, FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for p in written:
        print(f"wrote {p}")
    print(f"{len(written)} student notebooks in {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
