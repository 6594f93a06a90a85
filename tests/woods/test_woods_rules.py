"""King of the Woods: one test (or more) per rule clause of issue 5."""
from collections import Counter
from fractions import Fraction
import itertools
import random

import pytest

import kingdoms
from kingdoms.core.protocol import CHANCE, HIDDEN, IllegalAction, TooManyOutcomes
from kingdoms.core.data import DataError
from kingdoms.woods import (Cover, Deal, KnightPass, KnightTake, Play, PriestExtra, PriestStop,
                            PriestTakeBack, ScholarPass, ScholarTake, TraderGive, TraderReturn,
                            TreasurerDraw, Woods)
from kingdoms.woods.rules import Playing, _count_deals
from kingdoms.woods.rules import AssassinAiming, KnightLooking, TraderGiving, TraderReturning

G2 = Woods(players=2)
G3 = Woods(players=3)
# the other readings of the contested rules (issue 13), for the tests of those readings
G3_ALT = Woods(players=3, priest_extra_ability=False, trader_fallback_received=False)


def pos(hands, courts=None, game=G3, **kw):
    return game.position(hands=hands, courts=courts, **kw)


# ----------------------------------------------------------------------------- data/setup

def test_influence_values_from_card_table():
    assert G3.influence == {"Assassin": 0, "Trader": 1, "Guard": 2, "Squire": 2, "Scholar": 3,
                            "Priest": 3, "Fool": 4, "Treasurer": 4, "Knight": 5, "General": 6,
                            "Princess": 7}
    keys = dict(G3.sources())
    assert "followers.Princess.influence" in keys


def test_three_player_setup_removes_the_rulebook_cards():
    assert Counter(G3.box) == Counter({"Assassin": 1, "Guard": 1, "Scholar": 1, "Fool": 1,
                                       "Treasurer": 1, "Knight": 1, "General": 1})
    assert "rulebook" in dict(G3.sources())["setup.3.remove"]
    assumed = {a.key for a in G3.assumptions()}
    assert "setup.3.remove" not in assumed and "setup.2.remove" in assumed


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal_evenly_no_draw_pile(n):
    g = Woods(players=n)
    s = g.initial_state()
    assert s.current_player() == CHANCE
    with pytest.raises(TooManyOutcomes) as e:
        s.chance_outcomes()
    assert e.value.count == g.deal_count() > 1000
    s = s.apply(s.sample_chance(random.Random(n)))
    assert all(len(h) == g.hand_size for h in s.hands)
    assert len(s.set_aside) == g.set_aside_count
    assert s.cards() == Counter(g.deck)
    assert Counter(g.deck) + Counter(g.box) == Counter(
        {nm: g.copies[nm] for nm in g.followers})


def test_assumptions_are_listed():
    keys = {a.key for a in G3.assumptions()}
    assert "followers.Fool.copies" in keys and "setup.2.set_aside" in keys
    assert "ASSUMES" in G3.assumptions_table()


def test_beginner_variant_removes_scholar_priest_one_card_fewer():
    for n in (2, 3, 4, 5):
        g, b = Woods(players=n), Woods(players=n, beginner=True)
        assert "Scholar" not in b.deck and "Priest" not in b.deck
        assert b.hand_size == g.hand_size - 1
        assert b.set_aside_count == len(b.deck) - n * b.hand_size >= 0


def test_player_range_and_options_validated():
    with pytest.raises(kingdoms.GameOptionError):
        kingdoms.game("woods", players=6)
    with pytest.raises(kingdoms.GameOptionError):
        kingdoms.game("woods", players=3, mode="sprint")
    with pytest.raises(kingdoms.GameOptionError):
        kingdoms.game("woods", players=3, colour="red")


