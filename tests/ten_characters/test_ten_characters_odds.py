"""Odds helpers: the exact zero-sum solver on textbook games and random matrices, the
one-shot payoff matrix against an independent calculation and a simulation, draw odds
and holding odds against brute-force enumeration, marginal values."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

import kingdoms
from kingdoms.ten_characters import Choose, score_pass
from kingdoms.ten_characters.odds import (card_values, draw_odds, equilibrium, hand_potential,
                                          marginal_table, marginal_values, p_draw_at_least,
                                          p_holds, payoff_matrix, score_calculator,
                                          solve_zero_sum, unicorn_draw_odds, unseen_cards,
                                          verify_equilibrium)
from kingdoms.ten_characters.scoring import CHARACTERS

F = Fraction


def game(n=2, **options):
    return kingdoms.game("ten_characters", players=n, **options)


# ------------------------------------------------------------------------ the solver
# The solver itself is tested in tests/core/test_matrix.py (kingdoms.core.matrix).

def test_the_lessons_solver_is_the_cores_and_takes_a_payoff_matrix():
    """``odds.solve_zero_sum`` / ``verify_equilibrium`` (the names the notebooks use)
    give the core's answer, for plain rows and for a ``PayoffMatrix``."""
    from kingdoms.core import matrix
    from kingdoms.ten_characters.odds import PayoffMatrix
    A = [[3, -1, 4], [-2, 4, 5], [1, -2, 2]]
    assert solve_zero_sum(A) == matrix.solve_zero_sum(A) == ((F(3, 5), F(2, 5), 0),
                                                             (F(1, 2), F(1, 2), 0), 1)
    pm = PayoffMatrix(["dragon", "king", "mage"], ["farmer", "noble", "queen"], A)
    x, y, v = solve_zero_sum(pm)
    assert (x, y, v) == solve_zero_sum(A)
    assert verify_equilibrium(pm, x, y, v) and not verify_equilibrium(pm, y, x, v + 1)


# ------------------------------------------------------------------------ the payoff matrix

def plain_position():
    # no chance, no effect decisions: every entry is a plain score difference
    return game(2).position([["dragon", "king", "noble"], ["farmer", "king", "queen"]],
                            {"king": 2, "farmer": 1, "noble": 1, "dragon": 1})


def test_payoff_entries_equal_the_score_difference():
    s = plain_position()
    pm = payoff_matrix(s)
    base = {"king": 2, "farmer": 1, "noble": 1, "dragon": 1}
    for r in pm.rows:
        for c in pm.cols:
            d = dict(base)
            d[r] = d.get(r, 0) + 1
            d[c] = d.get(c, 0) + 1
            keep0 = list(s.hands[0]); keep0.remove(r)
            keep1 = list(s.hands[1]); keep1.remove(c)
            t = score_pass(d, [keep0, keep1]).totals
            assert pm[r, c] == t[0] - t[1]


def unicorn_position(unicorn="own"):
    # the brute force below is for the reading where only the Unicorn's player draws
    return game(2, unicorn=unicorn).position([["unicorn", "king", "jester"], ["king", "queen", "farmer"]],
                            {"king": 2, "queen": 1, "unicorn": 1})


def brute_unicorn_entry(s, other):
    """Player 1 plays the Unicorn, player 2 plays ``other``: average over the draw, then
    player 1 discards the card that is best for the difference — by hand, from score_pass."""
    display = {"king": 2, "queen": 1, "unicorn": 2}
    display[other] = display.get(other, 0) + 1
    keep1 = list(s.hands[1]); keep1.remove(other)
    pile = Counter({c: k for c, k in zip(CHARACTERS, s.pile) if k})
    total = sum(pile.values())
    value = F(0)
    for card, k in pile.items():
        hand = ["king", "jester", card]
        best = max(score_pass(display, [list(pair), keep1]).totals[0]
                   - score_pass(display, [list(pair), keep1]).totals[1]
                   for pair in combinations(hand, 2))
        value += F(k, total) * best
    return value


