"""My Kingdom for a Horse — the rules, top to bottom.

See the package docstring (``kingdoms.horse``) for the rules in short and for every
modelling choice.  The state is one frozen dataclass; each player is a frozen
``Farm`` (herd counts, fence bitmask, hand, permanent cards).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import _
from kingdoms.core.scoring import win_shares
from kingdoms.core.protocol import (CHANCE, HIDDEN, TERMINAL, Game, GameOptionError, State,
                                    replace)

from . import pasture
from .actions import (PLAYER_NAMES, DealCard, Discard, DrawCard, EndEffects, EndFences,
                      EndTrading, KeepDice, LiftFence, PlaceFence, PlayCard, PutFence, Roll,
                      RollDice, RunAway, TakeDie, Trade, UseCattle, UseDie)
from .components import SPECIES, Components, components_of, sheep_value
from .dice import (CATTLE_HALVES, HALF_CATTLE, MULTIPLY, die_names, keep_options, king_face,
                   king_names, reroll, roll_counts)
from .steps import (BEFORE_ROLL, DEALING, DISCARDING, EFFECTS, FINAL_TRADING, GAME_OVER,
                    KEEPING, MORITZ_TURN, OTHERS_CHOOSE, ROLLING, TRADING, BeforeRoll, Dealing,
                    Discarding, Effects, FenceJob, FinalTrading, GameOver, Housing, Keeping,
                    MoritzTurn, OthersChoose, Rerolling, Rolling, Step, Trading)

__all__ = ["Horse", "HorseState", "Farm"]


SHEEP, PIG, CATTLE, HORSE = range(4)
# "You may RE-ROLL any dice up to 2 times" (rulebook, the dice phase).
REROLLS = 2
# An empty supply: "All players who have MORE THAN 3 ANIMALS of this species must
# immediately let 1 animal of this species run away" (rulebook, "Oh no, the animal
# supply is empty!").
REFILL_ABOVE = 3


# ============================================================== the game

@dataclass(frozen=True)
class Horse(Game):
    """My Kingdom for a Horse (1-4 players; 1 player = the solo game against Moritz).

    Options: ``easy`` (the easy short game: no farm cards, 1 of each species wins),
    ``max_rounds`` (an engine safeguard, NOT a rule: after this many rounds the game
    is cut, see ``HorseState.unfinished``; ``None`` = no limit), ``data`` (path of an
    edited data file; its content, not its path, decides the components),
    ``short_supply`` (how a receiver is paid when the supply runs short, below).

    ``short_supply``: the rulebook says "remember how many animals you would still
    receive", refill the supply (everyone with more than 3 of the species lets 1 run
    away, repeated as needed), then take them.  ``"literal"`` (default): the receiver
    first takes what is left in the supply, then the refill happens (in which the
    receiver too may have to give one back), then they take the rest.  Example: 3
    sheep, 1 sheep in the supply, 2 owed, another player with 5 sheep: take 1 (4),
    refill (you 3, the other 4), take 1: you end with 4.  ``"refill_first"``: the
    supply is refilled before the receiver takes anything (the engine's reading before
    issue 13; in the example you end with 5).

    Returns: each player's share of the win (Fractions summing to 1; a full tie shares).
    Solo game: ``returns()`` is ``(your share,)`` of a win contested with Moritz: 1 if
    you win, 1/2 if you and Moritz tie in every species, 0 if Moritz wins; Moritz holds
    the rest (``1 - r``), so the shares of you and Moritz sum to 1.  A game cut by the
    ``max_rounds`` safeguard is not won by anyone: ``unfinished()`` says so and
    ``returns()`` then splits equally among everyone (Moritz included in the solo
    game: ``(1/2,)``) unless some player(s) hold the set at the cut, who then share as
    in a normal ending.
    """

    name = "horse"
    title = "My Kingdom for a Horse"
    min_players = 1
    max_players = 4
    hidden_information = True       # the farm cards in a hand are secret

    players: int = 2
    easy: bool = False
    max_rounds: int | None = 30
    data: str | None = None
    short_supply: str = "literal"
    comp: Components = field(default=None, compare=True, repr=False, init=False)

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.easy, bool):
            raise GameOptionError(_("easy must be True or False, not {value}").format(
                value=repr(self.easy)))
        if self.max_rounds is not None and (type(self.max_rounds) is not int
                                            or not 1 <= self.max_rounds <= 10_000):
            raise GameOptionError(_("max_rounds must be an int from 1 to 10000, or None"))
        if self.short_supply not in ("literal", "refill_first"):
            raise GameOptionError(_("short_supply must be 'literal' or 'refill_first', "
                                    "not {value}").format(value=repr(self.short_supply)))
        if self.data is not None:
            if not isinstance(self.data, (str, os.PathLike)):
                raise GameOptionError(_("data must be the path of a data file, not "
                                        "{value}").format(value=repr(self.data)))
            object.__setattr__(self, "data", os.fspath(self.data))
        # the data file read once (Game.game_data): what game_data() shows = what is played
        object.__setattr__(self, "comp", components_of(self.game_data(), self.easy))

    @property
    def components(self) -> Components:
        """The parts in the box (``Components.from_data``; ``comp`` is the short name)."""
        return self.comp

    @classmethod
    def data_ranges(cls) -> dict[str, tuple]:
        """The data file's schema (see ``Game.data_ranges``): ``components.LIMITS``
        applied to the keys of ``components.DATA_KEYS``."""
        from .components import data_ranges
        return data_ranges()

    @classmethod
    def configurations(cls):
        """Every player count (1 = solo against Moritz) and the easy short game."""
        return [{"players": k} for k in range(1, 5)] + [
            {"players": 1, "easy": True}, {"players": 3, "easy": True}]

    # -- every action, numbered (kingdoms.interop.openspiel) --------------------------
    def action_universe(self) -> tuple:
        """Every action and chance outcome this game can ever produce, in a fixed order
        from the components: Rolls (King faces as sorted multisets, then the pink
        face), DealCard and DrawCard (per player, cards in data order), RollDice,
        KeepDice (kept multisets by size, keep the pink die or not), UseDie, UseCattle,
        PlayCard, EndEffects, Discard (every sub-multiset of a hand, by size), TakeDie
        (``None`` last), PlaceFence/LiftFence/PutFence per border, EndFences, RunAway per
        species, Trade (per species, every rate the components allow, every count the
        supply allows) and EndTrading.  A superset of what play reaches."""
        from itertools import combinations_with_replacement as multisets
        c = self.comp
        faces = sorted({f.name for f in c.king_faces})
        mults = sorted(set(c.mult_faces), key=SPECIES.index)
        dice = tuple(faces) + tuple(f"{MULTIPLY}{m}" for m in mults)
        names = tuple(card.name for card in c.cards)
        n = range(self.players)
        out = [Roll(k, m) for k in multisets(faces, c.king_count) for m in mults]
        out += [DealCard(p, x) for p in n for x in names]
        out += [DrawCard(p, x) for p in n for x in names]
        out.append(RollDice())
        out += [KeepDice(k, flag) for r in range(c.king_count, -1, -1)
                for k in multisets(faces, r) for flag in (True, False)]
        out += [UseDie(d) for d in dice]
        out.append(UseCattle())
        out += [PlayCard(x) for x in names]
        out.append(EndEffects())
        copies = {card.name: card.copies for card in c.cards}
        hands = sorted(names)
        for r in range(0, c.hand + 1):
            out += [Discard(t) for t in multisets(hands, r)
                    if all(t.count(x) <= copies[x] for x in set(t))]
        out += [TakeDie(d) for d in dice] + [TakeDie(None)]
        out += [PlaceFence(e) for e in range(pasture.EDGES)]
        out += [LiftFence(e) for e in range(pasture.EDGES)]
        out += [PutFence(e) for e in range(pasture.EDGES)]
        out.append(EndFences())
        out += [RunAway(sp) for sp in SPECIES]
        for i, rate in enumerate(c.trade_rates):
            rates = {rate} | {card.rate[1] for card in c.cards
                              if card.rate and card.rate[0] == SPECIES[i]}
            for r in sorted(rates):
                out += [Trade(SPECIES[i], k * r, SPECIES[i + 1], k)
                        for k in range(1, c.supply[i] // r + 1)]
        out.append(EndTrading())
        return tuple(out)

    def max_game_length(self) -> int:
        """A true bound on the number of actions and chance outcomes in a game, from the
        ``max_rounds`` safeguard (``None``: no bound, refused).  At most
        ``max_rounds x players`` turns (solo: rounds, each with Moritz's rolls) and one
        final trading round; in a turn: a card and the roll, at most 2 re-rolls, one use
        per die, one discard and the draws, one die per other player, up to 3 trades and
        an end per player, a fence job of at most ``3 x fences + 1`` steps per die or
        card received, and at most ``A`` animals let run away per animal received
        (``A`` = every animal in the game) plus those held."""
        if self.max_rounds is None:
            raise ValueError("without max_rounds the game has no bound on its length; "
                             "give max_rounds (the engine's safeguard)")
        c = self.comp
        n = self.players
        k = c.king_count
        total = sum(c.supply)
        fmax = max([f.fences for f in c.king_faces] + [card.fences for card in c.cards] + [0])
        # receiving events: up to 4 species per die (own and taken), the half cattle, a
        # card's gains and multiply, one per trade
        receipts = 4 * (k + 1 + n) + 1 + 5 + 3 * n
        per_turn = (2 + 6 + (k + 2) + 2 + (c.hand + 1) + n + 4 * n
                    + (3 * fmax + 1) * (k + n + 1) + total * (receipts + 1))
        turns = self.max_rounds * n + 1
        moritz = self.max_rounds * c.moritz_rolls if self.solo else 0
        return n * c.hand + turns * per_turn + moritz

    @property
    def solo(self) -> bool:
        return self.players == 1

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player]

    def objectives(self) -> dict:
        """What a solver or tree may maximise (``kingdoms.core.solve``): the share of
        the win, or each herd's value in sheep (sheep 1, pig 2, cattle 6, horse 24)."""
        return {"share of the win": lambda s: s.returns(),
                "herd value in sheep": lambda s: tuple(s.herd_values())}

    def initial_state(self) -> "HorseState":
        c = self.comp
        supply = list(c.supply)
        farms = []
        for seat in range(self.players):
            nfences, herd = c.seats[seat]
            fences = c.layout | (c.extra_fence if nfences > pasture.popcount(c.layout) else 0)
            for i in range(4):
                supply[i] -= herd[i]
            farms.append(Farm(herd=tuple(herd), fences=fences))
        moritz = None
        if self.solo:
            moritz = c.moritz_start
            supply = [a - b for a, b in zip(supply, moritz)]
        deck = tuple(card.copies for card in c.cards)
        step = ROLLING if self.easy or not c.hand or not sum(deck) else DEALING
        return HorseState(self, farms=tuple(farms), supply=tuple(supply), deck=deck,
                          deck_count=sum(deck), discard=tuple(0 for _ in deck),
                          step=step, moritz=moritz)


@dataclass(frozen=True)
class Farm:
    """One player's pasture and cards."""

    herd: tuple = (0, 0, 0, 0)     # sheep, pig, cattle, horse
    fences: int = 0                # bitmask of the 31 borders
    hand: tuple = ()               # card names, sorted
    tableau: tuple = ()            # infinity cards in front of the player

    def fits(self, per_field: int = 2) -> bool:
        """Does the herd fit the fenced areas (``per_field`` animals a field)?"""
        return pasture.fits_cached(self.fences, self.herd, per_field)


# ============================================================== the state

# Who acts at each kind of step (``HorseState.actor``; a fence job comes first):
# the active player, the player ``seat`` places after them, or chance.
_ACTIVE_DECIDES = frozenset({BeforeRoll, Keeping, Effects, Discarding})
_SEAT_DECIDES = frozenset({OthersChoose, Trading, FinalTrading, Housing})
_CHANCE_STEPS = frozenset({Dealing, Rolling, Rerolling, MoritzTurn})
# The steps that may move on by themselves (``HorseState._settle``), and the ending
# ones (no set can trigger the end any more).
_SETTLING = frozenset({BeforeRoll, Housing, OthersChoose, Trading})
_ENDING = frozenset({FinalTrading, GameOver})


@dataclass(frozen=True)
class HorseState(State):
    farms: tuple
    supply: tuple
    deck: tuple                    # copies left in the farm deck, per card type
    deck_count: int
    discard: tuple                 # copies in the discard pile, per card type
    step: Step                     # what the game waits for (``steps``)
    active: int = 0
    round: int = 1
    dice: tuple | None = None      # (king faces sorted, mult species)
    rerolls_left: int = REROLLS
    unused: tuple = ()             # active player's dice not yet carried out
    taken: tuple = ()              # dice chosen by the others
    card_played: bool = False
    draws: tuple = ()              # players still to draw one card each, in order
    fence_job: FenceJob | None = None   # fences received and being placed (on top of step)
    seat: int = 0                  # offset from the active player (others / trading)
    traded: tuple = ()             # species given in this trading step
    chosen: bool = False           # the other player at ``seat`` has chosen a die
    end_triggered: bool = False
    moritz: tuple | None = None    # solo: Moritz's herd
    moritz_rolls: int = 0
    cut: bool = False              # the max_rounds safeguard ended the game (not a rule)

    # ---------------------------------------------------------------- who moves
    @property
    def phase(self) -> str:
        """The step's short name (``"keep"``, ``"trade"`` ...), for people and lessons."""
        return self.step.name

    def actor(self) -> int | None:
        """The player whose step it is (ignoring chance), by step."""
        job = self.fence_job
        if job is not None:
            return job.player
        kind = self.step.__class__            # (speed: a set look-up, not a match)
        if kind in _ACTIVE_DECIDES:
            return self.active
        if kind in _SEAT_DECIDES:
            return (self.active + self.seat) % self.game.players
        return None

    def _current_player(self):
        kind = self.step.__class__
        if kind is GameOver:
            return TERMINAL
        if kind in _CHANCE_STEPS or self.draws:
            return CHANCE
        # ``actor()``, written out (speed: asked at every state)
        job = self.fence_job
        if job is not None:
            return job.player
        if kind in _ACTIVE_DECIDES:
            return self.active
        if kind in _SEAT_DECIDES:
            return (self.active + self.seat) % self.game.players
        return None

    def must_release(self) -> bool:
        """At the end of a phase the actor's herd does not fit their fenced areas:
        they let animals run away (their choice of species) until it does."""
        return isinstance(self.step, Housing) and self.fence_job is None

    def unfinished(self) -> str | None:
        """None when the game ended by the rules; at a game cut by the ``max_rounds``
        safeguard, a sentence saying so."""
        if not self.cut or not isinstance(self.step, GameOver):
            return None
        return _("The engine stopped this game after {rounds} rounds "
                 "(the max_rounds safeguard, not a rule): nobody had triggered the end, "
                 "so it has no real winner.").format(rounds=self.game.max_rounds)

    # ---------------------------------------------------------------- chance
    def _chance_outcomes(self):
        step = self.step
        if self.draws or isinstance(step, Dealing):
            player = self.draws[0] if self.draws else self._deal_target()
            deck = self.deck if self.deck_count else self.discard
            dealing = isinstance(step, Dealing) and not self.draws
            return _card_outcomes(self.game.comp, player, dealing, deck)
        if isinstance(step, Rerolling):
            return _reroll_outcomes(self.game.comp, self.dice, step)
        return _roll_outcomes(self.game.comp)

    def _sample_chance(self, rng):
        """Speed only: roll the dice directly (same probabilities as the listing, much
        faster than walking 168 outcomes); card draws use the listing."""
        step = self.step
        if self.draws or isinstance(step, Dealing):
            return super()._sample_chance(rng)
        comp = self.game.comp
        names = king_names(comp)
        if isinstance(step, Rerolling):
            kept, keep_mult = step.kept, step.keep_mult
            king = tuple(sorted(kept + tuple([rng.choice(names)
                                              for _ in range(comp.king_count - len(kept))])))
            mult = self.dice[1] if keep_mult else rng.choice(comp.mult_faces)
        else:
            king = tuple(sorted([rng.choice(names) for _ in range(comp.king_count)]))
            mult = rng.choice(comp.mult_faces)
        return _roll(king, mult)

    def _is_possible_outcome(self, outcome):
        return outcome in dict(self._chance_list())

    def _deal_target(self) -> int:
        dealt = sum(len(f.hand) for f in self.farms)
        return dealt // self.game.comp.hand

    # ---------------------------------------------------------------- decisions
    def _legal_actions(self):
        if self.fence_job is not None:
            return self._fence_actions()
        # the player to move is the actor (speed: as ``legal_actions`` found it)
        me = self.__dict__.get("_cp")
        if me is None or me < 0:
            me = self.actor()
        farm = self.farms[me]
        match self.step:                    # (the most frequent steps first)
            case Effects():
                return _effects_actions(self.unused, self._playable(farm), farm.herd)
            case Trading() | FinalTrading():
                may_trade = not self.traded or self.trades_all(me)
                return _trading_actions(farm.herd, self.rates(me) if may_trade else None,
                                        self.traded)
            case Keeping():
                return _keep_actions(self.dice) + self._playable(farm)
            case OthersChoose():
                return _take_actions(self.available_dice())
            case BeforeRoll():
                return self._playable(farm) + (_ROLL_DICE,)
            case Housing():
                return _run_actions(farm.herd)
            case Discarding():
                return _discard_actions(farm.hand)
        raise AssertionError(f"no decisions in the step {self.step.name}")

    def _may_play_card(self, farm) -> bool:
        """Whether the active player may still play a farm card in this dice phase, by
        public facts only (a card not played yet, not the easy game, a hand); whether a
        card in hand is affordable is left to ``_playable``."""
        return not (self.card_played or self.game.easy or not farm.hand)

    def _playable(self, farm) -> tuple:
        """The farm cards the active player may play now (one per dice phase)."""
        if not self._may_play_card(farm):
            return ()
        return _playable(self.game.comp, farm.hand, farm.herd)

    def available_dice(self) -> tuple:
        """The dice of the final result that no other player has chosen yet."""
        return _dice_left(self.dice, self.taken)

    def rates(self, player: int) -> tuple:
        """This player's trade rates (cards may lower one)."""
        return _rates(self.game.comp, self.farms[player].tableau)

    def trades_all(self, player: int) -> bool:
        if isinstance(self.step, FinalTrading):
            return True
        return _trades_all(self.game.comp, self.farms[player].tableau)

    def _fence_actions(self):
        job = self.fence_job
        fences = self.farms[job.player].fences
        if job.lifted >= 0:
            return _put_actions(fences)
        supply = self.game.comp.fences_per_player - fences.bit_count()   # (popcount)
        return _fence_job_actions(fences, job.placed < job.received and supply > 0,
                                  job.moved < job.received)

    def _why_illegal(self, action):
        if self.fence_job is not None:
            if self.fence_job.lifted >= 0:
                return _("A lifted fence must be put on a free border first.")
            if isinstance(action, PlaceFence):
                return _("You may place at most as many new fences as you received, from "
                        "your own supply, on a free border.")
            if isinstance(action, LiftFence):
                return _("You may move at most as many placed fences as you received.")
            return _("Finish placing or moving your fences first.")
        if isinstance(self.step, Housing):
            return _("At the end of a phase animals that are not completely fenced in run "
                    "away: let animals run away until your herd fits your fenced areas.")
        if isinstance(action, PlayCard):
            if self.card_played:
                return _("You may play at most 1 farm card in your dice phase.")
            if not isinstance(self.step, (BeforeRoll, Keeping, Effects)):
                return _("You play a farm card only in your own dice phase.")
            return _("You can play only a card in your hand whose cost you can pay.")
        if isinstance(action, RollDice):
            return _("You roll the dice at the start of your dice phase.")
        if isinstance(action, UseCattle):
            return _("Half cattle give 1 cattle only with 2 or 3 of them; alone it has no effect.")
        if isinstance(action, UseDie):
            return _("You can carry out each die of your final result once.")
        if isinstance(action, TakeDie):
            return _("Each other player chooses a different die of the final result.")
        if isinstance(action, Trade):
            return _("In a trading phase you trade any number of ONE species for the next "
                    "species up (2 sheep: 1 pig, 3 pigs: 1 cattle, 4 cattle: 1 horse), "
                    "giving only animals you own.")
        if isinstance(action, KeepDice):
            return _("You may re-roll any of your dice at most twice, right after a roll; "
                    "keep only dice that show.")
        if isinstance(action, Discard):
            return _("Only when you played no farm card may you discard cards from your "
                    "hand (and draw as many), at the end of your dice phase.")
        if isinstance(action, RunAway):
            return _("You can only let animals you own run away, and only on your own step.")
        if isinstance(action, (PlaceFence, LiftFence, PutFence, EndFences)):
            return _("Fences are placed or moved only right after you receive fences.")
        if isinstance(action, (EndEffects, EndTrading)):
            return _("It is the {step} step now.").format(step=_(self.step.name))
        return None

    # ---------------------------------------------------------------- transitions
    def _next(self, a):
        """One step.  ``apply`` hands over only this state's own listed actions (or
        the outcome it drew): anything else, even an object equal to one with fields
        of other types, it refuses first with its own message; so ``a`` is well
        formed (``actions.well_formed``) and is not checked again here.  The next
        state is built as ONE copy of this one, changed in place by the turn steps
        (``_with``) before anyone sees it."""
        return _STEPS[a.__class__](replace(self), a)._settle()

    def _with(self, **changes):
        """Speed only: set fields of the state ``_next`` is building (a fresh copy
        that nobody else holds yet) and return it.  Never on a published state."""
        self.__dict__.update(changes)
        return self

    def _settle(self):
        """Move on by itself once a player's step is fully carried out (their die's
        fences placed), note a housed set (it triggers the end) and house the herds
        at the end of a phase."""
        s = self
        comp = s.game.comp
        goal, per_field = comp.goal, comp.per_field
        while True:
            kind = s.step.__class__             # (the step is the same until the match)
            if s.draws and s.deck_count == 0 and not any(s.discard):
                s = s._with(draws=())           # no card left anywhere to draw
            if not s.end_triggered and kind not in _ENDING:
                # "As soon as you have at least 2 horses, 2 cattle, 2 pigs and 2 sheep":
                # a set that does not fit the fences (and so must run away at the
                # phase end) does not count until it is housed
                for f in s.farms:
                    if min(f.herd) >= goal and f.fits(per_field):
                        s = s._with(end_triggered=True)
                        break
            if s.fence_job is not None or kind not in _SETTLING:
                return s
            match s.step:
                case BeforeRoll():
                    # no card may be played (an empty hand, a card played already,
                    # the easy game: all public): roll right away.  Whether a card in
                    # hand is affordable is NOT asked: the others would learn it from
                    # whether this step is offered
                    if not s._may_play_card(s.farms[s.active]):
                        s = s._with(step=ROLLING)
                    return s
                case Housing():
                    if not s.farms[s.actor()].fits(per_field):
                        return s
                    s = s._house_from(s.seat + 1, s.step.then)
                    continue
                case OthersChoose() if s.chosen:
                    s = s._with(seat=s.seat + 1, chosen=False)._after_other()
                    continue
                case Trading() if s.traded and not s.trades_all(s.actor()):
                    s = s._with(seat=s.seat + 1, traded=())._after_trader()
                    continue
            return s

    def _phase_end(self, then: Step | None):
        """The end of a phase: "animals that are not completely fenced in run away
        automatically" — each player whose herd does not fit (from the active player,
        clockwise) lets animals run away until it does; then the step ``then`` follows
        (``None``: the turn ends)."""
        return self._house_from(0, then)

    def _house_from(self, k: int, then: Step | None):
        """House the herds from seat ``k`` on, then go on to ``then``."""
        n = self.game.players
        per_field = self.game.comp.per_field
        for seat in range(k, n):
            if not self.farms[(self.active + seat) % n].fits(per_field):
                return self._with(step=Housing(then), seat=seat)
        match then:
            case Trading():
                return self._with(step=TRADING, seat=0, traded=())
            case GameOver():
                return self._with(step=GAME_OVER, seat=0)
        return self._end_turn()                         # a new turn: seat 0 again

    def _roll_dice(self, a: RollDice):
        return self._with(step=ROLLING)

    def _run_away(self, a: RunAway):
        me = self.actor()
        s = SPECIES.index(a.species)
        return self._set_herd(me, _add(self.farms[me].herd, s, -1), supply_delta=(s, 1))

    def _keep(self, a: KeepDice):
        if len(a.kept) == len(self.dice[0]) and a.keep_mult:
            return self._to_effects()
        return self._with(step=Rerolling(a.kept, a.keep_mult))

    def _use_die(self, a: UseDie):
        unused = list(self.unused)
        unused.remove(a.die)
        s = self._with(unused=tuple(unused))
        return s._die_effect(self.active, a.die)

    def _use_cattle(self, a: UseCattle):
        s = self._with(unused=tuple(d for d in self.unused if d != HALF_CATTLE))
        return s._receive(self.active, CATTLE, 1)

    def _end_effects(self, a: EndEffects):
        if self._may_play_card(self.farms[self.active]):
            return self._with(step=DISCARDING, unused=())
        return self._to_others()

    def _discard(self, a: Discard):
        farm = self.farms[self.active]
        hand = list(farm.hand)
        discard = list(self.discard)
        for c in a.cards:
            hand.remove(c)
            discard[_card_index(self.game.comp, c)] += 1
        s = self._set_farm(self.active, replace(farm, hand=tuple(hand)),
                           discard=tuple(discard), draws=(self.active,) * len(a.cards))
        return s._to_others()

    def _take_die(self, a: TakeDie):
        if a.die is None:
            return self._with(chosen=True)
        me = self.actor()
        return self._with(taken=self.taken + (a.die,), chosen=True)._die_effect(me, a.die)

    def _play_farm_card(self, a: PlayCard):
        return self._play_card(a.card)

    def _trade_up(self, a: Trade):
        me = self.actor()
        i = SPECIES.index(a.give)
        farm = self.farms[me]
        traded = self.traded + (a.give,)
        if self.supply[i + 1] >= a.count:
            # speed only: the usual case (the supply holds the new animals) in one copy;
            # the same as paying and then receiving below
            herd = _add(_add(farm.herd, i, -a.pay), i + 1, a.count)
            supply = _add(_add(self.supply, i, a.pay), i + 1, -a.count)
            return self._set_farm(me, replace(farm, herd=herd), supply=supply,
                                  traded=traded)
        s = self._set_herd(me, _add(farm.herd, i, -a.pay), supply_delta=(i, a.pay),
                           traded=traded)
        return s._receive(me, i + 1, a.count)

    def _end_trading(self, a: EndTrading):
        return self._with(seat=self.seat + 1, traded=())._after_trader()

    # ---- dice
    def _rolled(self, a: Roll):
        match self.step:
            case MoritzTurn():
                return self._moritz_roll(a)
            case Rerolling():
                left = self.rerolls_left - 1
            case _:
                left = REROLLS
        dice = (a.king, a.mult)
        if left == 0:                       # no re-roll left: carry out the dice
            return self._with(dice=dice, rerolls_left=left, step=EFFECTS,
                           unused=die_names(dice))
        return self._with(dice=dice, rerolls_left=left, step=KEEPING)

    def _to_effects(self):
        return self._with(step=EFFECTS, unused=die_names(self.dice))

    def _die_effect(self, player: int, die: str):
        comp = self.game.comp
        if die.startswith(MULTIPLY):
            return self._multiply(player, SPECIES.index(die[len(MULTIPLY):]))
        face = king_face(comp, die)
        s = self
        for i, n in enumerate(face.animals):
            if n:
                s = s._receive(player, i, n)
        if face.fences:
            s = s._start_fences(player, face.fences)
        return s            # a lone half cattle (chosen by another player) does nothing

    def _multiply(self, player: int, sp: int):
        herd = self.farms[player].herd
        n = herd[sp] // 2
        if n and any(_card(self.game.comp, c).multiply_bonus == SPECIES[sp]
                     for c in self.farms[player].tableau):
            n += 1
        return self._receive(player, sp, n) if n else self

    # ---- animals and the supply
    def _receive(self, player: int, sp: int, n: int):
        """``player`` receives ``n`` animals of species ``sp`` from the supply,
        applying the empty-supply rule (everyone with more than 3 of that species
        lets 1 run away, repeatedly) when the supply is short.  (Whether a set
        received this way triggers the end is decided once it is housed: ``_settle``.)"""
        if n <= 0:
            return self
        if self.supply[sp] >= n:                     # the usual case
            farm = self.farms[player]
            return self._set_farm(player, replace(farm, herd=_add(farm.herd, sp, n)),
                                  supply=_add(self.supply, sp, -n))
        farms = list(self.farms)
        supply = list(self.supply)
        moritz = list(self.moritz) if self.moritz is not None else None
        _take_from_supply(farms, supply, moritz, player, sp, n,
                          self.game.short_supply == "literal")
        return self._with(farms=tuple(farms), supply=tuple(supply),
                       moritz=tuple(moritz) if moritz is not None else None)

    def _set_herd(self, player, herd, supply_delta, **changes):
        sp, k = supply_delta
        return self._set_farm(player, replace(self.farms[player], herd=herd),
                              supply=_add(self.supply, sp, k), **changes)

    def _set_farm(self, player, farm, **changes):
        """Replace one farm (and change other fields in the same copy)."""
        d = self.__dict__
        farms = list(d["farms"])
        farms[player] = farm
        d["farms"] = tuple(farms)
        if changes:
            d.update(changes)
        return self

    # ---- fences
    def _start_fences(self, player, k):
        return self._with(fence_job=FenceJob(player, k))

    def _fence_step(self, a):
        job = self.fence_job
        player = job.player
        farm = self.farms[player]
        kind = a.__class__
        if kind is EndFences:
            return self._with(fence_job=None)
        if kind is PlaceFence:
            fences, job = farm.fences | 1 << a.edge, replace(job, placed=job.placed + 1,
                                                              lifted=-1)
        elif kind is LiftFence:
            fences, job = farm.fences & ~(1 << a.edge), replace(job, moved=job.moved + 1,
                                                                 lifted=a.edge)
        else:                                           # PutFence
            fences, job = farm.fences | 1 << a.edge, replace(job, lifted=-1)
        return self._set_farm(player, replace(farm, fences=fences), fence_job=job)

    # ---- farm cards
    def _play_card(self, name):
        comp = self.game.comp
        card = _card(comp, name)
        me = self.active
        farm = self.farms[me]
        hand = list(farm.hand)
        hand.remove(name)
        herd = tuple(h - p for h, p in zip(farm.herd, card.pay))
        supply = tuple(a + p for a, p in zip(self.supply, card.pay))
        tableau = farm.tableau
        discard = self.discard
        if card.kind == "infinity":
            tableau = tuple(sorted(tableau + (name,)))
        else:
            discard = _add(discard, _card_index(comp, name), 1)
        s = self._set_farm(me, replace(farm, hand=tuple(hand), herd=herd, tableau=tableau),
                           supply=supply, discard=discard, card_played=True, draws=(me,))
        if card.kind == "lightning":
            for i, n in enumerate(card.gain):
                s = s._receive(me, i, n)
            if card.multiply:
                s = s._multiply(me, SPECIES.index(card.multiply))
            if card.fences:
                s = s._start_fences(me, card.fences)
        return s

    def _draw(self, a):
        comp = self.game.comp
        deck, discard, count = self.deck, self.discard, self.deck_count
        if count == 0:                          # reshuffle the discard pile
            deck, discard, count = discard, tuple(0 for _ in discard), sum(discard)
        deck = _add(deck, _card_index(comp, a.card), -1)
        farm = self.farms[a.player]
        farm = replace(farm, hand=tuple(sorted(farm.hand + (a.card,))))
        if isinstance(a, DrawCard):
            draws = self.draws[1:]
            # nothing left to draw at all: the remaining draws lapse
            if count - 1 == 0 and not any(discard):
                draws = ()
            return self._set_farm(a.player, farm, deck=deck, discard=discard,
                                  deck_count=count - 1, draws=draws)
        s = self._set_farm(a.player, farm, deck=deck, discard=discard, deck_count=count - 1)
        if s._deal_target() >= self.game.players:
            return s._with(step=BEFORE_ROLL)
        return s

    # ---- the others, trading, end of turn
    def _to_others(self):
        s = self._with(step=OTHERS_CHOOSE, seat=1, unused=())
        return s._after_other()

    def _after_other(self):
        if self.game.solo or self.seat >= self.game.players:
            return self._phase_end(TRADING)          # the end of the dice phase
        return self

    def _after_trader(self):
        g = self.game
        n = 1 if g.solo else g.players
        if self.seat < n:
            return self
        return self._phase_end(GAME_OVER if isinstance(self.step, FinalTrading) else None)

    def _end_turn(self):
        g = self.game
        if self.end_triggered:
            return self._new_turn(step=FINAL_TRADING)
        if g.solo:
            return self._new_turn(step=MORITZ_TURN, moritz_rolls=0)
        nxt = (self.active + 1) % g.players
        rnd = self.round + (1 if nxt == 0 else 0)
        if g.max_rounds is not None and rnd > g.max_rounds:
            return self._new_turn(step=FINAL_TRADING, round=rnd, cut=True)
        return self._new_turn(active=nxt, round=rnd, step=BEFORE_ROLL)

    def _new_turn(self, **changes):
        """The turn's dice, choices and trades are cleared (and ``changes`` made)."""
        return self._with(dice=None, taken=(), unused=(), card_played=False, seat=0,
                       traded=(), rerolls_left=REROLLS, **changes)

    # ---- Moritz (solo)
    def _moritz_roll(self, a: Roll):
        comp = self.game.comp
        farms, supply, moritz = list(self.farms), list(self.supply), list(self.moritz)
        triggered = self.end_triggered

        literal = self.game.short_supply == "literal"

        def receive(sp, n):                 # as _receive, on these lists
            nonlocal triggered
            if n > 0:
                _take_from_supply(farms, supply, moritz, -1, sp, n, literal)
                if min(moritz) >= comp.goal:     # Moritz needs no fences
                    triggered = True

        for f in a.king:
            for i, k in enumerate(king_face(comp, f).animals):
                receive(i, k)
        if sum(king_face(comp, f).half for f in a.king) >= CATTLE_HALVES:
            receive(CATTLE, 1)
        sp = SPECIES.index(a.mult)
        receive(sp, moritz[sp] // 2)
        rolls = self.moritz_rolls + 1
        if rolls < comp.moritz_rolls:
            return self._with(farms=tuple(farms), supply=tuple(supply), moritz=tuple(moritz),
                           end_triggered=triggered, moritz_rolls=rolls)
        # Moritz trades as much as he can, keeping 2 of each
        for i, r in enumerate(comp.trade_rates):
            h = moritz[i]
            if h > comp.moritz_keep:
                k = (h - comp.moritz_keep) // r
                if k:
                    moritz[i] -= k * r
                    supply[i] += k * r
                    receive(i + 1, k)
        s = self._with(farms=tuple(farms), supply=tuple(supply), moritz=tuple(moritz),
                    end_triggered=triggered, moritz_rolls=0)
        if s.end_triggered:                 # the game ends: final trade for you
            return s._with(step=FINAL_TRADING, seat=0, traded=())
        rnd = s.round + 1
        if self.game.max_rounds is not None and rnd > self.game.max_rounds:
            return s._with(step=FINAL_TRADING, seat=0, traded=(), round=rnd, cut=True)
        return s._with(step=BEFORE_ROLL, round=rnd, active=0)

    # ---------------------------------------------------------------- the end
    def contenders(self) -> list:
        """(key, who) for everyone meeting the goal; who = seat or -1 for Moritz."""
        goal = self.game.comp.goal
        out = [((f.herd[3], f.herd[2], f.herd[1], f.herd[0]), i)
               for i, f in enumerate(self.farms) if min(f.herd) >= goal]
        if self.moritz is not None and min(self.moritz) >= goal:
            m = self.moritz
            out.append(((m[3], m[2], m[1], m[0]), -1))
        return out

    def winners(self) -> list:
        c = self.contenders()
        if not c:
            return []
        best = max(k for k, _ in c)
        return [w for k, w in c if k == best]

    def _returns(self):
        n = self.game.players
        w = self.winners()
        if self.game.solo:                # your share of the win against Moritz
            if not w:                     # cut by the safeguard, nobody holds the set
                return (Fraction(1, 2),)
            return (Fraction(1, len(w)) if 0 in w else Fraction(0),)
        return win_shares(w or range(n), n)   # cut by the safeguard: everyone shares

    def scores(self):
        """None: the game has no points (see ``herd_values`` for a progress measure)."""
        return None

    def herd_values(self) -> tuple:
        """Each player's herd in sheep-value (sheep 1, pig 2, cattle 6, horse 24)."""
        return tuple(sheep_value(f.herd, self.game.comp) for f in self.farms)

    # ---------------------------------------------------------------- views and text
    def view(self, player: int):
        """What ``player`` sees: the other hands and the deck order are hidden.  (The
        core checks ``player`` first: ``State._check_player``.)"""
        d = self.__dict__
        farms = list(d["farms"])
        for i, f in enumerate(farms):
            if i != player and f.hand:
                farms[i] = _hidden_farm(f.herd, f.fences, len(f.hand), f.tableau)
        seen = replace(self, farms=tuple(farms), deck=_hidden_deck(len(d["deck"])))
        cp = d.get("_cp")
        if cp is None:
            cp = self.current_player()
        # speed only: who moves is public (the view's own answer would be the same)
        seen.__dict__["_cp"] = cp
        if cp == player:
            # the player to move sees their own options: the same tuple of actions
            la = d.get("_la")
            seen.__dict__["_la"] = self.legal_actions() if la is None else la
        return seen

    def _describe(self) -> str:
        """A short line: what chance does now, whose turn, or the result
        (``describe``, in the game's language)."""
        if self.current_player() != CHANCE:
            return super()._describe()
        g = self.game
        dealing = isinstance(self.step, Dealing)
        if self.draws or dealing:
            who = self.draws[0] if self.draws else self._deal_target()
            if dealing and not self.draws:
                return _("Dealing a farm card to {player}").format(player=g.player_name(who))
            return _("{player} draws a farm card").format(player=g.player_name(who))
        match self.step:
            case MoritzTurn():
                return _("Moritz rolls")
            case Rerolling():
                return _("{player} re-rolls the dice not kept").format(
                    player=g.player_name(self.active))
        return _("Rolling the {n} King dice and the pink die for {player}").format(
            n=g.comp.king_count, player=g.player_name(self.active))


@speed_cache(maxsize=1 << 12)
def _hidden_farm(herd, fences, cards, tableau):
    """A farm as the other players see it: ``cards`` cards in hand, face down.
    (Speed only; keyed by what everyone sees, never by the cards in the hand.)"""
    return Farm(herd=herd, fences=fences, hand=_hidden_deck(cards), tableau=tableau)


@speed_cache(maxsize=64)
def _hidden_deck(n):
    return (HIDDEN,) * n


# What each action does (``HorseState._step``): one handler per kind of action.
_STEPS = {
    DealCard: HorseState._draw, DrawCard: HorseState._draw, Roll: HorseState._rolled,
    KeepDice: HorseState._keep, UseDie: HorseState._use_die,
    UseCattle: HorseState._use_cattle, PlayCard: HorseState._play_farm_card,
    EndEffects: HorseState._end_effects, Discard: HorseState._discard,
    TakeDie: HorseState._take_die, RunAway: HorseState._run_away,
    RollDice: HorseState._roll_dice,
    PlaceFence: HorseState._fence_step, LiftFence: HorseState._fence_step,
    PutFence: HorseState._fence_step, EndFences: HorseState._fence_step,
    Trade: HorseState._trade_up, EndTrading: HorseState._end_trading,
}


# ============================================================== helpers

_PLACE = tuple(PlaceFence(e) for e in range(pasture.EDGES))
_LIFT = tuple(LiftFence(e) for e in range(pasture.EDGES))
_PUT = tuple(PutFence(e) for e in range(pasture.EDGES))
_END_FENCES = EndFences()


def _take_from_supply(farms: list, supply: list, moritz: list | None, player: int,
                      sp: int, n: int, literal: bool = True) -> None:
    """``player`` (-1: Moritz) takes ``n`` animals of species ``sp`` from the supply
    (in place, on these lists), applying the empty-supply rule: "remember how many
    animals you would still receive", refill (everyone with MORE THAN 3 of the
    species, the receiver and Moritz included, lets 1 run away; repeated while the
    supply is still short), then take them.

    ``literal``: the receiver first takes what the supply still holds, then the
    refill, then the rest.  Otherwise (``short_supply="refill_first"``) the refill
    comes before the receiver takes anything.  If nobody has more than 3 left, the
    receiver gets only what the supply holds."""

    def take(k):
        supply[sp] -= k
        if player == -1:
            moritz[sp] += k
        else:
            f = farms[player]
            farms[player] = replace(f, herd=_add(f.herd, sp, k))

    owed = n
    if literal:
        got = min(owed, supply[sp])
        take(got)
        owed -= got
    while owed > supply[sp]:
        losers = False
        for i, f in enumerate(farms):
            if f.herd[sp] > REFILL_ABOVE:
                farms[i] = replace(f, herd=_add(f.herd, sp, -1))
                supply[sp] += 1
                losers = True
        if moritz is not None and moritz[sp] > REFILL_ABOVE:
            moritz[sp] -= 1
            supply[sp] += 1
            losers = True
        if not losers:
            break
        if literal:                  # take from the refilled supply right away
            got = min(owed, supply[sp])
            take(got)
            owed -= got
    take(min(owed, supply[sp]))


def _add(t: tuple, i: int, k: int) -> tuple:
    return t[:i] + (t[i] + k,) + t[i + 1:]


def _card_index(comp, name) -> int:
    for i, c in enumerate(comp.cards):
        if c.name == name:
            return i
    raise KeyError(name)


_RUN = tuple(RunAway(sp) for sp in SPECIES)
_ROLL_DICE = RollDice()
_END_TRADING = EndTrading()
_END_EFFECTS = EndEffects()
_USE_CATTLE = UseCattle()


# Speed only (kingdoms.core.cache.speed_cache): the action tuples and chance tables
# below are memoised.  They are keyed by the components (compared by content, see
# ``Components``), herds, fences or dice -- never by a hand -- and bounded, so copies
# of games and states never make them grow.

@speed_cache(maxsize=16)
def _card_table(comp):
    return {c.name: c for c in comp.cards}


def _card(comp, name):
    return _card_table(comp)[name]


@speed_cache(maxsize=1 << 14)
def _run_actions(herd):
    """Let one animal of a species the player owns run away."""
    return tuple(_RUN[i] for i, n in enumerate(herd) if n)


def _effects_actions(unused, playable, herd):
    """The effects step: each unused die once (2-3 half cattle together), a playable
    farm card, letting animals run away, or finishing."""
    if not playable:                    # (the usual case: one look-up)
        return _effects_without_cards(unused, herd)
    return _dice_actions(unused) + playable + _run_actions(herd) + (_END_EFFECTS,)


@speed_cache(maxsize=1 << 14)
def _effects_without_cards(unused, herd):
    return _dice_actions(unused) + _run_actions(herd) + (_END_EFFECTS,)


@speed_cache(maxsize=1 << 12)
def _dice_actions(unused):
    acts = []
    seen = set()
    for d in unused:
        if d in seen or d == HALF_CATTLE:
            continue
        seen.add(d)
        acts.append(_use(d))
    if unused.count(HALF_CATTLE) >= CATTLE_HALVES:
        acts.append(_USE_CATTLE)
    return tuple(acts)


def _playable(comp, hand, herd):
    """The farm cards in ``hand`` whose cost ``herd`` can pay (each name once).
    Not memoised: no module table is keyed by a (secret) hand."""
    table = _card_table(comp)
    out = []
    last = None
    for name in hand:                    # hands are kept sorted
        if name == last:
            continue
        last = name
        pay = table[name].pay
        if herd[0] >= pay[0] and herd[1] >= pay[1] and herd[2] >= pay[2] \
                and herd[3] >= pay[3]:
            out.append(_play(name))
    return tuple(out)


@speed_cache(maxsize=1 << 14)
def _trading_actions(herd, rates, traded):
    """Trades one step up the chain of the species not yet given (``rates`` None:
    no more trades now), letting animals run away, or no (more) trades."""
    trades = ()
    if rates is not None:
        trades = tuple(_trade(i, k * r, k) for i, r in enumerate(rates)
                       if SPECIES[i] not in traded for k in range(1, herd[i] // r + 1))
    return trades + _run_actions(herd) + (_END_TRADING,)


@speed_cache(maxsize=1024)
def _rates(comp, tableau):
    """Trade rates with the infinity cards in ``tableau`` (a card may lower one)."""
    rates = list(comp.trade_rates)
    for name in tableau:
        card = _card(comp, name)
        if card.rate:
            i = SPECIES.index(card.rate[0])
            rates[i] = min(rates[i], card.rate[1])
    return tuple(rates)


@speed_cache(maxsize=1024)
def _trades_all(comp, tableau):
    return any(_card(comp, n).trade_all for n in tableau)


@speed_cache(maxsize=1 << 14)
def _put_actions(fences):
    """Put the lifted fence on a free border."""
    return _edge_actions(_PUTS, ~fences & pasture.ALL_EDGES)


@speed_cache(maxsize=1 << 14)
def _fence_job_actions(fences, may_place, may_move):
    """Place a new fence on a free border, lift a placed fence to move it, or done."""
    acts = ()
    if may_place:
        acts += _edge_actions(_PLACES, ~fences & pasture.ALL_EDGES)
    if may_move:
        acts += _edge_actions(_LIFTS, fences & pasture.ALL_EDGES)
    return acts + (_END_FENCES,)


# the kinds of fence actions (``_edge_actions``): index into ``_FENCE_ACTIONS``
_PLACES, _LIFTS, _PUTS = range(3)
_FENCE_ACTIONS = (_PLACE, _LIFT, _PUT)


def _edge_actions(kind, mask):
    """The fence actions of ``kind`` on every border in ``mask``, in border order: the
    same tuple as ``tuple(acts[e] for e in range(EDGES) if mask >> e & 1)``.  Speed
    only (random play meets ever new fence masks): 8 borders at a time, cached."""
    return (_byte_actions(kind, 0, mask & 255) + _byte_actions(kind, 8, mask >> 8 & 255)
            + _byte_actions(kind, 16, mask >> 16 & 255)
            + _byte_actions(kind, 24, mask >> 24 & 255))


@speed_cache(maxsize=3 * 4 * 256)
def _byte_actions(kind, shift, bits):
    """The fence actions of ``kind`` on the borders ``shift + i`` for the bits ``i``
    set in ``bits`` (0-255)."""
    acts = _FENCE_ACTIONS[kind]
    return tuple(acts[shift + i] for i in range(8) if bits >> i & 1 and shift + i < len(acts))


@speed_cache(maxsize=1 << 12)
def _card_outcomes(comp, player, dealing, deck):
    """Dealing or drawing one card of ``deck`` (copies per card type) to ``player``."""
    total = sum(deck)
    return tuple((a, _share(k, total))
                 for a, k in zip(_card_actions(comp, dealing, player), deck) if k)


@speed_cache(maxsize=64)
def _card_actions(comp, dealing, player):
    """Dealing or drawing each card type (in data order) to ``player``."""
    return tuple(_card_to(dealing, player, c.name) for c in comp.cards)


@speed_cache(maxsize=4096)
def _card_to(dealing, player, card):
    return DealCard(player, card) if dealing else DrawCard(player, card)


@speed_cache(maxsize=4096)
def _share(k, total):
    return Fraction(k, total)


@speed_cache(maxsize=4096)
def _roll(king, mult):
    return Roll(king, mult)


@speed_cache(maxsize=1024)
def _use(die):
    return UseDie(die)


@speed_cache(maxsize=1024)
def _play(name):
    return PlayCard(name)


@speed_cache(maxsize=4096)
def _trade(i, pay, count):
    return Trade(SPECIES[i], pay, SPECIES[i + 1], count)


@speed_cache(maxsize=4096)
def _keep_actions(dice):
    return tuple(KeepDice(k, m) for k, m in keep_options(dice))


def _discard_actions(hand):
    """Discard any sub-collection of the hand (each once).  Not memoised by hand."""
    return tuple(Discard(t) for r in range(len(hand) + 1)
                 for t in sorted(set(combinations(hand, r))))


@speed_cache(maxsize=4096)
def _dice_left(dice, taken):
    left = list(die_names(dice))
    for d in taken:
        left.remove(d)
    return tuple(left)


@speed_cache(maxsize=4096)
def _take_actions(avail):
    return tuple(TakeDie(d) for d in sorted(set(avail))) + (TakeDie(None),)


@speed_cache(maxsize=16)
def _roll_outcomes(comp):
    weights, total = roll_counts(comp)
    return tuple((Roll(k, m), Fraction(w, total)) for (k, m), w in weights.items())


def _reroll_outcomes(comp, dice, keep: Rerolling):
    return _reroll_table(comp, keep.kept, keep.keep_mult, dice[1] if keep.keep_mult else None)


@speed_cache(maxsize=4096)
def _reroll_table(comp, kept, keep_mult, mult):
    d = reroll(kept, keep_mult, mult, comp, True)
    return tuple((Roll(k, m), p) for (k, m), p in d.items())
