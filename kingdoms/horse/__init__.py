"""My Kingdom for a Horse (Moritz Schuster, Kobold 2021) — modelled exactly.

The rules in short (our own words)
----------------------------------
Each player keeps animals on a 3x4 pasture.  Fences stand on field borders (the
board edge too); a *fenced area* is a group of connected fields whose whole outer
border is fenced.  A field holds 2 animals, an area holds one species, a species may
use several areas, and animals may be moved or swapped at any time.  Animals that
do not fit run away to the supply.

A turn has a dice phase and a trading phase.  The active player rolls the three
yellow King dice and the pink multiplication die, may re-roll any of them twice,
then carries out the dice in any order, declining any: sheep and pigs as shown,
1 cattle for 2-3 half-cattle, fences (receiving k fences = place up to k new ones
AND move up to k placed ones; with an empty fence supply you may still move k), and
the pink die: the shown species multiplies (+1 per 2 animals).  Once in the phase,
at any point (before the first roll, between rolls or after the final roll), the
active player may play a farm card (lightning: one-shot; infinity: pay its cost
once, it stays) and draws back to 4; playing none, they may discard and redraw any.
Then each other player, clockwise, chooses one *different* die of the final result
and carries it out (a lone half-cattle does nothing).  In the trading phase everyone,
from the active player clockwise, trades any number of ONE species up the chain
2 sheep -> 1 pig, 3 pigs -> 1 cattle, 4 cattle -> 1 horse.  At the end of each
phase, animals that are not fenced in run away.  When the supply runs out of a
species, the receiver takes what is left, everyone with more than 3 of it gives 1
back (the receiver too), and the receiver takes the rest from the refill (repeat as
needed; if nobody has more than 3 left, the receiver gets what the supply holds).
Holding 2 of every species, housed, triggers the end: the turn is finished, everyone may
trade all species once more, and among the holders of the set the most horses wins
(then cattle, pigs, sheep; a full tie shares).  Easy game: no farm cards, 1 of each
species wins.  Solo (``players=1``): you race Moritz, who rolls twice per turn (animals,
then multiplication each time), needs no fences, and trades all he can keeping 2 of each.

Modelling choices (see also data.toml for the component assumptions)
--------------------------------------------------------------------
* Herds are counts, not positions.  Because animals may be moved/swapped at any
  time, a herd is legal exactly when its species can be given disjoint sets of
  fenced areas with enough room (``pasture.fits``).  This covers the rulebook's
  housing example (swap sheep and pigs to make room) without swap actions.
* Housing is checked at the end of each phase (the dice phase, after the others
  have chosen their dice, and the trading phase), as the book says: within a phase a
  herd may be larger than its fenced areas, so a fence that closes an area later in
  the same phase saves the animals.  At the phase end each player whose herd does not
  fit (from the active player, clockwise) lets animals run away one at a time (their
  choice of species: they decide which animals stand outside) until it does (phase
  ``Housing``).  Letting animals run away voluntarily is offered in the active
  player's effects step and in each player's trading step.
* The end is triggered by a *housed* set: holding the goal in every species while
  the herd fits the fences.  A set that does not fit (and so must run away at the
  phase end) does not trigger it, unless fences received later in the phase house it.
* Fences: every layout is reachable (no canonical subset is needed): a fence job of
  k fences offers, one step at a time, "place a new fence on border e" (at most k, only
  while the fence supply lasts), "lift the fence on border e" then "put it on border
  e'" (at most k moves), and "done".  Each job is at most 3k+1 steps, so no loop of
  moving fences back and forth is possible.  Fences received but not placed simply stay
  in the supply.
* Bounded free moves: every other free step uses something up (a die, the one card,
  an animal, a species traded), so every turn is finite.  ``max_rounds`` (default 30)
  is an engine safeguard NOT in the rulebook, so that random play always ends: after
  that many rounds the game is cut (a final trade, then the end).  Such a game did not
  end by the rules: ``state.unfinished()`` says so (None for a game ended by the
  rules) and ``simulate`` counts it apart.  Random players almost never finish a
  multi-player game; ``game.default_policies()`` (``no_reroll_policy``) do.
* Farm cards: "at any point in this phase" — offered before the first roll (step
  ``BeforeRoll``: play a card or ``RollDice``; skipped only with an empty hand, so
  whether a card is affordable stays secret), between
  rolls (beside the keep choices) and after the final roll (beside the dice), once per
  dice phase.  The deck is kept as counts per card type and each draw is a chance node
  (exact, no shuffle needed); the discard pile becomes the deck when it is empty.
* Empty supply: option ``short_supply`` (default ``"literal"``: take what is left,
  refill, take the rest; ``"refill_first"``: refill before taking), see ``Horse``.
* Trades: only one step up the chain per trade (no downward trades; the rulebook lists
  only upward rates).  ``Training to Merchant Sheep`` (and the final trade) let a player
  give every species once, in any order, so chains like sheep -> pig -> cattle work.
* Others may also choose no die.  In the solo game Moritz's rolls are chance nodes; he
  uses the supply like everyone (the empty-supply rule applies to him too).
* Returns: the win shares (see ``Horse`` for the solo game and for cut games).
  ``scores()`` is None (no points in this game); ``herd_values()`` gives each herd's
  worth in sheep as a progress measure.
* Hidden information: the cards in a hand are secret (``view(p)`` hides the others'
  hands and the deck order; ``Horse.hidden_information`` is True).

Where to look (the package follows ``docs/anatomy.md``)
-------------------------------------------------------
* ``components.py`` — ``Components.from_data``: the only reader of ``data.toml``
  (``game.components``, short ``game.comp``); ``pasture.py`` — the 3x4 pasture, fenced
  areas and whether a herd fits; ``dice.py`` — the dice model (rolls, keep choices,
  re-rolls) the rules roll with and the odds count with.
* ``rules.py`` — ``Horse``, ``HorseState``, ``Farm``, the rule numbers (``REROLLS``,
  ``REFILL_ABOVE``); ``actions.py`` — the actions; ``steps.py`` — the typed turn steps
  (``Keeping``, ``Rerolling(kept, keep_mult)``, ``Housing(then)`` ...; ``state.phase``
  is the step's short name) and ``FenceJob``.
* ``odds.py`` — exact odds for lessons; ``reroll.py`` — the re-roll solver and the
  one-dice-phase game ``RerollGame`` (re-exported by ``odds``).
* ``solo.py`` — the solo race against Moritz: what the player ``solo`` weighs (the race
  goal of its dice, its trades and cards) and the plausible dice faces it is measured on
  (``FACE_VARIANTS``, ``face_variant_game``; ``benchmarks/horse_solo.py``).
* ``policies.py`` — the named players (``greedy``, ``no_reroll``, ``solo``; the old module name
  ``strategies`` still works); ``render.py`` — text/HTML pictures (found by the core by
  name); ``worlds.py`` — ``state.unseen(p)`` and ``state.sample_world(p, rng)``.
* ``benchmarks/horse_dice.py`` — the exact dice beside icepool (``make bench``).

>>> import kingdoms
>>> g = kingdoms.game("horse", players=2)
>>> s = g.initial_state()
"""
from .rules import Farm, Horse, HorseState
from .components import SPECIES, components
from . import odds

__all__ = ["Horse", "HorseState", "Farm", "SPECIES", "components", "odds"]

# The game's players and worlds, handed to the core once (the rules never import them).
from . import policies, worlds  # noqa: E402  (they build on the rules above)

Horse.attach(policies=policies.named_policies, default_policies=policies.default_policies,
             sample_world=worlds.sample_world, unseen=worlds.unseen)
