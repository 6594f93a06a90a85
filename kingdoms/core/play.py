"""Playing and simulating games with policies.

A *policy* is any callable ``policy(state, rng) -> action`` for a decision state.
Chance nodes are sampled with the same seeded ``random.Random``, so a seed fixes the
whole game.

* **Who plays.**  Without ``policies``, ``play`` and ``simulate`` seat the game's own
  sensible players, ``game.default_policies()`` (cheap players whose games end by the
  rules); ``game.policies()`` names the others a game offers.
* **What a policy sees.**  With ``views=True`` a policy is handed
  ``state.view(player)``: the position as the player to move may see it, whose
  ``legal_actions()`` are that player's actions; the action it picks is mapped back
  to the real state's equal action.  A policy with ``observes = True`` (the search
  bot) is handed ``state.observed(player)`` instead: the same view, carrying what
  that player observed on the way.  ``views=None`` (the default) means True for
  games with hidden information (``game.hidden_information``) and False otherwise;
  ``views=False`` hands policies the full state (an all-seeing player).
* **Seeds.**  A seed is an int or a str (records keep it as JSON); ``1`` and ``"1"``
  are different seeds.  ``play(game)`` without a seed draws a fresh one and records
  it, so every game can be replayed and played again.
* **Honest endings.**  A game the engine had to cut short (a safeguard such as a
  round limit, not a rule: ``State.unfinished()``) has no winner: its record says
  ``unfinished`` and ``simulate`` counts it apart and computes win rates over the
  games that ended by the rules.
"""
from __future__ import annotations

import gc
import random
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Protocol, Sequence

from .protocol import CHANCE, CORE_PLAYERS, Game, State, check_player, player_label
from .records import GameRecord, check_seed
from .i18n import N_, _, ngettext, using
from .text import number, percent, progress_bar, share_text, speaks, wilson_interval

# the columns of SimulationSummary.rows() and TournamentResult.rows(), translated
# where shown (the keys are the column headings of a table for people)
PLAYER, WIN_SHARE, INTERVAL, MEAN_SCORE = (N_("player"), N_("win share"), N_("95% interval"),
                                           N_("mean score"))

__all__ = ["Policy", "random_policy", "first_policy", "play", "play_state", "simulate",
           "SimulationSummary", "game_rng", "fresh_seed"]


class Policy(Protocol):
    def __call__(self, state: State, rng: random.Random) -> Any: ...


def random_policy(state: State, rng: random.Random):
    """Choose uniformly among the legal actions."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def first_policy(state: State, rng: random.Random):
    """Always the first legal action (deterministic; handy in tests)."""
    return state.legal_actions()[0]


CORE_PLAYERS["random"] = lambda: random_policy      # offered by every game


def game_rng(seed: Any, index: int = 0) -> random.Random:
    """The random source of game number ``index`` of a run seeded with ``seed``
    (an int or a str; an int seed gives the same games as ever, a str seed other
    ones: ``1`` and ``"1"`` differ)."""
    check_seed(seed)
    if isinstance(seed, str):
        return random.Random(f"kingdoms/str:{len(seed)}:{seed}/{index}")
    return random.Random(f"kingdoms/{seed}/{index}")


def fresh_seed() -> int:
    """A new seed from the system's randomness (recorded, so the game replays)."""
    return random.SystemRandom().randrange(2 ** 32)


def named_policy(game: Game, name: str, named: dict | None = None) -> Callable:
    """The player called ``name`` in ``game.policies()`` (``named``: that dict, if the
    caller has it already); an unknown name is a ``ValueError`` listing the names."""
    named = game.policies() if named is None else named
    if name not in named:
        raise ValueError(_("{game} has no player called {name}; its players are: "
                           "{names}").format(game=game.component_name(game.title), name=repr(name),
                                             names=", ".join(named)))
    return named[name]


def _check_game(game, what: str) -> None:
    """Refuse anything but a game where whole games are played from the start."""
    if isinstance(game, Game):
        return
    if isinstance(game, State):
        raise TypeError(_("{what} plays whole games from the start: give it the game "
                          "(state.game), not a position; to play on from a position, use "
                          "play_state(state, ...)").format(what=what))
    raise TypeError(_("{what} needs a game (kingdoms.game(name, ...)), not {kind}").format(
        what=what, kind=type(game).__name__))


