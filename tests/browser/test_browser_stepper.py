"""The Stepper in a real browser: JupyterLab (index and every walkthrough) and Voila
(one walkthrough; the class pages are in test_browser_apps.py).

Each test runs the notebook, clicks a Stepper choice (a decision button; at a chance
node an outcome or the roll button), checks the displayed state text changed, clicks
undo and checks it changed back.  Screenshots go to ``artifacts/``.

Waits (page load, kernel start, Run All, the kernel's answer to a click) have
timeouts; the assertions themselves are made once, never retried.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import kingdoms

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUN_TIMEOUT = 150_000        # ms: kernel start + Run All on a shared 2-core machine
CLICK_TIMEOUT = 30_000       # ms: the kernel's answer to one click


def walkthrough_game() -> str | None:
    """The game whose walkthrough the browser tests drive: $KINGDOMS_BROWSER_GAME, or
    the first game (index's game first) whose walkthrough shows a Stepper."""
    wanted = os.environ.get("KINGDOMS_BROWSER_GAME")
    order = ([wanted] if wanted else []) + ["woods"] + kingdoms.games()
    for name in order:
        nb = REPO / "notebooks" / name / "walkthrough.ipynb"
        if nb.is_file() and "Stepper(" in nb.read_text(encoding="utf-8"):
            return name
    return None


def run_all_in_lab(page, base: str, notebook: str):
    """Open ``notebook`` (a path under the lab root), Run All, wait for a live Stepper.

    Returns a locator of that notebook's panel (other tabs are ignored)."""
    # ?reset: a fresh workspace, so no tab of an earlier test is restored
    page.goto(f"{base}/lab/tree/{notebook}?reset", wait_until="domcontentloaded")
    page.wait_for_function(
        """(path) => {
            const app = window.jupyterapp;
            const w = app && app.shell.currentWidget;
            const k = w && w.context && w.context.path === path && w.sessionContext
                      && w.sessionContext.session && w.sessionContext.session.kernel;
            return k && k.connectionStatus === 'connected' && k.status === 'idle';
        }""", arg=notebook, timeout=RUN_TIMEOUT)
    panel_id = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
    sel = f"[id='{panel_id}']"
    # clear the committed outputs first (saved widget views must not be mistaken for
    # live ones), then start Run All without awaiting it: the waits below time out
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.wait_for_function("(sel) => !document.querySelector(sel + ' .kingdoms-stepper')",
                           arg=sel, timeout=CLICK_TIMEOUT)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    # Run All stops at an error: wait for a live Stepper OR a traceback, then check
    page.wait_for_function(
        """(sel) => document.querySelector(sel + ' .kingdoms-stepper .kingdoms-state')
              || [...document.querySelectorAll(sel + ' .jp-OutputArea-output')].some(
                     o => /Traceback|\\w+Error: /.test(o.innerText))""",
        arg=sel, timeout=RUN_TIMEOUT)
    panel = page.locator(sel)
    errors = errors_in_lab(panel)
    if errors:
        page.screenshot(path=str(ARTIFACTS / f"lab-error-{Path(notebook).stem}.png"))
    assert errors == [], f"{notebook} raised while running:\n" + "\n".join(errors)
    # Run All has finished when no cell waits ([*]) and the kernel is idle
    page.wait_for_function(
        """(sel) => {
            const w = window.jupyterapp.shell.currentWidget;
            const k = w.sessionContext.session.kernel;
            const prompts = [...document.querySelectorAll(
                sel + ' .jp-CodeCell .jp-InputArea-prompt')];
            return k.status === 'idle' && prompts.length > 0
                && prompts.every(p => !p.textContent.includes('*'));
        }""", arg=sel, timeout=RUN_TIMEOUT)
    return panel


def errors_in_lab(panel) -> list[str]:
    """Tracebacks (and widgets that failed to render) shown in the notebook's outputs;
    warnings and progress bars are fine."""
    texts = panel.locator(".jp-OutputArea-output").all_inner_texts()
    return [t[:2000] for t in texts
            if "Traceback (most recent call last)" in t or "Error displaying widget" in t
            or re.search(r"^\w+Error: ", t, re.M)]


def step_counter(stepper) -> str:
    return stepper.locator(".kingdoms-status").inner_text()


def hold_still(page, stepper) -> None:
    """Stop what moves by itself (bot seats, chance "by itself"), so that the steps a
    test counts are its own clicks: press "pause bots", untick "roll / draw by itself"
    and wait for the kernel's answer."""
    pause = stepper.locator("button.kingdoms-pause-bots")
    if pause.count() and "paused" not in pause.inner_text():
        pause.click()
        page.wait_for_function("el => el.innerText.includes('paused')",
                               arg=pause.element_handle(), timeout=CLICK_TIMEOUT)
    auto = stepper.locator(".kingdoms-auto-chance input")
    if auto.count() and auto.is_checked():
        auto.uncheck()
        page.wait_for_function("el => !el.checked", arg=auto.element_handle(),
                               timeout=CLICK_TIMEOUT)


def click_and_undo(page, stepper, shot: Path) -> tuple[str, str]:
    """Click a choice in ``stepper``; the state text must change; undo must restore it.
    Bots and chance "by itself" are stopped first (``hold_still``)."""
    stepper.scroll_into_view_if_needed()
    hold_still(page, stepper)
    state = stepper.locator(".kingdoms-state")
    before = state.inner_text()
    before_status = step_counter(stepper)
    assert re.match(r"step (\d+) of (\d+)", before_status.strip()), before_status
    for css in (".kingdoms-action", ".kingdoms-outcome", ".kingdoms-roll"):
        buttons = stepper.locator(f"button{css}:not([disabled])")
        if buttons.count():
            choice = buttons.first
            break
    else:
        pytest.fail("the Stepper shows no button to click:\n" + stepper.inner_text())
    label = choice.inner_text()
    step = int(re.match(r"step (\d+)", before_status.strip()).group(1))
    choice.click()
    # wait for the kernel's answer: the step counter is the last part the Stepper updates
    page.wait_for_function(
        "([el, text]) => el.innerText.trim().startsWith(text)",
        arg=[stepper.locator(".kingdoms-status").element_handle(), f"step {step + 1} of"],
        timeout=CLICK_TIMEOUT)
    after = state.inner_text()
    assert after != before, f"clicking {label!r} left the displayed state unchanged"
    page.screenshot(path=str(shot))
    stepper.screenshot(path=str(shot.with_name(shot.stem + "-stepper.png")))
    stepper.locator("button.kingdoms-undo").click()
    page.wait_for_function(
        "([el, text]) => el.innerText.trim().startsWith(text)",
        arg=[stepper.locator(".kingdoms-status").element_handle(), f"step {step} of"],
        timeout=CLICK_TIMEOUT)
    assert state.inner_text() == before, "undo did not restore the displayed state"
    return label, after


def test_index_notebook_in_jupyterlab(lab, page, artifacts):
    base, root = lab
    if not (root / "notebooks" / "index.ipynb").is_file():
        pytest.skip("notebooks/index.ipynb does not exist")
    panel = run_all_in_lab(page, base, "notebooks/index.ipynb")
    assert errors_in_lab(panel) == []
    stepper = panel.locator(".kingdoms-stepper").first
    click_and_undo(page, stepper, artifacts / "lab-index.png")
    # "open tree here" draws a TreeExplorer (an image rendered in the kernel); in a game
    # with hidden cards it needs the teacher's view first
    tree_button = stepper.locator("button.kingdoms-open-tree")
    if tree_button.is_disabled():
        stepper.locator(".kingdoms-perspective select").select_option(
            label="everything (teacher)")
        page.wait_for_function("el => !el.disabled", arg=tree_button.element_handle(),
                               timeout=CLICK_TIMEOUT)
    tree_button.click()
    # the drawing is inline SVG (its labels carry their whole text on hover), named for
    # screen readers
    tree_image = stepper.locator(".kingdoms-tree .kingdoms-tree-image svg[role='img']").first
    tree_image.wait_for(state="visible", timeout=CLICK_TIMEOUT)
    page.wait_for_function("el => el.getBoundingClientRect().width > 0",
                           arg=tree_image.element_handle(), timeout=CLICK_TIMEOUT)
    assert "From here:" in stepper.locator(".kingdoms-tree-info").inner_text()
    assert tree_image.get_attribute("aria-label").startswith("Game tree from")
    stepper.locator(".kingdoms-tree").first.screenshot(path=str(artifacts / "lab-index-tree.png"))


WALKTHROUGH_GAMES = [g for g in kingdoms.games()
                     if (REPO / "notebooks" / g / "walkthrough.ipynb").is_file()]


def test_every_game_has_a_walkthrough():
    # highcard is the library's tiny test game, not a lesson
    assert set(WALKTHROUGH_GAMES) == set(kingdoms.games()) - {"highcard"}


@pytest.mark.parametrize("game", WALKTHROUGH_GAMES)
def test_walkthrough_notebook_in_jupyterlab(lab, page, artifacts, game):
    """Every walkthrough: Run All without a traceback, a live Stepper, click and undo.

    One JupyterLab server (the session's ``lab``) serves all of them; screenshots
    artifacts/lab-walkthrough-<game>.png (page after the click) and
    artifacts/lab-walkthrough-<game>-stepper.png (the Stepper after the click)."""
    base, root = lab
    notebook = f"notebooks/{game}/walkthrough.ipynb"
    assert "Stepper(" in (root / notebook).read_text(encoding="utf-8"), \
        f"{notebook} shows no Stepper"
    panel = run_all_in_lab(page, base, notebook)
    assert errors_in_lab(panel) == []
    stepper = panel.locator(".kingdoms-stepper").first
    click_and_undo(page, stepper, artifacts / f"lab-walkthrough-{game}.png")
    # a click that raised in the kernel would print its traceback into an output area
    assert errors_in_lab(panel) == []


def test_walkthrough_as_a_voila_app(voila, page, artifacts):
    game = walkthrough_game()
    if game is None:
        pytest.skip("no notebooks/<game>/walkthrough.ipynb with a Stepper exists yet")
    base = voila(REPO / "notebooks" / game / "walkthrough.ipynb")
    page.goto(base + "/", wait_until="domcontentloaded", timeout=RUN_TIMEOUT)
    page.wait_for_function(
        """() => document.querySelector('.kingdoms-stepper .kingdoms-state')
              || /Traceback|There was an error/.test(document.body.innerText)""",
        timeout=RUN_TIMEOUT)
    body = page.inner_text("body")
    if page.locator(".kingdoms-stepper").count() == 0:
        page.screenshot(path=str(ARTIFACTS / f"voila-error-{game}.png"))
        pytest.fail(f"the walkthrough of {game} failed under Voila:\n{body[-3000:]}")
    assert "Stepper(" not in body, "Voila shows the code"
    stepper = page.locator(".kingdoms-stepper").first
    click_and_undo(page, stepper, artifacts / f"voila-walkthrough-{game}.png")
