"""King of the Woods (Der König des Waldes, Louis Borchert, Steinbock 2025), modelled exactly.

In our own words: each round every player gets a hand of followers (some cards stay
out of the round face down; there is no draw pile).  On your turn you play one card
to any court — your own, or another player's.  The court's owner gains its influence
(Assassin 0, Trader 1, Guard 2, Squire 2, Scholar 3, Priest 3, Fool 4, Treasurer 4,
Knight 5, General 6, Princess 7) and you, the player, use its ability.  Intrigue
abilities (Trader, Knight, Scholar, Treasurer, General) only work at a foreign court,
so they are a gift of influence to the opponent paid for with an effect for you:
swapping hands (General), looking and taking (Knight), drawing blind (Treasurer),
pulling a cheap follower off a court (Scholar), or a forced trade up (Trader).
The Assassin covers a follower (0 influence, no ability; a Guard draws her, and a
second Assassin cancels the first), the Priest lets you swap a strong card into a
court for a weaker one, the Squire drags the other Squires out, the Princess needs
company at your own court.  Three Fools at a court at the end of a round ruin it
(score 0); a fourth Fool makes it normal again.  The round ends when nobody has cards;
courts score their uncovered influence; first to 42 points (or 3 round wins, 2 with
two players, in the round-win variant).  Beginner variant: no Scholar or Priest, one
card fewer per hand.

Copies per follower, the setup per player count and the player range are not
published: ``data.toml`` ASSUMES them (see ``Woods(...).assumptions_table()``); rule
questions the rulebook leaves open are decided in ``rules.DECISIONS``; contested
readings are options (``OPTIONS``, defaults = the literal text).

Where to look (the package follows ``docs/anatomy.md``):

* ``components.py`` — ``Components.from_data``: the only reader of ``data.toml``
  (followers, copies, the setup card of the player count), ``game.components``.
* ``rules.py`` — ``Woods`` (options ``mode="points"|"rounds"``, ``beginner``,
  ``one_round``, ``target``, ``data``), ``WoodsState``, the actions, the turn steps
  (``TraderReturning(giver, receiver, card)`` ...), the rule numbers (``FOOL_RUIN``,
  ``SCHOLAR_LIMIT``, ``PRINCESS_COMPANY``), ``DECISIONS``.
  ``Woods(...).position(hands=..., courts=...)`` builds a mid-round position and checks
  card conservation (for endgames and lessons).
* ``odds.py`` — exact card counting from a player's view (Fools per hand, who holds the
  General, the Treasurer's draw, the Knight's gain), Fool danger/rescue under random play,
  perfect-information endgames (``solve_endgame``, ``endgame_tree``).
* ``policies.py`` — simple policies for simulations; ``render.py`` — text/HTML pictures
  (found by the core by name); ``worlds.py`` — ``state.unseen(p)`` and
  ``state.sample_world(p, rng)`` from what one player has seen.

>>> import kingdoms
>>> game = kingdoms.game("woods", players=3)
>>> game.hand_size, game.set_aside_count, len(game.deck)
(7, 3, 24)
"""
from .components import Components
from .rules import (INTRIGUE, Cover, Deal, KnightPass, KnightTake, Play,
                    PriestExtra, PriestStop, PriestTakeBack, ScholarPass, ScholarTake,
                    TraderGive, TraderReturn, TreasurerDraw, Woods, WoodsState, court_score,
                    fool_count, uncovered)

__all__ = ["Woods", "WoodsState", "Components", "DECISIONS", "OPTIONS", "INTRIGUE", "Play", "Cover",
           "TraderGive", "TraderReturn", "KnightTake", "KnightPass", "ScholarTake",
           "ScholarPass", "PriestExtra", "PriestStop", "PriestTakeBack", "TreasurerDraw",
           "Deal", "court_score", "fool_count", "uncovered"]

# The game's players and worlds, handed to the core once (the rules never import them).
from . import policies, rules, worlds  # noqa: E402  (they build on the rules above)



def __getattr__(name):
    # OPTIONS and DECISIONS are made in the current language when read (rules.py)
    if name in ("OPTIONS", "DECISIONS"):
        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Woods.attach(policies=policies.named_policies, default_policies=policies.default_policies,
             sample_world=worlds.sample_world, unseen=worlds.unseen)