def _policies_for(game: Game, policies) -> Sequence[Callable]:
    """One policy per player from: None (the game's own players), one policy or one
    name of ``game.policies()`` for all, or one policy or name per player."""
    if policies is None:
        policies = game.default_policies()
    if isinstance(policies, str):
        policies = named_policy(game, policies)
    if callable(policies):
        return [policies] * game.players
    try:
        policies = list(policies)
    except TypeError:
        raise TypeError(_("policies are one policy (or player name) for all, one per "
                          "player, or None for the game's own players; not {kind}").format(
                              kind=type(policies).__name__)) from None
    if len(policies) != game.players:
        raise ValueError(_("{count} policies for {players} players: give one per "
                           "player, one for all, or None for the game's own players").format(
                               count=len(policies), players=game.players))
    named = None
    for i, p in enumerate(policies):
        if isinstance(p, str):
            named = game.policies() if named is None else named
            policies[i] = p = named_policy(game, p, named)
        if not callable(p):
            raise TypeError(_("the policy for {player} is not callable: {kind}").format(
                player=game.player_name(i), kind=type(p).__name__))
    return policies


def _views_for(game: Game, views) -> bool:
    if views is None:
        return bool(game.hidden_information)
    if not isinstance(views, bool):
        raise TypeError(_("views is True, False or None, not {kind}").format(
            kind=type(views).__name__))
    return views


def _decide(state: State, cp: int, policy: Callable, rng, views: bool,
            observes: bool | None = None):
    """The action ``policy`` picks for player ``cp`` (given their view if ``views``).
    ``observes``: ``policy.observes`` if the caller has looked it up already."""
    if not views:
        return policy(state, rng)
    # a policy that samples worlds (the search bot) asks for the view that carries
    # what its player observed on the way (``State.observed``)
    if observes is None:
        observes = getattr(policy, "observes", False)
    seen = state.observed(cp) if observes else state.view(cp)
    if seen is not state:
        # who moves is public: the view's own answer would be ``cp`` (a contract
        # every game keeps and tests), so it is not worked out again
        d = seen.__dict__
        if d.get("_cp") is None:
            d["_cp"] = cp
    action = policy(seen, rng)
    # the view lists the same actions in the same order (a contract every game keeps
    # and tests): take the real one; where the real state has not listed its actions
    # yet, it takes the view's list (equal values, in the same order) instead of
    # building an equal one
    listed = seen.legal_actions()
    cache = state.__dict__
    real = cache.get("_la")
    if real is listed:
        return action       # the view handed on the state's own list
    for i, a in enumerate(listed):
        if a is action:
            if real is None:
                cache["_la"] = listed
                return action
            if i < len(real) and type(real[i]) is type(a) and real[i] == a:
                return real[i]
            break
    return action           # apply finds the equal legal action, or refuses it


def play_state(game: Game | State, policies=None, seed: Any = None,
               max_steps: int = 1_000_000, rng: random.Random | None = None,
               views: bool | None = None) -> State:
    """Play from ``game`` (its initial state) or a given state to the end.

    ``policies``: one per player, one for all, or None for ``game.default_policies()``
    (a policy may be given by its name in ``game.policies()``, e.g. ``"greedy"``).
    ``seed`` (int or str) or ``rng`` fix the game; with neither, a fresh seed is drawn.
    ``views``: see the module docstring."""
    state = game.initial_state() if isinstance(game, Game) else game
    pols = _policies_for(state.game, policies)
    use_views = _views_for(state.game, views)
    if rng is None:
        rng = game_rng(fresh_seed() if seed is None else seed)
    return _play_out(state, pols, rng, use_views, max_steps)


def _play_out(state: State, pols: Sequence[Callable], rng, views: bool,
              max_steps: int = 1_000_000) -> State:
    """The loop of ``play_state``, for policies and views already checked."""
    observes = [getattr(p, "observes", False) for p in pols]   # looked up once
    for _step in range(max_steps):
        cp = state.current_player()
        if cp < 0:
            if cp != CHANCE:
                return state
            state = state.apply(state.sample_chance(rng))
        elif views:
            state = state.apply(_decide(state, cp, pols[cp], rng, True, observes[cp]))
        else:
            state = state.apply(pols[cp](state, rng))
    raise RuntimeError(_("game did not end within {steps} steps").format(steps=max_steps))


