"""King of the Woods: contested readings as options (issue 13), robustness and hidden
information (issue 17), data validation, named players (issue 11)."""
from __future__ import annotations

import dataclasses
import random
import re
import unittest.mock
from collections import Counter
from fractions import Fraction
from importlib import resources
from types import FunctionType, MappingProxyType, ModuleType

import pytest

import kingdoms
from kingdoms.core.data import DataError
from kingdoms.core.protocol import CHANCE, TERMINAL, IllegalAction, TooManyOutcomes
from kingdoms.woods import (DECISIONS, OPTIONS, Cover, Deal, KnightPass, KnightTake, Play,
                            PriestExtra, PriestTakeBack, ScholarPass, ScholarTake,
                            TraderGive, TraderReturn, TreasurerDraw, Woods)
from kingdoms.woods import rules as woods_rules
from kingdoms.woods.rules import (Playing, DEALING, KnightLooking, PriestAdding, PriestTakingBack,
                                  TraderGiving, TraderReturning)
from kingdoms.woods.policies import fool_aware_policy, greedy_policy

G3 = Woods(players=3)
G3_ALT = Woods(players=3, priest_extra_ability=False, trader_fallback_received=False)


def pos(hands, courts=None, game=G3, **kw):
    return game.position(hands=hands, courts=courts, **kw)


def playout(game, seed, policy=None, view=False):
    """Every state of one seeded game (random players unless ``policy``)."""
    rng = random.Random(seed)
    s = game.initial_state()
    states = [s]
    while not s.is_terminal():
        cp = s.current_player()
        if cp == CHANCE:
            a = s.sample_chance(rng)
        elif policy is None:
            a = rng.choice(s.legal_actions())
        else:
            a = policy(s.view(cp) if view else s, rng)
        s = s.apply(a)
        states.append(s)
    return states


# ----------------------------------------------------------------------------- Priest

def test_priest_further_card_is_played_its_ability_carried_out_when_a_card_is_played():
    """Default (literal): the further card's ability is carried out, then the take-back."""
    s = pos([["Priest", "Knight", "Fool"], ["Guard", "General"], ["Fool"]],
            courts=[[], ["Trader", "Squire"], []])
    t = s.apply(Play("Priest", 1)).apply(PriestExtra("Knight", 1))
    assert t.step == KnightLooking(1) and t.known[0][1] == ("General", "Guard")
    u = t.apply(KnightTake("General", 0, 1))
    # then the Priest's take-back: lower than the Knight, not the Priest
    assert isinstance(u.step, PriestTakingBack) and u.current_player() == 0
    assert set(u.legal_actions()) == {PriestTakeBack("Trader", 1), PriestTakeBack("Squire", 1)}
    v = u.apply(PriestTakeBack("Squire", 1))
    assert v.hands[0] == ("Fool", "General", "Squire") and v.hands[1] == ("Guard",)
    assert v.courts[1] == (("Trader",), ("Priest",), ("Knight",)) and v.turn == 1
    assert sum(v.cards().values()) == len(G3.deck)


def test_priest_further_treasurer_draws_then_take_back():
    s = pos([["Priest", "Treasurer", "Fool"], ["Guard", "General"], ["Fool"]],
            courts=[[], ["Trader"], []])
    t = s.apply(Play("Priest", 1)).apply(PriestExtra("Treasurer", 1))
    assert t.current_player() == CHANCE
    assert dict(t.chance_outcomes()) == {TreasurerDraw("General", 0, 1): Fraction(1, 2),
                                         TreasurerDraw("Guard", 0, 1): Fraction(1, 2)}
    u = t.apply(TreasurerDraw("Guard", 0, 1))
    # the take-back's single option (public: the Trader) is carried out at once
    assert isinstance(u.step, Playing) and u.turn == 1
    assert u.hands[0] == ("Fool", "Guard", "Trader") and u.courts[1] == (("Priest",), ("Treasurer",))


