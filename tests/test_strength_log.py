"""``benchmarks/strength.py`` keeps a log of the games it played, so a strength run of
many hours can stop (``--hours``, an interrupt) and go on later: a second run plays
only the games the log lacks, and the report counts all of them."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import strength  # noqa: E402

ARGS = ["--only", "woods", "--simulations", "3", "--skip", "speed,moritz,peer",
        "--jobs", "1", "--rivals", "random"]


def _rows(path):
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_second_run_goes_on_where_the_log_ends(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    strength.main([*ARGS, "--games", "2", "--log", str(log)])
    first = _rows(log)
    assert [(r["rival"], r["index"], len(r["ours"])) for r in first] == [("random", 0, 2)]
    assert "2 of 4 so far" not in capsys.readouterr().out
    strength.main([*ARGS, "--games", "4", "--log", str(log)])
    rows = _rows(log)
    assert rows[0] == first[0] and [r["index"] for r in rows] == [0, 1]   # only block 1 new
    out = capsys.readouterr().out
    assert "[4 games;" in out and "so far" not in out
    # the same games as one run of four (game i is seeded by its index)
    again = tmp_path / "again.jsonl"
    strength.main([*ARGS, "--games", "4", "--log", str(again)])
    assert [r["ours"] for r in _rows(again)] == [r["ours"] for r in rows]


def test_a_run_past_its_hours_reports_what_it_played(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    strength.main([*ARGS, "--games", "6", "--log", str(log), "--hours", "1e-9"])
    out = capsys.readouterr().out
    played = len(_rows(log))
    assert played < 3
    assert ("of 6 so far: run again to go on" in out) if played else ("no game played" in out)


def test_games_of_another_budget_or_code_do_not_count(tmp_path, monkeypatch, capsys):
    log = tmp_path / "games.jsonl"
    strength.main([*ARGS, "--games", "2", "--log", str(log)])
    monkeypatch.setattr(strength, "code_fingerprint", lambda name: "changed")
    strength.main([*ARGS, "--games", "2", "--log", str(log)])
    assert len({r["key"] for r in _rows(log)}) == 2
    capsys.readouterr()


def test_the_fingerprint_hashes_what_a_game_runs_and_nothing_else():
    root = Path(strength.kingdoms.__file__).parent
    files = {f.relative_to(root).as_posix() for f in strength.run_files("woods")}
    assert {"core/search.py", "core/cards.py", "core/protocol.py", "woods/rules.py",
            "woods/policies.py", "woods/worlds.py", "woods/data.toml"} <= files
    assert not {f for f in files if "render" in f or "widgets" in f or "horse" in f
                or "openspiel" in f}
    peer = {f.relative_to(root).as_posix() for f in strength.run_files("woods", True)}
    assert peer - files >= {"interop/openspiel.py", "woods/render.py"}
    assert strength.code_fingerprint("woods") != strength.code_fingerprint("woods", True)


@pytest.mark.slow
def test_every_module_a_strength_game_loads_is_in_its_fingerprint():
    """The static closure of imports misses nothing a game imports at run time: in a
    fresh process per game, play a tiny seat-balanced pair against the best heuristic
    (then list what got loaded), then a game through the OpenSpiel adapter."""
    import subprocess
    pytest.importorskip("open_spiel")
    for name in strength.GAMES:
        script = (
            "import sys, json\n"
            f"sys.path.insert(0, {str(Path(strength.__file__).parent)!r})\n"
            "import strength\n"
            "def loaded():\n"
            "    return sorted(m.__file__ for k, m in sys.modules.items()\n"
            "                  if k.startswith('kingdoms') and getattr(m, '__file__', None))\n"
            f"strength._h2h_job({name!r}, 'strong', None, 3, strength.BEST[{name!r}], 0)\n"
            "h2h = loaded()\n"
            f"strength._peer_job({name!r}, 0.002, 3, 0)\n"
            "print(json.dumps([h2h, loaded()]))\n")
        run = subprocess.run([sys.executable, "-c", script], capture_output=True,
                             text=True, timeout=600, check=True)
        h2h, peer = json.loads(run.stdout.splitlines()[-1])
        for files, fingerprinted in ((h2h, strength.run_files(name)),
                                     (peer, strength.run_files(name, True))):
            missing = {Path(f) for f in files} - {f.resolve() for f in fingerprinted}
            assert not missing, f"{name}: loaded but not fingerprinted: {sorted(missing)}"


@pytest.mark.parametrize("share,n,words", [(0.9, 40, "above ½"), (0.6, 40, "66.2%"),
                                           (0.1, 40, "below ½")])
def test_each_interval_says_whether_it_separates_from_a_half(share, n, words):
    assert words in strength._verdict(share, n)


def test_hours_zero_only_reports_the_log(tmp_path, capsys):
    """``--hours 0`` plays nothing, on worker processes too, and reports the log."""
    log = tmp_path / "games.jsonl"
    strength.main([*ARGS, "--games", "2", "--log", str(log)])
    before = log.read_text()
    capsys.readouterr()
    args = [a if a != "1" else "2" for a in ARGS]          # --jobs 2
    strength.main([*args, "--games", "4", "--log", str(log), "--hours", "0"])
    assert log.read_text() == before
    assert "2 of 4 so far: run again to go on" in capsys.readouterr().out


def test_a_peer_game_cut_by_a_safeguard_counts_apart(monkeypatch):
    """A game against OpenSpiel's bot that an engine safeguard ended (no winner by the
    rules) is logged as unfinished, so the report counts it apart instead of as ½."""
    pytest.importorskip("pyspiel")
    monkeypatch.setattr(strength, "_peer_game",
                        lambda args: (0.5, 10, 0.1, 5, 0.1, True))
    row = strength._peer_job("horse", 0.01, None, 0)
    assert row["ours"] == [0.5] and row["unfinished"] == [True]
    monkeypatch.undo()
    row = strength._peer_job("woods", 0.002, None, 1)      # a real, tiny game
    assert row["unfinished"] == [False] and row["ours"][0] in (0.0, 0.5, 1.0)
