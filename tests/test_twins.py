"""German notebooks are twins of their English ones (issue 31): same cells in the same
order, the same code (comments aside, plus the one ``kingdoms.set_language("de")`` line),
the same tags and metadata, and each German cell records the English cell it translates,
so that a change to an English cell after its translation is caught and named
(tools/twins.py)."""
from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
import twins  # noqa: E402

GAMES = ["black_forest", "elves", "horse", "ten_characters", "woods"]


def test_the_committed_twins_are_in_step():
    problems = twins.check(REPO)
    assert twins.pairs(REPO), "no German twin found"
    assert not problems, "German twins out of step with their English notebooks:\n" + "\n".join(problems)


def test_every_required_notebook_has_a_german_twin():
    """The index, each walkthrough and odds lesson, each class page, each exercise."""
    gone = [twins.rel(p) for p in twins.missing(REPO)]
    if gone:
        pytest.fail(f"{len(gone)} English notebooks have no German twin yet (start one with "
                    "`python tools/twins.py start EN.ipynb`):\n  " + "\n  ".join(gone), pytrace=False)


def test_the_required_twins_are_the_list_of_the_issue():
    want = {"notebooks/index.ipynb"}
    for game in GAMES:
        want |= {f"notebooks/{game}/walkthrough.ipynb", f"notebooks/{game}/odds.ipynb",
                 f"apps/{game}.ipynb"}
        want |= {p.relative_to(REPO).as_posix()
                 for p in (REPO / "exercises" / "source" / game).glob("*.ipynb")}
    got = {twins.rel(p) for p in twins.required(REPO)}
    assert got == want
    assert len([p for p in got if p.startswith("exercises/")]) >= 15
    # the explore notebooks and the OpenSpiel notebook stay English, and the German index says so
    for path in twins.english_only(REPO):
        assert twins.rel(path) not in got
    index = nbformat.read(REPO / "notebooks" / "de" / "index.ipynb", as_version=4)
    text = "\n".join(c.source for c in index.cells if c.cell_type == "markdown")
    assert "Erkunden-Notebooks" in text and "nur auf Englisch" in text
    for game in GAMES:
        assert f"](../{game}/explore.ipynb) (auf Englisch)" in text, game
    assert "](../openspiel.ipynb) (auf Englisch)" in text


def test_twin_paths():
    assert twins.twin_path(REPO / "notebooks" / "woods" / "odds.ipynb") == \
        REPO / "notebooks" / "de" / "woods" / "odds.ipynb"
    assert twins.twin_path(REPO / "apps" / "horse.ipynb") == REPO / "apps" / "de" / "horse.ipynb"
    assert twins.twin_path(REPO / "exercises" / "source" / "elves" / "deal_odds.ipynb") == \
        REPO / "exercises" / "source" / "elves_de" / "deal_odds.ipynb"
    with pytest.raises(ValueError):
        twins.twin_path(REPO / "exercises" / "release" / "elves" / "deal_odds.ipynb")


def test_comments_and_the_language_line_are_all_that_may_differ():
    english = 'import kingdoms\ngame = kingdoms.game("woods")   # a game\nprint("# not a comment")'
    german = ('import kingdoms\nkingdoms.set_language("de")\n# ein Spiel\n'
              'game = kingdoms.game("woods")\nprint("# not a comment")  # druckt')
    code, count = twins.without_set_language(german)
    assert count == 1
    assert twins.without_comments(code) == twins.without_comments(english)
    changed = german.replace('"# not a comment"', '"# kein Kommentar"')
    assert twins.without_comments(twins.without_set_language(changed)[0]) != \
        twins.without_comments(english)


# ---- the check fails where it should (on a temporary copy of the repository) ------------

