"""The student edition (tools/edition.py, `make student-edition`) holds what students may see
and nothing else (issue 27): built into a temporary folder, it is checked structurally:

* no file of exercises/source, no nbgrader solution or hidden-test markers, no
  ``# mistake:`` lines, no text naming the teacher copies or where they are, no cell
  tagged teacher-only, in any file (the wheel's files included);
* every exercise notebook is the committed student copy (exercises/release), only its
  links re-pointed to the edition's layout; every lesson is the repository's lesson
  without its teacher-only cells;
* every link in every notebook opens a file of the edition;
* (slow) every notebook runs in a fresh environment built from the edition's own Binder
  recipe (tests/binder_env.py).

The German edition (``--language de``, issue 31) gets the same absence and link checks
(parametrized ``en``/``de``) and its own: it holds every German twin and only the English
notebooks they link to, a German README, a Binder recipe that opens the German index in a
German JupyterLab.  Where the checkout has no German twins yet it is built from a copy with
stand-in twins of one game (tests/german_standin.py), so its structure is checked all the
same.
"""
from __future__ import annotations

import importlib.util
import re
import zipfile
from pathlib import Path

import pytest

import binder_env as be
import german_standin
from german import german_scan

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("edition", REPO / "tools" / "edition.py")
edition = importlib.util.module_from_spec(spec)
spec.loader.exec_module(edition)

# What a student must not find, in any form a person can read.  "teacher" alone is allowed
# (the Stepper's "everything (teacher)" view is a feature), the teacher *copies* are not.
FORBIDDEN = re.compile(r"exercises/source|BEGIN SOLUTION|END SOLUTION|BEGIN HIDDEN TESTS|"
                       r"END HIDDEN TESTS|#\s*mistake:|teacher-only|teacher'?s?'? cop(y|ies)|"
                       r"with solutions", re.I)
# exercises/release is the repository's word; the edition's own layout is exercises/<game>
REPO_LAYOUT = re.compile(r"exercises/release")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return edition.build_student_edition(tmp_path_factory.mktemp("edition") / "student")


@pytest.fixture(scope="module")
def german_source(tmp_path_factory) -> Path:
    """The checkout the German edition is built from: this one when it has German twins,
    else a copy with stand-ins (tests/german_standin.py)."""
    return german_standin.german_repo(tmp_path_factory.mktemp("german-repo"))


@pytest.fixture(scope="module")
def built_de(tmp_path_factory, german_source) -> Path:
    return edition.build_student_edition(tmp_path_factory.mktemp("edition-de") / "student-de",
                                         binder="a-school/kingdoms-de", language="de",
                                         repo=german_source)


@pytest.fixture(params=["en", "de"])
def each_edition(request) -> tuple[Path, Path]:
    """``(edition, the checkout it was built from)``, for the English and the German one."""
    if request.param == "en":
        return request.getfixturevalue("built"), REPO
    return request.getfixturevalue("built_de"), request.getfixturevalue("german_source")


def test_edition_path_maps_the_layout():
    assert edition.edition_path("notebooks/horse/odds.ipynb") == "notebooks/horse/odds.ipynb"
    assert edition.edition_path("exercises/release/horse/x.ipynb") == "exercises/horse/x.ipynb"
    assert edition.edition_path("exercises/source/horse/x.ipynb") is None
    assert edition.edition_path("README.md") is None


def test_links_are_re_pointed_and_a_link_to_what_students_may_not_see_stops_the_build():
    text = "[a](../../exercises/release/horse/x.ipynb#Part-2) · [b](odds.ipynb) · [c](#Top)"
    assert edition.rewrite_links(text, "notebooks/horse/walkthrough.ipynb",
                                 "notebooks/horse/walkthrough.ipynb") == \
        "[a](../../exercises/horse/x.ipynb#Part-2) · [b](odds.ipynb) · [c](#Top)"
    assert edition.rewrite_links("[l](../../../notebooks/horse/odds.ipynb)",
                                 "exercises/release/horse/x.ipynb",
                                 "exercises/horse/x.ipynb") == "[l](../../notebooks/horse/odds.ipynb)"
    with pytest.raises(edition.EditionError, match="does not hold"):
        edition.rewrite_links("[s](../exercises/source/horse/x.ipynb)",
                              "notebooks/index.ipynb", "notebooks/index.ipynb")


