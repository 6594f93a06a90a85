"""Into the Black Forest: data, every scoring clause, turn order, rounds, variants."""
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import kingdoms
from kingdoms.black_forest import BlackForest, Card, Discard, Draw, Play, Reveal, parse_condition
from kingdoms.black_forest.odds import open_encounter
from kingdoms.black_forest.rules import right_winner, winners_shares
from kingdoms.core.data import DataError
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL, GameOptionError, IllegalAction

DATA = Path(kingdoms.black_forest.__file__).with_name("data.toml")


def game(players=4, **kw):
    return kingdoms.game("black_forest", players=players, **kw)


def play(state, card, space):
    """The player to move puts ``card`` (a name) on ``space``."""
    return state.apply(Play(state.to_move, state.game.card(card), space))


def edited(tmp_path, old, new):
    text = DATA.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "bf.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(p)


# --------------------------------------------------------------------------- data

def test_four_decks_of_twelve_with_known_values_and_animals():
    g = game(4)
    assert list(g.cards_of_deck) == ["Red", "Green", "Blue", "Yellow"]
    animal = {1: "Frog", 2: "Frog", 3: "Frog", 4: "Squirrel", 5: "Squirrel", 6: "Squirrel",
              7: "Lynx", 8: "Lynx", 9: "Lynx", 10: "Owl", 11: "Owl", 12: "Owl"}
    for deck, cards in g.cards_of_deck.items():
        assert sorted(c.value for c in cards) == list(range(1, 13))
        assert all(c.animal == animal[c.value] for c in cards)
        # the assumption: three cards of each suit per deck
        assert Counter(c.suit for c in cards) == {s: 3 for s in g.suits}
    # ... arranged differently in every deck
    patterns = {tuple(c.suit for c in sorted(cards, key=lambda c: c.value))
                for cards in g.cards_of_deck.values()}
    assert len(patterns) == 4


def test_eighteen_encounters_parsed_and_assumptions_listed():
    g = game(3)
    assert len(g.conditions) == 18
    keys = [a.key for a in g.assumptions()]
    assert "decks.Red.suits" in keys and "encounters.cards.Wolf Ridge.right" in keys
    assert "rules.token_point_when_kept" in keys
    assert "ASSUMES" in g.assumptions_table()
    assert g.condition("Wisp Hollow").filter_value == "Wands"


@pytest.mark.parametrize("text, rank, target, kind, value", [
    ("highest Wands", "highest", None, "suit", "Wands"),
    ("lowest owl", "lowest", None, "animal", "Owl"),
    ("highest odd", "highest", None, "parity", "odd"),
    ("lowest", "lowest", None, None, None),
    ("closest to 7", "closest", 7, None, None),
    ("closest to bottom sum Potions", "closest", "bottom sum", "suit", "Potions"),
])
def test_condition_vocabulary(text, rank, target, kind, value):
    c = parse_condition(text, ("Wands", "Swords", "Spellbooks", "Potions"),
                        ("Frog", "Squirrel", "Lynx", "Owl"))
    assert (c.rank, c.target, c.filter_kind, c.filter_value) == (rank, target, kind, value)


@pytest.mark.parametrize("text", ["", "biggest", "highest Dragons", "closest 7",
                                  "closest to 30", "highest Wands odd", "__import__('os')"])
def test_condition_vocabulary_is_closed(text):
    with pytest.raises(ValueError):
        parse_condition(text, ("Wands",), ("Frog",))


def test_bad_condition_in_data_names_the_key(tmp_path):
    path = edited(tmp_path, 'right = "highest Swords"', 'right = "tallest Swords"')
    with pytest.raises(DataError, match=r"encounters\.cards\.1\.right"):
        game(2, data=path)


def test_bad_suit_in_data_names_the_key(tmp_path):
    path = edited(tmp_path, 'suits = ["Wands", "Swords"', 'suits = ["Wands", "Swordz"')
    with pytest.raises(DataError, match=r"decks\.0\.suits"):
        game(2, data=path)