def test_priest_as_the_further_card_opens_its_own_further_card_first():
    s = pos([["Priest", "Priest", "Knight", "Fool"], ["Guard"], ["Fool"]],
            courts=[["Trader", "Guard"], [], []])
    t = s.apply(Play("Priest", 0)).apply(PriestExtra("Priest", 0))
    assert t.step == PriestAdding(0, 3)
    u = t.apply(PriestExtra("Knight", 0))        # own court: the Knight's intrigue is idle
    # the second Priest's take-back (lower than the Knight): neither Priest of this turn
    assert set(u.legal_actions()) == {PriestTakeBack("Trader", 0), PriestTakeBack("Guard", 0)}
    v = u.apply(PriestTakeBack("Guard", 0))
    # the first Priest's take-back (lower than a Priest, 3): the Trader, taken at once
    assert isinstance(v.step, Playing) and v.turn == 1
    assert v.hands[0] == ("Fool", "Guard", "Trader")
    assert v.courts[0] == (("Priest",), ("Priest",), ("Knight",))


def test_priest_further_scholar_may_take_the_priest_itself():
    s = pos([["Priest", "Scholar", "Fool"], ["Guard"], ["Fool"]],
            courts=[[], ["Trader", "Knight"], []])
    t = s.apply(Play("Priest", 1)).apply(PriestExtra("Scholar", 1))
    assert set(t.legal_actions()) == {ScholarTake("Trader", 1), ScholarTake("Priest", 1),
                                      ScholarPass()}
    u = t.apply(ScholarTake("Priest", 1))
    # the Priest left the court; the take-back (lower than the Scholar) is the Trader
    assert isinstance(u.step, Playing) and u.hands[0] == ("Fool", "Priest", "Trader")
    assert u.courts[1] == (("Knight",), ("Scholar",))


def test_priest_further_assassin_covers_and_nothing_is_lower_than_her():
    s = pos([["Priest", "Assassin", "Fool"], ["Guard"], ["Fool"]],
            courts=[[], ["Knight", "Guard"], []])
    t = s.apply(Play("Priest", 1)).apply(PriestExtra("Assassin", 1))
    # a Guard is there: the single (public) option is carried out; nothing is below 0
    assert isinstance(t.step, Playing) and t.turn == 1
    assert t.courts[1] == (("Knight",), ("Guard", "Assassin"), ("Priest",))


def test_priest_further_card_other_reading_adds_only_its_influence():
    s = pos([["Priest", "Knight", "Fool"], ["Guard", "General"], ["Fool"]],
            courts=[[], ["Trader", "Squire"], []], game=G3_ALT)
    u = s.apply(Play("Priest", 1)).apply(PriestExtra("Knight", 1))
    assert isinstance(u.step, PriestTakingBack) and u.hands[1] == ("General", "Guard")
    assert u.known[0][1] == ()


# ----------------------------------------------------------------------------- round ties

def _tied_round(game):
    """Two players, last cards: both courts end at 5 (no Princess)."""
    return game.position(hands=[["Guard"], ["Guard"]], courts=[["Treasurer", "Trader"],
                                                                ["Knight"]], totals=(0, 0))


def test_round_win_variant_tie_without_princess_shared_by_default():
    g = Woods(players=2, mode="rounds")
    s = _tied_round(g).apply(Play("Guard", 1)).apply(Play("Guard", 0))
    assert s.last_round[1] == (7, 7) and s.totals == (1, 1)


def test_round_win_variant_tie_without_princess_option_nobody():
    g = Woods(players=2, mode="rounds", round_tie="nobody")
    s = _tied_round(g).apply(Play("Guard", 1)).apply(Play("Guard", 0))
    assert s.last_round[1] == (7, 7) and s.totals == (0, 0)
    # with the Princess the tie is hers in every reading
    s = g.position(hands=[["Guard"], ["Guard"]],
                   courts=[["Treasurer", "Trader", "Squire"], ["Princess", ("Fool", "Assassin")]])
    s = s.apply(Play("Guard", 1)).apply(Play("Guard", 0))
    assert s.last_round[1] == (9, 9) and s.totals == (0, 1)


