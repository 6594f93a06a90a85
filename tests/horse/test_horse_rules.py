"""The rules of My Kingdom for a Horse, clause by clause, and the rulebook examples."""
from dataclasses import replace
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.data import DataError
from kingdoms.core.protocol import CHANCE, HIDDEN, IllegalAction
from kingdoms.horse import pasture
from kingdoms.horse.actions import (Discard, EndEffects, EndFences, EndTrading, KeepDice,
                                    LiftFence, PlaceFence, PlayCard, PutFence, Roll, RunAway,
                                    TakeDie, Trade, UseCattle, UseDie)
from kingdoms.horse.pasture import edge_index as E, enclosure as box
from kingdoms.horse.rules import Farm
from kingdoms.horse.steps import EFFECTS, TRADING, FenceJob


def at_effects(players=2, dice=(("1 sheep", "1 pig", "1 fence"), "sheep"), farms=None,
               easy=True, **kw):
    g = kingdoms.game("horse", players=players, easy=easy)
    s = g.initial_state()
    if farms:
        fs = list(s.farms)
        for i, f in farms.items():
            fs[i] = f
        # keep the animal total: take the difference from the supply
        supply = list(g.comp.supply)
        for f in fs:
            supply = [a - b for a, b in zip(supply, f.herd)]
        s = replace(s, farms=tuple(fs), supply=tuple(supply))
    s = replace(s, step=EFFECTS, dice=dice, rerolls_left=0,
                unused=tuple(dice[0]) + (f"multiply {dice[1]}",), **kw)
    return s


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_per_seat(n):
    g = kingdoms.game("horse", players=n)
    s = g.initial_state()
    expect = [(12, (1, 1, 0, 0)), (12, (2, 1, 0, 0)), (12, (3, 1, 0, 0)), (13, (3, 1, 0, 0))]
    for i, f in enumerate(s.farms):
        assert (pasture.popcount(f.fences), f.herd) == expect[i]
        assert f.fits()
    if n == 1:
        assert s.moritz == (2, 1, 0, 0)
    total = [sum(f.herd[i] for f in s.farms) + s.supply[i] + (s.moritz[i] if s.moritz else 0)
             for i in range(4)]
    assert total == [32, 32, 24, 12]
    assert s.current_player() == CHANCE and s.phase == "deal"


def test_dealing_four_cards_each_then_roll():
    s = kingdoms.game("horse", players=3).initial_state()
    import random
    rng = random.Random(1)
    while s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    assert [len(f.hand) for f in s.farms] == [4, 4, 4]
    assert s.deck_count == 35 - 12 and sum(s.deck) == 23
    assert s.phase in ("start", "roll")     # "start": a farm card may be played first


# ------------------------------------------------------------------ pasture

def test_fenced_area_needs_whole_outer_boundary():
    m = box([0, 1, 4, 5])                       # a 2x2 block: 8 fences
    assert pasture.popcount(m) == 8
    assert pasture.areas(m) == (0b110011,) and pasture.capacities(m) == (8,)
    open_one = m & ~(1 << E("H00"))             # one border missing: no area
    assert pasture.areas(open_one) == ()
    # an inner fence splits it into two areas, each fenced all round
    split = m | 1 << E("V01") | 1 << E("V11")
    assert pasture.capacities(split) == (4, 4)
    # the board edge must carry fences too: an unfenced board edge is open
    assert pasture.areas(0) == ()


def test_one_species_per_area_and_two_per_field():
    m = box([0, 1]) | box([8, 9])               # two areas of 2 fields (capacity 4 each)
    assert pasture.fits(m, (4, 4, 0, 0))
    assert not pasture.fits(m, (9, 0, 0, 0))     # 2 per field: 8 at most
    assert not pasture.fits(m, (5, 1, 0, 0))     # 5 sheep take both areas, no room for the pig
    assert not pasture.fits(m, (1, 1, 1, 0))     # 3 species need 3 areas
    assert pasture.fits(m, (8, 0, 0, 0))         # one species may use both areas