@pytest.mark.slow
def test_payoff_entry_with_a_unicorn_draw_matches_brute_force_and_simulation():
    s = unicorn_position()
    pm = payoff_matrix(s)
    for other in ("farmer", "queen"):
        assert pm["unicorn", other] == brute_unicorn_entry(s, other)
    # seeded simulation of the same entry, optimal discards looked up from the exact solver
    rng = random.Random(11)
    n = 4000
    display = {"king": 2, "queen": 1, "unicorn": 2, "farmer": 1}
    pile = [c for c, k in zip(CHARACTERS, s.pile) for _ in range(k)]
    total = 0
    for _ in range(n):
        card = rng.choice(pile)
        hand = ["king", "jester", card]
        total += max(score_pass(display, [list(p), ["king", "queen"]]).totals[0]
                     - score_pass(display, [list(p), ["king", "queen"]]).totals[1]
                     for p in combinations(hand, 2))
    exact = float(pm["unicorn", "farmer"])
    assert abs(total / n - exact) < 4 * 8 / n ** 0.5


def brute_unicorn_entry_everyone(s, other):
    """The literal Unicorn ('alle gleichzeitig'): player 1 draws, then player 2 draws (no
    replacement), then both discard at once: the value of that small zero-sum game per
    pair of draws (as the payoff matrix solves it), averaged over the draws."""
    display = {"king": 2, "queen": 1, "unicorn": 2}
    display[other] = display.get(other, 0) + 1
    keep1 = list(s.hands[1]); keep1.remove(other)
    pile = Counter({c: k for c, k in zip(CHARACTERS, s.pile) if k})
    total = sum(pile.values())
    value = F(0)
    for c1, k1 in pile.items():
        rest = pile.copy(); rest[c1] -= 1
        for c2, k2 in rest.items():
            if not k2:
                continue
            h1, h2 = ["king", "jester", c1], keep1 + [c2]
            rows = sorted(set(h1))
            cols = sorted(set(h2))
            matrix = []
            for d1 in rows:
                k1_ = list(h1); k1_.remove(d1)
                row = []
                for d2 in cols:
                    k2_ = list(h2); k2_.remove(d2)
                    t = score_pass(display, [k1_, k2_]).totals
                    row.append(F(t[0] - t[1]))
                matrix.append(row)
            # a pure saddle point or the mixed value, by brute force over 2x2 supports
            value += F(k1, total) * F(k2, total - 1) * zero_sum_value(matrix)
    return value


def zero_sum_value(m):
    """Value of the zero-sum matrix game ``m`` (row player maximises): a saddle point if
    there is one, else the solver's value, checked here to be an equilibrium (the row
    strategy guarantees ``v`` against every column, the column strategy concedes at most
    ``v`` against every row)."""
    lo = max(min(r) for r in m)
    hi = min(max(r[j] for r in m) for j in range(len(m[0])))
    if lo == hi:
        return lo
    from kingdoms.ten_characters.odds import solve_zero_sum
    x, y, v = solve_zero_sum(m)
    assert all(sum(xi * m[i][j] for i, xi in enumerate(x)) >= v for j in range(len(m[0])))
    assert all(sum(yj * m[i][j] for j, yj in enumerate(y)) <= v for i in range(len(m)))
    return v


def test_unicorn_everyone_draws_and_discards_in_the_payoff_matrix():
    # 'Einhorn: 1 Karte ziehen, 1 Handkarte abwerfen (alle gleichzeitig)': both players
    # draw and discard; the entry averages the draws and solves the discards
    s = unicorn_position("everyone")
    pm = payoff_matrix(s)
    for other in ("farmer", "queen"):
        assert pm["unicorn", other] == brute_unicorn_entry_everyone(s, other)
    assert pm["unicorn", "farmer"] != payoff_matrix(unicorn_position("own"))["unicorn", "farmer"]


def test_equilibrium_of_a_position():
    s = unicorn_position()
    eq = equilibrium(s)
    x = tuple(eq["player 1"].values())
    y = tuple(eq["player 2"].values())
    assert verify_equilibrium(eq["matrix"], x, y, eq["value"])
    assert "Unicorn" in eq["matrix"].table()


