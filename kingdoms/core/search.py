"""Monte Carlo tree search (UCT) for every game, through the protocol only.

``mcts_policy(simulations=..., seconds=..., ...)`` returns a policy
``policy(state, rng) -> action`` that plays any game of the protocol:

* **Tree.**  Each simulation walks down a tree of positions from the position to
  decide, choosing at a player's decision the action with the best upper confidence
  bound (UCB1: mean share of the win of *the player to move* plus
  ``exploration * sqrt(ln(available) / visits)``; every player maximises their own
  share, max^n style, so it works for any number of players).  At a chance event it
  draws the outcome with its exact probability (``State.sample_chance``), so each
  outcome is followed about as often as it happens.  The first position the walk
  reaches outside the tree is added to it.
* **Rollout.**  From there the game is played to its end by the ``rollout`` players:
  ``"random"`` (uniform legal actions, the fastest), ``"default"`` (the game's own
  ``default_policies()``, slower but closer to real play), the name of one of the
  game's ``policies()`` (e.g. ``"greedy"``: that heuristic in every seat), or any
  policy.  The end's ``returns()`` (each player's share of the win) are added to every
  node on the way down.  When the rollout players are the opponent's heuristic, the
  search is Bertsekas' *rollout algorithm*: one step of policy improvement over it.
* **Prior.**  ``prior`` (a policy or one of the game's policy names) is asked for its
  move at the position to decide (handed what its player sees, as in ``play``); that
  move starts with ``prior_weight`` virtual wins, so the bot plays it unless the
  search finds a move clearly better (a progressive bias that fades with visits).
* **Hidden information** (``game.hidden_information``): the bot never reads what
  its player may not see.  Each simulation starts from a *determinization*,
  ``state.sample_world(player, rng)``: a full state consistent with the player's
  view, so the bot works the same when handed the full state or
  ``state.view(player)`` (what ``play`` hands policies in such games).  The tree is
  shared by all sampled worlds and an action's UCB counts only the simulations in
  which it was legal ("single-observer information-set MCTS").  A game whose
  ``sample_world`` cannot sample a position raises ``NotImplementedError``; the bot
  then raises ``SearchError`` saying so, or plays its ``fallback`` policy if given.
* **Budget and seeds.**  ``simulations`` fixes the work per move, so a seeded game
  replays identically on any machine (the bot draws only from the ``rng`` it is
  handed).  ``seconds`` stops earlier on a clock (results then depend on the
  machine).  The move played is the most visited one (``final="visits"``) or the one
  with the best mean share of the win (``final="mean"``).

It knows no game: every step is ``legal_actions``, ``apply``, ``sample_chance``,
``returns``, ``sample_world``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
import time
from typing import Any, Callable

from .i18n import N_, _
from .text import _percent_sign, localize
from .protocol import CHANCE, CORE_PLAYERS, Action, State

__all__ = ["mcts_policy", "strong_policy", "MCTS", "SearchReport", "SearchError",
           "DEFAULT_SIMULATIONS", "STRONG_SECONDS"]

DEFAULT_SIMULATIONS = 200
"""The default budget of ``mcts_policy()`` (simulations per move)."""


class SearchError(RuntimeError):
    """The search cannot run at this position (e.g. the game cannot sample a world)."""


class _Node:
    """Statistics of one position in the tree: visits, summed returns per player,
    how often it was available (legal) when its parent was visited, children by
    action or chance outcome."""

    __slots__ = ("n", "w", "avail", "children", "prior", "lo", "hi", "sq")

    def __init__(self, players: int):
        self.n = 0
        self.w = [0.0] * players
        self.avail = 0
        self.children: dict = {}
        self.prior = None           # at the root: the prior's move, if any
        self.lo = self.hi = None    # with stop_early, a move at the root: the least and
        #                             greatest undiscounted share its simulations brought
        self.sq = 0.0               # ... and the sum of the squares of its shares


def _check_positive(name: str, value, kind) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, kind) or value <= 0:
        raise ValueError(f"mcts_policy: {name} must be a positive number, not {value!r}")


class MCTS:
    """The search bot; build it with ``mcts_policy`` (see the module docstring).

    A plain object (picklable when its rollout and fallback are module-level
    functions), so tournaments can run it in worker processes."""

    observes = True
    """``play`` hands it ``state.observed(player)``: the view with what its player
    observed on the way, which some games need to sample worlds."""

    def __init__(self, simulations: int | None = DEFAULT_SIMULATIONS,
                 seconds: float | None = None, exploration: float = 1.0,
                 rollout: str | Callable = "random", fallback: Callable | None = None,
                 max_rollout_steps: int = 100_000, prior: str | Callable | None = None,
                 prior_weight: int = 10, final: str = "visits", *,
                 information_sets: bool = False, widening: float | None = None,
                 stop_early: bool = False, clock: str = "wall", adopt: bool = False,
                 discount: float | None = None, tree_prior: bool = False):
        _check_positive("simulations", simulations, int)
        _check_positive("seconds", seconds, (int, float))
        _check_positive("max_rollout_steps", max_rollout_steps, int)
        if simulations is None and seconds is None:
            raise ValueError("mcts_policy needs a budget: simulations, seconds or both")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) \
                or not exploration >= 0:
            raise ValueError(f"mcts_policy: exploration must be a number >= 0, "
                             f"not {exploration!r}")
        if not (isinstance(rollout, str) and rollout.strip() or callable(rollout)):
            raise ValueError(f"mcts_policy: rollout is 'random', 'default', the name of "
                             f"one of the game's policies or a policy, not {rollout!r}")
        if prior is not None and not (isinstance(prior, str) and prior.strip()
                                      or callable(prior)):
            raise ValueError(f"mcts_policy: prior is the name of one of the game's "
                             f"policies or a policy, not {prior!r}")
        if isinstance(prior_weight, bool) or not isinstance(prior_weight, int) \
                or prior_weight < 0:
            raise ValueError(f"mcts_policy: prior_weight must be a whole number >= 0, "
                             f"not {prior_weight!r}")
        if final not in ("visits", "mean"):
            raise ValueError(f"mcts_policy: final is 'visits' or 'mean', not {final!r}")
        if fallback is not None and not callable(fallback):
            raise ValueError("mcts_policy: fallback must be a policy (state, rng) -> action")
        _check_positive("widening", widening, (int, float))
        if discount is not None and (isinstance(discount, bool)
                                     or not isinstance(discount, (int, float))
                                     or not 0 < discount <= 1):
            raise ValueError(f"mcts_policy: discount must be a number in (0, 1], "
                             f"not {discount!r}")
        if clock not in ("wall", "cpu"):
            raise ValueError(f"mcts_policy: clock is 'wall' or 'cpu', not {clock!r}")
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = float(exploration)
        self.rollout = rollout
        self.fallback = fallback
        self.max_rollout_steps = max_rollout_steps
        self.prior = prior
        self.prior_weight = prior_weight
        self.final = final
        self.information_sets = bool(information_sets)
        self.widening = widening
        self.stop_early = bool(stop_early)
        self.clock = clock
        self.adopt = bool(adopt)
        self.discount = discount
        self.tree_prior = bool(tree_prior)
        self._tree_prior = None         # during a search: the prior, for tree_prior
        self._adopted: dict = {}        # game -> its own mcts settings (with adopt)
        self.last_simulations = 0       # how many the last move ran (for benchmarks)

    def __repr__(self):
        budget = []
        if self.simulations is not None:
            budget.append(_("{count} simulations").format(count=self.simulations))
        if self.seconds is not None:
            budget.append((_("{seconds} s of CPU") if self.clock == "cpu" else _("{seconds} s"))
                          .format(seconds=localize(f"{self.seconds:g}")))
        if self.adopt:
            extra = "".join(self._traits())
            return _("mcts-strong({budget}, the game's own mcts rollouts, prior and "
                     "exploration{extra})").format(budget=_(" or ").join(budget), extra=extra)
        roll = _name(self.rollout)
        extra = ""
        if self.prior is not None:
            extra += _(", prior {name} ({count} virtual wins)").format(
                name=_(_name(self.prior)), count=self.prior_weight)
        if self.exploration != 1.0:
            extra += _(", exploration {value}").format(value=localize(f"{self.exploration:g}"))
        if self.final != "visits":
            extra += _(", best {how}").format(how=self.final)
        extra += "".join(self._traits())
        return _("mcts({budget}, {rollout} rollouts{extra})").format(
            budget=_(" or ").join(budget), rollout=_(roll), extra=extra)

    def _traits(self):
        if self.information_sets:
            yield _(", information sets")
        if self.widening is not None:
            yield _(", widening {value}").format(value=localize(f"{self.widening:g}"))
        if self.stop_early:
            yield _(", stops early")
        if self.discount is not None:
            yield _(", discount {value} a step").format(value=localize(f"{self.discount:g}"))
        if self.tree_prior:
            yield _(", the prior in the tree")

    # ------------------------------------------------------------------ the policy
    def __call__(self, state: State, rng) -> Any:
        return self._search(state, rng)[0]

    def analyse(self, state: State, rng) -> "SearchReport":
        """The search this bot makes at ``state`` to choose its move (the same
        simulations, drawing from ``rng`` as playing there would), shown move by move:
        how often each legal move was tried, the mean share of the win it brought the
        player to move, the prior's move and the move chosen.  For lessons: what the
        bot "thinks"."""
        action, root, legal, player = self._search(state, rng)
        game = state.game
        rows = []
        for a in legal:
            child = root.children.get(a) if root is not None else None
            n = child.n if child is not None else 0
            mean = child.w[player] / n if n else None
            rows.append((game.action_text(a), n, mean, a is action,
                         root is not None and a is root.prior))
        _, prior, prior_weight, _ = self._settings(game)
        return SearchReport(game.player_name(player), tuple(rows), self.last_simulations,
                            prior_weight if prior is not None else 0, repr(self))

    def _search(self, state: State, rng):
        """``(move, root, legal, player)``: the move chosen and the search behind it
        (``root`` is ``None`` where there was nothing to search)."""
        player = state.current_player()
        if player < 0:
            raise ValueError("mcts_policy decides at a player's decision; "
                             f"this position is {state._who()}'s")
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0], None, legal, player
        hidden = bool(state.game.hidden_information)
        if hidden:
            try:
                state.sample_world(player, rng)
            except NotImplementedError as e:
                if self.fallback is not None:
                    return self.fallback(state, rng), None, legal, player
                raise SearchError(_(
                    "mcts cannot search this position of {game}: the game cannot yet "
                    "sample the hidden cards here ({reason})").format(
                        game=state.game.component_name(state.game.title), reason=e)) from None
        game = state.game
        rollout_spec, prior, prior_weight, c = self._settings(game)
        rollout = self._players(game, rollout_spec, "rollout")
        root = _Node(game.players)
        if prior is not None and prior_weight:
            self._seed_prior(root, state, player, legal, rng, prior, prior_weight)
        foregone = False
        self._tree_prior = None
        if self.tree_prior and prior is not None:
            self._tree_prior = self._named(game, prior, "prior") if isinstance(prior, str) \
                else prior
        if self.information_sets or self.stop_early or self.clock != "wall":
            done, foregone = self._search_strong(root, state, player, hidden, rng, rollout,
                                                 c, prior_weight if prior is not None else 0)
        else:
            deadline = None if self.seconds is None else time.perf_counter() + self.seconds
            done = 0
            while self.simulations is None or done < self.simulations:
                if deadline is not None and done and time.perf_counter() >= deadline:
                    break
                world = state.sample_world(player, rng) if hidden else state
                self._simulate(root, world, rng, rollout, c)
                done += 1
        self.last_simulations = done
        if foregone:
            # every simulation ended alike: the game's own heuristic (the prior) knows
            # how to finish it; without one, the best mean (a sooner win, a later loss)
            action = root.prior if root.prior is not None else \
                _best_action(root, legal, player, True)
        else:
            action = _best_action(root, legal, player, self.final == "mean")
            if self.stop_early and root.prior is not None and action is not root.prior \
                    and not _clearly_better(root, action, player, prior_weight):
                action = root.prior
        return action, root, legal, player

    def _settings(self, game):
        """``(rollout, prior, prior_weight, exploration)`` for ``game``: this bot's own,
        or with ``adopt`` those of the game's own search bot (``policies()["mcts"]``:
        the game's heuristics as rollouts and prior), looked up once per game."""
        if not self.adopt:
            return self.rollout, self.prior, self.prior_weight, self.exploration
        found = self._adopted.get(game)
        if found is None:
            own = game.policies().get("mcts")
            if not isinstance(own, MCTS) or own.adopt:
                own = MCTS()
            found = self._adopted[game] = (own.rollout, own.prior, own.prior_weight,
                                           own.exploration)
        return found

    def _search_strong(self, root, state, player, hidden, rng, rollout, c,
                       prior_weight: int) -> tuple[int, bool]:
        """The simulations of the strong options (``information_sets``, ``widening``,
        ``stop_early``, the ``cpu`` clock): ``(how many ran, foregone)``, where
        ``foregone`` says the search stopped because the result is foregone
        (``_foregone``)."""
        clock = time.process_time if self.clock == "cpu" else time.perf_counter
        start = clock()
        deadline = None if self.seconds is None else start + self.seconds
        me = player if self.information_sets else None
        legal_count = len(state.legal_actions())
        done = 0
        while self.simulations is None or done < self.simulations:
            if deadline is not None and done:
                now = clock()
                # stop when one more simulation of the mean length would overrun
                if now + (now - start) / done > deadline:
                    break
            if self.stop_early and done >= _STOP_CHECK and done % _STOP_CHECK == 0:
                left = None if self.simulations is None else self.simulations - done
                if deadline is not None:
                    elapsed = now - start
                    by_clock = done * (deadline - now) / elapsed if elapsed > 0 else math.inf
                    left = by_clock if left is None else min(left, by_clock)
                if _foregone(root, legal_count, prior_weight):
                    return done, True
                if _decided(root, left) or _settled(root, player, legal_count,
                                                     prior_weight):
                    break
            world = state.sample_world(player, rng) if hidden else state
            self._simulate(root, world, rng, rollout, c, me)
            done += 1
        return done, False

    def _players(self, game, which, role: str):
        """The rollout players by seat (``None``: uniformly random moves)."""
        if which == "random":
            return None
        if which == "default":
            return tuple(game.default_policies())
        if isinstance(which, str):
            return (self._named(game, which, role),) * game.players
        return (which,) * game.players

    def _named(self, game, name: str, role: str):
        pols = game.policies()
        policy = pols.get(name)
        if policy is None or isinstance(policy, MCTS):
            names = ", ".join(repr(k) for k, v in pols.items() if not isinstance(v, MCTS))
            raise ValueError(f"mcts_policy: {game.title} has no player {name!r} to use as "
                             f"{role} (it has {names}; or give 'random', 'default' or a "
                             f"policy)")
        return policy

    def _seed_prior(self, root: _Node, state: State, player: int, legal, rng,
                    prior, prior_weight) -> None:
        """The prior's move at the root starts with ``prior_weight`` virtual wins."""
        named = prior
        if isinstance(prior, str):
            prior = self._named(state.game, prior, "prior")
        seen = state.view(player) if state.game.hidden_information else state
        choice = prior(seen, rng)
        for a in legal:
            if a == choice:
                break
        else:
            raise ValueError(f"mcts_policy: the prior {_name(named)} chose "
                             f"{choice!s}, not a legal action here")
        child = root.children[a] = _Node(state.game.players)
        child.n = prior_weight
        child.w[player] = float(prior_weight)
        root.prior = a

    def _simulate(self, root: _Node, s: State, rng, rollout, c: float,
                  me: int | None = None) -> None:
        """One simulation from the world ``s``, added to the tree under ``root``.

        With ``me`` (``information_sets``: single-observer information-set MCTS) the
        tree is keyed by what the searching player ``me`` sees of each step
        (``Action.seen_by``), so its later decisions in the tree never depend on hidden
        cards of the sampled world (no strategy fusion across worlds).  Another
        player's moves that ``me`` cannot tell apart (a card chosen face down) share one
        node; which one that player makes is their rollout heuristic's choice where it
        is among them, else a random one.  With ``widening``, a chance node grows a new
        outcome only while it has fewer than ``widening * sqrt(visits)`` of them
        (progressive widening); other outcomes are played out without growing the
        tree."""
        players = s.game.players
        widening = self.widening
        top = s.current_player() if self.stop_early else None
        node = root
        path = [root]
        steps = 0
        while True:
            cp = s.current_player()
            if cp < 0 and cp != CHANCE:
                break                                  # the end
            if cp == CHANCE:
                a = s.sample_chance(rng)
                key = a if me is None or not isinstance(a, Action) else a.seen_by(me)
                child = node.children.get(key)
                if child is None and widening is not None and \
                        len(node.children) >= max(1.0, widening * math.sqrt(node.n)):
                    s, more = self._rollout(s.apply(a), rng, rollout)
                    steps += 1 + more
                    break
            elif me is None or cp == me:
                if self._tree_prior is not None and node is not root:
                    a, child = self._select_widened(node, s, cp, c, rng)
                else:
                    a, child = _select(node, s.legal_actions(), cp, c, rng)
                key = a
            else:
                a, key, child = _select_seen(node, s, cp, c, rng, me, rollout)
            s = s.apply(a)
            steps += 1
            if child is None:
                child = node.children[key] = _Node(players)
                path.append(child)
                s, more = self._rollout(s, rng, rollout)
                steps += more
                break
            path.append(child)
            node = child
        self._back_up(path, _values(s), steps, top)

    def _back_up(self, path: list, values: list, steps: int, top: int | None) -> None:
        """Add one simulation's shares of the win (``values``, after ``steps`` steps) to
        every node on its ``path``; with ``stop_early`` (``top``: the player to move at
        the root) also the spread of shares of the root's move it went through."""
        first = path[1] if top is not None and len(path) > 1 else None
        if first is not None:
            raw = values[top]
            if first.lo is None or raw < first.lo:
                first.lo = raw
            if first.hi is None or raw > first.hi:
                first.hi = raw
        if self.discount is not None and self.discount != 1:
            # a share's distance from the even share (½ alone: a win or a loss)
            # shrinks by ``discount`` a step: a win sooner is worth more, a loss later
            # costs less
            even, shrink = 1 / max(2, len(values)), self.discount ** steps
            values = [even + (v - even) * shrink for v in values]
        if first is not None:
            first.sq += values[top] ** 2
        for nd in path:
            nd.n += 1
            w = nd.w
            for i, v in enumerate(values):
                w[i] += v

    def _select_widened(self, node: _Node, s: State, cp: int, c: float, rng):
        """``tree_prior``: a decision in the tree below the root.  The prior's move
        (the game's heuristic, shown what ``cp`` sees) is tried first; another legal
        move is added only while the node has fewer than
        ``TREE_PRIOR_WIDENING * sqrt(visits)`` moves (progressive widening on moves), at
        random among the untried; else the best upper confidence bound among those
        tried.  So a chain of small decisions (a fence after a fence) follows the
        heuristic until the search has the visits to question it."""
        legal = s.legal_actions()
        children = node.children
        if node.prior is None:
            seen = s.view(cp) if s.game.hidden_information else s
            choice = self._tree_prior(seen, rng)
            node.prior = next((a for a in legal if a == choice), legal[0])
        tried = []
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.avail += 1
                tried.append(a)
        if len(tried) < len(legal) and \
                len(tried) < max(1.0, TREE_PRIOR_WIDENING * math.sqrt(node.n)):
            if node.prior not in children:
                return node.prior, None
            untried = [a for a in legal if a not in children]
            return untried[rng.randrange(len(untried))], None
        return _upper_bound_best(children, tried, cp, c)

    def _rollout(self, s: State, rng, players) -> tuple:
        """Play on to the end with ``players`` by seat (``None``: random moves):
        ``(the last state, how many steps were played)``."""
        for step in range(self.max_rollout_steps):
            cp = s.current_player()
            if cp < 0:
                if cp != CHANCE:
                    return s, step
                s = s.apply(s.sample_chance(rng))
            elif players is None:
                legal = s.legal_actions()
                s = s.apply(legal[rng.randrange(len(legal))])
            else:
                s = s.apply(players[cp](s, rng))
        return s, self.max_rollout_steps