def test_housing_example_swap_and_one_sheep_runs_away():
    """White has 5 sheep (3-field area) and 2 pigs (2-field area); she receives
    3 pigs: sheep and pigs swap areas and 1 sheep runs away."""
    fences = box([0, 1, 2]) | box([8, 9])
    white = Farm(herd=(5, 2, 0, 0), fences=fences)
    s = at_effects(dice=(("1 pig", "1 pig", "1 pig"), "cattle"), farms={0: white})
    s = s.apply(UseDie("1 pig")).apply(UseDie("1 pig"))
    assert s.farms[0].herd == (5, 4, 0, 0) and not s.must_release()
    s = s.apply(UseDie("1 pig"))
    assert s.farms[0].herd == (5, 5, 0, 0) and not s.farms[0].fits()
    assert not s.must_release()                   # only at the end of the phase
    s = s.apply(EndEffects()).apply(TakeDie(None))
    assert s.phase == "house" and s.must_release()
    assert set(s.legal_actions()) == {RunAway("sheep"), RunAway("pig")}
    with pytest.raises(IllegalAction, match="run away"):
        s.apply(EndTrading())
    s = s.apply(RunAway("sheep"))
    assert s.phase == "trade"
    assert s.farms[0].herd == (4, 5, 0, 0) and s.farms[0].fits()
    assert pasture.assignment(fences, (4, 5, 0, 0)) == {0b111: 1, 0b1100000000: 0}
    assert s.supply[0] == 32 - 4 - 2


def test_multiplication_example_five_sheep_give_two():
    farm = Farm(herd=(5, 0, 0, 0), fences=box([0, 1, 2, 3]))
    s = at_effects(dice=(("1 fence", "1 fence", "1 fence"), "sheep"), farms={0: farm})
    s = s.apply(UseDie("multiply sheep"))
    assert s.farms[0].herd == (7, 0, 0, 0)


def test_half_cattle_two_or_three_give_one_cattle_alone_nothing():
    farm = Farm(herd=(1, 1, 0, 0), fences=box([0, 1]) | box([8, 9]) | box([3, 7]))
    s = at_effects(dice=(("half cattle", "half cattle", "half cattle"), "pig"), farms={0: farm})
    assert UseCattle() in s.legal_actions()
    assert UseDie("half cattle") not in s.legal_actions()
    s2 = s.apply(UseCattle())
    assert s2.farms[0].herd == (1, 1, 1, 0) and "half cattle" not in s2.unused
    lone = at_effects(dice=(("half cattle", "1 pig", "1 pig"), "pig"), farms={0: farm})
    assert UseCattle() not in lone.legal_actions()
    with pytest.raises(IllegalAction, match="alone"):
        lone.apply(UseCattle())


# ------------------------------------------------------------------ fences

def test_fence_job_place_and_move_up_to_k():
    s = at_effects(dice=(("1 fence", "1 pig", "1 pig"), "pig"))
    s = s.apply(UseDie("1 fence"))
    assert s.fence_job == FenceJob(player=0, received=1, placed=0, moved=0, lifted=-1)
    acts = s.legal_actions()
    assert PlaceFence(E("H02")) in acts and LiftFence(E("H00")) in acts and EndFences() in acts
    s = s.apply(PlaceFence(E("H02")))
    assert not any(isinstance(a, PlaceFence) for a in s.legal_actions())  # only 1 new fence
    with pytest.raises(IllegalAction, match="at most as many new fences"):
        s.apply(PlaceFence(E("H03")))
    s = s.apply(LiftFence(E("H12")) if LiftFence(E("H12")) in s.legal_actions()
                else LiftFence(E("H02")))
    assert all(isinstance(a, PutFence) for a in s.legal_actions())
    s = s.apply(PutFence(E("H03")))
    assert not any(isinstance(a, LiftFence) for a in s.legal_actions())   # 1 move used
    s = s.apply(EndFences())
    assert s.fence_job is None and pasture.popcount(s.farms[0].fences) == 13


