"""King of the Elves: secret information, options that round-trip, malformed actions,
checked data files, immutable games, named players and the game's own players.

Each test is named after the rule clause or contract it checks (issues 11, 13, 17)."""
from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from types import MappingProxyType
from unittest.mock import ANY

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import kingdoms
from kingdoms.core.data import DataError, is_note
from kingdoms.core.play import play_state, random_policy
from kingdoms.core.protocol import (CHANCE, HIDDEN, TERMINAL, GameOptionError,
                                    IllegalAction)
from kingdoms.elves import (Buy, Discard, Draw, NoVillageCard, Pass, PlaySpecial,
                            PlayVillage, RemoveVillage, TakeVillage, ledger_text)
from kingdoms.elves.journey import (EndJourney, Teleport, TeleportCard,
                                    TeleportTo, Visit)
from kingdoms.elves.rules import NUMBER_RANGES, Searching

from elves_positions import planning_state

PLAINS = "village:plains:2"
LAKE = "village:lake:7"


DATA = Path(kingdoms.__file__).parent / "elves" / "data.toml"
CONFIGS = [dict(players=n) for n in range(2, 7)] + [dict(players=3, teleport=True)]


def game(players=4, **kw):
    return kingdoms.game("elves", players=players, **kw)


def step(s, rng):
    return s.apply(s.sample_chance(rng) if s.is_chance() else rng.choice(s.legal_actions()))


def playout(g, seed, max_steps=50_000):
    """Every state of one random game (the end included)."""
    rng = random.Random(seed)
    s = g.initial_state()
    out = [s]
    for _ in range(max_steps):
        if s.is_terminal():
            return out
        s = step(s, rng)
        out.append(s)
    pytest.fail(f"no end after {max_steps} steps")