def _name(policy) -> str:
    return policy if isinstance(policy, str) else getattr(policy, "__name__", "custom")


_STOP_CHECK = 16
"""``stop_early`` looks at the root every this many simulations."""


def _decided(root: _Node, left) -> bool:
    """Can the remaining simulations (``left``, an estimate on a clock) no longer change
    the most visited move at the root?  (Visits of the prior's move count its virtual
    wins, as they do when the move is chosen.)"""
    if left is None:
        return False
    first = second = 0
    for child in root.children.values():
        n = child.n
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left


_SETTLE_Z = 3.0
"""``stop_early`` also stops once the most visited move at the root is settled: its
mean share of the win, ``_SETTLE_Z`` standard errors down, is above every other
legal move's mean ``_SETTLE_Z`` standard errors up (a share in [0, 1] has a standard
deviation of at most ½, so a move tried ``n`` times has a standard error of at most
``1 / (2 sqrt(n))``): the moves left are clearly worse, and more simulations would
spend the budget on a decision already made."""

_SETTLE_MIN = 64
"""``stop_early`` settles a move only after this many real simulations of it."""


def _real(root: _Node, move, player: int, prior_weight: int) -> tuple:
    """``(simulations, summed share of player)`` of a move at the root, without the
    prior's virtual wins (which only the prior's move has)."""
    child = root.children[move]
    if move is root.prior:
        return child.n - prior_weight, child.w[player] - prior_weight
    return child.n, child.w[player]


