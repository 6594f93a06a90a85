"""King of the Woods: the rules, top to bottom.

Setup (per player count, from the data file)
    The setup card puts some followers back in the box; the rest is shuffled, a
    number of cards is set aside face down (nobody sees them this round) and the
    remainder is dealt out evenly.  There is no draw pile.  The deal of a round is
    one chance event; it is far too large to list, so it raises ``TooManyOutcomes``
    (with the number of distinct deals) and is sampled with the given rng.

A turn
    The player to move plays exactly one hand card to any court: their own, or
    another player's.  The court's owner gains the card's influence; the player
    who played it uses its ability.  *Intrigue* abilities (Trader, Knight, Scholar,
    Treasurer, General) only act at a foreign court; the others act at any court.
    Abilities with several parts are split into small decisions (``step``).  A
    sub-decision with exactly one option is carried out at once when its options
    follow from public information; the Knight's and the Trader's are always a step.

The followers (influence in brackets)
    Assassin (0)   covers the top card of one pile at that court: the covered
                   follower counts 0 and loses its ability.  Played on another
                   Assassin, both Assassins leave the game and the victim below
                   recovers.  If an uncovered Guard lies at that court, the Assassin
                   must cover a Guard.  At an empty court she simply lies there.
    Trader (1)     intrigue: give the court's owner one hidden hand card; they must
                   give back a *different* card of higher influence, or, having
                   none, their card of highest influence (which may be the one
                   received).
    Guard (2)      protects its court (see Assassin).
    Squire (2)     while an uncovered Squire lies at any court, a player holding a
                   Squire must play a Squire (two in hand: one now, one next turn).
    Scholar (3)    intrigue: may take one uncovered follower of influence <= 4
                   (``SCHOLAR_LIMIT``) from that court into hand; only if there is
                   none, one of influence >= 5.  Never an Assassin or a Scholar.
    Priest (3)     at any court: may play one more hand card to that court (its
                   ability is carried out), and then must take back an uncovered card
                   of lower influence from it — not an Assassin, not a Fool, not the
                   Priest just played.
    Fool (4)       at round end a court with exactly 3 (``FOOL_RUIN``) uncovered
                   Fools scores 0; with 4 it scores normally.
    Treasurer (4)  intrigue: draw a random card from the owner's hand (chance).
    Knight (5)     intrigue: look at the owner's hand and you may take one card; a
                   Squire must be taken if there is one.
    General (6)    intrigue: swap whole hands with the owner.
    Princess (7)   to your own court only when at least 3 (``PRINCESS_COMPANY``)
                   uncovered followers lie there before your turn (the Priest
                   cannot help), unless she is your last hand card.  In the round-win variant she breaks a tie
                   for the player whose court holds her uncovered.

Decisions this model makes where the rulebook is silent are listed, in words, in
``DECISIONS`` below (the walkthrough notebook prints them).

End of round and game
    A player without hand cards is skipped; the round ends when nobody has cards.
    Each court scores the influence of its uncovered followers.  Points mode: running
    totals; the game ends when someone reaches 42; the most points wins (tied leaders
    share the win).  Round-win mode: first to 3 round wins (2 with two players).  The
    winner of a round starts the next.  Two Assassins that met stay out of the game
    (option ``assassins_return``), so later deals may be smaller.

Contested readings are options whose defaults follow the literal text (``OPTIONS``).
"""
from __future__ import annotations

import functools
import os
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import ClassVar

from kingdoms.core.cache import speed_cache
from kingdoms.core.cards import SequentialDeal, count_deals, deal_probability
from kingdoms.core.data import GameData
from kingdoms.core.i18n import N_, _, language, naming_game
from kingdoms.core.scoring import best_players, win_shares, with_margins
from kingdoms.core.protocol import (player_label, CHANCE, HIDDEN, TERMINAL, Action, Game, GameOptionError,
                                    IllegalAction, State, TooManyOutcomes, replace)

from .components import (DATA_RANGES, FOLLOWERS, MAX_COPIES, MAX_DECK,  # noqa: F401
                         MAX_INFLUENCE, MAX_POINTS, MAX_ROUND_WINS, Components)  # noqa: F401

__all__ = ["Woods", "WoodsState", "Play", "Cover", "TraderGive", "TraderReturn",
           "KnightTake", "KnightPass", "ScholarTake", "ScholarPass", "PriestExtra",
           "PriestStop", "PriestTakeBack", "TreasurerDraw", "Deal", "INTRIGUE", "DECISIONS",
           "OPTIONS", "FOOL_RUIN", "SCHOLAR_LIMIT", "PRINCESS_COMPANY", "court_score",
           "uncovered", "fool_count", "ruined", "Dealing", "AssassinAiming", "TraderGiving",
           "TraderReturning", "KnightLooking", "ScholarChoosing", "PriestAdding",
           "PriestTakingBack", "TreasurerDrawing", "DEALING"]

INTRIGUE = frozenset({"Trader", "Knight", "Scholar", "Treasurer", "General"})
# followers whose play opens no sub-decision (the Assassin: at an empty court)
_NO_STEP = frozenset({"Assassin", "Guard", "Squire", "Fool", "Princess"})
# Thresholds the rulebook states in words, named once (texts are built from them).
# (The influence values, copies, setups and the numbers to win are in data.toml.)
FOOL_RUIN = 3           # rulebook, Fool: "a court that has exactly 3 Fools present at
                        # the end of a round" scores 0 (a fourth makes it normal again)
SCHOLAR_LIMIT = 4       # rulebook, Scholar: takes "influence value 4 or less" (else 5
                        # or higher)
PRINCESS_COMPANY = 3    # rulebook, Princess: needs "at least 3 follower cards already
                        # present" at your own court

# The data file's schema and its ranges live with the components (re-exported here).
MAX_ROUNDS = 1000       # safeguard: a game still running after this many rounds is cut
ROUND_TIES = ("shared", "nobody")

# The contested readings (options) and the rulebook gaps decided (DECISIONS), for
# people: marked here, translated when read (``OPTIONS``/``DECISIONS`` below, the
# module's ``__getattr__``: ``from kingdoms.woods import DECISIONS`` in a German kernel
# gives them in German).
_OPTIONS = {
    'priest_extra_ability': N_(
        'True (literal): the further card played with the Priest is played, so its '
        "ability is carried out ('carried out when a card is played'; intrigue only at "
        "a foreign court), and the Priest's take-back follows it.  False: it only adds "
        'its influence.'),
    'trader_fallback_received': N_(
        "True (literal): without a higher card the receiver gives back 'the card with "
        "the highest influence' of the hand they now hold, which may be the card just "
        'received (or another copy of it).  False: the fallback is their highest card '
        'other than the received one (the received card goes back only when they hold '
        'nothing else).'),
    'round_tie': N_(
        'The rulebook breaks a round-win tie only with the Princess and says nothing of '
        "ties without her.  'shared' (default): every tied player gets a round win.  "
        "'nobody': nobody gets one for that round."),
    'assassins_return': N_(
        "False (literal): two Assassins that meet are 'removed from the game' and stay "
        'out for the rest of the game; later deals have fewer cards (the set-aside '
        'number stays, the rest is dealt as evenly as possible).  True: they are only '
        'out for the round and come back with the next deal.'),
}

