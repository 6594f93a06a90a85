"""Our games inside OpenSpiel, checked by OpenSpiel's own tests and algorithms.

Skipped when open-spiel is not installed (``pip install kingdoms[openspiel]``).
"""
from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import kingdoms                                               # noqa: E402
from kingdoms.core.protocol import CHANCE, TERMINAL           # noqa: E402
from kingdoms.interop import openspiel as ko                  # noqa: E402

GT = pyspiel.GameType
GAMES = ("black_forest", "elves", "horse", "ten_characters", "woods")

# Every game and player count; the long ones (Horse with 3-4 random players runs to
# its max_rounds safeguard) with a short safeguard, so the suite stays quick.
CONFIGS = (
    [("black_forest", {"players": k}) for k in (2, 3, 4)]
    + [("black_forest", {"players": 3, "rounds": 1, "encounters_per_round": 1})]
    + [("ten_characters", {"players": k}) for k in (2, 3, 4, 5)]
    + [("ten_characters", {"players": 3, "unicorn": "own"})]
    + [("woods", {"players": k}) for k in (2, 3, 4, 5)]
    + [("woods", {"players": 2, "mode": "rounds"}), ("woods", {"players": 3, "beginner": True})]
    + [("elves", {"players": k}) for k in (2, 3, 4, 5, 6)]
    + [("elves", {"players": 3, "teleport": True})]
    + [("horse", {"players": 1}), ("horse", {"players": 2, "max_rounds": 8}),
       ("horse", {"players": 3, "max_rounds": 3}), ("horse", {"players": 4, "max_rounds": 2}),
       ("horse", {"players": 1, "easy": True}), ("horse", {"players": 3, "easy": True})]
)


def _id(cfg):
    name, opts = cfg
    return name + "-" + "-".join(f"{k}={v}" for k, v in opts.items())


def _play_random(game, seed=0, steps=None):
    """A pyspiel state after random play (chance by its probabilities)."""
    rng = np.random.RandomState(seed)
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal() and (steps is None or n < steps):
        if s.is_chance_node():
            ids, ps = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(ids, p=np.array(ps) / sum(ps))))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
        n += 1
    return s


# --------------------------------------------------------------------------- OpenSpiel's API test

@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_openspiel_random_sim_test_passes(cfg):
    """pyspiel.random_sim_test: legal actions sorted and masked, chance outcomes summing
    to 1 within MaxChanceOutcomes, clones equal, strings for every player, returns
    within the utility range and summing to the utility sum, lengths within
    MaxGameLength."""
    name, opts = cfg
    game = ko.load_game(name, **opts)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_game_type_follows_the_game(name):
    cls = kingdoms.game_class(name)
    for players in sorted({cls.min_players, cls.max_players}):
        opts = {"max_rounds": 2} if name == "horse" else {}
        game = ko.load_game(name, players=players, **opts)
        t = game.get_type()
        assert t.short_name == f"kingdoms_{name}"
        assert t.dynamics == GT.Dynamics.SEQUENTIAL
        assert t.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.information == (GT.Information.IMPERFECT_INFORMATION if cls.hidden_information
                                 else GT.Information.PERFECT_INFORMATION)
        assert t.reward_model == GT.RewardModel.TERMINAL
        if players >= 2:
            assert t.utility == GT.Utility.CONSTANT_SUM
            assert game.utility_sum() == 1.0
        else:
            assert t.utility == GT.Utility.GENERAL_SUM
        assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
        assert game.num_players() == players


def test_registered_names_load_through_pyspiel():
    ko.register_all()
    names = set(pyspiel.registered_names())
    assert {f"kingdoms_{n}" for n in GAMES} <= names
    game = pyspiel.load_game("kingdoms_ten_characters(players=3)")
    assert game.num_players() == 3
    assert game.kgame == kingdoms.game("ten_characters", players=3)
    game = pyspiel.load_game("kingdoms_horse(players=2,easy=True,max_rounds=5)")
    assert game.kgame.easy and game.kgame.max_rounds == 5


# --------------------------------------------------------------------------- action numbering