def test_edited_suits_are_used(tmp_path):
    path = edited(tmp_path, 'suits = ["Wands", "Swords"', 'suits = ["Potions", "Swords"')
    assert game(2, data=path).card("Red 1").suit == "Potions"


def test_options_are_checked():
    with pytest.raises(GameOptionError):
        game(5)
    with pytest.raises(GameOptionError):
        game(4, rounds=3)          # only shorter games than the rulebook's
    with pytest.raises(GameOptionError):
        game(4, start_player=4)
    with pytest.raises(GameOptionError):
        game(4, colour="red")
    assert game(2).n_rounds == 3 and game(3).n_rounds == 2
    assert game(2).hand_size == 8 and game(4).hand_size == 6


# --------------------------------------------------------------------------- setup

def run_chance(state, rng):
    while state.current_player() == CHANCE:
        state = state.apply(state.sample_chance(rng))
    return state


def test_setup_reveals_three_encounters_and_deals_six():
    import random
    g = game(4, start_player=2)
    s = g.initial_state()
    assert s.points == (0, 0, 1, 0)            # the start player token is worth 1
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 18 and sum(p for _, p in outcomes) == 1
    s = run_chance(s, random.Random(1))
    assert len(s.upcoming) == 3 and len(s.encounter_deck) == 15
    assert [len(h) for h in s.hands] == [6] * 4 and [len(d) for d in s.decks] == [6] * 4
    assert all(c.deck == g.player_name(p) for p, h in enumerate(s.hands) for c in h)
    assert s.current_player() == 2 and s.phase == "play"


def test_each_draw_is_an_exact_chance_event():
    s = game(4).initial_state()
    for e in ("Wolf Ridge", "Fox Burrow", "Crossroads"):
        s = s.apply(Reveal(e))
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 12 and all(p == Fraction(1, 12) for _, p in outcomes)
    s = s.apply(outcomes[4][0])
    assert len(s.chance_outcomes()) == 11


def test_two_player_variant_combines_decks_and_deals_eight():
    import random
    g = game(2)
    assert [len(c) for c in g.seat_cards] == [24, 24]
    assert {c.deck for c in g.seat_cards[0]} == {"Red", "Green"}
    assert {c.deck for c in g.seat_cards[1]} == {"Blue", "Yellow"}
    s = run_chance(g.initial_state(), random.Random(2))
    assert [len(h) for h in s.hands] == [8, 8] and [len(d) for d in s.decks] == [16, 16]


# --------------------------------------------------------------------------- scoring

def test_bottom_lowest_wins_and_scores_the_other_value():
    s = open_encounter([["Red 1", "Red 3", "Red 11"], ["Blue 1"]], "Wolf Ridge",
                       bottom=[(1, "Blue 5")], left=[(0, "Red 9")],
                       top=[(0, "Red 12"), (1, "Blue 7")])
    end = play(s, "Red 3", "bottom")
    assert end.is_terminal()
    g = s.game
    # token +1 to P2; Bottom Red 3 < Blue 5: +5; Left Red 9 if its suit is on Top; Top 12 > 7: +7
    left = 9 if g.card("Red 9").suit in {g.card("Red 12").suit, g.card("Blue 7").suit} else 0
    assert end.points == (5 + left + 7, 1)
    assert g.card("Red 3") in end.won[0] and g.card("Blue 5") in end.hands[1]
    assert g.card("Red 12") in end.won[0] and g.card("Blue 7") in end.hands[1]


