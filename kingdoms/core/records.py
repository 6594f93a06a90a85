"""Game records: the game's configuration and every action, as JSON.

A record replays to identical states.  Actions are written as
``{"type": "<module>.<Class>", "<field>": value, ...}`` and read back only through
the registry of ``Action`` subclasses, so reading a record never evaluates or
unpickles anything.  A malformed or mismatched record raises ``RecordError`` naming
the step and key at fault.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .protocol import CHANCE, Action, IllegalAction, State, action_type_name, registered_action_type

__all__ = ["GameRecord", "RecordError", "encode_value", "decode_value"]

FORMAT = "kingdoms-record/1"


class RecordError(ValueError):
    """A record that cannot be read or does not replay."""


def encode_value(x: Any) -> Any:
    """A JSON-able form of an action, outcome or field value."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return x
    if isinstance(x, Fraction):
        return {"fraction": str(x)}
    if isinstance(x, tuple):
        return [encode_value(v) for v in x]
    if isinstance(x, frozenset):
        return {"frozenset": sorted((encode_value(v) for v in x), key=json.dumps)}
    if isinstance(x, Action) and dataclasses.is_dataclass(x):
        out = {"type": action_type_name(type(x))}
        for f in dataclasses.fields(x):
            out[f.name] = encode_value(getattr(x, f.name))
        return out
    raise RecordError(f"cannot write {x!r} ({type(x).__name__}) to a record")


def decode_value(x: Any, where: str = "value") -> Any:
    """The inverse of ``encode_value`` (lists become tuples)."""
    if x is None or isinstance(x, (bool, int, str, float)):
        return x
    if isinstance(x, (list, tuple)):
        return tuple(decode_value(v, f"{where}[{i}]") for i, v in enumerate(x))
    if isinstance(x, dict):
        if set(x) == {"fraction"}:
            try:
                return Fraction(x["fraction"])
            except (ValueError, TypeError):
                raise RecordError(f"{where}.fraction: {x['fraction']!r} is not a fraction") from None
        if set(x) == {"frozenset"}:
            return frozenset(decode_value(v, f"{where}.frozenset") for v in x["frozenset"])
        if "type" not in x:
            raise RecordError(f"{where}: an object needs a 'type' key, got keys {sorted(x)}")
        cls = registered_action_type(x["type"]) if isinstance(x["type"], str) else None
        if cls is None:
            raise RecordError(f"{where}.type: {x['type']!r} is not a known action type")
        names = {f.name for f in dataclasses.fields(cls) if f.init}
        extra = set(x) - names - {"type"}
        if extra:
            raise RecordError(f"{where}: {x['type']} has no field {', '.join(sorted(extra))}")
        kwargs = {k: decode_value(v, f"{where}.{k}") for k, v in x.items() if k != "type"}
        try:
            return cls(**kwargs)
        except TypeError as e:
            raise RecordError(f"{where}: cannot build {x['type']}: {e}") from None
    raise RecordError(f"{where}: unexpected {type(x).__name__} in a record")


@dataclass(frozen=True)
class GameRecord:
    """One game from the start: which game, its options, and every step taken.

    ``steps`` is a tuple of ``(who, action)`` where ``who`` is a player index or
    ``CHANCE``.  ``seed`` is the seed it was played with, if any.
    """

    game: str
    config: dict = field(hash=False)
    steps: tuple = ()
    seed: Any = None

    @classmethod
    def of(cls, state: State, seed: Any = None) -> "GameRecord":
        """The record of the game that led to ``state``."""
        return cls(game=state.game.name, config=state.game.config(),
                   steps=state.history(), seed=seed)

    # -- JSON --------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.game,
            "config": {k: encode_value(v) for k, v in self.config.items()},
            "seed": self.seed,
            "steps": [{"who": "chance" if who == CHANCE else who, "action": encode_value(a)}
                      for who, a in self.steps],
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_dict(cls, d: Any) -> "GameRecord":
        if not isinstance(d, dict):
            raise RecordError("a record is a JSON object")
        if d.get("format") != FORMAT:
            raise RecordError(f"format: expected {FORMAT!r}, got {d.get('format')!r}")
        for key, kind in (("game", str), ("config", dict), ("steps", list)):
            if key not in d:
                raise RecordError(f"{key}: missing")
            if not isinstance(d[key], kind):
                raise RecordError(f"{key}: should be a {kind.__name__}")
        steps = []
        for i, step in enumerate(d["steps"]):
            if not isinstance(step, dict) or set(step) != {"who", "action"}:
                raise RecordError(f"steps[{i}]: expected keys 'who' and 'action'")
            who = step["who"]
            if who == "chance":
                who = CHANCE
            elif not (isinstance(who, int) and not isinstance(who, bool) and who >= 0):
                raise RecordError(f"steps[{i}].who: {who!r} is neither a player index nor 'chance'")
            steps.append((who, decode_value(step["action"], f"steps[{i}].action")))
        return cls(game=d["game"], config=d["config"], steps=tuple(steps), seed=d.get("seed"))

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e}") from None
        return cls.from_dict(d)

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    # -- replay ------------------------------------------------------------------
    def make_game(self):
        import kingdoms
        config = {k: decode_value(v, f"config.{k}") for k, v in self.config.items()}
        players = config.pop("players", None)
        try:
            return kingdoms.game(self.game, players=players, **config)
        except ValueError as e:
            raise RecordError(f"config: {e}") from None

    def states(self) -> list[State]:
        """Every state of the game, replayed from the start."""
        state = self.make_game().initial_state()
        out = [state]
        for i, (who, action) in enumerate(self.steps):
            if state.current_player() != who:
                raise RecordError(
                    f"steps[{i}].who: the record says {who!r} acts, but it is "
                    f"{state.current_player()!r} to act")
            try:
                state = state.apply(action)
            except IllegalAction as e:
                raise RecordError(f"steps[{i}].action: {e}") from None
            out.append(state)
        return out

    def replay(self) -> State:
        """The final state of the record."""
        return self.states()[-1]

    def __len__(self):
        return len(self.steps)
