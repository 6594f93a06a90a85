"""King of the Elves worlds (``ElvesState.sample_world``) and unseen cards
(``ElvesState.unseen``) checked against brute force.

On a tiny deck (an edited data file: 3 plains villages, a forest village, pigs and
a raft) every course of the game that the player cannot tell from the true one is
replayed by the game engine itself (every hidden draw and hidden village taken, kept
only when it is legal and the player's view is the same at every step).  The worlds
those courses end in are the consistent ones; sample_world must draw exactly them,
each with the weight of its physical arrangements of the unseen cards (chi-square,
fixed seeds).  One test per rule that constrains what the others may hold."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from math import factorial

import pytest

import kingdoms
from kingdoms.core.protocol import CHANCE, HIDDEN, IllegalAction
from kingdoms.elves import worlds as W
from kingdoms.elves.journey import Teleport
from kingdoms.elves.rules import Draw, NoVillageCard, Searching, TakeVillage

TINY = """
[cards]
total = {total}
[villages]
total = 4
terrains = ["plains", "forest"]
[villages.values]
plains = [2, 2, 3]
forest = [4]
[travel]
total = {travel}
[travel.costs]
giant_pig = {{ plains = 1, forest = 1 }}
raft = {{ forest = 1 }}
[travel.cards]
giant_pig = {pigs}
raft = 1
[special]
total = 0
planning = ["gold", "thief", "tree", "sea_monster"]
journeying = ["escort", "change_direction"]
tree_terrains = ["plains"]
sea_monster_terrains = []
[special.cards]
gold = 0
thief = 0
tree = 0
sea_monster = 0
escort = 0
change_direction = 0
[rules]
starting_gold = 3
tokens = 1
deal_first_round = 2
deal_later_rounds = 1
villages_per_realm = 2
villages_per_realm_two_players = 2
buy_costs = [1]
draw_cards = 1
discard_cards = 2
remove_village = 1
remove_per_special = 1
thief_gold = 1
all_villages_bonus = 1
teleport_gold = 1
teleport_cards = 1
rounds = {{ 2 = 2, 3 = 2, 4 = 2, 5 = 2, 6 = 2 }}
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    def make(players=2, pigs=2, teleport=False):
        path = tmp_path_factory.mktemp("elves") / f"tiny{pigs}.toml"
        path.write_text(TINY.format(total=5 + pigs, travel=pigs + 1, pigs=pigs))
        return kingdoms.game("elves", players=players, data=str(path), teleport=teleport)
    return make


def courses(state, p) -> list:
    """The end states of every course of the game that ``p`` cannot tell from the true
    one (replayed by the engine: the same actions as ``p`` saw them, the same views)."""
    g = state.game
    views = [s.view(p) for s in state.path()]
    steps = state.history(p)
    found = []

    def rec(s, i):
        if i == len(steps):
            found.append(s)
            return
        who, a = steps[i]
        if isinstance(a, Draw) and a.card is HIDDEN:
            options = [o for o, _ in s.chance_outcomes()]
        elif isinstance(a, TakeVillage) and a.village is HIDDEN:
            options = [o for o in s.legal_actions() if o.village is not None]
        else:
            options = [a]
        for o in options:
            if o.seen_by(p) != a:
                continue
            try:
                t = s.apply(o)
            except IllegalAction:               # not possible in this course
                continue
            if t.view(p) == views[i + 1]:
                rec(t, i + 1)

    rec(g.initial_state(), 0)
    return found


def consistent_worlds(state, p) -> dict:
    """``{(other hands..., supply): probability}``: the arrangements some course of the
    game leads to that ``p`` cannot tell from the true one (replayed by the engine),
    each weighed by its physical arrangements of the unseen cards."""
    g = state.game
    found = {_key(s, p) for s in courses(state, p)}
    weight = {}
    for w in found:
        x = Fraction(1)
        for k in range(len(g.kinds)):
            x *= factorial(sum(place[k] for place in w))
            for place in w:
                x /= factorial(place[k])
        weight[w] = x
    total = sum(weight.values())
    return {w: x / total for w, x in weight.items()}


def _key(s, p):
    return tuple(s.hands[q] for q in range(s.game.players) if q != p) + (s.supply,)


