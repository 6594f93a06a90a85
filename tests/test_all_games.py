"""The protocol's invariants, checked by playouts of every registered game.

Each configuration a game declares (``Game.configurations()``: every player count and
variant) is played with random legal actions and sampled chance events.  At every
step: ``apply`` leaves the old state unchanged, decision states have legal actions,
chance nodes list exact probabilities summing to 1 (or say they are too large and
can be sampled), ``returns`` exists only at the end, views keep their contract
(BRIEF.md: ``view(p).legal_actions()`` equals ``legal_actions()`` for the player to
move; players out of range are an error), and malformed input is refused with
``IllegalAction`` without change: ``None`` and objects equal to everything at chance
and decision nodes, legal actions with fields of the wrong type.  At the end the JSON
record replays to identical states; hostile records give ``RecordError``.

Tiers: the default run checks one playout per configuration (``make test-fast``);
tests marked ``slow`` play many (``KINGDOMS_EXAMPLES`` per configuration, default 12);
``KINGDOMS_PLAYOUTS=100000`` opts in to the audit's 100,000-playout run.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
from fractions import Fraction
from unittest.mock import ANY

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import kingdoms
from kingdoms.core import (CHANCE, TERMINAL, GameRecord, IllegalAction, RecordError, State,
                           TooManyOutcomes, play, random_policy)
from kingdoms.core.play import play_state, game_rng
from kingdoms.core.data import DataError, is_note
from kingdoms.core.protocol import GameOptionError, replace

# Known failures, one entry per (check, game), until each game's own fixes land
# (issue 17).  The lead empties this as they do; nothing else marks a test xfail.
XFAIL: dict[tuple[str, str], str] = {
}

EXAMPLES = int(os.environ.get("KINGDOMS_EXAMPLES", "12"))
PLAYOUTS = int(os.environ.get("KINGDOMS_PLAYOUTS", "0"))
BULK = int(os.environ.get("KINGDOMS_BULK_PLAYOUTS", "100"))
MAX_STEPS = 100_000
CHECKED_STEPS = 300          # steps fully checked in each fast playout


def _marks(check: str, name: str):
    reason = XFAIL.get((check, name))
    return [pytest.mark.xfail(strict=False, reason=reason)] if reason else []


def configurations(check: str = ""):
    out = []
    for name in kingdoms.games():
        try:
            cls = kingdoms.game_class(name)
        except ImportError:      # reported by the tests themselves, not at collection
            out.append(pytest.param(name, {}, id=f"{name}-import", marks=_marks(check, name)))
            continue
        for config in cls.configurations():
            label = name + "-" + "-".join(f"{k}={v}" for k, v in config.items())
            out.append(pytest.param(name, config, id=label, marks=_marks(check, name)))
    return out


def game_names(check: str = "", exclude=()):
    return [pytest.param(n, id=n, marks=_marks(check, n))
            for n in kingdoms.games() if n not in exclude]


def snapshot(state: State):
    return tuple(getattr(state, f.name) for f in dataclasses.fields(state)), hash(state)


class NotAnAction:
    def __str__(self):
        return "not an action"


# --------------------------------------------------------------------------- checks

def check_step(state: State, rng: random.Random):
    """Check the invariants at ``state`` and return the next state."""
    cp = state.current_player()
    game = state.game
    assert cp == CHANCE or cp == TERMINAL or 0 <= cp < game.players
    with pytest.raises(IllegalAction):
        state.apply(NotAnAction())
    if cp == TERMINAL:
        return None
    with pytest.raises(ValueError):
        state.returns()
    for p in range(game.players):
        v = state.view(p)
        assert isinstance(v, type(state)) and v.game == game
        hash(v)
        str(v)
    before = snapshot(state)
    if cp == CHANCE:
        try:
            outcomes = state.chance_outcomes()
        except TooManyOutcomes as e:
            assert e.count > 1
            action = state.sample_chance(rng)
        else:
            assert outcomes, "a chance node without outcomes"
            assert all(isinstance(p, Fraction) and 0 < p <= 1 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
            assert len({o for o, _ in outcomes}) == len(outcomes), "repeated outcome"
            action = state.sample_chance(rng)
            assert action in dict(outcomes)
    else:
        actions = state.legal_actions()
        assert actions, f"no legal action for player {cp} in a non-terminal state"
        assert len(set(actions)) == len(actions), "repeated legal action"
        action = actions[rng.randrange(len(actions))]
        assert str(action)
        if dataclasses.is_dataclass(action):
            # actions are values: a copy equals the listed action (``apply`` compares
            # with ``==`` before it checks the types) and is taken as that very action
            twin = copy.copy(action)
            assert twin is not action and twin == action and hash(twin) == hash(action)
            assert state.apply(twin)._last[1] is action
    nxt = state.apply(action)
    assert snapshot(state) == before, "apply changed the state it was called on"
    assert nxt._last == (cp, action) and nxt._prev is state
    return nxt


def check_views(state: State):
    """BRIEF.md's view contract at ``state``."""
    game = state.game
    for bad in (-1, game.players, CHANCE, TERMINAL, True):
        with pytest.raises(ValueError):
            state.view(bad)
    cp = state.current_player()
    for p in range(game.players):
        str(state.view(p))
    if cp >= 0:
        seen = state.view(cp)
        assert seen.legal_actions() == state.legal_actions(), \
            "the mover's view lists other actions than the state"
        # who moves is public: the view, worked out afresh (no cached answer), says
        # the same (``play`` relies on it and does not ask the view again)
        assert replace(seen).current_player() == cp, \
            "the mover's view names another player to move"