def _settled(root: _Node, player: int, legal: int, prior_weight: int) -> bool:
    """Is the move the search would play now (the most visited, as ``_best_action``
    chooses) clearly the best one (see ``_SETTLE_Z``)?  Every legal move must have
    been tried; the prior's virtual wins do not count as simulations."""
    if len(root.children) < legal:
        return False
    best, key, stats = None, (-1, 0.0), {}
    for a, child in root.children.items():
        n, w = child.n, child.w[player]
        if n and (n, w / n) > key:
            best, key = a, (n, w / n)
        n, w = _real(root, a, player, prior_weight)
        if n <= 0:
            return False
        stats[a] = (n, w / n)
    n, mean = stats.pop(best)
    if n < _SETTLE_MIN:
        return False
    low = mean - _SETTLE_Z / (2 * math.sqrt(n))
    return all(m + _SETTLE_Z / (2 * math.sqrt(k)) < low for k, m in stats.values())


def _foregone(root: _Node, legal: int, prior_weight: int) -> bool:
    """Has every simulation so far ended alike for the player to move (every one a
    win, or every one a loss, before the discount), with every legal move tried and
    the most visited one at least ``_SETTLE_MIN`` times?  Then what it plays hardly
    matters to the result, and ``stop_early`` stops: the bot plays the prior's move
    (the game's own heuristic knows how to finish a game) or, without a prior, the
    move of the best mean.  A bot sure of its win neither spends its budget on every
    move of the game's end nor dawdles among moves that all win."""
    if len(root.children) < legal:
        return False
    lo = hi = None
    most = 0
    for a, child in root.children.items():
        if child.lo is None:
            return False                    # only the prior's virtual wins
        if lo is None:
            lo, hi = child.lo, child.hi
        elif child.lo != lo or child.hi != hi:
            return False
        most = max(most, _real(root, a, 0, prior_weight)[0])
    return lo == hi and most >= _SETTLE_MIN


