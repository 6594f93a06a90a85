"""The parts in the box of King of the Woods, read from ``data.toml``.

``Components.from_data(data, players, beginner)`` is the only reader of the data
file: the followers with their influence and copies, the setup card of the player
count (the followers put back in the box, the cards set aside face down, the hand
size) and the numbers to win.  Every value is checked for its type and range
(``DATA_RANGES``, ``Woods.data_ranges()``); a bad file raises ``DataError`` naming
the key and the allowed range.

Components are values: two games built from the same data have equal components.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from kingdoms.core.data import DataError, FrozenParts, GameData, shown
from kingdoms.core.i18n import _
from kingdoms.core.protocol import GameOptionError

__all__ = ["Components", "FOLLOWERS", "DATA_RANGES", "MAX_INFLUENCE", "MAX_COPIES",
           "MAX_DECK", "MAX_POINTS", "MAX_ROUND_WINS"]

FOLLOWERS = ("Assassin", "Trader", "Guard", "Squire", "Scholar", "Priest", "Fool",
             "Treasurer", "Knight", "General", "Princess")
BEGINNER_OUT = ("Scholar", "Priest")     # rulebook, beginner variant: without them
BEGINNER_FEWER = 1      # rulebook, beginner variant: "one card fewer" in each hand

# Ranges of the data file's values (checked when the game is built).
MAX_INFLUENCE = 7       # rulebook: "Influence values range from 0 to 7"
MAX_COPIES = 8          # per follower
MAX_DECK = 40           # all copies together (larger decks make the exact deal count slow)
MAX_POINTS = 1000       # points to win (a safeguard on never-ending games, not a rule)
MAX_ROUND_WINS = 50     # round wins to win (likewise)
# The data file's schema, one table (``Woods.data_ranges()``): key -> (kind, min, max).
# Some bounds tighten with other keys when the game is built: a setup may remove at
# most a follower's copies, and set aside at most (cards in play - players).
DATA_RANGES = MappingProxyType({
    "game.points_to_win": (int, 1, MAX_POINTS),
    "game.round_wins": (int, 1, MAX_ROUND_WINS),
    "game.round_wins_two_players": (int, 1, MAX_ROUND_WINS),
    "game.min_players": (int, 2, 5),        # Woods.min_players .. Woods.max_players
    "game.max_players": (int, 2, 5),
    "followers.*.influence": (int, 0, MAX_INFLUENCE),
    "followers.*.copies": (int, 0, MAX_COPIES),
    "setup.*.remove.*": (int, 0, MAX_COPIES),
    "setup.*.set_aside": (int, 0, MAX_DECK),
})


def _bounds(key: str) -> dict:
    """``min=``/``max=`` of ``key``'s entry in ``DATA_RANGES`` (for ``GameData.get``)."""
    _, lo, hi = DATA_RANGES[key]
    return {"min": lo, "max": hi}


@dataclass(frozen=True)
class Components(FrozenParts):
    """The cards of one game: ``followers`` in influence order (ties in the data
    file's order), ``influence`` and ``copies`` per follower, ``box`` the cards the
    setup card (and the beginner variant) puts back in the box, ``deck`` the cards in
    play (sorted), ``hand_size`` and ``set_aside_count`` of a full deal,
    ``points_to_win`` and ``round_wins`` (for this player count), ``rank`` each
    follower's place in ``followers``."""

    followers: tuple
    influence: Mapping = field(hash=False)
    copies: Mapping = field(hash=False)
    box: tuple
    deck: tuple
    hand_size: int
    set_aside_count: int
    points_to_win: int
    round_wins: int
    rank: Mapping = field(hash=False)

    @classmethod
    def from_data(cls, data: GameData, players: int, beginner: bool = False) -> "Components":
        """Read and check the components for ``players`` (the setup card of that
        player count; ``beginner``: the Scholars and Priests stay in the box and each
        hand has one card fewer)."""
        _check_players(data, players)
        names, influence, copies = _followers(data)
        box, deck, hand, set_aside = _setup(data, players, copies)
        if beginner:
            box, deck, hand, set_aside = _beginner(data, players, box, deck, hand)
        points = data.get("game.points_to_win", int, **_bounds("game.points_to_win"))
        wins_key = "game.round_wins_two_players" if players == 2 else "game.round_wins"
        wins = data.get(wins_key, int, **_bounds(wins_key))
        order = tuple(sorted(names, key=lambda n: (influence[n], names.index(n))))
        return cls(followers=order, influence=MappingProxyType(dict(influence)),
                   copies=MappingProxyType(dict(copies)), box=tuple(sorted(box.elements())),
                   deck=tuple(sorted(deck.elements())), hand_size=hand,
                   set_aside_count=set_aside, points_to_win=points, round_wins=wins,
                   rank=MappingProxyType({nm: i for i, nm in enumerate(order)}))



