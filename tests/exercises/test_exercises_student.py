"""Exercise tooling: the student-version generator, and every exercise notebook.

* unit tests of ``kingdoms.exercises.student_version`` on a small built-in notebook;
* ``python -m kingdoms.exercises student SRC OUT`` writes every notebook, subfolders kept;
* every teacher copy ``exercises/source/<game>/*.ipynb`` executes with no error, and its
  student version runs through with no error in any cell, in every order a student may
  run it (Run All on a fresh copy, a check before its answer cell, the first of two
  answers wrong): each check prints a sentence ("no answer yet ...") instead;
* every graded test cell does fail on the stub once nbgrader puts the hidden tests back.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fractions import Fraction

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

from kingdoms.exercises import (CODE_STUB, ExerciseFormatError, make_student_versions,  # noqa: E402
                                seal_answer, strip_hidden_tests, strip_solutions,
                                student_version)

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises" / "source"
EXERCISE_FILES = sorted(p for p in EXERCISES.rglob("*.ipynb")
                        if ".ipynb_checkpoints" not in p.parts) if EXERCISES.is_dir() else []

SOLUTION_META = {"grade": False, "grade_id": "two-dice", "locked": False,
                 "schema_version": 3, "solution": True, "task": False}
TEST_META = {"grade": True, "grade_id": "two-dice-test", "locked": True, "points": 1,
             "schema_version": 3, "solution": False, "task": False}
ANSWER_META = {"grade": True, "grade_id": "why", "locked": False, "points": 1,
               "schema_version": 3, "solution": True, "task": False}


SEVEN = seal_answer("two-dice", Fraction(1, 6), [(Fraction(1, 36), "That is one ordered pair.")],
                    "Count the pairs.", iterations=1000)


def sample_notebook():
    v4 = nbformat.v4
    nb = v4.new_notebook()
    nb.cells = [
        v4.new_markdown_cell("# Two dice\nWhat is the chance that two dice show 7?"),
        v4.new_code_cell("from fractions import Fraction\nfrom kingdoms.core import Distribution"),
        v4.new_code_cell("d6 = Distribution.uniform(range(1, 7))\n"
                         "### BEGIN SOLUTION\n"
                         "answer = (d6 + d6).P(lambda s: s == 7)\n"
                         "### END SOLUTION", metadata={"nbgrader": dict(SOLUTION_META)}),
        v4.new_code_cell("from kingdoms.exercises import check, check_answer\n"
                         f"check_answer('answer', 'P(sum 7)', kind='probability', sealed={SEVEN!r})\n"
                         "### BEGIN HIDDEN TESTS\n"
                         "check(answer, Fraction(1, 6), what='P(sum 7), hidden')\n"
                         "### END HIDDEN TESTS", metadata={"nbgrader": dict(TEST_META)}),
        v4.new_markdown_cell("Why?\n\n### BEGIN SOLUTION\nSix of 36 pairs.\n### END SOLUTION",
                             metadata={"nbgrader": dict(ANSWER_META)}),
        v4.new_code_cell("print('the end')"),
    ]
    nb.cells[1].outputs = [v4.new_output("stream", name="stdout", text="old output\n")]
    nb.cells[1].execution_count = 3
    return nb


# ------------------------------------------------------------------ the transformation
def test_strip_solutions_code_keeps_indentation_and_adds_placeholders():
    src = "x = 1\n### BEGIN SOLUTION\nanswer, other = 2, 3\ndef f(a):\n    return a\n### END SOLUTION\ny = 2"
    assert strip_solutions(src) == (
        "x = 1\n# YOUR CODE HERE\nfrom kingdoms.exercises import NoAnswer\n"
        'answer = NoAnswer("answer")   # replace with your answer\n'
        'other = NoAnswer("other")   # replace with your answer\n'
        "def f(*args, **kwargs):   # replace with your function\n"
        '    return NoAnswer("f(...)")\ny = 2')
    inner = "def g():\n    ### BEGIN SOLUTION\n    return 3\n    ### END SOLUTION\n    pass"
    assert strip_solutions(inner) == ("def g():\n    # YOUR CODE HERE\n"
                                      "    raise NotImplementedError()\n    pass")


def test_no_answer_fails_politely_whatever_the_test_does():
    from kingdoms.exercises import ExerciseFailure, NoAnswer, check
    a = NoAnswer("margins")
    uses = [lambda: list(map(str, a)), lambda: (1, 2).index(a), lambda: a[1], lambda: a + 1,
            lambda: 1 - a, lambda: a == 1, lambda: sorted(a), lambda: a.mean(), lambda: float(a),
            lambda: {a: 1}, lambda: len(a), lambda: a(), lambda: 2 in a, lambda: bool(a)]
    for use in uses:
        with pytest.raises(NotImplementedError, match="margins: no answer yet"):
            use()
    with pytest.raises(ExerciseFailure, match="no answer yet"):
        check(a, 3, what="the margin")
    assert "margins" in repr(a) and "margins" in f"{a}"


def test_strip_solutions_markdown():
    assert strip_solutions("Q\n### BEGIN SOLUTION\nsecret\n### END SOLUTION\nafter",
                           "markdown") == "Q\nYOUR ANSWER HERE\nafter"


def test_strip_hidden_tests_removes_the_region_and_markers():
    src = "check(a, 1)\n### BEGIN HIDDEN TESTS\ncheck(a, 2)\n### END HIDDEN TESTS\nz"
    assert strip_hidden_tests(src) == "check(a, 1)\nz"


@pytest.mark.parametrize("src", [
    "### BEGIN SOLUTION\nx = 1",
    "x = 1\n### END SOLUTION",
    "### BEGIN SOLUTION\n### BEGIN SOLUTION\n### END SOLUTION",
])
def test_broken_solution_regions_are_errors(src):
    with pytest.raises(ExerciseFormatError):
        strip_solutions(src, where="nb, cell 3")


def test_unterminated_hidden_tests_is_an_error():
    with pytest.raises(ExerciseFormatError, match="no END HIDDEN TESTS"):
        strip_hidden_tests("### BEGIN HIDDEN TESTS\ncheck(a, 2)")


def test_student_version():
    nb = sample_notebook()
    original = nbformat.writes(nb)
    st = student_version(nb)
    assert nbformat.writes(nb) == original               # the input is not changed
    src = [c.source for c in st.cells]
    assert "(d6 + d6).P" not in "".join(src)             # no solution left
    # the check names its answer in quotes: no placeholder needed (it says "not set yet")
    assert src[2] == "d6 = Distribution.uniform(range(1, 7))\n# YOUR CODE HERE"
    assert "hidden" not in src[3] and "HIDDEN" not in src[3]
    assert "check_answer('answer', 'P(sum 7)'" in src[3]  # visible tests stay
    assert src[4] == "Why?\n\nYOUR ANSWER HERE"
    assert src[0] == nb.cells[0].source and src[5] == nb.cells[5].source
    assert all(c.outputs == [] and c.execution_count is None
               for c in st.cells if c.cell_type == "code")
    assert [c.metadata.get("nbgrader") for c in st.cells] == \
        [c.metadata.get("nbgrader") for c in nb.cells]   # nbgrader metadata kept
    nbformat.validate(st)


def test_solution_cell_without_markers_is_replaced_whole():
    nb = sample_notebook()
    nb.cells[2].source = "answer = 42"
    assert student_version(nb).cells[2].source == CODE_STUB


def test_solution_region_outside_a_solution_cell_is_refused():
    nb = sample_notebook()
    nb.cells[5].source = "### BEGIN SOLUTION\nx = 1\n### END SOLUTION"
    with pytest.raises(ExerciseFormatError, match="cell 5"):
        student_version(nb, name="ex.ipynb")


@pytest.mark.slow
def test_cli_writes_every_notebook_keeping_subfolders(tmp_path):
    src = tmp_path / "exercises"
    (src / "horse").mkdir(parents=True)
    (src / "woods" / ".ipynb_checkpoints").mkdir(parents=True)
    nbformat.write(sample_notebook(), src / "horse" / "dice.ipynb")
    nbformat.write(sample_notebook(), src / "woods" / "again.ipynb")
    nbformat.write(sample_notebook(), src / "woods" / ".ipynb_checkpoints" / "again.ipynb")
    out = tmp_path / "build" / "student"
    r = subprocess.run([sys.executable, "-m", "kingdoms.exercises", "student", str(src), str(out)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.ipynb"))
    assert written == ["horse/dice.ipynb", "woods/again.ipynb"]
    st = nbformat.read(out / "horse" / "dice.ipynb", as_version=4)
    assert "BEGIN SOLUTION" not in nbformat.writes(st)
    assert "2 student notebooks" in r.stdout


@pytest.mark.slow
def test_cli_refuses_to_write_into_the_sources(tmp_path):
    (tmp_path / "ex").mkdir()
    with pytest.raises(ValueError):
        make_student_versions(tmp_path / "ex", tmp_path / "ex" / "student")
    r = subprocess.run([sys.executable, "-m", "kingdoms.exercises", "student",
                        str(tmp_path / "missing"), str(tmp_path / "out")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "no exercises folder" in r.stderr


# ------------------------------------------------------------------ execution
def execute(nb, cwd: Path):
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                                     resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return nb


def errors(nb):
    """``[(cell index, nbgrader metadata, exception name), ...]`` of cells that raised."""
    out = []
    for k, cell in enumerate(nb.cells):
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error":
                out.append((k, cell.metadata.get("nbgrader", {}), o.get("ename"),
                            o.get("evalue", "")))
    return out


def tracebacks(nb):
    """``[(cell index, ename, traceback lines)]`` of every error output."""
    return [(k, o.get("ename"), o.get("traceback", [])) for k, cell in enumerate(nb.cells)
            for o in cell.get("outputs", []) if o.get("output_type") == "error"]


def impolite(nb):
    """Every error a student copy shows: none is polite now (a check prints a sentence)."""
    return [f"cell {k} ({meta.get('grade_id', 'not an nbgrader cell')}): {ename}: {evalue}"
            for k, meta, ename, evalue in errors(nb)]


def graded_test_cells(nb):
    return [k for k, c in enumerate(nb.cells) if c.cell_type == "code"
            and c.metadata.get("nbgrader", {}).get("grade")
            and not c.metadata.get("nbgrader", {}).get("solution")]


def with_hidden_tests(student, teacher):
    """The student copy as nbgrader grades it: the teacher's test cells put back."""
    graded = nbformat.from_dict(student)
    by_id = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in teacher.cells}
    for k, cell in enumerate(graded.cells):
        if k in graded_test_cells(graded):
            cell.source = by_id[cell.metadata["nbgrader"]["grade_id"]].source
    return graded


