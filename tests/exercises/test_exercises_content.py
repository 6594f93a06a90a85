"""The exercises themselves (issues 12 and 27): every teacher copy in exercises/source

* names its classic mistakes (``# mistake: name = expression`` in the hidden tests, the
  hint on ``#     `` lines below), and each of them, tried in place of the right answer,
  gets its own hint from the sealed check (run in-process from the teacher copy);
* is sealed: ``python -m kingdoms.exercises seal --check`` finds nothing to rewrite;
* gives nothing away in the student copy: none of ``teacher_secrets`` (hints, solution
  lines, hidden tests) in any field of any student file, no call of the library's
  solvers, no exact answer anywhere in the text;
* has a student copy in exercises/release that is exactly what ``make exercises`` writes.
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core import i18n
from kingdoms.core.i18n import using
from kingdoms.exercises import (_form_problem, _lookup, _teacher_entries, judge, seal_notebook,
                                strip_hidden_tests, student_version, teacher_secrets)

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
SOURCE = EXERCISES / "source"
RELEASE = EXERCISES / "release"
GAMES = [g for g in kingdoms.games() if g != "highcard"]


def notebooks(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


SOURCES = notebooks(SOURCE)
IDS = [p.relative_to(SOURCE).as_posix() for p in SOURCES]


def language_of(path: Path) -> str:
    """The language of an exercise: its assignment folder ``<game>_de`` is German
    (its setup cell says ``kingdoms.set_language("de")``)."""
    return "de" if path.parent.name.endswith("_de") else "en"


# what a check says, by language: the general hint's word, the float's hint
HINT_WORD = {"en": "Hint: ", "de": "Tipp: "}
FLOAT_WORDS = {"en": "exact value as a Fraction", "de": "exakten Wert als Bruch"}


def is_test_cell(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def check_calls(source: str):
    """``[(name, what, options)]`` of the ``check_answer`` calls in a cell's visible part
    (``options``: kind, length, choices, sealed as written)."""
    out = []
    for node in ast.walk(ast.parse(strip_hidden_tests(source))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check_answer":
            name, what = (ast.literal_eval(a) for a in node.args)
            out.append((name, what, {k.arg: ast.literal_eval(k.value) for k in node.keywords}))
    return out


def run_quietly(source: str, ns: dict) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(source, "<cell>", "exec"), ns)
    return buf.getvalue()

nbformat = pytest.importorskip("nbformat")

# The library's solvers and answer-makers: a student copy never calls them.
SOLVERS = ("p_win", "expected_points", "solve_rerolls", "best_journey", "expectimax",
           "solve_zero_sum", "verify_equilibrium", "score_pass", "fool_distribution",
           "hypergeometric", "trade_chain", "fewest_trading_phases", "extra_sheep_needed",
           "deal_can_reach", "multiplication_distribution", "odds.solve")


def judged(name, what, options, value, ns):
    choices = options.get("choices")
    if isinstance(choices, str):
        choices = list(_lookup(choices, ns))
    return judge(value, what, options.get("sealed", ""), kind=options.get("kind", "exact"),
                 length=options.get("length"), choices=choices)


def teacher_run(path):
    """Run a teacher copy in-process; at each test cell try the mistakes it lists.

    Returns ``(namespace, tried, checks)``: ``tried`` lists ``(cell, name, expression,
    Verdict, hint written for it)``, ``checks`` every ``(cell, name, what, options)``."""
    before = i18n._default
    try:        # a German copy sets the kernel's language: not for the tests after it
        return _teacher_run(path)
    finally:
        i18n.set_language(before)


def _teacher_run(path):
    nb = nbformat.read(path, as_version=4)
    ns = {"__name__": "__main__"}
    tried, checks = [], []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        out = run_quietly(cell.source, ns)      # the right answers pass, hidden tests too
        if not is_test_cell(cell):
            continue
        assert "✗" not in out, f"{path.name}, cell {k}: {out}"
        calls = {name: (what, options) for name, what, options in check_calls(cell.source)}
        checks += [(k, name, what, options) for name, (what, options) in calls.items()]
        for entry in _teacher_entries(cell.source):
            if entry.expression is None:
                continue
            trial = dict(ns)
            exec(f"{entry.name} = {entry.expression}", trial)
            what, options = calls[entry.name]
            tried.append((k, entry.name, entry.expression,
                          judged(entry.name, what, options, trial[entry.name], ns), entry.text))
    return ns, tried, checks


@pytest.fixture(scope="module", params=SOURCES, ids=IDS)
def teacher(request):
    return request.param, teacher_run(request.param)


def test_there_are_three_exercises_per_game():
    for game in GAMES:
        assert len(notebooks(SOURCE / game)) >= 3, game
        assert {p.name for p in notebooks(RELEASE / game)} == \
            {p.name for p in notebooks(SOURCE / game)}, game


GERMAN = [p for p in SOURCES if language_of(p) == "de"]


def english_twin(path: Path) -> Path:
    return SOURCE / path.parent.name.removesuffix("_de") / path.name


def test_every_exercise_has_its_german_twin():
    """exercises/source/<game>_de/ (its own nbgrader assignment) holds a German twin of
    every exercise of exercises/source/<game>/, with its student copy in
    exercises/release/<game>_de/."""
    for game in GAMES:
        english = {p.name for p in notebooks(SOURCE / game)}
        assert {p.name for p in notebooks(SOURCE / f"{game}_de")} == english, game
        assert {p.name for p in notebooks(RELEASE / f"{game}_de")} == english, game
    for path in GERMAN:
        setup = next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert 'kingdoms.set_language("de")' in setup.source, path.name


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_every_listed_mistake_gets_its_own_hint(teacher):
    path, (ns, tried, checks) = teacher
    assert tried, f"{path.name}: lists no classic mistakes"
    hinted = 0
    for k, name, expr, v, hint in tried:
        where = f"{path.name}, cell {k}: {name} = {expr}"
        assert not v.ok, f"{where} passes the visible check"
        assert v.mistake is not None and v.mistake not in ("form:none", "form:unsealed"), \
            f"{where} gets only the general hint: {v.message}"
        if isinstance(v.mistake, str):         # caught by the form check (a float ...)
            assert not hint, f"{where}: a hint that can never show"
            continue
        assert hint and v.message.endswith(hint), where
        hinted += 1
    assert hinted, f"{path.name}: no mistake with a hint of its own"


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_every_check_has_a_general_hint_and_right_answer(teacher):
    path, (ns, tried, checks) = teacher
    lang = language_of(path)
    for k, name, what, options in checks:
        assert judged(name, what, options, ns[name], ns).ok, f"{path.name}: {name}"
        if options.get("kind") in ("probability", "exact", "probabilities", "int", "tuple"):
            with using(lang):
                v = judged(name, what, options, _elsewhere(ns[name], options), ns)
            assert HINT_WORD[lang] in v.message, f"{path.name}, cell {k}: {name}: {v.message}"


def _elsewhere(value, options):
    """A value of the right form no classic mistake has."""
    if isinstance(value, tuple):
        if options.get("kind") == "probabilities":
            return (Fraction(1, 7), Fraction(2, 7), Fraction(4, 7))[:len(value)] if len(value) == 3 \
                else (Fraction(1, 7), Fraction(6, 7))
        return tuple(987 + i for i in range(len(value)))
    return Fraction(1, 997) if options.get("kind") != "int" else 9871


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_the_second_answer_is_checked_when_the_first_is_wrong(teacher):
    """A cell that checks two answers reports both, whatever the first one is."""
    path, (ns, tried, checks) = teacher
    nb = nbformat.read(path, as_version=4)
    for k, cell in enumerate(nb.cells):
        calls = check_calls(cell.source) if is_test_cell(cell) else []
        if len(calls) < 2:
            continue
        first = calls[0][0]
        trial = dict(ns, **{first: _elsewhere(ns[first], calls[0][2])})
        said = run_quietly(strip_hidden_tests(cell.source), trial).splitlines()
        assert len(said) == len(calls) and said[0].startswith("✗"), said
        assert all(line.startswith("✓") for line in said[1:]), said


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_a_float_gets_the_exact_value_hint(teacher):
    path, (ns, tried, checks) = teacher
    lang = language_of(path)
    for k, name, what, options in checks:
        if isinstance(ns[name], Fraction) and ns[name].denominator > 1:
            with using(lang):
                v = judged(name, what, options, float(ns[name]), ns)
            assert FLOAT_WORDS[lang] in v.message


@pytest.mark.slow
@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_every_check_is_sealed_from_its_teacher_copy(path):
    """``python -m kingdoms.exercises seal --check``: re-sealing the committed teacher
    copy from its answers and hint lines writes nothing new (so the committed sealed
    strings are current, and ``make exercises`` leaves exercises/source unchanged)."""
    report, changed = seal_notebook(path, write=False)
    assert report and not changed, "\n".join(line for line in report if "stale" in line)


def release_text(nb) -> str:
    return "\n".join(c.source for c in nb.cells)


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_release_copy_is_what_make_exercises_writes(path):
    release = RELEASE / path.relative_to(SOURCE)
    assert release.is_file(), f"no student copy {release}: run `make exercises`"
    expected = student_version(nbformat.read(path, as_version=4), name=str(path))
    assert nbformat.writes(nbformat.read(release, as_version=4)) == nbformat.writes(expected), \
        f"{release} is out of date: run `make exercises`"


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_no_answer_in_the_student_copy(teacher):
    path, (ns, tried, checks) = teacher
    release = nbformat.read(RELEASE / path.relative_to(SOURCE), as_version=4)
    text = release_text(release)
    assert "HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text and "mistake:" not in text
    code = "\n".join(c.source for c in release.cells if c.cell_type == "code")
    for solver in SOLVERS:
        assert not re.search(rf"\b{re.escape(solver)}\b", code), \
            f"{path.name}: the student copy calls the solver {solver}"
    for cell in release.cells:
        if is_test_cell(cell):
            assert "kingdoms." not in cell.source.replace("kingdoms.exercises", ""), \
                f"{path.name}: a visible test cell uses the library"
    teacher_nb = nbformat.read(path, as_version=4)
    assert all("BEGIN HIDDEN TESTS" in c.source for c in teacher_nb.cells if is_test_cell(c)), \
        f"{path.name}: a test cell has no hidden test"
    hints = " ".join(hint for *_, hint in tried)
    for k, name, what, options in checks:
        value = ns[name]
        for v in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(v, Fraction) and v.denominator > 1:
                assert f"{v.numerator}/{v.denominator}" not in text, \
                    f"{path.name}: the student copy shows the answer {name} = {v}"
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 3:
                assert not re.search(rf"(?<![\w/.]){v}(?![\w/])", hints), \
                    f"{path.name}: a hint carries the answer {name} = {v}"


def strings(node) -> list[str]:
    """Every text in a notebook's JSON: keys, values, and each list of lines joined."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append(k)
            out += strings(v)
    elif isinstance(node, list):
        if node and all(isinstance(x, str) for x in node):
            out.append("".join(node))
        for x in node:
            out += strings(x)
    elif isinstance(node, str):
        out.append(node)
    return out


