"""docs/anatomy.md, checked where a machine can check it.

Every game package has the same rooms; rules never reach the pictures or the analysis
layer; modules import each other one way (no cycle); no function in ``kingdoms/`` is
longer than a screen (60 lines, docstring included); every hook a game provides is
declared in the core.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core.protocol import State

ROOT = Path(kingdoms.__file__).parent
GAMES = sorted(p.name for p in ROOT.iterdir()
               if p.is_dir() and (p / "rules.py").exists())
MAX_LINES = 60


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _imports(path: Path, top_level_only: bool) -> set[str]:
    """The kingdoms modules ``path`` imports (relative imports resolved)."""
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    tree = _tree(path)
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names = [f"{mod}.{a.name}" for a in node.names]
            out.update(n for n in [mod] + names if n.startswith("kingdoms"))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("kingdoms"))
    modules = {_module_name(p) for p in ROOT.rglob("*.py")}
    return {m for m in out if m in modules and m != me}


def test_every_game_package_has_the_rooms_of_the_anatomy():
    assert len(GAMES) == 5
    for game in GAMES:
        for room in ("__init__.py", "data.toml", "components.py", "rules.py", "odds.py",
                     "render.py"):
            assert (ROOT / game / room).exists(), f"kingdoms/{game}/{room} is missing"


@pytest.mark.parametrize("game", GAMES)
def test_rules_never_import_render_or_the_analysis_layer(game):
    forbidden = {f"kingdoms.{game}.{m}" for m in ("render", "odds")}
    rules_modules = [ROOT / game / "rules.py", ROOT / game / "components.py"]
    for path in filter(Path.exists, rules_modules):
        reached = _imports(path, top_level_only=False) & forbidden
        assert not reached, f"{path.relative_to(ROOT.parent)} imports {sorted(reached)}"


@pytest.mark.parametrize("game", GAMES)
def test_rules_never_import_their_players_or_worlds(game):
    """The game's package hands its players and worlds to the core (``Game.attach`` in
    ``kingdoms/<game>/__init__.py``): the rules import neither, not even inside a
    function, so rules, players and worlds import each other one way."""
    forbidden = {f"kingdoms.{game}.{m}" for m in ("policies", "worlds", "strategies")}
    forbidden |= {"kingdoms.core.search", "kingdoms.core.play"}
    for path in (ROOT / game).glob("*.py"):
        if path.stem in ("__init__", "policies", "worlds", "strategies", "odds", "render"):
            continue
        reached = _imports(path, top_level_only=False) & forbidden
        assert not reached, f"{path.relative_to(ROOT.parent)} imports {sorted(reached)}"
    attached = kingdoms.game_class(game)._hooks
    assert {"policies", "default_policies", "sample_world", "unseen"} <= set(attached)


def test_the_protocol_imports_no_player():
    """The core's players register themselves (``CORE_PLAYERS``): the protocol imports
    neither ``play`` nor ``search``, not even inside a function."""
    reached = _imports(ROOT / "core" / "protocol.py", top_level_only=False)
    assert not reached & {"kingdoms.core.play", "kingdoms.core.search"}, sorted(reached)
    from kingdoms.core.protocol import CORE_PLAYERS
    assert {"random", "mcts"} <= set(CORE_PLAYERS)


def test_the_core_imports_no_game():
    for path in (ROOT / "core").rglob("*.py"):
        games = {m for m in _imports(path, top_level_only=False)
                 if m.split(".")[1] in GAMES}
        assert not games, f"{path.relative_to(ROOT.parent)} imports {sorted(games)}"


def test_no_game_imports_another_game():
    for game in GAMES:
        for path in (ROOT / game).rglob("*.py"):
            others = {m for m in _imports(path, top_level_only=False)
                      if m.split(".")[1] in GAMES and m.split(".")[1] != game}
            assert not others, f"{path.relative_to(ROOT.parent)} imports {sorted(others)}"


def test_no_import_cycle():
    import networkx as nx
    graph = nx.DiGraph()
    for path in ROOT.rglob("*.py"):
        me = _module_name(path)
        graph.add_node(me)
        for m in _imports(path, top_level_only=True):
            # importing a package's __init__ is not importing its modules
            if m != me.rpartition(".")[0]:
                graph.add_edge(me, m)
    cycles = [c for c in nx.simple_cycles(graph) if len(c) > 1]
    assert not cycles, f"import cycles: {cycles[:5]}"


def _long_functions():
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_LINES:
                    yield f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name} ({lines} lines)"


def test_no_function_longer_than_a_screen():
    long = list(_long_functions())
    assert not long, f"functions over {MAX_LINES} lines:\n" + "\n".join(long)


def test_long_function_check_can_fail(tmp_path, monkeypatch):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES + 1))
    (tmp_path / "long.py").write_text(f"def f():\n{body}\n")
    import sys
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert [s for s in _long_functions() if " f (" in s]


@pytest.mark.parametrize("game", GAMES)
def test_pictures_are_reached_through_the_core_render_contract(game):
    cls = kingdoms.game_class(game)
    state_cls = type(cls.create().initial_state())
    for klass in state_cls.__mro__:
        if klass is State:
            break
        for name in ("__str__", "_repr_html_", "short", "action_picture", "text", "html",
                     "to_text", "to_html"):
            assert name not in vars(klass), (
                f"{klass.__name__}.{name}: the core dispatches pictures to {game}/render.py")
    from kingdoms.core.protocol import _renderer
    for name in ("text", "html"):
        assert _renderer(state_cls, name) is not None, f"{game}/render.py has no {name}()"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_holds_one_frozen_components_built_from_its_data(game):
    import dataclasses
    import importlib
    g = kingdoms.game_class(game).create()
    module = importlib.import_module(f"kingdoms.{game}.components")
    parts = g.components
    assert type(parts) is module.Components and parts is g.components
    assert dataclasses.is_dataclass(parts) and type(parts).__dataclass_params__.frozen
    assert callable(getattr(module.Components, "from_data", None))


@pytest.mark.parametrize("game", GAMES)
def test_turn_steps_are_typed_not_strings_or_tuples(game):
    """What a state waits for is a frozen dataclass (no phase strings, no tagged tuples)."""
    import dataclasses
    from kingdoms.core import random_policy
    from kingdoms.core.play import play_state
    g = kingdoms.game_class(game).create()
    end = play_state(g, [random_policy] * g.players, seed=3)
    for s in end.path()[::5]:
        step = s.step
        assert dataclasses.is_dataclass(step) and type(step).__dataclass_params__.frozen, (
            f"{game}: state.step is {step!r}")
