"""Tournaments: which player is better, with 95% confidence intervals.

``tournament(game, players, n, seed)`` plays ``n`` games between named players,
seat-balanced: every seat order of the players is played equally often (two players:
half the games each way round), so no player profits from sitting first.  The
games of one *block* (one game per seat order) share one random source
(``game_rng(seed, block)``), so the same seed gives the same tournament, and a
process pool (``executor``) gives exactly the serial result.

The result (``TournamentResult``) gives each player's **win share** (the mean of their
per-game share of the win: 1 for a win, 0 for a loss, 1/k for a k-way tie) with a
95% **Wilson score interval** computed from that share and the number of finished
games (with ties counted as shares this is slightly conservative: a tie varies less
than a win-or-loss), and the **mean score** with a 95% normal interval
(mean ± 1.96 standard errors), as a table (``str``, ``_repr_html_``, ``rows()``) and
a chart (``plot()``).  Games the engine cut short (``State.unfinished()``) have no
winner: they are counted apart and left out of win shares and scores.
"""
from __future__ import annotations

import html
import io
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .play import (MAX_BATCH, _check_game, _views_for, game_rng, named_policy, play_state,
                   pool_result)
from .protocol import Game
from .records import check_seed
from .i18n import N_, _, ngettext, using
from .play import INTERVAL, MEAN_SCORE, PLAYER, WIN_SHARE
from .text import (Z95, localize_ticks, number, percent as _percent, progress_bar, speaks,
                   wilson_interval)

RECORD = N_("won / tied / lost")

__all__ = ["tournament", "TournamentResult", "GameResult", "wilson_interval"]

@dataclass(frozen=True)
class GameResult:
    """One game of a tournament: ``seats[i]`` is the index (into the tournament's
    player names) of the player in seat ``i``; ``returns`` and ``scores`` are by seat."""
    index: int
    seats: tuple
    returns: tuple
    scores: tuple | None
    length: int
    unfinished: str | None


