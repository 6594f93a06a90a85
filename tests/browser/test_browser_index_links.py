"""The index's concept links in a real JupyterLab (issue 28): clicking one opens that
game's notebook, and the section the link is titled with is reached through the
notebook's table of contents, as the index tells the student.

JupyterLab 4.6 opens another notebook at its top (a heading fragment is followed only
when that notebook is already open), so the links carry the section's title; the static
check that every such link is titled with its section is in tests/test_notebook_links.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<file>[^)#\s]+\.ipynb)#(?P<fragment>[^)\s]+)\)")


def concept_links() -> list[tuple[str, str]]:
    """``(link text, target notebook)`` of the index's links into other notebooks' sections."""
    nb = nbformat.read(REPO / "notebooks" / "index.ipynb", as_version=4)
    return [(m.group("text"), m.group("file")) for cell in nb.cells
            if cell.cell_type == "markdown" for m in LINK.finditer(cell.source)]


def test_a_concept_link_opens_its_notebook_and_the_toc_reaches_its_section(lab, page,
                                                                           artifacts):
    base, _root = lab
    links = concept_links()
    assert len(links) >= 20
    text, target = next((t, f) for t, f in links if f == "woods/odds.ipynb")
    page.goto(f"{base}/lab/tree/notebooks/index.ipynb?reset", wait_until="domcontentloaded")
    page.wait_for_function(
        "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
        " return w && w.context && w.context.path === 'notebooks/index.ipynb'; }",
        timeout=90_000)
    link = page.locator(".jp-RenderedMarkdown a", has_text=text).first
    link.scroll_into_view_if_needed(timeout=60_000)
    link.click()
    page.wait_for_function(
        "(path) => window.jupyterapp.shell.currentWidget.context"
        " && window.jupyterapp.shell.currentWidget.context.path === path",
        arg=f"notebooks/{target}", timeout=60_000)
    # the way the index describes: the table of contents lists the section; a click on it
    # brings the section's heading into view
    page.evaluate("() => window.jupyterapp.commands.execute('toc:show-panel')")
    entry = page.locator(".jp-TableOfContents-tree .jp-tocItem-content", has_text=text).first
    entry.wait_for(timeout=60_000)
    entry.click()
    panel_id = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
    heading = page.locator(f"[id='{panel_id}'] .jp-RenderedMarkdown h2", has_text=text).first
    page.wait_for_function(
        """([sel, text]) => [...document.querySelectorAll(sel + ' .jp-RenderedMarkdown h2')]
              .some(h => h.textContent.includes(text) && (() => {
                  const r = h.getBoundingClientRect();
                  return r.top >= 0 && r.bottom <= window.innerHeight; })())""",
        arg=[f"[id='{panel_id}']", text], timeout=30_000)
    page.screenshot(path=str(artifacts / "index-concept-link.png"))
    assert heading.is_visible()