@pytest.mark.parametrize("name", GAMES)
def test_action_universe_is_fixed_distinct_and_sized_up_front(name):
    kg = kingdoms.game(name, players=2)
    universe = kg.action_universe()
    assert universe == kingdoms.game(name, players=2).action_universe()      # deterministic
    assert len(set(universe)) == len(universe)
    game = ko.load_game(name, players=2)
    extra = len(kg.chance_step_items())     # card-by-card deal steps (e.g. Woods)
    assert game.num_distinct_actions() == len(universe) + extra
    assert game.max_chance_outcomes() == game.num_distinct_actions()


@pytest.mark.parametrize("cfg", [c for c in CONFIGS if c[1].get("players", 2) <= 3][::2], ids=_id)
def test_ids_texts_probabilities_and_returns_are_ours(cfg):
    """Along a random game: legal ids are our legal actions (rule texts), chance
    outcomes carry our exact probabilities, and the returns are our win shares."""
    name, opts = cfg
    game = ko.load_game(name, **opts)
    uni = game.universe
    rng = np.random.RandomState(1)
    s = game.new_initial_state()
    while not s.is_terminal():
        k = s.kstate
        if s.is_chance_node():
            exact = s.exact_chance_outcomes()
            assert sum(p for _, p in exact) == 1
            assert s.chance_outcomes() == [(i, float(p)) for i, p in exact]
            if s._pos.deal is None and ko._steps_at(k, uni) is None:
                ours = dict(k.chance_outcomes())
                assert {uni.at(i, k): p for i, p in exact} == ours
            ids, ps = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(ids, p=np.array(ps) / sum(ps))))
            continue
        ids = s.legal_actions()
        assert ids == sorted(ids)
        ours = k.legal_actions()
        assert sorted(str(a) for a in ours) == sorted(s.action_to_string(i) for i in ids)
        assert s.current_player() == k.current_player()
        s.apply_action(int(rng.choice(ids)))
    assert s.kstate.current_player() == TERMINAL
    assert s.returns() == [float(r) for r in s.kstate.returns()]
    assert sum(s.returns()) == pytest.approx(1.0 if game.num_players() > 1 else s.returns()[0])


@pytest.mark.parametrize("cfg", [("ten_characters", {"players": 3}), ("woods", {"players": 2}),
                                 ("black_forest", {"players": 2}), ("horse", {"players": 1})],
                         ids=_id)
def test_a_position_lists_its_ids_once_and_an_id_stands_for_the_universes_action(cfg):
    """The adapter lists a position's ids once (a position never changes) and keeps
    which action each id stands for: the caller's list is theirs to change, and an
    applied id gives the state that ``Universe.at`` would have given."""
    from kingdoms.core.protocol import same_value
    name, opts = cfg
    game = ko.load_game(name, **opts)
    uni = game.universe
    rng = np.random.RandomState(3)
    s = game.new_initial_state()
    looked_up = 0
    while not s.is_terminal():
        k = s.kstate
        if s.is_chance_node():
            first = s.chance_outcomes()
            first.clear()
            listed = s.exact_chance_outcomes()
            assert listed and s.exact_chance_outcomes() == listed
            ids, ps = zip(*s.chance_outcomes())
            i = int(rng.choice(ids, p=np.array(ps) / sum(ps)))
        else:
            first = s.legal_actions()
            first.append(-1)
            ids = s.legal_actions()
            assert ids == sorted(ids) and -1 not in ids
            i = int(rng.choice(ids))
        if s._pos.deal is None and ko._steps_at(k, uni) is None:
            mine = s._pos.by_id[i]
            assert same_value(mine, uni.at(i, k))
            assert k.apply(mine) == k.apply(uni.at(i, k))
            looked_up += 1
        s.apply_action(i)
    assert looked_up > 5


def test_an_illegal_id_is_refused_and_changes_nothing():
    game = ko.load_game("ten_characters", players=2)
    s = _play_random(game, steps=20)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    before = str(s)
    bad = next(i for i in range(game.num_distinct_actions()) if i not in s.legal_actions())
    with pytest.raises(Exception):
        s.apply_action(bad)
    assert str(s) == before


def test_a_game_without_the_hook_gets_a_clear_error():
    from toygame import HighCard
    with pytest.raises(TypeError, match="action_universe"):
        ko.KingdomsGame({}, kgame=HighCard.create(players=2))