def test_malformed_data_names_the_key(tmp_path):
    from importlib import resources
    text = resources.files("kingdoms.woods").joinpath("data.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("set_aside = 1\n", "set_aside = 2\n"))
    with pytest.raises(DataError, match="setup.5.set_aside"):
        Woods(players=5, data=str(bad))
    bad.write_text(text.replace('influence = 7', 'influence = "seven"'))
    with pytest.raises(DataError, match="influence"):
        Woods(players=3, data=str(bad))
    # an edited copy is used
    good = tmp_path / "good.toml"
    good.write_text(text.replace("copies = 5", "copies = 6").replace(
        "[setup.4]\nremove = {}", "[setup.4]\nremove = { Fool = 1 }"))
    assert Woods(players=4, data=str(good)).deck.count("Fool") == 5


def test_deal_count_matches_brute_force():
    copies = (2, 1, 2)                       # a tiny multiset AABCC
    cards = "AABCC"
    for caps in [(1, 2, 2), (0, 1, 4), (1, 1, 3)]:
        seen = set()
        for perm in itertools.permutations(cards):
            i, groups = 0, []
            for c in caps:
                groups.append(tuple(sorted(perm[i:i + c])))
                i += c
            seen.add(tuple(groups))
        assert _count_deals(copies, tuple(sorted(caps))) == len(seen)


def test_core_exact_deals_match_every_shuffle():
    """``kingdoms.core.cards``: every deal of a multiset into places, with its exact
    probability, equals the count over all orderings of a shuffle; the number of
    deals and one deal's probability agree."""
    from kingdoms.core.cards import count_deals, deal_probability, exact_deals
    cards = "AABCC"
    for caps in [(1, 2, 2), (0, 1, 4), (1, 1, 3), (5,)]:
        counted = Counter()
        perms = list(itertools.permutations(cards))
        for perm in perms:
            i, groups = 0, []
            for c in caps:
                groups.append(tuple(sorted(perm[i:i + c])))
                i += c
            counted[tuple(groups)] += 1
        places = {f"place {j}": c for j, c in enumerate(caps)}
        exact = {tuple(d.values()): p for d, p in exact_deals(Counter(cards), places)}
        assert exact == {k: Fraction(n, len(perms)) for k, n in counted.items()}
        assert count_deals((2, 1, 2), caps) == len(counted)
        for groups, p in exact.items():
            assert deal_probability(groups, cards) == p


def test_deal_probability_and_validation():
    g = G2
    s = g.initial_state()
    d = s.sample_chance(random.Random(3))
    p = g.deal_probability(d)
    assert 0 < p < 1
    # probability = (ways to lay out the deck giving this deal) / (all layouts)
    bad = Deal(d.hands[:1] + (d.hands[0],), d.set_aside)
    with pytest.raises(IllegalAction):
        s.apply(bad)
    unsorted = Deal((tuple(reversed(d.hands[0])),) + d.hands[1:], d.set_aside)
    if unsorted.hands[0] != d.hands[0]:
        with pytest.raises(IllegalAction):
            s.apply(unsorted)
    assert s.apply(d).hands == d.hands


def test_position_checks_conservation():
    with pytest.raises(ValueError, match="conservation"):
        pos([["Princess"], ["Princess"], []])
    with pytest.raises(ValueError, match="conservation"):
        pos([["Fool"], [], []], set_aside=["Fool"])
    s = pos([["Fool"], ["Knight"], []])
    assert s.cards() == Counter(G3.deck)


# ----------------------------------------------------------------------------- a turn

def test_play_to_own_or_foreign_court_owner_gains_influence():
    s = pos([["Knight", "Fool"], ["Guard"], ["Trader"]])
    t = s.apply(Play("Fool", 1))
    assert t.courts[1] == (("Fool",),) and t.court_scores() == (0, 4, 0)
    t = s.apply(Play("Fool", 0))
    assert t.court_scores() == (4, 0, 0)
    assert t.turn == 1


@pytest.mark.parametrize("card", ["Trader", "Knight", "Scholar", "Treasurer", "General"])
def test_intrigue_does_nothing_at_own_court(card):
    s = pos([[card, "Fool"], ["Guard", "Squire"], ["Trader"]],
            courts=[["Guard"], ["Fool"], []])
    t = s.apply(Play(card, 0))
    assert isinstance(t.step, Playing) and t.turn == 1
    assert t.hands[1:] == s.hands[1:]
    assert t.courts[0] == (("Guard",), (card,))


def test_player_without_cards_is_skipped_and_round_ends_when_nobody_has_cards():
    s = pos([["Fool", "Guard"], [], ["Trader"]], game=Woods(players=3, one_round=True))
    t = s.apply(Play("Fool", 0))
    assert t.turn == 2                        # player 2 has no cards
    t = t.apply(Play("Trader", 2))
    assert t.turn == 0
    t = t.apply(Play("Guard", 0))
    assert t.is_terminal() and t.last_round[1] == (6, 0, 1)


# ----------------------------------------------------------------------------- Assassin

def test_assassin_covers_a_follower_influence_zero_ability_lost():
    s = pos([["Assassin", "Guard"], ["Trader"], ["Squire"]],
            courts=[[], ["Knight", "Fool", "Fool", "Fool"], []])
    assert s.court_scores()[1] == 0                # exactly 3 Fools
    t = s.apply(Play("Assassin", 1))
    assert t.current_player() == 0 and isinstance(t.step, AssassinAiming)
    assert set(t.legal_actions()) == {Cover(1, ("Knight",)), Cover(1, ("Fool",))}
    u = t.apply(Cover(1, ("Fool",)))
    assert u.courts[1] == (("Knight",), ("Fool", "Assassin"), ("Fool",), ("Fool",))
    assert u.court_scores()[1] == 5 + 4 + 4       # covered Fool: 0 and not counted
    v = t.apply(Cover(1, ("Knight",)))
    assert v.court_scores()[1] == 0               # still 3 uncovered Fools


def test_assassin_on_assassin_removes_both_and_victim_recovers():
    s = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]],
            courts=[[], [("Knight", "Assassin"), "Fool"], []])
    assert s.court_scores()[1] == 4
    t = s.apply(Play("Assassin", 1)).apply(Cover(1, ("Knight", "Assassin")))
    assert t.courts[1] == (("Knight",), ("Fool",))
    assert t.court_scores()[1] == 9
    assert Counter(t.removed) == Counter({"Assassin": 2})
    assert t.cards() == Counter(G3.deck)


