"""Every committed notebook is in the form JupyterLab does not modify on opening (issue 27:
"every notebook opens marked as changed"): nbformat 4.5 with cell ids, the python3 kernel's
own kernelspec and ipykernel's language_info (tools/notebook_format.py).  The browser
test tests/browser/test_browser_unmodified.py opens notebooks and checks the same thing
in JupyterLab itself."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("notebook_format", REPO / "tools" / "notebook_format.py")
notebook_format = importlib.util.module_from_spec(spec)
spec.loader.exec_module(notebook_format)

NOTEBOOKS = notebook_format.notebooks([REPO / f for f in notebook_format.FOLDERS])


def test_the_normal_form_is_what_ipykernel_reports():
    ipkernel = pytest.importorskip("ipykernel.ipkernel")
    reported = ipkernel.IPythonKernel.language_info
    assert notebook_format.language_info(reported["version"]) == reported
    from jupyter_client.kernelspec import KernelSpecManager
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert notebook_format.KERNELSPEC == {"display_name": spec.display_name,
                                          "language": spec.language, "name": "python3"}


def test_the_check_finds_what_jupyterlab_would_change_and_the_tool_fixes_it(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    path = tmp_path / "old.ipynb"
    nbformat.write(nb, path)
    assert "kernelspec" in notebook_format.why_not_normal(path)
    assert notebook_format.normalise(path, "3.11.7") is True
    assert notebook_format.why_not_normal(path) is None
    assert notebook_format.normalise(path, "3.11.7") is False       # idempotent
    assert notebook_format.set_version(path, "3.12.1") is True
    assert nbformat.read(path, as_version=4).metadata.language_info.version == "3.12.1"
    assert notebook_format.why_not_normal(path) is None
    # nothing but the two metadata entries changes
    again = nbformat.read(path, as_version=4)
    assert [c.source for c in again.cells] == ["1 + 1"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_notebook_is_in_normal_form(path):
    why = notebook_format.why_not_normal(path)
    assert why is None, f"{path.relative_to(REPO)}: {why}; run `python tools/notebook_format.py`"
