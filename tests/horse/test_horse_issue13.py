"""Issue 13: the rule clauses the audit found wrong, each named by its clause."""
from dataclasses import replace
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.play import play_state, random_policy
from kingdoms.core.protocol import CHANCE, IllegalAction
from kingdoms.horse.actions import (DealCard, DrawCard, EndEffects, EndFences, EndTrading,
                                    KeepDice, PlaceFence, PlayCard, Roll, RollDice, RunAway,
                                    TakeDie, UseCattle, UseDie)
from kingdoms.horse.pasture import edge_index as E, enclosure as box
from kingdoms.horse.rules import Farm
from kingdoms.horse.steps import EFFECTS, GAME_OVER, TRADING


def at_effects(players=2, dice=(("1 sheep", "1 pig", "1 fence"), "sheep"), farms=None):
    """The easy game, the active player's effects step with these dice and farms
    (the supply keeps the animal totals)."""
    g = kingdoms.game("horse", players=players, easy=True)
    s = g.initial_state()
    fs = list(s.farms)
    for i, f in (farms or {}).items():
        fs[i] = f
    supply = list(g.comp.supply)
    for f in fs:
        supply = [a - b for a, b in zip(supply, f.herd)]
    return replace(s, farms=tuple(fs), supply=tuple(supply), step=EFFECTS, dice=dice,
                   rerolls_left=0, unused=tuple(dice[0]) + (f"multiply {dice[1]}",))


def dealt(players=2, hands=None):
    """A standard game after dealing the given hands (player -> 4 card names)."""
    hands = hands or {0: ["Lambing Season", "Lambing Season", "Piglets", "Piglets"],
                      1: ["Fence Delivery"] * 4}
    s = kingdoms.game("horse", players=players).initial_state()
    for p in range(players):
        for card in hands[p]:
            s = s.apply(DealCard(p, card))
    return s


def free_draw(s, player=0):
    """Apply the draw that follows a played card (any card still in the deck)."""
    assert s.current_player() == CHANCE and s.draws == (player,)
    return s.apply(s.legal_actions()[0])


# ------------------------------------------------------------ farm cards

def test_farm_card_at_any_point_in_this_phase_before_the_first_roll():
    s = dealt()
    assert s.phase == "start" and s.current_player() == 0
    acts = s.legal_actions()
    assert PlayCard("Lambing Season") in acts and RollDice() in acts
    s = s.apply(PlayCard("Lambing Season"))
    assert s.farms[0].herd == (3, 1, 0, 0) and s.card_played
    s = free_draw(s)
    assert s.phase == "roll" and len(s.farms[0].hand) == 4   # drew back to 4, now roll
    s = s.apply(Roll(("1 pig", "1 sheep", "2 sheep"), "sheep"))
    assert not any(isinstance(a, PlayCard) for a in s.legal_actions())   # only 1 card


def test_farm_card_at_any_point_in_this_phase_between_rolls():
    s = dealt().apply(RollDice())
    s = s.apply(Roll(("1 pig", "1 sheep", "2 sheep"), "sheep"))
    assert s.phase == "keep" and s.rerolls_left == 2
    acts = s.legal_actions()
    assert PlayCard("Piglets") in acts and any(isinstance(a, KeepDice) for a in acts)
    s = free_draw(s.apply(PlayCard("Piglets")))
    assert s.phase == "keep" and s.farms[0].herd == (1, 2, 0, 0)
    assert s.dice == (("1 pig", "1 sheep", "2 sheep"), "sheep") and s.rerolls_left == 2
    s = s.apply(KeepDice(("1 sheep", "2 sheep"), True))
    s = s.apply(Roll(("1 sheep", "2 sheep", "2 sheep"), "sheep"))
    assert not any(isinstance(a, PlayCard) for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="at most 1 farm card"):
        s.apply(PlayCard("Lambing Season"))


def test_farm_card_at_any_point_in_this_phase_after_the_final_roll():
    s = dealt().apply(RollDice()).apply(Roll(("1 pig", "1 sheep", "2 sheep"), "sheep"))
    s = s.apply(KeepDice(("1 pig", "1 sheep", "2 sheep"), True))     # stop rolling
    assert s.phase == "effects" and PlayCard("Lambing Season") in s.legal_actions()


def test_farm_card_before_the_first_roll_offered_even_when_none_is_playable():
    # (issue 32: skipping the step when nothing was payable told the others that the
    # hand held no affordable card) the step is offered; rolling is the only move
    s = dealt(hands={0: ["Calf Born"] * 3 + ["Foal Born"], 1: ["Piglets"] * 4})
    assert s.phase == "start" and s.current_player() == 0
    assert s.legal_actions() == (RollDice(),)
    assert s.apply(RollDice()).phase == "roll"


def test_farm_card_not_in_the_others_dice_phase_or_trading():
    s = dealt().apply(RollDice()).apply(Roll(("1 pig", "1 sheep", "2 sheep"), "sheep"))
    s = s.apply(KeepDice(("1 pig", "1 sheep", "2 sheep"), True)).apply(EndEffects())
    s = s.apply(s.legal_actions()[0])            # keep the hand (no card played)
    assert s.phase == "others" and s.current_player() == 1
    with pytest.raises(IllegalAction, match="own dice phase"):
        s.apply(PlayCard("Fence Delivery"))