@pytest.fixture
def copy(tmp_path):
    """A copy of the notebooks, class pages and exercises with the committed twins."""
    for folder in ("notebooks", "apps", "exercises"):
        shutil.copytree(REPO / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    assert twins.check(tmp_path) == [], "the copy should start in step"
    return tmp_path


def edit(path: Path, number: int, change) -> None:
    """Apply ``change`` to cell ``number`` (1-based) of a notebook."""
    nb = nbformat.read(path, as_version=4)
    change(nb.cells[number - 1])
    nbformat.write(nb, path)


def first_cell(path: Path, cell_type: str) -> int:
    nb = nbformat.read(path, as_version=4)
    return next(i for i, c in enumerate(nb.cells, 1)
                if c.cell_type == cell_type and not twins.generated(c))


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("cell_type", ["markdown", "code"])
def test_a_changed_english_cell_is_named(copy, cell_type):
    en = copy / "notebooks" / "woods" / "walkthrough.ipynb"
    n = first_cell(en, cell_type)
    edit(en, n, lambda c: setattr(c, "source", c.source + "\n"))
    problems = twins.check(copy)
    assert problems == [f"English cell {n} of notebooks/woods/walkthrough.ipynb changed after its "
                        f"translation (cell {n} of notebooks/de/woods/walkthrough.ipynb): translate "
                        "it again, then `python tools/twins.py sync notebooks/woods/walkthrough.ipynb`"]


def test_a_german_code_cell_that_differs_fails(copy):
    de = copy / "notebooks" / "de" / "horse" / "walkthrough.ipynb"
    n = first_cell(de, "code") + 2
    edit(de, n, lambda c: setattr(c, "source", c.source + "\nextra = game.players + 1"))
    problems = twins.check(copy)
    assert len(problems) == 1 and f"code cell {n} of notebooks/de/horse/walkthrough.ipynb differs" in problems[0]
    assert "+extra = game.players + 1" in problems[0]


def test_a_german_comment_may_differ(copy):
    de = copy / "apps" / "de" / "woods.ipynb"
    edit(de, 1, lambda c: setattr(c, "source", "# Die Klassenseite\n" + c.source))
    assert twins.check(copy) == []


def test_lost_tags_and_a_missing_language_line_fail(copy):
    de = copy / "notebooks" / "de" / "elves" / "walkthrough.ipynb"
    nb = nbformat.read(de, as_version=4)
    tagged = next(i for i, c in enumerate(nb.cells, 1) if "teacher-only" in c.metadata.get("tags", []))
    edit(de, tagged, lambda c: c.metadata.__setitem__("tags", []))
    setup = twins.first_kingdoms_cell(nb) + 1
    edit(de, setup, lambda c: setattr(c, "source", twins.without_set_language(c.source)[0]))
    problems = "\n".join(twins.check(copy))
    assert f"cell {tagged} of notebooks/de/elves/walkthrough.ipynb: metadata" in problems
    assert "the line kingdoms.set_language(\"de\") should be in the first code cell" in problems


def test_an_added_english_cell_fails_and_sync_flags_it(copy):
    en = copy / "notebooks" / "ten_characters" / "walkthrough.ipynb"
    nb = nbformat.read(en, as_version=4)
    nb.cells.insert(5, nbformat.v4.new_markdown_cell("A new paragraph."))
    n_code = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and i > 6)
    nb.cells[n_code].source += "\nprint('more')"
    nbformat.write(nb, en)
    assert any("has 45 cells" in p or "has 44 cells" in p for p in twins.check(copy))
    twins.sync(en, copy)
    problems = twins.check(copy)
    # the new markdown cell waits for its translation; the changed code cell is copied
    assert problems == ["cell 6 of notebooks/de/ten_characters/walkthrough.ipynb is not translated "
                        "yet (metadata.kingdoms.todo)"], problems
    de = nbformat.read(twins.twin_path(en, copy), as_version=4)
    assert de.cells[n_code].source.endswith("print('more')")
    # every other German cell kept its translation
    assert "Gleichzeitige Wahl" in "".join(c.source for c in de.cells)


def test_sync_keeps_the_old_translation_of_a_changed_cell_marked(copy):
    en = copy / "notebooks" / "woods" / "walkthrough.ipynb"
    edit(en, 1, lambda c: setattr(c, "source", c.source.replace("20 minutes", "25 minutes")))
    twins.sync(en, copy)
    de = nbformat.read(twins.twin_path(en, copy), as_version=4)
    assert "20 Minuten" in de.cells[0].source and de.cells[0].metadata.kingdoms.get("todo")
    assert twins.check(copy) == ["cell 1 of notebooks/de/woods/walkthrough.ipynb is not "
                                 "translated yet (metadata.kingdoms.todo)"]


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_a_missing_twin_is_listed(copy):
    (copy / "apps" / "de" / "elves.ipynb").unlink()
    assert "apps/elves.ipynb" in [twins.rel(p, copy) for p in twins.missing(copy)]
    assert twins.check(copy) == []      # a missing twin is not a twin out of step


def test_a_german_notebook_without_english_is_an_orphan(copy):
    (copy / "apps" / "elves.ipynb").unlink()
    assert twins.check(copy) == ["apps/de/elves.ipynb has no English notebook (renamed or removed?)"]


