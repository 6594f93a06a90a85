"""Our games inside OpenSpiel (https://github.com/google-deepmind/open_spiel).

>>> from kingdoms.interop.openspiel import load_game        # doctest: +SKIP
>>> game = load_game("horse", players=2)                    # a pyspiel.Game
>>> state = game.new_initial_state()

``load_game(name, players=N, **options)`` builds ``kingdoms.game(name, players=N,
**options)`` and wraps it as a Python game registered with pyspiel as
``kingdoms_<name>`` (so ``pyspiel.load_game("kingdoms_horse(players=3)")`` works
too, for the options whose values are plain numbers, texts or flags).  OpenSpiel's
algorithms (MCTS, IS-MCTS, CFR on small games, its API tests) then play by our rules.
Needs the ``openspiel`` extra: ``pip install kingdoms[openspiel]``.

Action ids
    Each game declares its *action universe* with the hook ``game.action_universe()``
    (defined in ``kingdoms/<game>/rules.py``): a tuple of every decision and every
    chance outcome the game can ever produce, in a fixed order built from the game's
    data file.  Action id ``i`` is ``universe[i]``; decisions and chance outcomes share
    this one numbering, so ``num_distinct_actions() == max_chance_outcomes()`` is the
    size of the universe, known before any state exists.  ``action_to_string`` is our
    rule text (``str(action)``).  Legal actions and chance outcomes are listed by
    increasing id.  A game whose actions carry fields that follow from the position
    (King of the Elves: the hand a "No village card!" shows, the gold a visit pays)
    lists *keys* and maps each action to its key with ``game.action_key(action)``;
    ``action_to_string`` then gives the full text of the legal action at the state.

Huge chance events
    A chance event too large to list (our protocol raises ``TooManyOutcomes`` and offers
    ``sample_chance(rng)``) cannot be one explicit OpenSpiel chance node.  A game that
    has one offers it as small steps with the protocol hook ``State.chance_steps()``: a
    ``kingdoms.core.cards.SequentialDeal`` (e.g. King of the Woods' deal of a round:
    the cards set aside, then the hands from seat 0 on).  The adapter deals it *one card
    at a time*, each step a chance node "the next card dealt is a <card>" with the
    exact probability copies-left / cards-left, wherever the game offers the steps.
    These steps have their own ids after the universe: ``len(universe) + k`` for the
    ``k``-th item of ``game.chance_step_items()``.  Dealing card by card gives every
    deal (each place's cards as multisets) exactly the probability of the shuffle, so
    the game stays ``EXPLICIT_STOCHASTIC`` with exact probabilities.  When the last
    card is dealt, the game's own outcome (``SequentialDeal.outcome``) is applied.  A
    player sees the cards dealt to a place they own (their hand), not the others' or
    those of a place nobody owns (set aside).

Lengths, utilities, information
    ``max_game_length()`` is the game's own bound ``game.max_game_length()`` (a true
    bound on the number of actions and chance outcomes, counting a deal as one step per
    card; it rests on each game's end rules and safeguards, see the hooks; Horse
    without its ``max_rounds`` safeguard has no bound and is refused).
    ``returns()`` are our exact win shares as floats: they sum to 1, so games of 2 or
    more players are ``CONSTANT_SUM`` (utility sum 1); the solo game (Horse, 1 player)
    is ``GENERAL_SUM``.  Dynamics sequential, chance explicit, information imperfect
    when ``game.hidden_information`` (every game of ours today) else perfect.

Subgames
    ``game.state_from(kstate)`` is an OpenSpiel state at any state of ours (e.g. an end
    position), for OpenSpiel's solvers: its expectiminimax value equals our exact
    ``kingdoms.core.solve.expectimax`` value (tested).

Observations (never more than the player may see)
    ``observation_string(p)`` is ``str(state.view(p))``; ``information_state_string(p)``
    is every step so far as ``p`` saw it (``Action.seen_by(p)``, one line each) followed
    by that observation.  An observer asked for all players' private information gets
    the full state (``str(state)``); one asked for public information only is refused.

IS-MCTS
    ``state.resample_from_infostate(p, sampler)`` (and ``resampler`` for OpenSpiel's
    Python ``ISMCTSBot.set_resampler``) asks our game for a world:
    ``State.sample_world(p, rng)``, a full state consistent with everything ``p`` has
    seen, drawn (per the game's documented measure) uniformly among the consistent
    ones; its ``view(p)`` is the state's ``view(p)``.  The returned OpenSpiel state
    starts at that world, with ``p``'s information state (history as ``p`` saw it plus
    the observation) unchanged, so ISMCTS's root check holds; the other players'
    information states in the world start at their observation (their histories are
    not sampled).  Where a game has no ``sample_world``, or during a card-by-card
    deal, the old determinizer is used: a depth-first replay from
    the start that keeps, step by step, only actions and outcomes ``p`` would have seen
    the same way and after which ``p``'s observation is the same, backing up at dead
    ends; it is not drawn from the exact posterior, and where hidden draws are revealed
    much later it can exceed its budget and raise ``RuntimeError``.
"""
from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pyspiel