def test_bottom_tie_returns_both_cards_and_scores_nothing():
    s = open_encounter([["Red 5", "Red 1", "Red 2"], ["Blue 1"]], "Wolf Ridge",
                       bottom=[(1, "Blue 5")], left=[(1, "Blue 2")],
                       top=[(0, "Red 12"), (1, "Blue 7")])
    end = play(s, "Red 5", "bottom")
    g = s.game
    assert g.card("Red 5") in end.hands[0] and g.card("Blue 5") in end.hands[1]
    assert any("Bottom: Blue 5 and Red 5 tie" in line for line in end.report)
    assert end.points[0] == 7        # only the Top (+7); the Left Blue 2 is P2's
    left = 2 if g.card("Blue 2").suit in {g.card("Red 12").suit, g.card("Blue 7").suit} else 0
    assert end.points[1] == 1 + left


def test_top_highest_wins_and_tie_returns_both():
    base = dict(bottom=[(0, "Red 1"), (1, "Blue 1")], left=[(1, "Blue 3")],
                top=[(1, "Blue 8")])
    s = open_encounter([["Red 8", "Red 9", "Red 2"], ["Blue 2"]], "Wolf Ridge", **base)
    tie = play(s, "Red 8", "top")
    g = s.game
    assert g.card("Red 8") in tie.hands[0] and g.card("Blue 8") in tie.hands[1]
    assert not any(c.value == 8 for c in tie.won[0] + tie.won[1])
    win = play(s, "Red 9", "top")
    assert g.card("Red 9") in win.won[0] and g.card("Blue 8") in win.hands[1]
    assert win.points[0] - tie.points[0] == 8


def test_left_scores_its_own_value_only_when_a_top_suit_matches():
    g = game(2)
    red9 = g.card("Red 9")
    same = next(c for c in g.seat_cards[1] if c.suit == red9.suit and c.value == 7)
    other = next(c for c in g.seat_cards[1] if c.suit != red9.suit and c.value == 7)
    for top_card, expect in ((same, 9), (other, 0)):
        s = open_encounter([["Red 9", "Red 1", "Red 2"], ["Blue 1"]], "Wolf Ridge",
                           bottom=[(0, "Red 3"), (1, "Blue 3")],
                           top=[(0, "Red 12"), (1, str(top_card))])
        end = play(s, "Red 9", "left")
        left_points = end.points[0] - 7          # Top: Red 12 beats the 7
        assert left_points == expect
        assert (red9 in end.won[0]) == (expect > 0)
        assert (red9 in end.hands[0]) == (expect == 0)


def test_right_best_card_wins_six_and_others_return():
    g = game(3)
    cond = g.condition("Wolf Ridge")                      # highest
    r = [(0, g.card("Red 12")), (1, g.card("Green 10")), (2, g.card("Blue 11"))]
    assert right_winner(cond, r) == (0, g.card("Red 12"))


def test_right_tied_cards_cancel_and_the_next_wins():
    g = game(4)
    cond = g.condition("Wolf Ridge")                      # highest
    r = [(0, g.card("Red 12")), (1, g.card("Green 12")), (2, g.card("Blue 9")),
         (3, g.card("Yellow 3"))]
    assert right_winner(cond, r) == (2, g.card("Blue 9"))
    r = [(0, g.card("Red 12")), (1, g.card("Green 12"))]
    assert right_winner(cond, r) is None
    # closest to 7: 5 and 9 are equally close and cancel; 10 wins
    cond7 = g.condition("Crossroads")
    r = [(0, g.card("Red 5")), (1, g.card("Green 9")), (2, g.card("Blue 10"))]
    assert right_winner(cond7, r) == (2, g.card("Blue 10"))


def test_right_filter_and_bottom_sum():
    g = game(3)
    wands = g.condition("Wisp Hollow")                    # highest Wands
    nonw = next(c for c in g.seat_cards[0] if c.suit != "Wands" and c.value == 12)
    w = max((c for c in g.seat_cards[1] if c.suit == "Wands"), key=lambda c: c.value)
    assert right_winner(wands, [(0, nonw), (1, w)]) == (1, w)
    assert right_winner(wands, [(0, nonw)]) is None
    well = g.condition("Wishing Well")                    # closest to bottom sum
    bottom = [(0, g.card("Red 2")), (1, g.card("Green 4"))]      # sum 6
    r = [(0, g.card("Red 7")), (2, g.card("Blue 10"))]
    assert right_winner(well, r, bottom) == (0, g.card("Red 7"))