# ----------------------------------------------------------------------------- Assassins

def _assassins_meet(game):
    s = game.position(hands=[["Assassin", "Fool"], ["Guard"], ["Fool"]],
                      courts=[[], ["Assassin"], []])
    return s.apply(Play("Assassin", 1))          # on the lone Assassin: both leave


def test_assassins_removed_from_the_game_stay_out_next_round():
    s = _assassins_meet(G3)
    assert s.removed == ("Assassin", "Assassin")
    s = s.apply(Play("Guard", 1)).apply(Play("Fool", 2)).apply(Play("Fool", 0))
    assert s.step == DEALING and s.removed == ("Assassin", "Assassin")
    deck = s.round_deck()
    assert Counter(deck)["Assassin"] == Counter(G3.deck)["Assassin"] - 2
    sizes, aside = s.deal_layout()
    assert aside == G3.set_aside_count and sum(sizes) + aside == len(deck) == 22
    assert sorted(sizes) == [6, 6, 7] and sizes[s.starter] == 7     # extra card: the starter
    deal = s.sample_chance(random.Random(3))
    t = s.apply(deal)
    assert sum(t.cards().values()) == len(G3.deck)            # still conserved
    assert Counter(G3.deck)["Assassin"] == 2          # both of this deck's are out
    assert "Assassin" not in t.set_aside + sum(t.hands, ())
    with pytest.raises(TooManyOutcomes) as e:
        s.chance_outcomes()
    assert e.value.count < G3.deal_count()
    # a deal of the full deck is refused
    full = Deal(tuple(G3.deck[i * 7:(i + 1) * 7] for i in range(3)), G3.deck[21:])
    with pytest.raises(IllegalAction):
        s.apply(full)


def test_assassins_return_next_round_option():
    g = Woods(players=3, assassins_return=True)
    s = _assassins_meet(g)
    s = s.apply(Play("Guard", 1)).apply(Play("Fool", 2)).apply(Play("Fool", 0))
    assert s.step == DEALING
    t = s.apply(s.sample_chance(random.Random(3)))
    assert t.removed == () and Counter(sum(t.hands, ()) + t.set_aside) == Counter(g.deck)


def test_decisions_and_options_list_each_contested_reading():
    text = " ".join(DECISIONS)
    for option in ("priest_extra_ability", "trader_fallback_received", "round_tie",
                   "assassins_return"):
        assert option in OPTIONS and option in text
        assert option in Woods.options()
    assert Woods.options()["priest_extra_ability"] is True
    assert Woods.options()["trader_fallback_received"] is True
    assert Woods.options()["assassins_return"] is False
    for bad in ({"priest_extra_ability": "no"}, {"round_tie": "first"},
                {"assassins_return": 1}, {"target": 10**9}, {"target": True}, {"data": 5}):
        with pytest.raises(kingdoms.GameOptionError):
            Woods(players=3, **bad)


# ----------------------------------------------------------------------------- hidden info

def _reachable(obj, seen=None):
    """Every object reachable from ``obj`` through attributes and containers (not
    through classes, functions or modules)."""
    seen = {} if seen is None else seen
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, (type, FunctionType, ModuleType)):
            continue
        seen[id(x)] = x
        if isinstance(x, (str, int, float, Fraction)) or x is None:
            continue
        if isinstance(x, (dict, MappingProxyType)):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)
        if hasattr(x, "__dict__"):
            stack.extend(vars(x).values())
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return list(seen.values())


def _game_snapshot(game):
    return repr([x for x in _reachable(game) if not hasattr(x, "__dict__")])


