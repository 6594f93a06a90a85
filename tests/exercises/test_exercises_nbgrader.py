"""The exercises under the real nbgrader (issue 12, part 5).

One course in a temporary folder, built from exercises/source (one assignment per game):

* ``nbgrader generate_assignment`` makes the student copies of every assignment, and they
  match the committed exercises/release copies in every cell but the solution stubs;
* ``nbgrader autograde`` gives the teacher's solutions full marks, the untouched student
  copies (exercises/release) zero without crashing, and a submission with one classic
  mistake zero for that part only;
* ``nbgrader generate_feedback`` writes feedback, and the feedback shows the line the
  visible check printed for the mistake (its hint, decrypted by the wrong answer).

Runs every notebook of the course in a kernel about three times: a few minutes.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbgrader")

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "exercises" / "source"
RELEASE = REPO / "exercises" / "release"
ASSIGNMENTS = sorted(p.name for p in SOURCE.iterdir() if p.is_dir() and list(p.glob("*.ipynb")))

# the classic mistake submitted: Player 2's Fool counted with replacement
WRONG_NB, WRONG_CELL = "opponent_fool", "opponent-fool-t2"
WRONG_FROM = "p_player2 = 1 - Fraction(math.comb(unseen - unseen_fools, 7), math.comb(unseen, 7))"
WRONG_TO = "p_player2 = 1 - (1 - Fraction(unseen_fools, unseen)) ** 7"
WRONG_HINT = ("✗ P(Player 2 holds a Fool): 347590156/410338673 ≈ 0.847 is not right. "
              "That treats the 7 cards as drawn with replacement")

CONFIG = """\
c = get_config()
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = "sqlite:///{root}/gradebook.db"
c.Autograde.create_student = True
# the stub of our student copies: no `raise`, so Run All goes through (exercises/README.md)
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE"}}
c.ExecutePreprocessor.timeout = 600
c.Execute.timeout = 600
"""


def nbgrader(course: Path, *args: str) -> str:
    env = dict(os.environ)
    # nbgrader runs `alembic` (next to this Python) to set up its gradebook
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    r = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--force"], cwd=course,
                       capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{r.stdout}\n{r.stderr}"
    assert "[ERROR]" not in r.stderr, r.stderr
    return r.stderr


def solution_free(nb):
    """The cells of a notebook with solution cells' sources dropped (nbgrader's stub
    and ours differ) and only what both generators keep."""
    return [(c.cell_type, c.source if not c.metadata.get("nbgrader", {}).get("solution") else "",
             (c.metadata.get("nbgrader") or {}).get("grade_id")) for c in nb.cells]


@pytest.mark.slow
def test_the_course_under_nbgrader(tmp_path):
    from nbgrader.api import Gradebook

    course = tmp_path / "course"
    shutil.copytree(SOURCE, course / "source")
    (course / "nbgrader_config.py").write_text(CONFIG.format(root=str(course)))

    # 1. generate_assignment, every assignment
    nbgrader(course, "generate_assignment", "*")
    for game in ASSIGNMENTS:
        made = sorted(p.name for p in (course / "release" / game).glob("*.ipynb"))
        assert made == sorted(p.name for p in (SOURCE / game).glob("*.ipynb")), game
        for name in made:
            theirs = nbformat.read(course / "release" / game / name, as_version=4)
            ours = nbformat.read(RELEASE / game / name, as_version=4)
            assert solution_free(theirs) == solution_free(ours), f"{game}/{name}"
            assert not re.search(r"HIDDEN TESTS|BEGIN SOLUTION", nbformat.writes(theirs))

    # 2. submissions: the teacher's solutions, the untouched student copies, one mistake
    for game in ASSIGNMENTS:
        shutil.copytree(SOURCE / game, course / "submitted" / "teacher" / game)
        shutil.copytree(RELEASE / game, course / "submitted" / "untouched" / game)
    shutil.copytree(SOURCE / "woods", course / "submitted" / "mistaken" / "woods")
    wrong = course / "submitted" / "mistaken" / "woods" / f"{WRONG_NB}.ipynb"
    text = wrong.read_text()
    assert WRONG_FROM in text
    wrong.write_text(text.replace(WRONG_FROM, WRONG_TO))

    nbgrader(course, "autograde", "*")

    with Gradebook(f"sqlite:///{course}/gradebook.db") as gb:
        for game in ASSIGNMENTS:
            full = gb.find_submission(game, "teacher")
            assert full.max_score > 0 and full.score == full.max_score, \
                f"{game}: the teacher's solutions score {full.score} of {full.max_score}"
            blank = gb.find_submission(game, "untouched")
            assert blank.score == 0, f"{game}: the untouched student copy scores {blank.score}"
            assert len(blank.notebooks) == len(full.notebooks)
        mistaken = gb.find_submission("woods", "mistaken")
        part = gb.find_grade(WRONG_CELL, WRONG_NB, "woods", "mistaken")
        assert part.score == 0 and part.max_score > 0
        assert mistaken.score == mistaken.max_score - part.max_score

    # 3. feedback
    nbgrader(course, "generate_feedback", "*")
    for student in ("teacher", "untouched"):
        for game in ASSIGNMENTS:
            assert sorted((course / "feedback" / student / game).glob("*.html")), (student, game)
    html = (course / "feedback" / "mistaken" / "woods" / f"{WRONG_NB}.html").read_text()
    assert WRONG_HINT in html.replace("&#39;", "'")
