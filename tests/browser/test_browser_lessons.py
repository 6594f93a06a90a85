"""The projector view of a lesson in a real browser: JupyterLab opens the lesson with its
setup code collapsed, and RISE (jupyterlab-rise) presents it as slides.

The lesson is opened, not run: the collapsed inputs and the slides come from the stored
notebook (its ``jupyter.source_hidden`` and ``slideshow`` metadata and its stored outputs).
Screenshots go to ``artifacts/``.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LESSON = "notebooks/woods/odds.ipynb"
LOAD_TIMEOUT = 120_000      # ms: JupyterLab and the kernel on a shared machine

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def hidden_code_cells(path: Path) -> list[int]:
    """Indices (among all cells) of the code cells stored with their input collapsed."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [i for i, c in enumerate(cells) if c["cell_type"] == "code"
            and c["metadata"].get("jupyter", {}).get("source_hidden")]


def open_lesson(page, base: str):
    page.goto(f"{base}/lab/tree/{LESSON}?reset", wait_until="domcontentloaded")
    page.wait_for_function(
        """(path) => {
            const app = window.jupyterapp;
            const w = app && app.shell.currentWidget;
            return w && w.context && w.context.path === path && w.content
                   && w.content.widgets && w.content.widgets.length > 0
                   && w.context.isReady;
        }""", arg=LESSON, timeout=LOAD_TIMEOUT)
    panel_id = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
    return f"[id='{panel_id}']"


def test_lesson_opens_with_setup_code_collapsed(page, lab, artifacts):
    base, root = lab
    hidden = hidden_code_cells(root / LESSON)
    assert hidden, "the lesson stores no collapsed code cell"
    sel = open_lesson(page, base)
    page.wait_for_selector(f"{sel} .jp-Notebook .jp-Cell", timeout=LOAD_TIMEOUT)
    states = page.evaluate(
        """(sel) => {
            const w = window.jupyterapp.shell.currentWidget;
            return w.content.widgets.map(cell => ({
                type: cell.model.type,
                inputHidden: cell.inputHidden,
                placeholder: !!cell.node.querySelector('.jp-InputPlaceholder'),
                editorShown: !!cell.node.querySelector('.jp-InputArea-editor')
                              && cell.node.querySelector('.jp-InputArea-editor').offsetParent !== null,
            }));
        }""", sel)
    page.screenshot(path=str(artifacts / "lesson-projector-view.png"))
    for i in hidden:
        s = states[i]
        assert s["type"] == "code" and s["inputHidden"], (i, s)
        assert s["placeholder"] and not s["editorShown"], (i, s)
    # the student's task cells stay open: they type into them
    cells = json.loads((root / LESSON).read_text(encoding="utf-8"))["cells"]
    tasks = [i for i, c in enumerate(cells) if c["cell_type"] == "code"
             and "student-task" in c["metadata"].get("tags", [])]
    assert tasks and all(not states[i]["inputHidden"] for i in tasks)


def test_rise_presents_the_lesson_as_slides(page, lab, artifacts):
    base, _ = lab
    open_lesson(page, base)
    commands = page.evaluate("() => window.jupyterapp.commands.listCommands()")
    assert "RISE:slideshow" in commands, "jupyterlab-rise is not installed in this JupyterLab"
    with page.context.expect_page(timeout=LOAD_TIMEOUT) as new_tab:
        page.evaluate("() => { window.jupyterapp.commands.execute('RISE:slideshow'); }")
    slides = new_tab.value
    slides.wait_for_load_state("domcontentloaded", timeout=LOAD_TIMEOUT)
    current = slides.locator(".reveal .slides section.present").first
    current.wait_for(state="visible", timeout=LOAD_TIMEOUT)
    slides.wait_for_function(
        "() => /King of the Woods/.test(document.querySelector('.reveal .slides section.present').innerText)",
        timeout=LOAD_TIMEOUT)
    first = current.inner_text()
    slides.screenshot(path=str(artifacts / "lesson-rise-first-slide.png"))
    assert "King of the Woods" in first and "What this teaches" in first
    total = slides.evaluate("() => document.querySelectorAll('.reveal .slides > section').length")
    assert total >= 3, f"only {total} slides"
    # the next slide is the lesson's next section, with its own text
    slides.keyboard.press("ArrowRight")
    slides.wait_for_function(
        """(first) => {
            const s = document.querySelector('.reveal .slides section.present');
            // a new slide with its own text, at rest (the slide transition has ended)
            return s && s.innerText.trim() && s.innerText !== first
                   && Math.abs(s.getBoundingClientRect().left
                               - document.querySelector('.reveal .slides').getBoundingClientRect().left) < 2;
        }""", arg=first, timeout=LOAD_TIMEOUT)
    assert "What player 1 sees" in slides.locator(".reveal .slides section.present").first.inner_text()
    # the collapsed code shows its output only (notebooks/<game>/rise.css), no placeholder line
    placeholders = slides.evaluate(
        """() => [...document.querySelectorAll('.reveal .slides section.present .jp-InputPlaceholder')]
                 .filter(p => p.offsetParent !== null).length""")
    outputs = slides.evaluate(
        "() => document.querySelectorAll('.reveal .slides section.present .jp-OutputArea-output').length")
    assert placeholders == 0 and outputs >= 1, (placeholders, outputs)
    slides.screenshot(path=str(artifacts / "lesson-rise-second-slide.png"))
    slides.close()