def test_assassin_on_a_lone_assassin_and_at_an_empty_court():
    s = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]], courts=[[], [], []])
    t = s.apply(Play("Assassin", 1))
    assert t.courts[1] == (("Assassin",),) and isinstance(t.step, Playing)
    s = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]], courts=[[], ["Assassin"], []])
    t = s.apply(Play("Assassin", 1))               # single target: carried out at once
    assert t.courts[1] == () and t.removed == ("Assassin", "Assassin")


def test_guard_redirects_the_assassin():
    s = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]],
            courts=[[], ["Princess", "Guard", ("Knight", "Assassin")], []])
    t = s.apply(Play("Assassin", 1))               # only target: the Guard
    assert t.courts[1] == (("Princess",), ("Guard", "Assassin"), ("Knight", "Assassin"))
    # a covered Guard no longer protects
    s2 = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]],
             courts=[[], ["Princess", ("Guard", "Assassin")], []])
    t2 = s2.apply(Play("Assassin", 1))
    assert set(t2.legal_actions()) == {Cover(1, ("Princess",)), Cover(1, ("Guard", "Assassin"))}
    # with two Guards either is a Guard
    s3 = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]],
             courts=[[], ["Princess", "Guard", "Guard"], []])
    t3 = s3.apply(Play("Assassin", 1))
    assert t3.courts[1] == (("Princess",), ("Guard", "Assassin"), ("Guard",))
    # (with a Guard there is one target, so the cover is carried out at once)
    t5 = pos([["Assassin", "Fool"], ["Fool"], ["Fool"]],
             courts=[[], ["Princess", "Knight", "Guard"], []]).apply(Play("Assassin", 1))
    assert t5.courts[1] == (("Princess",), ("Knight",), ("Guard", "Assassin"))


def test_assassin_works_at_own_court():
    s = pos([["Assassin", "Guard"], ["Trader"], ["Squire"]],
            courts=[["Fool", "Fool", "Fool", "Knight"], [], []])
    t = s.apply(Play("Assassin", 0)).apply(Cover(0, ("Fool",)))
    assert t.court_scores()[0] == 13


# ----------------------------------------------------------------------------- Trader

def test_trader_gives_hidden_card_and_gets_a_higher_different_one():
    s = pos([["Trader", "Guard", "Fool"], ["Squire", "Knight", "General", "Trader"], ["Fool"]])
    t = s.apply(Play("Trader", 1))
    assert t.step == TraderGiving(1)
    assert set(t.legal_actions()) == {TraderGive("Guard", 0, 1), TraderGive("Fool", 0, 1)}
    u = t.apply(TraderGive("Guard", 0, 1))
    assert u.current_player() == 1
    assert set(u.legal_actions()) == {TraderReturn("Knight", 0, 1), TraderReturn("General", 0, 1)}
    with pytest.raises(IllegalAction, match="higher influence"):
        u.apply(TraderReturn("Squire", 0, 1))      # same influence, not higher
    v = u.apply(TraderReturn("General", 0, 1))
    assert v.hands[0] == ("Fool", "General") and "Guard" in v.hands[1]
    assert v.turn == 1 and isinstance(v.step, Playing)
    # what each saw: 0 knows 1 holds the Guard; 1 knows 0 holds the General; 2 knows nothing
    assert v.known[0][1] == ("Guard",) and v.known[1][0] == ("General",)
    assert v.known[2] == ((), (), ())
    assert v.view(2).hands[0] == (HIDDEN, HIDDEN)
    assert v.view(0).hands[1].count(HIDDEN) == 3 and "Guard" in v.view(0).hands[1]
    # the third player does not see the cards in the record
    assert TraderGive("Guard", 0, 1).seen_by(2).card is HIDDEN
    assert TraderReturn("General", 0, 1).seen_by(0).card == "General"


def test_trader_no_valid_card_it_must_be_the_card_with_the_highest_influence():
    """Literal (default): 'the card with the highest influence' of the hand as it is
    after receiving, which may be the card just received."""
    s = pos([["Trader", "Knight", "Guard"], ["Squire", "Fool", "Treasurer", "Trader"], ["Fool"]])
    u = s.apply(Play("Trader", 1)).apply(TraderGive("Knight", 0, 1))
    assert u.legal_actions() == (TraderReturn("Knight", 0, 1),)
    # a single option is still a step of its own (it depends on a hidden hand)
    assert u.current_player() == 1 and isinstance(u.step, TraderReturning)
    v = u.apply(TraderReturn("Knight", 0, 1))
    assert v.hands[0] == ("Guard", "Knight") and isinstance(v.step, Playing)
    # a higher card of the receiver's own wins over the received one
    s = pos([["Trader", "Fool", "Guard"], ["Squire", "General"], ["Fool"]])
    u = s.apply(Play("Trader", 1)).apply(TraderGive("Fool", 0, 1))
    assert u.legal_actions() == (TraderReturn("General", 0, 1),)


