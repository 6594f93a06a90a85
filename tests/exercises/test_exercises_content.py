"""The exercises themselves (issue 12): every teacher copy in exercises/source

* names its classic mistakes, and each of them, tried in place of the right answer, gets
  its own hint (run in-process from the teacher copy: ``# mistake: name = expression``
  lines in the hidden tests say what each digest stands for);
* gives nothing away in the student copy: no hidden tests, no solutions, no call of the
  library's solvers, no exact answer anywhere in the text (hints included);
* has a student copy in exercises/release that is exactly what ``make exercises`` writes.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

import ast
import math
import contextlib
import io
from pathlib import Path

import kingdoms
from kingdoms.exercises import ExerciseFailure, strip_hidden_tests, student_version

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
SOURCE = EXERCISES / "source"
RELEASE = EXERCISES / "release"
GAMES = [g for g in kingdoms.games() if g != "highcard"]


def notebooks(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


SOURCES = notebooks(SOURCE)
IDS = [p.relative_to(SOURCE).as_posix() for p in SOURCES]

MISTAKE = re.compile(r"^# mistake: (\w+) = (.+)$", re.M)
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)


def is_test_cell(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def check_calls(source: str):
    """``[(answer name, {mistake digest: hint})]`` of the ``check_answer`` calls in a cell
    (the general hint under the key ``""``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check_answer":
            name = node.args[0].id if isinstance(node.args[0], ast.Name) else None
            listed = {}
            for kw in node.keywords:
                if kw.arg == "mistakes":
                    listed = ast.literal_eval(kw.value)
                if kw.arg == "hint":
                    listed = {**listed, "": ast.literal_eval(kw.value)}
            out.append((name, listed))
    return out


def run_quietly(source: str, ns: dict) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(source, "<cell>", "exec"), ns)
    return buf.getvalue()

nbformat = pytest.importorskip("nbformat")

# The library's solvers and answer-makers: a student copy never calls them.
SOLVERS = ("p_win", "expected_points", "solve_rerolls", "best_journey", "expectimax",
           "solve_zero_sum", "verify_equilibrium", "score_pass", "fool_distribution",
           "hypergeometric", "trade_chain", "fewest_trading_phases", "extra_sheep_needed",
           "deal_can_reach", "multiplication_distribution", "odds.solve")


def teacher_run(path):
    """Run a teacher copy in-process; at each test cell try the mistakes it lists.

    Returns ``(namespace, tried)`` where ``tried`` is a list of
    ``(cell, name, expression, ExerciseFailure or None, {digest: hint})``."""
    nb = nbformat.read(path, as_version=4)
    ns = {"__name__": "__main__"}
    tried = []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        run_quietly(cell.source, ns)            # the right answers pass, hidden tests too
        if not is_test_cell(cell):
            continue
        visible = strip_hidden_tests(cell.source)
        listed = {}
        for _, hints in check_calls(visible):
            listed.update({d: h for d, h in hints.items() if d})
        hidden = "\n".join(HIDDEN.findall(cell.source))
        for name, expr in MISTAKE.findall(hidden):
            trial = dict(ns)
            trial[name] = eval(expr, trial)
            try:
                run_quietly(visible, trial)
                failure = None
            except ExerciseFailure as e:
                failure = e
            tried.append((k, name, expr, failure, listed))
    return ns, tried


@pytest.fixture(scope="module", params=SOURCES, ids=IDS)
def teacher(request):
    return request.param, teacher_run(request.param)


def test_there_are_three_exercises_per_game():
    for game in GAMES:
        assert len(notebooks(SOURCE / game)) >= 3, game
        assert {p.name for p in notebooks(RELEASE / game)} == \
            {p.name for p in notebooks(SOURCE / game)}, game


def test_every_listed_mistake_gets_its_own_hint(teacher):
    path, (ns, tried) = teacher
    assert tried, f"{path.name}: lists no classic mistakes"
    recognised = set()
    for k, name, expr, failure, listed in tried:
        where = f"{path.name}, cell {k}: {name} = {expr}"
        assert failure is not None, f"{where} passes the visible check"
        assert failure.mistake is not None and failure.mistake != "form:none", \
            f"{where} gets only the general hint: {failure}"
        if failure.mistake.startswith("form:"):
            continue
        assert failure.mistake in listed, where
        assert listed[failure.mistake] in str(failure), where
        recognised.add(failure.mistake)
    listed_all = {d for *_, listed in tried for d in listed}
    assert listed_all, f"{path.name}: no mistake listed by digest"
    assert listed_all <= recognised, \
        f"{path.name}: digests listed that no '# mistake:' line stands for: {listed_all - recognised}"