def test_payoff_matrix_refuses_other_positions():
    with pytest.raises(ValueError, match="two players"):
        payoff_matrix(game(3).position([["king"] * 3] * 3))
    with pytest.raises(ValueError, match="LAST turn"):
        payoff_matrix(game(2).position([["king"] * 4, ["queen"] * 4]))
    with pytest.raises(ValueError, match="full state"):
        payoff_matrix(plain_position().view(0))


# ------------------------------------------------------------------------ draw odds

def test_unseen_cards_brute_force():
    s = game(3).position([["king", "king", "dragon"], ["queen", "farmer", "mage"],
                          ["noble", "noble", "unicorn"]], {"dragon": 2, "king": 1})
    unseen = unseen_cards(s, 0)
    # by hand: all 100 cards minus own hand minus display
    expect = Counter({c: 10 for c in CHARACTERS})
    expect.subtract(["king", "king", "dragon", "dragon", "dragon", "king"])
    assert unseen == dict(expect) and sum(unseen.values()) == 94
    d = unicorn_draw_odds(s, 0)
    assert d["king"] == F(7, 94) and sum(d.values()) == 1
    # omniscient: the pile only (others' hands excluded)
    assert draw_odds(s)["noble"] == F(8, 88)


def test_draw_odds_against_a_seeded_simulation():
    s = game(2).position([["king"] * 4, ["queen"] * 4], {"dragon": 3})
    d = draw_odds(s)
    rng = random.Random(3)
    pile = [c for c, k in zip(CHARACTERS, s.pile) for _ in range(k)]
    n = 20000
    hits = sum(rng.choice(pile) == "king" for _ in range(n))
    p = d["king"]
    assert abs(hits / n - float(p)) < 4 * (float(p) * (1 - float(p)) / n) ** 0.5


def test_p_draw_and_p_holds_against_enumeration():
    s = game(2).position([["king", "king", "dragon"], ["jester", "jester", "queen"]], {"king": 2})
    unseen = unseen_cards(s, 0)
    cards = [c for c, k in unseen.items() for _ in range(k)]
    pairs = list(combinations(range(len(cards)), 2))
    hit = sum(1 for i, j in pairs if "jester" in (cards[i], cards[j]))
    assert p_draw_at_least(s, 0, "jester", 2) == F(hit, len(pairs))
    # player 1 cannot see player 2's hand of 3: P(at least one Jester)
    triples = sum(1 for t in combinations(range(len(cards)), 3)
                  if any(cards[i] == "jester" for i in t))
    from math import comb
    assert p_holds(s, 0, 1, "jester") == F(triples, comb(len(cards), 3))


def test_p_holds_uses_fortune_teller_knowledge():
    s = game(2).position([["fortune_teller"] * 4, ["jester", "king", "king", "queen"]])
    s = s.apply(Choose(0, "fortune_teller")).apply(Choose(1, "queen"))
    outs = dict(s.chance_outcomes())
    seen = s.apply(next(o for o in outs if o.card == "jester"))
    assert p_holds(seen, 0, 1, "jester") == 1
    assert p_holds(seen, 0, 1, "dragon") < 1


# ------------------------------------------------------------------------ marginal values

def test_marginal_values():
    d = {"farmer": 2, "knight": 2, "noble": 2}
    # a Knight makes Farmers < Knights: the Farmer card loses its 6 points
    assert marginal_values(d, "knight")["farmer"] == -6
    # a Noble makes Nobles > Farmers: the Noble card loses 8; the Mage card gains nothing (no Mage)
    mv = marginal_values(d, "noble")
    assert mv["noble"] == -8 and mv["mage"] == 0
    # a Jester in the King column counts as a King
    assert marginal_values({"king": 1}, "jester", "king")["king"] == 4
    assert card_values({"king": 2})["jester"] == 8