_DEVIATE_Z = 1.645
"""With ``stop_early`` and a prior, the search plays another move than the prior's
(the game's own heuristic) only when that move's mean share is higher by more than
this many standard errors of the difference (one-sided 95%): a tie, or a lead within
the noise, goes to the heuristic.  So a bot whose every move wins plays the heuristic's,
which finishes the game, instead of one chosen by noise."""


def _clearly_better(root: _Node, move, player: int, prior_weight: int) -> bool:
    """Is ``move`` clearly better than the prior's move at the root (``_DEVIATE_Z``)?
    Real simulations only (the prior's virtual wins do not count); standard errors
    from each move's own spread of shares."""
    def stats(a):
        if a not in root.children:
            return 0, 0.0, 0.0
        n, w = _real(root, a, player, prior_weight)
        if n <= 0:
            return 0, 0.0, 0.0
        mean = w / n
        return n, mean, max(0.0, root.children[a].sq / n - mean * mean)
    n, mean, var = stats(move)
    k, base, var_k = stats(root.prior)
    if k < 2 or n < 2:
        return k == 0 and n > 0         # the prior's move was never tried for real
    return mean - base > _DEVIATE_Z * math.sqrt(var / (n - 1) + var_k / (k - 1))


def _select_seen(node: _Node, s: State, cp: int, c: float, rng, me: int, rollout):
    """Another player's decision in the searcher's tree: ``(action, key, child)``.  The
    legal moves are grouped by how ``me`` sees them (the key); UCB1 (for player ``cp``)
    chooses a group as ``_select`` chooses a move; within a group of moves ``me``
    cannot tell apart, the rollout player's move if it is one of them, else a random
    one."""
    groups: dict = {}
    for a in s.legal_actions():
        groups.setdefault(a.seen_by(me) if isinstance(a, Action) else a, []).append(a)
    key, child = _select(node, list(groups), cp, c, rng)
    moves = groups[key]
    if len(moves) == 1:
        return moves[0], key, child
    if rollout is not None:
        pick = rollout[cp](s, rng)
        for a in moves:
            if a == pick:
                return a, key, child
    return moves[rng.randrange(len(moves))], key, child


