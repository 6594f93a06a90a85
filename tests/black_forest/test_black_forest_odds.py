"""Into the Black Forest odds: exact answers against brute force and simulation."""
import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

import kingdoms
from kingdoms.black_forest import Play, score_encounter
from kingdoms.black_forest import odds
from kingdoms.black_forest.odds import open_encounter


def position(players, seed, plays=0):
    """A seeded position ``plays`` random moves into the first encounter."""
    rng = random.Random(seed)
    s = kingdoms.game("black_forest", players=players).initial_state()
    while s.phase != "play":
        s = s.apply(s.sample_chance(rng))
    for _ in range(plays):
        acts = [a for a in s.legal_actions() if a.space != "right"]
        nxt = s.apply(acts[rng.randrange(len(acts))])
        if nxt.played:      # do not finish the encounter
            break
        s = nxt
    return s


@pytest.mark.parametrize("players, seed, plays", [(4, 4, 0), (4, 5, 3), (3, 6, 1), (3, 7, 2)])
def test_p_win_matches_brute_force_over_rival_hands(players, seed, plays):
    s = position(players, seed, plays)
    me = s.current_player()
    v = s.view(me)
    for card in s.hands[me][:3]:
        for space in ("bottom", "top", "left"):
            if space in s.open_spaces(me):
                assert odds.p_win(v, card, space) == odds.brute_force_p_win(v, card, space)


@pytest.mark.parametrize("board", [{}, dict(top=[(1, "Yellow 8")]),
                                   dict(bottom=[(1, "Blue 4")], top=[(0, "Red 6")])])
def test_two_player_p_win_matches_brute_force(board):
    # small open hands keep the list of the rival's possible hands short
    s = open_encounter([["Red 9", "Red 2", "Green 7", "Green 1"], ["Blue 1", "Yellow 12", "Blue 10"]],
                       "Fox Burrow", **board)
    v = s.view(0)
    for card in s.hands[0]:
        for space in ("bottom", "top", "left"):
            if space in s.open_spaces(0):
                assert odds.p_win(v, card, space) == odds.brute_force_p_win(v, card, space)


def test_the_view_and_the_full_state_give_the_same_odds():
    s = position(2, 8, 2)
    me = s.current_player()
    assert odds.placement_odds(s, me) == odds.placement_odds(s.view(me), me)


def test_left_match_is_hypergeometric():
    s = position(2, 9, 0)
    me, rival = 0, 1
    pool = odds.unseen_cards(s, me, rival)
    counts = Counter(c.suit for c in pool)
    for suit in s.game.suits:
        exact = odds.left_match_probability(s.view(me), suit)
        n, k = len(pool), counts[suit]
        assert exact == 1 - Fraction(math.comb(n - k, 2), math.comb(n, 2))
        assert exact == odds.p_left_match(suit, (), counts, 2)
    # a Top card already showing the suit makes it certain
    assert odds.p_left_match("Wands", ("Wands",), counts, 1) == 1


def test_known_cards_in_a_hand_against_brute_force():
    s = position(2, 10, 1)
    me = s.current_player()
    rival = 1 - me
    pool = odds.unseen_cards(s, me, rival)
    known = [c for c in s.hands[rival][:2]]
    h = len(s.hands[rival])
    rest = [c for c in pool if c not in known]
    card = s.hands[me][0]
    space = "top" if "top" in s.open_spaces(me) and not s.top else "bottom"
    slot = s.top if space == "top" else s.bottom
    wins = Fraction(0)
    hands = list(combinations(rest, h - len(known)))
    for extra in hands:
        hand = known + list(extra)
        for reply in hand:
            if reply.value != card.value and (card.value > reply.value) == (space == "top"):
                wins += Fraction(1, len(hand) * len(hands))
    assert not slot
    assert odds.p_win(s.view(me), card, space, known={rival: known}) == wins


