"""kingdoms: five tabletop games modelled exactly, for lessons in probability.

>>> import kingdoms
>>> kingdoms.games()                      # doctest: +SKIP
['black_forest', 'elves', 'horse', 'ten_characters', 'woods']
>>> g = kingdoms.game("horse", players=2)  # doctest: +SKIP
>>> s = g.initial_state()                  # doctest: +SKIP

Games are imported on first use, so ``import kingdoms`` stays fast.
"""
from __future__ import annotations

from .core.registry import game_class, games, register
from .core.i18n import language, set_language
from .core.protocol import (CHANCE, TERMINAL, Action, Game, GameOptionError,
                            IllegalAction, State, TooManyOutcomes)

__version__ = "0.1.0"

__all__ = ["games", "game", "game_class", "register", "set_language", "language", "CHANCE", "TERMINAL", "Action",
           "Game", "State", "IllegalAction", "TooManyOutcomes", "GameOptionError"]


def game(name: str, players: int | None = None, **options) -> Game:
    """The game ``name`` for ``players`` players with variant ``options``.

    Unknown options or a player count out of range raise ``GameOptionError``
    listing what is allowed.
    """
    return game_class(name).create(players=players, **options)