_DECISIONS = (
    N_('The Princess may be played to a foreign court at any time: the rulebook '
       "restricts only her entry to your own court and says 'in principle, you may "
       "play any card anywhere'."),
    N_("The Priest's further card (option priest_extra_ability, default literal): it "
       "is played, so its ability is carried out before the Priest's take-back (a "
       'further Priest opens its own further card first; intrigue only at a foreign '
       'court).  The Princess condition applies to it at your own court (counted '
       'before the Priest), and her last-card exception does not.'),
    N_("If nothing at the court qualifies for the Priest's take-back, nothing is "
       "taken.  'A card of lower influence' means lower than the further card.  No "
       'Priest played this turn can be taken back (with a Priest as the further card, '
       "its own further card and take-back come first, then the first Priest's "
       'take-back).'),
    N_("The Knight's take is optional ('you may take 1 card') unless the hand holds a "
       'Squire, which he must take.'),
    N_('A covered Squire does not oblige anyone (a covered follower loses its '
       'ability); a covered Guard does not protect.'),
    N_("The Squire obligation binds the card you play on your turn (not the Priest's "
       'extra card) and only while an uncovered Squire lies at some court; holding two '
       'Squires with none out, you may play other cards first — once you play one, the '
       'second follows on your next turn.'),
    N_("A court's Princess condition counts uncovered followers there: piles of one "
       'card (a lone Assassin counts, a covered follower and the Assassin on it do '
       'not).'),
    N_('Only uncovered followers can be taken by the Scholar or the Priest; the '
       "Scholar's take is optional ('may')."),
    N_('An Assassin at a court with no cards lies there alone (influence 0); another '
       'Assassin played on her removes both.  With a Guard uncovered at the court, the '
       'Assassin may only cover a Guard (not attack an Assassin).'),
    N_("Assassins 'removed from the game' (option assassins_return, default literal): "
       'they stay out for the rest of the game.  A later deal sets aside the setup '
       "card's number (fewer if needed so that at least one card is dealt) and deals "
       'the rest as evenly as possible, the extra cards to the players first in turn '
       "order from the round's starter."),
    N_("Trader: a 'different card of higher influence' is higher than the card "
       "received.  Without one, 'the card with the highest influence' (option "
       'trader_fallback_received, default literal) is taken from the hand as it is '
       'after receiving, so it may be the received card.  With no other hand card '
       "left, the Trader's ability does nothing."),
    N_('The first round is started by Player 1 (the rulebook: whoever last saw a '
       'stag).'),
    N_('Round winner: highest court score; a tie goes to the tied player whose court '
       'holds the uncovered Princess; otherwise the next round is started by the tied '
       "player first in turn order from the round's starter.  In the round-win variant "
       'a tie without the Princess is not covered by the rulebook (option round_tie): '
       "by default every tied player gets a round win ('nobody': none does)."),
    N_('Game end tie (points mode): the players with the most points share the win.'),
    N_('What a player knows of other hands (from the Knight, the Trader, the General, '
       'the Treasurer or a public take) is kept only while it is certain: when a card '
       'leaves a hand unseen by that player, their knowledge of that hand is '
       'forgotten.'),
    N_("A sub-decision whose options follow from what everyone sees (the Assassin's "
       "target, the Priest's take-back, a Scholar with nothing to take) is carried out "
       "at once when it has a single option.  The Knight's take and the Trader's give "
       'and return depend on hidden hands, so they are always a step of their own, '
       'even with one option: onlookers cannot tell a forced choice from a free one.'),
    N_('Safeguard (no rule): a game still running after {rounds} rounds is stopped and '
       "reported unfinished (``state.unfinished()``); the data file's ranges keep "
       'games short.'),
)


def _options() -> MappingProxyType:
    return MappingProxyType({k: _(v) for k, v in _OPTIONS.items()})


def _decisions() -> tuple:
    return tuple(_(d).format(rounds=MAX_ROUNDS) if "{rounds}" in d else _(d)
                 for d in _DECISIONS)


def __getattr__(name):
    # OPTIONS and DECISIONS in the current language (English: the texts as written)
    if name == "OPTIONS":
        return _options()
    if name == "DECISIONS":
        return _decisions()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------- actions
# Action texts name players as people read them ("Player 2" for index 1, the game's
# ``player_name``; this game has no custom names).  ``str()`` never raises, whatever
# the fields hold: a malformed action still prints (as "?") inside error messages.

_pn = player_label


@functools.lru_cache(maxsize=4)
def _packaged_names(code: str) -> dict:
    from kingdoms.core.data import load_data
    return load_data("kingdoms.woods", None).names(code)


def card_name(card, game=None) -> str:
    """A follower's name as people read it in the current language (``game``'s data
    file, else the game of the action text being made, else the packaged data)."""
    if type(card) is not str:
        return "?"
    code = language()
    if code == "en":
        return card
    game = game if game is not None else naming_game()
    if game is not None:
        return game.component_name(card)
    return _packaged_names(code).get(card, card)


_cn = card_name


def _cd(card) -> str:
    if card is HIDDEN:
        return _("a hidden card")
    if language() != "en":
        return card_name(card)
    return f"the {card}" if type(card) is str else "the ?"


def _action_text(action) -> str:
    try:
        text = str(action)
        if isinstance(text, str):
            return text
    except Exception:
        pass
    return f"a {type(action).__name__} (not a valid action)"


class _PrivateCard:
    """An action that moves one card between two hands: the two players named by
    ``_witnesses`` see the card, everyone else sees a hidden card (``seen_by``)."""

    _witnesses: ClassVar[tuple] = ()

    def seen_by(self, player):
        if any(getattr(self, w) == player for w in self._witnesses):
            return self
        return replace(self, card=HIDDEN)


@dataclass(frozen=True)
class Play(Action):
    """Play a hand card to a court (the main decision of a turn)."""
    card: str
    court: int

    def __str__(self):
        return _("play {card} to {player}'s court").format(card=_cd(self.card),
                                                            player=_pn(self.court))


@dataclass(frozen=True)
class Cover(Action):
    """The Assassin's target: a pile at the court, named by its cards bottom to top."""
    court: int
    pile: tuple

    def __str__(self):
        pile = self.pile if type(self.pile) is tuple and self.pile else ("?",)
        if pile[-1] == "Assassin":
            if len(pile) == 2:
                return _("attack the {assassin} on {card} at {player}'s court").format(
                    assassin=_cn("Assassin"), card=_cd(pile[0]), player=_pn(self.court))
            return _("attack the {assassin} at {player}'s court").format(
                assassin=_cn("Assassin"), player=_pn(self.court))
        return _("cover {card} at {player}'s court").format(card=_cd(pile[0]),
                                                            player=_pn(self.court))


@dataclass(frozen=True)
class TraderGive(_PrivateCard, Action):
    card: str
    giver: int
    receiver: int
    _witnesses = ("giver", "receiver")

    def __str__(self):
        return _("give {card} to {player}").format(card=_cd(self.card),
                                                   player=_pn(self.receiver))


@dataclass(frozen=True)
class TraderReturn(_PrivateCard, Action):
    card: str
    giver: int
    receiver: int
    _witnesses = ("giver", "receiver")

    def __str__(self):
        return _("give {card} back to {player}").format(card=_cd(self.card),
                                                        player=_pn(self.giver))


@dataclass(frozen=True)
class KnightTake(_PrivateCard, Action):
    card: str
    taker: int
    victim: int
    _witnesses = ("taker", "victim")

    def __str__(self):
        return _("take {card} from {player}'s hand").format(card=_cd(self.card),
                                                            player=_pn(self.victim))


@dataclass(frozen=True)
class KnightPass(Action):
    """The Knight takes nothing ('you *may* take 1 card'; not with a Squire there)."""
    taker: int
    victim: int

    def __str__(self):
        return _("take nothing from {player}'s hand").format(player=_pn(self.victim))


@dataclass(frozen=True)
class ScholarTake(Action):
    card: str
    court: int

    def __str__(self):
        return _("take {card} from {player}'s court").format(card=_cd(self.card),
                                                             player=_pn(self.court))


@dataclass(frozen=True)
class ScholarPass(Action):
    def __str__(self):
        return _("take nothing with the {scholar}").format(scholar=_cn("Scholar"))


@dataclass(frozen=True)
class PriestExtra(Action):
    card: str
    court: int

    def __str__(self):
        return _("also play {card} to {player}'s court").format(card=_cd(self.card),
                                                                player=_pn(self.court))


@dataclass(frozen=True)
class PriestStop(Action):
    def __str__(self):
        return _("play no further card with the {priest}").format(priest=_cn("Priest"))


@dataclass(frozen=True)
class PriestTakeBack(Action):
    card: str
    court: int

    def __str__(self):
        return _("take back {card} from {player}'s court").format(card=_cd(self.card),
                                                                  player=_pn(self.court))


@dataclass(frozen=True)
class TreasurerDraw(_PrivateCard, Action):
    """Chance: the card the Treasurer draws at random from the victim's hand."""
    card: str
    drawer: int
    victim: int
    _witnesses = ("drawer", "victim")

    def __str__(self):
        return _("the {treasurer} draws {card} from {player}'s hand").format(
            treasurer=_cn("Treasurer"), card=_cd(self.card), player=_pn(self.victim))


@dataclass(frozen=True)
class Deal(Action):
    """Chance: a round's deal — every hand (sorted) and the set-aside pile."""
    hands: tuple
    set_aside: tuple

    def __str__(self):
        try:
            sizes = "/".join(str(len(h)) for h in self.hands)
            return _("deal {sizes} cards, {aside} set aside").format(
                sizes=sizes, aside=len(self.set_aside))
        except Exception:
            return _("deal (malformed)")

    def seen_by(self, player):
        hands = tuple(h if i == player else (HIDDEN,) * len(h)
                      for i, h in enumerate(self.hands))
        return Deal(hands, (HIDDEN,) * len(self.set_aside))


def _deal_of_piles(piles) -> "Deal":
    """The ``Deal`` of a deal dealt card by card: ``piles`` is the set-aside pile, then
    each hand (``WoodsState.chance_steps``)."""
    return Deal(tuple(tuple(sorted(h)) for h in piles[1:]), tuple(sorted(piles[0])))