def check_exercise(nb, cwd: Path, name: str):
    solved = execute(nbformat.from_dict(nb), cwd)
    assert errors(solved) == [], f"{name}: the solution notebook raises"
    fresh = student_version(nb, name)
    student = execute(nbformat.from_dict(fresh), cwd)            # Run All on a fresh copy
    bad = impolite(student)
    assert not bad, f"{name}: Run All on the student copy shows an error:\n" + "\n".join(bad)
    # a German exercise (assignment <game>_de) says it in German
    no_answer = "noch keine Antwort" if cwd.name.endswith("_de") else "no answer yet"
    for k in graded_test_cells(student):
        said = "".join(o.get("text", "") for o in student.cells[k].outputs)
        assert no_answer in said, f"{name}, cell {k}: the check says {said!r}"
    skipped = nbformat.from_dict(fresh)                          # no answer cell run at all
    skipped.cells = [c for c in skipped.cells if not c.metadata.get("nbgrader", {}).get("solution")]
    bad = impolite(execute(skipped, cwd))
    assert not bad, f"{name}: checks run before their answers show an error:\n" + "\n".join(bad)
    graded = execute(with_hidden_tests(fresh, nb), cwd)          # as nbgrader grades it
    failed = {k for k, *_ in errors(graded)}
    passing = [k for k in graded_test_cells(graded) if k not in failed]
    assert not passing, (f"{name}: graded test cells {passing} pass on the student stub "
                         "(points for nothing)")


