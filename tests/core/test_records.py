import json

import pytest
from hypothesis import given, settings, strategies as st

from kingdoms.core import GameRecord, RecordError, play, random_policy
from kingdoms.core.records import decode_value, encode_value
from toygame import Deal, HighCard
from fractions import Fraction


def test_round_trip_replays_identically():
    rec = play(HighCard(players=3), seed=11)
    again = GameRecord.from_json(rec.to_json())
    assert again.steps == rec.steps
    assert again.replay() == rec.replay()
    assert [s for s in again.states()] == rec.states()


def test_values_encode_and_decode():
    for v in [1, "x", None, True, Fraction(2, 3), (1, (2, "a")), frozenset({1, 2}), Deal(3)]:
        assert decode_value(json.loads(json.dumps(encode_value(v)))) == v


def test_malformed_records_name_the_bad_key():
    good = json.loads(play(HighCard(), seed=1).to_json())
    cases = [
        ({**good, "format": "other"}, "format"),
        ({k: v for k, v in good.items() if k != "steps"}, "steps: missing"),
        ({**good, "steps": [{"who": 0}]}, r"steps\[0\]: expected keys"),
        ({**good, "steps": [{"who": "x", "action": {}}]}, r"steps\[0\].who"),
        ({**good, "steps": [{"who": "chance", "action": {"type": "os.system", "card": 1}}]},
         r"steps\[0\].action.type: 'os.system' is not a known action type"),
        ({**good, "steps": [{"who": "chance", "action": {"type": "highcard/Deal", "card": 1,
                                                          "evil": 2}}]},
         r"steps\[0\].action: highcard/Deal has no field evil"),
    ]
    for d, message in cases:
        with pytest.raises(RecordError, match=message):
            GameRecord.from_dict(d)
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.from_json("{")


def test_mismatched_records_are_rejected_at_replay():
    d = json.loads(play(HighCard(), seed=1).to_json())
    d["steps"][0]["action"]["card"] = 7
    with pytest.raises(RecordError, match=r"steps\[0\].action: deal a 7 cannot happen"):
        GameRecord.from_dict(d).replay()
    d = json.loads(play(HighCard(), seed=1).to_json())
    d["steps"][0]["who"] = 1
    with pytest.raises(RecordError, match=r"steps\[0\].who: the record says 1 acts"):
        GameRecord.from_dict(d).replay()
    d = json.loads(play(HighCard(), seed=1).to_json())
    d["config"]["players"] = 9
    with pytest.raises(RecordError, match="config: High Card is for 2-3 players"):
        GameRecord.from_dict(d).replay()


def test_save_and_load(tmp_path):
    rec = play(HighCard(), seed=5)
    rec.save(tmp_path / "r.json")
    assert GameRecord.load(tmp_path / "r.json").replay() == rec.replay()


# ---- records load anywhere (issue 17, "Records") -------------------------------------

def _fresh_python(code: str, stdin: str = "") -> str:
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


@pytest.mark.parametrize("name", ["elves", "horse"])
def test_a_record_replays_in_a_fresh_python_session(name):
    import kingdoms
    rec = play(kingdoms.game(name), random_policy, seed=7, views=False)
    code = ("import sys; from kingdoms.core import GameRecord\n"
            "end = GameRecord.from_json(sys.stdin.read()).replay()\n"
            "print(len(end.history()), end.returns())")
    out = _fresh_python(code, rec.to_json())
    end = rec.replay()
    assert out.strip() == f"{len(end.history())} {end.returns()}"


def test_action_types_are_named_per_game_not_by_module_path():
    import kingdoms
    from kingdoms.core.protocol import action_type_name
    rec = play(kingdoms.game("horse"), random_policy, seed=1, views=False)
    types = {s["action"]["type"] for s in rec.to_dict()["steps"]}
    assert types and all(t.startswith("horse/") and "." not in t for t in types)
    assert action_type_name(Deal) == "highcard/Deal"           # explicit stable name
    assert rec.to_dict()["format"] == 2


def _as_format_1(d: dict) -> dict:
    """The same record as format 1 wrote it (types named by module path)."""
    from kingdoms.core.protocol import registered_action_type

    def old(x):
        if isinstance(x, dict):
            out = {k: old(v) for k, v in x.items()}
            if "type" in x:
                cls = registered_action_type(x["type"])
                out["type"] = f"{cls.__module__}.{cls.__qualname__}"
            return out
        if isinstance(x, list):
            return [old(v) for v in x]
        return x
    return {"format": "kingdoms-record/1", "game": d["game"], "config": d["config"],
            "seed": d["seed"], "steps": old(d["steps"])}


