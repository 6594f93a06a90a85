"""Actions and chance outcomes of My Kingdom for a Horse (small frozen dataclasses)."""
from __future__ import annotations

from dataclasses import dataclass

from kingdoms.core.protocol import HIDDEN, Action

from .pasture import edge_words

__all__ = ["Roll", "DealCard", "DrawCard", "KeepDice", "UseDie", "UseCattle", "PlayCard",
           "EndEffects", "Discard", "TakeDie", "PlaceFence", "LiftFence", "PutFence",
           "EndFences", "RunAway", "Trade", "EndTrading"]


@dataclass(frozen=True)
class Roll(Action):
    """Chance: the dice show ``king`` (sorted King faces) and ``mult`` (pink)."""
    king: tuple
    mult: str

    def __str__(self):
        return f"the dice show {', '.join(self.king)} | multiply {self.mult}"


@dataclass(frozen=True)
class DealCard(Action):
    """Chance: ``player`` is dealt ``card`` at setup."""
    player: int
    card: str

    def __str__(self):
        return f"deal {self.card} to player {self.player + 1}"

    def seen_by(self, player):
        return self if player == self.player else DealCard(self.player, HIDDEN)


@dataclass(frozen=True)
class DrawCard(Action):
    """Chance: ``player`` draws ``card`` from the farm deck."""
    player: int
    card: str

    def __str__(self):
        return f"player {self.player + 1} draws {self.card}"

    def seen_by(self, player):
        return self if player == self.player else DrawCard(self.player, HIDDEN)


@dataclass(frozen=True)
class KeepDice(Action):
    """Keep these dice and re-roll the others (keeping all four = stop rolling)."""
    kept: tuple
    keep_mult: bool

    def __str__(self):
        return f"keep {', '.join(self.kept) or 'no King die'}" + (
            " and the pink die" if self.keep_mult else ", re-roll the pink die")


@dataclass(frozen=True)
class UseDie(Action):
    """Carry out one die: a King face or ``"multiply <species>"``."""
    die: str

    def __str__(self):
        return f"use the die {self.die}"


@dataclass(frozen=True)
class UseCattle(Action):
    """Turn 2 or 3 half-cattle dice into 1 cattle."""

    def __str__(self):
        return "take 1 cattle for the half cattle"


@dataclass(frozen=True)
class PlayCard(Action):
    card: str

    def __str__(self):
        return f"play the farm card {self.card}"


@dataclass(frozen=True)
class EndEffects(Action):
    def __str__(self):
        return "finish (decline the unused dice)"


@dataclass(frozen=True)
class Discard(Action):
    """No card played: discard these cards and draw as many."""
    cards: tuple

    def __str__(self):
        return f"discard {', '.join(self.cards)}" if self.cards else "keep the hand"


@dataclass(frozen=True)
class TakeDie(Action):
    """Another player chooses a die of the final result (``None``: takes none)."""
    die: str | None

    def __str__(self):
        return f"choose the die {self.die}" if self.die else "choose no die"


@dataclass(frozen=True)
class PlaceFence(Action):
    edge: int

    def __str__(self):
        return f"place a new fence {edge_words(self.edge)}"


@dataclass(frozen=True)
class LiftFence(Action):
    edge: int

    def __str__(self):
        return f"lift the fence {edge_words(self.edge)} to move it"


@dataclass(frozen=True)
class PutFence(Action):
    edge: int

    def __str__(self):
        return f"put the moved fence {edge_words(self.edge)}"


@dataclass(frozen=True)
class EndFences(Action):
    def __str__(self):
        return "done with the fences"


@dataclass(frozen=True)
class RunAway(Action):
    """Let one animal of ``species`` run away (back to the supply)."""
    species: str

    def __str__(self):
        return f"let 1 {self.species} run away"


@dataclass(frozen=True)
class Trade(Action):
    """Give ``pay`` animals of ``give`` for ``count`` of ``get`` (the next species)."""
    give: str
    pay: int
    get: str
    count: int

    def __str__(self):
        return f"trade {self.pay} {self.give} for {self.count} {self.get}"


@dataclass(frozen=True)
class EndTrading(Action):
    def __str__(self):
        return "no (more) trades"
