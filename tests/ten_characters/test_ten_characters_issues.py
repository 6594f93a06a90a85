"""Ten Characters: the Unicorn's literal rule (issue 13), hidden information, bad
actions, data validation, named players and the game's own players (issues 11, 17)."""
from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from types import MappingProxyType
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import kingdoms
from kingdoms.core import IllegalAction
from kingdoms.core.data import DataError
from kingdoms.core.play import game_rng, play_state, random_policy
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL, GameOptionError
from kingdoms.ten_characters import (Choose, DealCard, Discard, JesterTo, KnightRemove,
                                     MageRemove, PeekAt, PeekCard, UnicornDraw, score_card,
                                     score_pass)
from kingdoms.ten_characters.rules import CI, RANGES, UNICORN_READINGS, Effect, UnicornDraws
from kingdoms.ten_characters.policies import STRATEGIES

DATA = Path(kingdoms.__file__).parent / "ten_characters" / "data.toml"


def game(n=2, **kw):
    return kingdoms.game("ten_characters", players=n, **kw)


def choose_all(state, cards):
    for p, c in enumerate(cards):
        state = state.apply(Choose(p, c))
    return state


def playout_states(g, seed, policy=random_policy):
    """Every state of one seeded game."""
    return play_state(g, policy, rng=game_rng("tc-issues", seed)).path()


# ------------------------------------------------------------ the Unicorn (issue 13)

def test_unicorn_alle_gleichzeitig_everyone_draws_one_and_discards_one():
    # "Einhorn: 1 Karte ziehen, 1 Handkarte abwerfen (alle gleichzeitig)"
    g = game(3)
    assert g.unicorn == "everyone"
    s = g.position([["unicorn", "king", "king", "mage"], ["farmer", "queen", "queen", "noble"],
                    ["queen", "dragon", "dragon", "knight"]])
    s = choose_all(s, ["unicorn", "farmer", "queen"])
    sizes = tuple(len(h) for h in s.hands)
    assert s.current_player() == CHANCE and isinstance(s.step, UnicornDraws)
    # everyone draws, one by one, from the Unicorn's player on
    for p, card in ((0, "dragon"), (1, "jester"), (2, "noble")):
        assert {o.player for o in s.legal_actions()} == {p}
        s = s.apply(UnicornDraw(p, card))
    assert tuple(len(h) for h in s.hands) == tuple(k + 1 for k in sizes)
    # everyone discards one card face down; nobody sees an earlier choice
    s = s.apply(Discard(0, "dragon"))
    assert s.current_player() == 1
    v = s.view(1)
    assert v.discarding[0] is HIDDEN and "Dragon" not in str(v).split("Display")[1]
    assert v.legal_actions() == s.legal_actions()
    s = s.apply(Discard(1, "jester"))
    assert s.current_player() == 2 and s.view(2).discarding[:2] == (HIDDEN, HIDDEN)
    assert sum(s.discard) == 0                          # not revealed before all chose
    s = s.apply(Discard(2, "knight"))
    # revealed together
    assert s.discard[CI["dragon"]] == s.discard[CI["jester"]] == s.discard[CI["knight"]] == 1
    assert tuple(len(h) for h in s.hands) == sizes
    assert s.display_counts()["unicorn"] == 1 and s.card_count() == 100


def test_unicorn_alle_gleichzeitig_each_unicorn_makes_everyone_draw_and_discard():
    s = game(2).position([["unicorn", "king", "king"], ["unicorn", "queen", "queen"]])
    s = choose_all(s, ["unicorn", "unicorn"])
    draws = discards = 0
    while s.current_player() != TERMINAL and isinstance(s.step, Effect):
        a = s.legal_actions()[0]
        draws += isinstance(a, UnicornDraw)
        discards += isinstance(a, Discard)
        s = s.apply(a)
    assert (draws, discards) == (4, 4)          # two Unicorns, each: both draw and discard
    assert s.display_counts()["unicorn"] == 2