def test_horse_without_max_rounds_has_no_bound_and_is_refused():
    with pytest.raises(ValueError, match="max_rounds"):
        ko.load_game("horse", players=2, max_rounds=None)


# --------------------------------------------------------------------------- Woods' deal, card by card

def test_woods_deal_is_dealt_card_by_card_with_exact_probabilities():
    game = ko.load_game("woods", players=3)
    s = game.new_initial_state()
    k0 = s.kstate
    sizes, aside = k0.deal_layout()
    deck = list(k0.round_deck())
    steps = 0
    rng = random.Random(2)
    while s.kstate is k0:
        assert s.is_chance_node()
        exact = dict(s.exact_chance_outcomes())
        left = {c: deck.count(c) for c in set(deck)}
        assert exact == {game.universe.deal_ids[c]: Fraction(n, len(deck))
                         for c, n in left.items()}
        i = rng.choice(sorted(exact))
        card = game.universe.action(i).card
        deck.remove(card)
        s.apply_action(i)
        steps += 1
    assert steps == aside + sum(sizes) and not deck
    assert [len(h) for h in s.kstate.hands] == list(sizes)


def test_woods_deal_is_hidden_from_the_other_players():
    game = ko.load_game("woods", players=3)
    uni = game.universe
    a, b = game.new_initial_state(), game.new_initial_state()
    # two deals that give player 1 the same cards, and the others different ones
    while a._pos.deal is not None or ko._steps_at(a.kstate, uni) is not None:
        slot = a.kstate.chance_steps().owner_of(len(a._pos.deal or ()))
        ia = [i for i, _ in a.chance_outcomes()]
        ib = [i for i, _ in b.chance_outcomes()]
        if slot == 0:
            common = sorted(set(ia) & set(ib))
            a.apply_action(common[0])
            b.apply_action(common[0])
        else:
            a.apply_action(ia[0])
            b.apply_action(ib[-1])
    assert a.kstate.hands[0] == b.kstate.hands[0]
    assert a.kstate.hands != b.kstate.hands
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)


# --------------------------------------------------------------------------- observations

def test_observation_is_the_players_view_and_hides_the_others_cards():
    game = ko.load_game("ten_characters", players=2)
    uni = game.universe
    a, b = game.new_initial_state(), game.new_initial_state()
    while a.is_chance_node():
        ia = [i for i, _ in a.chance_outcomes()]
        ib = [i for i, _ in b.chance_outcomes()]
        if uni.at(ia[0], a.kstate).player == 0:      # player 1's own cards: the same
            a.apply_action(ia[0])
            b.apply_action(ia[0])
        else:
            a.apply_action(ia[0])
            b.apply_action(ib[-1])
    assert a.kstate != b.kstate
    assert a.observation_string(0) == str(a.kstate.view(0))
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    # the other player does see the difference
    assert a.information_state_string(1) != b.information_state_string(1)


def test_information_state_is_perfect_recall_of_what_the_player_saw():
    game = ko.load_game("black_forest", players=3, rounds=1, encounters_per_round=1)
    s = _play_random(game, seed=3, steps=30)
    for p in range(3):
        info = s.information_state_string(p)
        assert info.endswith(s.observation_string(p))
        seen = [f"{who}: {a}" for who, a in
                ((kingdoms_name(game, w), x) for w, x in s.kstate.history(p))]
        assert info.splitlines()[:len(seen)] == seen


def kingdoms_name(game, who):
    return "chance" if who == CHANCE else game.kgame.player_name(who)


# --------------------------------------------------------------------------- bots

BOT_GAMES = [
    ("black_forest", {"players": 3, "rounds": 1, "encounters_per_round": 1}),
    ("ten_characters", {"players": 2}),
    ("woods", {"players": 2, "one_round": True}),
    ("horse", {"players": 1, "easy": True, "max_rounds": 3}),
    ("elves", {"players": 2}),
]


def _play_bots(game, bots, seed=0):
    rng = np.random.RandomState(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            ids, ps = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(ids, p=np.array(ps) / sum(ps))))
        else:
            s.apply_action(bots[s.current_player()].step(s))
    return s


