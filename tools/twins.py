"""German notebooks and their English twins (issue 31): check them, start them, sync them.

A German twin has the same cells in the same order as its English notebook:

* markdown cells translated;
* code cells equal to the English ones once comments are removed (comments may be German)
  and the one added line ``kingdoms.set_language("de")`` is removed (it follows the
  ``import kingdoms`` of the first code cell that imports kingdoms; where that cell has no
  ``import kingdoms``, the line is ``import kingdoms; kingdoms.set_language("de")``).
  Some string literals in code are not code but sentences for people, which a German
  twin writes in German: what ``print(...)`` prints (the text of its string and f-string
  arguments; the {expressions} in an f-string stay code), the *label* a lesson or exercise
  check puts into its sentence for the student (``what``: ``check_answer(name, what)``,
  ``check_simulation(estimate, exact, what, n)``, ``compare_guess(guess, truth, what)``,
  ``check_by_hand(value, exact, what)``), a distribution table's first column
  (``d.table("card drawn")``), the words of a count (``plural(n, "point")``: German gives
  both forms, ``plural(n, "Punkt", "Punkte")``), the titles of a chart or a class page (the
  keywords ``title``, ``xlabel``, ``ylabel``, ``odds_title``, ``intro``), a class page's
  rules card (``RULES = "..."``) and a lesson's words for kinds of moves (the values of
  ``in_words = {...}``), the name of a named objective (the text of a pair
  ``("P(cattle)", lambda state: ...)``, which a tree shows as what its values are); and the ``sealed=`` of an exercise check is written by
  ``make exercises`` for each language (its hints are sealed in the twin's language); the
  texts of an exercise's solution are answers in the student's language.
  Code is compared as Python (its syntax tree, so layout aside) with those replaced by
  placeholders: every name, number, call, card or move given by its name, and every
  expression stays equal;
* every cell's metadata (tags such as teacher-only, student-task, nbval-ignore-output,
  handout, navigation; nbgrader; source_hidden; slide types; lesson answers) copied;
* each German cell records which English cell it translates:
  ``metadata.kingdoms.twin`` = the first 12 hex digits of the sha256 of that English
  cell's source.  When the English cell changes, its hash changes and the check names it.

Where the twins live::

    notebooks/<x>.ipynb                    -> notebooks/de/<x>.ipynb
    apps/<game>.ipynb                      -> apps/de/<game>.ipynb
    exercises/source/<game>/<nb>.ipynb     -> exercises/source/<game>_de/<nb>.ipynb

Which English notebooks must have a twin: the index, every game's walkthrough and odds
lesson, every class page and every exercise (teacher copy; the student copies in
``exercises/release/<game>_de/`` are written from it by ``make exercises``).  The explore
notebooks and ``notebooks/openspiel.ipynb`` stay English for now (the German index says so).

    python tools/twins.py check             # exit 1 naming every stale or unequal cell
    python tools/twins.py missing           # the English notebooks that still lack a twin
    python tools/twins.py start EN.ipynb    # write the German skeleton of EN (if none yet)
    python tools/twins.py sync EN.ipynb     # bring an existing twin in step with EN

``start`` copies every cell: code as it is (plus the set_language line), markdown in
English and marked ``metadata.kingdoms.todo`` ("translate me"); the check fails while a
cell is marked.  ``sync`` keeps every German cell whose English cell is unchanged, and
for each changed or new English cell writes the English cell again, marked (a changed
markdown cell keeps its old German text, marked, so that the translator sees what to
update); the navigation cells are not marked: ``tools/navigation.py`` writes them in
German.  Run ``tools/navigation.py`` and ``tools/notebook_format.py`` and re-execute the
twin afterwards.

This file needs only nbformat and the standard library.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import io
import re
import sys
import tokenize
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
LANG = "de"
SET_LANGUAGE = 'kingdoms.set_language("de")'
SET_LANGUAGE_LINE = re.compile(r'^\s*(?:import kingdoms\s*;\s*)?kingdoms\.set_language\("de"\)\s*(?:#.*)?$')
IMPORTS_KINGDOMS = re.compile(r"^\s*(?:import kingdoms\b|from kingdoms[\s.])", re.M)
# metadata that is the twin's own (not copied from the English cell)
OWN_METADATA = ("kingdoms", "execution")
# nbgrader's checksum is over the cell's source: a translated cell has its own
OWN_NBGRADER = ("checksum",)
TODO = "translate this cell (its English cell is new or changed)"
# cells that tools/navigation.py writes in both languages: never marked, rewritten by it
GENERATED_TAGS = ("navigation", "navigation-next", "exercise-list")


def generated(cell) -> bool:
    return any(t in GENERATED_TAGS for t in cell.metadata.get("tags", []))


# ---- where twins are --------------------------------------------------------------------

def twin_path(english: Path, repo: Path = REPO) -> Path:
    """The German twin's path of an English notebook (repository paths)."""
    rel = english.resolve().relative_to(repo.resolve())
    parts = rel.parts
    if parts[0] in ("notebooks", "apps"):
        return repo / parts[0] / LANG / Path(*parts[1:])
    if parts[:2] == ("exercises", "source") and len(parts) == 4:
        return repo / "exercises" / "source" / f"{parts[2]}_{LANG}" / parts[3]
    raise ValueError(f"{rel} is not a notebook that has a German twin "
                     "(notebooks/, apps/ or exercises/source/<game>/)")


