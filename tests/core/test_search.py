"""``kingdoms.core.search.mcts_policy``: UCT with chance nodes and determinization,
through the protocol only."""
from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core import SearchError, mcts_policy
from kingdoms.core.play import play_state, random_policy
from kingdoms.core.protocol import TERMINAL, Action, Game, State, replace
from toygame import HighCard, Marathon


# ---- Nim: take 1 or 2 stones, whoever takes the last stone wins (perfect information)

@dataclass(frozen=True)
class Take(Action, record_name="test_search/Take"):
    k: int

    def __str__(self):
        return f"take {self.k}"


@dataclass(frozen=True)
class Nim(Game):
    name = "test_nim"
    title = "Nim"
    min_players = 2
    max_players = 3
    players: int = 2
    stones: int = 7

    def initial_state(self):
        return NimState(self, left=self.stones, to_move=0)


@dataclass(frozen=True)
class NimState(State):
    left: int
    to_move: int

    def _current_player(self):
        return TERMINAL if self.left == 0 else self.to_move

    def _legal_actions(self):
        return tuple(Take(k) for k in (1, 2) if k <= self.left)

    def _next(self, a):
        return replace(self, left=self.left - a.k, to_move=(self.to_move + 1) % self.game.players)

    def _returns(self):
        last = (self.to_move - 1) % self.game.players
        return tuple(Fraction(int(i == last)) for i in range(self.game.players))


# ---- High Card with a world sampler (the toy game itself has none) -------------------

def _high_card_world(state, player, rng):
    """Everything but the player's own card is unseen: the other hands, the deck and
    any discarded card are a uniform shuffle of the rest of the full deck."""
    view = state.view(player)
    rest = list(state.game.deck)
    rest.remove(view.hands[player])
    rng.shuffle(rest)
    hands = tuple(c if i == player else rest.pop() for i, c in enumerate(view.hands))
    return replace(view, hands=hands, deck=tuple(sorted(rest[:len(view.deck)])))


def _sampled_high_card(players=2):
    from toygame import HighCardState

    class State_(HighCardState):
        def sample_world(self, player, rng):
            self._check_player(player, "sample_world")
            return _high_card_world(self, player, rng)

    @dataclass(frozen=True)
    class Game_(HighCard):
        def initial_state(self):
            return State_(self, hands=(), deck=self.deck, to_act=0, redrawing=False)

    return Game_.create(players=players)


def _decision(game, seed, player=0):
    rng = random.Random(seed)
    s = game.initial_state()
    while s.current_player() != player:
        s = s.apply(s.sample_chance(rng) if s.is_chance() else random_policy(s, rng))
    return s


# --------------------------------------------------------------------------- tests

@pytest.mark.parametrize("stones,best", [(7, 1), (8, 2), (4, 1), (5, 2)])
def test_finds_the_winning_move_of_nim(stones, best):
    """From a winning Nim position the only winning move leaves a multiple of 3."""
    s = Nim(players=2, stones=stones).initial_state()
    assert mcts_policy(300)(s, random.Random(0)) == Take(best)


def test_three_players_each_maximise_their_own_share():
    """Marathon, 3 players: stepping forward is always right (max^n: each mover its
    own return); the bot never stays when it may move."""
    game = Marathon(players=3, goal=3, limit=12)
    bot = mcts_policy(60)
    rng = random.Random(1)
    s = game.initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        a = bot(s, rng)
        assert a is s.legal_actions()[-1] or len(s.legal_actions()) == 1
        s = s.apply(a)
        moves += 1
    assert moves > 3


def test_returns_the_listed_action_object_and_replays_with_a_seed():
    game = kingdoms.game("ten_characters", players=2)
    s = _decision(game, 4)
    bot = mcts_policy(20)
    a = bot(s.view(0), random.Random(9))
    assert any(a is b for b in s.view(0).legal_actions())
    assert a == bot(s.view(0), random.Random(9))
    assert bot.last_simulations == 20


@pytest.mark.parametrize("name", [pytest.param("horse", marks=pytest.mark.slow),
                                  "ten_characters", "black_forest", "woods"])
def test_hidden_information_the_bot_never_reads_hidden_cards(name):
    """Two states the player cannot tell apart (the real one and a sampled world with
    other hidden cards), and the player's view: the same choice for the same rng."""
    game = kingdoms.game(name, players=2)
    # (random Horse games last ~1,000 steps: its rollouts use the game's own players)
    bot = mcts_policy(8, rollout="default" if name == "horse" else "random")
    _same_choice_in_indistinguishable_states(game, bot)