import kingdoms
from kingdoms.core.protocol import CHANCE, TERMINAL, Action, Game, TooManyOutcomes

__all__ = ["load_game", "register_all", "KingdomsGame", "KingdomsState", "resampler",
           "seeded_resampler", "universe_of", "game_type_name"]

_PREFIX = "kingdoms_"


def game_type_name(name: str) -> str:
    """The short name pyspiel knows our game ``name`` by: ``"kingdoms_<name>"``."""
    return _PREFIX + name


# --------------------------------------------------------------------------- the universe

class _DealStep:
    """A chance outcome of a card-by-card deal: the next card dealt is a ``card``."""

    __slots__ = ("card",)

    def __init__(self, card: str):
        self.card = card

    def __str__(self):
        return f"the next card dealt is a {self.card}"


class Universe:
    """The numbering of a game's actions and chance outcomes (see the module doc)."""

    def __init__(self, kgame):
        try:
            actions = tuple(kgame.action_universe())
        except NotImplementedError:
            raise TypeError(
                f"{kgame.title} has no action_universe(): OpenSpiel needs every action and "
                "chance outcome numbered up front; define action_universe(self) -> tuple on "
                f"{type(kgame).__name__} (in {type(kgame).__module__})") from None
        index = {}
        for i, a in enumerate(actions):
            if a in index:
                raise ValueError(f"{kgame.title}: action_universe() lists {a} twice "
                                 f"(ids {index[a]} and {i})")
            index[a] = i
        self.actions = actions
        self.index = index
        # ``None`` where the game keeps the protocol's ``action_key`` (an action is its
        # own key): ids are then looked up directly, and an id stands for one action
        self.key = None if type(kgame).action_key is Game.action_key else kgame.action_key
        # card-by-card deal steps (State.chance_steps; see the module doc)
        cards = tuple(kgame.chance_step_items())
        if len(set(cards)) != len(cards):
            raise ValueError(f"{kgame.title}: chance_step_items() lists an item twice")
        self.deal_cards = cards
        self.deal_ids = {c: len(actions) + k for k, c in enumerate(cards)}
        self.size = len(actions) + len(cards)

    def id_of(self, action, state) -> int:
        try:
            return self.index[action if self.key is None else self.key(action)]
        except (KeyError, TypeError):
            raise RuntimeError(
                f"{state.game.title}: {action} is not in the game's action_universe() — "
                "the universe is incomplete (please report this)") from None

    def at(self, i: int, kstate):
        """The action or outcome with id ``i`` at our state ``kstate`` (when the game
        numbers actions by key: the legal one with that key)."""
        key_action = self.action(i)
        if self.key is None or isinstance(key_action, _DealStep):
            return key_action
        # at a chance node ``legal_actions`` lists the outcomes: the very objects that
        # ``apply`` then finds by identity
        for a in kstate.legal_actions():
            if self.index.get(self.key(a)) == i:
                return a
        return key_action       # not legal here: apply will refuse it

    def deal_id(self, card, state) -> int:
        """The id of the deal step "the next card dealt is a ``card``"."""
        try:
            return self.deal_ids[card]
        except (KeyError, TypeError):
            raise RuntimeError(
                f"{state.game.title}: chance_steps() deals {card}, which is not in the "
                "game's chance_step_items() (please report this)") from None

    def action(self, i: int):
        if 0 <= i < len(self.actions):
            return self.actions[i]
        k = i - len(self.actions)
        if 0 <= k < len(self.deal_cards):
            return _DealStep(self.deal_cards[k])
        raise ValueError(f"action id {i} is outside 0..{self.size - 1}")


def universe_of(kgame) -> Universe:
    """The action numbering of a ``kingdoms`` game (see the module doc)."""
    return Universe(kgame)


# --------------------------------------------------------------------------- positions

_UNSET = object()


