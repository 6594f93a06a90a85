"""Issue 17 (horse items) and the data checks: edits take effect, copies share their
components, malformed actions are IllegalAction, views never leak, every data value
is range-checked, and emoji always come with words."""
import copy
import json
import pickle
import random
import re
import sys
import unittest.mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import kingdoms
from kingdoms.core.cache import cache_report
from kingdoms.core.data import DataError
from kingdoms.core.play import play_state, random_policy
from kingdoms.core.protocol import CHANCE, HIDDEN, IllegalAction, TERMINAL
from kingdoms.horse import actions as A

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def packaged():
    from importlib import resources
    return tomllib.loads(resources.files("kingdoms.horse").joinpath("data.toml").read_text())


def toml(value, top=True):
    """A small TOML writer for the data file's shapes (tables, lists, inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v, False) for v in value) + "]"
    if isinstance(value, dict) and not top:
        return "{" + ", ".join(f"{json.dumps(k)} = {toml(v, False)}"
                               for k, v in value.items()) + "}"
    lines = [f"{json.dumps(k)} = {toml(v, False)}" for k, v in value.items()
             if not isinstance(v, dict)]
    for k, v in value.items():
        if isinstance(v, dict):
            lines.append(f"[{json.dumps(k)}]")
            lines += [f"{json.dumps(k2)} = {toml(v2, False)}" for k2, v2 in v.items()]
    return "\n".join(lines) + "\n"


def write(tmp_path, raw, name="my-horse.toml"):
    path = tmp_path / name
    path.write_text(toml(raw), encoding="utf-8")
    return str(path)


def walk(state, rng, policy=random_policy, limit=20_000):
    for _ in range(limit):
        cp = state.current_player()
        if cp == TERMINAL:
            return state
        state = state.apply(state.sample_chance(rng) if cp == CHANCE else policy(state, rng))
    raise AssertionError("the game did not end")


# ------------------------------------------------------------ data edits

def test_edited_data_file_takes_effect_and_games_differ(tmp_path):
    raw = packaged()
    path = write(tmp_path, raw)
    old = kingdoms.game("horse", data=path)
    raw["king_die"]["faces"] = ["2 sheep"] * 6
    write(tmp_path, raw)
    new = kingdoms.game("horse", data=path)
    assert new.comp.king_faces[0].name == "2 sheep" and old.comp != new.comp
    assert old != new                                 # same path, different content
    assert new.game_data()["king_die"]["faces"][0] == "2 sheep"   # shown = played
    s = new.initial_state()
    rng = random.Random(0)
    while s.current_player() == CHANCE and s.phase == "deal":
        s = s.apply(s.sample_chance(rng))
    s = s.apply(s.legal_actions()[-1]) if s.phase == "start" else s
    assert all(r.king == ("2 sheep",) * 3 for r in s.legal_actions())
    # equal content, wherever it lives: equal games
    other = write(tmp_path, raw, "copy.toml")
    assert kingdoms.game("horse", data=other).comp is new.comp


def _component_tables():
    """Entries of the Horse speed caches keyed by the components alone."""
    names = ("kingdoms.horse.rules._card_table", "kingdoms.horse.dice._face_table",
             "kingdoms.horse.rules._roll_outcomes")
    sizes = {name: size for name, size, _ in cache_report()}
    return [sizes[n] for n in names]


def test_copies_of_states_share_the_components_and_tables_stay_bounded():
    g = kingdoms.game("horse", players=2)
    s = play_state(g, seed=2)
    before = _component_tables()
    for i in range(300):
        c = pickle.loads(pickle.dumps(s)) if i % 2 else copy.deepcopy(s)
        assert c == s and hash(c) == hash(s) and c.game.comp is g.comp
        c.returns()
    mid = g.initial_state()
    d = copy.deepcopy(mid)
    d.apply(d.legal_actions()[0]).legal_actions()
    after = _component_tables()
    assert after == before          # copies hit the same entries: nothing new


# ------------------------------------------------------------ malformed actions

class Weird:
    def __str__(self):
        raise RuntimeError("no text")

    __repr__ = __str__


BAD = [None, unittest.mock.ANY, 5, "roll", A.PlaceFence("x"), A.PlaceFence(None),
       A.Trade("sheep", "2", "pig", 1), A.KeepDice(None, True), A.KeepDice(["1 sheep"], True),
       A.Discard(5), A.UseDie(Weird()), A.RunAway("unicorn"), A.Roll(5, None),
       A.DrawCard(None, None), A.TakeDie(7), A.PlayCard(None), A.RollDice]
# equal to a legal action but with other field types (3.0 == 3, True == 1)
TWINS = [A.PlaceFence(3.0), A.PlaceFence(True), A.Trade("sheep", 2.0, "pig", 1.0),
         A.DealCard(0.0, "Piglets"), A.DealCard(True, "Piglets"), A.TakeDie(None)]


def states_along_a_game():
    g = kingdoms.game("horse", players=2)
    end = play_state(g, seed=7)
    return [s for s in end.path() if not s.is_terminal()][::7]


def ints_only(state):
    return all(type(x) is int for f in state.farms for x in f.herd + (f.fences,)) and \
        all(type(x) is int for x in state.supply)


def test_malformed_actions_are_illegal_action_and_change_nothing():
    for s in states_along_a_game():
        before = (hash(s), repr(s))
        for bad in BAD:
            with pytest.raises(IllegalAction) as err:
                s.apply(bad)
            assert str(err.value)
            assert (hash(s), repr(s)) == before
        for twin in TWINS:
            # refused, or carried out as the game's own (equal) action: never a
            # float or bool in the state
            try:
                t = s.apply(twin)
            except IllegalAction as e:
                assert str(e)
            else:
                assert ints_only(t)
                assert t == s.apply([a for a in s.legal_actions() if a == twin][0])
            assert (hash(s), repr(s)) == before


def test_malformed_actions_never_reach_the_rules(monkeypatch):
    """Issue 14 (speed): ``_next`` no longer re-checks each action; ``apply`` hands it
    only the state's own listed objects (or the outcome it drew), so every malformed
    object is refused before the rules run and the rules only ever see well-formed
    actions."""
    from kingdoms.horse.rules import HorseState
    seen = []
    original = HorseState._next

    def checked(self, a):
        assert any(a is x for x in self.legal_actions()) or a is self.__dict__.get("_sampled")
        assert A.well_formed(a)
        seen.append(a)
        return original(self, a)

    monkeypatch.setattr(HorseState, "_next", checked)
    for s in states_along_a_game():
        for bad in BAD + TWINS:
            try:
                s.apply(bad)
            except IllegalAction as e:
                assert str(e)
        s.apply(s.legal_actions()[0])
    assert seen                                   # the listed actions did reach it


def test_malformed_action_messages_stay_the_same():
    """The messages ``apply`` gives for malformed objects (unchanged by issue 14)."""
    g = kingdoms.game("horse", players=2)
    s = g.initial_state()                          # dealing: a chance event
    with pytest.raises(IllegalAction, match=r"^None cannot happen at this chance event$"):
        s.apply(None)
    while s.current_player() == CHANCE:
        s = s.apply(s.legal_actions()[0])
    with pytest.raises(IllegalAction, match=r"^Ann may not do that: None is not allowed now$"):
        s.apply(None)
    with pytest.raises(IllegalAction, match=r"^Ann may not do that: It is the \w+ step now\.$"):
        s.apply(A.EndTrading())
    for twin in (A.PlaceFence(True), A.TakeDie(None)):
        with pytest.raises(IllegalAction, match="^Ann may not do that: "):
            s.apply(twin)


def test_str_of_bad_actions_never_raises():
    for bad in BAD + TWINS:
        if isinstance(bad, A.Action):
            assert isinstance(str(bad), str) and str(bad)


# ------------------------------------------------------------ views

def test_view_out_of_range_is_an_error():
    s = kingdoms.game("horse", players=2).initial_state()
    for p in (-1, 2, 5, None, 1.0, CHANCE):
        with pytest.raises(ValueError, match="Ann.*Ben"):
            s.view(p)


def test_view_lists_the_same_actions_and_hides_the_hands():
    assert kingdoms.game("horse").hidden_information is True
    for players in (2, 3):
        end = play_state(kingdoms.game("horse", players=players), seed=3)
        for s in end.path():
            cp = s.current_player()
            if cp < 0:
                continue
            v = s.view(cp)
            assert v.legal_actions() == s.legal_actions()
            assert str(v)
            for i, f in enumerate(v.farms):
                if i != cp:
                    assert all(c is HIDDEN for c in f.hand)
                    for name in set(s.farms[i].hand) - set(s.farms[cp].hand):
                        assert name not in str(v)
            assert all(x is HIDDEN for x in v.deck)


# ------------------------------------------------------------ data validation

# (path in the raw table, allowed lo, hi) for numbers checked independently
RANGES = [
    (("supply", "counts", "horse"), 2, 200), (("supply", "counts", "sheep"), 9, 200),
    (("trade", "steps", 0, "rate"), 1, 20), (("trade", "steps", 2, "rate"), 1, 20),
    (("goal", "standard"), 1, 6), (("goal", "easy"), 1, 6),
    (("pasture", "per_field"), 2, 6), (("pasture", "fences_per_player"), 13, 31),
    (("king_die", "count"), 1, 5), (("moritz", "rolls"), 1, 4), (("moritz", "keep"), 0, 24),
    (("setup", "hand"), 0, 6), (("setup", "seats", 1, "sheep"), 0, 5),
    (("cards", "list", 4, "pay", "cattle"), 0, 6), (("cards", "list", 5, "fences"), 0, 6),
]
HARD_LIMITS = {("supply", "counts", "horse"): (0, 200), ("supply", "counts", "sheep"): (0, 200),
               ("pasture", "per_field"): (1, 6), ("pasture", "fences_per_player"): (1, 31),
               ("setup", "seats", 1, "sheep"): (0, 24)}


def key_of(path):
    return ".".join(str(p) for p in path)


def set_in(raw, path, value):
    node = raw
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(RANGES), st.data())
def test_fuzzed_data_within_ranges_build_and_play_to_the_end(tmp_path, spec, data):
    path, lo, hi = spec
    value = data.draw(st.integers(lo, hi))
    raw = packaged()
    set_in(raw, path, value)
    players = data.draw(st.integers(1, 4))
    g = kingdoms.game("horse", players=players, data=write(tmp_path, raw), max_rounds=3)
    end = walk(g.initial_state(), random.Random(value))
    assert end.is_terminal() and len(end.returns()) == players


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(RANGES), st.one_of(st.integers(-10**9, -1),
                                          st.integers(201, 10**9), st.integers(-3, 40)))
def test_fuzzed_data_outside_ranges_name_key_and_range(tmp_path, spec, value):
    path, lo, hi = spec
    lo, hi = HARD_LIMITS.get(path, (lo, hi))
    if lo <= value <= hi:
        return                                         # covered above
    raw = packaged()
    set_in(raw, path, value)
    with pytest.raises(DataError) as err:
        kingdoms.game("horse", data=write(tmp_path, raw))
    msg = str(err.value)
    assert key_of(path) in msg and f"from {lo} to {hi}" in msg


@pytest.mark.parametrize("path, value, key", [
    (("trade", "steps", 0, "rate"), 0, "trade.steps.0.rate"),
    (("moritz", "rolls"), 10**6, "moritz.rolls"),
    (("king_die", "count"), 60, "king_die.count"),
    (("setup", "hand"), -1, "setup.hand"),
    (("setup", "hand"), 50, "setup.hand"),
    (("supply", "counts", "pig"), -5, "supply.counts.pig"),
    (("pasture", "fences_per_player"), -1, "pasture.fences_per_player"),
    (("goal", "standard"), -2, "goal.standard"),
    (("cards", "list", 1, "copies"), 10**6, "cards.list.1.copies"),
    (("cards", "list", 12, "rate", "rate"), 0, "cards.list.12.rate.rate"),
    (("trade", "steps", 1, "rate"), "3", "trade.steps.1.rate"),
    (("trade", "steps", 1, "rate"), True, "trade.steps.1.rate"),
    (("king_die", "faces", 0), "1000 sheep", "king_die.faces.0"),
    (("king_die", "faces", 0), 7, "king_die.faces.0"),
    (("setup", "layout", 0), 3, "setup.layout.0"),
    (("cards", "list", 2), "Piglets", "cards.list.2"),
    (("setup", "solo_moritz", "unicorn"), 1, "setup.solo_moritz.unicorn"),
])
def test_data_values_are_checked_for_type_and_range(tmp_path, path, value, key):
    raw = packaged()
    set_in(raw, path, value)
    with pytest.raises(DataError, match=re.escape(key)):
        kingdoms.game("horse", data=write(tmp_path, raw))


def test_data_cross_checks(tmp_path):
    raw = packaged()
    raw["supply"]["counts"]["horse"] = 1                 # fewer horses than the goal
    with pytest.raises(DataError, match="supply.counts.horse.*goal"):
        kingdoms.game("horse", data=write(tmp_path, raw))
    raw = packaged()
    raw["goal"]["standard"] = 6
    raw["pasture"]["per_field"] = 1                      # 24 animals on 12 fields
    with pytest.raises(DataError, match="goal.standard"):
        kingdoms.game("horse", data=write(tmp_path, raw))


def test_extreme_but_valid_data_plays(tmp_path):
    raw = packaged()
    raw["king_die"]["count"] = 5
    raw["setup"]["hand"] = 6
    raw["king_die"]["faces"] = ["6 fences", "6 sheep", "half cattle"]
    raw["trade"]["steps"][2]["rate"] = 20
    for players in (1, 4):
        g = kingdoms.game("horse", players=players, data=write(tmp_path, raw), max_rounds=2)
        for seed in range(2):
            assert walk(g.initial_state(), random.Random(seed)).is_terminal()


# ------------------------------------------------------------ emoji and names

EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF\u221E]")


def test_emoji_as_meaning_every_emoji_has_its_word_and_players_are_named():
    from kingdoms.horse.components import components
    from kingdoms.horse.render import EMOJI_WORDS
    g = kingdoms.game("horse", players=3)
    end = play_state(g, seed=5)
    texts = [c.text() for c in components().cards]
    for s in end.path()[::5] + (end,):
        texts += [str(s), s._repr_html_(), s.short()]
        if s.current_player() >= 0:
            texts += [str(a) for a in s.legal_actions()]
    texts += [str(a) for _, a in end.history()]
    for t in texts:
        for m in EMOJI.finditer(t):
            word = EMOJI_WORDS[m.group()]
            assert word in t[m.start(): m.end() + 200], (m.group(), t[m.start():][:200])
        assert not re.search(r"[Pp]layer 0\b", t)
    assert any("lightning" in t for t in texts) and any("sheep</text>" in t for t in texts)
    assert "Ann" in str(end) and g.player_name(0) == "Ann"


def test_texts_count_fields_from_one_and_show_no_raw_containers():
    s = kingdoms.game("horse", players=2).initial_state()
    text = str(s)
    assert "[" not in text and "fenced areas hold 4, 4 animals" in text
    assert "row 1, column 1" in str(A.PlaceFence(0))
    assert "Fraction(" not in text


@pytest.mark.parametrize("options", [{"easy": "no"}, {"easy": 1}, {"data": 5},
                                     {"max_rounds": True}, {"max_rounds": 0},
                                     {"short_supply": None}])
def test_options_are_checked_for_type(options):
    with pytest.raises(kingdoms.core.protocol.GameOptionError):
        kingdoms.game("horse", **options)


def test_data_given_as_a_path_object_is_kept_as_text(tmp_path):
    from pathlib import Path
    path = write(tmp_path, packaged())
    g = kingdoms.game("horse", data=Path(path))
    assert g.data == path and g == kingdoms.game("horse", data=path)
    assert g.comp is kingdoms.game("horse").comp        # same content as the packaged file


@pytest.mark.parametrize("call, error, words", [
    (lambda p, o: p.areas(-1), ValueError, "fences are a border bitmask"),
    (lambda p, o: p.areas(1 << 31), ValueError, "fences are a border bitmask"),
    (lambda p, o: p.capacities("x"), ValueError, "fences are a border bitmask"),
    (lambda p, o: p.fits(True, (1,)), ValueError, "fences are a border bitmask"),
    (lambda p, o: p.capacities(0, 0), ValueError, "per_field must be a whole number"),
    (lambda p, o: p.fits(0, (1, -2)), ValueError, "herd must be the animals of each species"),
    (lambda p, o: p.fits(0, "ab"), ValueError, "herd must be the animals of each species"),
    (lambda p, o: p.fits(0, 5), ValueError, "herd must be the animals of each species"),
    (lambda p, o: p.assignment(0, [1.5]), ValueError, "herd must be the animals"),
    (lambda p, o: o.goal_cattle("x"), TypeError, "game must be a Horse game"),
    (lambda p, o: o.roll_distribution(5), TypeError, "game must be a Horse game"),
    (lambda p, o: o.solve_rerolls(None), TypeError, "goal must be a function of the final roll"),
    (lambda p, o: o.solve_rerolls(o.goal_cattle(), rerolls=-1), ValueError, "rerolls must be"),
    (lambda p, o: o.solve_rerolls(o.goal_cattle(), rerolls=2.0), ValueError, "rerolls must be"),
    (lambda p, o: o.keep_policy(o.goal_cattle(), rerolls=11), ValueError, "from 0 to 10"),
    (lambda p, o: o.policy_distribution(3), TypeError, "policy must be a function"),
    (lambda p, o: o.king_pool(-1), ValueError, r"n \(the number of King dice\)"),
    (lambda p, o: o.dice_gain((("7 sheep",), "pig")), ValueError, r"a roll is \(the 3 King faces"),
    (lambda p, o: o.dice_gain((("1 pig", "2 sheep", "half cattle"), "pig"), (1, 2, 3)),
     ValueError, "herd must be the animals of each species in the order sheep, pig, cattle, horse"),
    (lambda p, o: o.multiplication_distribution((1, 2)), ValueError, "herd must be the animals of each species in the order"),
    (lambda p, o: o.aim_multiplication((1, -2, 0, 0)), ValueError, "herd must be the animals of each species in the order"),
    (lambda p, o: o.sheep_value("abcd"), ValueError, "herd must be the animals of each species in the order"),
    (lambda p, o: o.extra_sheep_needed((1, 2, 3)), ValueError, "herd must be the animals of each species in the order"),
    (lambda p, o: o.extra_sheep_needed((1, 2, 3, 0), goal=-1), ValueError, "goal must be the animals of each species in the order"),
    (lambda p, o: o.can_finish_now([1.0, 2, 3, 0]), ValueError, "herd must be the animals of each species in the order"),
    (lambda p, o: o.fewest_trading_phases({"sheep": 3}), ValueError, "herd must be the animals of each species in the order"),
    (lambda p, o: o.trade_chain("sheep", "hors"), ValueError, "get is one of the species"),
    (lambda p, o: o.trade_chain("horse", "sheep"), ValueError, "trades go up the chain"),
    (lambda p, o: o.useful_die_left(lambda d: True, 9), ValueError, r"seat \(1: the first"),
    (lambda p, o: o.moritz_turns(-1), ValueError, "max_turns must be a whole number"),
    (lambda p, o: o.simulate_moritz(-1), ValueError, r"n \(the number of games\)"),
])
def test_the_pasture_and_dice_tools_refuse_bad_input_with_a_sentence(call, error, words):
    """What a lesson calls by hand (the pasture, the re-roll solvers) names the input it
    wants instead of failing inside with a TypeError, IndexError or a wrong answer."""
    from kingdoms.horse import odds, pasture
    with pytest.raises(error, match=words):
        call(pasture, odds)
