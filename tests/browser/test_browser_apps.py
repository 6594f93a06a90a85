"""The Voila class pages (apps/<game>.ipynb, ``make app GAME=<game>``) in a real browser.

One Voila server serves apps/; for every game the page must show the title, the
rules card, a live Stepper on the table with seat choices and the odds chart (an image
with alt text), and no code.  Shown the hand of the player to move, a click on a move
must change the displayed state and undo must restore it (test_browser_class_pages.py
checks the table, the hands, deals and bots).  Screenshots: artifacts/voila-app-<game>.png (the whole page) and
artifacts/voila-app-<game>-stepper.png (the Stepper after the click).
"""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _stepper_tests():
    """The click-and-undo helper of test_browser_stepper.py (one definition)."""
    import importlib.util
    path = Path(__file__).with_name("test_browser_stepper.py")
    spec = importlib.util.spec_from_file_location("kingdoms_browser_stepper", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_helpers = _stepper_tests()
ARTIFACTS, RUN_TIMEOUT, click_and_undo = (_helpers.ARTIFACTS, _helpers.RUN_TIMEOUT,
                                          _helpers.click_and_undo)
APPS = sorted(p.stem for p in (REPO / "apps").glob("*.ipynb"))

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_every_game_has_a_class_page():
    import kingdoms
    assert set(APPS) == set(kingdoms.games()) - {"highcard"}


@pytest.mark.parametrize("game", APPS)
def test_class_page_in_voila(voila_apps, page, artifacts, game):
    page.goto(f"{voila_apps}/voila/render/{game}.ipynb", wait_until="domcontentloaded",
              timeout=RUN_TIMEOUT)
    page.wait_for_function(
        """() => document.querySelector('.kingdoms-app .kingdoms-stepper .kingdoms-state')
              || /Traceback|There was an error/.test(document.body.innerText)""",
        timeout=RUN_TIMEOUT)
    body = page.inner_text("body")
    if page.locator(".kingdoms-app").count() == 0:
        page.screenshot(path=str(ARTIFACTS / f"voila-app-error-{game}.png"), full_page=True)
        pytest.fail(f"the class page of {game} failed under Voila:\n{body[-3000:]}")
    for code in ("class_app(", "import kingdoms", "DistributionPlot("):
        assert code not in body, f"the page shows code ({code})"
    assert "Traceback" not in body
    assert page.locator(".kingdoms-app-title h1").inner_text().strip()
    assert "The rules in one paragraph" in page.locator(".kingdoms-rules-card").inner_text()
    assert page.locator(".kingdoms-stepper .kingdoms-seat").count() >= 2
    chart = page.locator(".kingdoms-app-odds .kingdoms-distribution-image img").first
    chart.wait_for(state="visible", timeout=RUN_TIMEOUT)
    assert chart.get_attribute("alt").startswith("Bar chart")
    status = page.locator(".kingdoms-stepper .kingdoms-status").inner_text()
    assert "Chance event" not in status and "Player 0" not in status
    stepper = page.locator(".kingdoms-stepper").first
    # the page opens on the table (no moves shown: they would show a hand); the
    # player to move looks at their own hand to choose
    assert "showing the table" in stepper.locator(".kingdoms-title").inner_text()
    stepper.locator(".kingdoms-perspective select").select_option(label="the player to move")
    page.wait_for_function("el => !el.innerText.includes('showing the table')",
                           arg=stepper.locator(".kingdoms-title").element_handle(),
                           timeout=RUN_TIMEOUT)
    shot = artifacts / f"voila-app-{game}.png"
    click_and_undo(page, stepper, shot)
    page.screenshot(path=str(shot), full_page=True)
    odds = page.locator(".kingdoms-app-odds").first
    odds.scroll_into_view_if_needed()
    odds.screenshot(path=str(artifacts / f"voila-app-{game}-odds.png"))
