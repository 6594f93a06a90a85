"""The strong level of the search bot (``"mcts-strong"``, ``strong_policy``): offered by
every game through the protocol, legal, blind to hidden cards, reproducible on a
simulation budget, and strict about its budget.  (Its strength and its CPU time are
measured in ``benchmarks/strength.py``, never asserted here.)"""
from __future__ import annotations

import random

import pytest

import kingdoms
from kingdoms.core import strong_policy
from kingdoms.core.play import random_policy
from kingdoms.core.protocol import CORE_PLAYERS, Action
from kingdoms.core.search import MCTS, mcts_policy

GAMES = ("woods", "black_forest", "elves", "ten_characters", "horse")


def _decision(game, seed, player=0, skip=0):
    """A position where ``player`` decides, after ``skip`` of their decisions played
    at random (so other players have moved and cards are hidden)."""
    rng = random.Random(seed)
    s = game.initial_state()
    while True:
        if s.current_player() == player and len(s.legal_actions()) > 1:
            if not skip:
                return s
            skip -= 1
        s = s.apply(s.sample_chance(rng) if s.is_chance() else random_policy(s, rng))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_the_strong_level(name):
    game = kingdoms.game(name, players=2)
    bot = game.policies()["mcts-strong"]
    assert "mcts-strong" in CORE_PLAYERS
    assert isinstance(bot, MCTS) and bot.adopt and bot.information_sets
    assert bot.clock == "cpu" and bot.seconds == 1.0 and bot.simulations is None
    assert repr(bot).startswith("mcts-strong(1 s of CPU")


@pytest.mark.parametrize("name", GAMES)
def test_plays_a_legal_move_with_the_games_own_settings(name):
    game = kingdoms.game(name, players=2)
    s = _decision(game, 3)
    bot = strong_policy(seconds=None, simulations=6)
    seen = s.observed(0)
    a = bot(seen, random.Random(1))
    assert any(a is b for b in seen.legal_actions())
    own = game.policies()["mcts"]
    assert bot._settings(game) == (own.rollout, own.prior, own.prior_weight, own.exploration)


@pytest.mark.parametrize("name", ["ten_characters", "black_forest", "woods",
                                  pytest.param("horse", marks=pytest.mark.slow)])
def test_never_reads_hidden_cards(name):
    """The real position, the player's view and a world with the opponent's hidden
    cards swapped (``sample_world``: consistent with what the player saw) give the
    same choice for the same rng."""
    game = kingdoms.game(name, players=2)
    bot = strong_policy(seconds=None, simulations=12)
    for seed in range(3):
        s = _decision(game, seed, skip=1)
        p = s.current_player()
        other = s.sample_world(p, random.Random(seed + 100))
        picks = {str(bot(x, random.Random(seed))) for x in (s, s.observed(p), other)}
        assert len(picks) == 1, picks


@pytest.mark.parametrize("name,plain_sees_hidden", [("ten_characters", True),
                                                    ("black_forest", True), ("elves", False)])
def test_the_tree_is_keyed_by_what_the_searcher_sees(name, plain_sees_hidden):
    """Every step in the strong bot's tree is stored as the searching player sees it
    (``Action.seen_by``), so no decision of theirs in the tree depends on a hidden
    card; the plain search bot's tree, keyed by the true steps, does hold hidden ones
    (the check can fail; in Elves, hidden steps lie beyond its shallow tree here)."""
    game = kingdoms.game(name, players=2)
    s = _decision(game, 5, skip=1)
    me = s.current_player()

    def hidden_keys(bot):
        _, root, _, _ = bot._search(s.observed(me), random.Random(2))
        count, stack = 0, [root]
        while stack:
            node = stack.pop()
            for key, child in node.children.items():
                if isinstance(key, Action) and key.seen_by(me) != key:
                    count += 1
                stack.append(child)
        return count

    assert hidden_keys(strong_policy(seconds=None, simulations=60)) == 0
    assert (hidden_keys(mcts_policy(60, information_sets=False)) > 0) is plain_sees_hidden


