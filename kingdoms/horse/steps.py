"""The turn steps of My Kingdom for a Horse: what the game is waiting for.

A state holds one step (``HorseState.step``), a small frozen dataclass per kind of
pending decision or chance event, dispatched with ``match``; a fence job (placing and
moving the fences just received) runs on top of the step (``HorseState.fence_job``).
Each step class has a short ``name`` (what ``state.phase`` and the one-line
``short()`` show) and ``words`` (the headline of the text picture).

The order of a turn: ``BeforeRoll`` (play a card or roll) -> ``Rolling`` ->
``Keeping`` / ``Rerolling`` (at most twice) -> ``Effects`` -> ``Discarding`` ->
``OthersChoose`` -> ``Housing`` (the phase end) -> ``Trading`` -> ``Housing``; the
game starts with ``Dealing`` and ends with ``FinalTrading`` and ``GameOver``; in the
solo game Moritz rolls in ``MoritzTurn``.
"""
from __future__ import annotations

from dataclasses import dataclass

from kingdoms.core.i18n import N_

__all__ = ["Step", "Dealing", "BeforeRoll", "Rolling", "Keeping", "Rerolling", "Effects",
           "Discarding", "OthersChoose", "Housing", "Trading", "FinalTrading", "MoritzTurn",
           "GameOver", "FenceJob", "DEALING", "BEFORE_ROLL", "ROLLING", "KEEPING", "EFFECTS",
           "DISCARDING", "OTHERS_CHOOSE", "TRADING", "FINAL_TRADING", "MORITZ_TURN",
           "GAME_OVER"]


@dataclass(frozen=True)
class Step:
    """What the game waits for (subclasses); ``name`` and ``words`` describe it."""
    name = N_("step")
    words = N_("step")


@dataclass(frozen=True)
class Dealing(Step):
    """Chance: the farm cards are dealt at setup, one at a time."""
    name = N_("deal")
    words = N_("dealing farm cards")


@dataclass(frozen=True)
class BeforeRoll(Step):
    """The active player may play a farm card before the first roll, or roll.  Offered
    whenever the hand is not empty (even when no card in it is affordable: then rolling
    is the only move), so the others learn nothing from it but the public hand size."""
    name = N_("start")
    words = N_("dice phase: play a card or roll")


@dataclass(frozen=True)
class Rolling(Step):
    """Chance: the active player rolls all the dice."""
    name = N_("roll")
    words = N_("dice phase: roll")


@dataclass(frozen=True)
class Keeping(Step):
    """The active player keeps dice (keeping all = stop) or plays a card."""
    name = N_("keep")
    words = N_("dice phase: keep or re-roll")


@dataclass(frozen=True)
class Rerolling(Step):
    """Chance: the dice not kept are re-rolled (``kept`` King faces, the pink die
    kept or not)."""
    kept: tuple
    keep_mult: bool
    name = N_("reroll")
    words = N_("dice phase: re-roll")


@dataclass(frozen=True)
class Effects(Step):
    """The active player carries out the dice of the final result."""
    name = N_("effects")
    words = N_("dice phase: carry out the dice")


@dataclass(frozen=True)
class Discarding(Step):
    """No card played: the active player may discard cards and draw as many."""
    name = N_("discard")
    words = N_("dice phase: discard cards?")


@dataclass(frozen=True)
class OthersChoose(Step):
    """Each other player in turn chooses a different die of the final result."""
    name = N_("others")
    words = N_("dice phase: the others choose dice")


@dataclass(frozen=True)
class Housing(Step):
    """The end of a phase: a player whose herd does not fit lets animals run away.
    ``then``: the step after it (``None``: the turn ends)."""
    then: Step | None = None
    name = N_("house")
    words = N_("end of the phase: unfenced animals run away")


@dataclass(frozen=True)
class Trading(Step):
    """The trading phase: each player in turn trades one species up the chain."""
    name = N_("trade")
    words = N_("trading phase")


@dataclass(frozen=True)
class FinalTrading(Step):
    """The end was triggered: everyone may trade every species once more."""
    name = N_("final")
    words = N_("final trade (all species)")


@dataclass(frozen=True)
class MoritzTurn(Step):
    """Chance (solo game): Moritz rolls."""
    name = N_("moritz")
    words = N_("Moritz's turn")


@dataclass(frozen=True)
class GameOver(Step):
    """The game has ended."""
    name = N_("over")
    words = N_("game over")


@dataclass(frozen=True)
class FenceJob:
    """``player`` received ``received`` fences: so far ``placed`` new ones placed and
    ``moved`` ones moved; ``lifted`` is the border of a fence in hand (-1: none)."""
    player: int
    received: int
    placed: int = 0
    moved: int = 0
    lifted: int = -1


DEALING, BEFORE_ROLL, ROLLING, KEEPING = Dealing(), BeforeRoll(), Rolling(), Keeping()
EFFECTS, DISCARDING, OTHERS_CHOOSE = Effects(), Discarding(), OthersChoose()
TRADING, FINAL_TRADING, MORITZ_TURN, GAME_OVER = Trading(), FinalTrading(), MoritzTurn(), GameOver()