def test_start_writes_a_skeleton_that_waits_for_translation(copy):
    en = copy / "apps" / "elves.ipynb"
    (copy / "apps" / "de" / "elves.ipynb").unlink()
    de = twins.start(en, copy)
    nb = nbformat.read(de, as_version=4)
    assert 'import kingdoms\nkingdoms.set_language("de")' in nb.cells[0].source
    assert twins.check(copy) == []       # a class page has no markdown to translate
    en = copy / "notebooks" / "horse" / "walkthrough.ipynb"
    (copy / "notebooks" / "de" / "horse" / "walkthrough.ipynb").unlink()
    twins.start(en, copy)
    problems = twins.check(copy)
    assert problems and all("is not translated yet" in p for p in problems)
    with pytest.raises(FileExistsError):
        twins.start(en, copy)


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_the_command_line(copy):
    en = copy / "notebooks" / "woods" / "walkthrough.ipynb"
    edit(en, 4, lambda c: setattr(c, "source", c.source + " More."))
    shutil.copytree(REPO / "tools", copy / "tools")
    run = subprocess.run([sys.executable, str(copy / "tools" / "twins.py"), "check"],
                         capture_output=True, text=True, cwd=copy, timeout=60)
    assert run.returncode == 1
    assert "English cell 4 of notebooks/woods/walkthrough.ipynb changed after its translation" in run.stdout


# ---- links in German notebooks -----------------------------------------------------------

LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s#]+)(?:#[^)\s]*)?\)(?=(?P<after>[^\n]{0,16}))")


def german_notebooks():
    return [de for _, de in twins.pairs(REPO)]


def link_problems(path: Path, folder: Path | None = None) -> list[str]:
    """Links of a German notebook that go to an English notebook although its German twin
    exists, or that do not say "(auf Englisch)".  Links are relative to ``folder`` (default:
    the notebook's own)."""
    bad = []
    nb = nbformat.read(path, as_version=4)
    for number, cell in enumerate(nb.cells, 1):
        if cell.cell_type != "markdown":
            continue
        for m in LINK.finditer(cell.source):
            target = ((folder or path.parent) / m.group("target")).resolve()
            if target.suffix != ".ipynb" or not target.is_relative_to(REPO) or \
                    twins.is_german(target, REPO) or target == REPO / "notebooks" / "index.ipynb":
                continue          # German, not a notebook, or the English index ("English")
            try:
                twin = twins.twin_path(target, REPO)
            except ValueError:    # a student copy: its German twin is in exercises/release/<game>_de
                parts = target.relative_to(REPO).parts
                twin = REPO / "exercises" / "release" / f"{parts[2]}_de" / parts[3]
            where = f"{twins.rel(path)} cell {number}: [{m.group('text')}]({m.group('target')})"
            if twin.is_file():
                bad.append(f"{where}: link the German twin {twins.rel(twin)}")
            elif "(auf Englisch)" not in m.group("text") + m.group("after"):
                bad.append(f"{where}: an English notebook, say '(auf Englisch)'")
    return bad


def test_german_notebooks_link_german_twins_where_they_exist():
    bad = [problem for path in german_notebooks() for problem in link_problems(path)]
    assert not bad, "\n".join(bad)