def _select(node: _Node, legal, cp: int, c: float, rng):
    """The action to follow at a decision: an untried legal one (chosen at random),
    else the best upper confidence bound among the legal ones."""
    children = node.children
    untried = [a for a in legal if a not in children]
    for a in legal:
        child = children.get(a)
        if child is not None:
            child.avail += 1
    if untried:
        return untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0], None
    return _upper_bound_best(children, legal, cp, c)


def _upper_bound_best(children: dict, moves, cp: int, c: float):
    """``(move, child)``: the move among ``moves`` (all tried) with the best upper
    confidence bound (UCB1 with availability counts) for player ``cp``; ties: the first."""
    best = None
    best_value = -math.inf
    for a in moves:
        child = children[a]
        value = child.w[cp] / child.n + c * math.sqrt(math.log(child.avail) / child.n)
        if value > best_value:
            best, best_value = a, value
    return best, children[best]


def _values(end: State) -> list:
    """Each player's share of the win at the end of a simulation (equal shares when a
    rollout was stopped before the end)."""
    if end.is_terminal():
        return [r.numerator / r.denominator for r in end.returns()]
    n = end.game.players
    return [1 / n] * n


def _best_action(root: _Node, legal, player: int, by_mean: bool = False):
    """The most visited legal action at the root (ties: the better mean share of
    ``player``, then the first listed), or with ``by_mean`` the best mean share (ties:
    the more visited); the very object the state listed."""
    best, key = legal[0], (-1, 0.0)
    for a in legal:
        child = root.children.get(a)
        if child is not None and child.n:
            mean = child.w[player] / child.n
            k = (mean, child.n) if by_mean else (child.n, mean)
            if k > key:
                best, key = a, k
    return best


