"""Notebook widgets (ipywidgets 8) that work for every game through the protocol.

* ``Stepper(game_or_state, seats=None, seed=None)`` — step through a game turn by
  turn: legal moves as buttons, chance outcomes with exact probabilities (or a
  seeded roll), undo/redo, a history slider, a move log, the players' views, bot
  seats, and a tree at the current position.
* ``TreeExplorer(state)`` — the decision/chance tree with exact probabilities and
  expectimax values; choose a child to move the root.
* ``DistributionPlot(dist, sampler=None)`` — an exact distribution as bars with a
  seeded Monte Carlo overlay.

Importing this package imports ipywidgets; ``import kingdoms`` does not.
Stable CSS classes (``kingdoms-stepper``, ``kingdoms-state``, ``kingdoms-action``,
``kingdoms-outcome``, ``kingdoms-roll``, ``kingdoms-undo``, ``kingdoms-redo`` ...)
let browser tests and stylesheets find the parts.
"""
from .distplot import DistributionPlot
from .stepper import Stepper
from .tree import TreeExplorer

__all__ = ["Stepper", "TreeExplorer", "DistributionPlot"]
