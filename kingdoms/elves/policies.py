"""Simple policies for simulated games of King of the Elves.

A policy is ``policy(state, rng) -> action``.  These look only at what their player
may see: given ``state.view(player)`` they choose exactly as given the full state
(their own hand and gold, the table, the sizes of the other hands and of the supply).

* ``planner`` — plays its most valuable *reachable* village into its own realm,
  lays gold cards on its own villages and thieves / obstacles on the villages of
  the player to its left, buys a card while it is cheap, then passes; journeys by
  the exact best journey.  The default player of every seat
  (``Elves.default_policies()``) is a planner that searches at most
  ``DEFAULT_MAX_TRIPS`` journeys (bigger journeys it travels greedily).
* ``homebody`` — plays one village home and passes; journeys by the best journey.
* ``random`` — any legal action, uniformly.
* ``mcts`` — the core's search bot (``kingdoms.core.search``): ``MCTS_SIMULATIONS``
  simulations a move, each from a world sampled from what its player observed
  (``State.observed``, ``ElvesState.sample_world``), played out by the game's own
  players (random Elves games are long and aimless), starting from the planner's
  move (``prior``).

``planner`` and ``homebody`` remember the best journey they found only for the journey
under way (so a journey is searched once, not at every step); the plan is dropped
when the journey ends, so nothing about one player's cards stays behind for another
seat played by the same policy object.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

from kingdoms.core.play import random_policy

from .journey import EndJourney, best_journey
from .odds import reachable_terrains
from .rules import Buy, Discarding, Journeying, Pass, PlaySpecial, PlayVillage, Searching

__all__ = ["planner", "homebody", "random_policy", "journey_policy", "Planner", "Homebody",
           "named_policies", "default_policies", "search_bot", "MCTS_SIMULATIONS"]

MAX_TRIPS = 200_000
# the game's default players search smaller journeys only (cheap enough for thousands
# of games); bigger ones (many cards, teleporting) they travel greedily
DEFAULT_MAX_TRIPS = 2_000
# the search bot's budget: simulations per move (under a CPU second a move at 2 players)
MCTS_SIMULATIONS = 80
PASS = Pass()


def _greedy_step(state):
    """Visit the next village with as few cards as possible (no escort), else stop."""
    from .journey import TeleportCard, TeleportTo, Visit
    acts = state.legal_actions()
    for kind in (TeleportCard, TeleportTo):
        options = [a for a in acts if isinstance(a, kind)]
        if options:
            return options[0]
    visits = [a for a in acts if isinstance(a, Visit) and not a.escort]
    if visits:
        return min(visits, key=lambda a: a.cards)
    return EndJourney()


class JourneyPlanner:
    """The next step of the best journey, searched once per journey (the plan is kept
    only while that journey lasts)."""

    def __init__(self, max_trips: int | None = None):
        self._plan: dict = {}          # trip -> action, on the table and rules of
        self._plan_for = None          # ``_plan_for`` (the journey under way)
        self._greedy = None            # the journey found too big to search
        self.max_trips = max_trips

    def _greedily(self, state):
        action = _greedy_step(state)
        if isinstance(action, EndJourney):
            self._greedy = None
        return action

    def __call__(self, state):
        rules = state.game.journey_rules
        if self._greedy == (state.table, rules, state.trip.player):
            return self._greedily(state)
        where = (state.table, rules)
        action = self._plan.get(state.trip) if self._plan_for == where else None
        if action is None:
            self._plan, self._plan_for = {}, where
            limit = MAX_TRIPS if self.max_trips is None else self.max_trips
            try:
                plan = best_journey(state.table, state.trip, rules, max_trips=limit)
            except RuntimeError:       # a huge hand: go on greedily, one step at a time
                self._greedy = (state.table, rules, state.trip.player)
                return self._greedily(state)
            trip = state.trip
            for a, _, after in plan.steps:
                self._plan[trip] = a
                trip = after
            action = self._plan[state.trip]
        if isinstance(action, EndJourney):
            self._plan, self._plan_for = {}, None
        return action


def journey_policy(state):
    """The first step of the best journey from here (searched afresh each call)."""
    return JourneyPlanner()(state)


def _travel(state, p) -> dict:
    g = state.game
    return {v: state.hands[p][i] for v, i in zip(g.vehicles, g.travel_idx)}


def _discard_choice(state, rng):
    """Throw away special and village cards before travel cards (after "No village
    card!", take the most valuable village)."""
    acts = state.legal_actions()
    if type(state.step) is Searching:
        return max(acts, key=lambda a: (0, "") if a.village is None else
                   (int(a.village.split(":")[2]), a.village))
    order = {"special": 0, "village": 1, "travel": 2}
    return min(acts, key=lambda a: (order[a.card.split(":")[0]], a.card))


def _village_value(a) -> int:
    return int(a.village.split(":")[2])


class _RoundPlayer(ABC):
    """A player of whole rounds: journeys by the best journey (searching at most
    ``max_trips`` trips, default ``MAX_TRIPS``, else greedily), discards by
    ``_discard_choice`` and plans with ``plan(state, rng)``."""

    __name__ = "round player"

    def __init__(self, max_trips: int | None = None):
        self.journey = JourneyPlanner(max_trips)

    def __call__(self, state, rng):
        match state.step:
            case Journeying():
                return self.journey(state)
            case Searching() | Discarding():
                return _discard_choice(state, rng)
        return self.plan(state, rng)

    @abstractmethod
    def plan(self, state, rng):
        """The move in the planning phase of a round."""

    def __repr__(self):
        return self.__name__


class Homebody(_RoundPlayer):
    """Plays one village home and passes (journeys and discards: ``_RoundPlayer``)."""

    __name__ = "homebody"

    def plan(self, state, rng):
        acts = state.legal_actions()
        p = state.turn
        if not state.realms[p]:
            home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == p]
            if home:
                return max(home, key=_village_value)
        if PASS in acts:
            return PASS
        return rng.choice(acts)


