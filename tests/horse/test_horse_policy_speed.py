"""Issue 14 (speed): the default player's faster helpers choose what their readable
definitions choose, and its caches change nothing.  (No timings here.)"""
import random

from hypothesis import given, settings, strategies as st

import kingdoms
from kingdoms.core.cache import clear_caches
from kingdoms.core.play import play
from kingdoms.horse import pasture, policies, rules
from kingdoms.horse.actions import Trade
from kingdoms.horse.components import SPECIES
from kingdoms.horse.dice import MULTIPLY, king_names

COMP = kingdoms.game("horse").comp
DICE = king_names(COMP) + tuple(MULTIPLY + s for s in COMP.mult_faces)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DICE), max_size=5))
def test_fence_left_is_whether_an_unused_king_die_gives_fences(unused):
    definition = any(COMP.king_face(d).fences for d in unused if not d.startswith(MULTIPLY))
    assert policies._fence_left(COMP, tuple(unused)) == definition
    clear_caches()
    assert policies._fence_left(COMP, tuple(unused)) == definition


def test_sheep_values_in_species_order():
    assert policies._sheep_values(COMP) == (1, 2, 6, 24)


herds = st.tuples(*(st.integers(0, 12) for _ in SPECIES))


@settings(max_examples=300, deadline=None)
@given(herds, st.integers(0, pasture.ALL_EDGES), st.sampled_from([(), ("sheep",), ("pig",)]))
def test_trade_choice_is_the_highest_then_largest_trade_keeping_goal_and_fit(
        herd, fences, traded):
    """The docstring of ``_trade_choice``, literally: among the trades that keep the
    goal of the species given and fit the fences (any trade, if the herd does not fit
    anyway), the highest species, then the largest; else the last action."""
    farm = rules.Farm(herd=herd, fences=fences)
    acts = rules._trading_actions(herd, COMP.trade_rates, traded)

    def fits(h):
        return pasture.fits(fences, h, COMP.per_field)

    def after(a):
        i = SPECIES.index(a.give)
        h = list(herd)
        h[i] -= a.pay
        h[i + 1] += a.count
        return tuple(h)

    good = [a for a in acts if type(a) is Trade
            and herd[SPECIES.index(a.give)] - a.pay >= COMP.goal
            and (fits(after(a)) or not fits(herd))]
    expected = max(good, key=lambda a: (SPECIES.index(a.give), a.count)) if good else acts[-1]
    assert policies._trade_choice(COMP, farm, acts) is expected


def test_default_and_greedy_players_play_the_same_games_without_caches():
    """Seeded games with the default player (and the greedy one), played with warm
    caches and again after ``clear_caches()``: the same records."""
    for players in (1, 2, 3):
        g = kingdoms.game("horse", players=players)
        for pol in (None, policies.greedy_policy):
            seed = random.Random(players).randrange(10 ** 6)
            first = play(g, pol, seed=seed).to_json()
            clear_caches()
            assert play(g, pol, seed=seed).to_json() == first