def play(game: Game, policies=None, seed: Any = None, views: bool | None = None) -> GameRecord:
    """Play one game and return its ``GameRecord``.

    ``policies``: one per player, one for all, or None for the game's own players
    (``game.default_policies()``); a policy may be given by its name in
    ``game.policies()``.  The same seed (an int or a str) gives the same
    game; without one a fresh seed is drawn and kept in the record.  ``views``: see
    the module docstring.
    """
    seed = fresh_seed() if seed is None else check_seed(seed)
    return GameRecord.of(play_state(game, policies, seed, views=views), seed=seed)


# --------------------------------------------------------------------------- simulate

@dataclass
class SimulationSummary:
    """What ``simulate`` found: win shares, scores and game lengths.

    ``wins`` sums each player's win share over the games that ended by the rules;
    ``unfinished`` counts the games the engine cut short (a safeguard, not a rule),
    which have no winner and are left out of the win rates (``unfinished_reasons``
    says why they were cut)."""

    game: str
    players: int
    n: int
    wins: list                      # summed win shares per player (Fractions)
    scores: list = field(default_factory=list)   # per player: Counter of final scores
    lengths: Counter = field(default_factory=Counter)
    unfinished: int = 0
    unfinished_reasons: Counter = field(default_factory=Counter)
    names: tuple = ()               # player names as people read them
    title: str = ""
    # the language of its tables (the game's ``language``; None: the current one)
    language: str | None = field(default=None, compare=False, repr=False)

    @property
    def _language(self):
        return self.language

    @property
    def finished(self) -> int:
        """Games that ended by the rules."""
        return self.n - self.unfinished

    def win_shares(self) -> list[Fraction | None]:
        """Each player's share of the wins over the finished games (exact), or None
        for every player when no game finished."""
        if self.finished == 0:
            return [None] * self.players
        return [Fraction(w) / self.finished for w in self.wins]

    def win_rates(self) -> list[float | None]:
        """``win_shares`` as floats."""
        return [None if w is None else float(w) for w in self.win_shares()]

    def interval(self, player: int) -> tuple[float, float]:
        """The 95% Wilson score interval of ``player``'s win share (the games are a
        sample: the share is an estimate)."""
        share = self.win_shares()[check_player(self, player, "interval")]
        return wilson_interval(0 if share is None else share, self.finished)

    @speaks
    def share_text(self, player: int) -> str:
        """``player``'s win share for people: ``"8.7% (5.6-13.2%) of 300 games"``
        (over the games that ended by the rules)."""
        share = self.win_shares()[check_player(self, player, "share_text")]
        return share_text(0 if share is None else share, self.finished)

    def mean_scores(self) -> list[float] | None:
        if not self.scores:
            return None
        return [sum(s * k for s, k in c.items()) / self.n for c in self.scores]

    def score_distribution(self, player: int):
        """The empirical distribution of ``player``'s final score."""
        from .distribution import Distribution
        return Distribution(self.scores[player])

    def player_name(self, player: int) -> str:
        if player < len(self.names):
            return self.names[player]
        return player_label(player)

    @speaks
    def rows(self) -> list[dict]:
        """One row per player, as text for people: name, win share over the finished
        games (a percentage), its 95% interval, mean score (2 decimals) — for tables
        (e.g. ``pandas.DataFrame(summary.rows())``)."""
        rows = []
        means = self.mean_scores()
        shares = self.win_shares()
        for p in range(self.players):
            lo, hi = self.interval(p)
            row = {_(PLAYER): self.player_name(p),
                   _(WIN_SHARE): "–" if shares[p] is None else percent(shares[p]),
                   _(INTERVAL): "–" if shares[p] is None else
                   _("{low} to {high}").format(low=percent(lo), high=percent(hi))}
            if means is not None:
                row[_(MEAN_SCORE)] = number(means[p], 2)
            rows.append(row)
        return rows

    @speaks
    def table(self) -> str:
        rows = self.rows()
        header = list(rows[0])
        body = [[r[h] for h in header] for r in rows]
        widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                 for r in [header] + body]
        mean_len = sum(k * v for k, v in self.lengths.items()) / self.n
        name = self._title_now()
        games = ngettext("{n} game", "{n} games", self.n).format(n=self.n)
        if self.unfinished == 0:
            end = _("every one ended by the rules")
        else:
            reason = self.unfinished_reasons.most_common(1)[0][0] \
                if self.unfinished_reasons else _("cut short by a safeguard")
            end = _("{finished} ended by the rules and {unfinished} were cut short "
                    "by the engine (not counted in the win shares; e.g. {reason})").format(
                        finished=self.finished, unfinished=self.unfinished, reason=reason)
        lines.append(_("{games} of {name}: {end}. Mean length {length} steps.").format(
            games=games, name=name, end=end, length=number(mean_len, 1)))
        if self.finished == 0:
            lines.append(_("No game ended by the rules, so there are no win shares."))
        else:
            lines.append(_("Win share: the share of the wins (ties split) over the games "
                           "that ended by the rules; 95% Wilson score interval."))
        return "\n".join(lines)

    def __str__(self):
        return self.table()

    def _repr_html_(self):
        import html
        return f"<pre>{html.escape(self.table())}</pre>"

    def _title_now(self) -> str:
        """The game's title in the language the summary speaks (its data's name_de; the
        title is kept in English, as batches made in worker processes carry it)."""
        if not self.title:
            return self.game
        try:
            from .registry import game_class
            return game_class(self.game)().component_name(self.title)
        except Exception:           # a game not in the registry (a test's toy game)
            return self.title

    def merge(self, other: "SimulationSummary") -> "SimulationSummary":
        scores = [a + b for a, b in zip(self.scores, other.scores)] if self.scores else other.scores
        return SimulationSummary(self.game, self.players, self.n + other.n,
                                 [a + b for a, b in zip(self.wins, other.wins)],
                                 scores, self.lengths + other.lengths,
                                 self.unfinished + other.unfinished,
                                 self.unfinished_reasons + other.unfinished_reasons,
                                 self.names or other.names, self.title or other.title,
                                 self.language or other.language)