def test_format_1_records_still_read():
    rec = play(HighCard(players=3), seed=11)
    v1 = _as_format_1(rec.to_dict())
    assert v1["steps"][0]["action"]["type"] == "toygame.Deal"
    assert GameRecord.from_dict(v1).replay() == rec.replay()


def test_format_1_names_of_moved_classes_map_to_the_game_package():
    import kingdoms
    from kingdoms.core.protocol import legacy_action_type, registered_action_type
    rec = play(kingdoms.game("woods"), random_policy, seed=2, views=False)
    v1 = _as_format_1(rec.to_dict())
    assert v1["steps"][0]["action"]["type"].startswith("kingdoms.woods.")
    assert GameRecord.from_dict(v1).replay() == rec.replay()
    # a module that no longer exists: the game package and the class name decide
    assert legacy_action_type("kingdoms.woods.old_module.Play") is registered_action_type("woods/Play")
    assert legacy_action_type("kingdoms.woods.old_module.NoSuchThing") is None


# ---- hostile records fail fast with RecordError naming the field --------------------

def _good():
    return json.loads(play(HighCard(), seed=1).to_json())


def _with_action(action):
    d = _good()
    d["steps"][0]["action"] = action
    return json.dumps(d)


HOSTILE = [
    (_with_action({"type": "highcard/Deal", "card": {"fraction": "1e100000000"}}),
     r"steps\[0\].action.card.fraction: '1e100000000' is not a fraction"),
    (_with_action({"type": "highcard/Deal", "card": {"fraction": "1/0"}}),
     r"steps\[0\].action.card.fraction: '1/0' divides by zero"),
    (_with_action({"type": "highcard/Deal", "card": {"frozenset": 5}}),
     r"steps\[0\].action.card.frozenset: should be a list"),
    (_with_action({"type": "highcard/Deal", "card": {"frozenset": [[1, [2]], {"x": 1}]}}),
     r"steps\[0\].action.card.frozenset\[1\]: an object needs a 'type'"),
    (_with_action({"type": "highcard/Deal", "card": {"frozenset": [{"frozenset": []}, [[]]]}}),
     None),                                          # legal values, just not a card
    (_with_action({"type": "highcard/Deal"}).replace('"type": "highcard/Deal"',
                                                     '"type": "highcard/Deal", "card": ' + "9" * 5000),
     r"steps\[0\].action.card: the number 999999999999\.\.\. \(5000 characters\) is too large"),
    (_with_action({"type": "highcard/Deal"}).replace('"type": "highcard/Deal"',
                                                     '"type": "highcard/Deal", "card": ' + "9" * 30),
     r"steps\[0\].action.card: the number is too large"),
    (_with_action({"type": "highcard/Deal"}).replace('"type": "highcard/Deal"',
                                                     '"type": "highcard/Deal", "card": NaN'),
     r"steps\[0\].action.card: the number NaN is too large \(or not finite\)"),
    (_with_action({"type": "highcard/Deal", "card": 1e308 * 10}), r"not finite"),
    (_with_action({"type": "highcard/Deal", "card": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}),
     r"steps\[0\].action.card(\[0\])+: nested more than"),
    ("[" * 100_000 + "]" * 100_000, r"nest more than 64 levels deep \(the limit\)"),
    (_with_action({"type": "highcard/Deal", "card": "x" * 20_000}),
     r"steps\[0\].action.card: the text is longer than"),
    (_with_action({"type": ["highcard/Deal"]}), r"steps\[0\].action.type: list is not"),
    (_with_action({"type": "kingdoms.core.protocol.Game"}),
     r"steps\[0\].action.type: 'kingdoms.core.protocol.Game' is not a known action type"),
    (json.dumps({**_good(), "seed": [1, 2]}), r"seed: a list is not a seed"),
    (json.dumps({**_good(), "game": "nosuchgame"}), r"game: no game called 'nosuchgame'"),
    (json.dumps({**_good(), "steps": [{"who": 10 ** 40, "action": None}]}),
     r"steps\[0\].who: a huge number is neither"),
    (json.dumps({**_good(), "data": {"sha256": "0" * 64}}), r"data: the record embeds data, but"),
    (json.dumps({**_good(), "extra": 1}), r"extra: not a key of a format 2 record"),
    ('{"format": 2, "game": "highcard", "config": {}, "steps": ' + "[" * 50 + "]" * 50 + "}",
     r"steps\[0\]: expected keys"),
]