# What each action's fields must hold ("card": a follower's name, "player": a player
# index, "pile": 1-2 card names, "cards": a tuple of names, "hands": one per player).
_FIELDS = {
    Play: (("card", "card"), ("court", "player")),
    Cover: (("court", "player"), ("pile", "pile")),
    TraderGive: (("card", "card"), ("giver", "player"), ("receiver", "player")),
    TraderReturn: (("card", "card"), ("giver", "player"), ("receiver", "player")),
    KnightTake: (("card", "card"), ("taker", "player"), ("victim", "player")),
    KnightPass: (("taker", "player"), ("victim", "player")),
    ScholarTake: (("card", "card"), ("court", "player")),
    ScholarPass: (),
    PriestExtra: (("card", "card"), ("court", "player")),
    PriestStop: (),
    PriestTakeBack: (("card", "card"), ("court", "player")),
    TreasurerDraw: (("card", "card"), ("drawer", "player"), ("victim", "player")),
    Deal: (("hands", "hands"), ("set_aside", "cards")),
}


@speed_cache(maxsize=8)
def _plays_of(players: int):
    """``{card: (Play(card, 0), ..., Play(card, players - 1))}``: one object per play
    (actions are values, so the lists share them)."""
    return MappingProxyType({c: tuple(Play(c, k) for k in range(players)) for c in FOLLOWERS})


@speed_cache(maxsize=32)
def _play_table(followers: tuple, players: int) -> tuple:
    """``((card, its plays), ...)`` in follower order: what ``_plays`` walks through
    (keyed by the box's followers and the player count only, never by a hand)."""
    plays_of = _plays_of(players)
    return tuple((c, plays_of[c]) for c in followers)


@dataclass(frozen=True)
class PlayTables:
    """What one configuration plays with, made once (``game.tables``): every play as
    one object (actions are values, so every state's lists share them).  Built from
    the followers and the player count only, never from a hand."""
    plays: tuple            # ((card, (Play(card, 0), ...)), ...) in follower order
    squire_plays: tuple     # the plays of a Squire (the Squire obligation)

    @classmethod
    def of(cls, followers: tuple, players: int) -> "PlayTables":
        return cls(_play_table(followers, players), _plays_of(players)["Squire"])


def _malformed(action, game) -> str | None:
    """Why ``action`` is not a well-formed action of this game (``None`` if it is)."""
    spec = _FIELDS.get(type(action))
    if spec is None:
        return _("{action} is not an action of King of the Woods (a {kind})").format(
            action=_action_text(action), kind=type(action).__name__)
    names = game.components.rank
    n = game.players

    def is_cards(x):
        return type(x) is tuple and all(type(c) is str and c in names for c in x)

    for field_name, kind in spec:
        v = getattr(action, field_name, None)
        if kind == "card":
            ok = type(v) is str and v in names
        elif kind == "player":
            ok = type(v) is int and 0 <= v < n
        elif kind == "pile":
            ok = is_cards(v) and 1 <= len(v) <= 2
        elif kind == "cards":
            ok = is_cards(v)
        else:
            ok = type(v) is tuple and len(v) == n and all(is_cards(h) for h in v)
        if not ok:
            want = {"card": _("a follower's name"),
                    "player": _("a player number 0..{last}").format(last=n - 1),
                    "pile": _("a tuple of 1 or 2 follower names"),
                    "cards": _("a tuple of follower names"),
                    "hands": _("a tuple of {n} tuples of follower names").format(n=n)}[kind]
            try:
                shown = repr(v)[:40]
            except Exception:
                shown = type(v).__name__
            return _("{kind}.{field} should be {want}, not {shown}").format(
                kind=type(action).__name__, field=field_name, want=want, shown=shown)
    return None


# --------------------------------------------------------------------------- turn steps
# What the game waits for (``WoodsState.step``): one frozen dataclass per kind of
# decision or chance event, dispatched with ``match``.  A step is part of the
# position (immutable, hashable).

@dataclass(frozen=True)
class Playing:
    """Between turns: the player whose turn it is plays a follower (also the step of
    a finished game, whose ``over`` is set)."""


@dataclass(frozen=True)
class Dealing:
    """Chance: the deal of a round."""


@dataclass(frozen=True)
class AssassinAiming:
    """The Assassin's player chooses the pile she covers at ``court``."""
    court: int


@dataclass(frozen=True)
class TraderGiving:
    """The Trader's player chooses a hand card to give the owner of ``court``."""
    court: int


@dataclass(frozen=True)
class TraderReturning:
    """``receiver`` got ``card`` (``HIDDEN`` in an onlooker's view) from ``giver``
    and chooses the card to give back."""
    giver: int
    receiver: int
    card: object


@dataclass(frozen=True)
class KnightLooking:
    """The Knight's player looks at ``victim``'s hand and may take a card."""
    victim: int


@dataclass(frozen=True)
class ScholarChoosing:
    """The Scholar's player may take a follower from ``court``."""
    court: int


@dataclass(frozen=True)
class PriestAdding:
    """The Priest's player may play one more card to ``court``; the Priest is pile
    ``priest`` there."""
    court: int
    priest: int


@dataclass(frozen=True)
class PriestTakingBack:
    """The Priest's take-back at ``court`` (Priest at pile ``priest``; ``-1`` once it
    left the court) of a card of lower influence than ``extra``."""
    court: int
    priest: int
    extra: str


@dataclass(frozen=True)
class TreasurerDrawing:
    """Chance: the Treasurer draws a random card from ``victim``'s hand."""
    victim: int


PLAYING = Playing()
DEALING = Dealing()
# sub-decisions whose options follow from public information: a single option is
# carried out at once (see DECISIONS; hidden ones are always a step)
_PUBLIC_STEPS = (AssassinAiming, PriestTakingBack, ScholarChoosing)


def _shift(after, c, i):
    """The Priest take-backs still to come after pile ``i`` left court ``c``: their
    Priest's pile index moves down (or is gone, -1, if it was that pile)."""
    if not after:
        return after
    out = []
    for take in after:
        k = take.priest
        if take.court == c and k is not None and k >= 0:
            take = replace(take, priest=-1 if k == i else k - 1 if k > i else k)
        out.append(take)
    return tuple(out)


# --------------------------------------------------------------------------- helpers

def uncovered(court) -> list:
    """The uncovered followers of a court (piles of one card)."""
    return [p[0] for p in court if len(p) == 1]


def fool_count(court) -> int:
    """Uncovered Fools at a court."""
    return court.count(("Fool",))


def ruined(court) -> bool:
    """Exactly ``FOOL_RUIN`` uncovered Fools: the court scores 0 at round end."""
    return fool_count(court) == FOOL_RUIN


def court_score(court, influence) -> int:
    """A court's influence at round end: uncovered followers count; exactly
    ``FOOL_RUIN`` uncovered Fools make it 0 (one more counts normally)."""
    if ruined(court):
        return 0
    return sum([influence[p[0]] for p in court if len(p) == 1])


def _minus(hand: tuple, card) -> tuple:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _plus(hand: tuple, card) -> tuple:
    if card is HIDDEN or HIDDEN in hand:
        return tuple(sorted(hand + (card,), key=_sort_key))     # HIDDEN goes last
    return tuple(sorted(hand + (card,)))


def _sort_key(c):
    return (1, "") if c is HIDDEN else (0, c)


def _sub_known(known_hand: tuple, card) -> tuple:
    return _minus(known_hand, card) if card in known_hand else known_hand


def _set(t: tuple, i: int, v) -> tuple:
    out = list(t)           # (fewer new objects than slicing and joining)
    out[i] = v
    return tuple(out)


def _hand_less(hands: tuple, p: int, card) -> tuple:
    """``hands`` with one ``card`` gone from hand ``p``."""
    hand = list(hands[p])
    hand.remove(card)
    out = list(hands)
    out[p] = tuple(hand)
    return tuple(out)


def _swap(hands, known, p, c):
    """The General: players ``p`` and ``c`` swap hands; everyone's knowledge follows."""
    hp, hc = hands[p], hands[c]
    hands = _set(_set(hands, p, hc), c, hp)
    rows = []
    for o, row in enumerate(known):
        if o == p:
            row = _set(_set(row, c, hp), p, ())
        elif o == c:
            row = _set(_set(row, p, hc), c, ())
        else:
            row = _set(_set(row, p, row[c]), c, row[p])
        rows.append(row)
    return hands, tuple(rows)


# --------------------------------------------------------------------------- the game

