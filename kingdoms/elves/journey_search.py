"""The search behind ``journey.best_journey``, done with plain numbers (speed only).

``best_journey`` examines every journey of a traveller: at each trip it tries the
moves in the order ``journey.moves`` lists them and keeps the best (most gold, then
most cards kept, first found on ties), solving equal trips once.  Building a ``Trip``
and the ``Visit`` objects for each of the many trips it examines costs far more than
the search itself, so for a journey without teleporting this module searches the same
trips with their fields as plain numbers:

* the hand is one whole number, ``width`` bits a vehicle (in ``rules.vehicles``
  order), the top bit of each field a guard bit that stays set: a visit's cards are
  subtracted in one step, and it was affordable exactly when every guard bit is
  still set (a field that runs short borrows its own guard bit, never its neighbour's);
* the memo key holds the same fields as ``best_journey``'s key (the hand as that
  number), so the same trips count as equal, in the same order, and the search stops
  at the same ``max_trips``;
* each trip remembers the *position* of its best move in ``moves``: the plan is then
  rebuilt with the rules' own ``moves`` and ``advance``.

``tests/elves/test_elves_plain_search.py`` checks that both searches agree, trip by trip.
"""
from __future__ import annotations

from .journey import JourneyRules, Table, Trip, _needs

__all__ = ["plain_search_applies", "plain_search", "plain_key"]


def plain_search_applies(trip: Trip, rules: JourneyRules) -> bool:
    """Whether ``plain_search`` can search from ``trip`` (no teleporting, journey open)."""
    return not rules.teleport and not trip.done and trip.teleport_left == 0


def _width(trip: Trip) -> int:
    """Bits per vehicle in the hand number: the largest count, plus the guard bit."""
    return max(max(trip.hand, default=0).bit_length(), 1) + 1


def plain_key(trip: Trip, width: int, thief_gold: int) -> tuple:
    """``best_journey``'s key of ``trip`` (without teleporting), the hand as a number."""
    hand = _hand_number(trip.hand, width)
    cards = sum(trip.hand) + trip.escorts + trip.turns
    cap = thief_gold * (cards + 1)
    return (trip.pos, trip.direction, hand, trip.escorts, trip.turns,
            0 if trip.bonus else trip.visited, trip.own_visited, trip.bonus,
            trip.escort_realm, min(trip.gold, cap))


def _hand_number(hand: tuple, width: int) -> int:
    guard = 1 << (width - 1)
    return sum((k | guard) << (width * i) for i, k in enumerate(hand))


def _costs(table: Table, idx: int, player: int, protected: bool, rules: JourneyRules,
           width: int) -> tuple:
    """``((cards as a hand number, cards in all), ...)`` of visiting spot ``idx``, one
    per vehicle that can go there, in ``moves`` order (``None`` for a visit that asks
    more cards of a vehicle than a field can hold: nobody could afford it)."""
    top = (1 << (width - 1)) - 1
    out = []
    for _, need, cards in _needs(table, idx, player, protected, rules):
        if any(k > top for _, k in need):
            out.append(None)
        else:
            out.append((sum(k << (width * i) for i, k in need), cards))
    return tuple(out)


class _Costs(dict):
    """``(spot, protected) -> _costs(...)``, worked out when first asked (one search)."""

    def __init__(self, table: Table, player: int, rules: JourneyRules, width: int):
        super().__init__()
        self.args = (table, player, rules, width)

    def __missing__(self, key):
        table, player, rules, width = self.args
        out = self[key] = _costs(table, key[0], player, key[1], rules, width)
        return out


def plain_search(table: Table, trip: Trip, rules: JourneyRules, max_trips: int):
    """``(memo, width)``: every trip examined, ``key -> ((gold, cards), move index)``.

    Raises ``RuntimeError`` exactly when ``best_journey`` would (more than
    ``max_trips`` trips)."""
    memo: dict = {}
    width = _width(trip)
    solve = _solver(table, trip, rules, width, max_trips, memo)
    solve(trip.pos, trip.direction, _hand_number(trip.hand, width), sum(trip.hand),
          trip.escorts, trip.turns, trip.visited, trip.own_visited, trip.bonus,
          trip.escort_realm, trip.gold)
    return memo, width


def _solver(table: Table, trip: Trip, rules: JourneyRules, width: int, max_trips: int,
            memo: dict):
    """``solve(trip's fields) -> (gold, cards)``: ``best_journey``'s recursion, the
    moves tried in the order of ``moves`` (visits: without, then with an escort, each
    vehicle in turn; change direction; end the journey), filling ``memo``."""
    n, player, thief_gold, bonus_gold = len(table), trip.player, rules.thief_gold, \
        rules.all_villages_bonus
    full, guards = (1 << n) - 1, _hand_number((0,) * len(trip.hand), width)
    realm, slot = [s.realm for s in table.spots], [s.slot for s in table.spots]
    robbed = [s.thief is not None and s.thief != player for s in table.spots]
    earns = [s.value * (2 if s.gold == player else 1) for s in table.spots]
    first = table.first_step(player) if n else None
    costs = _Costs(table, player, rules, width)

    def solve(pos, direction, hand, held, escorts, turns, visited, own, bonus, er, gold):
        cards = held + escorts + turns
        cap = thief_gold * (cards + 1)
        k = (pos, direction, hand, escorts, turns, 0 if bonus else visited, own, bonus,
             er, gold if gold < cap else cap)
        v = memo.get(k)
        if v is not None:
            return v[0]
        if len(memo) >= max_trips:
            raise RuntimeError(f"more than {max_trips} trips; raise max_trips")
        best, best_i, i = None, None, 0     # i: the move's place in ``moves``
        if n:
            nxt = first if pos is None else (pos + direction) % n
            r = realm[nxt]
            entering = pos is None or realm[pos] != r or slot[nxt] != slot[pos] + direction
            seen = visited | (1 << nxt)
            extra = bonus_gold if (not bonus and seen == full) else 0
            for esc in ((False, True) if escorts and entering else (False,)):
                protected = True if esc else (not entering and er == r)
                thief = thief_gold if robbed[nxt] and not protected else 0
                if thief and gold < thief_gold:
                    continue                # the thief bars the visit
                change = earns[nxt] - thief + extra
                esc_left, er_after = (escorts - 1, r) if esc else (
                    escorts, None if entering else er)
                for option in costs[nxt, protected]:
                    if option is not None and (left := hand - option[0]) & guards == guards:
                        g, c = solve(nxt, direction, left, held - option[1],
                                     esc_left, turns, seen, own or r == player,
                                     bonus or bool(extra), er_after, gold + change)
                        val = (change + g, c)
                        if best is None or val > best:
                            best, best_i = val, i
                        i += 1
        if turns and own:
            val = solve(pos, -direction, hand, held, escorts, turns - 1, visited, own, bonus,
                        er, gold)
            if best is None or val > best:
                best, best_i = val, i
            i += 1
        if best is None or (0, cards) > best:
            best, best_i = (0, cards), i
        memo[k] = (best, best_i)
        return best
    return solve
