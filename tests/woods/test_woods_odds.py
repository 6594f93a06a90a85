"""King of the Woods odds: exact helpers against brute force and seeded simulation."""
import pytest
from collections import Counter
from fractions import Fraction
import itertools
import math
import random

from kingdoms.woods.rules import Playing
from kingdoms.woods import Play, Woods
from kingdoms.woods import odds

G2 = Woods(players=2)


def small_position():
    # 2 players: player 1 sees their 3 cards and the courts; 3 unknown in player 2's
    # hand and 3 set aside.
    courts = [["Knight", "Fool", "Guard", "Trader", "Assassin", "Squire"],
              ["Knight", "Scholar", "Treasurer", "Treasurer", "Priest", "Trader"]]
    return G2.position(hands=[["Fool", "Squire", "Scholar"], ["Fool", "General", "Guard"]],
                       courts=courts, set_aside=["Fool", "Princess", "Assassin"])


def brute(state, player=0):
    """Every equally likely layout of the unseen cards: (opponent hand, set aside)."""
    pool = list(odds.unseen_cards(state, player).elements())
    k = odds.unknown_places(state, player)[1]
    out = []
    for perm in itertools.permutations(pool):
        out.append((tuple(sorted(perm[:k])), tuple(sorted(perm[k:]))))
    return out


def test_unseen_cards_conserve():
    s = small_position()
    pool = odds.unseen_cards(s, 0)
    assert pool == Counter(["Fool", "General", "Guard", "Fool", "Princess", "Assassin"])
    assert odds.unknown_places(s, 0) == {1: 3, "set aside": 3}


def test_fool_distribution_matches_brute_force():
    s = small_position()
    layouts = brute(s)
    n = len(layouts)
    d = odds.fool_distribution(s, 0)
    for k in range(3):
        assert d[1].prob(k) == Fraction(sum(1 for h, _ in layouts if h.count("Fool") == k), n)
        assert d["set aside"].prob(k) == Fraction(sum(1 for _, a in layouts if a.count("Fool") == k), n)
    joint = odds.joint_fools(s, 0)
    assert joint.prob((1, 1)) == Fraction(sum(1 for h, a in layouts if h.count("Fool") == 1), n)


def test_p_holds_and_any_opponent_general_brute_force():
    s = small_position()
    layouts = brute(s)
    n = len(layouts)
    exact = odds.p_any_opponent_holds(s, 0, "General")
    assert exact == Fraction(sum(1 for h, _ in layouts if "General" in h), n) == Fraction(1, 2)
    assert odds.p_holds(s, 0, "General", 1) == exact
    assert odds.p_holds(s, 0, "Fool", 1, at_least=2) == Fraction(
        sum(1 for h, _ in layouts if h.count("Fool") >= 2), n)


def test_p_any_opponent_holds_three_players_formula():
    g = Woods(players=3)
    s = g.initial_state().apply(g.initial_state().sample_chance(random.Random(11)))
    for card in ("General", "Princess", "Fool"):
        pool = odds.unseen_cards(s, 0)
        m, total, aside = pool[card], sum(pool.values()), g.set_aside_count
        expected = 1 - Fraction(math.comb(aside, m), math.comb(total, m)) if m <= aside else Fraction(1)
        assert odds.p_any_opponent_holds(s, 0, card) == expected


def test_treasurer_and_knight_brute_force():
    s = small_position()
    layouts = brute(s)
    n = len(layouts)
    draw = Counter()
    gain = Counter()
    infl = G2.influence
    for h, _ in layouts:
        for c in h:
            draw[c] += Fraction(1, 3 * n)
        best = "Squire" if "Squire" in h else max(h, key=lambda c: infl[c])
        gain[infl[best]] += Fraction(1, n)
    assert dict(odds.treasurer_draw(s, 0, 1)) == dict(draw)
    assert dict(odds.knight_expected_gain(s, 0, 1)) == dict(gain)
    assert sum(odds.hand_distribution(s, 0, 1).values()) == 1


def test_treasurer_draw_with_known_cards():
    # after a Knight look, the rest of that hand is known: the draw is over known cards
    from kingdoms.woods import KnightTake
    g = Woods(players=3)
    s = g.position(hands=[["Knight", "Fool"], ["Guard", "General", "Trader"], ["Fool", "Fool"]])
    t = s.apply(Play("Knight", 1)).apply(KnightTake("Guard", 0, 1))
    d = odds.treasurer_draw(t, 0, 1)
    assert d == odds.Distribution({"General": 1, "Trader": 1})


