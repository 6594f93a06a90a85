"""The protocol's generic behaviour, on the test-only High Card game."""
import copy
import dataclasses
import pickle
import random
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core import CHANCE, TERMINAL, HIDDEN, IllegalAction, GameOptionError
from toygame import Deal, HighCard, Redraw, Stand


def dealt(*cards):
    s = HighCard().initial_state()
    for c in cards:
        s = s.apply(Deal(c))
    return s


def test_registry_lists_and_builds_games():
    assert "highcard" in kingdoms.games()
    assert {"horse", "woods", "black_forest", "elves", "ten_characters"} <= set(kingdoms.games())
    g = kingdoms.game("highcard", players=3)
    assert g.players == 3 and isinstance(g, HighCard)


def test_unknown_game_and_bad_options_are_explained():
    with pytest.raises(GameOptionError, match="no game called 'chess'.*highcard"):
        kingdoms.game("chess")
    with pytest.raises(GameOptionError, match=r"2-3 players; players=5"):
        kingdoms.game("highcard", players=5)
    with pytest.raises(GameOptionError, match=r"no option variant; its options are: deck="):
        kingdoms.game("highcard", variant="short")


@pytest.mark.parametrize("name", kingdoms.games())
def test_a_game_asked_for_what_a_position_has_says_to_take_a_position(name):
    """The commonest slip in a lesson, ``odds.something(game, ...)`` where a state is
    wanted, is named; every other missing attribute stays a plain AttributeError."""
    game = kingdoms.game(name)
    state = game.initial_state()
    public_field = next(f.name for f in dataclasses.fields(state)
                        if not f.name.startswith("_") and not hasattr(game, f.name))
    for word in ("unseen", "view", "legal_actions", "current_player", "game", public_field):
        with pytest.raises(AttributeError, match=r"this is the game .* not a position; "
                           f"'{word}' belongs to a position .* game\\.initial_state\\(\\)"):
            getattr(game, word)
    with pytest.raises(AttributeError, match=r"^'\w+' object has no attribute 'no_such_thing'$"):
        game.no_such_thing
    assert getattr(game, "_repr_html_", None) is None and not hasattr(game, "__wrapped__")
    assert getattr(game, "unseen", "default") == "default"
    assert copy.deepcopy(game) == game == pickle.loads(pickle.dumps(game))


def test_states_are_values():
    a = dealt(1, 3)
    b = HighCard().initial_state().apply(Deal(1)).apply(Deal(3))
    assert a == b and hash(a) == hash(b)
    assert a is not b
    # history is kept but does not take part in equality
    assert [str(x) for _, x in a.history()] == ["deal a 1", "deal a 3"]


def test_transpositions_compare_equal_whatever_the_route():
    x = dealt(3, 3).apply(Stand())
    y = HighCard().initial_state().apply(Deal(3)).apply(Deal(3)).apply(Stand())
    assert x == y and len({x, y}) == 1
    assert x.history() == y.history()


def test_apply_never_mutates_and_returns_new_state():
    s = dealt(2, 3)
    before = (s.hands, s.deck, s.to_act, s.history())
    t = s.apply(Redraw())
    assert (s.hands, s.deck, s.to_act, s.history()) == before
    assert t.current_player() == CHANCE and s.current_player() == 0


def test_whose_turn():
    s = HighCard().initial_state()
    assert s.current_player() == CHANCE and s.is_chance() and not s.is_terminal()
    s = dealt(1, 2)
    assert s.current_player() == 0
    end = s.apply(Stand()).apply(Stand())
    assert end.current_player() == TERMINAL and end.is_terminal()
    assert end.legal_actions() == ()


def test_chance_outcomes_are_exact_and_sum_to_one():
    outcomes = HighCard().initial_state().chance_outcomes()
    assert dict(outcomes) == {Deal(1): Fraction(1, 4), Deal(2): Fraction(1, 4),
                              Deal(3): Fraction(1, 2)}
    assert sum(p for _, p in outcomes) == 1
    assert all(isinstance(p, Fraction) for _, p in outcomes)


