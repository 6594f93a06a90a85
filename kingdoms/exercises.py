"""Classroom exercises: friendly checks for students.

Exercise notebooks follow nbgrader's course layout: the teacher copies (solutions and
hidden tests in place) are ``exercises/source/<game>/<name>.ipynb``, one nbgrader
assignment per game; the student copies are ``exercises/release/<game>/<name>.ipynb``
(``make exercises``).  Solution regions lie between ``### BEGIN SOLUTION`` and
``### END SOLUTION``, hidden tests between ``### BEGIN HIDDEN TESTS`` and
``### END HIDDEN TESTS``, with nbgrader cell metadata.

The visible test cells never contain the answer: ``check_answer`` checks the *form*
of an answer (an exact Fraction, between 0 and 1, the right length ...) and compares a
salted digest of it with the digest stored in the cell (``digest``), so reading the
cell does not reveal the answer.  Classic wrong answers are listed by digest too, each
with a hint for that mistake.  A failed check raises ``ExerciseFailure``: an
``AssertionError`` (nbgrader counts the cell as failed) that IPython shows as one short
line, without a traceback.  The hidden tests (stripped from the student copy) check the
exact value.

``python -m kingdoms.exercises student exercises/source exercises/release`` writes the
student copies (solutions replaced by ``# YOUR CODE HERE`` /
``raise NotImplementedError()``, hidden tests removed, outputs cleared, nbgrader
metadata kept) without needing nbgrader.  ``python -m kingdoms.exercises digests
TEACHER_NOTEBOOK`` checks a teacher copy's digests after a question or the data changed.
"""
from __future__ import annotations

import hashlib
import math
from fractions import Fraction
from typing import Any, Mapping

__all__ = ["check", "check_answer", "check_simulation", "digest", "show", "ExerciseFailure",
           "NoAnswer", "ExerciseFormatError", "student_version", "make_student_versions",
           "strip_solutions", "strip_hidden_tests"]


class ExerciseFailure(AssertionError):
    """A check that did not pass; the message explains what to look at.

    IPython shows it as its message alone (``_render_traceback_``): a student sees one
    short line, not a traceback, and the cell still counts as failed.  ``mistake`` is
    the digest of the classic mistake recognised (or ``"form:..."`` for an answer of the
    wrong form), ``None`` if the answer is wrong in no known way."""

    def __init__(self, message: str, mistake: str | None = None):
        super().__init__(message)
        self.mistake = mistake

    def _render_traceback_(self):
        return [f"\u2717 {self.args[0]}"]


class NoAnswer:
    """The placeholder a student version puts where a solution was (``answer =
    NoAnswer("answer")``).  Any use of it — iterating, indexing, comparing,
    arithmetic, calling — raises ``NotImplementedError`` naming the missing answer,
    and ``check`` reports it as "no answer yet", so an unanswered exercise fails
    politely in its test cell instead of with a ``TypeError`` or ``NameError``."""

    __slots__ = ("name",)

    def __init__(self, name: str = "answer"):
        object.__setattr__(self, "name", name)

    def _missing(self, *args, **kwargs):
        raise NotImplementedError(f"{self.name}: no answer yet — write your code where "
                                  "it says YOUR CODE HERE and run that cell.")

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._missing()

    def __repr__(self):
        return f"<no answer yet for {self.name}>"

    __str__ = __repr__
    __iter__ = __len__ = __getitem__ = __contains__ = __call__ = __hash__ = _missing
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _missing
    __bool__ = __float__ = __int__ = __index__ = __neg__ = __abs__ = _missing
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _missing
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __pow__ = __rpow__ = _missing
    __mod__ = __rmod__ = __and__ = __rand__ = __or__ = __ror__ = _missing


def _unanswered(x: Any) -> bool:
    return x is None or x is Ellipsis or isinstance(x, NoAnswer)


