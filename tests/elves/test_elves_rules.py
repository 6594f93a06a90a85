"""King of the Elves: the data, dealing, every planning action, rounds, the end,
hidden information, and random playouts (termination, 120 cards, gold)."""
from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

import kingdoms
from kingdoms.core.data import DataError
from kingdoms.core.play import play, play_state, game_rng
from kingdoms.core.protocol import CHANCE, HIDDEN, IllegalAction
from kingdoms.core.records import GameRecord
from kingdoms.elves import (Buy, Discard, Draw, DrawThree, NoVillageCard, Pass, PlaySpecial,
                            PlayVillage, RemoveVillage, TakeVillage, gold_ledger,
                            ledger_balances)
from kingdoms.elves.journey import EndJourney, Visit
from kingdoms.elves.rules import GAME_OVER, Searching, card_total

from elves_positions import planning_state

DATA = Path(kingdoms.__file__).parent / "elves" / "data.toml"


def game(players=4, **kw):
    return kingdoms.game("elves", players=players, **kw)


PLAINS = "village:plains:2"
FOREST = "village:forest:4"
RIVER = "village:river:2"
LAKE = "village:lake:7"
DESERT = "village:desert:6"


# --------------------------------------------------------------------------- data

def test_data_totals_and_known_numbers():
    g = game()
    d = g.deck_counts()
    assert sum(d.values()) == 120
    assert sum(c for k, c in d.items() if k.startswith("village:")) == 26
    assert sum(c for k, c in d.items() if k.startswith("travel:")) == 64
    assert sum(c for k, c in d.items() if k.startswith("special:")) == 30
    assert {k for k in d if k.startswith("village:lake")} == {"village:lake:7"}
    assert d["village:plains:2"] >= 1
    assert g.numbers["starting_gold"] == 12
    keys = {a.key for a in g.assumptions()}
    assert "travel.cards.raft" in keys and "special.cards.thief" in keys
    assert "villages.values.lake" in keys
    assert "ASSUMES" in g.assumptions_table()
    assert any(k == "travel.costs" for k, _ in g.sources())


def test_malformed_data_names_the_key(tmp_path):
    text = DATA.read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("raft = 10\n", "raft = 11\n"))
    with pytest.raises(DataError, match="travel.cards"):
        game(data=str(bad))
    bad.write_text(text.replace("dragon = { plains = 1,", "dragon = { swamp = 1, plains = 1,"))
    with pytest.raises(DataError, match="travel.costs.dragon.swamp"):
        game(data=str(bad))
    bad.write_text(text.replace("starting_gold = 12", 'starting_gold = "twelve"'))
    with pytest.raises(DataError, match="rules.starting_gold"):
        game(data=str(bad))


