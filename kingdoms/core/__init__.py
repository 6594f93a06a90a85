"""The game-independent core: protocol, distributions, play, solving, trees, records.

Everything here works through the protocol in ``protocol.py`` only and knows no game.
Heavy libraries (matplotlib, sympy, networkx, tqdm) are imported inside the functions
that need them.
"""
from .protocol import (CHANCE, TERMINAL, HIDDEN, Action, Game, GameOptionError,
                       IllegalAction, State, TooManyOutcomes, check_probabilities, replace)
from .distribution import (Distribution, composition_ways, hypergeometric,
                           multivariate_hypergeometric)
from .data import DataError, EmbeddedData, GameData, load_data
from .records import GameRecord, RecordError
from .play import play, simulate, random_policy, first_policy, Policy, SimulationSummary
from .solve import expectimax, Solution, TreeTooLarge, outcome_distribution, uniform_model
from .tree import game_tree, draw_tree
from .cards import SequentialDeal
from .search import mcts_policy, strong_policy, SearchError, SearchReport
from .tournament import tournament, TournamentResult

__all__ = [
    "CHANCE", "TERMINAL", "HIDDEN", "Action", "Game", "GameOptionError", "IllegalAction",
    "State", "TooManyOutcomes", "check_probabilities", "replace", "Distribution", "hypergeometric",
    "multivariate_hypergeometric", "composition_ways", "DataError", "EmbeddedData", "GameData",
    "load_data", "GameRecord",
    "RecordError", "play", "simulate", "random_policy", "first_policy", "Policy",
    "SimulationSummary", "expectimax", "Solution", "TreeTooLarge", "game_tree", "draw_tree",
    "SequentialDeal", "outcome_distribution", "uniform_model",
]
