"""A fresh environment built the way repo2docker (mybinder.org) builds one: a new venv,
``pip install -r binder/requirements.txt``, then the recipe's ``postBuild`` from the
folder's root; and a runner for notebooks in it.

Used by tests/test_binder.py (the repository's recipe) and tests/test_student_edition.py
(the student edition's recipe).  Both recipes install the same requirements file (the
edition carries a byte-for-byte copy, which test_student_edition checks), so the
session fixture ``binder_env`` (tests/conftest.py) installs it once; each test then
removes kingdoms and runs its own postBuild, which installs kingdoms its own way (the
repository from its source, the edition from its bundled wheel)."""
from __future__ import annotations

import os
import subprocess
import venv
from dataclasses import dataclass
from pathlib import Path

INSTALL_TIMEOUT = 1200
WORKERS = 2                 # notebook folders executed at the same time      # seconds: jupyterlab, scipy, matplotlib, OpenSpiel ...


@dataclass
class BinderEnv:
    root: Path              # the venv
    home: Path              # HOME and Jupyter folders of the environment
    requirements: bytes     # the requirements file it was built from

    @property
    def python(self) -> str:
        return str(self.root / "bin" / "python")

    @property
    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER"))}
        env["PATH"] = f"{self.root / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["HOME"] = str(self.home)            # no user site / kernels from the host
        env["JUPYTER_DATA_DIR"] = str(self.home / "jupyter-data")
        env["JUPYTER_CONFIG_DIR"] = str(self.home / "jupyter-config")
        env["JUPYTER_RUNTIME_DIR"] = str(self.home / "jupyter-runtime")
        env["MPLBACKEND"] = "Agg"
        return env

    def run(self, *cmd, cwd: Path, timeout: float = INSTALL_TIMEOUT) -> str:
        done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=self.env,
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(map(str, cmd))} failed in {cwd}:\n"
                                 + done.stdout[-3000:] + done.stderr[-3000:])
        return done.stdout

    def post_build(self, folder: Path) -> None:
        """Run ``folder``'s binder/postBuild as repo2docker does, kingdoms removed first."""
        self.run(self.python, "-m", "pip", "uninstall", "--yes", "--quiet", "kingdoms",
                 cwd=folder)
        self.run("bash", "binder/postBuild", cwd=folder)

    def kingdoms_location(self) -> str:
        return self.run(self.python, "-c", "import kingdoms; print(kingdoms.__file__)",
                        cwd=self.home).strip()

    def execute(self, folder: Path, notebooks: list[Path], out: Path,
                allow_errors: bool = False) -> dict[Path, list]:
        """Execute ``notebooks`` (paths relative to ``folder``) with nbconvert in this
        environment, each in its own folder, one nbconvert per folder and two folders at
        a time (CI has 2 cores); {notebook: its error outputs}."""
        import nbformat
        from concurrent.futures import ThreadPoolExecutor

        groups: dict[Path, list[Path]] = {}
        for nb in notebooks:
            groups.setdefault(nb.parent, []).append(nb)

        def run_group(parent: Path) -> None:
            (out / parent).mkdir(parents=True, exist_ok=True)
            self.run(self.python, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                     *(["--allow-errors"] if allow_errors else []),
                     "--ExecutePreprocessor.timeout=300", "--output-dir", out / parent,
                     *groups[parent], cwd=folder, timeout=1800)

        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            list(pool.map(run_group, groups))
        results = {}
        for nb in notebooks:
            executed = nbformat.read(out / nb, as_version=4)
            results[nb] = [o for c in executed.cells if c.cell_type == "code"
                           for o in c.get("outputs", []) if o.get("output_type") == "error"]
        return results


def build(base: Path, requirements: Path) -> BinderEnv:
    """A new venv in ``base`` with ``requirements`` installed (as repo2docker does)."""
    root = base / "venv"
    venv.create(root, with_pip=True)
    home = base / "home"
    home.mkdir()
    env = BinderEnv(root, home, requirements.read_bytes())
    env.run(env.python, "-m", "pip", "install", "--quiet", "-r", requirements, cwd=base)
    return env


def requirement_names(path: Path) -> set[str]:
    """The distribution names a requirements file (or a list of requirement strings) asks for."""
    from packaging.requirements import Requirement
    lines = path.read_text().splitlines() if isinstance(path, Path) else path
    names = set()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(canonical(Requirement(line).name))
    return names


def canonical(name: str) -> str:
    from packaging.utils import canonicalize_name
    return canonicalize_name(name)