@dataclass
class TournamentResult:
    """What ``tournament`` found (see the module docstring)."""

    title: str
    names: tuple                       # the players' names, as given
    games: list = field(default_factory=list)      # GameResult, in game order
    seat_names: tuple = ()            # the game's seat names ("Player 1", ...)
    # the language of its tables (the game's ``language``; None: the current one)
    language: str | None = field(default=None, compare=False, repr=False)

    @property
    def _language(self):
        return self.language

    # ---------------------------------------------------------------- numbers
    @property
    def n(self) -> int:
        return len(self.games)

    @property
    def finished(self) -> list:
        return [g for g in self.games if g.unfinished is None]

    @property
    def unfinished(self) -> int:
        """Games the engine cut short (not counted in win shares or scores)."""
        return self.n - len(self.finished)

    def _index(self, player) -> int:
        if isinstance(player, int) and not isinstance(player, bool) \
                and 0 <= player < len(self.names):
            return player
        if player in self.names:
            return self.names.index(player)
        raise ValueError(_("no player {name} in this tournament; the players are "
                           "{names}").format(name=repr(player), names=", ".join(self.names)))

    def shares(self, player) -> list:
        """``player``'s share of the win in each finished game (Fractions)."""
        k = self._index(player)
        return [g.returns[g.seats.index(k)] for g in self.finished]

    def win_share(self, player) -> Fraction | None:
        """The exact mean share of the win over the finished games (None if none)."""
        s = self.shares(player)
        return Fraction(sum(s)) / len(s) if s else None

    def interval(self, player) -> tuple[float, float]:
        """The 95% Wilson score interval of ``player``'s win share."""
        s = self.shares(player)
        return wilson_interval(sum(s) / len(s) if s else 0.0, len(s))

    def record(self, player) -> tuple[int, int, int]:
        """``(wins, ties, losses)``: whole wins, shared wins, no share."""
        s = self.shares(player)
        wins = sum(1 for x in s if x == 1)
        losses = sum(1 for x in s if x == 0)
        return wins, len(s) - wins - losses, losses

    def mean_score(self, player) -> tuple[float, float] | None:
        """``(mean, half-width of its 95% normal interval)`` of ``player``'s final
        score over the finished games, or None for a game without scores."""
        k = self._index(player)
        xs = [float(g.scores[g.seats.index(k)]) for g in self.finished
              if g.scores is not None]
        if not xs:
            return None
        mean = sum(xs) / len(xs)
        if len(xs) < 2:
            return mean, math.inf
        var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
        return mean, Z95 * math.sqrt(var / len(xs))

    def seat_shares(self) -> list[Fraction | None]:
        """The mean share of the win of each seat (whoever sat there): how much
        sitting first is worth in this game."""
        fin = self.finished
        if not fin:
            return [None] * len(self.seat_names)
        return [Fraction(sum(g.returns[i] for g in fin)) / len(fin)
                for i in range(len(self.seat_names))]

    # ---------------------------------------------------------------- for people
    @speaks
    def rows(self) -> list[dict]:
        """One row per player, as text for people."""
        rows = []
        for k, name in enumerate(self.names):
            share = self.win_share(k)
            lo, hi = self.interval(k)
            w, t, l = self.record(k)
            row = {_(PLAYER): name,
                   _(WIN_SHARE): "–" if share is None else _percent(share),
                   _(INTERVAL): "–" if share is None else
                   _("{low} to {high}").format(low=_percent(lo), high=_percent(hi)),
                   _(RECORD): f"{w} / {t} / {l}"}
            score = self.mean_score(k)
            if score is not None:
                mean, half = score
                row[_(MEAN_SCORE)] = f"{number(mean, 2)} ± {number(half, 2)}" \
                    if math.isfinite(half) else number(mean, 2)
            rows.append(row)
        return rows

    @speaks
    def summary(self) -> str:
        """The sentence under the table: games, seat orders, unfinished games, method."""
        orders = math.factorial(len(self.names))
        games = ngettext("{n} game", "{n} games", self.n).format(n=self.n)
        text = _("{games} of {name}").format(games=games, name=self.title)
        if orders > 1:
            text += _(", every seat order equally often ({count} orders)").format(count=orders)
        if self.unfinished:
            text += _("; {count} cut short by the engine (no winner, not "
                      "counted)").format(count=self.unfinished)
        text += _(". Win share: mean share of the win per game (ties split); 95% "
                  "Wilson score interval.")
        if any(g.scores is not None for g in self.finished):
            text += _(" Mean score ± the half-width of its 95% interval.")
        if len(self.seat_names) > 1 and self.finished:
            seats = ", ".join(f"{name} {_percent(s)}"
                              for name, s in zip(self.seat_names, self.seat_shares()))
            text += _(" By seat: {seats}.").format(seats=seats)
        return text

    @speaks
    def table(self) -> str:
        rows = self.rows()
        header = list(rows[0]) if rows else [_(PLAYER)]
        body = [[r[h] for h in header] for r in rows]
        widths = [max(len(x) for x in col) for col in zip(header, *body)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                 for r in [header] + body]
        return "\n".join(lines + [self.summary()])

    def __str__(self):
        return self.table()

    @speaks
    def __repr__(self):
        return _("<tournament of {name}: {count} games, players {players}>").format(
            name=self.title, count=self.n, players=", ".join(self.names))

    @speaks
    def _repr_html_(self):
        rows = self.rows()
        header = list(rows[0]) if rows else [_(PLAYER)]
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(r[h])}</td>" for h in header)
                       + "</tr>" for r in rows)
        return (f'<table class="kingdoms-tournament"><thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody><caption style=\"caption-side: bottom; "
                f"text-align: left\">{html.escape(self.summary())}</caption></table>")

    @speaks
    def plot(self, ax=None):
        """Win shares as bars with their 95% intervals and the even share as a line.
        With ``ax`` (matplotlib axes) draws there and returns it; otherwise returns an
        SVG picture (shown by Jupyter; ``.svg`` is its text)."""
        if ax is not None:
            return self._draw(ax)
        import matplotlib
        from matplotlib.figure import Figure
        # no date and a fixed id salt: the same result gives the same SVG text
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "kingdoms"}):
            fig = Figure(figsize=(6, 0.55 * len(self.names) + 1.4))
            self._draw(fig.add_subplot())
            buf = io.StringIO()
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
        return SVGPicture(buf.getvalue())

    def _draw(self, ax):
        from .tree import PALETTE
        names = list(self.names)
        ys = list(range(len(names)))[::-1]
        shares = [float(self.win_share(k) or 0) for k in range(len(names))]
        lows, highs = zip(*(self.interval(k) for k in range(len(names))))
        ax.barh(ys, shares, height=0.6, color=PALETTE["sky"], edgecolor=PALETTE["blue"],
                zorder=2, label=_("win share"))
        ax.errorbar(shares, ys, xerr=[[s - lo for s, lo in zip(shares, lows)],
                                      [hi - s for s, hi in zip(shares, highs)]],
                    fmt="none", ecolor="#333333", elinewidth=1.2, capsize=5, zorder=3,
                    label=_("95% interval"))
        even = 1 / len(self.seat_names) if len(self.seat_names) > 1 else 0.5
        ax.axvline(even, color=PALETTE["vermillion"], linestyle="--", zorder=4,
                   label=_("even share ({share})").format(share=_percent(even)))
        for y, s, hi in zip(ys, shares, highs):
            ax.annotate(_percent(s), (min(hi, 1.0), y), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize=8)
        ax.set_yticks(ys, names)
        ax.set_xlim(0, 1.12)
        ax.set_xlabel(_("share of the win"))
        localize_ticks(ax.xaxis)
        ax.grid(axis="x", color="#dddddd", zorder=0)
        ax.spines[["top", "right"]].set_visible(False)
        ax.set_title(_("{name}: {games}").format(name=self.title, games=ngettext(
            "{n} game", "{n} games", self.n).format(n=self.n)), fontsize=10)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=3, fontsize=8,
                  frameon=False)
        return ax


