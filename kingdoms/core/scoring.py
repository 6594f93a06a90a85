"""Who wins, and what a solver may maximise: the small rules every game's end shares.

* ``best_players(values)``: the players with the highest value (values may be tuples,
  compared in order, for tie-breaks such as "most points, then most cards in hand");
* ``win_shares(winners, players)``: the win shared equally among ``winners``
  (``returns()`` at the end of most games);
* ``with_margins(players, measures)``: per-player measures for ``Game.objectives()``,
  plus each measure's margin over the opponent when two play.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Iterable, Sequence

from .i18n import _

__all__ = ["best_players", "win_shares", "with_margins"]


def best_players(values: Sequence) -> tuple[int, ...]:
    """The players (indices) whose value is the highest."""
    best = max(values)
    return tuple(p for p, v in enumerate(values) if v == best)


def win_shares(winners: Iterable[int], players: int) -> tuple[Fraction, ...]:
    """Each player's share of the win: ``1/k`` for each of ``k`` winners, else 0."""
    winners = set(winners)
    if not winners:
        raise ValueError(_("a win is shared among at least one player"))
    share = Fraction(1, len(winners))
    zero = Fraction(0)
    return tuple(share if p in winners else zero for p in range(players))


def with_margins(players: int, measures: dict[str, Callable]) -> dict[str, Callable]:
    """``measures`` (name -> per-player values of a state) and, with two players,
    ``"<name> margin"``: each player's value minus the opponent's."""
    out = dict(measures)
    if players == 2:
        for name, f in measures.items():
            out[f"{name} margin"] = _margin(f)
    return out


def _margin(f: Callable) -> Callable:
    def margin(state):
        a, b = f(state)
        return (a - b, b - a)
    margin.__doc__ = f"the margin of {getattr(f, '__name__', 'a measure')}"
    return margin