def test_nothing_reachable_from_a_view_holds_other_hands():
    """Issue 17: a policy given view(p) could read the opponents' hands from memo tables
    keyed by hands on the shared game (``view.game._plays_from``)."""
    game = Woods(players=3)
    before = _game_snapshot(game)
    for seed in range(5):
        states = playout(game, seed)
    assert _game_snapshot(game) == before           # playing stores nothing on the game
    for name in ("_plays_from", "_draws_of", "_actions"):
        assert not hasattr(game, name)
    # a mid-round position with distinctive hands: the view reaches no opponent hand
    s = pos([["Knight", "Fool"], ["Princess", "General", "Squire"], ["Priest", "Treasurer"]],
            game=game)
    for p in range(3):
        s.legal_actions()
        v = s.view(p)
        v.legal_actions(), str(v), v._repr_html_()
        for q in range(3):
            if q != p:
                hidden = s.hands[q]
                assert not any(x == hidden for x in _reachable(v) if isinstance(x, tuple))


def test_knight_and_trader_steps_are_presented_even_when_forced():
    """Issue 17: a forced hidden sub-decision is a step like any other."""
    s = pos([["Knight", "Fool"], ["Squire", "General"], ["Fool"]])
    t = s.apply(Play("Knight", 1))
    assert t.step == KnightLooking(1) and len(t.legal_actions()) == 1
    s = pos([["Trader", "Fool", "Fool"], ["Guard"], ["Fool"]])
    t = s.apply(Play("Trader", 1))
    assert t.step == TraderGiving(1) and len(t.legal_actions()) == 1
    u = t.apply(TraderGive("Fool", 0, 1))
    assert isinstance(u.step, TraderReturning) and len(u.legal_actions()) == 1
    # a public forced step (the Guard draws the Assassin) is still carried out at once
    s = pos([["Assassin", "Fool"], ["Guard"], ["Fool"]], courts=[[], ["Guard", "Knight"], []])
    assert isinstance(s.apply(Play("Assassin", 1)).step, Playing)


def test_view_legal_actions_equal_the_states_at_every_decision():
    for config in Woods.configurations():
        game = Woods(**config)
        for seed in range(3):
            for s in playout(game, seed):
                cp = s.current_player()
                if cp >= 0:
                    assert s.view(cp).legal_actions() == s.legal_actions(), (config, seed, s)


@pytest.mark.parametrize("p", [3, -1, CHANCE, TERMINAL, 1.0, "0", None, True])
def test_view_of_no_player_is_an_error(p):
    s = G3.initial_state()
    s = s.apply(s.sample_chance(random.Random(0)))
    with pytest.raises(ValueError, match="Player 1"):
        s.view(p)


def test_game_is_deeply_immutable():
    game = Woods(players=3)
    with pytest.raises(TypeError):
        game.influence["Fool"] = 9              # type: ignore[index]
    with pytest.raises(TypeError):
        game.copies["Fool"] = 9                 # type: ignore[index]
    for x in _reachable(game):
        assert not isinstance(x, (dict, list, set, bytearray)), type(x)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.players = 4                        # type: ignore[misc]


def test_components_are_values_read_once_from_the_data():
    """docs/anatomy.md: ``Components.from_data`` reads data.toml; equal data, equal
    components; the game pickles without a hand-written ``__reduce__``."""
    import pickle
    from kingdoms.woods import Components
    a, b = Woods(players=3), Woods(players=3, mode="rounds")
    assert a.components == b.components and hash(a.components) == hash(b.components)
    assert a.components == Components.from_data(a.game_data(), 3)
    assert a.components != Woods(players=3, beginner=True).components
    assert "__reduce__" not in vars(Woods)
    back = pickle.loads(pickle.dumps(a))
    assert back == a and back.components == a.components and back.influence["Fool"] == 4
    with pytest.raises(TypeError):
        back.influence["Fool"] = 9              # type: ignore[index]
    assert (a.deck, a.hand_size, a.set_aside_count, a.goal) == (
        a.components.deck, a.components.hand_size, a.components.set_aside_count, 42)
    assert b.goal == a.components.round_wins == 3