def test_unicorn_own_reading_is_a_documented_option():
    assert set(UNICORN_READINGS) == {"everyone", "own"}
    assert "unicorn" in kingdoms.game_class("ten_characters").__doc__
    g = game(3, unicorn="own")
    s = g.position([["unicorn", "king", "king", "mage"], ["farmer"] * 4, ["queen"] * 4])
    s = choose_all(s, ["unicorn", "farmer", "queen"])
    assert s.step == UnicornDraws((0,), (0,))
    s = s.apply(UnicornDraw(0, "noble"))
    assert s.current_player() == 0 and Discard(0, "king") in s.legal_actions()
    s = s.apply(Discard(0, "noble"))
    assert [len(h) for h in s.hands] == [3, 3, 3]
    assert g.config()["unicorn"] == "own"
    for bad in ("all", None, 1, "Everyone"):
        with pytest.raises(GameOptionError, match="unicorn"):
            game(3, unicorn=bad)
    with pytest.raises(GameOptionError, match="'everyone', 'own'"):
        game(3, unicorn="all")


def test_unicorn_readings_both_play_to_the_end_and_conserve_cards():
    for reading in UNICORN_READINGS:
        for seed in range(3):
            states = playout_states(game(4, unicorn=reading), seed)
            assert states[-1].is_terminal() and states[-1].unfinished() is None
            assert all(s.card_count() == 100 for s in states)


# ------------------------------------------------------------ small defects (issue 13)

@pytest.mark.parametrize("players", [2, 3, 5])
def test_resolution_order_works_on_every_state_reached_in_play(players):
    g = game(players)
    for seed in range(2):
        for s in playout_states(g, seed):
            order = s.resolution_order()
            if any(c is None for c in s.revealed):
                assert order == ()
                continue
            assert sorted(order) == sorted(enumerate(s.revealed))
            ini = [g.initiative[CI[c]] for _, c in order]
            assert ini == sorted(ini)
            if isinstance(s.step, Effect) and s.queue:
                assert order[-len(s.queue):] == s.queue     # what is left goes in last


def test_scoring_rejects_a_jester_column_and_unknown_characters():
    full = {c: 1 for c in ("fortune_teller", "dragon", "mage", "noble", "farmer", "knight",
                           "unicorn", "queen", "king")}
    with_jester = dict(full, jester=3)
    swapped = dict(full, jester=3)
    del swapped["farmer"]
    for counts in (with_jester, swapped, {"jester": 1}, {"Farmer": 2}):
        with pytest.raises(ValueError, match="no display column"):
            score_card("farmer", counts)
        with pytest.raises(ValueError, match="no display column"):
            score_pass(counts, [["farmer", "king"]])
    with pytest.raises(ValueError, match="unknown character 'Farmer'"):
        score_card("Farmer", full)
    with pytest.raises(ValueError, match="unknown character 'jokerr'"):
        score_card("king", full, others=["jokerr"])
    with pytest.raises(ValueError, match="unknown character 'wizard'"):
        score_pass(full, [["king", "wizard"]])
    for bad in (2.5, True, "2", -1, None):
        with pytest.raises(ValueError):
            score_card("king", {"king": bad})
    with pytest.raises(ValueError, match="missing: .*jester"):
        score_pass(full, [["king"]], points={c: 1 for c in full})
    with pytest.raises(ValueError, match="unknown: 'joker'"):
        score_pass(full, [["king"]], points=dict({c: 1 for c in full}, jester=1, joker=2))
    # missing columns are empty (documented), and the right numbers still score
    assert score_pass({"dragon": 2, "king": 3}, [["dragon", "king"], ["jester", "queen"]]).totals == (8, 12)


# ------------------------------------------------------------ hidden information (issue 17)

def test_fortune_teller_knowledge_hidden_from_bystanders_even_its_count():
    s = game(3).position([["fortune_teller", "king", "king", "mage"],
                          ["dragon", "dragon", "noble", "farmer"],
                          ["queen", "queen", "queen", "queen"]])
    before = s.view(2).known
    s = choose_all(s, ["fortune_teller", "farmer", "queen"]).apply(PeekAt(0, 1))
    s = s.apply(PeekCard(0, 1, "dragon"))
    assert s.view(0).known[0][1] == s.view(1).known[0][1] == ("dragon",)
    assert s.view(2).known == before                       # nothing, not even a count
    t = choose_all(s, ["king", "dragon", "queen"])          # the seen card is played
    assert t.known[0][1] == () and t.view(2).known == before
    assert "holds Dragon" in str(s.view(0)) and "Player 2: Dragon" in s.view(0)._repr_html_()
    assert "holds" not in str(s.view(2)) and "Player 2: Dragon" not in s.view(2)._repr_html_()