def is_german(path: Path, repo: Path = REPO) -> bool:
    parts = path.resolve().relative_to(repo.resolve()).parts
    return ((parts[0] in ("notebooks", "apps") and len(parts) > 1 and parts[1] == LANG)
            or (parts[0] == "exercises" and len(parts) > 2 and parts[1] in ("source", "release")
                and parts[2].endswith(f"_{LANG}")))


def games(repo: Path = REPO) -> list[str]:
    """The games: each has a lesson folder in notebooks/ and a class page in apps/."""
    folders = {p.parent.name for p in (repo / "notebooks").glob("*/walkthrough.ipynb")}
    pages = {p.stem for p in (repo / "apps").glob("*.ipynb")}
    return sorted((folders | pages) - {LANG})


def required(repo: Path = REPO) -> list[Path]:
    """The English notebooks that must have a German twin."""
    found = [repo / "notebooks" / "index.ipynb"]
    for game in games(repo):
        found += [repo / "notebooks" / game / "walkthrough.ipynb",
                  repo / "notebooks" / game / "odds.ipynb",
                  repo / "apps" / f"{game}.ipynb"]
        found += sorted((repo / "exercises" / "source" / game).glob("*.ipynb"))
    return found


def english_only(repo: Path = REPO) -> list[Path]:
    """English notebooks that stay English for now (the German index says so)."""
    return sorted((repo / "notebooks").glob("*/explore.ipynb")) + [repo / "notebooks" / "openspiel.ipynb"]


def english_notebooks(repo: Path = REPO) -> list[Path]:
    found = [repo / "notebooks" / "index.ipynb", repo / "notebooks" / "openspiel.ipynb"]
    for game in games(repo):
        found += sorted((repo / "notebooks" / game).glob("*.ipynb"))
        found += [repo / "apps" / f"{game}.ipynb"]
        found += sorted((repo / "exercises" / "source" / game).glob("*.ipynb"))
    return [p for p in found if p.is_file()]


def pairs(repo: Path = REPO) -> list[tuple[Path, Path]]:
    """(English, German) for every English notebook whose twin exists."""
    return [(en, twin_path(en, repo)) for en in english_notebooks(repo)
            if twin_path(en, repo).is_file()]


def missing(repo: Path = REPO) -> list[Path]:
    """The required English notebooks without a German twin yet."""
    return [en for en in required(repo) if not twin_path(en, repo).is_file()]


def orphans(repo: Path = REPO) -> list[Path]:
    """German notebooks with no English notebook (renamed or removed English)."""
    german = (sorted((repo / "notebooks" / LANG).rglob("*.ipynb"))
              + sorted((repo / "apps" / LANG).glob("*.ipynb"))
              + sorted((repo / "exercises" / "source").glob(f"*_{LANG}/*.ipynb")))
    have = {twin_path(en, repo) for en in english_notebooks(repo)}
    return [p for p in german if ".ipynb_checkpoints" not in p.parts and p not in have]


# ---- comparing cells --------------------------------------------------------------------