def test_chance_outcomes_only_at_chance_nodes():
    with pytest.raises(ValueError, match="chance node"):
        dealt(1, 2).chance_outcomes()


def test_illegal_action_names_the_rule_and_changes_nothing():
    s = dealt(1, 2).apply(Stand()).apply(Redraw()).apply(Deal(3))
    # deck is now [3]: one card left, so a redraw is still legal for nobody (game over)
    assert s.is_terminal()
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(Stand())
    t = dealt(3, 3)
    t = t.apply(Redraw()).apply(Deal(1))      # player 0 redraws; deck: 2
    t2 = t.apply(Redraw()).apply(Deal(2))     # player 1 redraws; deck empty
    assert t2.is_terminal()
    u = HighCard(deck=(1, 2)).initial_state().apply(Deal(1)).apply(Deal(2))
    with pytest.raises(IllegalAction, match="redraw only while the deck has cards"):
        u.apply(Redraw())
    assert u.current_player() == 0 and u.legal_actions() == (Stand(),)


def test_impossible_chance_outcome_is_rejected():
    s = HighCard(deck=(1, 2)).initial_state()
    with pytest.raises(IllegalAction, match="cannot happen"):
        s.apply(Deal(3))


def test_returns_only_at_the_end_and_ties_share():
    with pytest.raises(ValueError, match="only when the game is over"):
        dealt(1, 2).returns()
    tie = dealt(3, 3).apply(Stand()).apply(Stand())
    assert tie.returns() == (Fraction(1, 2), Fraction(1, 2))
    win = dealt(1, 3).apply(Stand()).apply(Stand())
    assert win.returns() == (0, 1)


def test_view_hides_what_a_player_cannot_see():
    s = dealt(1, 3)
    assert s.view(0).hands == (1, HIDDEN)
    assert s.view(1).hands == (HIDDEN, 3)
    assert "3" not in str(s.view(0)).split("deck")[0].replace("Player 2: ?", "")
    assert Deal(3).seen_by(0) == Deal(HIDDEN)


def test_sample_chance_uses_the_given_rng():
    s = HighCard().initial_state()
    a = [s.sample_chance(random.Random(7)) for _ in range(3)]
    assert len(set(a)) == 1
    draws = [s.sample_chance(random.Random(i)) for i in range(2000)]
    share = draws.count(Deal(3)) / len(draws)
    assert abs(share - 0.5) < 4 * (0.25 / 2000) ** 0.5


def test_path_and_root():
    s = dealt(1, 2).apply(Stand())
    assert len(s.path()) == 4 and s.root() == HighCard().initial_state()


def test_render_text_and_html():
    s = dealt(1, 2)
    assert "Player 1 to act" in str(s)
    assert s._repr_html_().startswith("<pre>")


def test_history_as_a_player_saw_it():
    s = dealt(1, 3).apply(Stand())
    assert s.history(0)[0] == (CHANCE, Deal(HIDDEN))
    assert s.history()[0] == (CHANCE, Deal(1))
    assert s.view(0).history() == ()


def test_replace_copies_a_state_like_dataclasses_replace_without_route_or_caches():
    import dataclasses
    from kingdoms.core import replace
    s = kingdoms.game("highcard").initial_state()
    s = s.apply(s.legal_actions()[0])
    s.legal_actions()                                   # fills the per-state cache
    field = next(f.name for f in dataclasses.fields(s) if f.init and f.name != "game")
    value = getattr(s, field)
    fast, slow = replace(s, **{field: value}), dataclasses.replace(s, **{field: value})
    assert fast == slow == s and hash(fast) == hash(s) and type(fast) is type(s)
    assert fast._prev is None and fast._last is None and fast.history() == ()
    assert fast.__dict__["_la"] is None and s.__dict__["_la"] is not None
    with pytest.raises(TypeError, match="has no field 'nonsense'"):
        replace(s, nonsense=1)