def test_right_is_optional_one_card_each_and_face_down():
    s = open_encounter([["Red 1", "Red 2", "Red 3", "Red 4"], ["Blue 1", "Blue 2", "Blue 3"]],
                       "Fox Burrow")
    s = play(s, "Red 1", "right")
    s = play(s, "Blue 2", "bottom")
    assert "right" not in s.open_spaces(0)
    with pytest.raises(IllegalAction, match="only one card face down on the Right"):
        play(s, "Red 2", "right")
    v = s.view(1)
    assert v.right == ((0, HIDDEN),) and "Red 1" not in str(v)
    played = s.history()[-2][1]           # as the game made it: named by its colour
    assert played == Play(0, s.game.card("Red 1"), "right")
    assert str(played.seen_by(1)) == "Red/Green plays a card face down on the Right side"


def test_encounter_ends_when_bottom_left_top_are_full_even_without_right():
    s = open_encounter([["Red 1", "Red 2", "Red 3", "Red 4"], ["Blue 1", "Blue 2", "Blue 3"]],
                       "Fox Burrow")
    for card, space in (("Red 4", "bottom"), ("Blue 1", "bottom"), ("Red 3", "top"),
                        ("Blue 2", "top")):
        s = play(s, card, space)
        assert not s.is_terminal()
    end = play(s, "Red 1", "left")
    assert end.is_terminal()
    assert "Right: nobody played there." in end.report


def test_scoring_order_is_bottom_left_top_right():
    s = open_encounter([["Red 1", "Red 2", "Red 12"], ["Blue 1", "Blue 2"]], "Fox Burrow",
                       bottom=[(0, "Red 3"), (1, "Blue 4")], left=[(1, "Blue 6")],
                       top=[(1, "Blue 9")], right=[(1, "Blue 3")])
    end = play(s, "Red 12", "top")
    order = [line.split(":")[0].split(" ")[0] for line in end.report[1:]]
    assert order[:4] == ["Bottom", "Left", "Top", "Right"]


def test_token_passes_left_of_the_last_player_and_scores():
    s = open_encounter([["Red 1", "Red 2"], ["Green 1", "Green 2"], ["Blue 12", "Blue 2"]],
                       "Fox Burrow", bottom=[(0, "Red 3"), (1, "Green 4")],
                       left=[(1, "Green 6")], top=[(0, "Red 9")], to_move=2, token=0)
    end = play(s, "Blue 12", "top")
    assert end.token == 0                         # left of seat 2 is seat 0
    assert end.report[0].startswith("Red receives the start player token (+1)")
    # Red: token 1 + bottom (3 < 4) 4; Blue: top 12 > 9: +9
    assert end.points[0] == 1 + 4 and end.points[2] == 9


def test_token_point_when_kept_follows_the_data(tmp_path):
    hands = [["Red 1", "Red 2", "Red 5"], ["Blue 1", "Blue 2"]]
    board = dict(bottom=[(0, "Red 3"), (1, "Blue 4")], left=[(1, "Blue 6")],
                 top=[(0, "Red 9")])
    s = open_encounter(hands, "Fox Burrow", to_move=1, token=0, **board)
    end = play(s, "Blue 2", "top")                # last player seat 1: token back to seat 0
    assert end.token == 0 and end.points[0] == 1 + 4 + 2   # token, Bottom 3<4, Top 9>2
    path = edited(tmp_path, "token_point_when_kept = true", "token_point_when_kept = false")
    s = open_encounter(hands, "Fox Burrow", to_move=1, token=0, data=path, **board)
    end = play(s, "Blue 2", "top")
    assert end.token == 0 and end.points[0] == 4 + 2
    assert "keeps the start player token (no point)" in end.report[0]