# values of the wrong type for an action's fields
WRONG = (None, "?", -1.5, object(), ANY, ("x",), 10 ** 12)


def malformed_actions(state: State, rng: random.Random):
    """None, always-equal objects, and legal actions with one field of a wrong type."""
    yield None
    yield ANY
    yield NotAnAction()
    legal = state.legal_actions() if state.current_player() >= 0 else (
        (state.sample_chance(rng),) if state.is_chance() else ())
    for a in legal[:3]:
        if not dataclasses.is_dataclass(a):
            continue
        fields = [f for f in dataclasses.fields(a)]
        if not fields:
            continue
        f = rng.choice(fields)
        bad = object.__new__(type(a))            # no __post_init__: like a typo'd copy
        for g in fields:
            object.__setattr__(bad, g.name, getattr(a, g.name))
        object.__setattr__(bad, f.name, rng.choice(WRONG))
        yield bad


def check_malformed(state: State, rng: random.Random):
    before = snapshot(state)
    history = state.history()
    for bad in malformed_actions(state, rng):
        try:
            same = any(type(x) is type(bad) and x == bad for x in state.legal_actions())
        except Exception:
            same = False
        if same:
            continue
        with pytest.raises(IllegalAction) as e:
            state.apply(bad)
        assert str(e.value)
        assert snapshot(state) == before and state.history() == history


def check_end(end: State, seed):
    shares = end.returns()
    assert len(shares) == end.game.players
    assert all(0 <= r <= 1 for r in shares)
    assert sum(shares) == 1 or (end.game.players == 1 and sum(shares) in (0, 1))
    rec = GameRecord.of(end, seed=seed)
    again = GameRecord.from_json(rec.to_json())
    states = again.states()
    assert states[-1] == end and len(states) == len(end.history()) + 1
    assert states == list(end.path())


def random_step(state: State, rng: random.Random) -> State:
    if state.is_chance():
        return state.apply(state.sample_chance(rng))
    return state.apply(rng.choice(state.legal_actions()))


def playout(game, seed, check=None, checked=CHECKED_STEPS):
    """Play randomly to the end, running ``check(state, rng)`` at the first
    ``checked`` states; return the final state."""
    rng = random.Random(seed)
    state = game.initial_state()
    for i in range(MAX_STEPS):
        if state.is_terminal():
            if check is not None:
                check(state, rng)
            return state
        if check is not None and i < checked:
            check(state, rng)
        state = random_step(state, rng)
    pytest.fail(f"no end after {MAX_STEPS} steps")


# --------------------------------------------------------------------------- fast tier

@pytest.mark.parametrize("name, config", configurations("protocol"))
def test_a_playout_keeps_the_protocol(name, config):
    game = kingdoms.game(name, **config)
    rng = random.Random(1)
    state = game.initial_state()
    for i in range(MAX_STEPS):
        if i < CHECKED_STEPS:
            nxt = check_step(state, rng)
            if nxt is None:
                break
            state = nxt
        elif state.is_terminal():
            break
        else:
            state = random_step(state, rng)
    check_end(state, 1)