@dataclass(frozen=True)
class Woods(Game):
    """King of the Woods for 2-5 players (the range is an assumption of the data file).

    Options: ``mode`` "points" (to 42) or "rounds" (round-win variant: 3 wins, 2 with
    two players); ``beginner`` (no Scholar or Priest, one card fewer per hand, the rest
    set aside); ``one_round`` (teaching option: the game ends after one round, won by
    the round's winner); ``target`` overrides points/wins to reach; ``data`` a path to
    an edited copy of the data file.  Contested readings (defaults: the literal text;
    see ``OPTIONS``): ``priest_extra_ability``, ``trader_fallback_received``,
    ``round_tie`` ("shared"/"nobody"), ``assassins_return``.
    """

    name = "woods"
    title = "King of the Woods"
    min_players = 2
    max_players = 5
    hidden_information = True

    players: int = 3
    mode: str = "points"
    beginner: bool = False
    one_round: bool = False
    target: int | None = None
    data: str | None = None
    # contested readings (see OPTIONS and DECISIONS; the defaults follow the literal text)
    priest_extra_ability: bool = True
    trader_fallback_received: bool = True
    round_tie: str = "shared"
    assassins_return: bool = False

    def __post_init__(self):
        super().__post_init__()
        self._check_readings()
        # reading the components checks the data file now (``DataError`` names the key);
        # the play tables are made now too, so playing stores nothing on the game
        self.components
        self.tables

    def _check_readings(self) -> None:
        """The options' values (``GameOptionError`` naming the option)."""
        if self.mode not in ("points", "rounds"):
            raise GameOptionError(_("mode must be 'points' or 'rounds', not {value}").format(
                value=repr(self.mode)))
        for flag in ("beginner", "one_round", "priest_extra_ability",
                     "trader_fallback_received", "assassins_return"):
            if not isinstance(getattr(self, flag), bool):
                raise GameOptionError(_("{option} is True or False, not {value}").format(
                    option=flag, value=repr(getattr(self, flag))))
        if self.round_tie not in ROUND_TIES:
            raise GameOptionError(_("round_tie must be one of {choices}, not {value}").format(
                choices=", ".join(map(repr, ROUND_TIES)), value=repr(self.round_tie)))
        top = MAX_POINTS if self.mode == "points" else MAX_ROUND_WINS
        if self.target is not None and (type(self.target) is not int
                                        or not 1 <= self.target <= top):
            raise GameOptionError(_("target must be an int from 1 to {top} in {mode} mode, "
                                    "not {value}").format(top=top, mode=self.mode,
                                                          value=repr(self.target)))
        if self.data is not None and not isinstance(self.data, (str, os.PathLike, GameData)):
            raise GameOptionError(_("data is the path of a data file (or a GameData), "
                                    "not {value}").format(value=repr(self.data)))

    @cached_property
    def components(self) -> Components:
        """The parts in the box for this player count (``Components.from_data``)."""
        return Components.from_data(self.game_data(), self.players, self.beginner)

    @cached_property
    def tables(self) -> PlayTables:
        """Every play of this configuration, made once (``PlayTables``)."""
        return PlayTables.of(self.components.followers, self.players)

    # the components by name (read-only; ``game.deck``, ``game.influence`` ...)
    followers = property(lambda self: self.components.followers,
                         doc="The followers in influence order.")
    influence = property(lambda self: self.components.influence,
                         doc="Each follower's influence (read-only mapping).")
    copies = property(lambda self: self.components.copies,
                      doc="Copies of each follower in the box (read-only mapping).")
    box = property(lambda self: self.components.box,
                   doc="The cards the setup card puts back in the box (sorted).")
    deck = property(lambda self: self.components.deck,
                    doc="The cards in play this game (sorted).")
    hand_size = property(lambda self: self.components.hand_size,
                         doc="Cards per hand in a full deal.")
    set_aside_count = property(lambda self: self.components.set_aside_count,
                               doc="Cards set aside face down in a full deal.")

    @property
    def goal(self) -> int:
        """Points (points mode) or round wins (round-win mode) that end the game."""
        if self.target:
            return self.target
        c = self.components
        return c.points_to_win if self.mode == "points" else c.round_wins

    @classmethod
    def data_ranges(cls) -> dict[str, tuple]:
        """The data file's schema: ``DATA_RANGES`` (see ``Game.data_ranges``)."""
        return dict(DATA_RANGES)

    @classmethod
    def configurations(cls):
        """Every player count in points mode, the round-win and beginner variants, the
        one-round teaching option and the other readings of contested rules (what the
        generic test-suite plays)."""
        out = []
        for k in range(cls.min_players, cls.max_players + 1):
            out += [{"players": k}, {"players": k, "mode": "rounds"},
                    {"players": k, "beginner": True}]
        out.append({"players": 2, "one_round": True})
        out.append({"players": 3, "priest_extra_ability": False,
                    "trader_fallback_received": False, "assassins_return": True})
        out.append({"players": 2, "mode": "rounds", "round_tie": "nobody"})
        return out

    # -- every action, numbered (kingdoms.interop.openspiel) --------------------------
    def action_universe(self) -> tuple:
        """Every decision and listable chance outcome, in a fixed order: by kind (Play,
        Cover, TraderGive, TraderReturn, KnightTake, KnightPass, ScholarTake,
        ScholarPass, PriestExtra, PriestStop, PriestTakeBack, TreasurerDraw), then
        players, then followers in influence order (``self.followers``); Cover piles
        of one card, then of two.  The deal of a round (``Deal``, millions of outcomes)
        is not listed: ``kingdoms.interop.openspiel`` deals it card by card."""
        fs = self.followers
        n = range(self.players)
        out = [Play(c, k) for c in fs for k in n]
        out += [Cover(k, (a,)) for k in n for a in fs]
        out += [Cover(k, (a, b)) for k in n for a in fs for b in fs]
        out += [TraderGive(c, g, r) for c in fs for g in n for r in n]
        out += [TraderReturn(c, g, r) for c in fs for g in n for r in n]
        out += [KnightTake(c, t, v) for c in fs for t in n for v in n]
        out += [KnightPass(t, v) for t in n for v in n]
        out += [ScholarTake(c, k) for c in fs for k in n]
        out.append(ScholarPass())
        out += [PriestExtra(c, k) for c in fs for k in n]
        out.append(PriestStop())
        out += [PriestTakeBack(c, k) for c in fs for k in n]
        out += [TreasurerDraw(c, d, v) for c in fs for d in n for v in n]
        return tuple(out)

    def max_game_length(self) -> int:
        """A true bound on the number of actions and chance outcomes in a game, counting
        a deal as one step per card.  Rounds: 1 (``one_round``) or the ``MAX_ROUNDS``
        safeguard.  Turns in a round: the number ``2H + S`` (H cards in all hands, S
        Scholars among them) falls by at least 1 every turn (every card played leaves
        a hand; only the Scholar's take and a Priest's take-back bring one back, and
        a take-back is of a card below the Priest's further card, so a Scholar comes
        back only after a card above influence 3 left), so a round has at most
        ``2N + s`` turns (N cards, s Scholars).  A turn plays a chain of at most P
        Priests (2 steps each) and one further card (its play, a Priest stop and at
        most 2 ability steps)."""
        deck = self.deck
        rounds = 1 if self.one_round else MAX_ROUNDS
        per_turn = 2 * deck.count("Priest") + 5
        turns = 2 * len(deck) + deck.count("Scholar")
        return rounds * (len(deck) + turns * per_turn)

    def chance_step_items(self) -> tuple:
        """The cards a deal dealt card by card (``WoodsState.chance_steps``) can deal:
        ``self.followers``."""
        return self.followers

    # -- data -----------------------------------------------------------------------



    def setup_summary(self) -> str:
        box = Counter(self.box)
        removed = ", ".join(f"{k} {card_name(nm, self)}"
                            for nm, k in sorted(box.items())) or _("nothing")
        return _("{players} players: {cards} cards in play ({removed} back in the box); "
                 "{aside} set aside face down, {hand} dealt to each player.").format(
            players=self.players, cards=len(self.deck), removed=removed,
            aside=self.set_aside_count, hand=self.hand_size)

    # -- states ---------------------------------------------------------------------
    def objectives(self) -> dict:
        """What a solver or tree may maximise (``kingdoms.core.solve``): the share of
        the win, each player's points, each court's influence, and with two players
        the margins."""
        return {**super().objectives(), **with_margins(self.players, {
            "points": lambda s: tuple(s.totals),
            "court influence": lambda s: tuple(s.court_scores())})}

    def initial_state(self) -> "WoodsState":
        n = self.players
        return WoodsState(self, round=1, hands=((),) * n, courts=((),) * n, set_aside=(),
                          removed=(), turn=0, starter=0, step=DEALING,
                          known=_no_knowledge(n), totals=(0,) * n, last_round=None,
                          over=False)

    def position(self, hands, courts=None, set_aside=None, removed=(), turn=0,
                 totals=None, known=None, starter=None, round=1) -> "WoodsState":
        """A mid-round position with chosen hands and courts (for endgames and lessons).

        ``hands``: one list of card names per player.  ``courts``: per player a list of
        piles, each a card name or a tuple ``("Knight", "Assassin")`` for a covered card.
        ``set_aside``: the face-down cards; if omitted, every card of this round's deck
        not placed elsewhere is set aside.  ``removed``: Assassins already out of the
        game (or round, with ``assassins_return``).  Card conservation is checked: hands + courts + set aside + removed must
        be exactly this round's deck (``game.deck``); otherwise ``ValueError``.
        ``known[o][p]``: cards player ``o`` knows to be in ``p``'s hand (default none).
        """
        n = self.players
        if len(hands) != n:
            raise ValueError(f"need {n} hands, got {len(hands)}")
        if type(turn) is not int or not 0 <= turn < n:
            raise ValueError(f"turn must be a player number 0..{n - 1}, not {turn!r}")
        courts = courts if courts is not None else [[] for _ in range(n)]
        if len(courts) != n:
            raise ValueError(f"need {n} courts, got {len(courts)}")
        hs = self._position_hands(hands)
        cs = self._position_courts(courts)
        aside = self._position_aside(hs, cs, set_aside, removed)
        kn = _no_knowledge(n) if known is None else self._position_known(known, hs)
        if not any(hs):
            raise ValueError("every hand is empty: the round is over")
        if not hs[turn]:
            raise ValueError(f"{self.player_name(turn)} has no cards and cannot be the one "
                             "to move")
        return WoodsState(self, round=round, hands=tuple(hs), courts=tuple(cs), set_aside=aside,
                          removed=tuple(sorted(removed)), turn=turn,
                          starter=turn if starter is None else starter, step=PLAYING,
                          known=kn, totals=tuple(totals) if totals else (0,) * n,
                          last_round=None, over=False)

    def _position_hands(self, hands) -> list:
        valid = set(self.followers)
        hs = []
        for p, h in enumerate(hands):
            for c in h:
                if c not in valid:
                    raise ValueError(f"{self.player_name(p)}'s hand: {c!r} is not a follower")
            hs.append(tuple(sorted(h)))
        return hs

    def _position_courts(self, courts) -> list:
        valid = set(self.followers)
        cs = []
        for p, court in enumerate(courts):
            piles = []
            for pile in court:
                pile = (pile,) if isinstance(pile, str) else tuple(pile)
                if not pile or any(c not in valid for c in pile) or len(pile) > 2 or (
                        len(pile) == 2 and pile[1] != "Assassin"):
                    raise ValueError(f"{self.player_name(p)}'s court: {pile!r} is not a card or "
                                     "(card, 'Assassin')")
                piles.append(pile)
            cs.append(tuple(piles))
        return cs

    def _position_aside(self, hs, cs, set_aside, removed) -> tuple:
        """The set-aside cards, card conservation checked (``ValueError``)."""
        placed = Counter()
        for h in hs:
            placed.update(h)
        for court in cs:
            for pile in court:
                placed.update(pile)
        placed.update(removed)
        deck = Counter(self.deck)
        if set_aside is None:
            extra = placed - deck
            if extra:
                raise ValueError(f"card conservation: more cards than this round's deck holds: "
                                 f"{dict(extra)}")
            return tuple(sorted((deck - placed).elements()))
        aside = tuple(sorted(set_aside))
        total = placed + Counter(aside)
        if total != deck:
            raise ValueError(
                "card conservation: hands + courts + set aside + removed must be this "
                f"round's deck; too many {dict(total - deck)}, missing {dict(deck - total)}")
        return aside

    def _position_known(self, known, hs) -> tuple:
        n = self.players
        kn = tuple(tuple(tuple(sorted(known[o][p])) if o != p else () for p in range(n))
                   for o in range(n))
        for o in range(n):
            for p in range(n):
                if Counter(kn[o][p]) - Counter(hs[p]):
                    raise ValueError(f"known[{o}][{p}]: {self.player_name(o)} is said to know "
                                     f"cards that are not in {self.player_name(p)}'s hand")
        return kn

    # -- the deal -------------------------------------------------------------------
    def deal_count(self) -> int:
        """The number of distinct deals (hands and set-aside pile as multisets)."""
        return _count_deals(tuple(Counter(self.deck).values()),
                            tuple(sorted([self.hand_size] * self.players + [self.set_aside_count])))

    def deal_probability(self, deal: "Deal") -> Fraction:
        """The exact probability of one deal outcome."""
        return deal_probability(list(deal.hands) + [deal.set_aside], self.deck)