def test_trader_fallback_other_reading_excludes_the_received_card():
    """Option trader_fallback_received=False: the highest of the receiver's other cards."""
    s = pos([["Trader", "Knight", "Guard"], ["Squire", "Fool", "Treasurer", "Trader"], ["Fool"]],
            game=G3_ALT)
    u = s.apply(Play("Trader", 1)).apply(TraderGive("Knight", 0, 1))
    assert set(u.legal_actions()) == {TraderReturn("Fool", 0, 1), TraderReturn("Treasurer", 0, 1)}
    # receiver holds only lower cards; the received Knight does not come straight back
    s = pos([["Trader", "Knight", "Fool"], ["Trader"], ["Fool"]], game=G3_ALT)
    v = s.apply(Play("Trader", 1)).apply(TraderGive("Knight", 0, 1))
    v = v.apply(v.legal_actions()[0])
    assert v.hands[0] == ("Fool", "Trader") and v.hands[1] == ("Knight",)


def test_trader_receiver_without_other_cards_gives_the_received_card_back():
    for game in (G3, G3_ALT):
        s = pos([["Trader", "Knight", "Fool"], [], ["Fool"]], game=game)
        v = s.apply(Play("Trader", 1)).apply(TraderGive("Knight", 0, 1))
        assert v.legal_actions() == (TraderReturn("Knight", 0, 1),)
        v = v.apply(TraderReturn("Knight", 0, 1))
        assert v.hands[0] == ("Fool", "Knight") and v.hands[1] == ()
    # the giver's single card left is still given as a step (hidden: a step of its own)
    s = pos([["Trader", "Knight"], ["General"], ["Fool"]])
    v = s.apply(Play("Trader", 1))
    assert v.legal_actions() == (TraderGive("Knight", 0, 1),)
    v = v.apply(TraderGive("Knight", 0, 1))
    assert v.legal_actions() == (TraderReturn("General", 0, 1),)   # 6 > 5
    v = v.apply(TraderReturn("General", 0, 1))
    assert v.hands[0] == ("General",) and v.hands[1] == ("Knight",)


def test_trader_with_no_card_left_does_nothing():
    s = pos([["Trader"], ["Knight"], ["Fool"]])
    t = s.apply(Play("Trader", 1))
    assert isinstance(t.step, Playing) and t.hands == ((), ("Knight",), ("Fool",))


# ----------------------------------------------------------------------------- Knight

def test_knight_sees_the_hand_and_takes_one():
    s = pos([["Knight", "Fool"], ["Guard", "General", "Trader"], ["Fool"]])
    t = s.apply(Play("Knight", 1))
    assert t.known[0][1] == ("General", "Guard", "Trader")
    assert t.view(0).hands[1] == ("General", "Guard", "Trader")
    assert t.view(2).hands[1] == (HIDDEN,) * 3
    assert set(t.legal_actions()) == ({KnightTake(c, 0, 1) for c in ("Guard", "General", "Trader")}
                                      | {KnightPass(0, 1)})
    u = t.apply(KnightTake("General", 0, 1))
    assert u.hands[0] == ("Fool", "General") and u.hands[1] == ("Guard", "Trader")
    assert u.known[0][1] == ("Guard", "Trader") and u.known[1][0] == ("General",)
    assert KnightTake("General", 0, 1).seen_by(2).card is HIDDEN


def test_knight_you_may_take_1_card_or_none():
    """'you *may* take 1 card from it': taking nothing is offered when there is no Squire."""
    s = pos([["Knight", "Fool"], ["Guard", "General"], ["Fool"]])
    t = s.apply(Play("Knight", 1))
    assert KnightPass(0, 1) in t.legal_actions()
    u = t.apply(KnightPass(0, 1))
    assert u.hands == (("Fool",), ("General", "Guard"), ("Fool",))
    assert isinstance(u.step, Playing) and u.turn == 1
    assert u.known[0][1] == ("General", "Guard")     # he has seen the hand all the same
    assert str(KnightPass(0, 1)) == "take nothing from Player 2's hand"
    # a hand of one kind: take it or not (two options)
    t = pos([["Knight", "Fool"], ["Guard", "Guard"], ["Fool"]]).apply(Play("Knight", 1))
    assert t.legal_actions() == (KnightTake("Guard", 0, 1), KnightPass(0, 1))