@pytest.mark.parametrize("name, config", configurations("malformed"))
def test_malformed_actions_are_illegal_and_change_nothing(name, config):
    """None, mock.ANY, wrong types and fields of the wrong type at chance and
    decision nodes (issue 17, "Actions")."""
    playout(kingdoms.game(name, **config), 2, check_malformed, checked=150)


@pytest.mark.parametrize("name, config", configurations("views"))
def test_views_keep_their_contract(name, config):
    playout(kingdoms.game(name, **config), 3, lambda s, rng: check_views(s), checked=200)


@pytest.mark.parametrize("name, config", configurations("default players"))
def test_the_games_own_players_end_games_by_the_rules(name, config):
    """play/simulate without policies seat ``default_policies()``: their games end by
    the rules, not by a safeguard (issue 13, "Honest endings")."""
    game = kingdoms.game(name, **config)
    assert len(game.default_policies()) == game.players
    for seed in range(3):
        rec = play(game, seed=seed)
        assert rec.unfinished is None, rec.unfinished


@pytest.mark.parametrize("name", game_names("records"))
def test_records_round_trip_with_the_players_own_data(name, tmp_path):
    """A user's data file travels inside the record; loading never opens it."""
    game = kingdoms.game(name)
    try:
        text = game.game_data().text
    except AttributeError:
        pytest.skip(f"{name} has no data file")
    mine = tmp_path / "mine.toml"
    mine.write_text(text + "\n# my own box\n", encoding="utf-8")
    end = playout(kingdoms.game(name, data=mine), 4)
    rec = GameRecord.of(end, seed=4)
    saved = rec.to_json()
    mine.unlink()
    again = GameRecord.from_json(saved)
    for replayed in (again.replay(), GameRecord.from_json(again.to_json()).replay()):
        # the same game, with the same options and the same data (the replayed game
        # holds the data itself where the original named its file)
        assert replayed.history() == end.history() and str(replayed) == str(end)
        assert replayed.returns() == end.returns()
        assert replayed.game.game_data() == end.game.game_data()
        assert {k: v for k, v in replayed.game.config().items() if k != "data"} == \
            {k: v for k, v in end.game.config().items() if k != "data"}
    with pytest.raises(RecordError, match="other component data"):
        again.replay(data=game.game_data())


def _paths(x, prefix=()):
    yield prefix
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, prefix + (i,))


HOSTILE_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=6),
    st.sampled_from([{"fraction": "1e100000000"}, {"fraction": "1/0"}, {"frozenset": 5},
                     {"frozenset": [[1], {"type": "x"}]}, {"type": "os.system"},
                     [[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]], "/etc/passwd",
                     "chance", -1, 10 ** 30, {"sha256": "0" * 64, "toml": "x = 1"}]))


def _record_of(name):
    game = kingdoms.game(name)
    state, rng = game.initial_state(), random.Random(5)
    for _ in range(40):                       # a short prefix keeps replays cheap
        if state.is_terminal():
            break
        state = random_step(state, rng)
    return json.loads(GameRecord.of(state, seed=5).to_json())


@pytest.mark.parametrize("name", game_names("hostile records"))
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_records_give_record_error(name, data):
    good = _record_of(name)
    path = data.draw(st.sampled_from(list(_paths(good))[1:]))
    d = json.loads(json.dumps(good))
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = data.draw(HOSTILE_VALUES)
    try:
        GameRecord.from_json(json.dumps(d)).replay()
    except RecordError as e:
        assert str(e)


@pytest.mark.parametrize("name, config", configurations("seeds"))
def test_same_seed_same_game(name, config):
    game = kingdoms.game(name, **config)
    assert play(game, random_policy, seed=123).steps == play(game, random_policy, seed=123).steps


@pytest.mark.slow
@pytest.mark.parametrize("name, config", configurations("trees"))
def test_trees_and_solver_work_midgame(name, config):
    """The generic tree and solver tools handle every game (a few steps in)."""
    from kingdoms.core import expectimax, game_tree, TreeTooLarge
    game = kingdoms.game(name, **config)
    rng = random.Random(5)
    state = game.initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        state = random_step(state, rng)
    try:
        g = game_tree(state, depth=2, max_nodes=5000)
    except ValueError as e:
        assert "5000" in str(e) or "5,000" in str(e)
    else:
        assert g.graph["root"] == state
        for u, v, d in g.edges(data=True):
            if u.is_chance():
                assert isinstance(d["probability"], Fraction)
    even = tuple(Fraction(1, game.players) for _ in range(game.players))
    try:
        sol = expectimax(state, depth=2, horizon_value=lambda s: even, max_states=20_000)
    except TreeTooLarge:
        return
    assert len(sol.value) == game.players


