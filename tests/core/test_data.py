import pytest

from kingdoms.core.data import DataError, load_data

SAMPLE = """
[die]
faces = ["1 sheep", "2 sheep", "pig"]
faces_source = "rulebook"
weight = 3
weight_assumed = "nobody says; three is the mode of similar dice"

[[cards]]
name = "Fool"
copies = 4
copies_assumed = "even split"
"""


def test_reads_values_provenance_and_assumptions(tmp_path):
    p = tmp_path / "d.toml"
    p.write_text(SAMPLE)
    d = load_data("kingdoms", p)
    assert d.get("die.faces", list) == ("1 sheep", "2 sheep", "pig")
    assert d.get("cards.0.copies", int) == 4
    keys = {a.key: (a.value, a.reason) for a in d.assumptions()}
    assert keys == {"die.weight": (3, "nobody says; three is the mode of similar dice"),
                    "cards.Fool.copies": (4, "even split")}
    assert d.sources() == [("die.faces", "rulebook")]
    assert "ASSUMES" in d.assumptions_table()


def test_bad_files_name_the_key(tmp_path):
    p = tmp_path / "d.toml"
    p.write_text(SAMPLE)
    d = load_data("kingdoms", p)
    with pytest.raises(DataError, match=r"'die.weight' should be a text, not 3$"):
        d.get("die.weight", str)
    with pytest.raises(DataError, match=r"'die.sides' is missing"):
        d.get("die.sides", int)
    bad = tmp_path / "bad.toml"
    bad.write_text("[die\nfaces=")
    with pytest.raises(DataError, match="not valid TOML"):
        load_data("kingdoms", bad)
    with pytest.raises(DataError, match="cannot read"):
        load_data("kingdoms", tmp_path / "missing.toml")


def test_bool_is_not_an_int(tmp_path):
    p = tmp_path / "d.toml"
    p.write_text("x = true\n")
    with pytest.raises(DataError, match="'x' should be a whole number, not true"):
        load_data("kingdoms", p).get("x", int)


def test_game_data_pickles_for_worker_processes(tmp_path):
    import pickle
    p = tmp_path / "d.toml"
    p.write_text(SAMPLE)
    d = load_data("kingdoms", p)
    again = pickle.loads(pickle.dumps(d))
    assert again.get("die.faces", list) == d.get("die.faces", list)
    assert again.assumptions() == d.assumptions()
    assert "mappingproxy" not in str(d.assumptions()[0])


def test_only_regular_files_are_read(tmp_path):
    import os
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)                  # reading would block forever
    with pytest.raises(DataError, match="not a regular file"):
        load_data("kingdoms", fifo)
    with pytest.raises(DataError, match="not a regular file"):
        load_data("kingdoms", "/dev/zero")       # would exhaust memory
    with pytest.raises(DataError, match="cannot read"):
        load_data("kingdoms", tmp_path)


def test_game_data_passes_through_and_has_a_digest(tmp_path):
    from kingdoms.core.data import GameData
    d = GameData.from_toml(SAMPLE, "my copy")
    assert load_data("kingdoms", d) is d
    p = tmp_path / "d.toml"
    p.write_text(SAMPLE)
    from_file = load_data("kingdoms", p)
    assert from_file.digest() == d.digest() == __import__("hashlib").sha256(
        SAMPLE.encode()).hexdigest()
    assert from_file == d and hash(from_file) == hash(d)
    assert GameData.from_toml(SAMPLE + "\nx = 1\n").digest() != d.digest()
    with pytest.raises(DataError, match="my copy: not valid TOML"):
        GameData.from_toml("[x", "my copy")
    with pytest.raises(DataError, match="not valid TOML"):
        GameData.from_toml("x = " + "9" * 5000)
    with pytest.raises(TypeError, match="data should be None, a path"):
        load_data("kingdoms", 5)


def test_packaged_data_keeps_its_text():
    d = load_data("kingdoms.elves")
    assert d.text and d.origin == "kingdoms.elves/data.toml" and len(d.digest()) == 64


def test_embedded_data_is_a_str_that_never_opens_a_file():
    import pickle
    from kingdoms.core.data import EmbeddedData, GameData
    d = GameData.from_toml(SAMPLE, "my copy")
    e = EmbeddedData(d)
    assert isinstance(e, str) and d.digest() in e
    assert load_data("kingdoms", e) is d                 # no file named like it is read
    assert e == EmbeddedData(GameData.from_toml(SAMPLE, "elsewhere"))    # by content
    assert pickle.loads(pickle.dumps(e)).data == d
    with pytest.raises(TypeError):
        EmbeddedData("a path")