def _empty_summary(game: Game) -> SimulationSummary:
    with using(game.language):            # the names as its tables will say them
        names = tuple(game.player_name(p) for p in range(game.players))
    return SimulationSummary(game.name, game.players, 0, [Fraction(0)] * game.players,
                             [], Counter(), 0, Counter(), names, game.title, game.language)


# Playing games allocates many small containers that live until the game ends (each
# state keeps the one before it) and are then freed by reference counting: cyclic
# garbage collection finds nothing among them, but with Python's default thresholds
# it scans them again and again (measured: ~12% of long random Horse playouts, 2-5%
# of ``simulate`` with the default players, about a third of that with these
# thresholds).  While a batch is played the collector runs less often; the
# thresholds are restored after.
_FEWER_COLLECTIONS = (20_000, 20, 20)
_gc_lock = threading.Lock()
_gc_users = 0
_gc_saved: tuple | None = None


@contextmanager
def _fewer_collections():
    """Raise the garbage collector's thresholds while the block runs (speed only;
    nothing observable changes).  Nested and concurrent uses restore the user's
    thresholds when the last one ends."""
    global _gc_users, _gc_saved
    with _gc_lock:
        if _gc_users == 0:
            _gc_saved = gc.get_threshold()
            gc.set_threshold(*(max(a, b) for a, b in zip(_gc_saved, _FEWER_COLLECTIONS)))
        _gc_users += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0 and _gc_saved is not None:
                # unless someone changed them meanwhile, back to the saved thresholds
                gc.set_threshold(*_gc_saved)
                _gc_saved = None


def _steps(end: State) -> int:
    """``len(end.history())``, without building it."""
    k = 0
    while end._last is not None:
        k += 1
        end = end._prev
    return k


