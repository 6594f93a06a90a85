"""The class pages made for a projector, in a real browser (Voila, and Voila inside the
JupyterLab server as on Binder), and the index's links to them.

* The page opens on the table: a card of a known hand (deal #4711, typed into "replay
  deal #") is nowhere in the page's HTML (texts, attributes, tooltips) until "show
  Player 1's hand", and is gone again after "hide hands".
* "new deal" changes the deal number shown.
* A seat given to a bot moves without a click on any play button.
* ``<lab>/voila/render/apps/woods.ipynb`` serves the page from the lab server, and the
  index's "Class pages" link opens apps/woods.ipynb in JupyterLab.

Screenshots: artifacts/class-page-*.png.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import kingdoms

REPO = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 150_000        # ms: kernel start + the page's cell on a shared machine
CLICK_TIMEOUT = 30_000       # ms: the kernel's answer to one click

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def open_class_page(page, url: str, name: str):
    page.goto(url, wait_until="domcontentloaded", timeout=RUN_TIMEOUT)
    page.wait_for_function(
        """() => document.querySelector('.kingdoms-app .kingdoms-stepper .kingdoms-status')
              || /Traceback|There was an error/.test(document.body.innerText)""",
        timeout=RUN_TIMEOUT)
    if page.locator(".kingdoms-app").count() == 0:
        page.screenshot(path=str(REPO / "artifacts" / f"class-page-error-{name}.png"))
        pytest.fail(f"the class page failed:\n{page.inner_text('body')[-3000:]}")
    return page.locator(".kingdoms-stepper").first


def wait_text(page, locator, pattern: str):
    """Wait until ``locator``'s text matches the regular expression ``pattern``."""
    page.wait_for_function("([el, p]) => new RegExp(p).test(el.innerText)",
                           arg=[locator.element_handle(), pattern], timeout=CLICK_TIMEOUT)


def secret_cards(seed: int) -> set[str]:
    """Player 1's cards in the woods deal ``seed`` that the table page names nowhere
    else (worked out here, with the same library, as the page's kernel does)."""
    pytest.importorskip("ipywidgets")
    from kingdoms.widgets.app import class_app
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "kingdoms_class_page_widgets", REPO / "tests" / "widgets" / "test_widgets_class_pages.py")
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    # the page's other texts (rules card, odds chart) are in its notebook: a card they
    # name does not count as hidden
    app = class_app("woods", rules=(REPO / "apps" / "woods.ipynb").read_text(), seed=seed,
                    timer=helpers.FakeTimer())
    table = " ".join(helpers.widget_texts(app))
    return {c for c in app.stepper.state.hands[0] if c not in table}


def test_class_page_opens_on_the_table_and_shows_a_hand_only_when_asked(voila_apps, page,
                                                                         artifacts):
    stepper = open_class_page(page, f"{voila_apps}/voila/render/woods.ipynb", "woods")
    title = stepper.locator(".kingdoms-title")
    assert "showing the table" in stepper.inner_text()
    deal = page.locator(".kingdoms-deal")
    assert re.search(r"deal #\d+", deal.inner_text())
    # replay a known deal, so the test knows a hidden card
    page.locator(".kingdoms-deal-input input").fill("4711")
    page.locator("button.kingdoms-replay-deal").click()
    wait_text(page, deal, r"deal #4711\b")
    secret = secret_cards(4711)
    assert secret, "deal #4711 should hold a card the table names nowhere else"
    html = page.content()
    assert not any(c in html for c in secret), "a card of Player 1's hand is in the page"
    page.screenshot(path=str(artifacts / "class-page-table.png"), full_page=True)
    # the player to move asks for their hand
    stepper.locator("button.kingdoms-show-hand").first.click()
    wait_text(page, title, "what Player 1 may see")
    shown = page.inner_text("body")
    assert any(c in shown for c in secret)
    stepper.locator("button.kingdoms-action").first.wait_for(timeout=CLICK_TIMEOUT)
    page.screenshot(path=str(artifacts / "class-page-hand.png"), full_page=True)
    stepper.locator("button.kingdoms-hide-hands").click()
    wait_text(page, title, "showing the table")
    page.wait_for_function("() => !document.querySelector('.kingdoms-stepper "
                           "button.kingdoms-action')", timeout=CLICK_TIMEOUT)
    assert not any(c in page.content() for c in secret)


def test_new_deal_changes_the_number_shown(voila_apps, page):
    open_class_page(page, f"{voila_apps}/voila/render/woods.ipynb", "woods")
    deal = page.locator(".kingdoms-deal")
    before = re.search(r"deal #\d+", deal.inner_text()).group(0)
    page.locator("button.kingdoms-new-deal").click()
    page.wait_for_function("([el, old]) => /deal #\\d+/.test(el.innerText) && "
                           "!el.innerText.includes(old + ' ') && el.innerText.trim() !== old",
                           arg=[deal.element_handle(), before], timeout=CLICK_TIMEOUT)
    assert re.search(r"deal #\d+", deal.inner_text()).group(0) != before


def test_a_bot_seat_moves_without_a_click(voila_apps, page, artifacts):
    stepper = open_class_page(page, f"{voila_apps}/voila/render/woods.ipynb", "woods")
    status = stepper.locator(".kingdoms-status")
    assert status.inner_text().strip().startswith("step 0 of 0")
    # Player 1 is to move; give the seat to a bot: nothing else is clicked
    stepper.locator(".kingdoms-seat select").first.select_option(label="bot (random)")
    page.wait_for_function("el => /^step [1-9]/.test(el.innerText.trim())",
                           arg=status.element_handle(), timeout=CLICK_TIMEOUT)
    log = stepper.locator(".kingdoms-log").evaluate("el => el.textContent")
    assert "Player 1: " in log, log                  # the bot's move, in the log
    page.screenshot(path=str(artifacts / "class-page-bot-moved.png"), full_page=True)


def test_class_page_inside_the_lab_server(lab, page, artifacts):
    """As on Binder: the lab's own server renders apps/<game>.ipynb with Voila."""
    base, root = lab
    assert (root / "apps" / "woods.ipynb").is_file()
    stepper = open_class_page(page, f"{base}/voila/render/apps/woods.ipynb", "lab-woods")
    assert "showing the table" in stepper.inner_text()
    page.screenshot(path=str(artifacts / "class-page-in-lab.png"), full_page=True)


def test_index_links_every_class_page_and_a_link_opens_it(lab, page, artifacts):
    base, root = lab
    index = (root / "notebooks" / "index.ipynb").read_text(encoding="utf-8")
    games = [g for g in kingdoms.games() if g != "highcard"]
    for g in games:
        assert f"](../apps/{g}.ipynb)" in index, g
        assert f"/voila/render/apps/{g}.ipynb" in index, g
    page.goto(f"{base}/lab/tree/notebooks/index.ipynb?reset", wait_until="domcontentloaded")
    page.wait_for_function(
        """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                   return w && w.context && w.context.path === 'notebooks/index.ipynb'; }""",
        timeout=RUN_TIMEOUT)
    link = page.locator(".jp-RenderedMarkdown a", has_text="King of the Woods — class page")
    link.first.scroll_into_view_if_needed()
    link.first.click()
    page.wait_for_function(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   return w && w.context && w.context.path === 'apps/woods.ipynb'; }""",
        timeout=CLICK_TIMEOUT)
    page.screenshot(path=str(artifacts / "class-page-opened-from-index.png"))