def test_the_link_rule_catches_an_english_link(tmp_path):
    path = REPO / "notebooks" / "de" / "woods" / "walkthrough.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source += "\n\n[the walkthrough](../../woods/walkthrough.ipynb) · [odds](../../woods/odds.ipynb)"
    probe = tmp_path / "probe.ipynb"
    nbformat.write(nb, probe)
    problems = link_problems(probe, folder=path.parent)
    assert any("link the German twin notebooks/de/woods/walkthrough.ipynb" in p for p in problems)
    assert any("[odds](../../woods/odds.ipynb)" in p for p in problems)


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_the_german_navigation_follows_the_twins_as_they_come(copy):
    """tools/navigation.py links the English odds lesson and exercises '(auf Englisch)' until
    their German twins exist, then the twins."""
    shutil.copytree(REPO / "tools", copy / "tools")
    walkthrough = copy / "notebooks" / "de" / "woods" / "walkthrough.ipynb"

    def nav():
        run = subprocess.run([sys.executable, str(copy / "tools" / "navigation.py")],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return nbformat.read(walkthrough, as_version=4).cells[1].source

    # start from no German odds lesson and no German exercises for the game
    (copy / "notebooks" / "de" / "woods" / "odds.ipynb").unlink(missing_ok=True)
    for folder in ("source", "release"):
        shutil.rmtree(copy / "exercises" / folder / "woods_de", ignore_errors=True)
    before = nav()
    assert "[Wahrscheinlichkeiten (auf Englisch)](../../woods/odds.ipynb)" in before
    assert "(auf Englisch)](../../../exercises/release/woods/third_fool.ipynb)" in before
    shutil.copy(copy / "notebooks" / "woods" / "odds.ipynb", copy / "notebooks" / "de" / "woods" / "odds.ipynb")
    german = copy / "exercises" / "release" / "woods_de"
    german.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "# Übung: Solltest du den dritten Narren spielen? (Der König des Waldes)")])
    nbformat.write(nb, german / "third_fool.ipynb")
    after = nav()
    assert "[Wahrscheinlichkeiten](odds.ipynb)" in after
    assert "Übungen: [Solltest du den dritten Narren spielen?](../../../exercises/release/woods_de/third_fool.ipynb)" in after
    # the index's own tables follow too (the game table, the links to sections)
    index = nbformat.read(copy / "notebooks" / "de" / "index.ipynb", as_version=4)
    text = "\n".join(c.source for c in index.cells)
    assert "[die Wahrscheinlichkeits-Lektion](woods/odds.ipynb) |" in text
    assert "../woods/odds.ipynb" not in text


def test_a_section_link_follows_to_the_german_heading_of_the_same_cell(copy):
    shutil.copytree(REPO / "tools", copy / "tools")
    sys.path.insert(0, str(copy / "tools"))
    try:
        import importlib
        import navigation
        navigation = importlib.reload(navigation)
        assert navigation.REPO == copy
        en = copy / "notebooks" / "woods" / "odds.ipynb"
        de = copy / "notebooks" / "de" / "woods" / "odds.ipynb"
        de.unlink(missing_ok=True)
        index = copy / "notebooks" / "de" / "index.ipynb"
        line = "[2. Does an opponent hold the General?](../woods/odds.ipynb#2.-Does-an-opponent-hold-the-General?) (auf Englisch)"
        assert navigation.relink(index, line) == line          # no twin yet: unchanged
        nb = nbformat.read(en, as_version=4)
        for cell in nb.cells:
            cell.source = cell.source.replace("## 2. Does an opponent hold the General?",
                                              "## 2. Hat ein Gegner den General?")
        nbformat.write(nb, de)
        assert navigation.relink(index, line) == \
            "[2. Hat ein Gegner den General?](woods/odds.ipynb#2.-Hat-ein-Gegner-den-General?)"
        other = "[the lesson](../woods/odds.ipynb) (auf Englisch) · [English](../index.ipynb)"
        assert navigation.relink(index, other) == "[the lesson](woods/odds.ipynb) · [English](../index.ipynb)"
    finally:
        sys.path.remove(str(copy / "tools"))
        sys.modules.pop("navigation", None)


def test_check_labels_and_seals_are_text_the_rest_is_code():
    english = ('check_answer("p_aside", "P(a Fool set aside)", kind="probability",\n'
               '             sealed="kx1:abc"\n"def")\n'
               'compare_guess(my_guess, t.court_scores()[1], "the court\'s score", close=0)\n'
               'check_by_hand(by_hand, draw["Fool"], what=f"P({name} draws a Fool)")')
    german = ('check_answer("p_aside", "P(ein Narr beiseitegelegt)", kind="probability", sealed="kx1:xyz")\n'
              'compare_guess(my_guess, t.court_scores()[1], "die Punkte des Hofs", close=0)\n'
              'check_by_hand(by_hand, draw["Fool"], what=f"P({name} zieht einen Narren)")')
    assert twins.comparable(german) == twins.comparable(english)
    for wrong in (german.replace('"p_aside"', '"p_set_aside"'),          # the answer's name
                  german.replace('kind="probability"', 'kind="exact"'),
                  german.replace("court_scores()[1]", "court_scores()[0]"),
                  german.replace('draw["Fool"]', 'draw["Narr"]'),         # a value, not a label
                  german.replace("{name}", "{other}"),
                  german.replace("close=0", "close=1")):
        assert twins.comparable(wrong) != twins.comparable(english), wrong



