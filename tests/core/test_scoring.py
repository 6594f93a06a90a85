from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.scoring import best_players, win_shares, with_margins


def test_best_players_and_shares():
    assert best_players((3, 5, 5)) == (1, 2)
    assert best_players(((3, 1), (3, 2), (2, 9))) == (1,)      # tie broken by the second value
    assert win_shares((1, 2), 3) == (0, Fraction(1, 2), Fraction(1, 2))
    assert sum(win_shares(range(4), 4)) == 1
    with pytest.raises(ValueError):
        win_shares((), 2)


def test_margins_only_for_two_players():
    pts = lambda s: s
    assert set(with_margins(3, {"points": pts})) == {"points"}
    two = with_margins(2, {"points": pts, "gold": pts})
    assert list(two) == ["points", "gold", "points margin", "gold margin"]
    assert two["points margin"]((7, 3)) == (4, -4)


@pytest.mark.parametrize("name", ["woods", "black_forest", "ten_characters"])
def test_games_offer_the_share_of_the_win_points_and_the_margin(name):
    game = kingdoms.game(name, players=2)
    assert list(game.objectives())[:2] == ["share of the win", "points"]
    assert "points margin" in game.objectives()
    assert "points margin" not in kingdoms.game(name, players=3).objectives()