@pytest.fixture(scope="module")
def pool():
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=2) as executor:
        yield executor


@pytest.mark.parametrize("name", game_names("pool"))
def test_simulate_in_worker_processes_matches_serial(name, pool):
    """Games (and their default players) travel to worker processes and give the
    serial run's numbers."""
    from kingdoms.core import simulate
    game = kingdoms.game(name)
    serial = simulate(game, 6, seed=4, batch=2, progress=False)
    assert simulate(game, 6, seed=4, batch=2, executor=pool, progress=False) == serial


def _has_data(name):
    return "data" in kingdoms.game_class(name).options()


@pytest.mark.parametrize("name", [n for n in kingdoms.games() if _has_data(n)])
def test_every_unknown_number_is_a_listed_assumption(name):
    """Each game's data file names its assumptions (with reasons) and its sources,
    through the one core accessor, and the printed table lists every assumption."""
    game = kingdoms.game(name)
    assumptions, sources = game.assumptions(), game.sources()
    assert assumptions and sources
    assert all(a.reason.strip() for a in assumptions)
    table = game.assumptions_table()
    assert all(f"- {a.key} = " in table for a in assumptions)
    assert game.game_data() is game.game_data()          # read once per configuration


def test_a_game_without_data_file_says_so():
    game = kingdoms.game("highcard")
    with pytest.raises(AttributeError, match="has no data file"):
        game.assumptions()


# --------------------------------------------------------------------------- data schemas
# Every game declares its data file's schema (``Game.data_ranges()``: key or pattern ->
# (kind, min, max)); these tests fuzz the packaged file against it (issue 17, "Data
# files").  Mutated files are written by a small TOML writer (tomli_w is not a
# dependency); ``test_the_toml_writer_round_trips`` checks it on every data file.

_WRONG_TYPES = ("3", 2.5, True)
DATA_STEPS = 50_000          # a game from a valid data file ends within this many steps


def _data_games():
    return [pytest.param(n, id=n) for n in kingdoms.games() if _has_data(n)]


def _packaged(name) -> dict:
    import tomllib
    text = kingdoms.game(name).game_data().text
    return tomllib.loads(text)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(map(_toml_value, v)) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(x)}"
                               for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {v!r}")


def toml_text(table: dict, prefix: str = "") -> str:
    """A TOML document for what ``tomllib`` read: the scalars, lists and inline tables
    of a table, then one ``[header]`` per nested table."""
    lines = [f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in table.items()
             if not isinstance(v, dict)]
    for k, v in table.items():
        if isinstance(v, dict):
            name = f"{prefix}.{json.dumps(str(k))}" if prefix else json.dumps(str(k))
            lines += ["", f"[{name}]", toml_text(v, name)]
    return "\n".join(lines) + "\n"


def data_keys(raw: dict, pattern: str) -> list[tuple]:
    """The concrete keys (paths of dict keys and list indices) that ``pattern`` names in
    ``raw``; ``*`` is any key or index but the notes beside values.  The last part may
    be missing (an optional value, e.g. a seat's cattle): the path names where it goes."""
    out = []

    def walk(node, parts, path):
        if not parts:
            out.append(path)
            return
        head, rest = parts[0], parts[1:]
        if head == "*":
            items = (enumerate(node) if isinstance(node, list)
                     else node.items() if isinstance(node, dict) else ())
            for k, v in items:
                if not is_note(k):
                    walk(v, rest, path + (k,))
        elif isinstance(node, dict) and (head in node or not rest):
            walk(node.get(head), rest, path + (head,))
        elif isinstance(node, list) and head.isdigit() and int(head) < len(node):
            walk(node[int(head)], rest, path + (int(head),))

    walk(raw, pattern.split("."), ())
    return out


def _dotted(path) -> str:
    return ".".join(map(str, path))


def _get(raw, path):
    node = raw
    for p in path:
        node = node.get(p) if isinstance(node, dict) else node[p]
    return node


def _with_value(raw, path, value):
    """A copy of ``raw`` with ``value`` at ``path``."""
    import copy
    raw = copy.deepcopy(raw)
    _get(raw, path[:-1])[path[-1]] = value
    return raw