@dataclass(frozen=True, repr=False)
class SearchReport:
    """What the search bot found at one position (``MCTS.analyse``): one row per legal
    move, ``(move text, simulations through it, mean share of the win for the player
    to move or None, chosen?, the prior's move?)``.  Visits of the prior's move
    include its virtual wins.  Prints as a table; in a notebook, an HTML table."""

    player: str
    rows: tuple
    simulations: int
    prior_weight: int
    bot: str

    def _cells(self):
        out = []
        for text, n, mean, chosen, prior in self.rows:
            share = "–" if mean is None else localize(f"{100 * mean:.1f}") + _percent_sign()
            tried = str(n) + (_(" (incl. {count} virtual)").format(count=self.prior_weight)
                              if prior else "")
            note = " ".join(_(x) for x, on in ((N_("plays this"), chosen),
                                                (N_("prior's move"), prior)) if on)
            out.append((text, tried, share, note))
        return out

    def _caption(self) -> str:
        if not self.simulations:
            return _("{player} has no choice to search here (or the bot played its "
                     "fallback): {bot}.").format(player=self.player, bot=self.bot)
        return _("{player} to move; {bot}: {count} simulations. Share: the mean share of the "
                 "win these simulations brought {player} (the prior's move counts its "
                 "virtual wins).").format(player=self.player, bot=self.bot,
                                          count=self.simulations)

    def __str__(self):
        head = (_("move"), _("tried"), _("share"), "")
        rows = [head] + self._cells()
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        lines = [("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3]).rstrip()
                 for r in rows]
        return "\n".join(lines + [self._caption()])

    __repr__ = __str__

    def _repr_html_(self):
        from html import escape
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>"
            for cells in self._cells())
        head = "".join(f"<th>{escape(h)}</th>" for h in (_("move"), _("tried"), _("share"), ""))
        return (f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                f"<p>{escape(self._caption())}</p>")


