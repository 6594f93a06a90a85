"""kingdoms.lessons: the sentences of the lesson notebooks' student tasks, and the task
cells themselves (tags, order, the projector view's collapsed setup)."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from kingdoms.lessons import blank, check_by_hand, compare_guess, number_text

REPO = Path(__file__).resolve().parents[1]


def said(capsys):
    return capsys.readouterr().out


def verdict(out: str):
    """True for a right answer's sentence, None for 'type it first', else False."""
    if out.startswith(("Well predicted", "Right")):
        return True
    if out.startswith(("Type your guess first", "Work it out on paper first")):
        return None
    return False


def guess(capsys, *args, **kw):
    compare_guess(*args, **kw)
    out = said(capsys)
    return verdict(out), out


def by_hand(capsys, *args, **kw):
    check_by_hand(*args, **kw)
    out = said(capsys)
    return verdict(out), out


def test_nothing_returned(capsys):
    """A notebook shows the sentence only, no True/False under it."""
    assert compare_guess(0.5, Fraction(1, 2)) is None
    assert check_by_hand(Fraction(1, 2), Fraction(1, 2)) is None
    assert said(capsys).count("\n") == 2


def test_blank():
    assert blank(...) and blank(None) and blank("  ")
    assert not blank(0) and not blank("Knight") and not blank(Fraction(0))


def test_number_text_is_for_people():
    assert number_text(Fraction(46, 17)) == "46/17 ≈ 2.706"
    assert number_text(Fraction(4, 2)) == "2"
    assert number_text(0.25) == "0.250"
    assert "Fraction" not in number_text(Fraction(1, 3))


def test_guess_left_blank_asks_for_a_guess(capsys):
    v, out = guess(capsys, ..., Fraction(1, 2))
    assert v is None and "Type your guess first" in out and "1/2" not in out


@pytest.mark.parametrize("typed, right, word", [
    (0.5, True, "Well predicted"), (Fraction(11, 20), True, "Well predicted"),
    (0.9, False, "too high"), (0.1, False, "too low")])
def test_numeric_guess(capsys, typed, right, word):
    v, out = guess(capsys, typed, Fraction(1, 2), "the chance")
    assert v is right and word in out and "the chance is 1/2" in out


def test_a_guess_is_shown_as_typed(capsys):
    v, out = guess(capsys, 5.4, 5.382, "the mean")
    assert v is True and "you guessed 5.4," in out


def test_closeness_is_a_share_of_the_truth(capsys):
    assert guess(capsys, 3, Fraction(46, 17), close=0.2)[0] is True
    assert guess(capsys, 3, Fraction(46, 17), close=0.05)[0] is False


def test_counted_share_as_percent(capsys):
    v, out = guess(capsys, 0.5, Fraction(487, 600), "greedy's share", percent=True)
    assert v is False and "81.2%" in out and "50.0%" in out and "487/600" not in out


def test_word_guess(capsys):
    assert guess(capsys, " mix ", "mix", "the best plan")[0] is True
    v, out = guess(capsys, "always the King", "mix", "the best plan")
    assert v is False and "the best plan: mix" in out


def test_a_guess_that_is_no_number(capsys):
    v, out = guess(capsys, "half", Fraction(1, 2))
    assert v is False and "as a number" in out


def test_by_hand_right(capsys):
    v, out = by_hand(capsys, Fraction(3, 34), Fraction(3, 34), "P(no Fool)")
    assert v is True and "exactly 3/34" in out
    assert by_hand(capsys, 6, Fraction(6), "the count")[0] is True


def test_by_hand_blank(capsys):
    v, out = by_hand(capsys, ..., Fraction(3, 34))
    assert v is None and "3/34" not in out


def test_by_hand_decimal_is_close_but_not_exact(capsys):
    v, out = by_hand(capsys, 0.088, Fraction(3, 34), "P(no Fool)")
    assert v is False and "Write it exactly" in out


def test_by_hand_complement(capsys):
    v, out = by_hand(capsys, Fraction(31, 34), Fraction(3, 34), "P(no Fool)")
    assert v is False and "complement" in out


def test_by_hand_factor(capsys):
    v, out = by_hand(capsys, Fraction(6, 34), Fraction(3, 34), "P(no Fool)")
    assert v is False and "2 times" in out and "larger" in out