@pytest.mark.parametrize("name,best", [("ten_characters", "greedy"), ("woods", "fool-aware")])
def test_hidden_information_heuristic_prior_and_rollouts_never_read_hidden_cards(name, best):
    """The prior is handed what its player sees; named rollouts play sampled worlds."""
    game = kingdoms.game(name, players=2)
    _same_choice_in_indistinguishable_states(game, mcts_policy(8, rollout=best, prior=best))


def _same_choice_in_indistinguishable_states(game, bot):
    for seed in range(3):
        s = _decision(game, seed)
        p = s.current_player()
        other = s.sample_world(p, random.Random(seed + 100))
        picks = {str(bot(x, random.Random(seed))) for x in (s, s.view(p), other)}
        assert len(picks) == 1, picks


def test_beats_random_at_the_toy_card_game_with_a_sampler():
    """High Card with a world sampler: the bot redraws a 1 and stands on a 3; over
    seeded positions it plays the right card decisions."""
    game = _sampled_high_card()
    bot = mcts_policy(200)
    seen = set()
    for seed in range(12):
        s = _decision(game, seed)
        card = s.hands[0]
        a = bot(s.view(0), random.Random(seed))
        if card == 3:
            assert str(a) == "stand"
        if card == 1:
            assert str(a) == "redraw"
        seen.add(card)
    assert {1, 3} <= seen


def test_a_game_without_a_world_sampler_gets_a_clear_error_or_the_fallback():
    game = HighCard(players=2)        # hidden information, no sample_world
    s = _decision(game, 0)
    with pytest.raises(SearchError, match="High Card.*sample"):
        mcts_policy(10)(s.view(0), random.Random(0))
    assert mcts_policy(10, fallback=random_policy)(s.view(0), random.Random(0)) in s.legal_actions()


@pytest.mark.parametrize("kw", [{"simulations": 0}, {"simulations": 2.5}, {"simulations": True},
                                {"simulations": None, "seconds": None}, {"seconds": -1},
                                {"exploration": -1}, {"exploration": "x"}, {"rollout": ""},
                                {"rollout": 3}, {"fallback": 3}, {"prior": 3}, {"prior": ""},
                                {"prior_weight": -1}, {"prior_weight": 1.5},
                                {"prior_weight": True}, {"final": "best"}])
def test_bad_budgets_are_refused(kw):
    with pytest.raises(ValueError):
        mcts_policy(**kw)


def test_seconds_budget_and_default_rollouts_and_picklable():
    s = Nim(players=2, stones=7).initial_state()
    bot = mcts_policy(simulations=None, seconds=0.05, rollout="default")
    assert bot(s, random.Random(0)) in s.legal_actions() and bot.last_simulations >= 1
    again = pickle.loads(pickle.dumps(mcts_policy(50, rollout="default")))
    assert again(s, random.Random(1)) == Take(1)
    assert "50 simulations" in repr(again)


def test_refuses_a_chance_node_or_the_end():
    game = HighCard(players=2)
    with pytest.raises(ValueError, match="decision"):
        mcts_policy(5)(game.initial_state(), random.Random(0))


def test_the_core_offers_mcts_by_name():
    pols = Nim(players=2).policies()
    assert pols["random"] is random_policy and "mcts" in pols
    end = play_state(Nim(players=2, stones=5), [pols["mcts"], random_policy], seed=1)
    assert end.returns() == (1, 0)      # 5 stones: the first player wins with best play


# ---- heuristic rollouts and priors -------------------------------------------------

def _take_one(state, rng):
    """A poor Nim heuristic: always take one stone."""
    return state.legal_actions()[0]


@dataclass(frozen=True)
class NimWithHeuristic(Nim):
    def policies(self):
        return {**super().policies(), "take one": _take_one}


def test_rollouts_and_prior_by_the_game_s_policy_name():
    """``rollout="take one"`` plays that policy of the game in every seat of the
    rollouts; the search over them still finds the winning Nim move (policy
    improvement), and a repr names both."""
    s = NimWithHeuristic(players=2, stones=8).initial_state()
    bot = mcts_policy(200, rollout="take one", prior="take one", prior_weight=3)
    assert bot(s, random.Random(0)) == Take(2)
    assert "take one rollouts" in repr(bot) and "prior take one (3 virtual wins)" in repr(bot)
    assert pickle.loads(pickle.dumps(bot))(s, random.Random(0)) == Take(2)


@pytest.mark.parametrize("kw", [{"rollout": "smart"}, {"prior": "smart"}, {"rollout": "mcts"},
                                {"prior": "mcts"}])
def test_an_unknown_policy_name_is_refused_clearly_when_the_bot_plays(kw):
    s = NimWithHeuristic(players=2, stones=7).initial_state()
    with pytest.raises(ValueError, match="Nim has no player .* 'take one'"):
        mcts_policy(10, **kw)(s, random.Random(0))