def test_views_never_show_what_the_player_may_not_see():
    for players in (2, 3):
        for s in playout_states(game(players), 1):
            for p in range(players):
                v = s.view(p)
                for q in range(players):
                    if q != p:
                        assert set(v.hands[q]) <= {HIDDEN}
                        assert v.chosen[q] in (None, HIDDEN)
                        assert v.discarding[q] in (None, HIDDEN)
                        for t in range(players):
                            if p not in (q, t):
                                assert v.known[q][t] == ()
                assert v.pile is HIDDEN
                assert v.view(p) == v                 # a view of a view hides nothing more
                str(v)
                v._repr_html_()


def test_view_of_a_seat_outside_the_game_is_an_error():
    s = game(3).initial_state()
    assert s.current_player() == CHANCE
    for bad in (s.current_player(), -1, 3, 10, True, "0", None, 1.0):
        with pytest.raises(ValueError, match="player must be"):
            s.view(bad)


def test_view_lists_the_same_actions_at_every_decision():
    for players in (2, 4):
        for seed in range(2):
            for s in playout_states(game(players), seed):
                cp = s.current_player()
                if cp >= 0:
                    assert s.view(cp).legal_actions() == s.legal_actions()


# ------------------------------------------------------------ bad actions (issue 17)

def malformed_actions(s):
    yield None
    yield mock.ANY
    yield object()
    yield "Choose(0, 'king')"
    yield Choose(0, "Farmer")
    yield Choose("0", "king")
    yield Choose(0.0, "king")
    yield Choose(True, "king")
    yield Choose(0, mock.ANY)
    yield Choose(mock.ANY, "king")
    yield Choose(0, None)
    yield Choose(-1, "king")
    yield KnightRemove(0, 1)
    yield KnightRemove(0, "yes")
    yield MageRemove(0, "Farmer")
    yield MageRemove(0, mock.ANY)
    yield JesterTo(0, "jester")
    yield PeekAt(0, "1")
    yield Discard(0, "Farmer")
    yield DealCard(0, "Farmer")
    yield DealCard(0, mock.ANY)
    yield UnicornDraw(0, "wizard")
    yield PeekCard(0, 1, mock.ANY)
    for a in s.legal_actions()[:3]:
        for f in dataclasses.fields(a):
            for v in (None, mock.ANY, "x", 1.5, (), str(getattr(a, f.name)).upper()):
                yield dataclasses.replace(a, **{f.name: v})


def test_bad_actions_are_illegal_actions_and_change_nothing():
    g = game(3)
    for s in playout_states(g, 0)[::7]:
        if s.is_terminal():
            continue
        for a in malformed_actions(s):
            text = str(a)                     # never raises, even for bad fields
            assert isinstance(text, str)
            snapshot = (tuple(getattr(s, f.name) for f in dataclasses.fields(s)), hash(s))
            if any(type(b) is type(a) and repr(b) == repr(a) for b in s.legal_actions()):
                continue                      # a mutation that happens to be legal
            try:
                s.apply(a)
            except IllegalAction as e:
                assert str(e)
            else:
                raise AssertionError(f"{a!r} was accepted at {s.short()}")
            assert (tuple(getattr(s, f.name) for f in dataclasses.fields(s)), hash(s)) == snapshot


def test_choose_with_a_typo_names_the_problem():
    s = game(2).position([["king"] * 3, ["queen"] * 3])
    assert str(Choose(0, "Farmer")) == "Player 1 chooses 'Farmer' (not a character) face down"
    with pytest.raises(IllegalAction, match="no 'Farmer'"):
        s.apply(Choose(0, "Farmer"))
    with pytest.raises(IllegalAction):
        s.apply(None)
    # at a chance node too (apply(None) used to skip the check)
    t = game(2).initial_state()
    with pytest.raises(IllegalAction, match="cannot happen"):
        t.apply(None)
    with pytest.raises(IllegalAction, match="cannot happen"):
        t.apply(mock.ANY)
    with pytest.raises(IllegalAction, match="game is over"):
        play_state(game(2), random_policy, seed=1).apply(None)


