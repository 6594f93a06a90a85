"""The former name of ``policies.py`` (notebooks import from here): the same players."""
from .policies import STRATEGIES, greedy_policy, hold_back_policy, random_policy

__all__ = ["random_policy", "hold_back_policy", "greedy_policy", "STRATEGIES"]
