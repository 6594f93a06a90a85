"""German in a real browser (issue 31): a German class page under Voila and a German
walkthrough with the Stepper in a German JupyterLab (as ``make lab-de`` starts it).

Each test presses a few buttons and waits for the page's answer, then reads what a
person sees (texts and the names given to controls: aria-label, title, alt) and fails on
English words (tests/german.py's ``german_scan``).  Screenshots:
artifacts/german-class-page-*.png and artifacts/german-walkthrough-*.png.

Both use the German twins (tools/twins.py): apps/de/woods.ipynb and
notebooks/de/woods/walkthrough.ipynb.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from german import german_scan

REPO = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 150_000        # ms: kernel start + Run All on a shared 2-core machine
CLICK_TIMEOUT = 30_000       # ms: the kernel's answer to one click

CLASS_PAGE = "apps/de/woods.ipynb"
WALKTHROUGH = "notebooks/de/woods/walkthrough.ipynb"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _sibling(name: str):
    """A module of this folder (the browser tests are not a package)."""
    spec = importlib.util.spec_from_file_location(f"kingdoms_{name}",
                                                  Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def need(rel: str) -> None:
    assert (REPO / rel).is_file(), f"{rel} is missing: the German twins (tools/twins.py) belong to the checkout"


def click_and_wait(page, button, watched) -> None:
    """Click ``button`` and wait until ``watched``'s text changes (the kernel answered)."""
    before = watched.inner_text()
    button.click()
    page.wait_for_function("([el, old]) => el.innerText !== old",
                           arg=[watched.element_handle(), before], timeout=CLICK_TIMEOUT)


def a_choice(stepper):
    """The first enabled choice of the Stepper (a move, a chance outcome, or the roll),
    once the kernel has drawn one."""
    css = ", ".join(f"button{c}:not([disabled])"
                    for c in (".kingdoms-action", ".kingdoms-outcome", ".kingdoms-roll"))
    choice = stepper.locator(css).first
    choice.wait_for(timeout=CLICK_TIMEOUT)
    return choice


def hold_still(page, stepper) -> None:
    """Stop what moves by itself (bot seats, chance "by itself"), whatever the words."""
    pause = stepper.locator("button.kingdoms-pause-bots")
    # a pressed ToggleButton carries mod-active (ipywidgets), in any language
    if pause.count() and "mod-active" not in (pause.first.get_attribute("class") or ""):
        pause.first.click()
        page.wait_for_function("el => el.classList.contains('mod-active')",
                               arg=pause.first.element_handle(), timeout=CLICK_TIMEOUT)
    auto = stepper.locator(".kingdoms-auto-chance input")
    if auto.count() and auto.is_checked():
        auto.uncheck()
        page.wait_for_function("el => !el.checked", arg=auto.element_handle(),
                               timeout=CLICK_TIMEOUT)


def test_german_class_page_under_voila(voila, page, artifacts):
    need(CLASS_PAGE)
    class_pages = _sibling("test_browser_class_pages")
    base = voila(REPO / CLASS_PAGE)
    stepper = class_pages.open_class_page(page, base + "/", "de-woods")
    app = page.locator(".kingdoms-app").first
    page.screenshot(path=str(artifacts / "german-class-page-table.png"), full_page=True)
    status = stepper.locator(".kingdoms-status")
    # a new deal, the player to move shows their hand and makes a move, hands hidden again
    click_and_wait(page, page.locator("button.kingdoms-new-deal"), page.locator(".kingdoms-deal"))
    click_and_wait(page, stepper.locator("button.kingdoms-show-hand").first,
                   stepper.locator(".kingdoms-title"))
    click_and_wait(page, a_choice(stepper), status)
    page.screenshot(path=str(artifacts / "german-class-page-after-a-move.png"), full_page=True)
    german_scan([app.inner_html()], f"{CLASS_PAGE} under Voila, after a move")
    click_and_wait(page, stepper.locator("button.kingdoms-hide-hands"),
                   stepper.locator(".kingdoms-title"))
    german_scan([app.inner_html()], f"{CLASS_PAGE} under Voila, hands hidden")
    assert "Traceback" not in page.inner_text("body")


def test_german_walkthrough_with_the_stepper_in_german_jupyterlab(request, page, artifacts):
    need(WALKTHROUGH)
    stepper_tests = _sibling("test_browser_stepper")
    base, _ = request.getfixturevalue("lab_de")      # started only when the twin is there
    panel = stepper_tests.run_all_in_lab(page, base, WALKTHROUGH)
    # JupyterLab itself speaks German (its language pack, chosen as make lab-de does)
    menu = page.locator("#jp-MainMenu").inner_text()
    assert "Einstellungen" in menu and "Settings" not in menu, menu
    stepper = panel.locator(".kingdoms-stepper").first
    stepper.scroll_into_view_if_needed()
    hold_still(page, stepper)
    status = stepper.locator(".kingdoms-status")
    for n in range(3):                   # three steps forward, one back
        click_and_wait(page, a_choice(stepper), status)
        if n == 0:
            page.screenshot(path=str(artifacts / "german-walkthrough-first-step.png"))
    click_and_wait(page, stepper.locator("button.kingdoms-undo"), status)
    page.screenshot(path=str(artifacts / "german-walkthrough-after-undo.png"))
    stepper.screenshot(path=str(artifacts / "german-walkthrough-stepper.png"))
    assert stepper_tests.errors_in_lab(panel) == []
    german_scan([stepper.inner_html()], f"the Stepper of {WALKTHROUGH}")