class _Pos:
    """An immutable position of the adapter: our state, a card-by-card deal under way
    (the cards dealt so far, or None), the previous position and the step from it.
    ``copy.deepcopy`` (what pyspiel's ``clone`` does) returns it unchanged."""

    __slots__ = ("k", "deal", "prev", "step", "lines", "plan", "ids", "chance", "by_id")

    def __init__(self, k, deal=None, prev=None, step=None, plan=_UNSET):
        self.k = k
        self.deal = deal
        self.prev = prev
        self.step = step            # (who, action id, seen-by texts per player)
        self.lines = {}             # player -> information-state history text (cache)
        self.plan = plan            # the SequentialDeal at k, if any (cache)
        self.ids = None             # the legal action ids, sorted (cache)
        self.chance = None          # the exact chance outcomes by id (cache)
        self.by_id = None           # action id -> our listed action or outcome (cache)

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self

    def history_text(self, p: int) -> str:
        """Every step to here as player ``p`` saw it, one line each."""
        chain = []
        pos = self
        while pos is not None and p not in pos.lines and pos.step is not None:
            chain.append(pos)
            pos = pos.prev
        text = pos.lines.get(p, "") if pos is not None else ""
        for node in reversed(chain):
            who, _, seen = node.step
            text = f"{text}{who}: {seen[p]}\n"
            node.lines[p] = text
        return text


def _who_text(kgame, who: int) -> str:
    if who == CHANCE:
        return "chance"
    return kgame.player_name(who)


class _SeenTexts:
    """``_seen_texts(...)`` of a step, worked out when first read: a search that never
    asks for information states (OpenSpiel's MCTS on the true state) never pays for
    the texts of its playouts."""

    __slots__ = ("args", "texts")

    def __init__(self, *args):
        self.args = args
        self.texts = None

    def __getitem__(self, p: int) -> str:
        texts = self.texts
        if texts is None:
            texts = self.texts = _seen_texts(*self.args)
            self.args = None
        return texts[p]


def _seen_texts(kgame, action, who, deal_slot=None) -> tuple:
    """How each player sees ``action`` (a text per player)."""
    n = kgame.players
    if isinstance(action, _DealStep):
        out = []
        for p in range(n):
            if deal_slot == p:
                out.append(f"you are dealt a {action.card}")
            elif deal_slot is None:
                out.append("a card is set aside")
            else:
                out.append(f"{kgame.player_name(deal_slot)} is dealt a card")
        return tuple(out)
    if isinstance(action, Action):
        return tuple(_text(action.seen_by(p)) for p in range(n))
    return (_text(action),) * n


def _text(x) -> str:
    try:
        return str(x)
    except Exception:           # pragma: no cover - our actions' texts never raise
        return type(x).__name__


# --------------------------------------------------------------------------- pyspiel classes

_REGISTERED: dict[str, type] = {}
_UTILITY = pyspiel.GameType.Utility


def _simple_options(cls) -> dict:
    """The options pyspiel can pass as game parameters (numbers, texts, flags)."""
    out = {}
    for k, v in cls.options().items():
        if isinstance(v, (bool, int, float, str)):
            out[k] = v
    return out


