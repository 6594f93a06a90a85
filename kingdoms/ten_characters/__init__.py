"""Ten Characters (working name; Kudahl & Weber, Deep Print Games / Pegasus 2026).

A card game of simultaneous choices for 2-5 players (player range assumed).  100
cards: ten characters, ten of each.  Every turn each player picks a hand card face
down; the picks are revealed together and go into a shared display of nine columns
(the Jester joins another character's column).  Plain cards go in first, then the five
characters with an immediate effect by initiative number: the Fortune Teller peeks at
another hand, the Unicorn makes everyone draw a card and discard one, the Knight may remove a Dragon, the Mage
may remove any card, the Jester joins an occupied column.  When everyone holds two
cards, those two are scored on the display — so every card you play strengthens a
character you can then no longer keep for scoring.  The display stays for all three
passes; the most points win.

>>> import kingdoms
>>> g = kingdoms.game("ten_characters", players=3)
>>> g.hand, g.turns_per_pass
(6, 4)
>>> from kingdoms.ten_characters import score_pass
>>> score_pass({"dragon": 2, "king": 3}, [["dragon", "king"], ["jester", "queen"]]).totals
(8, 12)

(Player 2's Jester spoils Player 1's King and scores the three Kings, because Player 1
keeps a King; the Queen has no Queen+King set.)

Unknown numbers (initiative values, order of equal cards, refills) are documented
assumptions in ``data.toml``: see ``game.assumptions_table()``.  The Unicorn's
"(alle gleichzeitig)" is read literally (everyone draws and discards); the option
``unicorn="own"`` plays the other reading (only the Unicorn's player).

Where to look (the package follows ``docs/anatomy.md``):

* ``components.py`` — ``Components.from_data``: the only reader of ``data.toml``
  (passes, hand sizes, copies, initiative and points per character, the readings of
  unstated rules), ``game.components``.
* ``rules.py`` — ``TenCharacters`` (options ``unicorn="everyone"|"own"``, ``data``),
  ``TenCharactersState``, the actions, the turn steps (``state.step``: ``Dealing``,
  ``Choosing``, ``KnightMayRemove(player)``, ``UnicornDraws(drawers, discarders)`` ...,
  ``GameOver``); ``game.position(hands, display)`` builds a position for lessons.
* ``scoring.py`` — the ten scorings as pure functions (``score_pass``, ``ScoreSheet``).
* ``odds.py`` — card values, the one-shot payoff matrix and its exact equilibrium (the
  solver is ``kingdoms.core.matrix``), draw and holding odds from a player's view.
* ``policies.py`` — the hold-back and greedy players (``game.policies()``; also
  importable from ``strategies``, its former name);
  ``render.py`` — text/HTML pictures (found by the core by name); ``worlds.py`` —
  ``state.unseen(p)`` and ``state.sample_world(p, rng)`` from what one player has seen.
"""
from .components import Components
from .rules import (CHARACTERS, COLUMNS, LABELS, Choose, Choosing, DealCard, Dealing, Discard,
                    Effect, FortuneTellerPicks, FortuneTellerSees, GameOver, JesterJoins,
                    JesterTo, KnightMayRemove, KnightRemove, MageMayRemove, MageRemove, PeekAt,
                    PeekCard, TenCharacters, TenCharactersState, UnicornDiscards, UnicornDraw,
                    UnicornDraws)
from .scoring import ScoreSheet, ScoreTerm, score_card, score_pass

__all__ = ["TenCharacters", "TenCharactersState", "Components", "CHARACTERS", "COLUMNS",
           "LABELS", "DealCard", "Choose", "KnightRemove", "MageRemove", "JesterTo", "PeekAt",
           "PeekCard", "UnicornDraw", "Discard", "Dealing", "Choosing", "GameOver", "Effect",
           "KnightMayRemove", "MageMayRemove", "JesterJoins", "FortuneTellerPicks",
           "FortuneTellerSees", "UnicornDraws", "UnicornDiscards", "score_card", "score_pass",
           "ScoreSheet", "ScoreTerm"]

# The game's players and worlds, handed to the core once (the rules never import them).
from . import policies, worlds  # noqa: E402  (they build on the rules above)

TenCharacters.attach(policies=policies.named_policies, default_policies=policies.default_policies,
                     sample_world=worlds.sample_world, unseen=worlds.unseen,
                     observation=worlds.observation)
