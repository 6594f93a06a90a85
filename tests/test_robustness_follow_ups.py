"""Issue 32, robustness follow-ups: deep nesting in data files and records, values of
the wrong type anywhere in a data file, short data-error messages, and a tournament
that stops soon and says why a policy cannot go to a process pool."""
from __future__ import annotations

import copy
import json
import re
import sys

import pytest
from hypothesis import given, settings, strategies as st

import kingdoms
from kingdoms.core.data import (MAX_NESTING, DataError, EmbeddedData, GameData, is_note, nesting,
                                toml_nesting_bound)
from kingdoms.core.protocol import GameOptionError
from kingdoms.core.records import GameRecord, RecordError
from test_all_games import toml_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LIMIT = f"{MAX_NESTING} levels"


def _data_games():
    return [n for n in kingdoms.games() if "data" in kingdoms.game_class(n).options()]


# --------------------------------------------------------------------------- 1. depth

DEEP_TOML = {
    "table header": "[a" + ".a" * 600 + "]",
    "array of tables header": "[[a" + ".a" * 600 + "]]",
    "dotted key": "a" + ".a" * 600 + " = 1",
    "arrays": "x = " + "[" * 600 + "]" * 600,
    "inline tables": "x = " + "{a = " * 600 + "1" + "}" * 600,
    "mixed": "[t]\nx = " + "[{a.b = " * 300 + "1" + "}]" * 300,
    "very deep header": "[a" + ".a" * 200_000 + "]",
}


@pytest.mark.parametrize("text", DEEP_TOML.values(), ids=DEEP_TOML.keys())
def test_deeply_nested_toml_is_a_data_error_naming_the_limit(text):
    with pytest.raises(DataError, match=LIMIT):
        GameData.from_toml(text)


def test_nesting_just_under_the_limit_still_reads():
    GameData.from_toml("[a" + ".a" * (MAX_NESTING - 2) + "]")
    GameData.from_toml("x = " + "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1))


def test_deeply_nested_values_given_as_python_values_are_refused():
    deep: dict = {}
    node = deep
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(DataError, match=LIMIT):
        GameData(deep, "a deep table")


@pytest.mark.parametrize("name", _data_games())
def test_every_game_refuses_a_deep_data_file_naming_the_limit(name, tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text(kingdoms.game(name).game_data().text + "\n" + DEEP_TOML["table header"])
    with pytest.raises(DataError, match=LIMIT):
        kingdoms.game(name, data=str(path))


def _record_with_data(text: str) -> str:
    import hashlib
    rec = json.loads(kingdoms.core.play(kingdoms.game("woods", players=2), seed=1).to_json())
    rec["data"] = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "toml": text}
    return json.dumps(rec)


@pytest.mark.parametrize("depth", [600, 200_000])
def test_a_record_embedding_deep_data_is_a_record_error_naming_the_limit(depth):
    text = kingdoms.game("woods").game_data().text + "\n[a" + ".a" * depth + "]\n"
    with pytest.raises(RecordError, match=LIMIT):
        GameRecord.from_json(_record_with_data(text))


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 500, 100_000])
@pytest.mark.parametrize("where", ["format", "seed", "steps", "config"])
def test_a_deeply_nested_record_is_a_record_error_naming_the_limit(depth, where):
    rec = json.loads(_record_with_data("x = 1"))
    text = json.dumps(rec).replace(json.dumps(where) + ":",
                                   json.dumps(where) + ": " + "[" * depth + "]" * depth
                                   + ", \"_was\":", 1)
    with pytest.raises(RecordError, match=LIMIT):
        GameRecord.from_json(text)


def _nested_values(depth: int):
    leaves = st.one_of(st.integers(-5, 5), st.text("ab.[]{}#'\"\\ ", max_size=6),
                       st.booleans(), st.floats(allow_nan=False, allow_infinity=False))
    keys = st.text("ab.[]{}#'\"= ", min_size=1, max_size=4)
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
        max_leaves=depth)