def fingerprint(source: str) -> str:
    """The twin hash of an English cell: the first 12 hex digits of sha256 of its source."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]


def without_comments(source: str) -> str:
    """The code with every comment removed, trailing spaces stripped and lines that held
    only a comment dropped (a ``#`` inside a string is not a comment)."""
    lines = source.splitlines()
    cuts: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                cuts[tok.start[0] - 1] = tok.start[1]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # not Python (a cell magic, unfinished code): cut at '#' outside quotes, roughly
        for i, line in enumerate(lines):
            m = re.search(r"""#(?=(?:[^"']*["'][^"']*["'])*[^"']*$)""", line)
            if m:
                cuts[i] = m.start()
    out = []
    for i, line in enumerate(lines):
        if i in cuts:
            line = line[:cuts[i]].rstrip()
            if not line.strip():
                continue
        out.append(line.rstrip())
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


# the argument of each check that is a text for the student (position, keyword)
LABELS = {"check_answer": (1, "what"), "check_simulation": (2, "what"),
          "compare_guess": (2, "what"), "check_by_hand": (2, "what"),
          # a distribution table's first column: what the outcome is ("card drawn")
          "table": (0, "outcome")}
# calls whose arguments after the first are words for people, however many: a count's
# noun (plural(n, "point"); German gives its plural: plural(n, "Punkt", "Punkte"))
WORDS = ("plural",)
# calls whose every positional argument is shown to people as it is
SHOWN = ("print",)
# keywords that title a chart or a class page, in any call
TEXT_KEYWORDS = ("title", "xlabel", "ylabel", "odds_title", "intro")
# names that hold a text for people (a class page's rules card), or a dict whose values
# are (a lesson's words for kinds of moves: in_words = {"Buy": "buy the top card"})
TEXT_NAMES = ("RULES", "in_words")
# keywords whose value a tool writes for each language
GENERATED_KEYWORDS = ("sealed",)


def _text(node) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)


def _placeholder(node, what: str):
    """A string literal as ``what``; an f-string as ``what`` and its {expressions}, in a
    fixed order (a German sentence may put them in another order), only its text goes."""
    if isinstance(node, ast.JoinedStr):
        values = sorted((v for v in node.values if isinstance(v, ast.FormattedValue)), key=ast.dump)
        return ast.JoinedStr([ast.Constant(what)] + values)
    return ast.Constant(what)


class _Texts(ast.NodeTransformer):
    def visit_Tuple(self, node):
        self.generic_visit(node)
        # a named objective, ("P(cattle)", lambda state: ...): its name is what a tree shows
        if len(node.elts) == 2 and _text(node.elts[0]) and isinstance(node.elts[1], ast.Lambda):
            node.elts[0] = _placeholder(node.elts[0], "<objective>")
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        if all(isinstance(t, ast.Name) and t.id in TEXT_NAMES for t in node.targets):
            if _text(node.value):
                node.value = _placeholder(node.value, "<text>")
            elif isinstance(node.value, ast.Dict):
                node.value.values = [_placeholder(v, "<text>") if _text(v) else v
                                     for v in node.value.values]
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in SHOWN:
            node.args = [_placeholder(a, "<text>") if _text(a) else a for a in node.args]
        if name in WORDS and len(node.args) > 1 and all(_text(a) for a in node.args[1:]):
            node.args = node.args[:1] + [ast.Constant("<words>")]
        for kw in node.keywords:
            if kw.arg in TEXT_KEYWORDS and _text(kw.value):
                kw.value = _placeholder(kw.value, "<text>")
        if name in LABELS:
            position, keyword = LABELS[name]
            if len(node.args) > position and _text(node.args[position]):
                node.args[position] = _placeholder(node.args[position], "<label>")
            for kw in node.keywords:
                if kw.arg == keyword and _text(kw.value):
                    kw.value = _placeholder(kw.value, "<label>")
        for kw in node.keywords:
            if kw.arg in GENERATED_KEYWORDS and _text(kw.value):
                kw.value = _placeholder(kw.value, "<written per language>")
        return node


ANSWER_TEXT = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def _solution_answers(source: str) -> str:
    """``source`` with the texts inside an exercise's solution (between nbgrader's
    ``### BEGIN SOLUTION`` and ``### END SOLUTION``) as placeholders: an answer is
    written in the student's language ("Blau", not "Blue")."""
    out, inside = [], False
    for line in source.split("\n"):
        if "### BEGIN SOLUTION" in line:
            inside = True
        elif "### END SOLUTION" in line:
            inside = False
        elif inside:
            line = ANSWER_TEXT.sub('"<answer>"', line)
        out.append(line)
    return "\n".join(out)


