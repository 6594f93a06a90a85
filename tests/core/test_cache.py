"""kingdoms.core.cache: bounded, speed-only memo tables, and the render contract."""
from __future__ import annotations

import gc

import kingdoms
from kingdoms.core import cache
from kingdoms.core.cache import BoundedDict, cache_report, clear_caches, owner_cache, speed_cache


def test_speed_cache_memoises_and_is_cleared_by_clear_caches():
    calls = []

    @speed_cache(maxsize=2)
    def double(x):
        calls.append(x)
        return 2 * x

    assert double(3) == 6 and double(3) == 6
    assert calls == [3]
    assert any(name.endswith("double") and size == 1 for name, size, _ in cache_report())
    clear_caches()
    assert double(3) == 6
    assert calls == [3, 3]


def test_bounded_dict_forgets_the_oldest_entries():
    d = BoundedDict(3)
    for i in range(5):
        d[i] = i
    assert list(d) == [2, 3, 4]


class Owner:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):               # equal owners must still not share a table
        return isinstance(other, Owner) and other.value == self.value

    def __hash__(self):
        return hash(self.value)


def test_owner_cache_belongs_to_one_object_and_goes_with_it():
    a, b = Owner(1), Owner(1)
    ta = owner_cache(a, "moves", maxsize=10)
    ta["x"] = 1
    assert owner_cache(a, "moves") is ta
    assert owner_cache(b, "moves") is not ta and "x" not in owner_cache(b, "moves")
    assert owner_cache(a, "other") is not ta
    key = id(a)
    assert key in cache._OWNED_BY_ID
    del a, ta
    gc.collect()
    assert key not in cache._OWNED_BY_ID


def test_owner_cache_is_bounded():
    o = Owner(2)
    t = owner_cache(o, "t", maxsize=4)
    for i in range(10):
        t[i] = i
    assert len(t) == 4


def test_a_game_without_a_render_module_gets_plain_sentences():
    import html
    from toygame import HighCard           # module "toygame": no package, no render.py
    s = HighCard().initial_state()
    assert s.short() == s.describe()
    assert s.action_picture(()) is None
    assert s._repr_html_() == f"<pre>{html.escape(str(s))}</pre>"


def test_every_game_is_drawn_by_its_render_module():
    import importlib
    for name in kingdoms.games():
        if not kingdoms.game_class(name).__module__.startswith(f"kingdoms.{name}."):
            continue                           # a test's toy game
        state = kingdoms.game(name).initial_state()
        render = importlib.import_module(f"kingdoms.{name}.render")
        assert str(state) == render.text(state)
        assert state._repr_html_() == render.html(state)