def test_worlds_are_exact_and_sum_to_one():
    s = small_position()
    w = odds.worlds(s, 0)
    assert sum(w.values()) == 1
    layouts = Counter(brute(s))
    n = sum(layouts.values())
    assert len(w) == len(layouts)
    for world, p in w.items():
        key = (world.hands[1], world.set_aside)
        assert p == Fraction(layouts[key], n)
        assert world.cards() == Counter(G2.deck)


def test_sample_world_matches_exact_by_simulation():
    s = small_position()
    rng = random.Random(5)
    n = 3000
    hits = sum("General" in odds.sample_world(s, 0, rng).hands[1] for _ in range(n))
    p = float(odds.p_holds(s, 0, "General", 1))
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_fool_outcome_tiny_case_by_hand():
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool"], ["Guard"]], courts=[["Knight", "Fool", "Fool"], []])
    d = odds.fool_outcome(s, 0)
    assert dict(d) == {2: Fraction(1, 2), 3: Fraction(1, 2)}
    assert odds.danger_and_rescue(d)["danger (exactly 3)"] == Fraction(1, 2)


@pytest.mark.slow
def test_fool_outcome_exact_against_simulation():
    g = Woods(players=2)
    s = g.position(hands=[["Fool", "Fool", "Assassin"], ["Fool", "Guard", "Knight"]],
                   courts=[["Fool", "Trader"], ["Squire"]])
    exact = odds.fool_outcome(s, 0)
    sim = odds.fool_outcome_simulated(s, 0, n=4000, seed=1)
    for k in exact:
        p = float(exact[k])
        assert abs(float(sim.prob(k)) - p) < 4 * math.sqrt(p * (1 - p) / 4000) + 1e-9
    assert exact.P(lambda k: k >= 4) > 0 and exact.prob(3) > 0


def test_fool_step_value():
    assert [odds.fool_step_value(5, k) for k in range(5)] == [4, 4, -13, 21, 4]


def test_expected_and_action_values():
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool"], ["Guard"]], courts=[["Knight", "Fool", "Fool"], []])
    vals = odds.action_values(s, lambda t: t.court_scores()[0])
    # Fool home: 3 Fools, 0 whatever the Guard does; Fool away: 13, and the random
    # Guard lands at court 1 or 2 with chance 1/2 each: (15 + 13) / 2 = 14
    assert vals == {Play("Fool", 0): 0, Play("Fool", 1): 14}
    assert odds.expected_at_round_end(s, lambda t: t.court_scores()[0]) == 7


def _minimax(s, me_scores):
    if s.is_terminal():
        return me_scores(s)
    if s.is_chance():
        return sum((p * _minimax(s.apply(o), me_scores) for o, p in s.chance_outcomes()),
                   Fraction(0))
    vals = [_minimax(s.apply(a), me_scores) for a in s.legal_actions()]
    return max(vals) if s.current_player() == 0 else min(vals)


@pytest.mark.slow
def test_endgame_margin_solve_matches_independent_minimax():
    g = Woods(players=2)
    s = g.position(hands=[["Fool", "Assassin", "Treasurer"], ["Fool", "Knight", "Squire"]],
                   courts=[["Fool", "Trader"], ["Fool", "Guard"]])
    sol = odds.solve_endgame(s, objective="margin")
    ref = _minimax(odds.single_round(s), lambda t: Fraction(t.court_scores()[0] - t.court_scores()[1]))
    assert sol.value[0] == ref
    assert sol.action in s.legal_actions()
    win = odds.solve_endgame(s, objective="win")
    assert sum(win.value) == 1


def test_endgame_by_hand():
    # Player 1 holds a Fool, the court has 2: to their own court it makes 3 (score 0);
    # Player 2 then has a Fool too.  Solved: player 1 should give the Fool away.
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool", "Guard"], ["Guard"]], courts=[["Knight", "Fool", "Fool"], ["Knight"]])
    sol = odds.solve_endgame(s, objective="margin")
    # best: never the Fool home.  Fool away (13:9), Guard home (13:11), Guard home (15:11)
    # or Guard first and the Fool away last: margin 4 either way.
    assert sol.value[0] == 4
    vals = sol.action_values()
    assert vals[Play("Fool", 1)][0] == 4 and vals[Play("Guard", 0)][0] == 4
    assert vals[Play("Fool", 0)][0] < 0


def test_endgame_tree_draws():
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool", "Guard"], ["Guard"]], courts=[["Knight", "Fool", "Fool"], ["Knight"]])
    tree = odds.endgame_tree(s, depth=4, objective="margin")
    assert tree.number_of_nodes() > 3
    assert all("value" in d for _, d in tree.nodes(data=True))
    import matplotlib
    matplotlib.use("Agg")
    from kingdoms.core.tree import draw_tree
    draw_tree(tree)