def _count_deals(copies: tuple, caps: tuple) -> int:
    """Ways to split a multiset (``copies`` per kind) into groups of sizes ``caps``
    (``kingdoms.core.cards.count_deals``)."""
    return count_deals(copies, caps)


@speed_cache(maxsize=8)
def _shares(cards: int) -> tuple:
    """``_shares(N)[n][k] == Fraction(k, n)`` for ``0 <= k <= n <= N`` (a hand of ``n``
    cards holding ``k`` copies; keyed by the deck's size only, never by a hand)."""
    return ((),) + tuple(tuple(Fraction(k, n) for k in range(n + 1))
                         for n in range(1, cards + 1))


@speed_cache(maxsize=16)
def _no_knowledge(n):
    return tuple(tuple(() for _ in range(n)) for _ in range(n))


# --------------------------------------------------------------------------- the state

@dataclass(frozen=True)
class WoodsState(State):
    """A position of King of the Woods.

    ``hands[p]`` sorted card names; ``courts[p]`` piles (bottom to top; a covered
    follower is ``(card, "Assassin")``); ``set_aside`` the face-down cards;
    ``removed`` Assassins out of this round; ``turn`` whose turn it is; ``step``
    the sub-decision or chance event under way (``Playing()`` between turns);
    ``known[o][p]`` the cards player ``o`` is certain are in ``p``'s hand;
    ``totals`` points (or round wins); ``last_round`` the previous round's court
    scores and winner.
    """

    round: int
    hands: tuple
    courts: tuple
    set_aside: tuple
    removed: tuple
    turn: int
    starter: int
    step: object             # the turn step under way (a step dataclass)
    known: tuple
    totals: tuple
    last_round: tuple | None
    over: bool
    after: tuple = ()        # Priest take-backs still to come this turn (innermost last)

    # ---- who acts ---------------------------------------------------------------
    def _current_player(self):
        if self.over:
            return TERMINAL
        if type(self.step) is Playing:   # between turns (most positions)
            return self.turn
        match self.step:
            case Dealing() | TreasurerDrawing():
                return CHANCE
            case TraderReturning(receiver=receiver):
                return receiver
        return self.turn

    # ---- legal actions ----------------------------------------------------------
    def _legal_actions(self):
        p = self.turn
        if type(self.step) is Playing:           # between turns (most positions)
            return self._turn_plays()
        match self.step:
            case AssassinAiming(court=c):
                return [Cover(c, pile) for pile in self._assassin_targets(c)]
            case TraderGiving(court=c):
                return [TraderGive(card, p, c) for card in self._distinct(self.hands[p])]
            case TraderReturning(giver=giver, receiver=receiver, card=given):
                return [TraderReturn(card, giver, receiver)
                        for card in self._trader_options(receiver, given)]
            case KnightLooking(victim=victim):
                return self._knight_takes(p, victim)
            case ScholarChoosing(court=c):
                return ([ScholarTake(card, c) for card in self._scholar_options(c)]
                        + [ScholarPass()])
            case PriestAdding(court=c):
                return self._priest_extras(p, c)
            case PriestTakingBack(court=c, priest=k, extra=extra):
                return [PriestTakeBack(card, c) for card in self._priest_options(c, k, extra)]
        raise AssertionError(f"no decision at step {self.step!r}")

    def _turn_plays(self):
        """The card played on a turn: a Squire while one lies out; the Princess to
        your own court only with company (or as your last card)."""
        p = self.turn
        hand = self.hands[p]
        if "Squire" in hand and self._squire_present():
            return self.game.tables.squire_plays      # a Squire lies out
        if "Princess" in hand and not self._princess_ok(p, len(hand)):
            return self._plays(hand, barred=p)      # not the Princess to her own court
        return self._plays(hand)

    def _knight_takes(self, p, victim):
        hand = self.hands[victim]
        if "Squire" in hand:
            return [KnightTake("Squire", p, victim)]     # "you must take it"
        return ([KnightTake(card, p, victim) for card in self._distinct(hand)]
                + [KnightPass(p, victim)])               # "you *may* take 1 card"

    def _priest_extras(self, p, c):
        """The Priest's further card: any hand card, the Princess to your own court
        only with company before the Priest came."""
        out = []
        for card in self._distinct(self.hands[p]):
            if card == "Princess" and c == p and \
                    len(uncovered(self.courts[c])) - 1 < PRINCESS_COMPANY:
                continue
            out.append(PriestExtra(card, c))
        return out + [PriestStop()]

    def _distinct(self, hand):
        """One of each card kind in ``hand``, in follower order (list; anything else,
        such as ``HIDDEN``, is left out)."""
        rank = self.game.components.rank
        return sorted(rank.keys() & hand, key=rank.__getitem__)

    def _plays(self, hand: tuple, barred=None) -> tuple:
        """Each card kind of ``hand`` (in follower order) to each court in turn, except
        the Princess to court ``barred``.  (Not remembered across states: a table keyed
        by hands would let anyone holding the game read other players' hands.)"""
        kinds = set(hand)
        out = []
        for card, plays in self.game.tables.plays:
            if card in kinds:
                if card == "Princess" and barred is not None:
                    plays = plays[:barred] + plays[barred + 1:]
                out += plays
        return tuple(out)

    def _squire_present(self) -> bool:
        for court in self.courts:
            if ("Squire",) in court:
                return True
        return False

    def _princess_ok(self, p, hand_len) -> bool:
        return hand_len == 1 or len(uncovered(self.courts[p])) >= PRINCESS_COMPANY

    def _assassin_targets(self, c):
        court = self.courts[c]
        if ("Guard",) in court:
            return [("Guard",)]
        seen = []
        for pile in court:
            if pile not in seen:
                seen.append(pile)
        return seen

    def _trader_options(self, receiver, given):
        infl = self.game.influence
        if given is HIDDEN or given not in self.hands[receiver]:
            return []                        # (another player's view: not knowable)
        hand = [c for c in self.hands[receiver] if c is not HIDDEN]
        others = _minus(tuple(hand), given)
        if not others:
            return [given]
        higher = [c for c in others if infl[c] > infl[given]]
        if higher:
            return self._distinct(higher)
        pool = hand if self.game.trader_fallback_received else others
        top = max(infl[c] for c in pool)
        return self._distinct([c for c in pool if infl[c] == top])

    def _scholar_options(self, c):
        infl = self.game.influence
        cards = [x for x in uncovered(self.courts[c]) if x not in ("Assassin", "Scholar")]
        low = [x for x in cards if infl[x] <= SCHOLAR_LIMIT]
        return self._distinct(low if low else cards)

    def _priests_this_turn(self, c, priest_index) -> frozenset:
        """Pile indices at court ``c`` of the Priests played this turn whose take-back is
        under way or still to come: none of them may be taken back."""
        return frozenset([priest_index] + [t.priest for t in self.after if t.court == c])

    def _priest_options(self, c, priest_index, extra):
        infl = self.game.influence
        limit = infl[extra]
        out = []
        skip = self._priests_this_turn(c, priest_index)
        for i, pile in enumerate(self.courts[c]):
            if i in skip or len(pile) != 1:
                continue
            card = pile[0]
            if card in ("Assassin", "Fool") or infl[card] >= limit:
                continue
            out.append(card)
        return self._distinct(out)

    def _why_illegal(self, action):
        problem = _malformed(action, self.game)
        if problem is not None:
            return problem
        pd = self.step
        if type(pd) is Playing:
            return self._why_not_played(action)
        match pd, action:
            case AssassinAiming(court=c), Cover():
                if ("Guard",) in self.courts[c]:
                    return _("A {guard} lies at this court: the {assassin} must cover a "
                             "{guard}.").format(guard=_cn("Guard"), assassin=_cn("Assassin"))
                return _("The {assassin} covers the top card of a pile at the court she was "
                         "played to.").format(assassin=_cn("Assassin"))
            case KnightLooking(victim=v), KnightTake() | KnightPass():
                if "Squire" in self.hands[v]:
                    return _("There is a {squire} in that hand: the {knight} must take the "
                             "{squire}.").format(squire=_cn("Squire"), knight=_cn("Knight"))
                return _("The {knight} takes a card from the hand he looked at (or "
                         "none).").format(knight=_cn("Knight"))
            case TraderReturning(), TraderReturn():
                return _("Give back a different card of higher influence than the one "
                         "received; only without one, your card of highest influence.")
            case ScholarChoosing(), ScholarTake():
                return _("The {scholar} takes an uncovered follower of influence "
                         "{limit} or less (only if there is none, one of "
                         "{above} or more) — never an {assassin} or a {scholar}.").format(
                    scholar=_cn("Scholar"), limit=SCHOLAR_LIMIT, above=SCHOLAR_LIMIT + 1,
                    assassin=_cn("Assassin"))
            case PriestAdding(), PriestExtra(card="Princess"):
                return _("The {princess} may go to your own court only when at least "
                         "{company} uncovered followers lay there before your "
                         "turn; the {priest} cannot help.").format(
                    princess=_cn("Princess"), company=PRINCESS_COMPANY, priest=_cn("Priest"))
            case PriestAdding(), PriestExtra():
                return _("The further card comes from your hand and goes to the {priest}'s "
                         "court.").format(priest=_cn("Priest"))
            case PriestTakingBack(), PriestTakeBack():
                return _("Take back an uncovered card of lower influence than the card you "
                         "added — not an {assassin}, not a {fool}, not the {priest} just "
                         "played.").format(assassin=_cn("Assassin"), fool=_cn("Fool"),
                                           priest=_cn("Priest"))
        return _("now the decision is: {pending}").format(pending=self._pending_text())

    def _why_not_played(self, action):
        """Why a card play is refused between sub-decisions (the turn's card)."""
        p = self.turn
        if isinstance(action, Play):
            hand = self.hands[p]
            if action.card not in hand:
                return _("You can only play a card from your hand (no {card} "
                         "there).").format(card=_cn(action.card))
            if not (0 <= action.court < self.game.players):
                return _("There is no such court.")
            if action.card != "Squire" and "Squire" in hand and self._squire_present():
                return _("A {squire} lies at a court, so a player holding a {squire} must play "
                         "a {squire} this turn.").format(squire=_cn("Squire"))
            if action.card == "Princess" and action.court == p:
                return _("The {princess} may go to your own court only when at least "
                         "{company} uncovered followers lie there (or she is your "
                         "last hand card).").format(princess=_cn("Princess"),
                                                    company=PRINCESS_COMPANY)
        return _("It is time to play a card from your hand to a court.")

    # ---- chance -----------------------------------------------------------------
    def _chance_outcomes(self):
        pd = self.step
        if isinstance(pd, Dealing):
            count = self.deal_count()
            if count == 1:          # (a deck of one kind, or nothing left to deal)
                return ((self._sample_chance(random.Random(0)), Fraction(1)),)
            raise TooManyOutcomes(
                _("the deal of round {round} has {count} different outcomes, too many "
                  "to list one by one; shuffle and deal at random instead (each deal is "
                  "equally likely)").format(round=self.round, count=f"{count:,}"), count)
        return self._draws(self.turn, pd.victim)

    def _draws(self, drawer, victim) -> tuple:
        """The Treasurer's blind draw from the victim's hand: each card kind with its
        chance."""
        hand = self.hands[victim]
        share = _shares(len(self.game.deck))[len(hand)]    # share[k] == Fraction(k, n)
        return tuple((TreasurerDraw(c, drawer, victim), share[hand.count(c)])
                     for c in sorted(set(hand), key=_sort_key))

    # ---- the deal of a round ----------------------------------------------------
    def round_deck(self) -> tuple:
        """The cards of the next (or this) round's deal: the game's deck without the
        Assassins out of the game (option ``assassins_return=False``)."""
        if not self.removed or self.game.assassins_return:
            return self.game.deck
        return tuple(sorted((Counter(self.game.deck) - Counter(self.removed)).elements()))

    def deal_layout(self) -> tuple:
        """``(hand sizes per player, set-aside count)`` of this round's deal."""
        g = self.game
        n = g.players
        cards = len(self.round_deck())
        if cards == len(g.deck):
            return (g.hand_size,) * n, g.set_aside_count
        if g.beginner:
            aside = max(cards - g.hand_size * n, 0)
        else:
            aside = min(g.set_aside_count, max(cards - 1, 0))
        dealt = cards - aside
        base, extra = divmod(dealt, n)
        sizes = [base] * n
        for k in range(extra):                 # extra cards from the starter on
            sizes[(self.starter + k) % n] += 1
        return tuple(sizes), aside

    def deal_count(self) -> int:
        """The number of distinct deals of this round (hands and set-aside pile as
        multisets)."""
        sizes, aside = self.deal_layout()
        return _count_deals(tuple(Counter(self.round_deck()).values()),
                            tuple(sorted(sizes + (aside,))))

    def chance_steps(self):
        """The deal of a round as single cards (``State.chance_steps``): the cards set
        aside first, then the hands from seat 0 on (the order ``_sample_chance``
        deals); the finished deal is our ``Deal`` (hands and pile sorted)."""
        if self.current_player() != CHANCE or not isinstance(self.step, Dealing):
            return None
        sizes, aside = self.deal_layout()
        return SequentialDeal(self.round_deck(), (aside,) + sizes,
                              (None,) + tuple(range(len(sizes))), _deal_of_piles)

    def _sample_chance(self, rng):
        if not isinstance(self.step, Dealing):
            return super()._sample_chance(rng)
        deck = list(self.round_deck())
        rng.shuffle(deck)
        sizes, k = self.deal_layout()
        aside = tuple(sorted(deck[:k]))
        hands, i = [], k
        for h in sizes:
            hands.append(tuple(sorted(deck[i:i + h])))
            i += h
        return Deal(tuple(hands), aside)

    def _is_possible_outcome(self, outcome):
        if not isinstance(self.step, Dealing):
            return super()._is_possible_outcome(outcome)
        if type(outcome) is not Deal or _malformed(outcome, self.game) is not None:
            return False
        sizes, k = self.deal_layout()
        if tuple(len(h) for h in outcome.hands) != sizes or len(outcome.set_aside) != k:
            return False
        if any(tuple(sorted(h)) != tuple(h) for h in outcome.hands + (outcome.set_aside,)):
            return False
        total = Counter(outcome.set_aside)
        for h in outcome.hands:
            total.update(h)
        return total == Counter(self.round_deck())

    # ---- moves ------------------------------------------------------------------
    def _refuse_malformed(self, action):
        """A malformed action (``None``, another type, a field of the wrong type such as
        ``Play("Fool", "0")`` or ``Play("Fool", 0.0)``, an object equal to everything)
        raises ``IllegalAction`` naming the problem (the core asks only about actions
        that are not this state's own listed or drawn objects)."""
        problem = _malformed(action, self.game)
        if problem is not None:
            cp = self.current_player()
            if cp >= 0:
                raise IllegalAction(_("{player} may not do that: {problem}").format(
                    player=self.game.player_name(cp), problem=problem))
            if cp == CHANCE:
                raise IllegalAction(_("{problem}: it cannot happen at this chance "
                                      "event").format(problem=problem))
            raise IllegalAction(_("The game is over: no more actions ({problem}).").format(
                problem=problem))

    def _next(self, action):
        s = self._step(action)
        # sub-decisions with a single option that follows from public information are
        # carried out at once (see DECISIONS: hidden ones are always a step)
        while isinstance(s.step, _PUBLIC_STEPS) and not s.over:
            options = s.legal_actions()     # (the public call keeps them for the player)
            if len(options) != 1:
                break
            s = s._step(options[0])
        return s

    def _step(self, a):
        """The position after one action or chance outcome (its rule clause)."""
        match a:
            case Play():
                return self._play(a.card, a.court)
            case Deal():
                return self._deal(a)
            case Cover():
                return self._cover(a.court, a.pile)
            case TraderGive():
                hands, known = self._moved(a.card, self.turn, a.receiver)
                return replace(self, hands=hands, known=known,
                               step=TraderReturning(self.turn, a.receiver, a.card))
            case TraderReturn():
                return self._end_turn(**self._moved_changes(a.card, a.receiver, a.giver))
            case KnightTake() | TreasurerDraw():
                return self._end_turn(**self._moved_changes(a.card, a.victim, self.turn))
            case ScholarTake():
                return self._end_turn(**self._take_public(a.court, a.card, skip=()))
            case PriestExtra():
                return self._priest_extra(a.card, a.court)
            case PriestTakeBack():
                skip = self._priests_this_turn(a.court, self.step.priest)
                return self._end_turn(**self._take_public(a.court, a.card, skip=skip))
            case KnightPass() | ScholarPass() | PriestStop():
                return self._end_turn()
        raise IllegalAction(f"{_action_text(a)} is not an action of King of the Woods")

    def _deal(self, a):
        """A new round: the dealt hands and set-aside cards, empty courts, nobody
        knows another hand; the starter plays first (or the next player with cards)."""
        n = self.game.players
        removed = () if self.game.assassins_return else self.removed
        s = replace(self, hands=tuple(a.hands), set_aside=tuple(a.set_aside),
                    courts=((),) * n, removed=removed, step=PLAYING, after=(),
                    known=_no_knowledge(n), turn=self.starter)
        if not a.hands[self.starter]:
            return s._end_turn()          # (a short deal: the next player with cards)
        return s

    def _cover(self, c, pile):
        """The Assassin covers ``pile`` at court ``c``; on another Assassin, both
        leave the game and the follower below recovers."""
        court = self.courts[c]
        i = court.index(pile)
        if pile[-1] == "Assassin":            # Assassin on Assassin: both leave
            rest = pile[:-1]
            removed = tuple(sorted(self.removed + ("Assassin", "Assassin")))
            if rest:
                court = court[:i] + (rest,) + court[i + 1:]
                return self._end_turn(courts=_set(self.courts, c, court), removed=removed)
            court = court[:i] + court[i + 1:]
            return self._end_turn(courts=_set(self.courts, c, court), removed=removed,
                                  after=_shift(self.after, c, i))
        court = court[:i] + (pile + ("Assassin",),) + court[i + 1:]
        return self._end_turn(courts=_set(self.courts, c, court))

    def _moved(self, card, src, dst):
        """``(hands, known)`` after ``card`` went from ``src``'s hand to ``dst``'s,
        seen by the two of them only."""
        hands = _hand_less(self.hands, src, card)
        hands = _set(hands, dst, _plus(hands[dst], card))
        return hands, self._moved_hidden(card, src, dst, {src, dst})

    def _moved_changes(self, card, src, dst) -> dict:
        hands, known = self._moved(card, src, dst)
        return {"hands": hands, "known": known}

    def _priest_extra(self, card, c):
        """The Priest's further card to court ``c``: played (its ability first) or,
        with ``priest_extra_ability=False``, only laid there; the take-back follows."""
        p = self.turn
        take = PriestTakingBack(c, self.step.priest, card)
        if self.game.priest_extra_ability:
            # the further card is played: its ability first, then the take-back
            return self._play(card, c, after=self.after + (take,))
        hands = _hand_less(self.hands, p, card)
        known = self._played_public(p, card)
        courts = _set(self.courts, c, self.courts[c] + ((card,),))
        return self._end_turn(hands=hands, known=known, courts=courts,
                              after=self.after + (take,))

    def _play(self, card, c, after=None):
        """``card`` from the mover's hand to court ``c``, its ability opened (``after``:
        the Priest take-backs still to come this turn)."""
        p = self.turn
        if after is None:
            after = self.after
        hands = _hand_less(self.hands, p, card)
        known = self._played_public(p, card)
        if card == "Assassin" and self.courts[c]:
            return replace(self, hands=hands, known=known, step=AssassinAiming(c), after=after)
        courts = _set(self.courts, c, self.courts[c] + ((card,),))
        if card in _NO_STEP or (card in INTRIGUE and c == p):
            # nothing to decide (intrigue acts only at a foreign court)
            return self._end_turn(hands=hands, known=known, courts=courts, after=after)
        ability = None                           # the sub-decision the card's ability opens
        if card == "Trader":
            if hands[p]:
                ability = TraderGiving(c)
        elif card == "Knight":
            if hands[c]:
                known = _set(known, p, _set(known[p], c, hands[c]))   # he sees the hand
                ability = KnightLooking(c)
        elif card == "Scholar":
            ability = ScholarChoosing(c)
        elif card == "Treasurer":
            if hands[c]:
                ability = TreasurerDrawing(c)
        elif card == "General":
            hands, known = _swap(hands, known, p, c)
        elif card == "Priest":
            if hands[p]:
                ability = PriestAdding(c, len(courts[c]) - 1)
        if ability is None:
            return self._end_turn(hands=hands, known=known, courts=courts, after=after)
        return replace(self, hands=hands, known=known, courts=courts, step=ability,
                       after=after)

    def _played_public(self, p, card):
        known = self.known
        for row in known:
            if card in row[p]:         # someone knew it was there: it is gone now
                return tuple([_set(row, p, _minus(row[p], card)) if card in row[p] else row
                              for row in known])
        return known

    def _moved_hidden(self, card, src, dst, witnesses):
        out = []
        for o, row in enumerate(self.known):
            if o in witnesses:
                if o != src:
                    row = _set(row, src, _sub_known(row[src], card))
                if o != dst:
                    row = _set(row, dst, _plus(row[dst], card))
            elif o != src and row[src]:
                row = _set(row, src, ())      # a card left unseen: knowledge is lost
            out.append(row)
        return tuple(out)

    def _take_public(self, c, card, skip) -> dict:
        """The changes when the player to move takes ``card`` from court ``c`` into hand
        in view of everyone (``skip``: indices of piles that may not be taken)."""
        p = self.turn
        court = self.courts[c]
        i = next(i for i, pile in enumerate(court) if pile == (card,) and i not in skip)
        court = court[:i] + court[i + 1:]
        hands = _set(self.hands, p, _plus(self.hands[p], card))
        known = tuple(row if o == p else _set(row, p, _plus(row[p], card))
                      for o, row in enumerate(self.known))
        return {"courts": _set(self.courts, c, court), "hands": hands, "known": known,
                "after": _shift(self.after, c, i)}

    def _end_turn(self, hands=None, known=None, courts=None, removed=None, after=None):
        """The ability under way is done, the position changed by the fields given (a
        field not given stays; ``after``: the Priest take-backs still to come): the
        next Priest take-back of this turn, else the next player clockwise who holds
        cards, else the round ends."""
        hands = self.hands if hands is None else hands
        known = self.known if known is None else known
        courts = self.courts if courts is None else courts
        removed = self.removed if removed is None else removed
        if after is None:
            after = self.after
        while after:
            take, after = after[-1], after[:-1]
            s = replace(self, hands=hands, known=known, courts=courts, removed=removed,
                        step=take, after=after)
            if s._priest_options(take.court, take.priest, take.extra):
                return s
        n = len(hands)
        for step in range(1, n + 1):
            q = (self.turn + step) % n
            if hands[q]:
                return replace(self, hands=hands, known=known, courts=courts, removed=removed,
                               turn=q, step=PLAYING, after=())
        return replace(self, hands=hands, known=known, courts=courts, removed=removed,
                       step=PLAYING, after=())._end_round()

    def _end_round(self):
        g = self.game
        infl = g.influence
        scores = tuple(court_score(c, infl) for c in self.courts)
        best = max(scores)
        tied = [p for p in range(g.players) if scores[p] == best]
        if len(tied) > 1:
            princess = [p for p in tied if ("Princess",) in self.courts[p]]
            if princess:
                tied = princess
        order = [(self.starter + k) % g.players for k in range(g.players)]
        winner = next(p for p in order if p in tied)
        if g.mode == "points":
            totals = tuple(t + s for t, s in zip(self.totals, scores))
        else:
            scored = tied if len(tied) == 1 or g.round_tie == "shared" else ()
            totals = tuple(t + (1 if p in scored else 0) for p, t in enumerate(self.totals))
        over = g.one_round or max(totals) >= g.goal or self.round >= MAX_ROUNDS
        last = (self.round, scores, tuple(tied), winner)
        if over:
            return replace(self, totals=totals, last_round=last, over=True, step=PLAYING)
        return replace(self, totals=totals, last_round=last, round=self.round + 1,
                       starter=winner, turn=winner, step=DEALING)

    def unfinished(self):
        """``None`` when the game ended by its rules; else why the safeguard cut it."""
        g = self.game
        if not self.over or g.one_round or max(self.totals) >= g.goal:
            return None
        if g.mode == "points":
            return _("stopped by the engine after {rounds} rounds (a safeguard, no rule): "
                     "nobody reached {goal} points").format(rounds=self.round, goal=g.goal)
        return _("stopped by the engine after {rounds} rounds (a safeguard, no rule): "
                 "nobody reached {goal} round wins").format(rounds=self.round, goal=g.goal)

    # ---- results ----------------------------------------------------------------
    def _returns(self):
        g = self.game
        if g.one_round:
            win = self.last_round[2]      # the round's winners after the Princess tie-break
        else:
            win = best_players(self.totals)
        return win_shares(win, g.players)

    def scores(self):
        return self.totals

    def court_scores(self) -> tuple:
        """Each court's influence if the round ended now (``FOOL_RUIN`` Fools -> 0)."""
        return tuple(court_score(c, self.game.influence) for c in self.courts)

    def round_over(self) -> bool:
        """True between rounds (at the next deal) and at the end of the game."""
        return self.over or (isinstance(self.step, Dealing)
                             and self.last_round is not None)

    def cards(self) -> Counter:
        """Every card of this round's deck where it lies now (for conservation checks)."""
        total = Counter(self.set_aside) + Counter(self.removed)
        if isinstance(self.step, AssassinAiming):
            total["Assassin"] += 1        # in the player's hand-to-court move, target pending
        for h in self.hands:
            total.update(h)
        for court in self.courts:
            for pile in court:
                total.update(pile)
        return total

    # ---- hidden information -----------------------------------------------------
    def view(self, player):
        """What ``player`` sees: own hand, the courts, hand sizes of the others with
        the cards they know are there, and nothing of the set-aside cards."""
        n = self.game.players
        hands = []
        for q in range(n):
            if q == player:
                hands.append(self.hands[q])
            else:
                k = self.known[player][q]
                hands.append(tuple(k) + (HIDDEN,) * (len(self.hands[q]) - len(k)))
        known = tuple(row if o == player else HIDDEN for o, row in enumerate(self.known))
        pd = self.step
        if isinstance(pd, TraderReturning) and player not in (pd.giver, pd.receiver):
            pd = replace(pd, card=HIDDEN)
        return replace(self, hands=tuple(hands), set_aside=(HIDDEN,) * len(self.set_aside),
                       known=known, step=pd)

    def knowledge(self, player) -> dict:
        """``{other player: cards known to be in their hand}`` for ``player``."""
        row = self.known[player]
        return {q: row[q] for q in range(self.game.players) if q != player and row[q]}

    # ---- words (the pictures are in render.py, found by the core by name) --------
    def _pending_text(self) -> str:
        """What the game waits for, as a sentence fragment ("Player 2 plays a card")."""
        return _pending_text(self)

    def _describe(self):
        """A short line: what happens next, or the winners (``describe``, in the
        game's language)."""
        if self.current_player() == TERMINAL:
            shares = self.returns()
            winners = [self.game.player_name(i) for i, r in enumerate(shares) if r > 0]
            return _("Game over. Winner: {winners}").format(winners=", ".join(winners))
        text = _pending_text(self)
        return text[0].upper() + text[1:] + "."