def _malformed_actions(card):
    return [None, unittest.mock.ANY, 5, "play", Play(card, "0"), Play(card, 0.0),
            Play(card, True), Play(card, None), Play(card, unittest.mock.ANY),
            Play(unittest.mock.ANY, 0), Play(None, 0), Play("Fol", 0), Play(card, 7),
            Play(card, -1), Cover(0, "Fool"), KnightTake(None, "a", []),
            PriestExtra(card, 0.5), ScholarPass, Deal(None, None), Deal((), ())]


def test_malformed_actions_are_illegal_and_change_nothing():
    s = G3.initial_state()
    for bad in _malformed_actions("Fool") + [Deal(((),) * 3, ())]:
        with pytest.raises(IllegalAction):
            s.apply(bad)
    s = s.apply(s.sample_chance(random.Random(0)))
    card = s.hands[0][0]
    before = repr(s)
    for bad in _malformed_actions(card):
        with pytest.raises(IllegalAction) as e:
            s.apply(bad)
        assert "may not do that" in str(e.value)
        assert isinstance(str(bad), str)
    assert repr(s) == before


class _Explosive:
    def __str__(self):
        raise RuntimeError("boom")

    __repr__ = __str__


@pytest.mark.parametrize("cls", [Play, Cover, TraderGive, TraderReturn, KnightTake, KnightPass,
                                 ScholarTake, PriestExtra, PriestTakeBack, TreasurerDraw, Deal])
def test_str_of_bad_actions_never_raises(cls):
    n = len(dataclasses.fields(cls))
    for junk in (None, _Explosive(), 1.5, "0", (), unittest.mock.ANY, -3):
        text = str(cls(*([junk] * n)))
        assert isinstance(text, str) and "boom" not in text
    s = G3.initial_state()
    s = s.apply(s.sample_chance(random.Random(0)))
    with pytest.raises(IllegalAction):
        s.apply(cls(*([_Explosive()] * n)))


# ----------------------------------------------------------------------------- data

DATA = resources.files("kingdoms.woods").joinpath("data.toml").read_text()


def _edit(text, pattern, value, count=1):
    new, k = re.subn(pattern, value, text, count=count)
    assert k, pattern
    return new


OUT_OF_RANGE = [
    (r"influence = 7", "influence = 8", "followers.10.influence"),
    (r"influence = 0", "influence = -1", "followers.0.influence"),
    (r"copies = 3", "copies = -1", "followers.0.copies"),
    (r"copies = 3", "copies = 9", "followers.0.copies"),
    (r"copies = 3", 'copies = "3"', "followers.0.copies"),
    (r"copies = 3", "copies = 3.0", "followers.0.copies"),
    (r"copies = 3", "copies = true", "followers.0.copies"),
    (r"points_to_win = 42", "points_to_win = 1000000000", "game.points_to_win"),
    (r"points_to_win = 42", "points_to_win = 0", "game.points_to_win"),
    (r"round_wins = 3", "round_wins = -2", "game.round_wins"),
    (r"min_players = 2", "min_players = 1", "game.min_players"),
    (r"max_players = 5", "max_players = 50", "game.max_players"),
    (r"set_aside = 3\nset_aside_assumed = \"not published; 24",
     "set_aside = -3\nset_aside_assumed = \"not published; 24", "setup.3.set_aside"),
    (r"set_aside = 3\nset_aside_assumed = \"not published; 24",
     "set_aside = 30\nset_aside_assumed = \"not published; 24", "setup.3.set_aside"),
    (r"remove = \{ Assassin = 1, Guard", "remove = { Assassin = 9, Guard", "setup.3.remove.Assassin"),
    (r"remove = \{ Assassin = 1, Guard", "remove = { Assassin = -1, Guard", "setup.3.remove.Assassin"),
    (r"remove = \{ Assassin = 1, Guard", 'remove = { Assassin = "x", Guard', "setup.3.remove.Assassin"),
    (r"\[\[followers\]\]\nname = \"Assassin\"", "[[followers]]\nname = 5", "followers.0.name"),
]