def test_printed_sentences_titles_and_rules_are_text_their_expressions_code():
    english = ('RULES = """Roll the dice."""\n'
               'print("Player 1 wins;", f"{game.player_name(p)}\'s court scores {scores[p]:>3}", sep="")\n'
               'plot = DistributionPlot(fools, n=200, seed=3, title="Fools in your hand")\n'
               'print(", ".join(hand))')
    german = ('RULES = """Würfle."""\n'
              'print("Spieler 1 gewinnt;", f"Hof von {game.player_name(p)}: {scores[p]:>3} Punkte", sep="")\n'
              'plot = DistributionPlot(fools, n=200, seed=3, title="Narren auf deiner Hand")\n'
              'print(", ".join(hand))')
    assert twins.comparable(german) == twins.comparable(english)
    for wrong in (german.replace("scores[p]", "scores[0]"),            # an expression
                  german.replace(":>3", ":>4"),                         # its format
                  german.replace("{game.player_name(p)}", "Spieler"),   # an expression left out
                  german.replace('sep=""', 'sep=" "'),                  # another keyword
                  german.replace('", ".join', '"; ".join'),             # code inside the print
                  german.replace("n=200", "n=300"),
                  german.replace("RULES =", "REGELN =")):
        assert twins.comparable(wrong) != twins.comparable(english), wrong
    # a string that is a value stays code: a card, a move, a game
    assert twins.comparable('game = kingdoms.game("woods")\nhand.count("Fool")') != \
        twins.comparable('game = kingdoms.game("wald")\nhand.count("Narr")')


def test_table_columns_count_words_and_move_words_are_text():
    english = ('print(d.table("card drawn"))\n'
               'print(f"{plural(end.points[p], \'point\'):>10}")\n'
               'in_words = {"PlayVillage": "play a village", "Pass": "pass"}')
    german = ('print(d.table("gezogene Karte"))\n'
              'print(f"{plural(end.points[p], \'Punkt\', \'Punkte\'):>10}")\n'
              'in_words = {"PlayVillage": "ein Dorf spielen", "Pass": "passen"}')
    texts = shown_texts(german)
    assert {"gezogene Karte", "Punkte", "ein Dorf spielen"} <= set(texts) and "PlayVillage" not in texts
    changes = [("d.table", "e.table"),                  # the distribution
               ("end.points[p]", "end.points[0]"),      # the count
               ('"PlayVillage"', '"Dorf"'),             # a key is code
               ("in_words =", "words =")]
    assert twins.comparable(german) == twins.comparable(english)
    assert all(twins.comparable(german.replace(*c)) != twins.comparable(english) for c in changes)


def test_a_named_objectives_name_is_text_its_function_code():
    english = ('p_cattle = ("P(cattle)", lambda s: s.returns())\n'
               'tree = game_tree(root, objective=p_cattle)')
    german = ('p_cattle = ("P(Rind)", lambda s: s.returns())\n'
              'tree = game_tree(root, objective=p_cattle)')
    assert "P(Rind)" in shown_texts(german)
    assert twins.comparable(german) == twins.comparable(english)
    changes = [("s.returns()", "s.returns()[0]"),           # the function is code
               ("lambda s: s.returns()", "returns"),         # a pair with a name is not an objective
               ("objective=p_cattle", "objective=None")]
    assert all(twins.comparable(german.replace(*c)) != twins.comparable(english) for c in changes)
    # a pair of two texts (a card and its colour) stays code
    assert twins.comparable('x = ("Fool", "Blue")') != twins.comparable('x = ("Narr", "Blau")')


# ---- what a German class reads is German ----------------------------------------------------

# names that stay as they are (a game's original title, a website)
PROPER_NAMES = ("Into the Black Forest", "Board Game Arena")


def readable_markdown(source: str) -> str:
    """The German prose of a markdown cell: code, links to English notebooks (their titles
    are English, and they say so), link targets and proper names left out."""
    text = re.sub(r"```.*?```", " ", source, flags=re.S)
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\[[^\]]*\]\([^)]*\)\s*\(auf Englisch\)", " ", text)
    text = re.sub(r"\[[^\]]*\(auf Englisch\)\]\([^)]*\)", " ", text)
    text = re.sub(r"\[English\]\([^)]*\)", " ", text)
    return re.sub(r"\]\([^)]*\)", "] ", text)