def test_empty_fence_supply_still_allows_moves():
    full = (1 << 24) - 1                      # 24 fences placed (no areas needed here)
    farm = Farm(herd=(0, 0, 0, 0), fences=full)
    s = at_effects(dice=(("2 fences", "1 pig", "1 pig"), "pig"), farms={0: farm})
    s = s.apply(UseDie("2 fences"))
    acts = s.legal_actions()
    assert not any(isinstance(a, PlaceFence) for a in acts)
    assert sum(isinstance(a, LiftFence) for a in acts) == 24
    s = s.apply(LiftFence(0)).apply(PutFence(30)).apply(LiftFence(1)).apply(PutFence(29))
    assert s.legal_actions() == (EndFences(),)


def test_housing_checked_at_the_end_of_the_phase_after_the_fence_job():
    farm = Farm(herd=(2, 0, 0, 0), fences=box([0]))
    s = at_effects(dice=(("1 fence", "1 pig", "1 pig"), "pig"), farms={0: farm})
    s = s.apply(UseDie("1 fence")).apply(LiftFence(E("H00"))).apply(PutFence(E("H03")))
    s = s.apply(EndFences())
    assert not s.farms[0].fits() and not s.must_release()
    s = s.apply(EndEffects()).apply(TakeDie(None))
    assert s.must_release() and set(s.legal_actions()) == {RunAway("sheep")}


# ------------------------------------------------------------------ others, cards

def test_others_choose_different_dice_rulebook_example():
    """Black's final result: 2 sheep, two half cattle, multiply sheep.  White takes
    the 2 sheep, Brown the multiplication, Grey only finds a half cattle."""
    big = box([0, 1, 2, 3]) | box([8, 9, 10, 11]) | box([4, 5]) | box([6, 7])
    farms = {i: Farm(herd=(4, 1, 0, 0), fences=big) for i in range(4)}
    dice = (("2 sheep", "half cattle", "half cattle"), "sheep")
    s = at_effects(players=4, dice=dice, farms=farms)
    s = s.apply(UseDie("2 sheep")).apply(UseCattle()).apply(UseDie("multiply sheep"))
    assert s.farms[0].herd == (4 + 2 + 3, 1, 1, 0)
    s = s.apply(EndEffects())
    assert s.phase == "others" and s.current_player() == 1
    s = s.apply(TakeDie("2 sheep"))
    assert s.farms[1].herd == (6, 1, 0, 0) and s.current_player() == 2
    assert TakeDie("2 sheep") not in s.legal_actions()
    s = s.apply(TakeDie("multiply sheep"))
    assert s.farms[2].herd == (6, 1, 0, 0)
    assert set(s.legal_actions()) == {TakeDie("half cattle"), TakeDie(None)}
    s = s.apply(TakeDie("half cattle"))
    assert s.farms[3].herd == (4, 1, 0, 0)
    assert s.phase == "trade" and s.current_player() == 0


def test_solo_moritz_takes_no_dice_and_rolls_twice():
    g = kingdoms.game("horse", players=1, easy=True)
    s = g.initial_state()
    s = s.apply(Roll(("1 pig", "1 sheep", "2 fences"), "pig"))
    s = s.apply(KeepDice(("1 pig", "1 sheep", "2 fences"), True))
    s = s.apply(EndEffects())
    assert s.phase == "trade"
    s = s.apply(EndTrading())
    assert s.phase == "moritz" and s.current_player() == CHANCE
    s = s.apply(Roll(("2 sheep", "half cattle", "half cattle"), "sheep"))   # 2,1 -> 4,1,1 -> 6
    assert s.moritz == (6, 1, 1, 0) and s.phase == "moritz"
    s = s.apply(Roll(("1 fence", "1 fence", "1 pig"), "pig"))               # -> 6,2,1 -> 6,3
    # then he trades keeping 2 of each: 4 sheep -> 2 pigs; 5 pigs -> 1 cattle (keep 2)
    assert s.moritz == (2, 2, 2, 0)
    assert s.phase == "roll" and s.round == 2