def show(x: Any) -> str:
    """A value as a person reads it: ``31/34 ≈ 0.912`` for a Fraction, ``0.912`` for a
    float, tuples and lists element by element, anything else as ``str``."""
    if isinstance(x, NoAnswer):
        return repr(x)
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return str(x.numerator)
        return f"{x.numerator}/{x.denominator} \u2248 {float(x):.3f}"
    if isinstance(x, float):
        return f"{x:.3f}" if abs(x) >= 0.0005 or x == 0 else f"{x:.6f}"
    if isinstance(x, (tuple, list)):
        inner = ", ".join(show(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if isinstance(x, Mapping):
        return ", ".join(f"{show(k)}: {show(v)}" for k, v in x.items())
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
    return "O" + str(x)


def digest(value: Any, salt: str) -> str:
    """``"salt:hex"``: a salted SHA-256 digest of ``value`` (first 16 hex digits).

    Equal exact numbers (``3`` and ``Fraction(3)``) and texts differing only in case or
    spacing share a digest; a float never shares one with a Fraction.  The salt (one per
    question) keeps a table of digests of likely numbers from revealing answers."""
    if ":" in salt:
        raise ValueError("a salt may not contain ':'")
    h = hashlib.sha256(f"{salt}:{_canonical(value)}".encode()).hexdigest()[:16]
    return f"{salt}:{h}"


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
    if kind in ("probability", "exact", "probabilities", "tuple") and _has_float(answer):
        return ("form:float", "is a float (a rounded decimal); give the exact value as a "
                "Fraction, e.g. Fraction(3, 7) or 1 - Fraction(2, 9) (from fractions import "
                "Fraction).")
    exact = (int, Fraction)
    if kind in ("probability", "exact"):
        if isinstance(answer, bool) or not isinstance(answer, exact):
            return ("form:type", f"should be an exact number (a Fraction or a whole number), "
                    f"not a {type(answer).__name__}.")
        if kind == "probability" and not 0 <= answer <= 1:
            return ("form:range", "is not between 0 and 1, so it cannot be a probability.")
    elif kind == "int":
        if isinstance(answer, bool) or not isinstance(answer, exact) or \
                Fraction(answer).denominator != 1:
            return ("form:type", f"should be a whole number, not {show(answer)}.")
    elif kind == "text":
        if not isinstance(answer, str):
            return ("form:type", f"should be a text (a str in quotes), not a "
                    f"{type(answer).__name__}.")
        if choices is not None and " ".join(answer.split()).lower() not in \
                {" ".join(str(c).split()).lower() for c in choices}:
            return ("form:choice", "should be one of: " + ", ".join(map(str, choices)) + ".")
    elif kind == "choice":
        try:
            ok = any(answer == c for c in choices)
        except Exception:
            ok = False
        if not ok:
            return ("form:choice", "should be one of: " + "; ".join(map(str, choices)) + ".")
    elif kind in ("probabilities", "tuple"):
        if not isinstance(answer, (tuple, list)):
            return ("form:type", f"should be a tuple, not a {type(answer).__name__}.")
        if length is not None and len(answer) != length:
            return ("form:length", f"should have {length} entries, not {len(answer)}.")
        if kind == "probabilities":
            if not all(isinstance(v, exact) and not isinstance(v, bool) for v in answer):
                return ("form:type", "should hold exact numbers (Fractions).")
            if not all(0 <= v <= 1 for v in answer) or sum(answer) != 1:
                return ("form:sum", "should hold probabilities (each between 0 and 1) that "
                        "add up to 1.")
    else:
        raise ValueError(f"unknown kind {kind!r}; use one of {', '.join(_KINDS)}")
    if length is not None and kind not in ("probabilities", "tuple"):
        raise ValueError("length= only goes with kind='tuple' or 'probabilities'")
    return None


def check_answer(answer: Any, what: str, expected: str, *, kind: str = "exact",
                 mistakes: Mapping[str, str] | None = None, hint: str = "",
                 length: int | None = None, choices=None) -> None:
    """Check a student's ``answer`` without revealing the right one.

    ``expected`` is ``digest(right answer, salt)`` (``"salt:hex"``).  First the form is
    checked (``kind``: ``"probability"``, ``"exact"``, ``"int"``, ``"text"`` or
    ``"choice"`` (with ``choices``), ``"probabilities"`` or ``"tuple"`` (with ``length``)); then the digest.
    ``mistakes`` maps digests of classic wrong answers to a hint for that mistake; any
    other wrong answer gets ``hint``.  Prints one line when right (and returns ``None``,
    so a test cell shows no stray ``True``); raises
    ``ExerciseFailure`` (one short line in a notebook, no traceback) when not.
    """
    if _unanswered(answer):
        raise ExerciseFailure(f"{what}: no answer yet — write your answer where it says "
                              "YOUR CODE HERE and run that cell first.", "form:none")
    salt = expected.split(":", 1)[0]
    problem = _form_problem(answer, kind, length, choices)
    if problem is not None:
        key, message = problem
        raise ExerciseFailure(f"{what} {message}", key)
    got = digest(answer, salt)
    if got == expected:
        print(f"\u2713 {what}: {show(answer)} is right.")
        return
    mistakes = dict(mistakes or {})
    if got in mistakes:
        raise ExerciseFailure(f"{what}: {show(answer)} is not right. {mistakes[got]}", got)
    message = f"{what}: {show(answer)} is not right."
    if hint:
        message += f" Hint: {hint}"
    raise ExerciseFailure(message)


def check_simulation(estimate: Any, exact: Any, what: str, n: Any, *, min_n: int = 1000,
                     spread: float | None = None) -> None:
    """Check that a simulated ``estimate`` (a frequency or a mean over ``n`` runs) lies
    within 4 standard errors of the ``exact`` value (a probability unless the standard
    deviation of one run, ``spread``, is given)."""
    for name, x in (("the estimate", estimate), ("the exact value", exact), ("n", n)):
        if _unanswered(x):
            raise ExerciseFailure(f"{what}: no answer yet for {name} — run the cells above "
                                  "first.", "form:none")
    if isinstance(n, bool) or not isinstance(n, int) or n < min_n:
        raise ExerciseFailure(f"{what}: simulate at least {min_n} times (n = {show(n)}).",
                              "form:n")
    if isinstance(estimate, bool) or not isinstance(estimate, (int, float, Fraction)):
        raise ExerciseFailure(f"{what}: the estimate should be a number, not a "
                              f"{type(estimate).__name__}.", "form:type")
    p = float(exact)
    sd = spread if spread is not None else math.sqrt(max(p * (1 - p), 0.0))
    tolerance = 4 * sd / math.sqrt(n) + 1 / n
    if abs(float(estimate) - p) <= tolerance:
        print(f"\u2713 {what}: {show(float(estimate))} from {n} runs, "
              f"{show(Fraction(exact))} exactly: within {show(tolerance)}.")
        return
    raise ExerciseFailure(f"{what}: {show(float(estimate))} from {n} runs is more than "
                          f"4 standard errors ({show(tolerance)}) from the exact "
                          f"{show(Fraction(exact))}. Does the simulation follow the same "
                          "model (without replacement, the same cards)?")


def _same(answer: Any, expected: Any) -> bool:
    if isinstance(expected, Fraction) and isinstance(answer, float):
        return False  # an exact answer is asked for
    try:
        return answer == expected
    except Exception:
        return False


def check(answer: Any, expected: Any, what: str = "your answer", hint: str = "") -> bool:
    """Compare ``answer`` with ``expected`` directly (for hidden tests and teachers'
    own checks: the student copy uses ``check_answer``, which hides the answer).

    Prints a short confirmation when right, raises ``ExerciseFailure`` with a helpful
    message when not.
    """
    if _unanswered(answer):
        raise ExerciseFailure(f"{what}: no answer yet — replace the placeholder with your code.",
                              "form:none")
    if _same(answer, expected):
        print(f"\u2713 {what}: {show(answer)} is right.")
        return True
    msg = f"{what}: {show(answer)} is not right."
    if isinstance(expected, Fraction) and isinstance(answer, float):
        msg = (f"{what} is a float ({show(answer)}); give the exact value as a Fraction "
               f"(from fractions import Fraction).")
    elif type(answer) is not type(expected) and not (
            isinstance(answer, (int, Fraction)) and isinstance(expected, (int, Fraction))):
        msg += f" (Expected a {type(expected).__name__}, got a {type(answer).__name__}.)"
    if hint:
        msg += f" Hint: {hint}"
    raise ExerciseFailure(msg)


# --------------------------------------------------------------------------- student versions
#
# ``make exercises`` turns the solution notebooks in ``exercises/`` into student
# versions without needing nbgrader: the same transformation as nbgrader's
# ClearSolutions + ClearHiddenTests + ClearOutput preprocessors.

import ast
import re
import sys
from pathlib import Path

CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
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
            out.append(f"def {node.name}(*args, **kwargs):\n    raise NotImplementedError()")
    return out


def strip_solutions(source: str, cell_type: str = "code", where: str = "cell",
                    used: set[str] | None = None) -> str:
    """Replace every ``BEGIN SOLUTION``..``END SOLUTION`` region of ``source``.

    Code: ``# YOUR CODE HERE`` / ``raise NotImplementedError()`` at the region's
    indentation (at top level with ``name = NoAnswer("name")`` placeholders between
    the two for the names the solution defines, so the test cell fails politely;
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
            stub = CODE_STUB.splitlines()
            if not indent:
                holders = [p for ph in _placeholders(lines[i + 1:j], used, _assigned(out))
                           for p in ph.splitlines()]
                if any("NoAnswer(" in h for h in holders):
                    holders.insert(0, "from kingdoms.exercises import NoAnswer")
                stub[1:1] = holders
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


def digest_report(path: str | Path) -> list[str]:
    """Run a teacher copy in this process and compare each ``check_answer`` digest with
    the teacher's answer, and each ``# mistake: name = expression`` line of the hidden
    tests with the digests listed.  One line per answer and mistake, ``ok`` or what to
    write instead: for a teacher who changed a question or a game's data."""
    import contextlib
    import io
    import nbformat
    nb = nbformat.read(path, as_version=4)
    ns: dict = {"__name__": "__main__"}
    lines: list[str] = []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(cell.source, f"<cell {k}>", "exec"), ns)
            except AssertionError as e:  # a stale digest (reported below) or a hidden test
                if not isinstance(e, ExerciseFailure):
                    lines.append(f"cell {k}: a hidden test fails: the solution and the library "
                                 "disagree")
                for hidden in _HIDDEN_REGION.findall(cell.source):   # run the hidden tests'
                    for stmt in ast.parse(hidden).body:            # helpers all the same
                        try:
                            exec(compile(ast.Module([stmt], []), f"<cell {k}>", "exec"), ns)
                        except AssertionError:
                            pass
        tree = ast.parse(strip_hidden_tests(cell.source))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and getattr(n.func, "id", None) == "check_answer"
                 and isinstance(n.args[0], ast.Name) and len(n.args) >= 3]
        mistakes = _MISTAKE_LINE.findall(cell.source)
        for call in calls:
            name = call.args[0].id
            stored = ast.literal_eval(call.args[2])
            salt = stored.split(":", 1)[0]
            right = digest(ns[name], salt)
            lines.append(f"cell {k}: {name} = {show(ns[name])}: "
                         + ("ok" if right == stored else f"stale, write {right!r}"))
            listed = {}
            for kw in call.keywords:
                if kw.arg == "mistakes":
                    listed = ast.literal_eval(kw.value)
            for var, expr in mistakes:
                if var != name:
                    continue
                value = eval(expr, dict(ns))
                if _has_float(value):
                    continue    # the form check catches it
                d = digest(value, salt)
                lines.append(f"cell {k}:   mistake {expr}: "
                             + ("listed" if d in listed else f"not listed, its digest is {d!r}"))
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m kingdoms.exercises student SRC_DIR OUT_DIR`` or
    ``python -m kingdoms.exercises digests TEACHER_NOTEBOOK``"""
    import argparse
    parser = argparse.ArgumentParser(
        prog="python -m kingdoms.exercises",
        description="Make student versions of nbgrader-style exercise notebooks.")
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser("student", help="strip solutions and hidden tests, clear outputs")
    st.add_argument("src_dir", help="the exercises folder (solution notebooks)")
    st.add_argument("out_dir", help="where the student versions go (subfolders kept)")
    dg = sub.add_parser("digests", help="check a teacher copy's answer and mistake digests "
                                        "(runs the notebook's code)")
    dg.add_argument("notebook", help="a teacher copy, e.g. exercises/source/woods/opponent_fool.ipynb")
    args = parser.parse_args(argv)
    if args.command == "digests":
        report = digest_report(args.notebook)
        print("\n".join(report))
        return 0 if all(line.endswith(("ok", "listed")) for line in report) else 1
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