def test_by_hand_wrong_type(capsys):
    v, out = by_hand(capsys, "3/34", Fraction(3, 34))
    assert v is False and "should be a number" in out


@pytest.mark.parametrize("typed", [..., "3/34", 0.088, Fraction(31, 34), Fraction(6, 34), Fraction(3, 34)])
def test_sentences_are_for_people(capsys, typed):
    """No Fraction(...) repr in what a student reads (the notebooks' output scan)."""
    check_by_hand(typed, Fraction(3, 34), "P(no Fool)")
    compare_guess(typed, Fraction(3, 34), "P(no Fool)")
    assert "Fraction(" not in said(capsys)


# ---- the lesson notebooks' task cells -------------------------------------------------

# the English lessons; their German twins (notebooks/de/) have the same cells, tags and
# metadata, which tests/test_twins.py checks
LESSONS = sorted(p for p in (REPO / "notebooks").glob("*/*.ipynb") if p.parent.name != "de")


def cells(path):
    return json.loads(path.read_text())["cells"]


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def with_tasks():
    return [p for p in LESSONS if any("student-task" in tags(c) for c in cells(p))]


def test_lesson_notebooks_have_tasks():
    assert with_tasks(), "no lesson notebook has a student task yet"


@pytest.mark.parametrize("path", with_tasks(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_three_kinds_of_task(path):
    source = ["".join(c["source"]) for c in cells(path) if "student-task" in tags(c)]
    assert any("my_guess = ..." in s for s in source), "no predict-then-check guess cell"
    assert any("by_hand = ..." in s for s in source), "no by-hand calculation cell"
    assert any(s.lstrip().startswith("**Explain") for s in source), "no explain-in-words question"


@pytest.mark.parametrize("path", with_tasks(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_task_cells_are_followed_by_their_check_or_answer(path):
    cs = cells(path)
    for i, c in enumerate(cs):
        src = "".join(c["source"])
        if "student-task" not in tags(c):
            continue
        for name, check in (("my_guess = ...", "compare_guess(my_guess"),
                            ("by_hand = ...", "check_by_hand(by_hand")):
            if name in src and c["cell_type"] == "code":
                # its check comes next, then the answer for the teacher (dropped from the
                # student edition)
                j = next(k for k in range(i + 1, len(cs)) if check in "".join(cs[k]["source"]))
                assert not any(name in "".join(d["source"]) for d in cs[i + 1:j]
                               if d["cell_type"] == "code"), src
                assert "teacher-only" in tags(cs[j + 1]), src
        if src.lstrip().startswith("**Explain"):
            answer = cs[i + 1]
            assert answer["cell_type"] in ("raw", "markdown") and "student-task" in tags(answer)
            assert "teacher-only" in tags(cs[i + 2]), "the expected answer follows the answer cell"


@pytest.mark.parametrize("path", with_tasks(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_checks_in_the_committed_notebook_ask_for_a_guess(path):
    """Committed executed with blank answers: the checks say what to do, never a traceback."""
    for c in cells(path):
        src = "".join(c["source"])
        if c["cell_type"] == "code" and ("compare_guess(" in src or "check_by_hand(" in src):
            out = "".join("".join(o.get("text", "")) for o in c.get("outputs", []))
            assert "Traceback" not in out and ("first" in out), (src, out)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_projector_view_setup_collapsed_and_slides(path):
    cs = cells(path)
    first_code = next(c for c in cs if c["cell_type"] == "code")
    assert first_code["metadata"].get("jupyter", {}).get("source_hidden") is True
    slide_types = [c["metadata"].get("slideshow", {}).get("slide_type") for c in cs]
    # the setup cell shows nothing on a slide; the student's task cells stay open and on slides
    assert first_code["metadata"]["slideshow"]["slide_type"] == "skip"
    for c in cs:
        if "student-task" in tags(c):
            assert not c["metadata"].get("jupyter", {}).get("source_hidden")
            assert c["metadata"]["slideshow"]["slide_type"] != "skip"
    assert slide_types[0] == "slide" and slide_types.count("slide") >= 3, slide_types
    assert all(t in ("slide", "subslide", "fragment", "-", "skip", "notes") for t in slide_types)


def answered(path):
    """The notebook with the teacher's answers typed into its task cells (from the
    `lesson_answer` metadata of the teacher-only cells), or None when it has none."""
    nb = json.loads(path.read_text())
    answers = {}
    for c in nb["cells"]:
        answers.update(c.get("metadata", {}).get("lesson_answer", {}))
    if not answers:
        return None
    pending = {}
    for i, c in enumerate(nb["cells"]):
        src = "".join(c["source"])
        for name in ("my_guess", "by_hand"):
            if "student-task" in tags(c) and f"{name} = ..." in src:
                pending.setdefault(name, []).append(i)
    # each task cell gets the answer of the next teacher-only cell that names its variable
    for name, where in pending.items():
        for i in where:
            ans = next(d["metadata"]["lesson_answer"][name] for d in nb["cells"][i + 1:]
                       if name in d.get("metadata", {}).get("lesson_answer", {}))
            c = nb["cells"][i]
            c["source"] = "".join(c["source"]).replace(f"{name} = ...", f"{name} = {ans}")
    return nb


@pytest.mark.slow
@pytest.mark.parametrize("path", with_tasks(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_teachers_answers_pass_the_checks(path, tmp_path):
    """Run the lesson with the expected answers typed in: every check says so."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = answered(path)
    if nb is None:
        pytest.skip("no expected answers recorded")
    nb = nbformat.reads(json.dumps(nb), as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    verdicts = []
    for c in nb.cells:
        if c.cell_type == "code" and ("compare_guess(my_guess" in c.source or "check_by_hand(by_hand" in c.source):
            out = "".join(o.get("text", "") for o in c.outputs)
            verdicts.append(out)
            assert out.startswith(("Right", "Well predicted")), (c.source, out)
    assert len(verdicts) >= 2


# ---- the plans and the teacher guide -----------------------------------------------------

DOCS = REPO / "docs"
PLAN_SECTIONS = ("## Learning goals", "## Prerequisites", "## Timeline (45 minutes)",
                 "## Questions to ask, with their answers", "## Common misconceptions")


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_lesson_has_a_plan_in_the_guide(path):
    plan = DOCS / "lessons" / f"{path.parent.name}-{path.stem}.md"
    assert plan.is_file(), f"no lesson plan {plan.relative_to(REPO)}"
    text = plan.read_text(encoding="utf-8")
    for section in PLAN_SECTIONS:
        assert section in text, f"{plan.name}: no section {section!r}"
    assert f"../../notebooks/{path.parent.name}/{path.stem}.ipynb" in text
    guide = (DOCS / "teacher-guide.md").read_text(encoding="utf-8")
    assert f"(lessons/{plan.name})" in guide


def test_the_guide_names_the_curriculum_topics():
    guide = (DOCS / "teacher-guide.md").read_text(encoding="utf-8").lower()
    for topic in ("laplace", "complement", "conditional probability", "hypergeometric",
                  "expectation and linearity", "independence", "markov chains", "optimal stopping",
                  "expectimax", "mixed equilibria"):
        assert topic in guide, topic


@pytest.mark.parametrize("doc", [DOCS / "teacher-guide.md"] + sorted((DOCS / "lessons").glob("*.md")),
                         ids=lambda p: p.name)
def test_doc_links_resolve(doc):
    import re
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
        if "://" in target:
            continue
        assert (doc.parent / target).resolve().exists(), f"{doc.name}: broken link {target}"


def test_the_task_script_rebuilds_the_committed_task_cells(tmp_path):
    """tools/lesson_tasks.py run on the committed notebooks changes no cell's source or
    metadata: the script and the notebooks agree, and a rerun is harmless (the lead can
    re-insert the tasks into a notebook that someone else edited)."""
    import shutil
    import subprocess
    import sys
    shutil.copytree(REPO / "notebooks", tmp_path / "notebooks")
    (tmp_path / "tools").mkdir()
    shutil.copy(REPO / "tools" / "lesson_tasks.py", tmp_path / "tools")
    run = subprocess.run([sys.executable, str(tmp_path / "tools" / "lesson_tasks.py")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr

    def cells(path):
        nb = json.loads(path.read_text(encoding="utf-8"))
        return [(c["id"], c["cell_type"], "".join(c["source"]),
                 {k: v for k, v in c.get("metadata", {}).items() if k != "execution"})
                for c in nb["cells"]]
    for path in LESSONS:
        rebuilt = tmp_path / path.relative_to(REPO)
        assert cells(rebuilt) == cells(path), path.relative_to(REPO)