def test_turn_order_goes_left_and_skips_an_empty_hand():
    s = open_encounter([["Red 1", "Red 2", "Red 3", "Red 4", "Red 5", "Red 6", "Red 7"],
                        ["Green 1"], []], "Fox Burrow", to_move=1)
    assert s.current_player() == 1
    s = play(s, "Green 1", "bottom")
    assert s.current_player() == 0                # seat 2 has no cards: skipped
    s = play(s, "Red 1", "bottom")
    assert s.current_player() == 0


def test_illegal_moves_name_the_rule():
    s = open_encounter([["Red 1", "Red 2", "Red 3"], ["Blue 1", "Blue 2"]], "Fox Burrow",
                       bottom=[(0, "Red 5"), (1, "Blue 5")])
    with pytest.raises(IllegalAction, match="holds only 2 cards and is full"):
        play(s, "Red 1", "bottom")
    with pytest.raises(IllegalAction, match="own hand"):
        s.apply(Play(0, s.game.card("Red 12"), "top"))
    with pytest.raises(IllegalAction, match="turn"):
        s.apply(Play(1, s.game.card("Blue 1"), "top"))
    with pytest.raises(IllegalAction, match="one card from your hand"):
        s.apply(Discard(0, s.game.card("Red 1")))


# --------------------------------------------------------------------------- the end

def test_most_points_wins_then_most_cards_in_hand_then_shared():
    assert winners_shares((10, 12, 3), (4, 1, 6)) == (0, 1, 0)
    assert winners_shares((12, 12, 3), (4, 1, 6)) == (1, 0, 0)
    assert winners_shares((12, 12, 3), (4, 4, 6)) == (Fraction(1, 2), Fraction(1, 2), 0)


def test_most_points_wins_a_played_encounter():
    s = open_encounter([["Red 9", "Red 2", "Red 5"], ["Blue 1", "Blue 6", "Blue 10"]],
                       "Fox Burrow", bottom=[(0, "Red 8")], left=[(1, "Blue 3")],
                       top=[(1, "Blue 8")], to_move=1, token=0)
    s = play(s, "Blue 1", "bottom")               # P2 wins the Bottom: +8
    end = play(s, "Red 9", "top")                 # P1 wins the Top: +8; token to P2 (+1)
    left = 3 if s.game.card("Blue 3").suit in {s.game.card("Red 9").suit,
                                               s.game.card("Blue 8").suit} else 0
    assert end.points == (8, 8 + 1 + left)
    assert end.returns() == (0, 1)


@pytest.mark.parametrize("extra_card", [False, True])
def test_tie_on_points_goes_to_the_most_cards_in_hand(extra_card):
    g = game(2)
    hand0 = ["Red 9", "Red 2", "Red 5"] + (["Red 6"] if extra_card else [])
    s = open_encounter([hand0, ["Blue 1", "Blue 6", "Blue 10"]],
                       "Fox Burrow", bottom=[(0, "Red 8")], left=[(1, "Blue 3")],
                       top=[(1, "Blue 8")], to_move=1, token=0)
    s = play(s, "Blue 1", "bottom")
    end = play(s, "Red 9", "top")
    # equalise the points by giving P1 the difference at the start
    gap = end.points[1] - end.points[0]
    s2 = open_encounter([hand0, ["Blue 1", "Blue 6", "Blue 10"]],
                        "Fox Burrow", bottom=[(0, "Red 8")], left=[(1, "Blue 3")],
                        top=[(1, "Blue 8")], to_move=1, token=0, points=(gap, 0))
    end = play(play(s2, "Blue 1", "bottom"), "Red 9", "top")
    assert end.points[0] == end.points[1]
    sizes = [len(h) for h in end.hands]
    left_won = g.card("Blue 3") in end.won[1]
    assert sizes == [3 + extra_card, 4 - left_won]
    if sizes[0] > sizes[1]:
        assert end.returns() == (1, 0)
    elif sizes[0] == sizes[1]:
        assert end.returns() == (Fraction(1, 2), Fraction(1, 2))
    else:
        assert end.returns() == (0, 1)