def test_analyse_shows_the_adopted_prior():
    """The strong level's report counts the virtual wins of the game's own prior."""
    game = kingdoms.game("ten_characters", players=2)
    s = _decision(game, 4, skip=1).observed(0)
    report = strong_policy(seconds=None, simulations=20).analyse(s, random.Random(3))
    own = game.policies()["mcts"]
    assert report.prior_weight == own.prior_weight > 0
    assert sum(1 for row in report.rows if row[4]) == 1
    assert "virtual" in str(report)


def test_reproducible_on_a_simulation_budget():
    game = kingdoms.game("ten_characters", players=2)
    s = _decision(game, 4, skip=1).observed(0)
    bot = strong_policy(seconds=None, simulations=40)
    first = bot(s, random.Random(7)), bot.last_simulations
    again = strong_policy(seconds=None, simulations=40)
    assert (again(s, random.Random(7)), again.last_simulations) == first
    assert 0 < first[1] <= 40


def test_stops_early_when_the_choice_is_clear():
    """Marathon to one step: stepping wins at once, staying lets the other player
    try; after some simulations the rest of a large budget cannot change the most
    visited move, and the bot stops (the plain bot runs its whole budget)."""
    from toygame import Marathon, Step
    s = Marathon(players=2, goal=1).initial_state().apply(Step(1))
    bot = strong_policy(seconds=None, simulations=5000)
    assert bot(s, random.Random(0)) == Step(1)
    assert bot.last_simulations < 5000
    plain = mcts_policy(5000)
    plain(s, random.Random(0))
    assert plain.last_simulations == 5000


@pytest.mark.parametrize("kw, words", [
    ({"seconds": 0}, "seconds .*above 0"), ({"seconds": -1}, "seconds"),
    ({"seconds": True}, "seconds"), ({"seconds": "1"}, "seconds"),
    ({"seconds": 10_000}, "at most 3600"), ({"simulations": 0}, "simulations"),
    ({"simulations": 2.5}, "simulations"), ({"simulations": True}, "simulations"),
    ({"seconds": None, "simulations": None}, "needs a budget"),
])
def test_bad_budgets_are_refused(kw, words):
    with pytest.raises(ValueError, match=words):
        strong_policy(**kw)


@pytest.mark.parametrize("kw", [{"widening": 0}, {"widening": "x"}, {"clock": "sun"}])
def test_bad_strong_options_of_the_plain_bot_are_refused(kw):
    with pytest.raises(ValueError):
        mcts_policy(**kw)


# ---- a sure win sooner, and a settled choice -----------------------------------------

from dataclasses import dataclass, replace  # noqa: E402
from fractions import Fraction  # noqa: E402

from kingdoms.core.protocol import TERMINAL, Game, State  # noqa: E402
from kingdoms.core.search import (  # noqa: E402
    _DEVIATE_Z, _SETTLE_MIN, _clearly_better, _Node, _settled)


@dataclass(frozen=True)
class Choice(Action, record_name="test_linger/Choice"):
    finish: bool

    def __str__(self):
        return "finish" if self.finish else "wait"


@dataclass(frozen=True)
class Linger(Game):
    """Player 1 wins whatever happens: they may finish now or wait a turn (player 2
    only passes); after ``limit`` turns the game ends anyway.  (With ``players=1``
    the lone player loses whatever happens.)"""
    name = "test_linger"
    title = "Linger"
    min_players = 1
    max_players = 2
    players: int = 2
    limit: int = 30

    def initial_state(self):
        return LingerState(self, turn=0, done=False)


@dataclass(frozen=True)
class LingerState(State):
    turn: int
    done: bool

    def _current_player(self):
        if self.done or self.turn >= self.game.limit:
            return TERMINAL
        return self.turn % self.game.players

    def _legal_actions(self):
        if self.turn % self.game.players:
            return (Choice(False),)
        return (Choice(True), Choice(False))

    def _next(self, a):
        return replace(self, turn=self.turn + 1, done=a.finish)

    def _returns(self):
        if self.game.players == 1:
            return (Fraction(0),)
        return (Fraction(1), Fraction(0))