# ------------------------------------------------------------ housing

def test_unfenced_animals_run_away_at_the_end_of_the_phase_fence_later_saves_them():
    """6 sheep and 1 pig in two 4-animal areas do not fit; a fence die carried out
    later in the same phase closes a third area and nobody runs away."""
    almost = box([2, 3]) & ~(1 << E("H03"))      # top right area, one border open
    farm = Farm(herd=(4, 1, 0, 0), fences=box([0, 1]) | box([8, 9]) | almost)
    s = at_effects(dice=(("2 sheep", "1 fence", "1 pig"), "cattle"), farms={0: farm})
    s = s.apply(UseDie("2 sheep"))
    assert s.farms[0].herd == (6, 1, 0, 0) and not s.farms[0].fits()
    assert UseDie("1 fence") in s.legal_actions()        # no forced run-away mid-phase
    s = s.apply(UseDie("1 fence")).apply(PlaceFence(E("H03"))).apply(EndFences())
    assert s.farms[0].fits()
    s = s.apply(EndEffects()).apply(TakeDie(None))
    assert s.phase == "trade" and s.farms[0].herd == (6, 1, 0, 0)


def test_unfenced_animals_run_away_at_the_end_of_each_phase_everyone():
    """Another player's die can overfill their pasture too: at the end of the dice
    phase the active player, then the others clockwise, let animals run away."""
    small = Farm(herd=(4, 1, 0, 0), fences=box([0, 1]) | box([8, 9]))
    s = at_effects(players=3, dice=(("2 sheep", "2 sheep", "1 pig"), "cattle"),
                   farms={0: small, 1: small, 2: small})
    s = s.apply(UseDie("2 sheep")).apply(EndEffects())
    s = s.apply(TakeDie("2 sheep")).apply(TakeDie(None))
    assert s.phase == "house" and s.current_player() == 0
    s = s.apply(RunAway("sheep")).apply(RunAway("sheep"))
    assert s.phase == "house" and s.current_player() == 1
    s = s.apply(RunAway("sheep")).apply(RunAway("sheep"))
    assert s.phase == "trade" and s.current_player() == 0
    assert [f.herd for f in s.farms] == [(4, 1, 0, 0)] * 3


def test_unfenced_animals_run_away_at_the_end_of_the_trading_phase():
    """Ann trades 2 sheep for 1 pig: 2 sheep, 5 pigs and 2 cattle need 4 areas, she
    has 3.  Ben still trades; then, at the end of the trading phase, she lets
    animals run away."""
    three = box([0, 1]) | box([8, 9]) | box([2, 3])
    s = at_effects(farms={0: Farm(herd=(4, 4, 2, 0), fences=three)})
    s = replace(s, step=TRADING, seat=0, unused=())
    s = s.apply(s.legal_actions()[0])            # 2 sheep -> 1 pig
    assert s.farms[0].herd == (2, 5, 2, 0) and not s.farms[0].fits()
    assert s.current_player() == 1 and s.phase == "trade"     # Ben's trading step
    s = s.apply(EndTrading())
    assert s.phase == "house" and s.current_player() == 0
    s = s.apply(RunAway("pig"))
    assert s.phase != "house" and s.farms[0].herd == (2, 4, 2, 0)


# ------------------------------------------------------------ the end

def test_end_of_the_game_a_set_that_cannot_be_housed_does_not_trigger_it():
    """2 of each species but only 3 fenced areas: the set must run away at the end
    of the phase, so it does not trigger the end."""
    three = box([0, 1]) | box([8, 9]) | box([2, 3])
    farm = Farm(herd=(2, 2, 1, 2), fences=three)
    s = at_effects(dice=(("half cattle", "half cattle", "1 fence"), "cattle"),
                   farms={0: farm})
    s = s.apply(UseCattle())
    assert min(s.farms[0].herd) == 2 and not s.farms[0].fits()
    assert not s.end_triggered
    s = s.apply(EndEffects()).apply(TakeDie(None))
    s = s.apply(RunAway("horse"))
    assert s.phase == "house" and not s.end_triggered      # 4 species, 3 areas
    s = s.apply(RunAway("horse"))
    assert s.phase == "trade" and not s.end_triggered


def test_end_of_the_game_a_set_housed_later_in_the_phase_triggers_it():
    three = box([0, 1]) | box([8, 9]) | box([2, 3])
    almost = box([10, 11]) & ~(1 << E("H32"))
    farm = Farm(herd=(2, 2, 1, 2), fences=three | almost)
    s = at_effects(dice=(("half cattle", "half cattle", "1 fence"), "cattle"),
                   farms={0: farm})
    s = s.apply(UseCattle())
    assert not s.end_triggered
    s = s.apply(UseDie("1 fence")).apply(PlaceFence(E("H32"))).apply(EndFences())
    assert s.end_triggered


