"""The Binder recipe works without docker: build a fresh venv the way repo2docker
does (binder/requirements.txt, then binder/postBuild from the repository root) and
execute a notebook in it."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_binder_recipe_installs_and_runs_a_notebook(tmp_path):
    env_dir = tmp_path / "binder-env"
    venv.create(env_dir, with_pip=True)
    bindir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(tmp_path)            # no user site / kernels from the host
    env["JUPYTER_DATA_DIR"] = str(tmp_path / "jupyter-data")
    # a copy of the repository, as repo2docker sees it (no .venv, no build output)
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(
        ".venv*", ".git", "build", "artifacts", "*.egg-info", "__pycache__", ".pytest_cache",
        ".hypothesis"))

    def run(*cmd, cwd=repo):
        subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True, text=True,
                       timeout=900)

    run(str(bindir / "python"), "-m", "pip", "install", "--quiet", "-r",
        "binder/requirements.txt")
    run("bash", "binder/postBuild")
    out = tmp_path / "executed.ipynb"
    run(str(bindir / "python"), "-m", "jupyter", "nbconvert", "--to", "notebook",
        "--execute", "--output", str(out), "notebooks/index.ipynb")
    import nbformat
    nb = nbformat.read(out, as_version=4)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert sum(1 for c in nb.cells if c.cell_type == "code" and c.get("execution_count")) > 3
    # the installed package (not the copy's source tree) is the one the notebook used
    probe = subprocess.run([str(bindir / "python"), "-c",
                            "import kingdoms, sys; print(kingdoms.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert "site-packages" in probe.stdout