@pytest.mark.slow
def test_right_side_against_brute_force():
    g = kingdoms.game("black_forest", players=2)
    s = open_encounter([["Red 9", "Red 4", "Green 7", "Red 1"],
                        ["Blue 2", "Blue 11", "Yellow 6", "Blue 5"]], "Wolf Ridge",
                       right=[(1, "Yellow 10")], to_move=0)
    v = s.view(0)
    pool = odds.unseen_cards(v, 0, 1)
    h = len(s.hands[1]) + 1                  # the hand before the face-down card
    for card in s.hands[0]:
        wins = Fraction(0)
        hands = list(combinations(pool, h))
        for hand in hands:
            for r in hand:
                if card.value > r.value:
                    wins += Fraction(1, len(hand) * len(hands))
        assert odds.p_win(v, card, "right", later_right=()) == wins
    assert g.condition("Wolf Ridge").rank == "highest"


def test_right_with_every_opponent_joining_later():
    s = open_encounter([["Red 12", "Red 4", "Red 1", "Red 7"], ["Green 2", "Green 6"],
                        ["Blue 3", "Blue 8"]], "Fox Burrow", to_move=0)   # lowest wins
    v = s.view(0)
    card = s.game.card("Red 1")
    # both opponents add a random card; Red 1 loses only to a tying 1 (which cancels)
    p1 = Fraction(1, len(odds.unseen_cards(v, 0, 1)))
    p2 = Fraction(1, len(odds.unseen_cards(v, 0, 2)))
    # if exactly one opponent plays a 1, the two 1s cancel and the other card wins;
    # if both do, all three 1s cancel and nobody wins
    assert odds.p_win(v, card, "right") == (1 - p1) * (1 - p2)
    assert odds.p_win(v, card, "right", later_right=()) == 1


def test_expected_points_is_the_mean_of_the_outcome_distribution():
    s = position(4, 12, 2)
    me = s.current_player()
    for row in odds.placement_odds(s.view(me)):
        d = odds.placement_outcome(s.view(me), row.card, row.space)
        assert sum(d.values()) == 1
        assert row.expected_points == sum(p * pts for (_, pts), p in d.items())
        assert 0 <= row.p_win <= 1