def _check_players(d: GameData, players: int) -> None:
    """The data file's player range must hold ``players`` (``GameOptionError``)."""
    lo = d.get("game.min_players", int, **_bounds("game.min_players"))
    hi = d.get("game.max_players", int, **{**_bounds("game.max_players"), "min": lo})
    if not lo <= players <= hi:
        raise GameOptionError(_("this data file has setup cards for {low}-{high} players, "
                                "not {players}").format(low=lo, high=hi, players=players))


def _followers(d: GameData) -> tuple[list, dict, dict]:
    """``(names in file order, influence, copies)`` of the followers table."""
    followers = d.get("followers", list)
    names, influence, copies = [], {}, {}
    for i, _ in enumerate(followers):
        d.get(f"followers.{i}", dict)
        nm = d.get(f"followers.{i}.name", str)
        if nm in influence:
            raise DataError(f"{d.origin}: 'followers.{i}.name' repeats {shown(nm)}")
        names.append(nm)
        influence[nm] = d.get(f"followers.{i}.influence", int,
                              **_bounds("followers.*.influence"))
        copies[nm] = d.get(f"followers.{i}.copies", int, **_bounds("followers.*.copies"))
    if set(names) != set(FOLLOWERS) or len(names) != len(FOLLOWERS):
        raise DataError(f"{d.origin}: 'followers' must list exactly {sorted(FOLLOWERS)}; "
                        f"got {names}")
    if sum(copies.values()) > MAX_DECK:
        raise DataError(f"{d.origin}: 'followers.*.copies' add up to {sum(copies.values())} "
                        f"cards; the total should be from 1 to {MAX_DECK}")
    return names, influence, copies


def _setup(d: GameData, players: int, copies: dict) -> tuple:
    """``(box, deck, hand size, set aside)`` by the setup card of ``players``."""
    key = f"setup.{players}"
    remove = d.get(f"{key}.remove", dict)
    box = Counter()
    for nm in remove:
        if nm not in copies:
            raise DataError(f"{d.origin}: '{key}.remove' names unknown follower {shown(nm)}")
        box[nm] += d.get(f"{key}.remove.{nm}", int,
                         **{**_bounds("setup.*.remove.*"), "max": copies[nm]})
    deck = Counter({nm: copies[nm] - box[nm] for nm in copies})
    n_cards = sum(deck.values())
    if n_cards < players:
        raise DataError(f"{d.origin}: '{key}' leaves {n_cards} cards: fewer than one "
                        f"per player")
    set_aside = d.get(f"{key}.set_aside", int, **{**_bounds("setup.*.set_aside"),
                                                   "max": n_cards - players})
    if (n_cards - set_aside) % players:
        raise DataError(f"{d.origin}: '{key}.set_aside' = {set_aside} does not leave a "
                        f"deck of {n_cards} cards that deals evenly to {players}")
    return box, deck, (n_cards - set_aside) // players, set_aside


def _beginner(d: GameData, players: int, box: Counter, deck: Counter, hand: int) -> tuple:
    """The beginner variant: no Scholar or Priest, one card fewer per hand, the rest
    set aside."""
    box, deck = Counter(box), Counter(deck)
    for nm in BEGINNER_OUT:
        box[nm] += deck[nm]
        deck[nm] = 0
    hand -= BEGINNER_FEWER
    set_aside = sum(deck.values()) - hand * players
    if hand < 1 or set_aside < 0:
        raise DataError(f"{d.origin}: 'setup.{players}' leaves too few cards for the beginner "
                        "variant (at least one card per hand after removing the "
                        "Scholars and Priests)")
    return box, deck, hand, set_aside