def test_marginal_table_and_hand_potential():
    s = plain_position()
    rows = marginal_table(s, 0)
    assert {r["card"] for r in rows} == {"dragon", "king", "noble"}
    row = next(r for r in rows if r["card"] == "dragon")
    disp = s.display_counts()
    after = dict(disp); after["dragon"] += 1
    assert row["potential"][0] == hand_potential(["king", "noble"], after) - hand_potential(
        ["dragon", "king", "noble"], disp)
    assert row["values"]["dragon"] == 4 and row["values"]["fortune_teller"] == 2
    for bad in (2, -1, "Ann", 0.0):         # players are 0 and 1: named, never an IndexError
        with pytest.raises(ValueError, match=r"marginal_table\(player\): player must be one of"):
            marginal_table(s, bad)


def test_score_calculator_on_a_state():
    s = plain_position()
    sheet = score_calculator(s, [["king", "dragon"], ["queen", "farmer"]])
    assert sheet.totals == (8 + 4, 0 + 3)   # no Queen in the display: no set


def test_two_unicorns_discard_as_a_small_simultaneous_game():
    # the reading where only the Unicorns' players draw (one draw and discard each)
    s = game(2, unicorn="own").position([["unicorn", "king", "jester"], ["unicorn", "king", "jester"]],
                         {"king": 3})
    pm = payoff_matrix(s)
    # by hand: both draw (in seat order), then both discard at once; each keeps 2 of 3
    display = {"king": 3, "unicorn": 2}
    pile = Counter({c: k for c, k in zip(CHARACTERS, s.pile) if k})
    total = sum(pile.values())
    value = F(0)
    for a, ka in pile.items():
        rest = Counter(pile); rest[a] -= 1
        for b, kb in rest.items():
            if not kb:
                continue
            p = F(ka, total) * F(kb, total - 1)
            h0, h1 = ["king", "jester", a], ["king", "jester", b]
            keeps0 = [list(k) for k in combinations(h0, 2)]
            keeps1 = [list(k) for k in combinations(h1, 2)]
            M = [[F(score_pass(display, [k0, k1]).totals[0] - score_pass(display, [k0, k1]).totals[1])
                  for k1 in keeps1] for k0 in keeps0]
            value += p * solve_zero_sum(M)[2]
    assert pm["unicorn", "unicorn"] == value


def test_earlier_turns_use_a_horizon_value():
    from kingdoms.ten_characters.odds import potential_difference
    s = game(2).position([["dragon", "king", "noble", "farmer"], ["farmer", "king", "queen", "noble"]],
                         {"king": 2, "farmer": 1, "noble": 1, "dragon": 1})
    pm = payoff_matrix(s, horizon="potential")
    base = s.display_counts()
    for r in pm.rows:
        for c in pm.cols:
            d = dict(base)
            d[r] += 1
            d[c] += 1
            h0 = list(s.hands[0]); h0.remove(r)
            h1 = list(s.hands[1]); h1.remove(c)
            assert pm[r, c] == hand_potential(h0, d) - hand_potential(h1, d)
    assert payoff_matrix(s, horizon=potential_difference).entries == pm.entries
    custom = payoff_matrix(s, horizon=lambda t: t.display_counts()["king"])
    assert custom["king", "king"] == 4 and custom["dragon", "farmer"] == 2


def test_the_module_examples_run():
    import doctest
    import kingdoms.ten_characters as tc
    assert doctest.testmod(tc).failed == 0


@pytest.mark.parametrize("call, words", [
    (lambda s: p_draw_at_least(s, 0, "King"), r"no character called 'King' \(did you mean 'king'\?\); the characters are: "),
    (lambda s: p_draw_at_least(s, 0, "Fortune Teller"), r"did you mean 'fortune_teller'"),
    (lambda s: p_holds(s, 0, 1, "qeen"), r"no character called 'qeen'"),
    (lambda s: p_holds(s, 0, 0, "queen"), r"p_holds\(target\): Player 1 knows their own hand"),
    (lambda s: p_holds(s, 0, 3, "queen"), r"p_holds\(target\): target must be one of"),
])
def test_a_wrong_character_or_target_is_named(call, words):
    """Before: a KeyError for a misspelt character, and for the player's own hand a
    probability computed as if it were hidden from them."""
    with pytest.raises(ValueError, match=words):
        call(plain_position())