class Planner(_RoundPlayer):
    """Plays reachable villages home, gold at home, thieves and obstacles on its left,
    buys a card for 1 gold, then passes (journeys and discards: ``_RoundPlayer``)."""

    __name__ = "planner"

    def plan(self, state, rng):
        acts = state.legal_actions()
        g = state.game
        p = state.turn
        if len(state.realms[p]) < 2:
            reach = reachable_terrains(_travel(state, p), g.journey_rules)
            home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == p
                    and a.village.split(":")[1] in reach]
            if home:
                return max(home, key=_village_value)
            if not state.realms[p]:
                home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == p]
                if home:
                    return max(home, key=_village_value)
        left = (p + 1) % g.players
        for a in acts:
            if isinstance(a, PlaySpecial):
                if a.special == "gold" and a.realm == p:
                    return a
                if a.special in ("thief", "tree", "sea_monster") and a.realm == left:
                    return a
        buys = [a for a in acts if isinstance(a, Buy) and a.cost == 1]
        if buys:
            return buys[0]
        if PASS in acts:
            return PASS
        return rng.choice(acts)


planner = Planner()
homebody = Homebody()


def default_planner() -> Planner:
    """The default player of every seat: a ``planner`` with a smaller journey search."""
    return Planner(max_trips=DEFAULT_MAX_TRIPS)


def search_bot():
    """The ``mcts`` player: ``MCTS_SIMULATIONS`` simulations a move, rollouts by the
    game's default players, the ``planner``'s move as its prior (it plays the
    planner's move unless the search finds a clearly better one)."""
    from kingdoms.core.search import mcts_policy
    return mcts_policy(MCTS_SIMULATIONS, rollout="default", prior="planner")


# ---- the game's players, attached to ``Elves`` by the package (``Game.attach``) ----------

def named_policies(game) -> dict:
    """``{name: policy}`` beside the core's players: fresh heuristic players, and the
    search bot with ``MCTS_SIMULATIONS`` simulations a move and the game's own players
    in its rollouts."""
    return {"random": random_policy, "mcts": search_bot(), "planner": Planner(),
            "homebody": Homebody()}


def default_policies(game) -> tuple:
    """The ``planner`` in every seat (plays villages it can reach, lays gold at home
    and thieves and obstacles on its left, buys cheap cards, journeys by the best
    journey, travelling greedily where that search is too big).  Every game ends by
    the rules: the rounds are fixed in number."""
    player = default_planner()
    return (player,) * game.players
