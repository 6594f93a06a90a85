"""Classroom exercises: friendly checks for students.

Exercise notebooks live in ``exercises/`` and follow nbgrader's conventions (solution
regions between ``### BEGIN SOLUTION`` and ``### END SOLUTION``, hidden tests between
``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``, nbgrader cell metadata).
Their test cells call ``check`` so a student sees what went wrong, not a bare
``AssertionError``.

``python -m kingdoms.exercises student exercises build/student-exercises`` writes the
student versions (solutions replaced by ``# YOUR CODE HERE`` /
``raise NotImplementedError()``, hidden tests removed, outputs cleared, nbgrader
metadata kept) without needing nbgrader.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["check", "ExerciseFailure", "NoAnswer", "ExerciseFormatError", "student_version",
           "make_student_versions", "strip_solutions", "strip_hidden_tests"]


class ExerciseFailure(AssertionError):
    """A check that did not pass; the message explains what to look at."""


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


def _same(answer: Any, expected: Any) -> bool:
    if isinstance(expected, Fraction) and isinstance(answer, float):
        return False  # an exact answer is asked for
    try:
        return answer == expected
    except Exception:
        return False


def check(answer: Any, expected: Any, what: str = "your answer", hint: str = "") -> bool:
    """Compare a student's ``answer`` with ``expected``; explain any difference.

    Prints a short confirmation when right, raises ``ExerciseFailure`` (an
    ``AssertionError``, so nbgrader counts it) with a helpful message when not.
    """
    if answer is None or answer is Ellipsis or isinstance(answer, NoAnswer):
        raise ExerciseFailure(f"{what}: no answer yet — replace the placeholder with your code.")
    if _same(answer, expected):
        print(f"✓ {what} is right: {answer}")
        return True
    msg = f"{what} is {answer!r}, which is not right."
    if isinstance(expected, Fraction) and isinstance(answer, float):
        msg = (f"{what} is the float {answer!r}; give the exact value as a Fraction "
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


def _placeholders(solution_lines: list[str], used: set[str] | None = None) -> list[str]:
    """``name = NoAnswer("name")`` for each top-level name the solution assigns, and
    a stub ``def`` for each function it defines, so that a student's test cell fails
    with a friendly ``check`` message (or ``NotImplementedError``), not a
    ``NameError`` or ``TypeError``."""
    try:
        tree = ast.parse("\n".join(solution_lines))
    except SyntaxError:
        return []
    out: list[str] = []
    seen: set[str] = set()

    def wanted(name: str) -> bool:
        return name not in seen and (used is None or name in used)

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
                holders = [p for ph in _placeholders(lines[i + 1:j], used)
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


def student_version(nb, name: str = "notebook"):
    """The student version of an exercise notebook (an ``nbformat`` node; the input
    is not changed): solutions and hidden tests stripped, outputs cleared, nbgrader
    metadata kept."""
    import copy
    nb = copy.deepcopy(nb)
    names = [set(_IDENTIFIER.findall(_source(c))) if c.cell_type == "code" else set()
             for c in nb.cells]
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


def main(argv: list[str] | None = None) -> int:
    """``python -m kingdoms.exercises student SRC_DIR OUT_DIR``"""
    import argparse
    parser = argparse.ArgumentParser(
        prog="python -m kingdoms.exercises",
        description="Make student versions of nbgrader-style exercise notebooks.")
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser("student", help="strip solutions and hidden tests, clear outputs")
    st.add_argument("src_dir", help="the exercises folder (solution notebooks)")
    st.add_argument("out_dir", help="where the student versions go (subfolders kept)")
    args = parser.parse_args(argv)
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