def test_replace_runs_post_init_where_a_class_has_one():
    import dataclasses
    from kingdoms.core import replace

    @dataclasses.dataclass(frozen=True)
    class Checked:
        n: int

        def __post_init__(self):
            if self.n < 0:
                raise ValueError("n must not be negative")

    assert replace(Checked(1), n=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), n=-1)


# ---- apply refuses every malformed action with IllegalAction (issue 17, "Actions")

def test_apply_none_at_a_chance_node_is_checked_not_skipped():
    s = HighCard().initial_state()               # nothing sampled here yet
    with pytest.raises(IllegalAction, match="None cannot happen"):
        s.apply(None)
    assert s.history() == () and s.current_player() == CHANCE
    s.sample_chance(random.Random(1))            # after a draw too
    with pytest.raises(IllegalAction):
        s.apply(None)


def test_an_object_equal_to_everything_is_not_a_legal_action():
    from unittest.mock import ANY
    with pytest.raises(IllegalAction, match="may not do that"):
        dealt(1, 2).apply(ANY)
    with pytest.raises(IllegalAction, match="cannot happen"):
        HighCard().initial_state().apply(ANY)


def test_apply_continues_with_the_games_own_equal_action():
    s0 = HighCard().initial_state()
    own = next(o for o in s0.legal_actions() if o == Deal(1))
    s = s0.apply(Deal(1))                                  # equal, not the same object
    assert s.history() == ((CHANCE, Deal(1)),)
    assert s.history()[0][1] is own


def test_a_field_of_another_type_is_not_the_same_action():
    """Deal(True) == Deal(1) in Python, but a bool is not a card: refused."""
    with pytest.raises(IllegalAction):
        HighCard().initial_state().apply(Deal(True))


def test_a_malformed_action_whose_text_crashes_still_gives_illegal_action():
    from dataclasses import dataclass
    from kingdoms.core.protocol import Action

    @dataclass(frozen=True)
    class Broken(Action, record_name="test/Broken"):
        n: object

        def __str__(self):
            return {"a": 1}[self.n]                      # KeyError on a typo

        def __eq__(self, other):
            raise TypeError("cannot compare")

        __hash__ = object.__hash__

    s = dealt(1, 2)
    with pytest.raises(IllegalAction, match="Broken with malformed fields"):
        s.apply(Broken("typo"))
    with pytest.raises(IllegalAction, match="Broken with malformed fields"):
        HighCard().initial_state().apply(Broken("typo"))
    assert s.current_player() == 0 and len(s.history()) == 2


def test_a_why_illegal_that_crashes_on_a_malformed_action_gives_illegal_action(monkeypatch):
    from toygame import HighCardState

    def crash(self, action):
        return action.card + 1                           # AttributeError on Stand-likes
    monkeypatch.setattr(HighCardState, "_why_illegal", crash)
    with pytest.raises(IllegalAction, match="not allowed now"):
        dealt(1, 2).apply("stand")


@pytest.mark.parametrize("player", [-1, 2, 5, True, "0", None, 0.0])
def test_view_of_a_player_out_of_range_is_an_error(player):
    s = dealt(1, 2)
    with pytest.raises(ValueError, match=r"player must be one of 0 \(Player 1\), 1 \(Player 2\)"):
        s.view(player)
    # the check also guards games that do not override view
    from kingdoms.core.protocol import State
    with pytest.raises(ValueError, match="player must be one of"):
        State.view(s, player)


# ---- options are checked against their declared types (issue 17, "Other") ------------

from dataclasses import dataclass as _dataclass
from kingdoms.core.protocol import Game as _Game