def comparable(source: str) -> str:
    """The code as it is compared: as Python without comments, layout, check labels,
    seals and the texts of a solution's answer (see the module's docstring); code that
    is not Python (a cell magic) as text without comments."""
    source = _solution_answers(source)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return without_comments(source)
    return ast.unparse(_Texts().visit(tree))


def without_set_language(source: str) -> tuple[str, int]:
    """The code without the set_language line, and how many such lines there were."""
    lines = source.splitlines()
    kept = [ln for ln in lines if not SET_LANGUAGE_LINE.match(ln)]
    return "\n".join(kept), len(lines) - len(kept)


def copied_metadata(metadata: dict) -> dict:
    meta = {k: v for k, v in metadata.items() if k not in OWN_METADATA}
    if isinstance(meta.get("nbgrader"), dict):
        meta["nbgrader"] = {k: v for k, v in meta["nbgrader"].items() if k not in OWN_NBGRADER}
    return meta


def first_kingdoms_cell(nb) -> int | None:
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and IMPORTS_KINGDOMS.search(cell.source):
            return i
    return None


def rel(path: Path, repo: Path = REPO) -> str:
    try:
        return path.resolve().relative_to(repo.resolve()).as_posix()
    except ValueError:
        return str(path)


def check_pair(english: Path, german: Path, repo: Path = REPO) -> list[str]:
    """Every way ``german`` breaks the twin rule for ``english`` (empty: in step).
    Cells are numbered from 1, as JupyterLab shows them."""
    en_nb = nbformat.read(english, as_version=4)
    de_nb = nbformat.read(german, as_version=4)
    en_name, de_name = rel(english, repo), rel(german, repo)
    problems = []
    hashes = [fingerprint(c.source) for c in en_nb.cells]
    if len(en_nb.cells) != len(de_nb.cells):
        problems.append(f"{de_name} has {len(de_nb.cells)} cells, {en_name} has "
                        f"{len(en_nb.cells)}: run `python tools/twins.py sync {en_name}`")
    # the set_language line: once, in the first code cell that imports kingdoms
    where = first_kingdoms_cell(de_nb)
    lines = [(i + 1) for i, c in enumerate(de_nb.cells) if c.cell_type == "code"
             for ln in c.source.splitlines() if SET_LANGUAGE_LINE.match(ln)]
    if where is None or lines != [where + 1]:
        problems.append(f"{de_name}: the line {SET_LANGUAGE} should be in the first code cell "
                        f"that imports kingdoms (cell {None if where is None else where + 1}), "
                        f"once; found in cells {lines}")
    for n, (en, de) in enumerate(zip(en_nb.cells, de_nb.cells), 1):
        twin = de.metadata.get("kingdoms", {}).get("twin")
        if twin != hashes[n - 1]:
            if twin in hashes:
                problems.append(f"cell {n} of {de_name} translates English cell "
                                f"{hashes.index(twin) + 1}, not cell {n}: run sync")
            else:
                problems.append(f"English cell {n} of {en_name} changed after its translation "
                                f"(cell {n} of {de_name}): translate it again, then "
                                f"`python tools/twins.py sync {en_name}`")
            continue
        if de.metadata.get("kingdoms", {}).get("todo"):
            problems.append(f"cell {n} of {de_name} is not translated yet (metadata.kingdoms.todo)")
        if en.cell_type != de.cell_type:
            problems.append(f"cell {n} of {de_name} is {de.cell_type}, the English cell is "
                            f"{en.cell_type}")
            continue
        if copied_metadata(en.metadata) != copied_metadata(de.metadata):
            problems.append(f"cell {n} of {de_name}: metadata (tags, slides, nbgrader ...) differ "
                            f"from the English cell's: {copied_metadata(de.metadata)} != "
                            f"{copied_metadata(en.metadata)}")
        if en.cell_type == "code":
            code, _ = without_set_language(de.source)
            if comparable(code) != comparable(en.source):
                diff = "\n".join(difflib.unified_diff(
                    comparable(en.source).splitlines(), comparable(code).splitlines(),
                    "English", "German", lineterm="", n=0))
                problems.append(f"code cell {n} of {de_name} differs from the English cell "
                                f"(comments and texts for people aside):\n{diff}")
    return problems


def check(repo: Path = REPO) -> list[str]:
    """Every problem of every twin pair, and German notebooks without an English one."""
    problems = []
    for en, de in pairs(repo):
        problems += check_pair(en, de, repo)
    problems += [f"{rel(p, repo)} has no English notebook (renamed or removed?)" for p in orphans(repo)]
    return problems