def test_play_card_once_and_draw_back_to_four():
    g = kingdoms.game("horse", players=2)
    s = at_effects(easy=False, dice=(("1 fence", "1 fence", "1 fence"), "pig"))
    s = replace(s, farms=(replace(s.farms[0], hand=("Lambing Season", "Piglets", "Piglets",
                                                    "Training to Merchant Sheep")),) + s.farms[1:],
                deck=tuple(c.copies - (1 if c.name in ("Lambing Season", "Training to Merchant Sheep")
                                       else 2 if c.name == "Piglets" else 0)
                           for c in s.game.comp.cards), deck_count=31)
    s = s.apply(PlayCard("Lambing Season"))
    assert s.farms[0].herd == (3, 1, 0, 0) and s.card_played and s.current_player() == CHANCE
    s = s.apply(s.chance_outcomes()[0][0])
    assert len(s.farms[0].hand) == 4 and s.deck_count == 30
    assert not any(isinstance(a, PlayCard) for a in s.legal_actions())
    assert s.discard[[c.name for c in g.comp.cards].index("Lambing Season")] == 1


def test_no_card_played_allows_discard_and_redraw():
    s = at_effects(easy=False, dice=(("1 fence", "1 fence", "1 fence"), "pig"))
    s = replace(s, farms=(replace(s.farms[0], hand=("Piglets", "Sheep Spring")),) + s.farms[1:])
    s = s.apply(EndEffects())
    assert s.phase == "discard"
    assert Discard(("Piglets", "Sheep Spring")) in s.legal_actions()
    s = s.apply(Discard(("Piglets",)))
    assert s.current_player() == CHANCE and s.draws == (0,)
    s = s.apply(s.chance_outcomes()[0][0])
    assert len(s.farms[0].hand) == 2 and s.phase == "others"


def test_merchant_card_trades_all_species():
    farm = Farm(herd=(6, 3, 0, 0), fences=box([0, 1, 2, 3]) | box([8, 9, 10, 11]) | box([4, 5]),
                tableau=("Training to Merchant Sheep",))
    s = at_effects(farms={0: farm}, dice=(("1 fence", "1 fence", "1 fence"), "horse"
                                          if False else "pig"))
    s = replace(s, step=TRADING, seat=0, unused=())
    s = s.apply(Trade("sheep", 4, "pig", 2))
    assert s.current_player() == 0                       # may trade another species
    assert not any(isinstance(a, Trade) and a.give == "sheep" for a in s.legal_actions())
    s = s.apply(Trade("pig", 3, "cattle", 1))
    assert s.farms[0].herd == (2, 2, 1, 0)


# ------------------------------------------------------------------ trading, supply

def test_trade_example_six_sheep_for_three_pigs_and_one_species_only():
    farm = Farm(herd=(6, 3, 0, 0), fences=box([0, 1, 2, 3]) | box([8, 9, 10, 11]))
    s = at_effects(farms={0: farm}, dice=(("1 fence", "1 fence", "1 fence"), "pig"))
    s = replace(s, step=TRADING, seat=0, unused=())
    assert Trade("sheep", 6, "pig", 3) in s.legal_actions()
    assert not any(isinstance(a, Trade) and a.give == "pig" and a.count > 1
                   for a in s.legal_actions())
    s = s.apply(Trade("sheep", 6, "pig", 3))
    assert s.farms[0].herd == (0, 6, 0, 0)
    assert s.current_player() == 1                       # one species per trading phase
    with pytest.raises(IllegalAction):
        s.apply(Trade("sheep", 6, "pig", 3))           # Ben has only 2 sheep