def test_knight_if_a_squire_is_among_that_hand_you_must_take_it():
    s = pos([["Knight", "Fool"], ["Princess", "Squire", "General"], ["Fool"]])
    t = s.apply(Play("Knight", 1))
    # forced, yet still a step of its own: onlookers cannot tell it was forced
    assert t.step == KnightLooking(1) and t.legal_actions() == (KnightTake("Squire", 0, 1),)
    with pytest.raises(IllegalAction, match="must take the Squire"):
        t.apply(KnightPass(0, 1))
    with pytest.raises(IllegalAction, match="must take the Squire"):
        t.apply(KnightTake("General", 0, 1))
    t = t.apply(KnightTake("Squire", 0, 1))
    assert "Squire" in t.hands[0] and t.hands[1] == ("General", "Princess")
    assert t.known[0][1] == ("General", "Princess")
    s = pos([["Knight", "Fool"], ["Squire", "Squire", "General"], ["Fool"]])
    t = s.apply(Play("Knight", 1)).apply(KnightTake("Squire", 0, 1))
    assert t.hands[1] == ("General", "Squire")


def test_knight_on_an_empty_hand_takes_nothing():
    s = pos([["Knight", "Fool"], [], ["Fool"]])
    t = s.apply(Play("Knight", 1))
    assert isinstance(t.step, Playing) and t.hands[0] == ("Fool",)


# ----------------------------------------------------------------------------- Squire

def test_squire_obligation():
    s = pos([["Squire", "Princess", "Fool"], ["Trader"], ["Fool"]], courts=[[], ["Squire"], []])
    assert {a.card for a in s.legal_actions()} == {"Squire"}
    assert {a.court for a in s.legal_actions()} == {0, 1, 2}
    with pytest.raises(IllegalAction, match="Squire"):
        s.apply(Play("Fool", 0))
    # no Squire at any court: free choice
    s = pos([["Squire", "Princess", "Fool"], ["Trader"], ["Fool"]], courts=[[], ["Guard"], []])
    assert {a.card for a in s.legal_actions()} == {"Squire", "Princess", "Fool"}


def test_two_squires_one_now_one_next_turn():
    s = pos([["Squire", "Squire", "Fool"], ["Trader", "Guard"], ["Fool", "Guard"]],
            courts=[[], ["Squire"], []])
    t = s.apply(Play("Squire", 0)).apply(Play("Trader", 1)).apply(Play("Fool", 0))
    assert t.turn == 0 and {a.card for a in t.legal_actions()} == {"Squire"}
    # holding two with no Squire out: the first one played creates the obligation
    s = pos([["Squire", "Squire", "Fool"], ["Trader", "Guard"], ["Fool", "Guard"]])
    assert {a.card for a in s.legal_actions()} == {"Squire", "Fool"}
    t = s.apply(Play("Squire", 2)).apply(Play("Trader", 1)).apply(Play("Fool", 0))
    assert {a.card for a in t.legal_actions()} == {"Squire"}


def test_covered_squire_does_not_oblige():
    s = pos([["Squire", "Fool"], ["Trader"], ["Fool"]], courts=[[], [("Squire", "Assassin")], []])
    assert {a.card for a in s.legal_actions()} == {"Squire", "Fool"}


# ----------------------------------------------------------------------------- Scholar

def test_scholar_takes_influence_four_or_less_never_assassin_or_scholar():
    s = pos([["Scholar", "Fool"], ["Trader"], ["Fool"]],
            courts=[[], ["Assassin", "Scholar", "Fool", "Knight", ("Guard", "Assassin")], []])
    t = s.apply(Play("Scholar", 1))
    assert set(t.legal_actions()) == {ScholarTake("Fool", 1), ScholarPass()}
    u = t.apply(ScholarTake("Fool", 1))
    assert u.hands[0] == ("Fool", "Fool") and ("Fool",) not in u.courts[1]
    assert u.known[1][0] == ("Fool",) and u.known[2][0] == ("Fool",)   # public take
    assert u.view(2).hands[0] == ("Fool", HIDDEN)


def test_scholar_fallback_to_five_or_more():
    s = pos([["Scholar", "Fool"], ["Trader"], ["Fool"]],
            courts=[[], ["Assassin", "Knight", "Princess", ("Fool", "Assassin")], []])
    t = s.apply(Play("Scholar", 1))
    assert set(t.legal_actions()) == {ScholarTake("Knight", 1), ScholarTake("Princess", 1),
                                      ScholarPass()}
    with pytest.raises(IllegalAction, match="4 or less"):
        pos([["Scholar", "Fool"], ["Trader"], ["Fool"]],
            courts=[[], ["Guard", "Knight"], []]).apply(Play("Scholar", 1)).apply(
            ScholarTake("Knight", 1))
    assert t.apply(ScholarPass()).hands[0] == ("Fool",)


# ----------------------------------------------------------------------------- Priest

