"""``kingdoms.core.outcome_distribution``: the exact distribution of an outcome at the
end of play under stated stochastic policies, on the toy game and on King of the Woods."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from kingdoms.core import TreeTooLarge, outcome_distribution, uniform_model
from kingdoms.core.protocol import CHANCE
from toygame import HighCard, Redraw, Stand


def _paths(s, models, outcome, stop, p=Fraction(1)):
    """Every route to the end with its probability, one by one (no memo): an
    independent reading of the same question."""
    if stop(s):
        yield outcome(s), p
        return
    cp = s.current_player()
    pairs = s.chance_outcomes() if cp == CHANCE else models[cp](s)
    for a, q in pairs:
        yield from _paths(s.apply(a), models, outcome, stop, p * q)


def _brute(s, models, outcome=lambda s: s.returns(), stop=lambda s: s.is_terminal()):
    out = {}
    for o, p in _paths(s, models, outcome, stop):
        out[o] = out.get(o, 0) + p
    return out


def stand_model(state):
    return ((Stand(), Fraction(1)),)


def redraw_model(state):
    actions = state.legal_actions()
    return ((Redraw() if Redraw() in actions else Stand(), Fraction(1)),)


def test_both_players_stand_by_hand():
    """Deck 1, 2, 3, 3 dealt one card each: of the 12 equally likely ordered deals,
    Player 1 wins 5 (2-1, 3-1 twice, 3-2 twice), Player 2 wins 5, 2 are 3-3 ties."""
    d = outcome_distribution(HighCard().initial_state(), stand_model)
    half = Fraction(1, 2)
    assert dict(d) == {(1, 0): Fraction(5, 12), (0, 1): Fraction(5, 12),
                       (half, half): Fraction(1, 6)}


@pytest.mark.parametrize("models", [
    (uniform_model, uniform_model), (stand_model, redraw_model),
    (redraw_model, uniform_model), (redraw_model, redraw_model)])
@pytest.mark.parametrize("players", [2, 3])
def test_the_toy_game_matches_every_route_counted_one_by_one(models, players):
    s = HighCard(players=players).initial_state()
    models = (models * 2)[:players]
    d = outcome_distribution(s, models)
    assert dict(d) == _brute(s, models) and sum(d.values()) == 1


def test_no_policy_means_every_legal_action_equally_likely():
    s = HighCard().initial_state()
    assert outcome_distribution(s) == outcome_distribution(s, uniform_model) \
        == outcome_distribution(s, (uniform_model, uniform_model))


def test_an_outcome_and_a_stop_of_ones_own():
    """The winning card, and play stopped once both players are dealt."""
    s = HighCard().initial_state()
    best = outcome_distribution(s, stand_model, lambda t: max(t.hands))
    assert dict(best) == {2: Fraction(1, 6), 3: Fraction(5, 6)}
    dealt = outcome_distribution(s, stop=lambda t: len(t.hands) == 2,
                                 outcome=lambda t: t.hands)
    assert dict(dealt) == _brute(s, (uniform_model,) * 2, lambda t: t.hands,
                                 lambda t: len(t.hands) == 2)
    assert dealt[(3, 3)] == Fraction(1, 6)


def test_bad_policies_are_refused_clearly():
    s = HighCard().initial_state()
    with pytest.raises(ValueError, match="one stochastic policy per player"):
        outcome_distribution(s, (uniform_model,))
    with pytest.raises(ValueError, match="add up to 1"):
        outcome_distribution(s, lambda t: ((Stand(), Fraction(1, 2)),))
    with pytest.raises(ValueError, match="max_states"):
        outcome_distribution(s, max_states=0)


def test_a_tree_beyond_the_budget_is_refused():
    with pytest.raises(TreeTooLarge):
        outcome_distribution(HighCard().initial_state(), max_states=3)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from([0, 1]), min_size=2, max_size=2))
def test_any_mix_of_fixed_players(picks):
    models = tuple((stand_model, redraw_model)[k] for k in picks)
    s = HighCard().initial_state()
    assert dict(outcome_distribution(s, models)) == _brute(s, models)


# ---- King of the Woods: the round's end under random play ------------------------------

def test_woods_fool_outcome_is_the_core_distribution_and_every_route():
    from kingdoms.woods import Woods, odds
    from kingdoms.woods.rules import fool_count
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool", "Trader"], ["Fool", "Guard"]],
                   courts=[["Knight", "Fool", "Fool"], ["Squire"]])
    count = lambda t: fool_count(t.courts[0])       # noqa: E731
    done = odds._round_done
    core = outcome_distribution(s, uniform_model, count, stop=done)
    assert odds.fool_outcome(s, 0) == core
    assert dict(core) == _brute(s, (uniform_model,) * 2, count, done)
    assert sum(core.values()) == 1 and len(core) > 1