@pytest.mark.parametrize("pattern, value, key", OUT_OF_RANGE)
def test_data_values_out_of_range_name_the_key_and_range(tmp_path, pattern, value, key):
    f = tmp_path / "bad.toml"
    f.write_text(_edit(DATA, pattern, value))
    with pytest.raises(DataError) as e:
        Woods(players=3, mode="rounds" if "round_wins" in key else "points", data=str(f))
    assert key in str(e.value)
    if "should be a number" in str(e.value):
        assert re.search(r"from -?\d+ to \d+|at least|at most", str(e.value))


def test_data_deck_too_large_is_refused(tmp_path):
    f = tmp_path / "big.toml"
    f.write_text(re.sub(r"copies = \d+", "copies = 8", DATA))
    with pytest.raises(DataError, match="copies.*40"):
        Woods(players=3, data=str(f))


def _fuzzed_valid(rng):
    """A data file with every value at a random point of its allowed range (kept
    dealable: set-aside counts are chosen to deal evenly)."""
    text = DATA
    copies = []
    while True:
        copies = [rng.randint(0, 8) for _ in range(11)]
        if 8 <= sum(copies) <= 40:
            break
    it = iter(copies)
    text = re.sub(r"copies = \d+", lambda m: f"copies = {next(it)}", text)
    text = re.sub(r"influence = \d+", lambda m: f"influence = {rng.randint(0, 7)}", text)
    text = re.sub(r"remove = \{[^}]*\}", "remove = {}", text)
    total = sum(copies)
    for n in range(2, 6):
        aside = total % n + n * rng.randint(0, max(0, (total - total % n) // n - 1) // 3)
        aside = min(aside, total - n) if (total - aside) % n == 0 else total % n
        text = re.sub(rf"(\[setup\.{n}\][^\[]*?)set_aside = \d+", rf"\g<1>set_aside = {aside}",
                      text)
    text = text.replace("points_to_win = 42", f"points_to_win = {rng.choice([1, 42, 1000])}")
    text = text.replace("round_wins = 3", f"round_wins = {rng.choice([1, 3, 50])}")
    return text


@pytest.mark.slow
def test_fuzzed_valid_data_files_play_to_an_end(tmp_path):
    """Extreme-but-valid data: games build, never lack a legal action, and end (by the
    rules, or — only if nobody can score — by the stated safeguard)."""
    rng = random.Random(17)
    played = 0
    for i in range(4):
        f = tmp_path / f"fuzz{i}.toml"
        f.write_text(_fuzzed_valid(rng))
        for n in (2, 5):
            for mode in ("points", "rounds"):
                try:
                    game = Woods(players=n, mode=mode, data=str(f))
                except DataError as e:        # e.g. a hand would be empty: named clearly
                    assert "setup" in str(e) or "copies" in str(e)
                    continue
                end = playout(game, i, policy=greedy_policy, view=True)[-1]
                played += 1
                assert end.is_terminal() and sum(end.returns()) == 1
                reason = end.unfinished()
                assert reason is None or (max(game.influence.values()) == 0
                                          or "safeguard" in reason)
                with pytest.raises(TooManyOutcomes):
                    game.initial_state().chance_outcomes()
    assert played >= 6


def test_extreme_deck_with_assassins_only_ends(tmp_path):
    text = re.sub(r"copies = \d+", "copies = 0", DATA)
    text = text.replace('name = "Assassin"\ninfluence = 0', 'name = "Assassin"\ninfluence = 1')
    text = _edit(text, r'(name = "Assassin"\ninfluence = 1\ninfluence_source = "[^"]*"\n)copies = 0',
                 r"\g<1>copies = 4")
    text = re.sub(r"remove = \{[^}]*\}", "remove = {}", text)
    text = re.sub(r"set_aside = \d+", "set_aside = 0", text)
    f = tmp_path / "assassins.toml"
    f.write_text(text)
    game = Woods(players=2, data=str(f), target=5)
    end = playout(game, 1)[-1]
    assert end.is_terminal()
    assert end.unfinished() is None or "safeguard" in end.unfinished()


# ----------------------------------------------------------------------------- players

def test_hidden_information_and_named_policies():
    assert Woods.hidden_information is True
    pols = G3.policies()
    assert {"random", "greedy", "fool-aware"} <= set(pols)
    assert set(kingdoms.core.protocol.Game.policies(G3)) <= set(pols)   # the core's too
    assert pols["greedy"] is greedy_policy and pols["fool-aware"] is fool_aware_policy
    assert len(G3.default_policies()) == 3


@pytest.mark.parametrize("config", Woods.configurations())
def test_default_players_end_games_by_the_rules(config):
    game = Woods(**config)
    for seed in range(4):
        rng = random.Random(seed)
        s = game.initial_state()
        pols = game.default_policies()
        while not s.is_terminal():
            cp = s.current_player()
            s = s.apply(s.sample_chance(rng) if cp == CHANCE else pols[cp](s.view(cp), rng))
        assert s.unfinished() is None


# ----------------------------------------------------------------------------- names

def test_action_texts_name_players_one_based_like_player_name():
    assert str(Play("Assassin", 1)) == f"play the Assassin to {G3.player_name(1)}'s court"
    assert str(KnightTake("Fool", 0, 2)) == "take the Fool from Player 3's hand"
    assert str(TraderGive("Fool", 0, 1).seen_by(2)) == "give a hidden card to Player 2"
    assert str(Cover(0, ("Knight", "Assassin"))) == \
        "attack the Assassin on the Knight at Player 1's court"


def test_renders_use_player_names_never_indices():
    s = pos([["Knight", "Guard"], ["Trader"], ["General", "Guard"]],
            courts=[["Fool", "Fool", "Fool"], [], []])
    text = str(s)
    assert "Player 1: hand" in text and "Player 3" in text
    assert "Player 0" not in text and not re.search(r"\bplayer \d", text)
    assert f"exactly {woods_rules.FOOL_RUIN} Fools" in text
    assert f"{woods_rules.FOOL_RUIN} Fools" in s._repr_html_() and "Player 2" in s._repr_html_()
    while not s.round_over():
        s = s.apply(s.legal_actions()[0])
    assert re.search(r"scored Player 1 \d+, Player 2 \d+, Player 3 \d+", str(s))


def test_odds_places_read_as_player_names():
    from kingdoms.woods.odds import fool_distribution, place_name
    s = G3.initial_state()
    s = s.apply(s.sample_chance(random.Random(2)))
    names = sorted(place_name(s, q) for q in fool_distribution(s, 0))
    assert names == ["Player 2", "Player 3", "set aside"]


def test_a_deal_with_one_possible_outcome_is_listed(tmp_path):
    text = re.sub(r"copies = \d+", "copies = 0", DATA)
    text = _edit(text, r'(name = "Fool"\ninfluence = 4\ninfluence_source = "[^"]*"\n)copies = 0',
                 r"\g<1>copies = 4")
    text = re.sub(r"remove = \{[^}]*\}", "remove = {}", text)
    text = re.sub(r"set_aside = \d+", "set_aside = 0", text)
    f = tmp_path / "fools.toml"
    f.write_text(text)
    game = Woods(players=2, data=str(f))
    (deal, p), = game.initial_state().chance_outcomes()
    assert p == 1 and deal.hands == (("Fool", "Fool"), ("Fool", "Fool"))
    end = playout(game, 0)[-1]
    assert end.is_terminal()