def _toml(table: dict) -> str:
    """TOML for ``table`` (the data fuzz's writer), with a comment holding brackets
    after every table header (comments are skipped too)."""
    return "\n".join(line + "  # a comment [[{." if line.startswith("[") else line
                     for line in toml_text(table).split("\n"))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(table=st.dictionaries(st.text("ab.[", min_size=1, max_size=3), _nested_values(40),
                             max_size=4))
def test_the_toml_depth_bound_never_undercounts(table):
    """The one-pass bound read from the text is at least the parsed nesting (so nothing
    deeper than the limit reaches the parser) and at most a few levels above it (so
    files within the limit are read)."""
    text = _toml(table)
    exact = nesting(tomllib.loads(text), limit=10 ** 6)
    bound = toml_nesting_bound(text, limit=10 ** 6)
    assert exact <= bound <= exact + 3, text


# --------------------------------------------------------------------------- 2 and 6: wrong types

_WRONG = {
    "number": 12345,
    "fraction": 2.5,
    "bool": True,
    "long text": "x" * 2000,
    "list": [1, 2],
    "table": {"x": 1},
    "list of tables": [{"x": {"y": [1]}}],
    "list of lists": [[1, [2]]],
    "table of lists": {"x": [1, [2]], "y": "z" * 2000},
}


def _kind(v) -> str:
    return ("bool" if isinstance(v, bool) else "number" if isinstance(v, (int, float))
            else "text" if isinstance(v, str) else "list" if isinstance(v, list) else "table")


def _places(node, path=()):
    """Every key of the data (its first and last entry of each list), notes aside."""
    if isinstance(node, dict):
        for k, v in node.items():
            if not is_note(k):
                yield path + (k,), v
                yield from _places(v, path + (k,))
    elif isinstance(node, list) and node:
        for i in sorted({0, len(node) - 1}):
            yield path + (i,), node[i]
            yield from _places(node[i], path + (i,))


def _with(raw, path, value):
    raw = copy.deepcopy(raw)
    node = raw
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return raw


def _names_the_key(message: str, path: tuple) -> bool:
    """The message names the key changed, a key inside it or the table holding it."""
    key = ".".join(map(str, path))
    for named in re.findall(r"'([^']+)'", message):
        if named == key or named.startswith(key + ".") or key.startswith(named + "."):
            return True
    return False


_INTERNAL = re.compile(r"mappingproxy|MappingProxy|Mapping|\btuple\b|NoneType|"
                       r"Traceback|<class|object at 0x")


def _refused(name, raw, path) -> DataError | None:
    """The ``DataError`` of the first configuration of ``name`` refusing ``raw``, or
    ``None`` when every configuration builds the packaged components (the value is
    one the game does not read, such as the German names).  A game built with other
    components, or any other exception, fails the test."""
    data = EmbeddedData(GameData(raw, "the fuzzed data"))
    for config in kingdoms.game_class(name).configurations():
        try:
            game = kingdoms.game(name, data=data, **config)
        except DataError as e:
            return e
        except GameOptionError:
            continue
        assert _parts(game) == _parts(kingdoms.game(name, **config)), (
            f"{name}: {'.'.join(map(str, path))} = {_short(raw, path)} was read as valid")
    return None


def _parts(game) -> dict:
    """The game's components, apart from the data they were read from (the
    ``GameData`` itself, its sha256 digest)."""
    import dataclasses
    c = game.components
    return {f.name: getattr(c, f.name) for f in dataclasses.fields(c)
            if not isinstance(getattr(c, f.name), GameData)
            and not re.fullmatch(r"[0-9a-f]{64}", str(getattr(c, f.name)))}


def _short(raw, path):
    node = raw
    for p in path:
        node = node[p]
    return repr(node)[:80]