def test_an_equal_action_made_by_hand_is_applied_as_the_games_own():
    s = game(2).position([["king"] * 3, ["queen"] * 3])
    t = s.apply(Choose(0, "king"))
    assert t.history()[-1][1] is s.legal_actions()[0]


# ------------------------------------------------------------ data validation (issue 17)

NUMBERS = {  # the data file's numbers: (text in the file, key named in the error, range key)
    "passes = 3": ("game.passes", "game.passes"),
    "scoring_cards = 2": ("game.scoring_cards", "game.scoring_cards"),
    "hand_size = 6": ("game.hand_size", "game.hand_size"),
    "hand_size_two_players = 8": ("game.hand_size_two_players", "game.hand_size_two_players"),
    "min_players = 2": ("game.min_players", "game.min_players"),
    "max_players = 5": ("game.max_players", "game.max_players"),
    "copies = 10": ("characters.0.copies", "characters.copies"),
    "initiative = 1": ("characters.0.initiative", "characters.initiative"),
    "points = 2": ("characters.0.points", "characters.points"),
}


def edited(tmp_path, old, new):
    text = DATA.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"edited{abs(hash((old, new)))}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("line", list(NUMBERS))
def test_data_numbers_out_of_range_name_the_key_and_range(tmp_path, line):
    key, rkey = NUMBERS[line]
    lo, hi = RANGES[rkey]
    name = line.split(" = ")[0]
    for bad in (lo - 1, hi + 1, 10 ** 9, -(10 ** 9), '"3"', "3.0", "true", "[3]"):
        path = edited(tmp_path, line, f"{name} = {bad}")
        with pytest.raises(DataError, match=re.escape(key)) as e:
            game(3, data=path)
        if isinstance(bad, int):
            assert f"from {lo} to {hi}" in str(e.value)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.sampled_from(list(NUMBERS)), value=st.integers(-10 ** 12, 10 ** 12),
       players=st.integers(2, 5))
def test_fuzzed_data_files_are_refused_clearly_or_play_to_the_end(tmp_path, line, value, players):
    key, rkey = NUMBERS[line]
    lo, hi = RANGES[rkey]
    path = edited(tmp_path, line, f"{line.split(' = ')[0]} = {value}")
    try:
        g = game(players, data=path)
    except (DataError, GameOptionError) as e:
        assert "should" in str(e) or "allows" in str(e) or "need" in str(e)
        return
    assert lo <= value <= hi
    s = play_state(g, random_policy, rng=random.Random(value))
    assert s.is_terminal() and s.unfinished() is None
    assert len(s.history()) < 20_000


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(passes=st.integers(1, 10), keep=st.integers(1, 5), hand=st.integers(2, 20),
       copies=st.integers(0, 30))
def test_extreme_but_valid_data_plays_to_the_end(tmp_path, passes, keep, hand, copies):
    text = DATA.read_text(encoding="utf-8")
    text = (text.replace("passes = 3", f"passes = {passes}")
            .replace("scoring_cards = 2", f"scoring_cards = {keep}")
            .replace("hand_size = 6", f"hand_size = {hand}")
            .replace("hand_size_two_players = 8", f"hand_size_two_players = {hand}")
            .replace("copies = 10", f"copies = {copies}"))
    path = tmp_path / "extreme.toml"
    path.write_text(text, encoding="utf-8")
    try:
        g = game(2, data=str(path))
    except DataError as e:
        assert "should be larger" in str(e) or "need" in str(e)
        return
    s = play_state(g, random_policy, rng=random.Random(passes * 1000 + hand))
    assert s.is_terminal() and s.unfinished() is None
    assert s.card_count() == sum(g.copies)