@pytest.mark.slow
def test_sample_exercise_solution_passes_and_student_version_fails_politely(tmp_path):
    check_exercise(sample_notebook(), tmp_path, "sample")


def test_impolite_failures_are_caught():
    nb = sample_notebook()
    nb.cells[5].outputs = [nbformat.v4.new_output("error", ename="NameError",
                                                  evalue="name 'answer' is not defined",
                                                  traceback=[])]
    assert impolite(nb) == ["cell 5 (not an nbgrader cell): NameError: name 'answer' is not defined"]


def check_conventions(nb, name):
    ids = []
    for k, cell in enumerate(nb.cells):
        meta = cell.metadata.get("nbgrader")
        src = cell.source
        if "BEGIN SOLUTION" in src or "BEGIN HIDDEN TESTS" in src:
            assert meta, f"{name}, cell {k}: marked regions but no nbgrader metadata"
        if not meta:
            continue
        assert meta.get("schema_version") == 3, f"{name}, cell {k}: schema_version"
        assert "grade_id" in meta, f"{name}, cell {k}: no grade_id"
        ids.append(meta["grade_id"])
        if meta.get("grade") and not meta.get("solution"):
            assert meta.get("locked") and meta.get("points", 0) > 0, \
                f"{name}, cell {k}: a test cell is locked and has points"
    assert len(ids) == len(set(ids)), f"{name}: grade_ids repeat: {sorted(ids)}"
    assert any(c.metadata.get("nbgrader", {}).get("solution") for c in nb.cells), \
        f"{name}: no solution cell"
    assert nb.cells[0].cell_type == "markdown", f"{name}: opens with a markdown cell"