def shown_texts(source: str) -> list[str]:
    """The string literals of a code cell that the twin rule treats as text (printed
    sentences, check labels, titles, rules cards)."""
    texts = []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return texts
    for node in ast.walk(tree):
        candidates = []
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in twins.SHOWN:
                candidates += node.args
            if name in twins.LABELS:
                position, keyword = twins.LABELS[name]
                candidates += node.args[position:position + 1]
                candidates += [kw.value for kw in node.keywords if kw.arg == keyword]
            if name in twins.WORDS:
                candidates += node.args[1:]
            candidates += [kw.value for kw in node.keywords if kw.arg in twins.TEXT_KEYWORDS]
        elif isinstance(node, ast.Assign) and all(
                isinstance(t, ast.Name) and t.id in twins.TEXT_NAMES for t in node.targets):
            candidates += node.value.values if isinstance(node.value, ast.Dict) else [node.value]
        elif (isinstance(node, ast.Tuple) and len(node.elts) == 2
              and isinstance(node.elts[1], ast.Lambda)):
            candidates.append(node.elts[0])         # a named objective's name
        for c in candidates:
            if isinstance(c, ast.Constant) and isinstance(c.value, str):
                texts.append(re.sub(r"\{\w*\}", " ", c.value))     # a {field} of .format is code
            elif isinstance(c, ast.JoinedStr):
                texts.append(" ".join(v.value for v in c.values if isinstance(v, ast.Constant)))
    return texts


@pytest.mark.parametrize("path", [de for _, de in twins.pairs(REPO)], ids=lambda p: twins.rel(p))
def test_german_twins_read_german(path):
    from german import german_scan
    nb = nbformat.read(path, as_version=4)
    texts = [readable_markdown(c.source) for c in nb.cells if c.cell_type == "markdown"]
    texts += [t for c in nb.cells if c.cell_type == "code" for t in shown_texts(c.source)]
    german_scan(texts, twins.rel(path))


# ---- code that runs in both languages -----------------------------------------------------

# A German twin runs the English code in German: code that finds a move, an outcome or a
# line of a report by the English text it shows breaks there (a KeyError, or silently
# another branch).  Find them by their value (outcome.card, a Roll(...), RollDice()).
BY_TEXT = {
    "a dict keyed by the text of a move or outcome": re.compile(r"\{\s*str\(\w+\)\s*:\s*\w+\s+for\b|dict\(\(str\("),
    "a comparison with the text of a move or outcome": re.compile(r"\bstr\([^()]*\)\s*==|==\s*str\("),
    "a word looked up in the text of a move or outcome": re.compile(r"""["'][^"']*["']\s+in\s+str\("""),
    "a move chosen by its English text": re.compile(r"""\.choose\(\s*["']"""),
    "a report line found by its English start": re.compile(r"""report\b.*\.startswith\(\s*["']"""),
    "a card found by the start of its English label": re.compile(r"""\.label\(\)\.startswith\(\s*["']"""),
}


def text_lookups(source: str) -> list[str]:
    return [why for why, pattern in BY_TEXT.items() if pattern.search(source)]


def test_the_lookup_scan_catches_what_broke_in_german():
    """The code of the lessons before they were made to run in German (issue 31)."""
    assert text_lookups('draw = {str(outcome): p for outcome, p in t.chance_outcomes()}')
    assert text_lookups('then = dict((str(a), p) for a, p in after_first.chance_outcomes())')
    assert text_lookups('    if "Jester" in str(deal):')
    assert text_lookups('        if str(roll) == wish:')
    assert text_lookups('roller.choose("roll the dice")')
    assert text_lookups('[l for l in end.report if l.startswith("Left")][0]')
    assert text_lookups('    if card.label().startswith("Red 7 "):')
    assert not text_lookups('    if card.deck == "Red" and card.value == 7:')
    assert not text_lookups('draw = {outcome.card: p for outcome, p in t.chance_outcomes()}')
    assert not text_lookups('print("Options:", [str(a) for a in s.legal_actions()])')
    assert not text_lookups('roller.choose(RollDice())')
    assert not text_lookups('print(f"{card.label():26} by counting {str(by_count):>6}")')


@pytest.mark.parametrize("path", [en for en, _ in twins.pairs(REPO)], ids=lambda p: twins.rel(p))
def test_code_with_a_german_twin_finds_moves_by_value_not_by_text(path):
    nb = nbformat.read(path, as_version=4)
    bad = [f"cell {n}: {why}:\n{cell.source}" for n, cell in enumerate(nb.cells, 1)
           if cell.cell_type == "code" for why in text_lookups(cell.source)]
    assert not bad, f"{twins.rel(path)} (its German twin runs this code in German):\n" + "\n".join(bad)