def _game_type(cls, players: int | None = None) -> "pyspiel.GameType":
    kgame_players = players if players is not None else _default_players(cls)
    hidden = bool(cls.hidden_information)
    constant = kgame_players >= 2
    params = {"players": _default_players(cls), **_simple_options(cls)}
    return pyspiel.GameType(
        short_name=game_type_name(cls.name),
        long_name=f"{cls.title} (kingdoms)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=_UTILITY.CONSTANT_SUM if constant else _UTILITY.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=params)


def _default_players(cls) -> int:
    return cls.create().players


class KingdomsGame(pyspiel.Game):
    """A ``kingdoms`` game as a ``pyspiel.Game`` (see the module doc).

    ``kgame`` is our game; ``universe`` its action numbering."""

    kingdoms_name = ""          # set on the registered subclass of each game

    def __init__(self, params=None, kgame=None):
        params = dict(params or {})
        if kgame is None:
            players = params.pop("players", None)
            kgame = kingdoms.game(self.kingdoms_name, players=players, **params)
        self.kgame = kgame
        self.universe = Universe(kgame)
        try:
            length = int(kgame.max_game_length())
        except NotImplementedError:
            raise TypeError(f"{kgame.title} has no max_game_length(): OpenSpiel needs a true "
                            "bound on the length of a game") from None
        cls = type(kgame)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.universe.size,
            max_chance_outcomes=self.universe.size,
            num_players=kgame.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if kgame.players >= 2 else None,
            max_game_length=length)
        config = {k: v for k, v in kgame.config().items()
                  if isinstance(v, (bool, int, float, str))}
        super().__init__(_game_type(cls, kgame.players), info, config)
        self._root = _Pos(kgame.initial_state())

    def new_initial_state(self):
        return KingdomsState(self)

    def state_from(self, kstate) -> "KingdomsState":
        """An OpenSpiel state at our state ``kstate`` of this game (its OpenSpiel
        history starts empty there): for solving or playing a subgame."""
        if kstate.game != self.kgame:
            raise ValueError("kstate belongs to another game (or other options)")
        s = KingdomsState(self)
        s._pos = _Pos(kstate)
        return s

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return _Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class KingdomsState(pyspiel.State):
    """A position of a ``kingdoms`` game as a ``pyspiel.State``; ``kstate`` is ours."""

    def __init__(self, game: KingdomsGame):
        super().__init__(game)
        self._pos = game._root

    # -- what we hold -------------------------------------------------------------
    @property
    def kstate(self):
        """Our state (during a card-by-card deal: the state before the deal)."""
        return self._pos.k

    def _universe(self) -> Universe:
        return self.get_game().universe

    # -- the OpenSpiel API ----------------------------------------------------------
    def current_player(self):
        pos = self._pos
        if pos.deal is not None:
            return pyspiel.PlayerId.CHANCE
        cp = pos.k.current_player()
        if cp == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if cp == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return cp

    def is_terminal(self):
        return self._pos.deal is None and self._pos.k.current_player() == TERMINAL

    def _legal_actions(self, player):
        pos = self._pos
        ids = pos.ids
        if ids is None:
            k = pos.k
            uni = self._universe()
            by_id = {uni.id_of(a, k): a for a in k.legal_actions()}
            if len(by_id) != len(k.legal_actions()):
                raise RuntimeError(f"{k.game.title}: two legal actions share an action id "
                                   "(the game's action_key() merges them)")
            # a position never changes: its ids are listed once, and the action an id
            # stands for is then looked up, not searched for (``Universe.at``)
            pos.ids = ids = tuple(sorted(by_id))
            pos.by_id = by_id
        return list(ids)

    def chance_outcomes(self):
        return [(i, float(p)) for i, p in self.exact_chance_outcomes()]

    def exact_chance_outcomes(self):
        """``[(action id, Fraction)]`` at a chance node, by increasing id: the exact
        probabilities that ``chance_outcomes()`` gives as floats."""
        pos = self._pos
        listed = pos.chance
        if listed is None:
            listed = pos.chance = tuple(self._chance_by_id(pos))   # listed once
        return list(listed)

    def _chance_by_id(self, pos: _Pos) -> list:
        uni = self._universe()
        plan = _plan(pos, uni)
        if plan is not None:
            return sorted((uni.deal_id(c, pos.k), p) for c, p in plan.steps(pos.deal or ()))
        try:
            outcomes = pos.k.chance_outcomes()
        except TooManyOutcomes as e:
            raise NotImplementedError(
                f"{pos.k.game.title}: a chance event with {e.count:,} outcomes that this "
                "adapter cannot deal step by step") from None
        k = pos.k
        ided = [(uni.id_of(o, k), o, p) for o, p in outcomes]
        by_id = {i: o for i, o, _ in ided}
        if len(by_id) == len(ided):         # (else ``at`` finds each the old way)
            pos.by_id = by_id
        return sorted((i, p) for i, _, p in ided)

    def _apply_action(self, action_id):
        pos = self._pos
        uni = self._universe()
        k = pos.k
        kgame = k.game
        who = self.current_player()
        plan = _plan(pos, uni) if who == pyspiel.PlayerId.CHANCE else None
        if plan is not None:
            step = uni.action(action_id)
            if not isinstance(step, _DealStep):
                raise ValueError(f"action id {action_id} is not a card of this deal")
            dealt = pos.deal or ()
            if plan.left(dealt).get(step.card, 0) <= 0:
                raise ValueError(f"no {step.card} is left to deal")
            slot = plan.owner_of(len(dealt))
            dealt = dealt + (step.card,)
            if plan.is_complete(dealt):
                nk, deal, nplan = k.apply(plan.outcome(dealt)), None, _UNSET
            else:
                nk, deal, nplan = k, dealt, plan
            seen = _SeenTexts(kgame, step, who, slot)
            self._pos = _Pos(nk, deal, pos, (_who_text(kgame, who), action_id, seen), nplan)
            return
        by_id = pos.by_id
        action = by_id.get(action_id) if by_id is not None else None
        if action is None:
            action = uni.at(action_id, k)
        nk = k.apply(action)            # raises IllegalAction if not legal here
        seen = _SeenTexts(kgame, action, who)
        self._pos = _Pos(nk, None, pos, (_who_text(kgame, who), action_id, seen))

    def _action_to_string(self, player, action_id):
        uni = self._universe()
        k = self._pos.k
        if uni.key is not None and self._pos.deal is None and not self.is_terminal():
            try:
                return _text(uni.at(action_id, k))
            except Exception:
                pass
        return _text(uni.action(action_id))

    def returns(self):
        pos = self._pos
        if not self.is_terminal():
            return [0.0] * pos.k.game.players
        return [float(r) for r in pos.k.returns()]

    def __str__(self):
        pos = self._pos
        text = str(pos.k)
        if pos.deal is not None:
            text += f"\n(dealing: {len(pos.deal)} cards dealt so far)"
        return text

    # -- observations ------------------------------------------------------------------
    def observation_text(self, player: int) -> str:
        """``str(view(player))`` (plus, during a deal, the cards dealt to ``player``)."""
        return _observation(self._pos, player)

    def information_text(self, player: int) -> str:
        return self._pos.history_text(player) + self.observation_text(player)

    # -- IS-MCTS ---------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state ``player_id`` cannot tell from this one (see the module doc)."""
        rng = random.Random(_seed_from(probability_sampler))
        return _resample(self, player_id, rng)

    def sample_world(self, player: int, rng: random.Random) -> "KingdomsState | None":
        """A state ``player`` cannot tell from this one, from our game's
        ``State.sample_world(player, rng)`` (see the module doc); None where the game
        has no such sampler or a card-by-card deal is under way."""
        pos = self._pos
        if pos.deal is not None:
            return None
        try:
            world = pos.k.sample_world(player, rng)
        except NotImplementedError:
            return None
        s = KingdomsState(self.get_game())
        wpos = _Pos(world)
        # the player's information state is their history as they saw it (the world
        # shares it); the others' histories in the world are not sampled: their
        # information states start at the world's observation
        wpos.lines[player] = pos.history_text(player)
        s._pos = wpos
        return s