@pytest.mark.slow
@pytest.mark.parametrize("name", _data_games())
def test_a_value_of_the_wrong_type_anywhere_is_a_short_data_error_naming_the_key(name):
    """Every key of the game's data (top level and every level down, first and last
    entry of each list), replaced by values of every other type (some with wrong types
    nested inside): a ``DataError`` naming the key, at most a few lines long, with the
    value cut and no internal type names."""
    raw = tomllib.loads(kingdoms.game(name).game_data().text)
    tried = 0
    for path, old in list(_places(raw)):
        for label, bad in _WRONG.items():
            if _kind(bad) == _kind(old):
                continue
            e = _refused(name, _with(raw, path, bad), path)
            if e is None:
                continue
            msg = str(e)
            where = f"{'.'.join(map(str, path))} = {label}: {msg}"
            assert _names_the_key(msg, path), where
            assert len(msg) <= 400, where
            assert not _INTERNAL.search(msg), where
            tried += 1
    assert tried > 100


def test_black_forest_seating_of_the_wrong_type_names_the_key():
    raw = tomllib.loads(kingdoms.game("black_forest").game_data().text)
    for path, players in ((("seating", "two_player", 0), 2), (("seating", "two_player", 1), 2),
                          (("seating", "order", 2), 3)):
        for bad in (3, {"x": 1}, [1, 2], [["Wolf"]]):
            data = EmbeddedData(GameData(_with(raw, path, bad), "bad seating"))
            with pytest.raises(DataError, match=re.escape(".".join(map(str, path)))):
                kingdoms.game("black_forest", players=players, data=data)


def test_a_long_bad_value_is_shown_cut_and_as_the_file_writes_it():
    data = GameData({"a": {"b": "z" * 2000, "c": {"d": [1, 2]}}}, "my.toml")
    with pytest.raises(DataError) as e:
        data.get("a.b", int)
    assert len(str(e.value)) < 200 and "..." in str(e.value)
    with pytest.raises(DataError) as e:
        data.get("a.c", list)
    assert str(e.value) == "my.toml: 'a.c' should be a list, not {d = [1, 2]}"


# --------------------------------------------------------------------------- 5. pools

class _Recorder:
    """An executor that records the batches it is given and plays none of them."""

    def __init__(self):
        self.sizes = []

    def submit(self, fn, chunk):
        from concurrent.futures import Future
        start, stop = chunk[-3], chunk[-2]
        self.sizes.append(stop - start)
        f = Future()
        f.set_result([])
        return f


def test_a_large_tournament_is_played_in_batches_of_at_most_max_batch_games():
    from kingdoms.core import tournament
    from kingdoms.core.play import MAX_BATCH
    rec = _Recorder()
    tournament(kingdoms.game("woods", players=2), ["random", "greedy"], 2 * 20 * 300,
               executor=rec, progress=False)
    assert sum(rec.sizes) == 12_000 and max(rec.sizes) <= MAX_BATCH


def _not_picklable(error):
    class Failed:
        def result(self):
            raise error
    return Failed()


@pytest.mark.parametrize("error", [
    AttributeError("Can't pickle local object 'f.<locals>.<lambda>'"),
    __import__("pickle").PicklingError("Can't pickle <function <lambda>>: attribute lookup "
                                       "<lambda> on __main__ failed")])
def test_a_policy_a_pool_cannot_take_is_refused_saying_what_to_give_instead(error):
    import pickle
    from kingdoms.core.play import pool_result
    with pytest.raises(pickle.PicklingError, match="module-level functions") as e:
        pool_result(_not_picklable(error))
    assert "by the names of the game's players" in str(e.value)


def test_other_errors_of_a_pool_pass_unchanged():
    from kingdoms.core.play import pool_result
    with pytest.raises(AttributeError, match="no attribute 'x'"):
        pool_result(_not_picklable(AttributeError("'State' object has no attribute 'x'")))


def test_a_lambda_policy_in_a_process_pool_says_what_to_give_instead():
    import pickle
    from concurrent.futures import ProcessPoolExecutor
    from kingdoms.core import simulate, tournament
    game = kingdoms.game("woods", players=2)
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(pickle.PicklingError, match="module-level functions"):
            simulate(game, 2, lambda s, r: s.legal_actions()[0], executor=pool,
                     progress=False)
        with pytest.raises(pickle.PicklingError, match="module-level functions"):
            tournament(game, {"mine": lambda s, r: s.legal_actions()[0], "other": "random"},
                       2, executor=pool, progress=False)