def leaks(secrets: list[str], path: Path) -> list[str]:
    texts = strings(json.loads(path.read_text(encoding="utf-8")))
    return [s for s in secrets if any(s in t for t in texts)]


ALL_SECRETS = sorted({s for p in SOURCES for s in teacher_secrets(p)})


def test_teacher_secrets_are_the_hints_solutions_and_hidden_tests():
    secrets = teacher_secrets(SOURCE / "woods" / "opponent_fool.ipynb")
    assert "That is the chance of NO Fool. 'At least one' is its complement." in secrets  # a hint
    assert "Count the Fools in your own hand: how many are there?" in secrets
    assert "p_player2 = 1 - Fraction(math.comb(unseen - unseen_fools, 7), math.comb(unseen, 7))" \
        in secrets                                                  # a solution line
    assert "assert p_any == 1 - Fraction(math.comb(3, g), math.comb(n, g))" in secrets  # hidden
    assert not any(s.startswith(("from ", "import ")) or len(s) < 16 for s in secrets)
    assert len(ALL_SECRETS) > 200


@pytest.mark.parametrize("path", notebooks(RELEASE),
                         ids=[p.relative_to(RELEASE).as_posix() for p in notebooks(RELEASE)])
def test_no_student_copy_holds_a_teacher_secret(path):
    """No hint, solution line or hidden test of ANY teacher copy is readable in any field
    of a student copy (sources, outputs, metadata)."""
    assert leaks(ALL_SECRETS, path) == []


