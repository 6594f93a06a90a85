"""kingdoms: five tabletop games modelled exactly, for lessons in probability.

>>> import kingdoms
>>> kingdoms.games()                      # doctest: +SKIP
['black_forest', 'elves', 'horse', 'ten_characters', 'woods']
>>> g = kingdoms.game("horse", players=2)  # doctest: +SKIP
>>> s = g.initial_state()                  # doctest: +SKIP

Games are imported on first use, so ``import kingdoms`` stays fast.
"""
from __future__ import annotations

import importlib

from .core.protocol import (CHANCE, TERMINAL, Action, Game, GameOptionError,
                            IllegalAction, State, TooManyOutcomes)

__version__ = "0.1.0"

# name -> "module:GameClass"; imported lazily by game().
_REGISTRY: dict[str, str] = {
    "horse": "kingdoms.horse.rules:Horse",
    "woods": "kingdoms.woods.rules:Woods",
    "black_forest": "kingdoms.black_forest.rules:BlackForest",
    "elves": "kingdoms.elves.rules:Elves",
    "ten_characters": "kingdoms.ten_characters.rules:TenCharacters",
}

__all__ = ["games", "game", "game_class", "register", "CHANCE", "TERMINAL", "Action",
           "Game", "State", "IllegalAction", "TooManyOutcomes", "GameOptionError"]


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
        raise GameOptionError(
            f"no game called {name!r}; the games are: {', '.join(games())}") from None
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def game(name: str, players: int | None = None, **options) -> Game:
    """The game ``name`` for ``players`` players with variant ``options``.

    Unknown options or a player count out of range raise ``GameOptionError``
    listing what is allowed.
    """
    return game_class(name).create(players=players, **options)