def _run_batch(args) -> SimulationSummary:
    """Games ``start .. stop-1`` of a simulation, summarised (the same summary as
    merging one-game summaries in order)."""
    game, policies, seed, start, stop, views = args
    use_views = _views_for(game, views)
    summary = _empty_summary(game)
    wins, lengths, reasons = summary.wins, summary.lengths, summary.unfinished_reasons
    with _fewer_collections():
        for i in range(start, stop):
            # the players are seated afresh for every game, as ``play_state`` does (a
            # game's default players may keep something from one move to the next)
            pols = _policies_for(game, policies)
            end = _play_out(game.initial_state(), pols, game_rng(seed, i), use_views)
            scores = end.scores()
            why = end.unfinished()
            summary.n += 1
            if why is None:
                for p, r in enumerate(end.returns()):
                    wins[p] += r
            else:
                summary.unfinished += 1
                reasons[why] += 1
            if scores is not None:
                if not summary.scores:
                    summary.scores = [Counter() for _ in scores]
                for c, x in zip(summary.scores, scores):
                    c[x] += 1
            lengths[_steps(end)] += 1
    return summary


MAX_BATCH = 200
"""At most this many games in one batch of ``simulate`` or ``tournament`` (n/20 by
default): an interrupt waits only for the batches already running."""


def pool_result(future):
    """``future.result()`` of a batch sent to an executor; a policy that cannot be
    pickled (a lambda, a function defined inside another) is refused with what to do
    instead (a ``pickle.PicklingError`` saying so)."""
    import pickle
    try:
        return future.result()
    except (pickle.PicklingError, AttributeError, TypeError) as e:
        text = str(e)
        if not isinstance(e, pickle.PicklingError) and "pickle" not in text:
            raise
        raise pickle.PicklingError(_(
            "a process pool sends the game and its players to other processes, which "
            "needs them picklable: give policies for a pool as module-level functions "
            "(def at the top of a module or notebook, not a lambda or a function inside "
            "another) or by the names of the game's players (e.g. 'random'); here: {error}"
        ).format(error=text)) from e


def simulate(game: Game, n: int, policies=None, seed: Any = 0, executor=None,
             batch: int | None = None, progress=True,
             views: bool | None = None) -> SimulationSummary:
    """Play ``n`` games and summarise them.

    ``policies``: one per player, one for all, or None for the game's own players
    (``game.default_policies()``); a policy may be given by its name in
    ``game.policies()`` (``"greedy"``); ``views``: see the module docstring.  Game ``i``
    uses the random source ``game_rng(seed, i)`` (``seed`` an int or a str), so the
    result depends only on ``seed``: serial, a process pool or a Dask cluster give
    identical summaries.  ``executor`` is any ``concurrent.futures.Executor`` (or a
    ``dask.distributed.Client``); policies must then be picklable (module-level
    functions).  ``progress``: True for a progress bar (tqdm), False for none, or a
    function ``progress(done, n)`` called after each batch.  An interrupt
    (KeyboardInterrupt, e.g. a notebook's stop button) cancels the work not yet
    started and is raised at once.
    """
    check_seed(seed)
    _check_game(game, "simulate")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(_("simulate needs a whole number n >= 1 of games, not {given}").format(
            given=repr(n)))
    _policies_for(game, policies)           # wrong counts fail here, not in a worker
    _views_for(game, views)
    if batch is None:
        batch = max(1, min(MAX_BATCH, n // 20 or 1))
    chunks = [(game, policies, seed, a, min(a + batch, n), views) for a in range(0, n, batch)]
    callback = progress if callable(progress) else None
    bar = None
    if callback is None:
        with using(game.language):
            desc = _("simulating {game}").format(game=game.component_name(game.title))
        bar = progress_bar(n, desc, bool(progress))
    total = None
    futures = []
    done = 0
    try:
        if executor is None:
            results = map(_run_batch, chunks)
        else:
            futures = [executor.submit(_run_batch, c) for c in chunks]
            results = (pool_result(f) for f in futures)
        for part in results:           # in submission order: deterministic merge
            total = part if total is None else total.merge(part)
            done += part.n
            if bar is not None:
                bar.update(part.n)
            if callback is not None:
                callback(done, n)
    except BaseException:
        for f in futures:              # interrupted (or failed): stop the rest now
            f.cancel()
        raise
    finally:
        if bar is not None:
            bar.close()
    return total