def test_a_leaked_secret_is_found_in_any_field(tmp_path):
    """The leak check sees a hint put in a cell's metadata or an output, not only sources."""
    release = RELEASE / "woods" / "opponent_fool.ipynb"
    hint = "That is the chance of NO Fool. 'At least one' is its complement."
    for where in ("metadata", "output"):
        nb = nbformat.read(release, as_version=4)
        cell = next(c for c in nb.cells if c.cell_type == "code")
        if where == "metadata":
            cell.metadata["note"] = {"text": [hint]}
        else:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                   text=f"✗ p: 1/2 is not right. {hint}\n")]
        leaked = tmp_path / f"{where}.ipynb"
        nbformat.write(nb, leaked)
        assert leaks(ALL_SECRETS, leaked) == [hint]


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_teacher_copy_is_stored_executed_without_errors(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), f"{path.name}: execute it (make notebooks)"
    for c in code:
        for o in c.outputs:
            assert o.output_type != "error", f"{path.name}: {o.get('ename')}: {o.get('evalue')}"


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_a_changed_question_is_found_stale_and_resealed(tmp_path):
    """A teacher who edits a question runs ``seal``: ``--check`` reports the stale check,
    ``seal`` rewrites it, and the new answer passes while the old one does not."""
    import subprocess
    import sys
    nb = nbformat.read(SOURCE / "woods" / "opponent_fool.ipynb", as_version=4)
    for cell in nb.cells:      # the question now asks about 8 cards instead of 7
        cell.source = cell.source.replace("math.comb(unseen - unseen_fools, 7), math.comb(unseen, 7)",
                                          "math.comb(unseen - unseen_fools, 8), math.comb(unseen, 8)")
        cell.source = cell.source.replace('pool["Fool"], 7)', 'pool["Fool"], 8)')
    changed = tmp_path / "opponent_fool.ipynb"
    nbformat.write(nb, changed)
    cli = [sys.executable, "-m", "kingdoms.exercises", "seal"]
    r = subprocess.run(cli + ["--check", str(changed)], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 1 and "cell 7: p_player2: 3 mistake hint(s) sealed: stale" in r.stdout
    # question 4 lists "P(at least one Fool)" (p_player2) as a mistake: its seal changed too
    assert "cell 13: expected_fools: 3 mistake hint(s) sealed: stale" in r.stdout
    assert nbformat.read(changed, as_version=4) == nb                 # --check writes nothing
    r = subprocess.run(cli + [str(changed)], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0 and "resealed" in r.stdout, r.stderr
    ns, tried, checks = teacher_run(changed)
    (what, options), = [(w, o) for k, n, w, o in checks if n == "p_player2"]
    new, old = 1 - Fraction(math.comb(13, 8), math.comb(17, 8)), Fraction(31, 34)
    assert judged("p_player2", what, options, new, ns).ok
    assert not judged("p_player2", what, options, old, ns).ok


def test_seal_refuses_a_mistake_without_a_hint(tmp_path):
    from kingdoms.exercises import ExerciseFormatError
    nb = nbformat.read(SOURCE / "woods" / "opponent_fool.ipynb", as_version=4)
    for cell in nb.cells:
        cell.source = cell.source.replace("#     Count the Fools in your own hand: how many are there?\n", "")
    broken = tmp_path / "broken.ipynb"
    nbformat.write(nb, broken)
    with pytest.raises(ExerciseFormatError, match="unseen_fools = game.deck.count.*has no hint"):
        seal_notebook(broken, write=False)


def _without_code(text: str, *shown: str) -> str:
    """A check's sentence without what is code or the game's own words: spans in
    backticks (``from fractions import Fraction``), the answer as shown and the choices
    offered (a game's action texts: its own tests check their German)."""
    for words in sorted(filter(None, shown), key=len, reverse=True):
        text = text.replace(words, " ")
    return re.sub(r"`[^`]*`", " ", text)


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("path", GERMAN, ids=[p.relative_to(SOURCE).as_posix() for p in GERMAN])
def test_a_german_exercise_answers_a_mistake_in_german_as_the_english_one_does(path):
    """Each classic mistake of a German exercise gets the same kind of feedback as in its
    English twin (the same mistake recognised, or the same form problem), and every
    sentence a student reads (the mistake's hint, the general hint for any other wrong
    answer, a float's hint) is German."""
    from german import german_scan
    from kingdoms.exercises import show
    ns_de, tried_de, checks_de = teacher_run(path)
    _ns_en, tried_en, checks_en = teacher_run(english_twin(path))
    # the same mistakes in the same cells; a mistake's answer may be written in the
    # student's language (the seat "Rot" where the English twin says "Red")
    assert [(k, n) for k, n, _e, _v, _h in tried_de] == \
        [(k, n) for k, n, _e, _v, _h in tried_en], "the same mistakes in the same cells"
    assert [(k, n) for k, n, _w, _o in checks_de] == [(k, n) for k, n, _w, _o in checks_en]
    texts = []
    offered = {}
    with using("de"):
        for _k, name, _w, options in checks_de:
            choices = options.get("choices") or []
            if isinstance(choices, str):
                choices = list(_lookup(choices, ns_de))
            offered[name] = [show(c) for c in choices]
    for (k, name, expr, de, hint), (_k, _n, _e, en, _hint) in zip(tried_de, tried_en):
        where = f"{path.name}, cell {k}: {name} = {expr}"
        assert (de.ok, de.mistake) == (en.ok, en.mistake), where
        assert de.message != en.message, f"{where}: the same words as in English"
        trial = dict(ns_de)
        exec(f"{name} = {expr}", trial)
        with using("de"):
            shown = show(trial[name])
        texts.append(_without_code(de.message, shown, *offered[name]))
    with using("de"):
        for k, name, what, options in checks_de:
            other = _elsewhere(ns_de[name], options)
            v = judged(name, what, options, other, ns_de)
            assert not v.ok and v.mistake is None or isinstance(v.mistake, str), name
            texts.append(_without_code(v.message, show(other), *offered[name]))
            if isinstance(ns_de[name], Fraction) and ns_de[name].denominator > 1:
                texts.append(_without_code(judged(name, what, options, float(ns_de[name]),
                                                  ns_de).message, show(float(ns_de[name]))))
    assert texts
    german_scan(texts, path.relative_to(SOURCE).as_posix())