def _seed_from(sampler) -> int | None:
    if sampler is None:
        return None
    try:
        return int(sampler() * 2**31)
    except TypeError:
        try:
            return int(sampler.sample() * 2**31)
        except Exception:
            return None


def _observation(pos: _Pos, player: int) -> str:
    """What ``player`` sees at ``pos``: ``str(view(player))`` (plus, during a
    card-by-card deal, the cards dealt to ``player`` so far)."""
    text = str(pos.k.view(player))
    if pos.deal is not None:
        plan = pos.plan
        mine = [c for i, c in enumerate(pos.deal) if plan.owner_of(i) == player]
        text += (f"\n(dealing: {len(pos.deal)} cards dealt so far; to you: "
                 f"{', '.join(mine) or 'none yet'})")
    return text


class _Observer:
    """The PyObserver for our games: strings only (no tensors)."""

    def __init__(self, iig_obs_type):
        self.iig_obs_type = iig_obs_type
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            raise ValueError("kingdoms games offer no public-only observation "
                             "(ask for one player's private information, or all players')")
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self.iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return str(state)
        if self.iig_obs_type.perfect_recall:
            return state.information_text(player)
        return state.observation_text(player)


# --------------------------------------------------------------------------- the card-by-card deal

def _steps_at(k, uni: Universe):
    """The game's ``SequentialDeal`` at our state ``k`` (``State.chance_steps``), or
    None when ``k`` is no chance node the adapter deals card by card."""
    if not uni.deal_cards or k.current_player() != CHANCE:
        return None
    return k.chance_steps()


def _plan(pos: _Pos, uni: Universe):
    """The card-by-card deal at ``pos`` (under way or about to start), or None."""
    plan = pos.plan
    if plan is _UNSET:
        plan = pos.plan = _steps_at(pos.k, uni)
    return plan


# --------------------------------------------------------------------------- resampling