# --------------------------------------------------------------------------- rounds

def _first_policy_until(state, rng, stop):
    while not stop(state):
        if state.current_player() == CHANCE:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(state.legal_actions()[0])
    return state


def test_round_two_draws_the_rest_and_discards_to_six():
    import random
    rng = random.Random(7)
    s = _first_policy_until(game(4).initial_state(), rng, lambda s: s.round == 2)
    assert s.played == 0 and s.phase in ("reveal", "deal", "discard", "play")
    s = _first_policy_until(s, rng, lambda s: s.phase != "reveal")
    assert len(s.upcoming) == 3
    # drawing the whole rest of the deck needs no chance event
    assert all(len(d) == 0 for d in s.decks)
    if s.phase == "discard":
        p = s.current_player()
        assert p == next(i for i in [(s.token + k) % 4 for k in range(4)]
                         if len(s.hands[i]) > 6)
        assert all(isinstance(a, Discard) for a in s.legal_actions())
        assert str(s.legal_actions()[0].seen_by((p + 1) % 4)).endswith("discards a card")
    s = _first_policy_until(s, rng, lambda s: s.phase == "play")
    assert all(len(h) == 6 for h in s.hands)


def test_two_player_game_has_three_rounds_with_refills_to_eight():
    import random
    rng = random.Random(3)
    s = game(2).initial_state()
    rounds_seen = set()
    refills = []
    while not s.is_terminal():
        if s.phase == "deal" and s.is_chance():
            refills.append((s.round, len(s.decks[s.dealing()])))
        if s.phase == "play":
            rounds_seen.add(s.round)
            assert all(len(h) <= 8 for h in s.hands)
            if s.played == 0 and not (s.bottom or s.left or s.top or s.right):
                assert all(len(h) == 8 for h in s.hands)
        s = s.apply(s.sample_chance(rng) if s.is_chance() else s.legal_actions()[0])
    assert rounds_seen == {1, 2, 3}
    # round 2 draws 8 from 16 (chance), round 3 takes the last 8 (no chance)
    assert {r for r, _ in refills} == {1, 2}
    assert all(len(d) == 0 for d in s.decks)


# --------------------------------------------------------------------------- playouts

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_terminate_and_conserve_cards(players):
    import random
    g = game(players)
    for seed in range(6):
        rng = random.Random(seed)
        s = g.initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance():
                outs = s.chance_outcomes()
                assert sum(p for _, p in outs) == 1
                s = s.apply(s.sample_chance(rng))
            else:
                acts = s.legal_actions()
                assert acts
                s = s.apply(acts[rng.randrange(len(acts))])
            steps += 1
            assert steps < 2000
            if steps % 7 == 0 or s.is_terminal():
                for p in range(players):
                    mine = (s.hands[p] + s.decks[p] + s.won[p] + s.discarded[p]
                            + tuple(c for q, c in s.bottom + s.left + s.top + s.right if q == p))
                    assert sorted(mine) == sorted(g.seat_cards[p])
        assert s.current_player() == TERMINAL
        assert sum(s.returns()) == 1
        assert s.round == g.n_rounds and s.played == g.n_encounters
        assert len(s.encounter_deck) == 18 - g.n_rounds * g.n_encounters
        # points: every token hand-over is one point; the rest came from cards that won
        handovers = 1 + g.n_rounds * g.n_encounters
        assert sum(s.points) >= handovers