@pytest.mark.slow
@pytest.mark.parametrize("cfg", BOT_GAMES, ids=_id)
def test_openspiel_mcts_bots_play_whole_games(cfg):
    from open_spiel.python.algorithms import mcts
    name, opts = cfg
    game = ko.load_game(name, **opts)
    sims = 2 if name == "elves" else 6
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bots = [mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=np.random.RandomState(p))
            for p in range(game.num_players())]
    s = _play_bots(game, bots)
    assert s.is_terminal()
    assert s.kstate.is_terminal()
    assert s.returns() == [float(r) for r in s.kstate.returns()]


# 2-player games of every hidden-information game for IS-MCTS; worlds come from the
# game's own State.sample_world (games without one are skipped with the reason)
ISMCTS_GAMES = [
    ("horse", {"players": 2, "max_rounds": 2}),
    ("ten_characters", {"players": 2}),
    ("black_forest", {"players": 2}),
    ("woods", {"players": 2, "one_round": True}),
    ("elves", {"players": 2}),
]
SAMPLES_WORLDS = {"horse", "ten_characters", "black_forest", "woods", "elves"}


@pytest.mark.slow
@pytest.mark.parametrize("cfg", [
    pytest.param(c, id=_id(c), marks=() if c[0] in SAMPLES_WORLDS else pytest.mark.skip(
        reason=f"{c[0]} has no State.sample_world yet: the replay resampler runs out of "
               "budget where secret draws are revealed much later"))
    for c in ISMCTS_GAMES])
def test_openspiel_ismcts_bots_play_whole_hidden_information_games(cfg):
    """IS-MCTS in both seats of a 2-player game: it searches worlds sampled from each
    player's information only (State.sample_world)."""
    from open_spiel.python.algorithms import ismcts, mcts
    name, opts = cfg
    game = ko.load_game(name, **opts)
    assert game.get_type().information == GT.Information.IMPERFECT_INFORMATION
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, max_world_samples=2,
                             random_state=np.random.RandomState(p))
            for p in range(2)]
    for p, b in enumerate(bots):
        b.set_resampler(ko.seeded_resampler(p))
    s = _play_bots(game, bots, seed=4)
    assert s.is_terminal()
    assert sum(s.returns()) == pytest.approx(1.0)


def test_resampled_worlds_come_from_sample_world_and_keep_the_information_state():
    """At decision states of a random game, the resampled state is a world of our
    game's sampler: same information state and observation for the player, a full
    state of ours, and (over a few seeds) not always the true state."""
    game = ko.load_game("horse", players=3, max_rounds=3)
    s = _play_random(game, seed=2, steps=60)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    p = s.current_player()
    worlds = set()
    for seed in range(5):
        r = ko.resampler(s, p)
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.observation_string(p) == s.observation_string(p)
        assert r.legal_actions() == s.legal_actions()
        assert r.kstate.view(p) == s.kstate.view(p)
        worlds.add(r.kstate)
        r.apply_action(r.legal_actions()[0])        # the world plays on
    assert len(worlds) > 1


def test_resampled_states_look_the_same_to_the_player():
    game = ko.load_game("horse", players=2, max_rounds=2)
    s = _play_random(game, seed=5, steps=40)
    p = s.current_player() if s.current_player() >= 0 else 0
    for seed in range(3):
        r = s.resample_from_infostate(p, lambda: random.Random(seed).random())
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.observation_string(p) == s.observation_string(p)
        if r.current_player() == p:
            assert r.legal_actions() == s.legal_actions()


# --------------------------------------------------------------------------- solving

@pytest.mark.slow
def test_openspiel_expectiminimax_equals_our_exact_expectimax():
    """Ten Characters, the last turn of the last pass (Fortune Teller and Unicorn in the
    hands, so chance nodes too): OpenSpiel's expectiminimax value for player 1 equals
    our exact value, 255/5828."""
    from open_spiel.python.algorithms.minimax import expectiminimax
    from kingdoms.core.solve import expectimax
    game = ko.load_game("ten_characters", players=2)
    kg = game.kgame
    k = kg.position((("fortune_teller", "king", "unicorn"), ("fortune_teller", "knight", "queen")),
                    pass_no=kg.passes, points=(1, 4))
    ours = expectimax(k, max_states=20_000)
    assert ours.value[0] == Fraction(255, 5828)
    value, best = expectiminimax(game.state_from(k), 1000, None, 0)
    assert value == pytest.approx(float(ours.value[0]), abs=1e-12)
    assert game.universe.at(best, k) in ours.best_actions(k)