def _resample(state: KingdomsState, player: int, rng: random.Random,
              budget: int = 20_000):
    """A state that ``player`` cannot tell from ``state``: a depth-first replay from the
    start that keeps, step by step, only actions and outcomes ``player`` would have seen
    the same way and after which ``player``'s observation is the same, trying them in
    random order (chance by probability); it backs up at dead ends.  Raises
    ``RuntimeError`` after ``budget`` tried steps.  Where the game samples worlds
    itself (``State.sample_world``) that is used instead (no search)."""
    world = state.sample_world(player, rng)
    if world is not None:
        return world
    game: KingdomsGame = state.get_game()
    steps, chain = [], []
    pos = state._pos
    while pos.step is not None:
        steps.append(pos.step)
        chain.append(pos)
        pos = pos.prev
    steps.reverse()
    chain.reverse()
    targets = [_observation(p, player) for p in chain]
    root = game.new_initial_state()
    root._pos = pos
    if not steps:
        return root
    tried = 0
    stack = [(root, iter(_ordered_options(root, steps[0], player, rng)))]
    while stack:
        s, options = stack[-1]
        i = len(stack) - 1
        for action_id in options:
            tried += 1
            if tried > budget:
                raise RuntimeError(
                    f"could not find a state consistent with what "
                    f"{game.kgame.player_name(player)} knows within {budget:,} steps")
            child = s.clone()
            child.apply_action(action_id)
            if _observation(child._pos, player) != targets[i]:
                continue
            if i + 1 == len(steps):
                return child
            stack.append((child, iter(_ordered_options(child, steps[i + 1], player, rng))))
            break
        else:
            stack.pop()
    raise RuntimeError("no state is consistent with what "
                       f"{game.kgame.player_name(player)} knows (please report this)")


def _ordered_options(s: KingdomsState, step, player: int, rng: random.Random) -> list:
    """The actions or outcomes at ``s`` that ``player`` would see as the true ``step``,
    in random order (chance outcomes by probability; one's own decision is known)."""
    _, action_id, seen = step
    if s.is_chance_node():
        options = s.exact_chance_outcomes()
    else:
        if s.current_player() == player:
            return [action_id]
        options = [(i, Fraction(1)) for i in s.legal_actions()]
    keep = [(i, w) for i, w in options
            if i == action_id or _seen_same(s, i, player, seen[player])]
    # weighted order without replacement (Efraimidis-Spirakis keys)
    keyed = sorted(keep, key=lambda iw: -(rng.random() ** (1.0 / float(iw[1]))))
    return [i for i, _ in keyed]


def _seen_same(s: KingdomsState, action_id: int, player: int, seen: str) -> bool:
    """Would ``player`` see ``action_id`` at ``s`` as the text ``seen``?"""
    pos = s._pos
    uni = s._universe()
    kgame = pos.k.game
    who = s.current_player()
    plan = _plan(pos, uni) if who == pyspiel.PlayerId.CHANCE else None
    if plan is not None:
        slot = plan.owner_of(len(pos.deal or ()))
        texts = _seen_texts(kgame, uni.action(action_id), who, slot)
    else:
        texts = _seen_texts(kgame, uni.at(action_id, pos.k), who)
    return texts[player] == seen


def resampler(state: KingdomsState, player: int):
    """For ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler`` (draws from
    a fresh random source; ``seeded_resampler(seed)`` for games that replay)."""
    return _resample(state, player, random.Random())


def seeded_resampler(seed: int | str):
    """A resampler drawing its worlds from one seeded random source, so that a game
    between seeded bots replays exactly."""
    rng = random.Random(seed)

    def resample(state: KingdomsState, player: int):
        return _resample(state, player, rng)
    return resample


# --------------------------------------------------------------------------- loading

def _registered_class(name: str) -> type:
    cls = _REGISTERED.get(name)
    if cls is not None:
        return cls
    kcls = kingdoms.game_class(name)
    cls = type(f"Kingdoms_{name}", (KingdomsGame,), {"kingdoms_name": name})
    pyspiel.register_game(_game_type(kcls), cls)
    _REGISTERED[name] = cls
    return cls


def register_all() -> None:
    """Register every ``kingdoms`` game with pyspiel (as ``kingdoms_<name>``)."""
    for name in kingdoms.games():
        _registered_class(name)


def load_game(name: str, players: int | None = None, **options) -> KingdomsGame:
    """Our game ``name`` for ``players`` players with ``options``, as a ``pyspiel.Game``
    (registered with pyspiel as ``kingdoms_<name>``).  Unknown games or options raise
    ``GameOptionError`` listing what is allowed."""
    kgame = kingdoms.game(name, players=players, **options)
    cls = _registered_class(name)
    config = {k: v for k, v in kgame.config().items()
              if isinstance(v, (bool, int, float, str))}
    return cls(config, kgame=kgame)