def _pending_text(state) -> str:
    """What the game waits for, in words (``describe``, ``_why_illegal``)."""
    p = state.turn
    g = state.game
    name = g.player_name

    def cn(card):
        return card_name(card, g)
    if state.over:
        return _("the game is over")
    match state.step:
        case Playing():
            return _("{player} plays a card to a court").format(player=name(p))
        case Dealing():
            return _("the deal of round {round}").format(round=state.round)
        case AssassinAiming(court=c):
            return _("{player} chooses what the {assassin} covers at {owner}'s court").format(
                player=name(p), assassin=cn("Assassin"), owner=name(c))
        case TraderGiving(court=c):
            return _("{player} chooses a card to give {owner} ({trader})").format(
                player=name(p), owner=name(c), trader=cn("Trader"))
        case TraderReturning(giver=giver, receiver=receiver, card=card):
            if card is HIDDEN:
                got = _("a card")
            elif language() == "en":
                got = f"the {card}"
            else:
                got = cn(card)
            return _("{receiver} received {card} and gives a card back to {giver} "
                     "({trader})").format(receiver=name(receiver), card=got, giver=name(giver),
                                          trader=cn("Trader"))
        case KnightLooking(victim=v):
            return _("{player} looks at {victim}'s hand and may take a card "
                     "({knight}; a {squire} must be taken)").format(
                player=name(p), victim=name(v), knight=cn("Knight"), squire=cn("Squire"))
        case ScholarChoosing(court=c):
            return _("{player} may take a follower from {owner}'s court ({scholar})").format(
                player=name(p), owner=name(c), scholar=cn("Scholar"))
        case PriestAdding(court=c):
            return _("{player} may play one more card to {owner}'s court ({priest})").format(
                player=name(p), owner=name(c), priest=cn("Priest"))
        case PriestTakingBack(court=c, extra=extra):
            return _("{player} takes back a card of lower influence than the {card} "
                     "from {owner}'s court ({priest})").format(
                player=name(p), card=cn(extra), owner=name(c), priest=cn("Priest"))
        case TreasurerDrawing(victim=v):
            return _("the {treasurer} draws a random card from {victim}'s hand").format(
                treasurer=cn("Treasurer"), victim=name(v))
    return str(state.step)