# --------------------------------------------------------------------------- any game's chance steps

def _toy_deal_game():
    """A test-only game with one huge-style chance event offered as steps
    (``State.chance_steps``): two cards set aside, one to each of two players from
    x, x, y, z; the higher card wins.  It knows nothing of the adapter."""
    from dataclasses import dataclass

    from kingdoms.core.cards import SequentialDeal
    from kingdoms.core.protocol import Action, Game, State, TooManyOutcomes

    @dataclass(frozen=True)
    class ToyDeal(Action, record_name="toydeal/ToyDeal"):
        hands: tuple
        aside: tuple

        def __str__(self):
            return "deal"

    @dataclass(frozen=True)
    class ToyDealGame(Game):
        name = "toydeal"
        title = "Toy Deal"
        min_players = 2
        max_players = 2
        hidden_information = True

        def initial_state(self):
            return ToyDealState(self, hands=None)

        def action_universe(self):
            return ()

        def chance_step_items(self):
            return ("x", "y", "z")

        def max_game_length(self):
            return 4

    @dataclass(frozen=True)
    class ToyDealState(State):
        hands: tuple | None

        def _current_player(self):
            return CHANCE if self.hands is None else TERMINAL

        def _chance_outcomes(self):
            raise TooManyOutcomes("too many", 12)

        def _is_possible_outcome(self, outcome):
            return isinstance(outcome, ToyDeal)

        def chance_steps(self):
            if self.hands is not None:
                return None
            return SequentialDeal(("x", "x", "y", "z"), (2, 1, 1), (None, 0, 1),
                                  lambda piles: ToyDeal(piles[1:], piles[0]))

        def _next(self, action):
            return ToyDealState(self.game, hands=tuple(h[0] for h in action.hands))

        def _returns(self):
            a, b = self.hands
            return (Fraction(1), Fraction(0)) if a > b else (
                (Fraction(0), Fraction(1)) if b > a else (Fraction(1, 2), Fraction(1, 2)))

        def view(self, player):
            if self.hands is None:
                return self
            return ToyDealState(self.game, hands=tuple(
                c if i == player else "?" for i, c in enumerate(self.hands)))

        def __str__(self):
            return f"hands {self.hands}"

    return ToyDealGame.create(players=2)


def test_any_game_can_offer_its_huge_chance_event_as_steps():
    kg = _toy_deal_game()
    game = ko.KingdomsGame({}, kgame=kg)
    assert game.num_distinct_actions() == 3          # the three step items, no decisions
    finals: dict = {}

    def walk(s, p):
        if s.is_terminal():
            finals[s.kstate.hands] = finals.get(s.kstate.hands, 0) + p
            return
        exact = s.exact_chance_outcomes()
        assert sum(q for _, q in exact) == 1
        for i, q in exact:
            child = s.clone()
            child.apply_action(i)
            walk(child, p * q)

    walk(game.new_initial_state(), Fraction(1))
    # each pair of hands with its shuffle probability (orderings of x, x, y, z: 12)
    assert sum(finals.values()) == 1
    assert finals[("x", "x")] == Fraction(2, 12)        # y, z set aside, in 2 orders
    assert finals[("y", "z")] == Fraction(1, 12)
    assert finals[("x", "y")] == Fraction(2, 12)
    # what each player sees during the deal
    s = game.new_initial_state()
    ids = {game.universe.action(i).card: i for i in range(3)}
    for card in ("z", "x", "y", "x"):
        assert not s.is_terminal()
        s.apply_action(ids[card])
    assert s.is_terminal() and s.kstate.hands == ("y", "x")
    info0, info1 = s.information_state_string(0), s.information_state_string(1)
    assert "a card is set aside" in info0 and "you are dealt a y" in info0
    assert "z" not in info0 and "dealt a x" not in info0
    assert "you are dealt a x" in info1 and "dealt a y" not in info1
    assert s.returns() == [1.0, 0.0]