def test_the_build_refuses_a_folder_it_did_not_write(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(edition.EditionError, match="not empty"):
        edition.build_student_edition(tmp_path)
    assert (tmp_path / "mine.txt").read_text() == "keep me"
    with pytest.raises(edition.EditionError, match="outside the repository"):
        edition.build_student_edition(REPO / "exercises")


def readable_files(root: Path):
    """Every file of the edition as text; a zip (the wheel) file by file."""
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.suffix in (".whl", ".zip"):
            with zipfile.ZipFile(path) as z:
                for name in z.namelist():
                    yield f"{path.relative_to(root)}!{name}", z.read(name).decode("utf-8",
                                                                                 "replace")
        else:
            yield str(path.relative_to(root)), path.read_bytes().decode("utf-8", "replace")


@pytest.mark.slow
def test_the_edition_holds_what_students_need(built):
    names = {p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()}
    assert "notebooks/index.ipynb" in names and "README.md" in names
    assert {"binder/requirements.txt", "binder/postBuild"} <= names
    lessons = {p.relative_to(REPO).as_posix() for p in (REPO / "notebooks").rglob("*.ipynb")}
    lessons = {rel for rel in lessons if not edition.is_german(rel)}
    assert lessons <= names
    apps = {p.relative_to(REPO).as_posix() for p in (REPO / "apps").glob("*.ipynb")}
    assert apps and apps <= names
    release = [p for p in sorted((REPO / "exercises" / "release").rglob("*.ipynb"))
               if not p.parent.name.endswith("_de")]
    assert release and {f"exercises/{p.parent.name}/{p.name}" for p in release} <= names
    wheels = sorted(built.glob("wheels/kingdoms-*-py3-none-any.whl"))
    assert len(wheels) == 1
    assert (built / "binder" / "requirements.txt").read_bytes() == \
        (REPO / "binder" / "requirements.txt").read_bytes()
    assert f"wheels/{wheels[0].name}" in (built / "binder" / "postBuild").read_text()


@pytest.mark.slow
def test_nothing_a_student_must_not_see(each_edition):
    built, repo = each_edition
    found = []
    for name, text in readable_files(built):
        for m in FORBIDDEN.finditer(text):
            if name.startswith("wheels/") and name.endswith("kingdoms/exercises.py"):
                continue    # the library that strips solutions names its markers (checked below)
            found.append(f"{name}: {text[max(0, m.start() - 60):m.end() + 60]!r}")
        if not name.startswith("wheels/") and REPO_LAYOUT.search(text):
            found.append(f"{name}: names the repository's exercises/release")
    assert not found, "the student edition shows:\n" + "\n".join(found[:20])
    # the student copies have the teacher copies' file names, so compare contents
    teacher = {p.read_bytes() for p in (repo / "exercises" / "source").rglob("*.ipynb")}
    assert teacher and not [p for p in built.rglob("*.ipynb") if p.read_bytes() in teacher]


def _strings(value):
    """Every string inside a parsed notebook (sources, outputs, metadata)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@pytest.mark.slow
def test_no_hint_solution_or_hidden_test_of_a_teacher_copy_is_readable(each_edition):
    """What ``kingdoms.exercises.teacher_secrets`` lists for every teacher copy (each
    mistake hint, each solution and hidden-test line of substance) appears in no file of
    the edition: notebooks read as the text they show, other files as text, the wheel
    file by file."""
    import json
    from kingdoms.exercises import teacher_secrets
    built, repo = each_edition
    secrets = {t for p in sorted((repo / "exercises" / "source").rglob("*.ipynb"))
               for t in teacher_secrets(p)}
    assert len(secrets) > 100
    # a line the lessons or the library themselves show (a seeded random source, a loop)
    # is no secret
    public = "\n".join([cell.source for folder in ("notebooks", "apps")
                        for p in sorted((repo / folder).rglob("*.ipynb"))
                        for cell in nbformat.read(p, as_version=4).cells]
                       + [p.read_text(encoding="utf-8")
                          for p in sorted((REPO / "kingdoms").rglob("*.py"))
                          if p.name != "exercises.py"])
    secrets = {t for t in secrets if t not in public}
    assert len(secrets) > 100
    found = []
    for name, text in readable_files(built):
        if name.endswith(".ipynb"):
            text = "\n".join(_strings(json.loads(text)))
        found += [f"{name}: {t[:80]!r}" for t in secrets if t in text]
    assert not found, "the student edition shows teacher secrets:\n" + "\n".join(found[:20])


@pytest.mark.slow
def test_the_wheel_holds_the_library_only_and_no_solution(built):
    wheel = next(built.glob("wheels/*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        text = "\n".join(z.read(n).decode("utf-8", "replace") for n in names)
    assert all(n.startswith(("kingdoms/", "kingdoms-")) for n in names), names
    assert not [n for n in names if n.endswith(".ipynb")]
    # no solution or hidden-test block of a teacher copy is in the wheel (whitespace ignored)
    blocks = []
    for path in (REPO / "exercises" / "source").rglob("*.ipynb"):
        for cell in nbformat.read(path, as_version=4).cells:
            blocks += re.findall(r"BEGIN (?:SOLUTION|HIDDEN TESTS)[^\n]*\n(.*?)\n[^\n]*END "
                                 r"(?:SOLUTION|HIDDEN TESTS)", cell.source, re.S)
    squeeze = lambda t: re.sub(r"\s+", " ", t).strip()       # noqa: E731
    blocks = [squeeze(b) for b in blocks if len(squeeze(b)) > 40]
    assert len(blocks) > 20
    flat = squeeze(text)
    leaked = [b for b in blocks if b in flat]
    assert not leaked, leaked[:3]


@pytest.mark.slow
def test_no_cell_is_teacher_only_and_lessons_are_the_repositorys(each_edition):
    built, repo = each_edition
    assert not [p for p in built.rglob("*.ipynb")
                if [c for c in nbformat.read(p, as_version=4).cells
                    if "teacher-only" in c.metadata.get("tags", [])]]
    for path in sorted((repo / "notebooks").rglob("*.ipynb")):
        rel = path.relative_to(repo).as_posix()
        if not (built / rel).is_file():
            continue        # the other language's (the edition's contents: tests below)
        theirs = nbformat.read(built / rel, as_version=4)
        assert not [c for c in theirs.cells if "teacher-only" in c.metadata.get("tags", [])]
        ours = [c for c in nbformat.read(path, as_version=4).cells
                if "teacher-only" not in c.metadata.get("tags", [])]
        assert [c.cell_type for c in theirs.cells] == [c.cell_type for c in ours]
        for a, b in zip(ours, theirs.cells):
            if a.cell_type == "code":
                assert a == b, f"{rel}: a code cell differs"
            else:
                # the English edition leaves out a line linking a German twin it does not hold
                kept = "\n".join(line for line in a.source.split("\n")
                                 if (built / "notebooks" / "de").is_dir()
                                 or "](de/" not in line)
                assert re.sub(r"\]\([^)]*\)", "]()", kept) == \
                    re.sub(r"\]\([^)]*\)", "]()", b.source), f"{rel}: a text differs"
    start = "notebooks/de/index.ipynb" if (built / "notebooks" / "de").is_dir() \
        else "notebooks/index.ipynb"
    index = nbformat.read(repo / start, as_version=4)
    assert [c for c in index.cells if "teacher-only" in c.metadata.get("tags", [])], \
        f"{start}: the index's teacher note should be tagged teacher-only"


@pytest.mark.slow
def test_every_exercise_is_the_committed_student_copy(each_edition):
    built, repo = each_edition
    german = (built / "notebooks" / "de").is_dir()
    for path in sorted((repo / "exercises" / "release").rglob("*.ipynb")):
        if path.parent.name.endswith("_de") != german and \
                not (built / "exercises" / path.parent.name / path.name).is_file():
            continue        # the other language's, which the edition need not hold
        theirs = nbformat.read(built / "exercises" / path.parent.name / path.name, as_version=4)
        ours = nbformat.read(path, as_version=4)
        # one folder less deep: links back to the lessons lose one "../", nothing else changes
        for cell in ours.cells:
            if cell.cell_type == "markdown":
                cell.source = cell.source.replace("](../../../notebooks/", "](../../notebooks/")
        assert nbformat.writes(theirs) == nbformat.writes(ours), path


@pytest.mark.slow
def test_every_link_in_the_edition_opens_a_file_of_the_edition(each_edition):
    import test_notebook_links as links
    built, _ = each_edition
    broken = []
    for path in sorted(built.rglob("*.ipynb")):
        for number, target in links.links_of(path):
            why = links.check(path, target)
            if why is None and not re.match(r"^[a-z][a-z0-9+.-]*:", target):
                dest = (path.parent / target.partition("#")[0]).resolve()
                why = None if dest.is_relative_to(built) else f"{target!r} leaves the edition"
            if why:
                broken.append(f"{path.relative_to(built)} cell {number}: {why}")
    assert not broken, "\n".join(broken)


@pytest.mark.slow
def test_every_notebook_of_the_edition_runs_with_its_own_binder_recipe(built, binder_env,
                                                                       tmp_path):
    # the shared environment was built from the repository's binder/requirements.txt;
    # the edition's is the same file (so this is the edition's recipe), checked here
    assert (built / "binder" / "requirements.txt").read_bytes() == binder_env.requirements
    binder_env.post_build(built)
    assert "site-packages" in binder_env.kingdoms_location()
    record = binder_env.run(binder_env.python, "-m", "pip", "show", "-f", "kingdoms",
                            cwd=tmp_path)
    assert "site-packages" in record
    notebooks = sorted(p.relative_to(built) for p in built.rglob("*.ipynb"))
    exercises = [p for p in notebooks if p.parts[0] == "exercises"]
    lessons = [p for p in notebooks if p.parts[0] != "exercises"]
    failed = {}
    for nb, errs in binder_env.execute(built, lessons, tmp_path / "lessons").items():
        if errs:
            failed[str(nb)] = [f"{o.ename}: {o.evalue}" for o in errs]
    # An unanswered student copy runs to its end: each check says "no answer yet" in a
    # sentence, never with an error (Run All on a fresh copy, issue 27)
    for nb, errs in binder_env.execute(built, exercises, tmp_path / "exercises",
                                       allow_errors=True).items():
        if errs:
            failed[str(nb)] = [f"{o.ename}: {o.evalue}" for o in errs]
    assert not failed, failed


# ---------------------------------------------------------------- the German edition

def _edition_names(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_the_german_edition_holds_every_german_twin_and_the_english_they_link_to(
        built_de, german_source):
    names = _edition_names(built_de)
    assert "notebooks/de/index.ipynb" in names
    german = [f for f in edition.notebook_files("de", german_source) if edition.is_german(f)]
    every_twin = [p.relative_to(german_source).as_posix()
                  for folder in ("notebooks/de", "apps/de", "exercises/release")
                  for p in sorted((german_source / folder).rglob("*.ipynb"))
                  if edition.is_german(p.relative_to(german_source).as_posix())]
    assert every_twin and sorted(german) == sorted(every_twin)
    assert {edition.edition_path(f) for f in every_twin} <= names
    assert {"apps/de/woods.ipynb", "notebooks/de/woods/walkthrough.ipynb"} <= names
    assert any(n.startswith("exercises/woods_de/") for n in names)
    # an English notebook is there only because a notebook of the edition links to it
    linked = {edition.edition_path(t) for f in edition.notebook_files("de", german_source)
              for t in edition.linked_notebooks(f, german_source)}
    english = {n for n in names if n.endswith(".ipynb")
               and not edition.is_german(n.replace("exercises/", "exercises/release/", 1)
                                         if n.startswith("exercises/") else n)}
    assert english <= linked, english - linked


@pytest.mark.slow
def test_the_english_edition_holds_no_german_twin(tmp_path, german_source):
    english = edition.build_student_edition(tmp_path / "student", repo=german_source)
    names = _edition_names(english)
    assert "notebooks/index.ipynb" in names
    assert not [n for n in names if n.startswith(("notebooks/de/", "apps/de/"))
                or re.match(r"exercises/[^/]+_de/", n)], names
    assert not (english / "binder" / "lab-de").exists()
    assert "lab-de" not in (english / "binder" / "postBuild").read_text()


@pytest.mark.slow
def test_the_german_edition_opens_the_german_index_in_a_german_jupyterlab(built_de):
    readme = (built_de / "README.md").read_text(encoding="utf-8")
    assert "https://mybinder.org/v2/gh/a-school/kingdoms-de/HEAD" \
        "?urlpath=lab/tree/notebooks/de/index.ipynb" in readme
    # what a student reads of it is German (commands, paths and names left out)
    prose = re.sub(r"```.*?```|`[^`]*`|\*[^*]*▸[^*]*\*|\([^)]*https?://[^)]*\)|https?://\S+", " ",
                   readme, flags=re.S)
    german_scan([line for line in prose.splitlines() if line.strip()], "the German README")
    assert (built_de / "binder" / "lab-de" / "overrides.json").read_bytes() == \
        (REPO / "binder" / "lab-de" / "overrides.json").read_bytes()
    post = (built_de / "binder" / "postBuild").read_text()
    assert 'get_app_dir())\')/settings"' in post
    assert 'cp binder/lab-de/overrides.json "$settings/overrides.json"' in post
    assert (built_de / "binder" / "requirements.txt").read_bytes() == \
        (REPO / "binder" / "requirements.txt").read_bytes()
    assert "jupyterlab-language-pack-de-DE" in (built_de / "binder" / "requirements.txt").read_text()


def test_a_language_without_an_edition_is_refused(tmp_path):
    with pytest.raises(edition.EditionError, match="'en' and 'de'"):
        edition.build_student_edition(tmp_path / "x", language="fr")
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_the_german_binder_recipe_chooses_german_and_runs_the_german_lessons(
        built_de, binder_env, tmp_path):
    """The German edition's own Binder recipe: JupyterLab's settings overrides choose the
    German language pack, and the German lessons and class pages run."""
    assert (built_de / "binder" / "requirements.txt").read_bytes() == binder_env.requirements
    binder_env.post_build(built_de)
    settings = binder_env.run(
        binder_env.python, "-c",
        "from jupyterlab.commands import get_app_dir; import json, pathlib; "
        "print(json.loads((pathlib.Path(get_app_dir()) / 'settings' / 'overrides.json')"
        ".read_text())['@jupyterlab/translation-extension:plugin']['locale'])",
        cwd=tmp_path).strip()
    assert settings == "de_DE"
    packs = binder_env.run(binder_env.python, "-c",
                           "from jupyterlab_server.translation_utils import get_language_packs; "
                           "print(sorted(get_language_packs()[0]))", cwd=tmp_path)
    assert "de_DE" in packs
    lessons = sorted(p.relative_to(built_de) for p in built_de.rglob("*.ipynb")
                     if p.relative_to(built_de).parts[:2] in (("notebooks", "de"), ("apps", "de")))
    assert lessons
    failed = {str(nb): [f"{o.ename}: {o.evalue}" for o in errs] for nb, errs in
              binder_env.execute(built_de, lessons, tmp_path / "lessons").items() if errs}
    assert not failed, failed
