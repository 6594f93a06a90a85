"""The old name of ``kingdoms.horse.policies`` (notebooks import the players from here)."""
from .policies import TARGET_LAYOUT, greedy_policy, no_reroll_policy

__all__ = ["greedy_policy", "no_reroll_policy", "TARGET_LAYOUT"]