@pytest.mark.parametrize("players", [2, 4])
def test_records_round_trip(players):
    from kingdoms.core.play import play as play_game, play_state
    from kingdoms.core.records import GameRecord
    rec = play_game(game(players), seed=11)
    again = GameRecord.from_json(rec.to_json())
    assert again.replay() == play_state(game(players), seed=11)


def test_views_hide_hands_decks_right_cards_and_discards():
    import random
    g = game(4)
    rng = random.Random(4)
    s = g.initial_state()
    while not (s.phase == "play" and len(s.right) >= 2 and s.round == 2):
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
        else:
            acts = s.legal_actions()
            s = s.apply(acts[rng.randrange(len(acts))])
    assert any(s.discarded)
    for viewer in range(4):
        v = s.view(viewer)
        text = str(v)
        for p in range(4):
            if p == viewer:
                assert v.hands[p] == s.hands[p]
                continue
            assert v.hands[p] == (HIDDEN,) * len(s.hands[p])
            assert v.decks[p] == (HIDDEN,) * len(s.decks[p])
            assert v.discarded[p] == (HIDDEN,) * len(s.discarded[p])
            for c in s.hands[p] + s.decks[p]:
                assert f"{c} " not in text and not text.endswith(str(c))
        for (p, c), (q, d) in zip(s.right, v.right):
            assert p == q and (d == c if p == viewer else d is HIDDEN)
    d = Draw(1, g.card("Green 3"))
    assert d.seen_by(0).card is HIDDEN and d.seen_by(1) == d


def test_short_and_html_render():
    s = open_encounter([["Red 1", "Red 2", "Red 3"], ["Blue 1", "Blue 2"]], "Fox Burrow",
                       bottom=[(0, "Red 5")], top=[(1, "Blue 9")])
    assert s.short() == "B5 L- T9 R0 Red/Green" and len(s.short()) <= 30
    assert "<table>" in s._repr_html_() and "Fox Burrow" in s._repr_html_()
    assert "Red 5 Wands [Red/Green]" in str(s) or "Red 5" in str(s)


@pytest.mark.parametrize("players", [2, 4])
def test_fast_paths_match_the_plain_rules(players):
    """The ready-made actions, the sampler and the card order agree with the plain
    definitions: Plays/Discards built afresh, the core's sampler over the listed
    outcomes, and the dataclass order and hash of cards."""
    import random
    from kingdoms.core.protocol import State
    from kingdoms.black_forest.rules import _CARD_ORDER
    g = game(players)
    cards = [c for seat in g.seat_cards for c in seat]
    assert sorted(cards) == sorted(cards, key=_CARD_ORDER)
    for c in cards:
        fields = (c.deck, c.value, c.suit, c.animal)
        assert hash(c) == hash(fields) and c == Card(*fields) and c is not Card(*fields)
    rng = random.Random(7)
    s = g.initial_state()
    while not s.is_terminal():
        if s.is_chance():
            seed = rng.random()
            plain = State._sample_chance(s, random.Random(seed))
            a = s.sample_chance(random.Random(seed))
            assert a == plain and str(a) == str(plain)
        else:
            p = s.current_player()
            hand = s.hands[p]
            if s.phase == "discard":
                assert s.legal_actions() == tuple(Discard(p, c) for c in hand)
            else:
                assert s.legal_actions() == tuple(Play(p, c, sp) for c in hand
                                                  for sp in s.open_spaces(p))
            a = rng.choice(s.legal_actions())
        s = s.apply(a)


def test_games_and_states_pickle_for_worker_processes():
    import pickle
    import random
    g = game(2)
    s = g.initial_state()
    rng = random.Random(2)
    while s.phase != "play":
        s = s.apply(s.sample_chance(rng) if s.is_chance() else s.legal_actions()[0])
    s.legal_actions()
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.game == g and t.legal_actions() == s.legal_actions()
    c = t.hands[0][0]
    assert hash(c) == hash(Card(c.deck, c.value, c.suit, c.animal))