class SVGPicture:
    """An SVG chart that Jupyter shows; ``.svg`` is its text."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self):
        return self.svg

    def __repr__(self):
        return "<SVG chart>"


# --------------------------------------------------------------------------- playing

def _players(game: Game, players) -> tuple[tuple, tuple]:
    """``(names, policies)`` from a dict name -> policy (or policy name), or a list of
    names of ``game.policies()``."""
    named = None
    if isinstance(players, dict):
        items = list(players.items())
    elif isinstance(players, (list, tuple)):
        items = [(p, p) for p in players]
    else:
        raise TypeError(_("players is a dict {{name: policy}} or a list of names from "
                          "game.policies(), not {kind}").format(kind=type(players).__name__))
    names, policies = [], []
    for name, policy in items:
        if not isinstance(name, str) or not name:
            raise TypeError(_("player names are non-empty strings, not {given}").format(
                given=repr(name)))
        if isinstance(policy, str):
            named = game.policies() if named is None else named
            policy = named_policy(game, policy, named)
        if not callable(policy):
            raise TypeError(_("the policy for {player} is not callable: {kind}").format(
                player=name, kind=type(policy).__name__))
        names.append(name)
        policies.append(policy)
    if len(set(names)) != len(names):
        raise ValueError(_("two players share a name: {names}").format(names=", ".join(names)))
    if len(names) != game.players:
        raise ValueError(_("{game} is set up for {players} players but the "
                           "tournament has {count} ({names}); give one "
                           "player per seat").format(game=game.component_name(game.title), players=game.players,
                                                     count=len(names), names=", ".join(names)))
    return tuple(names), tuple(policies)


def _play_games(args) -> list:
    game, policies, seed, orders, start, stop, views = args
    out = []
    for i in range(start, stop):
        seats = orders[i % len(orders)]
        rng = game_rng(seed, i // len(orders))
        end = play_state(game, [policies[k] for k in seats], rng=rng, views=views)
        scores = end.scores()
        out.append(GameResult(i, seats, tuple(end.returns()),
                              None if scores is None else tuple(scores),
                              len(end.history()), end.unfinished()))
    return out


def tournament(game: Game, players, n: int, seed: Any = 0, executor=None,
               progress=True, views: bool | None = None,
               batch: int | None = None) -> TournamentResult:
    """Play ``n`` seat-balanced games between ``players`` and return a
    ``TournamentResult`` (see the module docstring).

    ``players``: a dict ``{name: policy}`` (a policy may also be given by its name
    in ``game.policies()``) or a list of such names; one per seat of ``game``.
    ``n``: the number of games, a multiple of the number of seat orders (2 for two
    players, 6 for three ...).  ``seed``: an int or a str; game ``i`` of seat order
    block ``b`` uses ``game_rng(seed, b)``.  ``executor``: a
    ``concurrent.futures.Executor`` (policies then must be picklable); results are
    identical to serial.  ``progress``: True for a progress bar (tqdm), False for
    none, or a function ``progress(done, n)``.  ``views``: as in ``play``."""
    _check_game(game, "tournament")
    check_seed(seed)
    names, policies = _players(game, players)
    orders = tuple(itertools.permutations(range(len(names))))
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(_("tournament needs a whole number n >= 1 of games, not {given}").format(
            given=repr(n)))
    if n % len(orders):
        up = -(-n // len(orders)) * len(orders)
        raise ValueError(_("n={n} games cannot be shared equally among the "
                           "{orders} seat orders; use a multiple of {orders} "
                           "(e.g. {up})").format(n=n, orders=len(orders), up=up))
    views = _views_for(game, views)
    if batch is None:               # (results do not depend on it: game i is seeded by i)
        batch = min(MAX_BATCH, len(orders) * max(1, n // len(orders) // 20))
    chunks = [(game, policies, seed, orders, a, min(a + batch, n), views)
              for a in range(0, n, batch)]
    with using(game.language):
        result = TournamentResult(getattr(game, "title", game.name) + _players_text(game),
                                  names, [],
                                  tuple(game.player_name(p) for p in range(game.players)),
                                  game.language)
        desc = _("{game}: {players}").format(game=game.component_name(game.title), players=_(" vs ").join(names))
    _run(chunks, n, executor, progress, desc, result.games)
    return result


def _run(chunks, n: int, executor, progress, desc: str, games: list) -> None:
    """Play the chunks (serially or on ``executor``) and add their games to ``games``
    in order, showing progress; an interrupt cancels what has not started."""
    callback = progress if callable(progress) else None
    bar = None
    if callback is None:
        bar = progress_bar(n, desc, bool(progress))
    futures = []
    try:
        if executor is None:
            parts = map(_play_games, chunks)
        else:
            futures = [executor.submit(_play_games, c) for c in chunks]
            parts = (pool_result(f) for f in futures)
        for part in parts:            # in order: the same result as serial
            games.extend(part)
            if bar is not None:
                bar.update(len(part))
            if callback is not None:
                callback(len(games), n)
    except BaseException:
        for f in futures:
            f.cancel()
        raise
    finally:
        if bar is not None:
            bar.close()


def _players_text(game: Game) -> str:
    k = game.players
    return ngettext(" ({n} player)", " ({n} players)", k).format(n=k)