def test_edited_data_is_used(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text(DATA.read_text().replace("starting_gold = 12", "starting_gold = 20"))
    assert game(data=str(f)).initial_state().gold == (20,) * 4


def test_options_are_checked():
    with pytest.raises(kingdoms.GameOptionError):
        kingdoms.game("elves", players=7)
    with pytest.raises(kingdoms.GameOptionError):
        kingdoms.game("elves", players=3, teleport="yes")
    assert game(2, player_names=("Ann", "Bob")).player_name(1) == "Bob"


# --------------------------------------------------------------------------- dealing

def test_first_deal_is_ten_cards_each_with_exact_probabilities():
    g = game(3)
    s = g.initial_state()
    assert s.current_player() == CHANCE
    outs = s.chance_outcomes()
    assert sum(p for _, p in outs) == 1
    assert dict(outs)[Draw("travel:raft", 0)] == Fraction(10, 120)
    assert dict(outs)[Draw("village:lake:7", 0)] == Fraction(4, 120)
    rng = random.Random(1)
    while s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    assert [sum(h) for h in s.hands] == [10, 10, 10]
    assert sum(s.supply) == 90 and s.turn == 0 and s.current_player() == 0


def test_drawn_cards_are_hidden_from_the_others():
    d = Draw("travel:raft", 1)
    assert d.seen_by(1) == d and d.seen_by(0).card is HIDDEN
    assert "raft" not in str(d.seen_by(0))


# --------------------------------------------------------------------------- planning

def test_play_village_into_any_realm_second_to_the_left():
    g = game(4)
    s = planning_state(g, hands={0: {PLAINS: 1, FOREST: 1}}, realms=[(), ((RIVER, ()),), (), ()])
    legal = s.legal_actions()
    assert {a.realm for a in legal if isinstance(a, PlayVillage) and a.village == PLAINS} == {0, 1, 2, 3}
    s2 = s.apply(PlayVillage(PLAINS, 1))
    assert [k for k, _ in s2.realms[1]] == [RIVER, PLAINS]          # left of the first
    assert s2.hands[0][g.index[PLAINS]] == 0 and s2.turn == 1


@pytest.mark.parametrize("players, limit", [(2, 3), (3, 2), (6, 2)])
def test_village_limit_per_realm(players, limit):
    g = game(players)
    full = tuple((PLAINS, ()) for _ in range(limit))
    realms = [()] * players
    realms[1] = full
    s = planning_state(g, hands={0: {FOREST: 1}}, realms=realms)
    assert PlayVillage(FOREST, 1) not in s.legal_actions()
    with pytest.raises(IllegalAction, match=f"at most {limit} villages"):
        s.apply(PlayVillage(FOREST, 1))
    short = planning_state(g, hands={0: {FOREST: 1}},
                           realms=[()] + [full[:-1]] + [()] * (players - 2))
    assert PlayVillage(FOREST, 1) in short.legal_actions()


def test_no_village_card_shows_the_hand_searches_the_supply_and_discards_one():
    """"he shows the other players his hand ... he searches the card supply for the
    village card of his choice, adds it to his hand, and discards one card"."""
    g = game(3)
    s = planning_state(g, hands={0: {"travel:raft": 2, "special:gold": 1}})
    nvc = [a for a in s.legal_actions() if isinstance(a, NoVillageCard)]
    assert nvc == [NoVillageCard(("travel:raft", "travel:raft", "special:gold"))]
    s0 = s.apply(nvc[0])
    assert s0.current_player() == 0 and isinstance(s0.step, Searching)
    assert {a.village for a in s0.legal_actions()} == {k for k in g.kinds if k.startswith("village:")}
    s1 = s0.apply(TakeVillage(LAKE, 0))
    assert s1.current_player() == 0 and s1.hands[0][g.index[LAKE]] == 1
    assert s1.supply[g.index[LAKE]] == 3
    assert set(s1.legal_actions()) == {Discard("travel:raft"), Discard("special:gold"), Discard(LAKE)}
    s2 = s1.apply(Discard("travel:raft"))
    assert s2.discard[g.index["travel:raft"]] == 1 and s2.turn == 1 and sum(s2.hands[0]) == 3
    # not allowed with a village in hand or in the realm
    with_v = planning_state(g, hands={0: {PLAINS: 1}})
    assert not [a for a in with_v.legal_actions() if isinstance(a, NoVillageCard)]
    with pytest.raises(IllegalAction, match="No village card"):
        with_v.apply(NoVillageCard(("village:plains:2",)))


def test_draw_three_discard_four():
    g = game(3)
    s = planning_state(g, hands={0: {"travel:raft": 1, PLAINS: 1}})
    s = s.apply(DrawThree())
    rng = random.Random(3)
    for _ in range(3):
        assert s.current_player() == CHANCE
        outs = s.chance_outcomes()
        assert all(o.to == 0 for o, _ in outs) and sum(p for _, p in outs) == 1
        s = s.apply(s.sample_chance(rng))
    assert sum(s.hands[0]) == 5
    for _ in range(4):
        assert s.current_player() == 0 and all(isinstance(a, Discard) for a in s.legal_actions())
        s = s.apply(s.legal_actions()[0])
    assert sum(s.hands[0]) == 1 and sum(s.discard) == 4 and s.turn == 1
    # needs a card in hand (so that 4 can be discarded) and 3 in the supply
    assert DrawThree() not in planning_state(g).legal_actions()
    low = planning_state(g, hands={0: {PLAINS: 1}}, supply=["travel:raft", "travel:raft"])
    assert DrawThree() not in low.legal_actions()


def test_buy_costs_one_two_three_and_no_fourth():
    g = game(3)
    s = planning_state(g, hands={0: {PLAINS: 1}}, realms=[((FOREST, ()),), (), ()], gold=[6, 12, 12])
    rng = random.Random(0)
    paid = []
    for cost in (1, 2, 3):
        assert Buy(cost) in s.legal_actions()
        s = s.apply(Buy(cost))
        paid.append(cost)
        assert s.gold[0] == 6 - sum(paid)
        s = s.apply(s.sample_chance(rng))
        assert s.bought[0] == len(paid)
        s = replace(s, turn=0)
    assert sum(s.hands[0]) == 4
    assert not [a for a in s.legal_actions() if isinstance(a, Buy)]
    with pytest.raises(IllegalAction, match="card number 4"):
        s.apply(Buy(4))
    poor = planning_state(g, hands={0: {PLAINS: 1}}, gold=[0, 12, 12])
    assert not [a for a in poor.legal_actions() if isinstance(a, Buy)]


@pytest.mark.parametrize("special", ["gold", "thief"])
def test_gold_and_thief_cards_one_of_each_per_village(special):
    g = game(3)
    s = planning_state(g, hands={0: {f"special:{special}": 2}},
                       realms=[(), ((LAKE, ()), (PLAINS, ())), ()])
    assert {(a.realm, a.slot) for a in s.legal_actions() if isinstance(a, PlaySpecial)} == {(1, 0), (1, 1)}
    s1 = s.apply(PlaySpecial(special, 1, 0))
    assert s1.realms[1][0] == (LAKE, ((special, 0),)) and s1.tokens_left(0) == 3
    s1 = replace(s1, turn=0)
    assert PlaySpecial(special, 1, 0) not in s1.legal_actions()
    with pytest.raises(IllegalAction, match="one card of each type"):
        s1.apply(PlaySpecial(special, 1, 0))


def test_obstacles_by_terrain_and_one_obstacle_per_village():
    g = game(3)
    s = planning_state(g, hands={0: {"special:tree": 1, "special:sea_monster": 1}},
                       realms=[(), ((LAKE, ()), (PLAINS, ())), ((DESERT, ()),)])
    legal = {(a.special, a.realm, a.slot) for a in s.legal_actions() if isinstance(a, PlaySpecial)}
    assert legal == {("tree", 1, 1), ("tree", 2, 0), ("sea_monster", 1, 0)}
    with pytest.raises(IllegalAction, match="tree may only go next to"):
        s.apply(PlaySpecial("tree", 1, 0))
    s1 = replace(s.apply(PlaySpecial("tree", 1, 1)), turn=0)
    s2 = planning_state(g, hands={0: {"special:sea_monster": 1}},
                        realms=[(), ((RIVER, (("sea_monster", 2),)),), ()])
    assert not [a for a in s2.legal_actions() if isinstance(a, PlaySpecial)]
    assert s1.realms[1][1] == (PLAINS, (("tree", 0),))


def test_four_coat_of_arms_tokens_per_round():
    g = game(3)
    realms = [(), ((LAKE, (("gold", 0), ("thief", 0))), (PLAINS, (("gold", 0), ("tree", 0)))),
              ((DESERT, ()),)]
    s = planning_state(g, hands={0: {"special:thief": 1}}, realms=realms)
    assert s.tokens_left(0) == 0
    assert not [a for a in s.legal_actions() if isinstance(a, PlaySpecial)]
    with pytest.raises(IllegalAction, match="coat of arms"):
        s.apply(PlaySpecial("thief", 2, 0))


def test_journey_cards_are_not_played_while_planning():
    g = game(3)
    s = planning_state(g, hands={0: {"special:escort": 1, "special:change_direction": 1}},
                       realms=[((LAKE, ()),), (), ()])
    assert not [a for a in s.legal_actions() if isinstance(a, PlaySpecial)]
    with pytest.raises(IllegalAction, match="Only gold, thief and obstacle"):
        s.apply(PlaySpecial("escort", 0, 0))


def test_remove_village_costs_two_plus_one_per_special_and_returns_tokens():
    g = game(3)
    realms = [((LAKE, (("gold", 1), ("thief", 2), ("sea_monster", 1))), (PLAINS, ())), (), ()]
    s = planning_state(g, realms=realms, gold=[12, 12, 12])
    assert s.tokens_left(1) == 2
    legal = [a for a in s.legal_actions() if isinstance(a, RemoveVillage)]
    assert legal == [RemoveVillage(0, 5), RemoveVillage(1, 2)]
    s1 = s.apply(RemoveVillage(0, 5))
    assert s1.gold[0] == 7 and s1.realms[0] == ((PLAINS, ()),)
    assert s1.tokens_left(1) == 4 and s1.tokens_left(2) == 4
    assert sum(s1.discard) == 4 and card_total(s1) == 120
    poor = planning_state(g, realms=realms, gold=[4, 12, 12])
    assert [a for a in poor.legal_actions() if isinstance(a, RemoveVillage)] == [RemoveVillage(1, 2)]
    # not from another player's realm
    other = replace(s, turn=1)
    assert not [a for a in other.legal_actions() if isinstance(a, RemoveVillage)]


def test_pass_needs_a_village_and_all_passing_starts_the_journeys():
    g = game(3)
    s = planning_state(g, hands={1: {PLAINS: 1}}, realms=[((LAKE, ()),), (), ((FOREST, ()),)])
    assert Pass() in s.legal_actions()
    s = s.apply(Pass())
    assert Pass() not in s.legal_actions()                    # player 2 has no village
    with pytest.raises(IllegalAction, match="village in your realm"):
        s.apply(Pass())
    s = s.apply(PlayVillage(PLAINS, 1))
    assert s.passes == 0
    for _ in range(2):
        s = s.apply(Pass())
        assert s.phase == "planning"
    s = s.apply(Pass())
    assert s.phase == "journey" and s.turn == s.start == 0
    assert len(s.table) == 3


def test_pass_allowed_when_no_village_can_be_had():
    """Decision of this model: a player without a village who cannot get one may pass
    (else planning could never end).  Whether the face-down supply holds a village is
    learnt by searching it ("No village card!"), and an empty supply is seen by all."""
    g = game(2)
    sup = ["travel:raft"] * 5
    s = planning_state(g, hands={0: {"travel:dragon": 1}}, supply=sup)
    assert Pass() not in s.legal_actions()
    s = s.apply(NoVillageCard(("travel:dragon",)))
    assert s.legal_actions() == (TakeVillage(None, 0),)
    s = s.apply(TakeVillage(None, 0))
    assert s.villages_gone and s.turn == 1 and s.hands[0][g.index["travel:dragon"]] == 1
    s = s.apply(Pass())
    assert Pass() in s.legal_actions()
    assert not [a for a in s.legal_actions() if isinstance(a, NoVillageCard)]
    empty = planning_state(g, hands={0: {"travel:dragon": 1}}, supply=[])
    assert Pass() in empty.legal_actions()


def test_planning_example_from_the_rulebook():
    """Anna passes; Bob plays a village; Carl lays a thief there; Doris buys a card
    for 1 gold; Anna draws 3 and discards 4; then all four pass in turn."""
    g = game(4, player_names=("Anna", "Bob", "Carl", "Doris"))
    s = planning_state(g, hands={0: {"travel:raft": 3}, 1: {DESERT: 1}, 2: {"special:thief": 1}},
                       realms=[((RIVER, ()),), (), ((PLAINS, ()),), ((LAKE, ()),)])
    rng = random.Random(7)
    s = s.apply(Pass())
    s = s.apply(PlayVillage(DESERT, 1))
    s = s.apply(PlaySpecial("thief", 1, 0))
    s = s.apply(Buy(1))
    s = s.apply(s.sample_chance(rng))
    assert s.gold[3] == 11 and s.turn == 0
    s = s.apply(DrawThree())
    for _ in range(3):
        s = s.apply(s.sample_chance(rng))
    for _ in range(4):
        s = s.apply(s.legal_actions()[0])
    for p in (1, 2, 3):
        assert s.turn == p
        s = s.apply(Pass())
    assert s.phase == "planning"
    s = s.apply(Pass())
    assert s.phase == "journey"


# --------------------------------------------------------------------------- journeying in the game

def test_journeys_in_the_game_pay_thieves_to_their_owner():
    g = game(4)
    realms = [((RIVER, (("sea_monster", 3),)),), ((FOREST, (("gold", 0), ("tree", 2))),),
              ((DESERT, (("thief", 1),)), ("village:plains:3", ())), (("village:mountain:5", ()),)]
    hands = {0: {"travel:raft": 3, "travel:elfcycle": 2, "travel:unicorn": 2,
                 "travel:magic_cloud": 2, "travel:dragon": 1}}
    s = planning_state(g, hands=hands, realms=realms)
    for _ in range(4):
        s = s.apply(Pass())
    assert s.phase == "journey" and s.current_player() == 0
    for vehicle in ("raft", "unicorn", "dragon", "elfcycle", "magic_cloud"):
        (a,) = [a for a in s.legal_actions() if isinstance(a, Visit) and a.vehicle == vehicle]
        s = s.apply(a)
    s = s.apply(EndJourney())
    assert s.gold[0] == 12 + 32 and s.gold[1] == 12 + 2
    assert s.hand_cards(0) == {"elfcycle": 1, "magic cloud": 1, "raft": 1}
    assert s.turn == 1 and card_total(s) == 120
    assert ledger_balances(s) == s.gold


def test_round_end_new_starting_player_and_eight_cards():
    g = game(3)
    s = planning_state(g, hands={0: {"travel:raft": 2}}, realms=[((LAKE, ()),), ((PLAINS, ()),),
                                                                 ((FOREST, ()),)])
    for _ in range(3):
        s = s.apply(Pass())
    for _ in range(3):
        s = s.apply(EndJourney())
    assert s.phase == "deal" and s.round == 2 and s.start == 1 and s.turn == 1
    assert s.realms == ((), (), ()) and sum(s.discard) == 0
    assert sum(s.supply) == 118 and s.hands[0][g.index["travel:raft"]] == 2   # hands kept
    rng = random.Random(0)
    while s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    assert [sum(h) for h in s.hands] == [10, 8, 8]
    assert s.turn == 1


@pytest.mark.parametrize("players, rounds", [(2, 2), (3, 3), (4, 4), (5, 5), (6, 5)])
def test_number_of_rounds(players, rounds):
    end = play_state(game(players), seed=1)
    assert end.round == rounds and end.is_terminal()


def test_ties_share_the_win():
    g = game(3)
    s = replace(g.initial_state(), step=GAME_OVER, gold=(20, 20, 5))
    assert s.returns() == (Fraction(1, 2), Fraction(1, 2), Fraction(0))
    assert s.scores() == (20, 20, 5)


# --------------------------------------------------------------------------- hidden information

def test_views_hide_hands_and_the_supply():
    g = game(3)
    s = play_state_until(g, lambda s: s.phase == "planning", seed=2)
    v = s.view(1)
    assert v.hands[1] == s.hands[1]
    assert v.hands[0] == (HIDDEN, 10) and v.supply == (HIDDEN, 90)
    mine = s.hand_cards(0)
    text = str(v)
    line = [l for l in text.splitlines() if "hand:" in l][0]
    assert "hidden" in line and not any(k in line for k in mine)


def play_state_until(g, cond, seed):
    rng = game_rng(seed)
    s = g.initial_state()
    while not cond(s):
        s = s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
    return s


# --------------------------------------------------------------------------- playouts

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("teleport", [False, True])
def test_random_playouts_keep_cards_and_gold(players, teleport):
    g = game(players, teleport=teleport)
    for seed in range(3):
        rng = game_rng("elves-test", seed)
        s = g.initial_state()
        steps = 0
        while not s.is_terminal():
            assert card_total(s) == 120
            assert min(s.gold) >= 0
            if s.is_chance():
                s = s.apply(s.sample_chance(rng))
            else:
                acts = s.legal_actions()
                assert acts
                s = s.apply(rng.choice(acts))
            steps += 1
            assert steps < 20_000
        assert card_total(s) == 120 and min(s.gold) >= 0
        assert ledger_balances(s) == s.gold
        assert sum(s.returns()) == 1


def test_a_game_with_journeys_that_earn():
    """A simple sensible policy (best journey, play villages home, pass) earns gold."""
    from kingdoms.elves.journey import best_journey

    def policy(s, rng):
        acts = s.legal_actions()
        if s.phase == "journey":
            return best_journey(s.table, s.trip, s.game.journey_rules).steps[0][0]
        home = [a for a in acts if isinstance(a, PlayVillage) and a.realm == s.turn]
        if home and len(s.realms[s.turn]) < 1:
            return home[0]
        return Pass() if Pass() in acts else rng.choice(acts)

    end = play_state(game(3), policies=policy, seed=4)
    assert max(end.gold) > 12
    earned = sum(a for src, dst, a, why in gold_ledger(end) if why == "village")
    assert earned > 0 and ledger_balances(end) == end.gold


def test_record_round_trip():
    rec = play(game(3, teleport=True), seed=11)
    again = GameRecord.from_json(rec.to_json())
    assert again.replay() == rec.replay()


def test_teleport_in_the_game_and_the_ledger():
    g = game(2, teleport=True)
    realms = [((PLAINS, ()),), ((LAKE, (("thief", 0),)), (DESERT, (("tree", 0),)))]
    hands = {1: {"travel:dragon": 1, "travel:raft": 3, "travel:unicorn": 2},
             0: {"travel:giant_pig": 1}}
    s = planning_state(g, hands=hands, realms=realms)
    s = s.apply(Pass()).apply(Pass())
    s = s.apply(EndJourney())                     # player 1 stays home
    assert s.current_player() == 1
    from kingdoms.elves.journey import Teleport, TeleportCard, TeleportTo
    assert Teleport(3) not in s.legal_actions()   # not before the first own village
    (lake,) = [a for a in s.legal_actions() if isinstance(a, Visit)]
    s = s.apply(lake)                             # 2 rafts, thief of player 1 takes 2
    assert s.gold == (14, 12 + 7 - 2)
    v = s.view(0)
    assert v.trip.hand[0] is HIDDEN and "dragon" not in str(v).split("Player 2")[-1]
    s = s.apply(Teleport(3))
    for card in ("raft", "unicorn", "unicorn", "dragon"):
        s = s.apply(TeleportCard(card))
    targets = [a for a in s.legal_actions() if isinstance(a, TeleportTo)]
    assert {(a.realm, a.slot) for a in targets} == {(0, 0), (1, 0), (1, 1)}
    s = s.apply(TeleportTo(0, 0, gold=2))         # player 1's plains village
    assert s.gold[1] == 17 - 3 + 2 and sum(s.hands[1]) == 0
    assert ledger_balances(s) == s.gold and card_total(s) == 120


def test_games_and_states_pickle_for_worker_processes():
    import pickle
    g = game(3, teleport=True, player_names=("A", "B", "C"))
    s = play_state(g, seed=3)
    assert pickle.loads(pickle.dumps(g)) == g
    assert pickle.loads(pickle.dumps(s)) == s


def test_simulate_with_a_process_pool():
    from concurrent.futures import ProcessPoolExecutor
    from kingdoms.core.play import simulate
    from kingdoms.elves.policies import homebody
    g = game(2)
    serial = simulate(g, 4, policies=homebody, seed=5, progress=False, batch=2)
    with ProcessPoolExecutor(max_workers=1) as ex:
        pooled = simulate(g, 4, policies=homebody, seed=5, executor=ex, progress=False, batch=2)
    assert serial.wins == pooled.wins and serial.scores == pooled.scores


def test_planner_policy_falls_back_to_greedy_on_huge_journeys(monkeypatch):
    from kingdoms.elves import policies
    monkeypatch.setattr(policies, "MAX_TRIPS", 0)
    end = play_state(game(3), policies=policies.Planner(), seed=8)
    assert end.is_terminal() and ledger_balances(end) == end.gold
    visits = [a for _, a in end.history() if isinstance(a, Visit)]
    assert visits and all(not a.escort for a in visits)