def test_priest_plays_one_more_card_then_takes_back_lower():
    s = pos([["Priest", "Princess", "Fool"], ["Trader"], ["Fool"]],
            courts=[[], ["Trader", "Guard", "Fool", "Assassin", "Knight"], []])
    t = s.apply(Play("Priest", 1))
    assert set(t.legal_actions()) == {PriestExtra("Princess", 1), PriestExtra("Fool", 1),
                                      PriestStop()}
    u = t.apply(PriestExtra("Princess", 1))
    # lower than 7: Trader, Guard, Knight; not Assassin, not Fool, not the Priest just played
    assert set(u.legal_actions()) == {PriestTakeBack(c, 1) for c in ("Trader", "Guard", "Knight")}
    with pytest.raises(IllegalAction, match="not a Fool"):
        u.apply(PriestTakeBack("Fool", 1))
    v = u.apply(PriestTakeBack("Knight", 1))
    assert v.hands[0] == ("Fool", "Knight")
    assert ("Priest",) in v.courts[1] and ("Princess",) in v.courts[1]
    assert v.turn == 1


def test_priest_cannot_take_itself_but_another_priest():
    for game in (G3, G3_ALT):
        s = pos([["Priest", "Knight"], ["Trader"], ["Fool"]], courts=[[], ["Priest"], []],
                game=game)
        u = s.apply(Play("Priest", 1)).apply(PriestExtra("Knight", 1))
        if game.priest_extra_ability:          # the Knight's ability first: take nothing
            u = u.apply(KnightPass(0, 1))
        assert u.hands[0] == ("Priest",)         # the earlier Priest (3 < 5): the only option
        assert u.courts[1].count(("Priest",)) == 1 and ("Knight",) in u.courts[1]


def test_priest_nothing_lower_nothing_taken_and_stop():
    s = pos([["Priest", "Trader", "Fool"], ["Trader"], ["Fool"]], courts=[[], ["Guard"], []],
            game=G3_ALT)
    u = s.apply(Play("Priest", 1)).apply(PriestExtra("Trader", 1))
    assert isinstance(u.step, Playing) and u.hands[0] == ("Fool",)
    s = pos([["Priest", "Guard", "Fool"], ["Trader"], ["Fool"]], courts=[[], ["Guard"], []])
    u = s.apply(Play("Priest", 1)).apply(PriestExtra("Guard", 1))
    assert isinstance(u.step, Playing) and u.hands[0] == ("Fool",)
    v = s.apply(Play("Priest", 1)).apply(PriestStop())
    assert v.hands[0] == ("Fool", "Guard") and v.turn == 1


def test_priest_works_at_own_court_and_princess_condition_is_not_circumvented():
    # two uncovered followers + the Priest = 3, but before the turn there were only 2
    s = pos([["Priest", "Princess", "Fool"], ["Trader"], ["Fool"]],
            courts=[["Guard", "Trader"], [], []])
    t = s.apply(Play("Priest", 0))
    assert set(t.legal_actions()) == {PriestExtra("Fool", 0), PriestStop()}
    with pytest.raises(IllegalAction, match="Priest cannot help"):
        t.apply(PriestExtra("Princess", 0))
    # with 3 uncovered before the turn she may come, and a lower card goes back
    s = pos([["Priest", "Princess", "Fool"], ["Trader"], ["Fool"]],
            courts=[["Guard", "Trader", "Squire"], [], []])
    t = s.apply(Play("Priest", 0)).apply(PriestExtra("Princess", 0))
    assert set(t.legal_actions()) == {PriestTakeBack(c, 0) for c in ("Guard", "Trader", "Squire")}
    # a covered card does not count for her
    s = pos([["Priest", "Princess", "Fool"], ["Trader"], ["Fool"]],
            courts=[["Guard", "Trader", ("Squire", "Assassin")], [], []])
    assert PriestExtra("Princess", 0) not in s.apply(Play("Priest", 0)).legal_actions()


# ----------------------------------------------------------------------------- Treasurer

def test_treasurer_is_an_exact_chance_node_over_the_hand():
    s = pos([["Treasurer", "Fool"], ["Fool", "Fool", "Knight"], ["Fool"]])
    t = s.apply(Play("Treasurer", 1))
    assert t.current_player() == CHANCE
    assert dict(t.chance_outcomes()) == {TreasurerDraw("Fool", 0, 1): Fraction(2, 3),
                                         TreasurerDraw("Knight", 0, 1): Fraction(1, 3)}
    u = t.apply(TreasurerDraw("Knight", 0, 1))
    assert u.hands[0] == ("Fool", "Knight") and u.hands[1] == ("Fool", "Fool")
    assert u.known[0][1] == () and u.known[1][0] == ("Knight",)
    assert TreasurerDraw("Knight", 0, 1).seen_by(2).card is HIDDEN
    # unlike the Knight, the hand is not seen
    assert t.known[0][1] == ()


