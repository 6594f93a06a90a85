"""The solo player against Moritz (``policies.solo_policy``, ``kingdoms.horse.solo``): exact checks of its
choices (dice = the exact re-roll solver's optimum; the final trade = the best rank
any trading order reaches), legality, seeding, what it reads, and the face variants."""
import random
from dataclasses import replace
from itertools import permutations

import pytest

import kingdoms
from kingdoms.core.play import play, play_state
from kingdoms.horse import odds, policies, solo
from kingdoms.horse.actions import PlayCard, RollDice, Trade
from kingdoms.horse.policies import TARGET_LAYOUT
from kingdoms.horse.steps import BeforeRoll, FinalTrading, Keeping

GAME = kingdoms.game("horse", players=1)
COMP = GAME.comp


def _decisions(seeds=range(3)):
    """Every position where the solo player decides, in seeded games."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not s.is_terminal():
            if s.is_chance():
                a = s.sample_chance(rng)
            else:
                out.append(s)
                a = policies.solo_policy(s.view(0), rng)
                assert a in s.legal_actions()
            s = s.apply(a)
    return out


DECISIONS = _decisions()


def test_registered_as_a_named_player():
    assert GAME.policies()["solo"] is policies.solo_policy
    assert kingdoms.game("horse", players=2).policies()["solo"] is policies.solo_policy


def test_keep_choices_are_the_exact_solvers_optimum():
    keeping = [s for s in DECISIONS if isinstance(s.step, Keeping)][:6]
    assert keeping
    for s in keeping:
        farm = s.farms[0]
        goal = solo.dice_goal(COMP, farm.herd, farm.fences, s.trades_all(0), TARGET_LAYOUT)
        best = odds.solve_rerolls(goal, game=COMP)
        a = policies.solo_policy(s.view(0), random.Random(0))
        assert (tuple(a.kept), a.keep_mult) == tuple(best.keep[(s.dice, s.rerolls_left)])


def test_dice_goal_counts_housed_animals_fences_and_the_finish():
    herd, fences = (2, 2, 2, 2), TARGET_LAYOUT
    goal = solo.dice_goal(COMP, (0, 0, 0, 0), TARGET_LAYOUT, layout=TARGET_LAYOUT)
    plain = goal((("1 sheep", "1 sheep", "1 sheep"), "cattle"))
    assert plain == 3 - odds.extra_sheep_needed((3, 0, 0, 0), game=COMP)
    # a herd one trade from the set: every roll keeps the finish bonus
    near = solo.dice_goal(COMP, (2, 2, 10, 0), fences)
    assert near((("1 sheep", "1 sheep", "1 sheep"), "sheep")) >= solo.FINISH
    assert solo.dice_goal(COMP, herd, fences)((("1 sheep",) * 3, "sheep")) >= solo.FINISH
    # animals that cannot be housed count nothing: 12 fences hold 4 fields
    start = GAME.initial_state().farms[0].fences
    crowded = solo.dice_goal(COMP, (4, 4, 0, 0), start)
    assert crowded((("2 sheep",) * 3, "cattle")) == crowded((("1 sheep",) * 3, "cattle"))


@pytest.mark.parametrize("herd", [(9, 7, 5, 0), (2, 2, 9, 0), (5, 3, 8, 1), (3, 6, 2, 1),
                                  (1, 9, 9, 0), (12, 0, 4, 2)])
def test_final_trade_reaches_the_best_rank_of_any_trading_order(herd):
    s = next(s for s in DECISIONS if s.step.name == "trade")
    s = replace(s, step=FinalTrading(), seat=0, traded=(),
                farms=(replace(s.farms[0], herd=herd, fences=TARGET_LAYOUT),))
    rng = random.Random(0)
    while isinstance(s.step, FinalTrading) and s.current_player() == 0:
        s = s.apply(policies.solo_policy(s.view(0), rng))
    got = solo._final_key(COMP, s.farms[0].herd)
    best = max(solo._final_key(COMP, solo.housed(COMP, TARGET_LAYOUT, h))
               for h in _every_final_trade(herd))
    assert got == best


def _every_final_trade(herd):
    """Every herd reachable by giving each species at most once, in any order."""
    rates = COMP.trade_rates
    seen = {herd}
    todo = [(herd, frozenset())]
    while todo:
        h, done = todo.pop()
        for i in range(3):
            if i in done:
                continue
            for k in range(1, h[i] // rates[i] + 1):
                n = list(h)
                n[i] -= k * rates[i]
                n[i + 1] += k
                n = tuple(n)
                if (n, done | {i}) not in seen:
                    seen.add((n, done | {i}))
                    seen.add(n)
                    todo.append((n, done | {i}))
    return [h for h in seen if len(h) == 4 and isinstance(h[0], int)]


def test_plays_merchant_sheep_before_rolling_when_it_can():
    s = next(s for s in DECISIONS if isinstance(s.step, BeforeRoll))
    farm = replace(s.farms[0], hand=("Lambing Season", "Piglets", "Piglets",
                                     "Training to Merchant Sheep"), herd=(2, 1, 0, 0))
    s = replace(s, farms=(farm,))
    assert policies.solo_policy(s, random.Random(0)) == PlayCard("Training to Merchant Sheep")
    poor = replace(s, farms=(replace(farm, herd=(0, 1, 0, 0)),))   # cannot pay a sheep
    assert policies.solo_policy(poor, random.Random(0)) == RollDice()


def test_reads_only_its_view_and_ignores_the_rng():
    """The same move from the full state, the player's view, a world sampled from
    that view and any rng: nothing hidden (the deck order) is read."""
    world_rng = random.Random(5)
    for s in DECISIONS[::7]:
        a = policies.solo_policy(s.view(0), random.Random(1))
        assert policies.solo_policy(s, random.Random(2)) == a
        assert policies.solo_policy(s.sample_world(0, world_rng), random.Random(3)) == a


def test_seeded_and_legal_in_play():
    r1 = play(GAME, ["solo"], seed=11)
    r2 = play(GAME, ["solo"], seed=11)
    assert r1.steps == r2.steps and len(r1.steps) > 10
    end = play_state(GAME, ["solo"], 12)
    assert end.is_terminal()


def test_face_variants_change_only_the_faces():
    shipped = solo.face_variant_game("as in data.toml").comp
    assert shipped == COMP
    for name, change in list(solo.FACE_VARIANTS.items())[1:]:
        comp = solo.face_variant_game(name).comp
        king = [f.name for f in comp.king_faces]
        assert king == change.get("king_die", [f.name for f in COMP.king_faces])
        assert list(comp.mult_faces) == change.get("multiplication_die", list(COMP.mult_faces))
        assert king[:3] == ["1 sheep", "2 sheep", "1 pig"]            # known faces kept
        assert "horse" not in comp.mult_faces
        assert comp.cards == COMP.cards and comp.goal == COMP.goal
    with pytest.raises(ValueError, match="no face variant"):
        solo.face_variant_game("six-sided unicorn")