# ---- writing twins ----------------------------------------------------------------------

def add_set_language(source: str) -> str:
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^import kingdoms\s*(#.*)?$", line):
            return "\n".join(lines[:i + 1] + [SET_LANGUAGE] + lines[i + 1:])
    for i, line in enumerate(lines):
        if IMPORTS_KINGDOMS.match(line):
            return "\n".join(lines[:i] + [f"import kingdoms; {SET_LANGUAGE}"] + lines[i:])
    raise ValueError("the cell does not import kingdoms")


def german_cell(en, todo: bool, source: str | None = None):
    cell = nbformat.from_dict(en.copy())
    cell.metadata = nbformat.from_dict({k: v for k, v in en.metadata.items() if k != "execution"})
    meta = {"twin": fingerprint(en.source)}
    if todo:
        meta["todo"] = TODO
    cell.metadata["kingdoms"] = meta
    cell.source = en.source if source is None else source
    if cell.cell_type == "code":
        cell.outputs, cell.execution_count = [], None
    return cell


def build(en_nb, de_nb=None):
    """The German notebook for ``en_nb``: the cells of ``de_nb`` (the old twin) whose
    English cell is unchanged, the others copied from English and marked."""
    old = list(de_nb.cells) if de_nb is not None else []
    new_hashes = [fingerprint(c.source) for c in en_nb.cells]
    old_hashes = [c.metadata.get("kingdoms", {}).get("twin") for c in old]
    cells = [None] * len(en_nb.cells)
    matcher = difflib.SequenceMatcher(a=old_hashes, b=new_hashes, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        for k in range(b1 - b0):
            en = en_nb.cells[b0 + k]
            if tag == "equal":
                de = old[a0 + k]
                # the English metadata (tags, slides ...) may have changed: copy it again
                own = {key: de.metadata[key] for key in OWN_METADATA if key in de.metadata}
                de.metadata = nbformat.from_dict({**{key: v for key, v in en.metadata.items()
                                                     if key not in OWN_METADATA}, **own})
                cells[b0 + k] = de
            elif (tag == "replace" and a1 - a0 == b1 - b0 and en.cell_type == "markdown"
                  and old[a0 + k].cell_type == "markdown"):
                # the English text changed: keep the old translation to update, marked
                # (navigation cells are rewritten by tools/navigation.py: not marked)
                cells[b0 + k] = german_cell(en, todo=not generated(en), source=old[a0 + k].source)
            else:
                cells[b0 + k] = german_cell(en, todo=en.cell_type == "markdown" and not generated(en))
    nb = nbformat.from_dict(en_nb.copy())
    nb.cells = cells
    # the set_language line: in the first code cell that imports kingdoms, nowhere else
    where = first_kingdoms_cell(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        stripped, count = without_set_language(cell.source)
        if i == where and count != 1:
            cell.source = add_set_language(stripped)
        elif i != where and count:
            cell.source = stripped
    return nb


def write(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(nb)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def start(english: Path, repo: Path = REPO) -> Path:
    german = twin_path(english, repo)
    if german.exists():
        raise FileExistsError(f"{rel(german, repo)} exists: use `sync`")
    write(build(nbformat.read(english, as_version=4)), german)
    return german


def sync(english: Path, repo: Path = REPO) -> Path:
    german = twin_path(english, repo)
    if not german.exists():
        raise FileNotFoundError(f"{rel(german, repo)} does not exist: use `start`")
    en_nb = nbformat.read(english, as_version=4)
    de_nb = nbformat.read(german, as_version=4)
    nb = build(en_nb, de_nb)
    nb.metadata = de_nb.metadata
    write(nb, german)
    return german


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="exit 1 naming every cell out of step with its English twin")
    sub.add_parser("missing", help="list the English notebooks that still need a German twin")
    for name in ("start", "sync"):
        p = sub.add_parser(name)
        p.add_argument("english", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "check":
        problems = check()
        print("\n".join(problems) if problems else f"{len(pairs())} German twins in step")
        return 1 if problems else 0
    if args.command == "missing":
        gone = missing()
        print("\n".join(rel(p) for p in gone) if gone else "every required notebook has a twin")
        return 1 if gone else 0
    for english in args.english:
        done = (start if args.command == "start" else sync)(english.resolve())
        print("wrote", rel(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
