"""King of the Elves (AMIGO 1999, Alan R. Moon), modelled exactly.

The rules in brief (our own words).  2-6 players share a supply of 120 cards:
villages (six terrains, each worth 2-7 gold), travel cards (seven vehicles) and
special cards.  Each round players are dealt cards (10 in the first round, 8
later, keeping what they hold), then *plan* in turn — one action a turn until all
pass in a row: play a village into any realm (at most 2 per realm, 3 with two
players), say "No village card!", draw 3 and discard 4, buy the top card (1, 2, 3
gold), lay a gold, thief or obstacle card with one of four coat of arms tokens,
remove a village of one's own realm, or pass.  Then each player *journeys* from
his castle through his own villages and on clockwise around the table, visiting
village after village in order and paying travel cards by the cost table; each
visit pays the village's value (double with one's own gold card), thieves take 2
gold, obstacles cost an extra card, escorts protect within a realm, a change of
direction turns the journey around, and visiting every village earns 10 more.
After 2-5 rounds the richest player wins.

* ``Elves`` (registered as ``"elves"``): the game; ``kingdoms.game("elves", players=4)``.
* ``kingdoms.elves.journey``: the journey rules as pure functions, ``best_journey``
  (exact search) and ``JourneyPuzzle`` (one journey as a game, for decision trees).
* ``kingdoms.elves.journey_search``: the same search in plain numbers (speed only;
  ``best_journey`` uses it for journeys without teleporting).
* ``kingdoms.elves.odds``: exact deal and draw odds.
"""
from .journey import (JourneyPlan, JourneyPuzzle, JourneyRules, Spot, Table, Trip,
                      best_journey, journey_tree, start_trip, table_from_realms)
from .rules import (Buy, Discard, Draw, DrawThree, Elves, ElvesState, NoVillageCard, Pass,
                    PlaySpecial, PlayVillage, RemoveVillage, TakeVillage, card_label,
                    gold_ledger, ledger_balances, ledger_text)

__all__ = ["Elves", "ElvesState", "Draw", "PlayVillage", "NoVillageCard", "TakeVillage",
           "DrawThree", "Discard", "Buy", "PlaySpecial", "RemoveVillage", "Pass",
           "gold_ledger", "ledger_balances", "ledger_text", "card_label", "Spot", "Table", "Trip", "JourneyRules",
           "JourneyPlan", "JourneyPuzzle", "best_journey", "journey_tree", "start_trip",
           "table_from_realms"]

# The game's players and worlds, handed to the core once (the rules never import them).
from . import policies, worlds  # noqa: E402  (they build on the rules above)

Elves.attach(policies=policies.named_policies, default_policies=policies.default_policies,
             sample_world=worlds.sample_world, unseen=worlds.unseen,
             observation=worlds.knowledge)