def mcts_policy(simulations: int | None = DEFAULT_SIMULATIONS, seconds: float | None = None,
                exploration: float = 1.0, rollout: str | Callable = "random",
                fallback: Callable | None = None, prior: str | Callable | None = None,
                prior_weight: int = 10, final: str = "visits", *,
                information_sets: bool = False, widening: float | None = None,
                stop_early: bool = False, clock: str = "wall",
                discount: float | None = None) -> MCTS:
    """A Monte Carlo tree search player for any game (see the module docstring).

    ``simulations``: playouts per move (reproducible); ``seconds``: a time limit per
    move (machine-dependent); with both, whichever comes first.  ``exploration``: the
    UCB constant (returns are shares of the win in [0, 1]).  ``rollout``:
    ``"random"``, ``"default"`` (the game's ``default_policies()``), the name of one of
    the game's ``policies()`` (checked when the bot first plays) or a policy.
    ``fallback``: a policy to play where a hidden-information game cannot sample a
    world (default: raise ``SearchError``).  ``prior``: a policy or policy name whose
    move at the root starts with ``prior_weight`` virtual wins.  ``final``:
    ``"visits"`` plays the most visited move, ``"mean"`` the best mean share.
    ``information_sets``, ``widening``, ``stop_early``, ``clock`` and ``discount`` as in
    ``strong_policy`` (all off by default).  ``stop_early`` brings, with a prior, the
    strong level's root rules too: a move other than the prior's only when clearly
    better (``_DEVIATE_Z``), and the foregone stop (``_foregone``); both need the
    per-move spread of shares that only ``stop_early`` keeps."""
    return MCTS(simulations, seconds, exploration, rollout, fallback, prior=prior,
                prior_weight=prior_weight, final=final, information_sets=information_sets,
                widening=widening, stop_early=stop_early, clock=clock, discount=discount)