# ----------------------------------------------------------------------------- Fool

def test_three_fools_score_zero_four_count_normally():
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool"], ["Guard"]], courts=[["Knight", "Fool", "Fool"], []])
    three = s.apply(Play("Fool", 0)).apply(Play("Guard", 1))
    assert three.is_terminal() and three.last_round[1] == (0, 2)
    s = g.position(hands=[["Fool"], ["Guard"]], courts=[["Knight", "Fool", "Fool", "Fool"], []])
    four = s.apply(Play("Fool", 0)).apply(Play("Guard", 1))
    assert four.last_round[1] == (5 + 16, 2)
    s = g.position(hands=[["Fool"], ["Guard"]],
                   courts=[["Knight", "Fool", "Fool", ("Fool", "Assassin")], []])
    covered = s.apply(Play("Fool", 0)).apply(Play("Guard", 1))
    assert covered.last_round[1] == (0, 2)        # covered Fool does not count: 3 uncovered


# ----------------------------------------------------------------------------- General

def test_general_swaps_whole_hands_and_both_know_what_they_gave():
    s = pos([["General", "Fool", "Guard"], ["Princess"], ["Knight", "Trader"]])
    t = s.apply(Play("General", 2))
    assert t.hands[0] == ("Knight", "Trader") and t.hands[2] == ("Fool", "Guard")
    assert t.known[0][2] == ("Fool", "Guard") and t.known[2][0] == ("Knight", "Trader")
    assert t.known[1] == ((), (), ())
    assert t.view(0).hands[2] == ("Fool", "Guard")
    assert t.view(1).hands[2] == (HIDDEN, HIDDEN)


def test_general_knowledge_follows_the_hands_for_onlookers():
    s = pos([["General", "Fool", "Guard"], ["Knight", "Princess"], ["Trader", "Squire"]], turn=1)
    t = s.apply(Play("Knight", 0))                 # player 2 looks at player 1's hand
    assert t.known[1][0] == ("Fool", "General", "Guard")
    t = t.apply(KnightTake("Guard", 1, 0))
    assert t.known[1][0] == ("Fool", "General")
    t = t.apply(Play("Trader", 2))                 # own court: no ability
    t = t.apply(Play("General", 2))                # players 1 and 3 swap hands
    assert t.hands[0] == ("Squire",) and t.hands[2] == ("Fool",)
    assert t.known[1][2] == ("Fool",) and t.known[1][0] == ()   # knowledge moved with the hand
    assert t.view(1).hands[2] == ("Fool",)


# ----------------------------------------------------------------------------- Princess

def test_princess_own_court_needs_three_uncovered():
    s = pos([["Princess", "Fool"], ["Trader"], ["Fool"]],
            courts=[["Guard", "Trader", ("Knight", "Assassin")], [], []])
    assert Play("Princess", 0) not in s.legal_actions()
    with pytest.raises(IllegalAction, match="at least 3 uncovered"):
        s.apply(Play("Princess", 0))
    s = pos([["Princess", "Fool"], ["Trader"], ["Fool"]],
            courts=[["Guard", "Trader", "Knight"], [], []])
    assert Play("Princess", 0) in s.legal_actions()


def test_princess_last_card_exception():
    s = pos([["Princess"], ["Trader"], ["Fool"]], courts=[["Guard"], [], []])
    assert Play("Princess", 0) in s.legal_actions()


def test_princess_to_a_foreign_court_is_allowed():
    s = pos([["Princess", "Fool"], ["Trader"], ["Fool"]])
    assert Play("Princess", 1) in s.legal_actions() and Play("Princess", 2) in s.legal_actions()


def test_round_win_tie_goes_to_the_uncovered_princess():
    g = Woods(players=2, mode="rounds")
    s = g.position(hands=[["Squire"], ["Squire"]], courts=[["Princess"], ["Knight", "Guard"]])
    t = s.apply(Play("Squire", 0)).apply(Play("Squire", 1))
    assert t.last_round[1] == (9, 9) and t.totals == (1, 0) and t.turn == 0
    # covered Princess: no tie-break; both tied players get a round win
    s = g.position(hands=[["Squire"], ["Squire"]],
                   courts=[[("Princess", "Assassin"), "Knight", "Guard"], ["Knight", "Guard"]])
    t = s.apply(Play("Squire", 0)).apply(Play("Squire", 1))
    assert t.last_round[1] == (9, 9) and t.totals == (1, 1)


# ----------------------------------------------------------------------------- game end