@pytest.mark.slow
def test_fool_outcome_from_view_averages_the_worlds():
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool", "Guard"], ["Fool", "Trader"]],
                   courts=[["Knight", "Fool", "Fool"], ["Squire"]],
                   set_aside=["Assassin", "Assassin", "Trader", "Guard", "Squire", "Scholar",
                              "Scholar", "Priest", "Treasurer", "Treasurer", "Knight",
                              "General", "Princess"])
    d = odds.fool_outcome_from_view(s, 0, court=0)
    w = odds.worlds(s, 0)
    expected = {}
    for world, p in w.items():
        for k, q in odds.fool_outcome(world, 0).items():
            expected[k] = expected.get(k, 0) + p * q
    assert dict(d) == expected
    assert len(w) > 1 and sum(d.values()) == 1


@pytest.mark.slow
def test_fool_outcome_from_view_exact_against_simulation():
    g = Woods(players=2, one_round=True)
    s = g.position(hands=[["Fool", "Guard"], ["Fool", "Trader"]],
                   courts=[["Knight", "Fool", "Fool"], ["Squire"]],
                   set_aside=["Assassin", "Assassin", "Trader", "Guard", "Squire", "Scholar",
                              "Scholar", "Priest", "Treasurer", "Treasurer", "Knight",
                              "General", "Princess"])
    exact = odds.fool_outcome_from_view(s, 0, court=0)
    n = 3000
    sim = odds.fool_outcome_simulated(s, 0, n=n, seed=3, player=0)
    for k in set(exact) | set(sim):
        p = float(exact.prob(k))
        assert abs(float(sim.prob(k)) - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9


def test_unseen_hook_counts_what_the_view_hides():
    """``State.unseen(p)`` (the protocol hook, ``woods.worlds``): computed from the view
    alone, it fills exactly the hidden places, and ``odds.unseen_cards`` is it."""
    g = Woods(players=3)
    rng = random.Random(5)
    s = g.initial_state()
    seen_steps = 0
    while not s.is_terminal() and seen_steps < 200:
        s = s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))
        seen_steps += 1
        if s.is_chance() and s.round_over():
            continue
        for p in range(3):
            pool = s.unseen(p)
            assert pool == s.view(p).unseen(p)
            hidden = sum(len(h) - len(s.known[p][q]) for q, h in enumerate(s.hands) if q != p)
            assert sum(pool.values()) == hidden + len(s.set_aside)
            if isinstance(s.step, Playing):
                assert odds.unseen_cards(s, p) == pool
    with pytest.raises(ValueError, match="Player 1"):
        s.unseen(3)


@pytest.mark.parametrize("call, words", [
    (lambda s: odds.p_holds(s, 0, "fool", 1), r"no card called 'fool' \(did you mean 'Fool'\?\); the cards are: Assassin"),
    (lambda s: odds.p_holds(s, 0, "Fol", 1), r"no card called 'Fol'; the cards are"),
    (lambda s: odds.p_any_opponent_holds(s, 0, "Kniht"), r"no card called 'Kniht'"),
    (lambda s: odds.fool_distribution(s, 0, "fools"), r"no card called 'fools'"),
    (lambda s: odds.joint_fools(s, 0, 3), r"no card called 3"),
    (lambda s: odds.p_holds(s, 0, "Fool", 0), r"p_holds\(opponent\): Player 1 knows their own hand"),
    (lambda s: odds.p_holds(s, 0, "Fool", 2), r"p_holds\(opponent\): opponent must be one of 0 \(Player 1\), 1 \(Player 2\); not 2"),
    (lambda s: odds.hand_distribution(s, 1, 1), r"hand_distribution\(opponent\): Player 2 knows their own hand"),
    (lambda s: odds.treasurer_draw(s, 0, "Ann"), r"treasurer_draw\(victim\): victim must be one of"),
    (lambda s: odds.fool_outcome(s, court=5), r"fool_outcome\(court\): court must be one of"),
    (lambda s: odds.fool_outcome_simulated(s, court=-1), r"fool_outcome_simulated\(court\)"),
    (lambda s: odds.fool_outcome_simulated(s, court=0, n=0), r"n \(the number of playouts\) must be a whole number of at least 1"),
    (lambda s: odds.fool_outcome_from_view(s, 0, court=2), r"fool_outcome_from_view\(court\)"),
])
def test_a_wrong_card_or_player_is_named_not_answered_with_zero(call, words):
    """A card name the game does not have (a lowercase 'fool', a typo) used to give
    probability 0; a player out of range an IndexError, one's own hand a KeyError."""
    with pytest.raises(ValueError, match=words):
        call(small_position())