def test_empty_supply_rule():
    big = box([0, 1, 2, 3]) | box([8, 9, 10, 11])
    farms = {0: Farm(herd=(5, 0, 0, 0), fences=big), 1: Farm(herd=(7, 0, 0, 0), fences=big),
             2: Farm(herd=(3, 0, 0, 0), fences=big)}
    s = at_effects(players=3, farms=farms, dice=(("1 sheep", "1 fence", "1 fence"), "pig"))
    s = replace(s, supply=(0,) + s.supply[1:])           # the sheep supply is empty
    s = s.apply(UseDie("1 sheep"))
    # everyone with more than 3 sheep lets 1 go, then the 1 sheep is taken
    assert [f.herd[0] for f in s.farms] == [4 + 1, 6, 3]
    assert s.supply[0] == 1


# ------------------------------------------------------------------ end, variants

def test_end_triggered_finish_turn_final_trade_and_tiebreaks():
    g = kingdoms.game("horse", players=3)
    s = g.initial_state()
    four = box([0, 1, 2, 3]) | box([4, 5]) | box([6, 7]) | box([8, 9, 10, 11])
    s = replace(s, farms=(Farm(herd=(2, 2, 2, 2), fences=four), Farm(herd=(3, 2, 2, 2), fences=four),
                          Farm(herd=(8, 2, 2, 1), fences=four)),
                step=TRADING, seat=0, end_triggered=True)
    s = s.apply(EndTrading()).apply(EndTrading()).apply(EndTrading())
    assert s.phase == "final" and s.current_player() == 0
    s = s.apply(EndTrading()).apply(EndTrading())
    assert s.current_player() == 2
    assert any(isinstance(a, Trade) and a.give == "sheep" for a in s.legal_actions())
    assert s.is_terminal() is False
    s2 = s.apply(EndTrading())
    assert s2.is_terminal() and s2.returns() == (0, 1, 0)     # tie on horses..pigs: most sheep
    assert s2.winners() == [1]
    # full tie shares; nobody with the set: everyone shares
    t = replace(s2, farms=(Farm(herd=(2, 2, 2, 2)), Farm(herd=(2, 2, 2, 2)), Farm(herd=(0, 0, 0, 9))))
    assert t.returns() == (Fraction(1, 2), Fraction(1, 2), 0)
    u = replace(s2, farms=(Farm(herd=(0, 2, 2, 2)),) * 3)
    assert u.returns() == (Fraction(1, 3),) * 3


def test_goal_triggers_end_when_reached():
    farm = Farm(herd=(1, 2, 2, 2), fences=box([0]) | box([1]) | box([2]) | box([3]))
    s = at_effects(farms={0: farm}, dice=(("1 sheep", "1 fence", "1 fence"), "pig"), easy=False)
    s = s.apply(UseDie("1 sheep"))
    assert s.end_triggered


def test_easy_variant_no_cards_one_of_each():
    g = kingdoms.game("horse", players=2, easy=True)
    assert g.comp.goal == 1
    s = g.initial_state()
    assert s.phase == "roll" and all(f.hand == () for f in s.farms)


def test_keep_and_reroll_at_most_twice():
    s = kingdoms.game("horse", players=2, easy=True).initial_state()
    s = s.apply(Roll(("1 fence", "1 pig", "1 sheep"), "cattle"))
    assert s.phase == "keep" and len(s.legal_actions()) == 16
    s = s.apply(KeepDice(("1 pig",), False))
    assert s.current_player() == CHANCE
    assert sum(p for _, p in s.chance_outcomes()) == 1
    s = s.apply(Roll(("1 pig", "2 sheep", "2 sheep"), "sheep"))
    s = s.apply(KeepDice((), False))
    s = s.apply(Roll(("1 pig", "1 pig", "1 pig"), "pig"))
    assert s.phase == "effects"                     # 3 rolls in total
    with pytest.raises(IllegalAction):
        s.apply(KeepDice((), False))


def test_views_hide_other_hands_and_deck():
    import random
    s = kingdoms.game("horse", players=2).initial_state()
    rng = random.Random(3)
    while s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    v = s.view(1)
    assert v.farms[0].hand == (HIDDEN,) * 4 and v.farms[1].hand == s.farms[1].hand
    assert all(x is HIDDEN for x in v.deck)
    for name in s.farms[0].hand:
        if name not in s.farms[1].hand:
            assert name not in str(v)
    deal = s.history()[0][1]
    assert deal.seen_by(1 - deal.player).card is HIDDEN


