import json

import pytest

from kingdoms.core import GameRecord, RecordError, play
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
        ({**good, "steps": [{"who": "chance", "action": {"type": "toygame.Deal", "card": 1,
                                                          "evil": 2}}]},
         r"steps\[0\].action: toygame.Deal has no field evil"),
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