STRONG_SECONDS = 1.0
"""The strong level's budget: CPU seconds per move (``strong_policy``)."""

STRONG_WIDENING = 2.0
"""The strong level's progressive widening at chance nodes (``strong_policy``)."""

TREE_PRIOR_WIDENING = 0.5
"""``tree_prior``: a decision below the root has at most ``TREE_PRIOR_WIDENING *
sqrt(visits)`` moves tried, the prior's first: one until its 5th visit, two until its
17th, three until its 37th.  In My Kingdom for a Horse at 400 simulations a move,
trying every fence placement below "use the die 2 fences" at random made the fence
dice look worse than declining them (65% against 90% of the win in one position),
though greedy's own play-outs rate them better; the bot then built no fences, and
against ``random`` it dawdled to the 30-round safeguard (a tie).  With this, two
seeded games that took 30 rounds took 7 and 11."""


def strong_policy(seconds: float | None = STRONG_SECONDS,
                  simulations: int | None = None) -> MCTS:
    """The strong level of the search bot, ``"mcts-strong"`` in every game's
    ``policies()``: up to ``seconds`` of CPU time a move (``time.process_time``, so a
    busy machine does not shorten its thinking; default one second), or at most
    ``simulations`` (reproducible: a seeded game then replays identically anywhere),
    or whichever comes first when both are given.

    * It plays the game's own search settings (``policies()["mcts"]``: the game's
      cheap heuristics as rollouts and as the prior at the root, its exploration
      constant), looked up through the protocol when it first plays a game.
    * Information-set MCTS: each simulation samples a world consistent with what its
      player has seen (``State.sample_world``); the tree is keyed by what that player
      sees of every step (``Action.seen_by``), so none of its decisions in the tree
      depends on a hidden card (no strategy fusion across sampled worlds).
    * Progressive widening at chance nodes: a chance node grows at most
      ``STRONG_WIDENING * sqrt(visits)`` outcomes; rarer ones are played out.
    * The prior in the tree (``tree_prior``): below the root too, the heuristic's move
      is tried first and others are added slowly (``TREE_PRIOR_WIDENING``); at the
      root, a move other than the heuristic's is played only when clearly better
      (``_DEVIATE_Z``), so a bot whose every move wins plays the heuristic's, which
      finishes the game.
    * It starts no simulation that would, at the mean length so far, overrun the
      time budget, and stops early when the remaining budget can no longer change
      the most visited move, or when that move is settled: clearly better than every
      other (``_SETTLE_Z``), or when the result is foregone: every simulation ended
      alike, a win or a loss whatever it plays; it then plays the game's own heuristic
      (the prior), which knows how to finish (``_foregone``)."""
    if seconds is not None and (isinstance(seconds, bool)
                                or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= 3600):
        raise ValueError(f"mcts-strong: seconds (CPU seconds a move) must be a number "
                         f"above 0 and at most 3600, not {seconds!r}")
    if simulations is not None and (isinstance(simulations, bool)
                                    or not isinstance(simulations, int) or simulations < 1):
        raise ValueError(f"mcts-strong: simulations must be a whole number >= 1, "
                         f"not {simulations!r}")
    if seconds is None and simulations is None:
        raise ValueError("mcts-strong needs a budget: seconds (CPU), simulations or both")
    return MCTS(simulations, seconds, information_sets=True, widening=STRONG_WIDENING,
                stop_early=True, clock="cpu", adopt=True, tree_prior=True)


CORE_PLAYERS["mcts"] = mcts_policy      # offered by every game, at the default budget
CORE_PLAYERS["mcts-strong"] = strong_policy     # every game: up to a CPU second a move
