"""Notebooks open unmodified in JupyterLab (issue 27: "every notebook opens marked as
changed and asks 'Save your work' on close").

JupyterLab writes the running kernel's ``kernelspec`` and ``language_info`` into a
notebook when its kernel starts; if they differ from the saved ones, the notebook is
changed before anyone touches it.  tools/notebook_format.py saves every notebook in the
form the python3 kernel reports.  Here JupyterLab opens copies of several committed
notebooks (a lesson with saved widget state, one without, a class page, a student and a
teacher copy of an exercise), waits until the kernel has answered (its info and spec)
and checks the document is not dirty (neither the model nor the tab), and that closing
it asks nothing (no "Save your work" dialog).

The one value that depends on the machine is ``language_info.version`` (the Python patch
version): the copies get this Python's version first, exactly as the Binder recipes'
postBuild does (``notebook_format.py --this-python``); it changes nothing when this is
the Python that executed the notebooks.
"""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("notebook_format",
                                              REPO / "tools" / "notebook_format.py")
notebook_format = importlib.util.module_from_spec(spec)
spec.loader.exec_module(notebook_format)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KERNEL_TIMEOUT = 150_000      # ms: kernel start on a shared 2-core machine

NOTEBOOKS = [
    "notebooks/index.ipynb",
    "notebooks/woods/odds.ipynb",
    "notebooks/horse/walkthrough.ipynb",
    "apps/horse.ipynb",
    "exercises/release/horse/multiplication_die.ipynb",
    "exercises/source/woods/opponent_fool.ipynb",
]


@pytest.fixture(scope="module")
def copies(lab):
    base, root = lab
    folder = root / "unmodified"
    for rel in NOTEBOOKS:
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, target)
        notebook_format.set_version(target, notebook_format.this_python())
    return base, "unmodified"


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_a_notebook_opens_unmodified(page, copies, notebook):
    base, folder = copies
    path = f"{folder}/{notebook}"
    page.goto(f"{base}/lab/tree/{path}?reset", wait_until="domcontentloaded")
    page.wait_for_function(
        """(path) => {
            const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const k = w && w.context && w.context.path === path && w.sessionContext
                      && w.sessionContext.session && w.sessionContext.session.kernel;
            return k && k.connectionStatus === 'connected' && k.status === 'idle';
        }""", arg=path, timeout=KERNEL_TIMEOUT)
    # the kernel's info (language_info) and spec (kernelspec) have arrived and been
    # written into the document; then one more turn of the event loop
    state = page.evaluate("""async () => {
        const w = window.jupyterapp.shell.currentWidget;
        const kernel = w.sessionContext.session.kernel;
        await kernel.info;
        await kernel.spec;
        await new Promise(r => setTimeout(r, 2000));
        const meta = w.context.model.toJSON().metadata;
        const tab = document.querySelector(`li.lm-TabBar-tab[data-id="${w.id}"]`);
        return {id: w.id, dirty: w.context.model.dirty,
                tabDirty: tab ? tab.classList.contains('jp-mod-dirty') : null,
                kernelspec: meta.kernelspec, language_info: meta.language_info};
    }""")
    assert state["tabDirty"] is not None, "the notebook's tab was not found"
    assert not state["dirty"] and not state["tabDirty"], (
        f"{notebook} opens changed: JupyterLab's metadata is {state['kernelspec']}, "
        f"{state['language_info']}")
    # closing it asks nothing ("Save your work" is a dialog) and the tab goes away
    page.evaluate("""(id) => { for (const w of window.jupyterapp.shell.widgets('main'))
                                  if (w.id === id) w.close(); }""", state["id"])
    page.wait_for_function("(id) => !document.querySelector(`li.lm-TabBar-tab[data-id=\"${id}\"]`)"
                           " || document.querySelector('.jp-Dialog')",
                           arg=state["id"], timeout=30_000)
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").inner_text()
