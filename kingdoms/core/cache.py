"""One cache mechanism for speed-only memo tables.

A cache here never changes a result, only how fast it comes: everything cached is a
pure function of hashable, immutable arguments (positions, components, dice).  Two
forms, both bounded:

* ``@speed_cache(maxsize)`` on a module-level function (``functools.lru_cache``
  underneath, registered so ``clear_caches()`` and ``cache_report()`` see it);
* ``owner_cache(owner, name, maxsize)`` for a table that belongs to one object (a
  game's components): a bounded dict kept beside the object, never on it, dropped
  when the object goes.  Frozen objects stay frozen and hidden information never
  sits in an attribute of a state or a game.

Tests run with and without caches (``clear_caches()``) to check a cache changes
nothing.
"""
from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from typing import Any, Callable

__all__ = ["speed_cache", "owner_cache", "clear_caches", "cache_report", "BoundedDict"]

_FUNCTIONS: list = []

_OWNED_BY_ID: dict[int, tuple] = {}


def speed_cache(maxsize: int = 4096) -> Callable:
    """``functools.lru_cache(maxsize)`` for a pure function, registered for
    ``clear_caches()``.  Speed only: the function must return the same value
    without it."""
    def wrap(f):
        cached = functools.lru_cache(maxsize=maxsize)(f)
        _FUNCTIONS.append(cached)
        return cached
    return wrap


class BoundedDict(OrderedDict):
    """A dict that forgets its oldest entries beyond ``maxsize`` (least recently set)."""

    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        if len(self) > self.maxsize:
            self.popitem(last=False)


def owner_cache(owner: Any, name: str, maxsize: int = 65536) -> BoundedDict:
    """The bounded memo table ``name`` belonging to ``owner`` (created on first use).

    Kept in a table beside ``owner`` by identity, so equal owners do not share and
    the table goes with its owner."""
    key = id(owner)
    entry = _OWNED_BY_ID.get(key)
    if entry is None or entry[0]() is not owner:
        tables: dict = {}
        ref = weakref.ref(owner, lambda _r, key=key, owned=_OWNED_BY_ID: owned.pop(key, None))
        entry = _OWNED_BY_ID[key] = (ref, tables)
    tables = entry[1]
    table = tables.get(name)
    if table is None:
        table = tables[name] = BoundedDict(maxsize)
    return table


def clear_caches() -> None:
    """Empty every speed cache (results must not change)."""
    for f in _FUNCTIONS:
        f.cache_clear()
    for _ref, tables in list(_OWNED_BY_ID.values()):
        for t in tables.values():
            t.clear()


def cache_report() -> list[tuple[str, int, int]]:
    """``(name, entries, maxsize)`` for every registered function cache."""
    out = []
    for f in _FUNCTIONS:
        info = f.cache_info()
        out.append((f"{f.__module__}.{f.__qualname__}", info.currsize, info.maxsize))
    return out