@_dataclass(frozen=True)
class Optioned(_Game):
    name = "optioned"
    title = "Optioned"
    min_players = 1
    max_players = 4
    players: int = 2
    easy: bool = False
    mode: str = "points"
    limit: int | None = None
    rate: float = 0.5
    player_names: tuple = ()
    data: str | None = None


@pytest.mark.parametrize("options, message", [
    ({"easy": "no"}, r"option easy is True or False, not 'no'"),
    ({"easy": 0}, r"option easy is True or False, not 0"),
    ({"players": True}, r"players=True is not allowed"),
    ({"players": 2.0}, r"players=2.0 is not allowed"),
    ({"player_names": "AB"}, r"option player_names is a list of 2 names"),
    ({"player_names": ("A", "B", "C")}, r"option player_names is a list of 2 names"),
    ({"player_names": ("A", 2)}, r"option player_names is a list of 2 names"),
    ({"data": 5}, r"option data is None, the path of a data file \(str or Path\) or a GameData, not 5"),
    ({"mode": 3}, r"option mode is a text, not 3"),
    ({"limit": "3"}, r"option limit is a whole number or None, not '3'"),
    ({"limit": True}, r"option limit is a whole number or None"),
    ({"rate": "x"}, r"option rate is a number"),
])
def test_options_of_the_wrong_type_are_refused(options, message):
    with pytest.raises(GameOptionError, match=message):
        Optioned.create(**{"players": 2, **options})
    with pytest.raises(GameOptionError, match=message):
        Optioned(**options)                                      # also built directly


def test_well_typed_options_are_kept_and_lists_become_tuples():
    from pathlib import Path
    from kingdoms.core.data import GameData
    g = Optioned.create(players=2, player_names=["Ann", "Bo"], limit=3, rate=1, data=Path("x"))
    assert g.player_names == ("Ann", "Bo") and g.limit == 3 and g.data == Path("x")
    assert Optioned(data=GameData.from_toml("x = 1")).data.get("x", int) == 1
    assert HighCard(deck=[1, 2, 3]).deck == (1, 2, 3)
    with pytest.raises(GameOptionError, match="option deck is a list"):
        HighCard(deck="123")
    with pytest.raises(GameOptionError, match="option deck is a list"):
        HighCard(deck=(1, "2"))


def test_check_name_names_the_choices_and_hints_at_a_case_slip():
    from kingdoms.core.protocol import check_name
    names = ("Fool", "Fortune Teller", "Knight")
    assert check_name("Knight", names, "card") == "Knight"
    with pytest.raises(ValueError, match=r"^no card called 'fool' \(did you mean 'Fool'\?\); "
                                         r"the cards are: Fool, Fortune Teller, Knight$"):
        check_name("fool", names, "card")
    with pytest.raises(ValueError, match=r"did you mean 'Fortune Teller'"):
        check_name("fortune_teller", names, "card")
    for bad in ("Kniht", None, 3, ["Knight"]):
        with pytest.raises(ValueError, match=r"no card called .*; the cards are"):
            check_name(bad, names, "card")


def test_check_count_and_check_player_say_what_is_wanted():
    from kingdoms.core.protocol import check_count, check_player
    assert check_count(3, "rerolls", 0, 10) == 3
    for bad in (-1, 11, 2.0, True, "2"):
        with pytest.raises(ValueError, match=r"^rerolls must be a whole number from 0 to 10; not "):
            check_count(bad, "rerolls", 0, 10)
    with pytest.raises(ValueError, match=r"^n must be a whole number of at least 1; not 0$"):
        check_count(0, "n", 1)
    game = kingdoms.game("highcard")
    assert check_player(game, 1, "p_holds", "target", other_than=0) == 1
    with pytest.raises(ValueError, match=r"^p_holds\(target\): target must be one of 0 \(Player 1\)"):
        check_player(game, 5, "p_holds", "target")
    with pytest.raises(ValueError, match=r"^p_holds\(target\): Player 1 knows their own hand"):
        check_player(game, 0, "p_holds", "target", other_than=0)