def test_points_to_42_and_winner_starts_next_round():
    g = Woods(players=2)
    s = g.position(hands=[["Guard"], ["Guard"]], courts=[["Knight"], ["Princess"]],
                   totals=(30, 20))
    t = s.apply(Play("Guard", 0)).apply(Play("Guard", 1))
    assert t.totals == (37, 29) and not t.is_terminal()
    assert t.current_player() == CHANCE and t.turn == 1 and t.starter == 1
    assert t.round == 2
    t = t.apply(t.sample_chance(random.Random(0)))
    assert t.current_player() == 1 and t.courts == ((), ())
    s = g.position(hands=[["Guard"], ["Guard"]], courts=[["Knight"], ["Princess"]],
                   totals=(40, 20))
    t = s.apply(Play("Guard", 0)).apply(Play("Guard", 1))
    assert t.is_terminal() and t.totals == (47, 29) and t.returns() == (1, 0)


def test_tie_at_the_end_shares_the_win():
    g = Woods(players=2)
    s = g.position(hands=[["Guard"], ["Guard"]], courts=[["Knight"], ["Knight"]],
                   totals=(40, 40))
    t = s.apply(Play("Guard", 0)).apply(Play("Guard", 1))
    assert t.is_terminal() and t.returns() == (Fraction(1, 2), Fraction(1, 2))


@pytest.mark.parametrize("players,goal", [(2, 2), (3, 3), (4, 3)])
def test_round_win_variant_targets(players, goal):
    g = Woods(players=players, mode="rounds")
    assert g.goal == goal
    s = g.position(hands=[["Guard"]] + [[]] * (players - 1),
                   courts=[["Knight"]] + [[]] * (players - 1), totals=(goal - 1,) + (0,) * (players - 1))
    t = s.apply(Play("Guard", 0))
    assert t.is_terminal() and t.totals[0] == goal and t.returns()[0] == 1


def test_one_round_option_and_view_hides_set_aside():
    g = Woods(players=2, one_round=True)
    s = g.initial_state()
    s = s.apply(s.sample_chance(random.Random(5)))
    v = s.view(0)
    assert v.set_aside == (HIDDEN,) * g.set_aside_count
    assert v.hands[1] == (HIDDEN,) * g.hand_size and v.hands[0] == s.hands[0]
    line = next(x for x in str(v).splitlines() if "Player 2: hand" in x)
    assert line.split(")", 1)[1].replace("?", "").replace(",", "").strip() == ""


def test_why_illegal_messages():
    s = pos([["Princess", "Fool", "Squire"], ["Trader"], ["Fool"]], courts=[[], ["Squire"], []])
    with pytest.raises(IllegalAction, match="must play"):
        s.apply(Play("Fool", 1))
    with pytest.raises(IllegalAction, match="from your hand"):
        s.apply(Play("General", 1))


def test_text_and_html_render_covered_cards():
    s = pos([["Fool"], ["Trader"], ["Fool"]], courts=[[("Knight", "Assassin"), "Fool"], [], []])
    assert "Knight under Assassin" in str(s)
    assert "line-through" in s._repr_html_() and "Knight" in s._repr_html_()
    assert len(s.short()) <= 30


def _tiny_game(tmp_path):
    """A 5-card deck (Assassin, Fool, Fool, Knight, Princess) for 2 players."""
    from importlib import resources
    import re
    text = resources.files("kingdoms.woods").joinpath("data.toml").read_text()
    keep = {"Assassin": 1, "Fool": 2, "Knight": 1, "Princess": 1}

    def copies(m):
        block = m.group(0)
        name = re.search(r'name = "(\w+)"', block).group(1)
        return re.sub(r"copies = \d+", f"copies = {keep.get(name, 0)}", block)

    text = re.sub(r"\[\[followers\]\][^\[]*", copies, text)
    text = re.sub(r"\[setup\.2\]\nremove = \{[^}]*\}", "[setup.2]\nremove = {}", text)
    text = text.replace("set_aside = 3\nset_aside_assumed = \"not published; 3 hidden",
                        "set_aside = 1\nset_aside_assumed = \"not published; 3 hidden")
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return Woods(players=2, data=str(path))


def test_deal_probabilities_exact_on_a_tiny_deck(tmp_path):
    g = _tiny_game(tmp_path)
    assert g.deck == ("Assassin", "Fool", "Fool", "Knight", "Princess")
    assert (g.hand_size, g.set_aside_count) == (2, 1)
    counts = Counter()
    perms = list(itertools.permutations(g.deck))
    for perm in perms:          # the shuffle: set aside the first card, deal the rest
        counts[Deal((tuple(sorted(perm[1:3])), tuple(sorted(perm[3:5]))), (perm[0],))] += 1
    assert len(counts) == g.deal_count()
    for deal, k in counts.items():
        assert g.deal_probability(deal) == Fraction(k, len(perms))
    assert sum(g.deal_probability(d) for d in counts) == 1
    # the sampler agrees (seeded simulation, 4 standard errors)
    s = g.initial_state()
    rng = random.Random(9)
    n = 6000
    seen = Counter(s.sample_chance(rng) for _ in range(n))
    assert set(seen) <= set(counts)
    for deal, k in counts.items():
        p = k / len(perms)
        assert abs(seen[deal] / n - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-9