def _mutated(raw, path, kind, value, index=0):
    """``raw`` with the value at ``path`` changed: for ``int`` the number (one entry of a
    list of numbers, at ``index``), for ``list`` the number of entries (``value`` an int:
    entries repeated or dropped) or the whole value (anything else)."""
    old = _get(raw, path)
    if kind is list:
        if type(value) is not int:
            return _with_value(raw, path, value)
        entries = old if isinstance(old, list) else [old]
        entries = (entries * (value // max(len(entries), 1) + 1))[:value] if entries else []
        return _with_value(raw, path, entries)
    if isinstance(old, list) and old:
        new = list(old)
        new[index % len(old)] = value
        return _with_value(raw, path, new)
    return _with_value(raw, path, value)


def _write(tmp_path, raw, name="fuzzed.toml") -> str:
    path = tmp_path / name
    path.write_text(toml_text(raw), encoding="utf-8")
    return str(path)


def _outside(kind, lo, hi) -> list:
    """Values just outside ``lo..hi`` and of a wrong type."""
    bad = ([lo - 1] if lo is not None and (kind is int or lo > 0) else []) + \
          ([hi + 1] if hi is not None else [])
    return bad + list(_WRONG_TYPES)


def _refused_naming(name, path_str, key):
    """Build every configuration of ``name`` with the data file at ``path_str``: the first
    ``DataError`` must name ``key``; nothing else but a ``GameOptionError`` may be raised."""
    for config in kingdoms.game_class(name).configurations():
        try:
            kingdoms.game(name, data=path_str, **config)
        except DataError as e:
            assert key in str(e), f"the DataError should name {key}: {e}"
            return
        except GameOptionError:
            continue
    pytest.fail(f"{name}: no configuration refused {key} (out of range)")


def _plays_to_the_end(game, seed):
    """Play with the game's own players: an end within DATA_STEPS steps, a legal action
    at every decision, returns that share the win."""
    pols = game.default_policies()
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(DATA_STEPS):
        cp = state.current_player()
        if cp == TERMINAL:
            shares = state.returns()
            assert len(shares) == game.players and all(0 <= r <= 1 for r in shares)
            return state
        if cp == CHANCE:
            state = state.apply(state.sample_chance(rng))
            continue
        assert state.legal_actions(), f"no legal action at {state}"
        seen = state.view(cp) if game.hidden_information else state
        state = state.apply(pols[cp](seen, rng))
    pytest.fail(f"{game.title}: no end after {DATA_STEPS} steps")


@pytest.mark.parametrize("name", _data_games())
def test_the_toml_writer_round_trips(name, tmp_path):
    import tomllib
    raw = _packaged(name)
    assert tomllib.loads(toml_text(raw)) == raw
    game = kingdoms.game(name, data=_write(tmp_path, raw))
    assert game.game_data().raw == kingdoms.game(name).game_data().raw


@pytest.mark.parametrize("name", _data_games())
def test_data_ranges_are_declared_and_name_keys_of_the_file(name):
    """Each game declares its schema; every declared key names values of the packaged
    file, and the packaged values lie in their ranges."""
    ranges = kingdoms.game(name).data_ranges()
    assert ranges and isinstance(ranges, dict)
    raw = _packaged(name)
    for pattern, spec in ranges.items():
        kind, lo, hi = spec
        assert kind in (int, list) and (lo is None or hi is None or lo <= hi), pattern
        paths = data_keys(raw, pattern)
        assert paths, f"{name}: {pattern} names nothing in the packaged data file"
        for v in (_get(raw, p) for p in paths):
            if v is None:           # an optional value the packaged file leaves out
                continue
            if kind is list:
                n = len(v) if isinstance(v, list) else 1
                assert (lo is None or lo <= n) and (hi is None or n <= hi), pattern
            else:
                for x in (v if isinstance(v, list) else [v]):
                    assert type(x) is int and (lo is None or lo <= x) \
                        and (hi is None or x <= hi), (pattern, x)


@pytest.mark.slow
@pytest.mark.parametrize("name", _data_games())
def test_data_values_outside_their_declared_range_are_refused_naming_the_key(name, tmp_path):
    """For every declared key (its first and last place in the file): one below, one
    above, and values of a wrong type give a ``DataError`` naming the key."""
    raw = _packaged(name)
    for pattern, (kind, lo, hi) in kingdoms.game(name).data_ranges().items():
        paths = data_keys(raw, pattern)
        for path in {paths[0], paths[-1]}:
            for bad in _outside(kind, lo, hi):
                mutated = _mutated(raw, path, kind, bad)
                _refused_naming(name, _write(tmp_path, mutated), _dotted(path))


@pytest.mark.slow
@pytest.mark.parametrize("name", _data_games())
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_data_files_are_refused_clearly_or_play_to_the_end(name, tmp_path, data):
    """A value at an edge of its range or inside it (any declared key, any place): the
    game either builds and plays to the end with its own players, or is refused with a
    ``DataError`` (checks across keys) or ``GameOptionError``; a value outside is a
    ``DataError`` naming the key.  Never another exception, a hang, or a decision
    without a legal action."""
    raw = _packaged(name)
    ranges = kingdoms.game(name).data_ranges()
    pattern = data.draw(st.sampled_from(sorted(ranges)), label="key")
    kind, lo, hi = ranges[pattern]
    path = data.draw(st.sampled_from(data_keys(raw, pattern)), label="place")
    index = data.draw(st.integers(0, 50), label="entry")
    lo_ = lo if lo is not None else -1000
    hi_ = hi if hi is not None else 1000
    value = data.draw(st.one_of(st.sampled_from([lo_, hi_]), st.integers(lo_, hi_),
                                st.sampled_from(_outside(kind, lo, hi))), label="value")
    file = _write(tmp_path, _mutated(raw, path, kind, value, index))
    inside = type(value) is int and lo_ <= value <= hi_
    if not inside:
        event("outside: refused naming the key")
        _refused_naming(name, file, _dotted(path))
        return
    config = data.draw(st.sampled_from(kingdoms.game_class(name).configurations()),
                       label="config")
    try:
        game = kingdoms.game(name, data=file, **config)
    except (DataError, GameOptionError):
        event("inside: refused by a check across keys")
        return
    event("inside: played to the end")
    _plays_to_the_end(game, seed=index)


# --------------------------------------------------------------------------- slow tier

@pytest.mark.slow
@pytest.mark.parametrize("name, config", configurations("protocol"))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_protocol(name, config, seed):
    game = kingdoms.game(name, **config)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(MAX_STEPS):
        nxt = check_step(state, rng)
        if nxt is None:
            break
        state = nxt
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps")
    check_end(state, seed)


@pytest.mark.slow
@pytest.mark.parametrize("name, config", configurations("protocol"))
def test_many_playouts_end_and_share_the_win(name, config):
    game = kingdoms.game(name, **config)
    wins = [Fraction(0)] * game.players
    for i in range(BULK):
        end = play_state(game, random_policy, rng=game_rng("bulk", i), max_steps=MAX_STEPS)
        assert end.is_terminal()
        wins = [w + r for w, r in zip(wins, end.returns())]
    assert sum(wins) <= BULK


@pytest.mark.slow
@pytest.mark.skipif(PLAYOUTS <= 0, reason="opt in: KINGDOMS_PLAYOUTS=100000")
@pytest.mark.parametrize("name, config", configurations("protocol"))
def test_opt_in_audit_playouts(name, config):
    """The audit's run: ``KINGDOMS_PLAYOUTS`` playouts shared by all configurations,
    every step checked (protocol, views, malformed actions), every record replayed."""
    n = max(1, PLAYOUTS // len(configurations()))
    game = kingdoms.game(name, **config)

    def check(state, rng):
        check_views(state)
        check_malformed(state, rng)

    for seed in range(n):
        end = playout(game, seed, check, checked=MAX_STEPS)
        check_end(end, seed)


# --------------------------------------------------------------------------- the checks bite

def test_the_view_check_catches_a_view_with_other_actions():
    from toygame import Deal, HighCard, HighCardState

    class Narrow(HighCardState):
        def view(self, player):
            v = super().view(player)
            v.__dict__["_la"] = v.legal_actions()[:1]        # the view lists fewer
            return v

    s = HighCard().initial_state().apply(Deal(1)).apply(Deal(2))
    check_views(s)
    narrow = Narrow(**{f.name: getattr(s, f.name) for f in dataclasses.fields(s) if f.init})
    with pytest.raises(AssertionError, match="other actions"):
        check_views(narrow)