def test_a_heavy_prior_decides_a_small_search_and_fades_with_a_large_one():
    """From 7 stones taking 1 wins and taking 2 loses.  A prior for the losing move with
    many virtual wins outweighs 30 simulations; with no weight (or a weight that the
    search outgrows) the bot finds the winning move."""
    s = Nim(players=2, stones=7).initial_state()

    def take_two(state, rng):
        return Take(2)
    assert mcts_policy(30, prior=take_two, prior_weight=1000)(s, random.Random(0)) == Take(2)
    assert mcts_policy(30, prior=take_two, prior_weight=0)(s, random.Random(0)) == Take(1)
    assert mcts_policy(600, prior=take_two, prior_weight=5)(s, random.Random(0)) == Take(1)


def test_the_prior_changes_nothing_when_its_move_is_the_only_legal_one():
    """One legal move: it is played without asking the prior or searching."""
    s = Nim(players=2, stones=1).initial_state()

    def prior(state, rng):
        raise AssertionError("the prior was asked")
    rng = random.Random(3)
    before = rng.getstate()
    assert mcts_policy(50, prior=prior)(s, rng) == Take(1)
    assert rng.getstate() == before


def test_a_prior_that_plays_an_illegal_move_is_refused():
    s = Nim(players=2, stones=7).initial_state()
    with pytest.raises(ValueError, match="prior .* not a legal action"):
        mcts_policy(10, prior=lambda state, rng: Take(3))(s, random.Random(0))


def test_best_mean_final_selection_finds_the_winning_move():
    for stones, best in [(7, 1), (8, 2)]:
        s = Nim(players=2, stones=stones).initial_state()
        assert mcts_policy(300, final="mean")(s, random.Random(0)) == Take(best)


def test_search_over_heuristic_rollouts_beats_the_heuristic():
    """The rollout algorithm: one step of lookahead over the heuristic's own games beats
    the heuristic (seat-balanced Nim from 10 stones, where taking one is poor), and a
    larger budget is not weaker than a tiny one."""
    from kingdoms.core import tournament
    game = NimWithHeuristic(players=2, stones=10)
    bot = mcts_policy(60, rollout="take one", prior="take one", prior_weight=2)
    r = tournament(game, {"mcts": bot, "take one": _take_one}, 10, seed=5, progress=False)
    assert r.win_share("mcts") == 1
    strong = tournament(game, {"strong": mcts_policy(300), "weak": mcts_policy(3)}, 20,
                        seed=5, progress=False)
    assert strong.win_share("strong") > Fraction(1, 2)


# ---- what the bot "thinks" (MCTS.analyse) ---------------------------------------------

def test_analyse_shows_every_legal_move_and_the_move_the_bot_plays():
    """Nim from 8 stones: the report lists both moves, the simulations add up, the
    marked move is the one the bot plays with the same seed, and it reads as a table
    for people (player names, percentages, no Python reprs)."""
    s = Nim(players=2, stones=8).initial_state()

    def take_one(state, rng):
        return Take(1)
    bot = mcts_policy(200, prior=take_one, prior_weight=4)
    report = bot.analyse(s, random.Random(0))
    assert [r[0] for r in report.rows] == ["take 1", "take 2"]
    assert sum(r[1] for r in report.rows) == 200 + 4         # the prior's virtual wins
    assert [r[0] for r in report.rows if r[3]] == [str(bot(s, random.Random(0)))] == ["take 2"]
    assert [r[0] for r in report.rows if r[4]] == ["take 1"]
    text = str(report)
    assert "Player 1 to move" in text and "plays this" in text and "prior's move" in text
    assert "%" in text and "Fraction" not in text and "Take(" not in text
    assert "<table>" in report._repr_html_() and "plays this" in report._repr_html_()


def test_analyse_where_there_is_nothing_to_search():
    s = Nim(players=2, stones=1).initial_state()
    report = mcts_policy(50).analyse(s, random.Random(0))
    assert report.rows == (("take 1", 0, None, True, False),)
    assert "no choice to search" in str(report) and "–" in str(report)


def test_analyse_draws_from_the_rng_exactly_as_playing_does():
    game = kingdoms.game("woods", players=2)
    s = _decision(game, 2)
    view = s.observed(0)
    a, b = random.Random(4), random.Random(4)
    report = mcts_policy(40).analyse(view, a)
    played = mcts_policy(40)(view, b)
    assert a.getstate() == b.getstate()
    assert [r[0] for r in report.rows if r[3]] == [game.action_text(played)]
