"""make handouts: one PDF of one or two pages per lesson, with the tasks and room to
answer, no code and nothing from the teacher-only cells (tools/handouts.py)."""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytest.importorskip("fpdf")
pytest.importorskip("mistune")
pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")


def load_tool():
    spec = importlib.util.spec_from_file_location("handouts", REPO / "tools" / "handouts.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["handouts"] = module
    spec.loader.exec_module(module)
    return module


handouts = load_tool()
LESSONS = handouts.lesson_notebooks()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    dest = tmp_path_factory.mktemp("handouts")
    assert handouts.main(["--dest", str(dest)]) == 0
    return dest


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_fifteen_lessons():
    assert len(LESSONS) == 15 and all(p.is_file() for p in LESSONS)


@pytest.mark.slow
@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_one_or_two_pages_none_blank(built, notebook):
    pdf = built / f"{notebook.parent.name}-{notebook.stem}.pdf"
    reader = pypdf.PdfReader(pdf)
    assert 1 <= len(reader.pages) <= 2
    doc = pdfium.PdfDocument(str(pdf))
    assert len(doc) == len(reader.pages)
    for i, page in enumerate(reader.pages):
        assert len(words(page.extract_text())) > 100, f"page {i + 1} holds almost no text"
        image = doc[i].render(scale=0.5).to_pil().convert("L")
        low, high = image.getextrema()
        assert high - low > 100, f"page {i + 1} renders blank"


@pytest.mark.slow
@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_questions_and_answer_room_but_no_code_or_answers(built, notebook):
    text = words(" ".join(p.extract_text() for p in
                          pypdf.PdfReader(built / f"{notebook.parent.name}-{notebook.stem}.pdf").pages))
    cells = json.loads(notebook.read_text())["cells"]
    title = "".join(cells[0]["source"]).splitlines()[0].lstrip("# ")
    assert words(title)[:30] in text
    tasks = [c for c in cells if "student-task" in c["metadata"].get("tags", [])
             and "handout" in c["metadata"].get("tags", [])]
    assert len(tasks) >= 3
    for c in tasks:
        first_words = words(re.sub(r"[*`]", "", handouts.plain_math("".join(c["source"]))))[:40]
        assert first_words in text, first_words
    assert text.count("My answer:") + text.count("My prediction") >= 3
    # nothing a student should not see on paper: code, or the teacher's answers
    for code in ("import ", "compare_guess", "check_by_hand", "by_hand =", "my_guess ="):
        assert code not in text
    assert "For the teacher" not in text
    for c in cells:
        if "teacher-only" in c["metadata"].get("tags", []):
            answer = words("".join(c["source"]).split("**", 2)[-1])[:60]
            assert answer not in text


def test_math_prints_as_a_student_writes_it():
    assert handouts.plain_math(r"$\binom{13}{7}/\binom{17}{7} \approx 0.088$") == "C(13, 7)/C(17, 7) ≈ 0.088"
    assert handouts.plain_math(r"$P = 3h^2(1-h) + h^3$") == "P = 3h²(1-h) + h³"


def test_a_notebook_without_tasks_is_refused(tmp_path):
    nb = {"cells": [{"cell_type": "markdown", "metadata": {"tags": ["handout"]},
                     "source": "# A lesson\n\nTime: about 20 minutes."}]}
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(nb))
    with pytest.raises(SystemExit, match="student-task"):
        handouts.build(path, tmp_path)


def test_too_long_is_refused(tmp_path):
    long = {"cell_type": "markdown", "metadata": {"tags": ["student-task", "handout"]},
            "source": "**Explain in words.** " + "Why? " * 400}
    nb = {"cells": [{"cell_type": "markdown", "metadata": {"tags": ["handout"]},
                     "source": "# A lesson\n\nTime: about 20 minutes."}] + [long] * 6}
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(nb))
    with pytest.raises(SystemExit, match="two pages|2 pages"):
        handouts.build(path, tmp_path)