def test_the_strong_level_ends_a_game_it_is_sure_to_win():
    """Both moves win; with a discount a step the search bot finishes at once, and
    its tree values finishing above waiting (without the discount they are equal)."""
    s = Linger().initial_state()
    bot = MCTS(200, information_sets=True, discount=0.999)
    report = bot.analyse(s, random.Random(0))
    assert bot(s, random.Random(0)) == Choice(True)
    means = {text: mean for text, _, mean, *_ in report.rows}
    assert means["finish"] > means["wait"] > 0.5
    plain = MCTS(200).analyse(s, random.Random(0))
    assert {mean for _, _, mean, *_ in plain.rows} == {1.0}


def test_a_discounted_loss_alone_stays_a_loss():
    """Solo (one player, who always loses here): the discount moves a loss towards ½
    (not towards the lone player's "even share" 1), so every value stays below ½."""
    s = Linger(players=1).initial_state()
    report = MCTS(100, discount=0.9).analyse(s, random.Random(0))
    assert all(mean is not None and mean < 0.5 for _, _, mean, *_ in report.rows)
    assert max(mean for _, _, mean, *_ in report.rows) > 0      # a later loss costs less


def test_discount_must_be_a_share_of_one():
    for bad in (0, 1.5, -0.1, True, "0.9"):
        with pytest.raises(ValueError, match="discount"):
            MCTS(10, discount=bad)


def _root(stats, prior=None, prior_weight=0):
    """A root whose children have ``(visits, mean share of player 0)``."""
    root = _Node(2)
    for a, (n, mean) in stats.items():
        child = root.children[a] = _Node(2)
        child.n, child.w = n, [mean * n, (1 - mean) * n]
    if prior is not None:
        root.prior = prior
        child = root.children[prior]
        child.n += prior_weight
        child.w[0] += prior_weight
    return root