def test_p_win_agrees_with_a_seeded_simulation():
    s = position(2, 13, 1)
    me = s.current_player()
    rival = 1 - me
    v = s.view(me)
    card = s.hands[me][len(s.hands[me]) // 2]
    exact = odds.p_win(v, card, "left")
    pool = odds.unseen_cards(v, me, rival)
    top = [c for _, c in s.top]
    rng = random.Random(99)
    n = 4000
    hits = 0
    for _ in range(n):
        hand = rng.sample(pool, len(s.hands[rival]))
        plays = rng.sample(hand, 2 - len(top))
        hits += card.suit in {c.suit for c in top + plays}
    sigma = math.sqrt(float(exact) * (1 - float(exact)) / n)
    assert abs(hits / n - float(exact)) < 4 * sigma + 1e-9


def test_placement_checks_its_arguments():
    s = open_encounter([["Red 1", "Red 2", "Red 3"], ["Blue 1", "Blue 2"]], "Fox Burrow",
                       bottom=[(0, "Red 5"), (1, "Blue 5")])
    with pytest.raises(ValueError, match="not open"):
        odds.p_win(s, "Red 1", "bottom")
    with pytest.raises(ValueError, match="not in"):
        odds.p_win(s, "Red 9", "top")
    with pytest.raises(ValueError, match="spaces"):
        odds.p_win(s, "Red 1", "middle")


# --------------------------------------------------------------------------- open hands

@pytest.mark.parametrize("kwargs, message", [
    (dict(hands=[["Red 2", "Red 4", "Red 5"], ["Red 3", "Blue 1"]]), "belongs to"),
    (dict(hands=[["Red 2", "Red 2", "Red 4"], ["Blue 1"]]), "already"),
    (dict(hands=[["Red 13"], ["Blue 1"]]), "no card called"),
    (dict(hands=[["Red 2"], ["Blue 1"]]), "at least"),
    (dict(hands=[["Red 2", "Red 4", "Red 5"], ["Blue 1", "Blue 2"]], top=[(0, "Red 2")]),
     "already in"),
    (dict(hands=[["Red 2", "Red 4", "Red 5"], ["Blue 1", "Blue 2"]],
          bottom=[(0, "Red 6"), (1, "Blue 6"), (0, "Red 7")]), "at most 2"),
])
def test_open_encounter_validates_cards(kwargs, message):
    with pytest.raises(ValueError, match=message):
        open_encounter(encounter="Fox Burrow", **kwargs)
    with pytest.raises(ValueError, match="no encounter called"):
        open_encounter([["Red 2", "Red 4", "Red 5"], ["Blue 1", "Blue 2"]], "Nowhere")


def _minimax(game, enc, hands, board, to_move, token, used_right):
    """Independent minimax over sequences of plays (margin for seat 0)."""
    bottom, left, top, right = board
    if len(bottom) == 2 and len(left) == 1 and len(top) == 2:
        raise AssertionError("called on a finished encounter")
    p = to_move
    if not hands[p]:
        return _minimax(game, enc, hands, board, 1 - p, token, used_right)
    best = None
    for c in hands[p]:
        for space in ("bottom", "left", "top", "right"):
            b, l, t, r = list(bottom), list(left), list(top), list(right)
            if space == "bottom" and len(b) < 2:
                b.append((p, c))
            elif space == "left" and not l:
                l.append((p, c))
            elif space == "top" and len(t) < 2:
                t.append((p, c))
            elif space == "right" and p not in used_right:
                r.append((p, c))
            else:
                continue
            nh = [list(h) for h in hands]
            nh[p].remove(c)
            if len(b) == 2 and len(l) == 1 and len(t) == 2:
                sc = score_encounter(game, enc, b, l, t, sorted(r))
                pts = list(sc.points)
                pts[(p + 1) % 2] += 1          # the token, to the left of the last player
                val = pts[0] - pts[1]
            else:
                val = _minimax(game, enc, nh, (b, l, t, r), 1 - p, token,
                               used_right | ({p} if space == "right" else set()))
            if best is None or (val > best if p == 0 else val < best):
                best = val
    return best


@pytest.mark.parametrize("hands, board", [
    ([["Red 9", "Red 2"], ["Blue 1"]],
     dict(bottom=[(0, "Red 4"), (1, "Blue 6")], left=[(1, "Blue 3")], top=[(1, "Blue 8")])),
    ([["Red 9", "Red 2", "Green 7"], ["Blue 1", "Yellow 12"]],
     dict(bottom=[(0, "Red 4")], left=[(1, "Blue 3")], top=[(1, "Blue 8")])),
    ([["Red 9", "Red 2", "Green 7"], ["Blue 1", "Yellow 12", "Blue 10"]],
     dict(left=[(1, "Blue 3")], top=[(1, "Blue 8")])),
])
def test_solved_open_encounter_matches_independent_minimax(hands, board):
    s = open_encounter(hands, "Wolf Ridge", **board)
    sol = odds.solve_encounter(s)
    g = s.game
    cards = [[g.card(c) for c in h] for h in hands]
    b = tuple(tuple((p, g.card(c)) for p, c in board.get(k, ())) for k in
              ("bottom", "left", "top", "right"))
    expect = _minimax(g, "Wolf Ridge", cards, b, 0, 0, frozenset())
    assert sol.value == (expect, -expect)
    assert isinstance(sol.action, Play)
    # the best action's value is the position's value
    assert sol.action_values()[sol.action] == sol.value


def test_encounter_tree_is_drawable_and_carries_values():
    s = open_encounter([["Red 9", "Red 2"], ["Blue 1"]], "Wolf Ridge",
                       bottom=[(0, "Red 4"), (1, "Blue 6")], left=[(1, "Blue 3")],
                       top=[(1, "Blue 8")])
    g = odds.encounter_tree(s)
    root = g.graph["root"]
    assert g.nodes[root]["value"] == odds.solve_encounter(s).value
    kinds = Counter(d["kind"] for _, d in g.nodes(data=True))
    assert kinds["terminal"] >= 2 and kinds["decision"] >= 1
    assert any(d.get("best") for _, _, d in g.edges(data=True))


def test_missing_cards_come_from_the_next_opponents_when_the_rival_runs_out():
    s = open_encounter([["Red 12", "Red 4", "Red 1", "Red 7", "Red 8"], ["Green 2"],
                        ["Blue 3", "Blue 8", "Blue 5"]], "Fox Burrow", to_move=0)
    v = s.view(0)
    card = s.game.card("Red 4")
    pool1 = odds.unseen_cards(v, 0, 1)
    pool2 = odds.unseen_cards(v, 0, 2)
    miss1 = Fraction(sum(c.suit != card.suit for c in pool1), len(pool1))
    miss2 = Fraction(sum(c.suit != card.suit for c in pool2), len(pool2))
    # Green holds one card: it answers one Top space, Blue the other
    assert odds.p_win(v, card, "left") == 1 - miss1 * miss2
    assert odds.left_match_probability(v, card.suit) == 1 - miss1 * miss2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_bot_asks_the_odds_at_every_turn_of_a_game(players):
    from kingdoms.core.play import play_state
    g = kingdoms.game("black_forest", players=players)
    end = play_state(g, odds.greedy_policy, seed=players)
    assert end.is_terminal() and sum(end.returns()) == 1


def test_closest_to_bottom_sum_with_a_bottom_card_to_come():
    from itertools import permutations
    from kingdoms.black_forest.rules import right_winner
    s = open_encounter([["Red 7", "Red 4", "Red 1", "Red 9"], ["Blue 2", "Yellow 6", "Blue 11"]],
                       "Wishing Well", bottom=[(0, "Red 3")], right=[(1, "Yellow 9")])
    v = s.view(0)
    g = s.game
    cond = g.condition("Wishing Well")
    pool = odds.unseen_cards(v, 0, 1)
    for card in s.hands[0]:
        # the rival's face-down card and its Bottom card: two different unseen cards
        pairs = list(permutations(pool, 2))
        wins = sum(1 for r, b in pairs
                   if right_winner(cond, [(0, card), (1, r)], [(0, g.card("Red 3")), (1, b)])
                   == (0, card))
        assert odds.p_win(v, card, "right") == Fraction(wins, len(pairs))


def test_known_cards_must_be_possible():
    s = position(3, 3, 0)
    with pytest.raises(ValueError, match="cannot be in"):
        odds.p_win(s.view(0), s.hands[0][0], "bottom", known={1: [s.hands[0][1]]})


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_bot_plays_the_placement_with_the_most_expected_points(players):
    # the bot works out the opponents' hand models once per decision; its choice must
    # be the one ``placement_outcome`` gives, asked afresh for every placement
    from kingdoms.black_forest.rules import Discarding
    g = kingdoms.game("black_forest", players=players)
    rng = random.Random(players)
    s = g.initial_state()
    checked = 0
    while not s.is_terminal():
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
            continue
        me = s.current_player()
        if not isinstance(s.step, Discarding):
            v = s.view(me)
            best, best_key = None, None
            for a in s.legal_actions():
                later = () if a.space == "right" else "all"
                e = odds.placement_outcome(v, a.card, a.space, me, later_right=later).E(
                    lambda o: o[1])
                if best_key is None or (e, -a.card.value) > best_key:
                    best, best_key = a, (e, -a.card.value)
            assert odds.greedy_policy(s) == best
            checked += 1
        acts = s.legal_actions()
        s = s.apply(acts[rng.randrange(len(acts))])
    assert checked > 10


def test_a_suit_the_game_does_not_have_is_named_not_answered_with_zero():
    state = kingdoms.game("black_forest", players=2).initial_state()
    with pytest.raises(ValueError, match=r"no suit called 'purple'; the suits are: Wands, "
                                         r"Swords, Spellbooks, Potions"):
        odds.left_match_probability(state, "purple")
    with pytest.raises(TypeError, match=r"top_suits is a list of suits"):
        odds.p_left_match("Wands", "Wands", {"Wands": 3}, 1)
    with pytest.raises(ValueError, match=r"draws must be a whole number of at least 0"):
        odds.p_left_match("Wands", [], {"Wands": 3}, -1)
    assert odds.p_left_match("Wands", [], {"Wands": 1, "Swords": 1}, 1) == Fraction(1, 2)