def test_a_float_gets_the_exact_value_hint(teacher):
    path, (ns, tried) = teacher
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if is_test_cell(cell):
            for name, _ in check_calls(strip_hidden_tests(cell.source)):
                if isinstance(ns[name], Fraction) and ns[name].denominator > 1:
                    trial = dict(ns, **{name: float(ns[name])})
                    with pytest.raises(ExerciseFailure, match="exact value as a Fraction"):
                        run_quietly(strip_hidden_tests(cell.source), trial)


def release_text(nb) -> str:
    return "\n".join(c.source for c in nb.cells)


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_release_copy_is_what_make_exercises_writes(path):
    release = RELEASE / path.relative_to(SOURCE)
    assert release.is_file(), f"no student copy {release}: run `make exercises`"
    expected = student_version(nbformat.read(path, as_version=4), name=str(path))
    assert nbformat.writes(nbformat.read(release, as_version=4)) == nbformat.writes(expected), \
        f"{release} is out of date: run `make exercises`"


def test_no_answer_in_the_student_copy(teacher):
    path, (ns, _) = teacher
    release = nbformat.read(RELEASE / path.relative_to(SOURCE), as_version=4)
    text = release_text(release)
    assert "HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text and "mistake:" not in text
    code = "\n".join(c.source for c in release.cells if c.cell_type == "code")
    for solver in SOLVERS:
        assert not re.search(rf"\b{re.escape(solver)}\b", code), \
            f"{path.name}: the student copy calls the solver {solver}"
    for cell in release.cells:
        if is_test_cell(cell):
            assert "kingdoms." not in cell.source.replace("kingdoms.exercises", ""), \
                f"{path.name}: a visible test cell uses the library"
    teacher_nb = nbformat.read(path, as_version=4)
    for cell in teacher_nb.cells:
        if not is_test_cell(cell):
            continue
        calls = check_calls(strip_hidden_tests(cell.source))
        assert "BEGIN HIDDEN TESTS" in cell.source, f"{path.name}: a test cell has no hidden test"
        for name, listed in calls:
            value = ns[name]
            values = value if isinstance(value, (tuple, list)) else (value,)
            hints = " ".join(listed.values())
            for v in values:
                if isinstance(v, Fraction) and v.denominator > 1:
                    assert f"{v.numerator}/{v.denominator}" not in text, \
                        f"{path.name}: the student copy shows the answer {name} = {v}"
                if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 3:
                    assert not re.search(rf"(?<![\w/.]){v}(?![\w/])", hints), \
                        f"{path.name}: a hint carries the answer {name} = {v}"


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_teacher_copy_is_stored_executed_without_errors(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), f"{path.name}: execute it (make notebooks)"
    for c in code:
        for o in c.outputs:
            assert o.output_type != "error", f"{path.name}: {o.get('ename')}: {o.get('evalue')}"


def test_the_digest_report_finds_a_stale_digest(tmp_path):
    """``python -m kingdoms.exercises digests NB`` (for a teacher who edits a question):
    all ok on the committed copy; a changed answer is reported with its new digest, a
    mistake no longer listed too."""
    from kingdoms.exercises import digest, digest_report, show
    path = SOURCE / "woods" / "opponent_fool.ipynb"
    report = digest_report(path)
    assert report and all(line.endswith(("ok", "listed")) for line in report)
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:      # the question now asks about 8 cards instead of 7
        if "p_player2 = 1 - Fraction(math.comb(unseen - unseen_fools, 7)" in cell.source:
            cell.source = cell.source.replace("math.comb(unseen - unseen_fools, 7), math.comb(unseen, 7)",
                                              "math.comb(unseen - unseen_fools, 8), math.comb(unseen, 8)")
    changed = tmp_path / "opponent_fool.ipynb"
    nbformat.write(nb, changed)
    answer = 1 - Fraction(math.comb(13, 8), math.comb(17, 8))
    new = digest(answer, "woods-opponent-fool-p-player2")
    stale = [line for line in digest_report(changed) if not line.endswith(("ok", "listed"))]
    assert stale[0] == f"cell 7: p_player2 = {show(answer)}: stale, write {new!r}"
    # question 4 lists "P(at least one Fool)" as a mistake: its value changed with it
    assert stale[1:] == [f"cell 13:   mistake p_player2: not listed, its digest is "
                         f"{digest(answer, 'woods-opponent-fool-expected-fools')!r}"]