@pytest.mark.slow
@pytest.mark.parametrize("path", EXERCISE_FILES,
                         ids=[p.relative_to(EXERCISES).as_posix() for p in EXERCISE_FILES])
def test_exercise_notebook(path):
    nb = nbformat.read(path, as_version=4)
    name = path.relative_to(REPO).as_posix()
    check_conventions(nb, name)
    check_exercise(nb, path.parent, name)


def test_there_are_exercises_or_a_reason():
    if not EXERCISE_FILES:
        pytest.skip("no exercises/**/*.ipynb yet (the game issues add them)")
    assert len(EXERCISE_FILES) >= 1


def test_placeholders_only_for_names_other_cells_use():
    nb = sample_notebook()
    nb.cells[2].source = ("### BEGIN SOLUTION\ndef helper(k):\n    return k\n"
                          "answer = helper((d6 + d6).P(lambda s: s == 7))\n### END SOLUTION")
    nb.cells[5].source = "print(answer)"      # given code that uses the answer
    src = student_version(nb).cells[2].source
    assert "helper" not in src                 # a helper of the solution is not given away
    assert 'answer = NoAnswer("answer")' in src


@pytest.mark.slow
def test_checks_report_in_any_order_without_a_traceback_in_a_real_kernel(tmp_path):
    """In a kernel: a check run before its answer exists, a wrong first answer followed by
    a right second one, and a float, each print one line and let the next cells run; a
    strict (hidden) check fails the cell with one line, no traceback."""
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_code_cell("from kingdoms.exercises import check_answer\n"
                         f"check_answer('p', 'P(sum 7)', kind='probability', sealed={SEVEN!r})"),
        v4.new_code_cell("from fractions import Fraction\np, q = Fraction(1, 36), Fraction(1, 6)"),
        v4.new_code_cell(f"check_answer('p', 'P(sum 7)', kind='probability', sealed={SEVEN!r})\n"
                         f"check_answer('q', 'P(sum 7) again', kind='probability', sealed={SEVEN!r})"),
        v4.new_code_cell("p = 0.1667\n"
                         f"check_answer('p', 'P(sum 7)', kind='probability', sealed={SEVEN!r})"),
        v4.new_code_cell(f"check_answer('p', 'P(sum 7)', kind='probability', sealed={SEVEN!r}, "
                         "strict=True)"),
        v4.new_code_cell("print('still running')"),
    ])
    out = execute(nb, tmp_path)
    said = ["".join(o.get("text", "") for o in c.outputs) for c in out.cells]
    assert said[0].startswith("✗ P(sum 7): no answer yet — p is not set yet")
    assert said[2].splitlines() == ["✗ P(sum 7): 1/36 ≈ 0.028 is not right. That is one ordered pair.",
                                    "✓ P(sum 7) again: 1/6 ≈ 0.167 is right."]
    assert "exact value as a Fraction" in said[3]
    shown = {k: (ename, tb) for k, ename, tb in tracebacks(out)}
    assert sorted(shown) == [4]
    ename, tb = shown[4]
    assert ename == "ExerciseFailure" and len(tb) == 1 and "Traceback" not in tb[0]
    assert said[5] == "still running\n"


def test_no_second_placeholder_for_a_name_set_before_the_region():
    """``answer = ...`` before the solution region already keeps the test cell polite
    (also in nbgrader's own student copies), so no ``NoAnswer`` line is added for it."""
    src = ("answer = ...   # your answer\n### BEGIN SOLUTION\nanswer = 1\nother = 2\n"
           "### END SOLUTION")
    assert strip_solutions(src) == (
        "answer = ...   # your answer\n# YOUR CODE HERE\nfrom kingdoms.exercises import NoAnswer\n"
        'other = NoAnswer("other")   # replace with your answer')