def reachable(obj, seen=None, depth=0):
    """Every object reachable from ``obj`` through attributes and containers."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 12 or isinstance(obj, (type, str, int, float, bytes)) \
            or callable(obj) and not dataclasses.is_dataclass(obj):
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, (dict, MappingProxyType)):
        children = list(obj.keys()) + list(obj.values())
    elif isinstance(obj, (list, tuple, set, frozenset)):
        children = list(obj)
    else:
        children = list(getattr(obj, "__dict__", {}).values())
    for c in children:
        yield from reachable(c, seen, depth + 1)


def test_the_game_object_is_deeply_immutable():
    g = game(3)
    bad = [type(o).__name__ for o in reachable(g)
           if isinstance(o, (dict, list, set, bytearray)) and not isinstance(o, MappingProxyType)]
    assert bad == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.players = 4
    with pytest.raises(TypeError):
        g.points["king"] = 100


# ------------------------------------------------------------ players (issues 11, 13)

def test_hidden_information_and_the_games_own_players():
    g = game(3)
    assert type(g).hidden_information is True
    pols = g.policies()
    # the core's players first (random, mcts: this game's own settings), then the
    # game's own heuristics
    core = kingdoms.core.protocol.CORE_PLAYERS
    assert list(pols) == list(core) + ["hold back", "greedy"]
    assert set(STRATEGIES) <= set(pols) and pols["random"] is random_policy
    assert all(pols[k] is v for k, v in STRATEGIES.items())
    defaults = g.default_policies()
    assert len(defaults) == 3 and all(p in pols.values() for p in defaults)
    for seed in range(2):
        end = play_state(g, seed=seed)                 # the default players, given views
        assert end.is_terminal() and end.unfinished() is None
        assert sum(end.returns()) == 1


def test_players_are_named_from_one_everywhere_a_person_reads():
    g = game(3)
    end = play_state(g, random_policy, rng=game_rng("names", 3))
    texts = [str(a) for _, a in end.history()] + [str(a) for p in range(3)
                                                 for _, a in end.history(p)]
    texts += [str(s) for s in end.path()[::9]] + [s._repr_html_() for s in end.path()[::9]]
    texts += [str(g.score(end.display_counts(), end.scoring_log[-1][1]))]
    for t in texts:
        assert "Player 0" not in t and "Player 4" not in t, t
        assert not re.search(r"\bP0\b|\bplayer [0-9]\b", t), t
    names = {m for t in texts for m in re.findall(r"Player \d", t)}
    assert names == {"Player 1", "Player 2", "Player 3"}


def test_a_views_hidden_draw_pile_gives_a_clear_error_not_a_crash():
    v = game(2).initial_state().view(0)
    with pytest.raises(ValueError, match="draw pile is hidden"):
        v.chance_outcomes()
    assert "Dealing pass 1" in str(v)


def test_hidden_discard_pile_a_view_of_a_view_keeps_it_hidden(tmp_path):
    """discards_public = false (an assumption's other reading): the default players
    look at views of views; the hidden discard pile stays hidden and play ends."""
    import re
    from importlib import resources
    from kingdoms.core import play
    text = resources.files("kingdoms.ten_characters").joinpath("data.toml").read_text()
    edited = re.sub(r"(?m)^discards_public\s*=\s*true", "discards_public = false", text)
    assert edited != text
    path = tmp_path / "hidden-discards.toml"
    path.write_text(edited)
    game = kingdoms.game("ten_characters", players=3, data=str(path))
    record = play(game, seed=1)
    assert record.replay().is_terminal()


def test_the_search_guesses_an_unknown_opponent_as_greedy_or_random():
    """``mcts`` (and ``mcts-strong``, which adopts its settings) plays out, and guesses
    the other players' hidden picks, with ``greedy_or_random``: ``greedy``'s move, or
    with probability ``UNSURE`` a random legal move."""
    import random as _random
    from kingdoms.ten_characters import policies as pol
    game = kingdoms.game("ten_characters", players=2)
    assert game.policies()["mcts"].rollout is pol.greedy_or_random
    assert "greedy or random rollouts" in str(game.policies()["mcts"])
    state = game.initial_state()
    while state.is_chance():
        state = state.apply(state.sample_chance(_random.Random(2)))
    rng = _random.Random(5)
    greedy = pol.greedy_policy(state, _random.Random(0))
    assert len(set(state.legal_actions())) > 1
    picks = [pol.greedy_or_random(state, rng) for _ in range(2000)]
    assert all(p in state.legal_actions() for p in picks)
    others = sum(p != greedy for p in picks) / len(picks)
    # a random move is greedy's own one time in len(legal): the rest differ
    expected = pol.UNSURE * (1 - 1 / len(state.legal_actions()))
    assert abs(others - expected) < 0.04