def _states(game, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        s = game.initial_state()
        while not s.is_terminal():
            s = s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
            yield s


def _scenario(game, wanted, seeds=range(80), most=10, least=3):
    """The first state (and player) of seeded random games with ``wanted(state, p)``
    and between ``least`` and ``most`` consistent worlds, none rarer than 3 %."""
    for s in _states(game, seeds):
        for p in range(game.players):
            if s.is_terminal() or not wanted(s, p):
                continue
            worlds = consistent_worlds(s, p)
            if least <= len(worlds) <= most and min(worlds.values()) >= Fraction(3, 100):
                return s, p, worlds
    raise AssertionError("no such position in the seeded games")


def _assert_exact(s, p, worlds, n=1500, seed=1):
    """Sampled worlds: exactly the consistent ones, with their weights (chi-square);
    the view that carries what ``p`` observed (``observed(p)``, what the search bot is
    handed) draws the very same worlds from the same random numbers."""
    from scipy.stats import chisquare
    rng = random.Random(seed)
    seen, again = s.observed(p), random.Random(seed)
    counts = Counter()
    for _ in range(n):
        w = s.sample_world(p, rng)
        assert seen.sample_world(p, again) == w
        assert w.view(p) == s.view(p)
        counts[_key(w, p)] += 1
    assert set(counts) == set(worlds), "the sampled worlds are exactly the consistent ones"
    keys = list(worlds)
    expected = [float(worlds[k]) * n for k in keys]
    assert min(expected) >= 5
    assert chisquare([counts[k] for k in keys], expected).pvalue > 1e-3


def _events(s, p):
    return {e[0] for e in W.knowledge(s, p).events}


def _other_did(s, p, kind):
    return any(who not in (p, CHANCE) and isinstance(a, kind) for who, a in s.history(p))


# --------------------------------------------------------------------------- each rule

@pytest.mark.slow
def test_hands_are_kept_between_rounds_and_discards_go_back_to_the_supply(tiny):
    """Round 2: what a hand carried over was unseen at the end of round 1, the cards
    that went back into the supply can only be in a hand through a later draw."""
    game = tiny()
    s, p, worlds = _scenario(game, lambda s, p: s.round == 2 and s.phase == "planning"
                             and _events(s, p) <= {"slot", "leave", "round_end"})
    _assert_exact(s, p, worlds)


@pytest.mark.slow
def test_no_village_card_shows_the_hand_and_takes_a_hidden_village(tiny):
    """Another player's "No village card!": his hand was exactly the shown cards, then
    he took a village from the supply that nobody else saw."""
    game = tiny()
    s, p, worlds = _scenario(game, lambda s, p: _other_did(s, p, NoVillageCard) and any(
        isinstance(a, TakeVillage) and a.village is HIDDEN for _, a in s.history(p)))
    _assert_exact(s, p, worlds)


@pytest.mark.slow
def test_a_search_that_finds_no_village_shows_a_supply_without_villages(tiny):
    game = tiny()
    s, p, worlds = _scenario(game, lambda s, p: "no_village_supply" in _events(s, p))
    _assert_exact(s, p, worlds)


@pytest.mark.slow
def test_the_players_own_search_shows_him_the_supply(tiny):
    """Player ``p`` said "No village card!" and searched the supply: he saw all of it
    (the worlds keep it, also after it changed)."""
    game = tiny()
    s, p, worlds = _scenario(game, lambda s, p: "look" in _events(s, p), least=2)
    _assert_exact(s, p, worlds)


@pytest.mark.slow
def test_passing_with_an_empty_realm_means_no_village_in_hand(tiny):
    """A player may pass without a village in his realm only when he has none in hand
    (and none can be found): so he held no village then."""
    game = tiny()
    s, p, worlds = _scenario(game, lambda s, p: "no_village" in _events(s, p), least=2)
    _assert_exact(s, p, worlds)


@pytest.mark.slow
def test_three_players_after_a_search_hold_what_the_supply_did_not(tiny):
    """Three players: ``p``'s search shows the supply, so the other two hands together
    held the rest (who held which stays open)."""
    game = tiny(players=3, pigs=3)
    s, p, worlds = _scenario(game, lambda s, p: "look" in _events(s, p), seeds=range(150))
    _assert_exact(s, p, worlds)


def test_a_teleporting_traveller_holds_the_travel_cards_he_still_hands_in(tiny):
    """Teleporting magic: after casting the spell the traveller hands in travel cards;
    in every world he holds them (and can go on)."""
    game = tiny(players=2, teleport=True)
    for s in _states(game, range(200)):
        trip = s.trip
        if trip is not None and trip.teleport_left > 0 and isinstance(s.history()[-1][1], Teleport):
            p = 1 - trip.player
            rng = random.Random(0)
            for _ in range(30):
                w = s.sample_world(p, rng)
                assert sum(w.hands[trip.player][i] for i in game.travel_idx) >= trip.teleport_left
                assert w.legal_actions()
            worlds = consistent_worlds(s, p)
            assert all(sum(h[0][i] for i in game.travel_idx) for h in worlds)
            return
    pytest.skip("no spell cast in the seeded games")


@pytest.mark.slow
def test_every_sampled_world_has_a_course_of_the_game(tiny):
    """Many positions of small games (every kind of event): each sampled world is one
    the brute force finds (the sampler never invents an impossible one)."""
    for players, pigs in ((2, 2), (3, 3)):
        game = tiny(players=players, pigs=pigs)
        rng = random.Random(5)
        kinds = set()
        for i, s in enumerate(_states(game, range(6))):
            if i % 4 or s.is_terminal():
                continue
            p = i // 4 % players
            worlds = consistent_worlds(s, p)
            assert _key(s, p) in worlds
            kinds |= _events(s, p)
            for _ in range(3):
                assert _key(s.sample_world(p, rng), p) in worlds
        assert {"round_end", "show"} <= kinds


def test_the_consistency_check_refuses_what_no_course_of_the_game_gives(tiny):
    """The exact check (and the quick one) refuse an arrangement that breaks a shown
    hand: it can fail."""
    game = tiny()
    for s in _states(game, range(80)):
        if s.is_terminal() or not _other_did(s, 0, NoVillageCard):
            continue
        know = W.knowledge(s, 0)
        worlds = consistent_worlds(s, 0)
        assert W._Model(know, game).consistent({1: s.hands[1]})
        hand = list(s.hands[1])                     # a card swapped with the supply
        for k in range(len(game.kinds)):
            for j in range(len(game.kinds)):
                if hand[k] and s.supply[j] and j != k:
                    other = hand[:]
                    other[k] -= 1
                    other[j] += 1
                    key = (tuple(other), tuple(a + (i == k) - (i == j)
                                               for i, a in enumerate(s.supply)))
                    if key not in worlds:
                        assert not W._Model(know, game).consistent({1: tuple(other)})
                        assert not W._Backward(know, game).consistent({1: tuple(other)})
                        return
    pytest.fail("no position with an arrangement to refuse")


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
def test_what_a_player_observed_is_the_same_in_every_course_he_cannot_tell_apart(tiny):
    """``observation(p)`` (what ``observed(p)`` carries to the search bot) holds nothing
    ``p`` may not see: every course of the game that ``p`` cannot tell from the true
    one, whatever the others drew and hold, gives the same observation."""
    differing = 0
    for players, pigs in ((2, 2), (3, 3)):
        game = tiny(players=players, pigs=pigs)
        for i, s in enumerate(_states(game, range(3))):
            if i % 5:
                continue
            p = i // 5 % players
            mine = s.observation(p)
            assert s.observed(p).observation(p) == mine
            ends = courses(s, p)
            assert s in ends
            for t in ends:
                assert t.observation(p) == mine
            differing += len({_key(t, p) for t in ends}) > 1
    assert differing >= 3


# --------------------------------------------------------------------------- unseen

def test_unseen_counts_the_cards_whose_place_the_player_cannot_see():
    """``unseen(p)``: the deck less p's hand, the discard pile and the table (and the
    supply while p searches it); from the view alone; empty when the game is over."""
    game = kingdoms.game("elves", players=3)
    deck = Counter(dict(zip(game.kinds, game.deck)))
    searched = checked = 0
    for i, s in enumerate(_states(game, range(2))):
        if i % 3 and not isinstance(s.step, Searching):
            continue
        for p in range(3):
            u = s.unseen(p)
            assert u == s.view(p).unseen(p)
            if s.is_terminal():
                assert u == Counter()
                continue
            seen = Counter(dict(zip(game.kinds, s.hands[p])))
            seen += Counter(dict(zip(game.kinds, s.discard)))
            for realm in s.realms:
                for kind, specials in realm:
                    seen[kind] += 1
                    for special, _ in specials:
                        seen["special:" + special] += 1
            if isinstance(s.step, Searching) and s.turn == p:
                seen += Counter(dict(zip(game.kinds, s.supply)))
                searched += 1
            assert u == deck - seen
            others = sum(sum(s.hands[q]) for q in range(3) if q != p)
            assert sum(u.values()) == others + (0 if s.view(p).supply[0] is not HIDDEN
                                                else sum(s.supply))
            checked += 1
    assert checked and searched
    with pytest.raises(ValueError, match="player must be one of"):
        game.initial_state().unseen(3)
