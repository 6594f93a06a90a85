"""What `make lab` and the Binder recipe install is enough for every notebook (issue 27).

* Fast: every third-party module that a notebook imports, or that the kingdoms package
  imports anywhere (lazy imports inside functions included, e.g. icepool for the Horse
  odds), is provided by binder/requirements.txt and by what `make lab` installs
  (pyproject's dependencies and its `notebook` extra), directly or as a dependency of
  something listed; and the two lists name the same packages.
* Slow: the Binder recipe works without docker: a fresh venv built the way repo2docker
  does (binder/requirements.txt, then binder/postBuild from the repository's root; the
  session fixture ``binder_env``, tests/binder_env.py) runs the notebooks with the
  installed package.  This test runs the index and the teacher copies of the exercises;
  the lessons, class pages and student copies run in the same environment in
  tests/test_student_edition.py (the student edition holds them and carries this
  requirements file unchanged, which that test checks)."""
from __future__ import annotations

import ast
import importlib.metadata as md
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

import binder_env as be

nbformat = pytest.importorskip("nbformat")
packaging = pytest.importorskip("packaging")
from packaging.requirements import Requirement  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "binder" / "requirements.txt"
NOTEBOOK_FOLDERS = ("notebooks", "apps", "exercises")


def pyproject_requirements(extra: str | None = None) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["optional-dependencies"][extra] if extra else project["dependencies"]


def applies(requirement: Requirement) -> bool:
    return requirement.marker is None or requirement.marker.evaluate({"extra": ""})


def make_lab_names(on_this_platform: bool = True) -> set[str]:
    """What `make lab` installs: `pip install -e ".[notebook]"`."""
    return {be.canonical(r.name) for r in map(Requirement, pyproject_requirements()
                                               + pyproject_requirements("notebook"))
            if applies(r) or not on_this_platform}


def binder_names() -> set[str]:
    """What Binder installs: binder/requirements.txt, then kingdoms with its dependencies."""
    return be.requirement_names(REQUIREMENTS) | {
        be.canonical(Requirement(r).name) for r in pyproject_requirements()}


def closure(names: set[str]) -> set[str]:
    """``names`` and everything they depend on, as installed here (markers evaluated)."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = md.requires(name) or []
        except md.PackageNotFoundError:
            continue
        for line in requires:
            r = Requirement(line)
            if applies(r):
                todo.append(be.canonical(r.name))
    return seen


def imports_in(source: str) -> set[str]:
    """Top-level modules imported anywhere in ``source`` (Python; IPython magics skipped)."""
    code = "\n".join(line for line in source.splitlines()
                     if not line.lstrip().startswith(("%", "!")))
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def third_party_imports() -> dict[str, set[str]]:
    """{module: where it is imported} over every notebook and the kingdoms package."""
    where: dict[str, set[str]] = {}
    sources = []
    for folder in NOTEBOOK_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            sources += [(path, c.source) for c in nb.cells if c.cell_type == "code"]
    sources += [(p, p.read_text()) for p in sorted((ROOT / "kingdoms").rglob("*.py"))]
    for path, source in sources:
        for module in imports_in(source):
            if module not in sys.stdlib_module_names and module not in ("kingdoms", "__future__"):
                where.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    return where


def test_the_import_scan_sees_lazy_imports():
    assert imports_in("def f():\n    import icepool\n    from sympy import S\n%time x") \
        == {"icepool", "sympy"}
    assert "icepool" in third_party_imports()


def test_make_lab_and_binder_install_the_same_packages():
    assert binder_names() == make_lab_names(on_this_platform=False)


@pytest.mark.parametrize("installs", [make_lab_names, binder_names],
                         ids=["make lab", "binder"])
@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_every_imported_module_is_installed(installs):
    provided = closure(installs())
    distributions = md.packages_distributions()
    missing = []
    for module, where in sorted(third_party_imports().items()):
        dists = {be.canonical(d) for d in distributions.get(module, [])}
        if not dists and be.canonical(module) in make_lab_names(on_this_platform=False):
            continue        # declared for other Pythons only (tomli before 3.11)
        if not dists & provided:
            missing.append(f"{module} (from {', '.join(sorted(dists)) or 'no installed package'})"
                           f", imported by {', '.join(sorted(where)[:3])}")
    assert not missing, "not installed by " + installs.__doc__.split(":")[0] + ":\n" \
        + "\n".join(missing)


@pytest.mark.slow
def test_binder_recipe_installs_and_runs_the_teacher_notebooks(binder_env, tmp_path):
    # a copy of the repository, as repo2docker sees it (no .venv, no build output)
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(
        ".venv*", ".git", "build", "artifacts", "*.egg-info", "__pycache__", ".pytest_cache",
        ".hypothesis"))
    binder_env.post_build(repo)
    # the installed package (not the copy's source tree) is the one the notebooks use
    assert "site-packages" in binder_env.kingdoms_location()
    # postBuild recorded the environment's Python in the notebooks (they open unmodified)
    version = binder_env.run(binder_env.python, "-c", "import sys; print(sys.version.split()[0])",
                             cwd=tmp_path).strip()
    index = nbformat.read(repo / "notebooks" / "index.ipynb", as_version=4)
    assert index.metadata.language_info.version == version
    notebooks = [Path("notebooks/index.ipynb")] + sorted(
        p.relative_to(repo) for p in (repo / "exercises" / "source").rglob("*.ipynb"))
    errors = binder_env.execute(repo, notebooks, tmp_path / "executed")
    failed = {str(nb): [f"{o.ename}: {o.evalue}" for o in errs] for nb, errs in errors.items()
              if errs}
    assert not failed, failed
