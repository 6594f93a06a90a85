"""The registry of games: name -> game class, imported on first use.

The core reaches games only through here (records name their game, the OpenSpiel
adapter loads one by name); ``kingdoms.register`` adds a game of your own.
"""
from __future__ import annotations

import importlib

from .i18n import _
from .protocol import GameOptionError

__all__ = ["register", "games", "game_class"]

# name -> "module:GameClass"; imported lazily by game().
_REGISTRY: dict[str, str] = {
    "horse": "kingdoms.horse.rules:Horse",
    "woods": "kingdoms.woods.rules:Woods",
    "black_forest": "kingdoms.black_forest.rules:BlackForest",
    "elves": "kingdoms.elves.rules:Elves",
    "ten_characters": "kingdoms.ten_characters.rules:TenCharacters",
}


def register(name: str, target: str | type) -> None:
    """Register a game class (or ``"module:Class"`` path) under ``name``."""
    if not isinstance(target, str):
        target = f"{target.__module__}:{target.__qualname__}"
    _REGISTRY[name] = target


def games() -> list[str]:
    """The names of the registered games."""
    return sorted(_REGISTRY)


def game_class(name: str) -> type:
    """The ``Game`` subclass registered as ``name``."""
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise GameOptionError(_("no game called {name}; the games are: {games}").format(
            name=repr(name), games=", ".join(games()))) from None
    module, _sep, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