def test_bad_data_file_names_the_key(tmp_path):
    from kingdoms.horse.components import components
    from importlib import resources
    text = resources.files("kingdoms.horse").joinpath("data.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('"2 fences"]', '"2 unicorns"]'))
    with pytest.raises(DataError, match="king_die.faces.5"):
        kingdoms.game("horse", data=str(bad))
    bad.write_text(text.replace("copies = 4, gain = { sheep = 2 }", "copies = 5, gain = { sheep = 2 }"))
    with pytest.raises(DataError, match="cards.list"):
        kingdoms.game("horse", data=str(bad))
    # an edited die changes the odds
    good = tmp_path / "good.toml"
    good.write_text(text.replace('"1 fence", "2 fences"]', '"half cattle", "2 fences"]'))
    from kingdoms.horse import odds
    assert odds.p_cattle(kingdoms.game("horse", data=str(good))) > odds.p_cattle()


def test_assumptions_are_listed():
    g = kingdoms.game("horse")
    keys = {a.key for a in g.assumptions()}
    assert {"king_die.faces", "multiplication_die.faces", "cards.list.Lambing Season.copies",
            "cards.list.Training to Merchant Sheep.pay", "setup.layout",
            "trade.downward"} <= keys
    assert "ASSUMES" in g.assumptions_table()


def test_illegal_actions_name_the_rule():
    s = at_effects(dice=(("1 fence", "1 pig", "1 pig"), "pig"))
    with pytest.raises(IllegalAction, match="at most twice"):
        s.apply(KeepDice((), False))
    with pytest.raises(IllegalAction, match="right after you receive fences"):
        s.apply(PlaceFence(0))
    with pytest.raises(IllegalAction, match="only animals you own|only let animals"):
        s.apply(RunAway("horse"))
    s2 = replace(s, step=TRADING, seat=0, unused=())
    with pytest.raises(IllegalAction, match="ONE species"):
        s2.apply(Trade("cattle", 4, "horse", 1))


def test_edited_capacity_per_field_is_used(tmp_path):
    from importlib import resources
    text = resources.files("kingdoms.horse").joinpath("data.toml").read_text()
    path = tmp_path / "three.toml"
    path.write_text(text.replace("per_field = 2\n", "per_field = 3\n"))
    g = kingdoms.game("horse", players=2, data=str(path), easy=True)
    farm = Farm(herd=(6, 1, 0, 0), fences=g.comp.layout)
    s = at_effects(farms={0: farm})
    assert not s.farms[0].fits(s.game.comp.per_field)      # packaged data: 2 per field
    s3 = replace(s, game=g)
    assert s3.farms[0].fits(g.comp.per_field) and "s3" in str(s3)


def test_text_html_and_short_labels_along_a_game():
    from kingdoms.core.play import play_state
    from kingdoms.horse.strategies import greedy_policy
    end = play_state(kingdoms.game("horse", players=2), greedy_policy, seed=4)
    for st in end.path()[::25] + (end,):
        assert "<svg" in st._repr_html_()
        assert len(st.short()) <= 34
        assert "My Kingdom for a Horse" in str(st)
    assert "Game over" in str(end)


def test_chance_events_say_what_happens():
    """Status lines for a class: a chance event says what chance does ("Rolling the
    3 King dice and the pink die for Ann"), never just "Chance event"."""
    import random
    from kingdoms.core import CHANCE
    game = kingdoms.game("horse", players=2)
    state, rng, said = game.initial_state(), random.Random(3), set()
    policy = game.default_policies()[0]
    for _ in range(300):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            said.add(state.describe())
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(policy(state, rng))
    assert "Dealing a farm card to Ann" in said
    assert "Rolling the 3 King dice and the pink die for Ann" in said
    assert not any(s.startswith("Chance event") for s in said)