def test_a_clearly_best_move_is_settled():
    n = 4 * _SETTLE_MIN
    assert _settled(_root({"a": (n, 0.9), "b": (40, 0.2), "c": (30, 0.1)}), 0, 3, 0)
    # not: a move untried, a close rival, too few simulations of the best
    assert not _settled(_root({"a": (n, 0.9), "b": (40, 0.2)}), 0, 3, 0)
    assert not _settled(_root({"a": (n, 0.6), "b": (n // 2, 0.55)}), 0, 2, 0)
    assert not _settled(_root({"a": (_SETTLE_MIN - 1, 1.0), "b": (5, 0.0)}), 0, 2, 0)


def test_the_priors_virtual_wins_do_not_settle_a_move():
    """The prior's move leads by its virtual wins only: its real simulations are too
    few to settle it; the same counts as real simulations would."""
    n = _SETTLE_MIN
    root = _root({"a": (n // 2, 0.9), "b": (20, 0.1)}, prior="a", prior_weight=n)
    assert not _settled(root, 0, 2, n)
    assert _settled(_root({"a": (4 * n, 0.9), "b": (20, 0.1)}, "a", n), 0, 2, n)


# ---- the prior in the tree, and a foregone result -------------------------------------

def _finish(state, rng):
    return Choice(True)


def _wait(state, rng):
    return Choice(False)


@pytest.mark.parametrize("prior, expected", [(_finish, Choice(True)), (_wait, Choice(False))])
def test_a_foregone_win_plays_the_priors_move_and_stops(prior, expected):
    """Linger: every simulation wins whatever player 1 does.  With ``stop_early`` the
    search stops well within its budget and plays the prior's move (the heuristic's,
    whichever it is); without ``stop_early`` it runs its whole budget."""
    s = Linger().initial_state()
    bot = MCTS(2000, information_sets=True, stop_early=True, prior=prior)
    assert bot(s, random.Random(0)) == expected
    assert _SETTLE_MIN <= bot.last_simulations < 2000
    plain = MCTS(2000, information_sets=True, prior=prior)
    plain(s, random.Random(0))
    assert plain.last_simulations == 2000


def test_no_foregone_stop_while_the_result_varies():
    """Marathon to one step: stepping wins, staying may lose; the results differ, so the
    bot stops only by the other rules, and steps."""
    from toygame import Marathon, Step
    s = Marathon(players=2, goal=1).initial_state().apply(Step(1))
    from kingdoms.core.search import _foregone
    bot = MCTS(300, information_sets=True)
    report = bot.analyse(s, random.Random(0))
    assert len({mean for _, _, mean, *_ in report.rows}) > 1
    root = bot._search(s, random.Random(0))[1]
    assert not _foregone(root, len(s.legal_actions()), 0)


def _stats_root(prior_stats, other_stats, prior_weight=10):
    """A root with the prior's move "p" and another "o", each ``(real simulations, mean,
    variance)`` of player 0's share; the prior's move also has its virtual wins."""
    root = _Node(2)
    for a, (n, mean, var) in (("p", prior_stats), ("o", other_stats)):
        child = root.children[a] = _Node(2)
        child.n, child.w = n, [mean * n, (1 - mean) * n]
        child.sq = n * (var + mean * mean)
    root.prior = "p"
    root.children["p"].n += prior_weight
    root.children["p"].w[0] += prior_weight
    return root


def test_another_move_than_the_priors_only_when_clearly_better():
    # far better, with enough simulations: yes
    assert _clearly_better(_stats_root((100, 0.5, 0.25), (100, 0.9, 0.09)), "o", 0, 10)
    # ahead within the noise: no (the tie goes to the heuristic)
    assert not _clearly_better(_stats_root((50, 0.5, 0.25), (50, 0.55, 0.25)), "o", 0, 10)
    # a lead of exactly the threshold is not enough; a hair more is
    se = (0.25 / 99 + 0.25 / 99) ** 0.5
    lead = _DEVIATE_Z * se
    assert not _clearly_better(_stats_root((100, 0.4, 0.25), (100, 0.4 + lead * 0.99, 0.25)),
                               "o", 0, 10)
    assert _clearly_better(_stats_root((100, 0.4, 0.25), (100, 0.4 + lead * 1.01, 0.25)),
                           "o", 0, 10)
    # every simulation of both won: equal, no spread, no deviation
    assert not _clearly_better(_stats_root((80, 1.0, 0.0), (300, 1.0, 0.0)), "o", 0, 10)


def test_the_priors_virtual_wins_do_not_count_as_evidence():
    """The prior's move's virtual wins (share 1) would lift its mean; its real
    simulations alone are compared."""
    root = _stats_root((40, 0.3, 0.21), (40, 0.6, 0.24), prior_weight=40)
    assert root.children["p"].w[0] / root.children["p"].n > 0.6     # with the virtual
    assert _clearly_better(root, "o", 0, 40)


def test_below_the_root_the_priors_move_comes_first_and_others_slowly():
    """``tree_prior``: at a decision below the root the prior's move is tried first,
    and a second move only from the node's 5th visit (``TREE_PRIOR_WIDENING``)."""
    from kingdoms.core.search import TREE_PRIOR_WIDENING
    s = Linger().initial_state()
    bot = MCTS(10, information_sets=True, prior=_wait, tree_prior=True)
    bot._tree_prior = _wait
    node = _Node(2)
    picks = []
    for visit in range(12):
        a, child = bot._select_widened(node, s, 0, 1.0, random.Random(visit))
        if child is None:
            child = node.children[a] = _Node(2)
        picks.append((node.n, a, len(node.children)))
        node.n += 1
        child.n += 1
        child.w[0] += 1.0
    assert picks[0] == (0, Choice(False), 1)
    first_new = next(n for n, a, _ in picks if a == Choice(True))
    assert first_new == 5 and TREE_PRIOR_WIDENING * 5 ** 0.5 > 1 >= TREE_PRIOR_WIDENING * 4 ** 0.5
    # the plain selection tries every untried move first
    node = _Node(2)
    node.children[Choice(False)] = _Node(2)
    node.children[Choice(False)].n = 1
    from kingdoms.core.search import _select
    assert _select(node, s.legal_actions(), 0, 1.0, random.Random(0)) == (Choice(True), None)


def test_the_strong_level_puts_its_prior_in_the_tree():
    bot = strong_policy()
    assert bot.tree_prior and bot.discount is None
    assert "the prior in the tree" in repr(bot)