# ------------------------------------------------------------ empty supply

def short_supply(option=None, receiver=3, other=5, supply=1, dice="2 sheep"):
    kw = {} if option is None else {"short_supply": option}
    g = kingdoms.game("horse", players=2, easy=True, **kw)
    big = box([0, 1, 2, 3]) | box([8, 9, 10, 11]) | box([4, 5]) | box([6, 7])
    s = at_effects(dice=((dice, "1 fence", "1 fence"), "cattle"),
                   farms={0: Farm(herd=(receiver, 0, 0, 0), fences=big),
                          1: Farm(herd=(other, 0, 0, 0), fences=big)})
    s = replace(s, game=g, supply=(supply,) + s.supply[1:])
    return s


def test_animal_supply_empty_remember_refill_then_take_the_rest():
    """3 sheep, 1 left in the supply, 2 owed, the other player has 5: take the 1
    (4), refill (4 -> 3, 5 -> 4), take the 1 still owed: 4 (not 5)."""
    s = short_supply()
    assert s.game.short_supply == "literal"          # the default is the text
    t = s.apply(UseDie("2 sheep"))
    assert (t.farms[0].herd[0], t.farms[1].herd[0], t.supply[0]) == (4, 4, 1)
    assert sum(f.herd[0] for f in t.farms) + t.supply[0] == 3 + 5 + 1


def test_animal_supply_empty_refill_first_option():
    t = short_supply("refill_first").apply(UseDie("2 sheep"))
    assert (t.farms[0].herd[0], t.farms[1].herd[0], t.supply[0]) == (5, 4, 0)


def test_animal_supply_empty_repeat_while_still_not_sufficient():
    """Supply 0, 2 owed, the others hold 9: refill (1 back each: receiver 4 -> 3 is
    not needed below 4), take, refill again, take."""
    t = short_supply(receiver=2, other=9, supply=0).apply(UseDie("2 sheep"))
    # round 1: only the other gives 1 (9 -> 8), the receiver takes it (3);
    # round 2: the other gives 1 (8 -> 7), the receiver takes it (4)
    assert (t.farms[0].herd[0], t.farms[1].herd[0], t.supply[0]) == (4, 7, 0)


def test_animal_supply_empty_nobody_above_three_gives_what_is_left():
    t = short_supply(receiver=3, other=3, supply=1).apply(UseDie("2 sheep"))
    assert (t.farms[0].herd[0], t.farms[1].herd[0], t.supply[0]) == (4, 3, 0)


def test_short_supply_option_is_checked():
    with pytest.raises(kingdoms.core.protocol.GameOptionError, match="short_supply"):
        kingdoms.game("horse", short_supply="generous")


# ------------------------------------------------------------ honest endings

def test_random_games_cut_by_the_round_limit_are_unfinished():
    g = kingdoms.game("horse", players=2, max_rounds=2)
    end = play_state(g, random_policy, seed=1)
    assert end.is_terminal() and end.cut
    text = end.unfinished()
    assert "2 rounds" in text and "safeguard" in text
    assert "round limit" in end.short() and text in str(end)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_default_players_end_by_the_rules(players):
    g = kingdoms.game("horse", players=players)
    for seed in range(3):
        end = play_state(g, seed=seed)                  # the game's default players
        assert end.unfinished() is None and not end.cut
        assert end.contenders(), "someone holds the set: the end came by the rules"


def test_policies_named_and_default_policies_one_per_seat():
    from kingdoms.horse.strategies import greedy_policy, no_reroll_policy
    g = kingdoms.game("horse", players=3)
    pols = g.policies()
    assert {"random", "greedy", "no_reroll"} <= set(pols)
    assert pols["greedy"] is greedy_policy and pols["no_reroll"] is no_reroll_policy
    assert g.default_policies() == (no_reroll_policy,) * 3


def test_solo_returns_are_your_share_against_moritz():
    g = kingdoms.game("horse", players=1)
    s = replace(g.initial_state(), step=GAME_OVER)
    win = replace(s, farms=(replace(s.farms[0], herd=(2, 2, 2, 2)),), moritz=(0, 0, 0, 0))
    lose = replace(s, farms=(replace(s.farms[0], herd=(0, 0, 0, 0)),), moritz=(2, 2, 2, 2))
    tie = replace(s, farms=(replace(s.farms[0], herd=(2, 2, 2, 2)),), moritz=(2, 2, 2, 2))
    cut = replace(s, cut=True)
    assert win.returns() == (1,) and lose.returns() == (0,)
    assert tie.returns() == (Fraction(1, 2),)
    assert cut.returns() == (Fraction(1, 2),) and cut.unfinished()
    assert win.unfinished() is None and lose.unfinished() is None
    assert "Solo game" in type(g).__doc__ and "Moritz holds" in type(g).__doc__


def test_seeded_games_still_replay():
    g = kingdoms.game("horse", players=2)
    a = play_state(g, seed=11)
    b = play_state(g, seed=11)
    assert a == b and a.history() == b.history()
