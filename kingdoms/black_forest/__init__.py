"""Into the Black Forest (Jason Slingerland, Green Couch Games), modelled exactly.

Every player owns a deck of twelve Animal cards worth 1-12 (Frogs 1-3, Squirrels 4-6,
Lynxes 7-9, Owls 10-12), each in one of four suits.  A round plays three Encounter
cards one after another.  On an encounter, players take turns laying one hand card
on a free space: two Bottom spaces (the lower card wins and scores the other card's
value), one Left space (scores its own value if its suit matches a Top card's suit),
two Top spaces (the higher card wins and scores the other card's value) and a
face-down Right side, at most one card per player, where the card best meeting the
encounter's condition scores 6 (tied cards cancel).  Equal cards at Bottom or Top
both lose.  Winning cards are spent; losing cards return to hand.  The encounter ends
when Bottom, Left and Top are full; the start player token passes to the left of
whoever played last, and receiving it is worth a point (as is holding it at the
start).  After a round each player draws the rest of the deck and keeps 6 cards;
after two rounds the most points wins, then the most cards in hand.  Two players
shuffle two decks each, hold 8 cards and play three rounds.

The suits of the cards and the encounters' conditions are not published: this copy
assumes them in ``data.toml`` (see ``BlackForest(...).assumptions_table()``).

Where to look (the package follows ``docs/anatomy.md``):

* ``components.py`` — ``Components.from_data``: the only reader of ``data.toml`` (rule
  numbers, animals, suits, decks, seating, encounters), ``game.components``; the
  ``Card`` and the Right-side ``Condition``.
* ``rules.py`` — ``BlackForest`` (options ``data``, ``start_player``, ``rounds``,
  ``encounters_per_round``), ``BlackForestState``, the actions (``Reveal``, ``Draw``,
  ``Play``, ``Discard``), the turn steps (``Revealing``, ``Dealing``, ``Discarding``,
  ``Playing``, ``GameOver`` in ``state.step``), the spaces (``SPACES``, ``CAPACITY``)
  and the scoring (``score_encounter``, ``right_winner``).
* ``odds.py`` — exact placement odds under a stated model of hidden hands
  (``placement_outcome``, ``p_win``, ``placement_odds``, ``left_match_probability``)
  and open-hands encounters solved exactly (``open_encounter``, ``solve_encounter``).
* ``policies.py`` — ``simple_policy`` (the default player) and ``greedy_policy``;
  ``render.py`` — text/HTML pictures (found by the core by name); ``worlds.py`` —
  ``state.unseen(p)`` and ``state.sample_world(p, rng)`` from what one player has seen.

>>> import kingdoms
>>> g = kingdoms.game("black_forest", players=3)
>>> g.hand_size, g.n_rounds
(6, 2)
"""
from .components import Components
from .rules import (CAPACITY, SPACES, BlackForest, BlackForestState, Card, Condition, Dealing,
                    Discard, Discarding, Draw, GameOver, Play, Playing, Reveal, Revealing,
                    Scoring, parse_condition, score_encounter)

__all__ = ["BlackForest", "BlackForestState", "Components", "Card", "Condition", "Reveal",
           "Draw", "Play", "Discard", "Revealing", "Dealing", "Discarding", "Playing",
           "GameOver", "Scoring", "score_encounter", "parse_condition", "SPACES", "CAPACITY"]

# The game's players and worlds, handed to the core once (the rules never import them).
from . import policies, worlds  # noqa: E402  (they build on the rules above)

BlackForest.attach(policies=policies.named_policies, default_policies=policies.default_policies,
                   sample_world=worlds.sample_world, unseen=worlds.unseen,
                   observation=worlds.observation)