@pytest.mark.parametrize("text, message", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_records_fail_fast_naming_the_field(text, message):
    with pytest.raises(RecordError, match=message or "steps"):
        GameRecord.from_json(text).replay()


def test_a_huge_record_is_refused_before_parsing():
    from kingdoms.core.records import MAX_RECORD_CHARS
    with pytest.raises(RecordError, match="longer than"):
        GameRecord.from_json(" " * (MAX_RECORD_CHARS + 1))


def _json_values(depth=3):
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                        st.text(max_size=8), st.sampled_from(["chance", "highcard/Deal", "1/0",
                                                              "kingdoms.core.protocol.Game"]))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["type", "fraction", "frozenset", "card", "who",
                                         "action", "sha256", "toml", "x"]), inner, max_size=3)),
        max_leaves=12)


def _paths(x, prefix=()):
    yield prefix
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, prefix + (i,))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data())
def test_mutated_records_give_record_error_or_replay(data):
    """Any value anywhere in a good record: it replays, or RecordError says why."""
    good = json.loads(play(HighCard(), seed=3).to_json())
    path = data.draw(st.sampled_from(list(_paths(good))))
    value = data.draw(_json_values())
    if path == ():
        d = value
    else:
        d = json.loads(json.dumps(good))
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    try:
        text = json.dumps(d, allow_nan=True)
    except (TypeError, ValueError):
        return
    try:
        end = GameRecord.from_json(text).replay()
    except RecordError as e:
        assert str(e)
    else:
        assert end.game.name == "highcard"


# ---- a record never makes the loader open a path; its data travels inside ----------

@pytest.fixture
def my_data_file(tmp_path):
    from kingdoms.core.data import load_data
    p = tmp_path / "my-forest.toml"
    p.write_text(load_data("kingdoms.black_forest").text + "\n# my own box\n", encoding="utf-8")
    return p


def test_a_users_data_file_is_embedded_and_never_read_back(my_data_file):
    import kingdoms
    from pathlib import Path
    game = kingdoms.game("black_forest", data=Path(my_data_file))     # a Path can be saved
    rec = play(game, random_policy, seed=4, views=False)
    text = rec.to_json()
    d = json.loads(text)
    assert d["config"]["data"] is None and "# my own box" in d["data"]["toml"]
    my_data_file.unlink()                                         # nothing to open
    again = GameRecord.from_json(text)
    assert again.replay() == rec.replay()
    assert again.make_game().game_data().digest() == d["data"]["sha256"]
    assert GameRecord.from_json(again.to_json()).replay() == rec.replay()   # saved again


def test_a_record_naming_a_path_is_refused():
    d = _good()
    d["config"]["data"] = "/etc/passwd"
    with pytest.raises(RecordError, match="config.data: should be null"):
        GameRecord.from_dict(d)
    import kingdoms
    v1 = _as_format_1(json.loads(play(kingdoms.game("black_forest"), random_policy, seed=1, views=False).to_json()))
    v1["config"]["data"] = "/dev/zero"
    rec = GameRecord.from_dict(v1)
    with pytest.raises(RecordError, match=r"records never open paths.*replay\(data=path\)"):
        rec.replay()


def test_replaying_against_different_data_is_refused(my_data_file):
    import kingdoms
    from kingdoms.core.data import GameData, load_data
    rec = play(kingdoms.game("black_forest", data=str(my_data_file)), random_policy, seed=4, views=False)
    other = load_data("kingdoms.black_forest")
    with pytest.raises(RecordError, match="other component data.*a different game"):
        rec.replay(data=other)
    same = GameData.from_toml(my_data_file.read_text(encoding="utf-8"), "my copy")
    assert rec.replay(data=same) == rec.replay()
    # the packaged data changed since the record was made
    plain = json.loads(play(kingdoms.game("black_forest"), random_policy, seed=4, views=False).to_json())
    plain["data"]["sha256"] = "0" * 64
    with pytest.raises(RecordError, match="other component data"):
        GameRecord.from_dict(plain).replay()
    # embedded text edited without its digest
    d = json.loads(rec.to_json())
    d["data"]["toml"] += "\n# edited\n"
    with pytest.raises(RecordError, match="does not match data.sha256"):
        GameRecord.from_dict(d)