def reachable(obj, seen=None):
    """Every object reachable from ``obj`` through attributes, fields, per-state caches,
    tuples and mappings (the game object itself is walked only once)."""
    seen = set() if seen is None else seen
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        yield x
        if isinstance(x, (str, int, float, bytes, type(None))) or x is HIDDEN:
            continue
        if isinstance(x, (tuple, list, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, (dict, MappingProxyType)):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif hasattr(x, "__dict__") and not isinstance(x, type):
            stack.extend(vars(x).values())


def fingerprint(obj, game):
    """A value that differs whenever anything reachable from ``obj`` (but the game,
    which every view shares) differs."""
    if obj is game:
        return "GAME"
    if obj is HIDDEN:
        return "HIDDEN"
    if isinstance(obj, (str, int, float, type(None))):
        return (type(obj).__name__, obj)
    if isinstance(obj, tuple):
        return tuple(fingerprint(v, game) for v in obj)
    if isinstance(obj, (dict, MappingProxyType)):
        return tuple(sorted((repr(k), fingerprint(v, game)) for k, v in obj.items()))
    if hasattr(obj, "__dict__"):
        return (type(obj).__name__,
                tuple(sorted((k, fingerprint(v, game)) for k, v in vars(obj).items())))
    return repr(obj)


# =========================================================================== secret gold

def test_secret_gold_players_keep_the_total_value_secret():
    """"The players keep their supply of gold coins open ... but keep the total value
    secret from the other players": a view shows only its player's gold."""
    g = game(3, player_names=("Ann", "Bob", "Cy"))
    s = planning_state(g, gold=[17, 23, 31])
    for p in range(3):
        v = s.view(p)
        assert v.gold[p] == s.gold[p]
        assert all(v.gold[q] is HIDDEN for q in range(3) if q != p)
        text = str(v)
        lines = {name: line for name in ("Ann", "Bob", "Cy")
                 for line in text.splitlines() if line.startswith(f"  {name}:")}
        for q, name in enumerate(("Ann", "Bob", "Cy")):
            if q == p:
                assert f"gold {s.gold[q]}" in lines[name]
            else:
                assert "gold ? (secret)" in lines[name] and str(s.gold[q]) not in lines[name]
        html = v._repr_html_()
        assert all(str(s.gold[q]) not in html for q in range(3) if q != p)
        assert "gold ? (secret)" in html


def test_secret_gold_another_travellers_gold_is_hidden_too():
    """The journey under way carries the traveller's gold: hidden from the others."""
    g = game(2)
    realms = [((PLAINS, ()),), ((LAKE, ()),)]
    s = planning_state(g, realms=realms, hands={0: {"travel:giant_pig": 1}}, gold=[9, 30])
    s = s.apply(Pass()).apply(Pass())
    assert s.phase == "journey" and s.trip.player == 0 and s.trip.gold == 9
    assert s.view(0).trip.gold == 9
    other = s.view(1)
    assert other.trip.gold is HIDDEN and other.trip.hand[0] is HIDDEN
    assert "9" not in str(other).split("Player 1:")[1].split("Player 2:")[0]


def test_secret_gold_all_players_count_their_gold_at_the_end():
    """"All players now count their gold coins": the final position shows everything."""
    end = play_state(game(3), seed=5)
    assert end.is_terminal()
    for p in range(3):
        assert end.view(p).gold == end.gold and str(end.view(p)) == str(end)


# =========================================================================== views

def test_no_village_card_actions_do_not_show_the_face_down_supply():
    """The supply is face down: the actions offered before searching it ("No village
    card!") must be the same whatever villages it holds."""
    g = game(3)
    hand = {0: {"travel:raft": 2}}
    rich = planning_state(g, hands=hand, supply=["village:lake:7", "village:plains:2", "travel:dragon"])
    poor = planning_state(g, hands=hand, supply=["travel:giant_pig"] * 3)
    assert rich.legal_actions() == poor.legal_actions()
    nvc = [a for a in rich.legal_actions() if isinstance(a, NoVillageCard)]
    assert nvc == [NoVillageCard(("travel:raft", "travel:raft"))]
    assert not re.search(r"(plains|lake) village", " ".join(map(str, rich.legal_actions())))
    # searching it, the player sees what it holds (and only he does)
    s = rich.apply(nvc[0])
    assert set(s.legal_actions()) == {TakeVillage(LAKE, 0), TakeVillage(PLAINS, 0)}
    assert s.view(0).supply == s.supply and s.view(1).supply == (HIDDEN, 3)
    assert s.view(0).legal_actions() == s.legal_actions()
    s1 = s.apply(TakeVillage(LAKE, 0))
    assert s1.history(1)[-1] == (0, TakeVillage(HIDDEN, 0))
    assert s1.history(0)[-1] == (0, TakeVillage(LAKE, 0))
    assert "lake" not in str(s1.history(1)[-1][1])


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_fair_policy_pattern_view_lists_the_same_actions(config, seed):
    """At every decision ``state.view(p).legal_actions() == state.legal_actions()`` for
    the player to move, and every player's view renders."""
    g = game(**config)
    for s in playout(g, seed):
        cp = s.current_player()
        if cp >= 0:
            assert s.view(cp).legal_actions() == s.legal_actions()
        for p in range(g.players):
            assert str(s.view(p))


@pytest.mark.parametrize("bad", [-1, 4, CHANCE, TERMINAL, "0", 1.0, True, None])
def test_view_of_a_player_out_of_range_is_an_error(bad):
    s = planning_state(game(4))
    with pytest.raises(ValueError, match="player"):
        s.view(bad)


def _perturbed(s, p, rng):
    """``s`` changed only in what player ``p`` may not see: another player's gold and
    hand, and (unless ``p`` is searching it) the supply's cards."""
    g = s.game
    n = g.players
    others = [q for q in range(n) if q != p]
    q = rng.choice(others)
    gold = list(s.gold)
    gold[q] += 5
    changes = {"gold": tuple(gold)}
    if s.trip is not None and s.trip.player == q:
        changes["trip"] = dataclasses.replace(s.trip, gold=s.trip.gold + 5)
    searching = isinstance(s.step, Searching) and s.turn == p
    on_journey = s.trip is not None and s.trip.player == q
    hand, supply = list(s.hands[q]), list(s.supply)
    have = [i for i, c in enumerate(hand) if c]
    there = [i for i, c in enumerate(supply) if c]
    if have and there and not searching and not on_journey:
        i, j = rng.choice(have), rng.choice(there)
        hand[i] -= 1; supply[i] += 1; supply[j] -= 1; hand[j] += 1
        hands = list(s.hands)
        hands[q] = tuple(hand)
        changes.update(hands=tuple(hands), supply=tuple(supply))
    elif there and len(there) + 1 < len(supply) and not searching:
        j = rng.choice(there)        # the supply alone: one card of another kind
        k = rng.choice([i for i in range(len(supply)) if i != j])
        supply[j] -= 1; supply[k] += 1
        changes.update(supply=tuple(supply))
    return dataclasses.replace(s, **changes)


@pytest.mark.parametrize("config", CONFIGS[:3] + CONFIGS[-1:],
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_nothing_reachable_from_a_view_holds_hidden_data(config):
    """Two positions that differ only in what ``p`` may not see give views that cannot
    be told apart: their fields, caches (after listing actions and rendering) and
    action texts are identical."""
    g = game(**config)
    rng = random.Random(7)
    states = playout(g, 3)
    for s in states[:: max(1, len(states) // 120)]:
        if s.is_terminal():
            continue
        for p in range(g.players):
            t = _perturbed(s, p, rng)
            assert t != s
            views = [s.view(p), t.view(p)]
            for v in views:
                str(v)
                v._repr_html_()
                v.describe()
                if v.current_player() == p:
                    [str(a) for a in v.legal_actions()]
            assert views[0] == views[1]
            assert fingerprint(views[0], g) == fingerprint(views[1], g)
            assert str(views[0]) == str(views[1])


def test_views_hold_no_hidden_values_anywhere():
    """No card count of another hand or gold total of another player is reachable
    from a view (besides sizes, which are public)."""
    g = game(3)
    s = planning_state(g, hands={1: {"village:lake:7": 2, "travel:raft": 3}}, gold=[12, 777, 12])
    v = s.view(0)
    v.legal_actions()
    objs = list(reachable(v))
    assert not any(type(o) is int and o == 777 for o in objs)
    assert v.hands[1] == (HIDDEN, 5) and v.supply[0] is HIDDEN


def test_policies_see_only_views_and_choose_the_same():
    """The game's players decide from ``view(p)`` exactly as from the full state (the
    search bot, which asks for it, from ``observed(p)``: the view carrying what ``p``
    observed; here with a small budget at 2 players, so a whole game stays quick)."""
    from kingdoms.core.search import MCTS, mcts_policy, strong_policy
    named = game(3).policies()
    assert isinstance(named["mcts"], MCTS)
    named["mcts"] = mcts_policy(2, rollout=named["mcts"].rollout)
    # the strong level thinks for a CPU time (not the same twice): a fixed small budget
    named["mcts-strong"] = strong_policy(seconds=None, simulations=2)
    for name, policy in named.items():
        g = game(2 if name.startswith("mcts") else 3)
        full = play_state(g, policies=policy, seed=9, views=False)

        def fair(state, rng, _policy=policy):
            p = state.current_player()
            seen = state.observed(p) if getattr(_policy, "observes", False) else state.view(p)
            return _policy(seen, rng)

        fair_end = play_state(g, policies=fair, seed=9, views=False)
        assert fair_end.history() == full.history(), name


# =========================================================================== options

def test_options_are_hashable_and_round_trip_through_json(tmp_path):
    """A game's ``config()`` holds hashable values only, and the JSON of it builds an
    equal game (a loaded record can be saved again)."""
    copy = tmp_path / "my-elves.toml"
    copy.write_text(DATA.read_text())
    games = [game(**c) for c in CONFIGS] + [
        game(3, player_names=("Ann", "Bob", "Cy")),
        game(2, player_names=["Ann", "Bob"]),           # a JSON list of names
        game(2, data=str(copy)), game(2, data=copy), game(4, teleport=True, data=copy)]
    for g in games:
        cfg = g.config()
        hash(tuple(cfg.items()))
        again = kingdoms.game("elves", **json.loads(json.dumps(cfg)))
        assert again == g and again.config() == cfg and hash(again) == hash(g)
        assert again.initial_state() == g.initial_state()
    assert game(2, data=copy).data == str(copy)


def test_data_edits_make_a_different_game(tmp_path):
    """A data file edited after a game was built gives a new game that uses the new
    numbers and does not compare equal to the old one."""
    f = tmp_path / "my-elves.toml"
    f.write_text(DATA.read_text())
    old = game(2, data=f)
    f.write_text(DATA.read_text().replace("starting_gold = 12", "starting_gold = 20"))
    new = game(2, data=f)
    assert new.initial_state().gold == (20, 20) and old.initial_state().gold == (12, 12)
    assert new != old and new.config() == old.config()
    assert game(2, data=f) == new


@pytest.mark.parametrize("options", [
    dict(players=True), dict(players=2.0), dict(player_names="AB"),
    dict(player_names=("A",)), dict(player_names=("A", "A")), dict(player_names=("A", 2)),
    dict(player_names=("A", "")), dict(data=5), dict(data=b"x.toml"),
    dict(teleport="no"), dict(teleport=1)])
def test_option_values_are_validated(options):
    kw = {"players": 2, **options}
    with pytest.raises(GameOptionError):
        kingdoms.game("elves", **kw)


# =========================================================================== bad actions

def _snapshot(s):
    return tuple(getattr(s, f.name) for f in dataclasses.fields(s)), hash(s)


def _decision_states():
    """A deal (chance), a planning turn, a search, a discard and a journey."""
    g = game(3, teleport=True)
    out = [g.initial_state()]
    s = planning_state(g, hands={0: {"travel:raft": 2, "special:gold": 1}},
                       realms=[(), ((PLAINS, ()),), ((LAKE, ()),)])
    out.append(s)
    s = s.apply(NoVillageCard(("travel:raft", "travel:raft", "special:gold")))
    out.append(s)
    out.append(s.apply(TakeVillage(LAKE, 0)))
    j = planning_state(g, hands={1: {"travel:giant_pig": 2, "travel:raft": 4}},
                       realms=[((PLAINS, ()),), ((PLAINS, ()),), ((LAKE, ()),)])
    j = j.apply(Pass()).apply(Pass()).apply(Pass()).apply(EndJourney())
    out.append(j)
    return out


MALFORMED = [
    None, ANY, "pass", 0, (), object(),
    Draw(ANY, 0), Draw(None, 0), Draw("travel:raft", "0"), Draw(HIDDEN, 0), Draw(["x"], 0),
    PlayVillage(ANY, 0), PlayVillage(PLAINS, ANY), PlayVillage(PLAINS, "1"),
    PlayVillage(["village"], 0), PlayVillage("village:plains:9", 0), PlayVillage("village:plain", 0),
    PlayVillage(PLAINS, 99), PlayVillage(PLAINS, -1), PlayVillage(None, None),
    NoVillageCard(ANY), NoVillageCard(("travel:raft", 3)), NoVillageCard(["travel:raft"]),
    TakeVillage(ANY, 0), TakeVillage(LAKE, "0"), TakeVillage(LAKE, 2), TakeVillage("lake", 0),
    Discard(ANY), Discard(None), Discard("travel:raftt"), Discard(3),
    Buy(ANY), Buy("1"), Buy(1.0), Buy(None), Buy(-1),
    PlaySpecial("gold", 0, ANY), PlaySpecial("golden", 0, 0), PlaySpecial("gold", 9, 9),
    PlaySpecial(None, 0, 0), RemoveVillage("0", 2), RemoveVillage(0, ANY),
    Visit(ANY, 1, 0, 0), Visit("giant_pig", "1", 0, 0), Visit("giant_pig", 1, 0, 0, escort=1),
    Visit("giant pig", 1, 0, 0), Visit("giant_pig", 1, 0, 0, thief_to=ANY),
    Teleport(ANY), Teleport("3"), TeleportCard(None), TeleportCard("rafts"),
    TeleportTo(0, 0, escort=None), TeleportTo(ANY, 0), TeleportTo(0, 0, gold=-5),
]


@pytest.mark.parametrize("index", range(5))
def test_malformed_actions_are_illegal_and_change_nothing(index):
    s = _decision_states()[index]
    before = _snapshot(s)
    for bad in MALFORMED:
        with pytest.raises(IllegalAction) as err:
            s.apply(bad)
        assert str(err.value)
        assert _snapshot(s) == before


def test_str_of_malformed_actions_never_raises():
    for bad in MALFORMED:
        text = str(bad)
        assert isinstance(text, str) and text
    assert "malformed" in str(PlayVillage(["x"], "0"))
    assert "malformed" in str(Visit(1, 2, 3, 4))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_mutated_action_fields_are_refused_or_equal_to_a_legal_action(data):
    """Any field of a legal action replaced by any value: ``apply`` raises
    ``IllegalAction`` (state unchanged) or the value is a legal action of that type."""
    states = [s for s in _decision_states() if not s.is_chance()]
    s = data.draw(st.sampled_from(states))
    acts = [a for a in s.legal_actions() if dataclasses.fields(a)]
    a = data.draw(st.sampled_from(acts))
    f = data.draw(st.sampled_from(dataclasses.fields(a)))
    value = data.draw(st.one_of(
        st.none(), st.just(ANY), st.booleans(), st.integers(-10**20, 10**20), st.text(max_size=12),
        st.floats(allow_nan=True), st.just(HIDDEN), st.lists(st.integers(), max_size=2),
        st.tuples(st.text(max_size=3)), st.sampled_from(s.game.kinds)))
    bad = dataclasses.replace(a, **{f.name: value})
    assert isinstance(str(bad), str)
    before = _snapshot(s)
    try:
        nxt = s.apply(bad)
    except IllegalAction:
        assert _snapshot(s) == before
    else:
        assert bad in s.legal_actions() and nxt._last[1] in s.legal_actions()


# =========================================================================== data files

def _dump_toml(d, prefix=""):
    """A small TOML writer for the data file's shapes (tables, lists, scalars)."""
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {val(x)}" for k, x in v.items()) + " }"
        raise TypeError(v)

    lines, tables = [], []
    for k, v in d.items():
        if isinstance(v, dict) and any(isinstance(x, dict) for x in v.values()) or \
                isinstance(v, dict) and not prefix:
            tables.append((k, v))
        else:
            lines.append(f"{json.dumps(k)} = {val(v)}")
    out = "\n".join(lines) + "\n"
    for k, v in tables:
        name = f"{prefix}.{json.dumps(k)}" if prefix else json.dumps(k)
        out += f"\n[{name}]\n" + _dump_toml(v, name)
    return out


def _raw():
    import tomllib
    return tomllib.loads(DATA.read_text())


def _with(raw, key, value):
    raw = json.loads(json.dumps(raw))
    node = raw
    parts = key.split(".")
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = value
    return raw


def _game_from(tmp_path, raw, players=3, teleport=True, name="fuzz.toml"):
    f = tmp_path / name
    f.write_text(_dump_toml(raw))
    return kingdoms.game("elves", players=players, teleport=teleport, data=str(f))


def test_dumped_data_file_is_the_packaged_game(tmp_path):
    g = _game_from(tmp_path, _raw())
    assert g.deck == game(3).deck and g.numbers == game(3).numbers


def test_data_villages_per_realm_zero_is_refused(tmp_path):
    """"A player's realm may have up to two village cards": with 0 a village in hand
    could never be played (states without a legal action)."""
    with pytest.raises(DataError, match=r"rules\.villages_per_realm'.*from 1 to 6"):
        _game_from(tmp_path, _with(_raw(), "rules.villages_per_realm", 0))


@pytest.mark.parametrize("key", sorted(NUMBER_RANGES))
def test_data_rule_numbers_outside_their_range_are_refused(tmp_path, key):
    lo, hi = NUMBER_RANGES[key]
    for bad in (lo - 1, hi + 1, -10**9, 10**18, "3", 2.5, True, [1]):
        with pytest.raises(DataError, match=re.escape(f"rules.{key}")):
            _game_from(tmp_path, _with(_raw(), f"rules.{key}", bad))


@pytest.mark.parametrize("key, value, words", [
    ("rules.discard_cards", 3, "from 4 to 11"),          # draw 3, discard 3: no end
    ("rules.rounds.3", 10**9, "rules.rounds.3"),
    ("rules.rounds.3", 0, "rules.rounds.3"),
    ("rules.rounds.9", 2, "rules.rounds.9"),
    ("rules.buy_costs", [1, -2], "rules.buy_costs"),
    ("rules.buy_costs", [1, "2"], "rules.buy_costs"),
    ("travel.cards.raft", -1, "travel.cards.raft"),
    ("travel.cards.raft", 10**9, "travel.cards.raft"),
    ("travel.costs.raft.river", 0, "travel.costs.raft.river"),
    ("villages.values.lake", [7, 7, 7, 0], "villages.values.lake"),
    ("villages.values.lake", [7, 7, 7, "7"], "villages.values.lake"),
    ("villages.terrains", [1, 2], "villages.terrains"),
    ("villages.terrains", ["plains", "Forest:x"], "villages.terrains"),
    ("villages.terrains", [], "villages.terrains"),
    ("special.tree_terrains", ["plains", "swamp"], "special.tree_terrains"),
    ("special.sea_monster_terrains", [3], "special.sea_monster_terrains"),
    ("special.cards.gold", -5, "special.cards.gold"),
    ("cards.total", -120, "cards.total"),
])
def test_data_values_of_wrong_type_or_range_name_the_key(tmp_path, key, value, words):
    with pytest.raises(DataError, match=re.escape(words)):
        _game_from(tmp_path, _with(_raw(), key, value))


def _extreme(raw, key, value):
    """``raw`` with ``key`` at ``value`` and the totals kept consistent."""
    raw = _with(raw, key, value)
    def counts(table):          # the numbers, not the notes beside them
        return [v for k, v in table.items() if not is_note(k)]

    for section in ("travel", "special"):
        raw[section]["total"] = sum(counts(raw[section]["cards"]))
    raw["villages"]["total"] = sum(len(v) for v in counts(raw["villages"]["values"]))
    raw["cards"]["total"] = (raw["villages"]["total"] + raw["travel"]["total"]
                             + raw["special"]["total"])
    return raw


EXTREMES = ([(f"rules.{k}", lo) for k, (lo, hi) in NUMBER_RANGES.items()]
            + [(f"rules.{k}", hi) for k, (lo, hi) in NUMBER_RANGES.items()
               if k != "draw_cards"]
            + [("rules.draw_cards", 10), ("rules.discard_cards", 11), ("rules.buy_costs", []),
               ("rules.buy_costs", [0] * 10), ("rules.rounds.3", 10), ("rules.rounds.2", 1),
               ("travel.cards.raft", 0), ("travel.cards.raft", 200), ("special.cards.escort", 200),
               ("special.cards.change_direction", 200), ("villages.values.lake", [99] * 200),
               ("villages.values.plains", [1]), ("special.tree_terrains", []),
               ("travel.costs.raft", {"river": 10, "lake": 10})])


@pytest.mark.parametrize("key, value", EXTREMES, ids=[f"{k}={str(v)[:12]}" for k, v in EXTREMES])
def test_data_extreme_but_valid_files_make_games_that_end(tmp_path, key, value):
    """Every number at the end of its range: the game builds, has a legal action at
    every decision and ends by its rules (random players and the game's own)."""
    raw = _extreme(_raw(), key, value)
    if key == "rules.draw_cards":
        raw["rules"]["discard_cards"] = 11
    for players in (2, 3):
        g = _game_from(tmp_path, raw, players=players)
        states = playout(g, seed=1, max_steps=60_000)
        for s in states:
            if s.current_player() >= 0:
                assert s.legal_actions()
        assert states[-1].is_terminal() and states[-1].unfinished() is None
    g = _game_from(tmp_path, raw, players=2, teleport=False)
    end = play_state(g, policies=g.default_policies(), seed=2, max_steps=60_000)
    assert end.is_terminal() and end.unfinished() is None


def _numeric_keys(raw, prefix=""):
    for k, v in raw.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            yield from _numeric_keys(v, key + ".")
        elif isinstance(v, (int, list)) and not isinstance(v, bool):
            yield key


NUMERIC_KEYS = sorted(_numeric_keys(_raw()))


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(NUMERIC_KEYS),
       value=st.one_of(st.integers(-10**12, 10**12), st.integers(-3, 40), st.floats(allow_nan=True),
                       st.text(max_size=5), st.booleans(),
                       st.lists(st.one_of(st.integers(-5, 300), st.text(max_size=3)), max_size=6)),
       consistent=st.booleans())
def test_data_fuzzed_files_are_refused_or_play_to_the_end(tmp_path, key, value, consistent):
    """Fuzzed data files: a ``DataError`` naming a key, or a game that ends."""
    raw = _raw()
    try:
        raw = _extreme(raw, key, value) if consistent else _with(raw, key, value)
        text = _dump_toml(raw)
    except (TypeError, ValueError):
        return
    f = tmp_path / "fuzz.toml"
    f.write_text(text)
    try:
        g = kingdoms.game("elves", players=3, data=str(f))
    except DataError as e:
        assert re.search(r"'[a-z_.0-9]+'", str(e)), str(e)
        return
    end = playout(g, seed=3, max_steps=60_000)[-1]
    assert end.is_terminal()


def test_game_objects_are_deeply_immutable():
    """No plain dict, list or set is reachable from a game (nor from a state)."""
    for c in CONFIGS:
        g = game(**c)
        s = play_state(g, seed=1)
        for root in (g, s, g.journey_rules, s.path()[len(s.path()) // 2]):
            mutable = [type(o).__name__ for o in reachable(root)
                       if type(o) in (dict, list, set, bytearray)]
            assert not mutable, (c, mutable[:5])
    with pytest.raises(TypeError):
        g.index["travel:raft"] = 0
    with pytest.raises(TypeError):
        g.numbers["starting_gold"] = 99


# =========================================================================== players

def test_game_players_are_named_one_way():
    """Renders and summaries use ``player_name`` (names, or "Player 1", 1-based);
    action texts say "Player 1" for the first player, never a 0-based index."""
    names = ("Ann", "Bob", "Cy")
    g = game(3, player_names=names)
    end = play_state(g, seed=4)
    mid = end.path()[len(end.path()) // 2]
    for s in (mid, mid.view(0), end):
        text = str(s) + s._repr_html_()
        assert not re.search(r"[Pp]layer \d", text), text
        assert all(n in text for n in names)
    ledger = ledger_text(end)
    assert "Ann" in ledger and "the bank" in ledger and not re.search(r"\(\d", ledger)
    assert str(Draw("travel:raft", 0)) == "Player 1 draws raft"
    assert str(PlayVillage(PLAINS, 2)) == "play the plains village (2) into Player 3's realm"
    assert "Player 2's village 1" in str(Visit("raft", 1, 1, 0, gold=3, thief=2, thief_to=0))
    assert "to Player 1" in str(Visit("raft", 1, 1, 0, gold=3, thief=2, thief_to=0))
    for who, a in end.history():
        assert "player 0" not in str(a).lower()
    unnamed = game(3)
    assert "Player 1" in str(unnamed.initial_state()) and "Player 0" not in str(unnamed.initial_state())


def test_the_game_offers_its_players_and_defaults_that_end_by_the_rules():
    g = game(4)
    assert type(g).hidden_information is True
    named = g.policies()
    assert {"random", "planner", "homebody"} <= set(named) and named["random"] is random_policy
    defaults = g.default_policies()
    assert len(defaults) == 4
    end = play_state(g, policies=defaults, seed=3)
    assert end.is_terminal() and end.unfinished() is None and max(end.gold) > 12


def test_action_texts_use_the_given_names():
    """Players are named one way: with player_names set, the Stepper's buttons and
    move log (``game.action_text``) say "Anna", not "Player 1"."""
    import random
    names = ("Anna", "Bob", "Carl")
    game = kingdoms.game("elves", players=3, player_names=names)
    plain = kingdoms.game("elves", players=3)
    state, rng, texts = game.initial_state(), random.Random(5), []
    while len(texts) < 60 and not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        for a in state.legal_actions():
            texts.append(game.action_text(a))
            assert plain.action_text(a) == str(a)
        state = state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
    joined = " ".join(texts)
    assert "Player 1" not in joined and "Player 2" not in joined
    assert any(n in joined for n in names)
