"""Game records: the game's configuration and every action, as JSON.

A record replays to identical states, in any Python session: reading it imports the
game it names (through the registry, ``kingdoms.core.registry``).  Format 2::

    {"format": 2, "game": "horse", "config": {"players": 2, ...},
     "data": {"sha256": "..."} or {"sha256": "...", "toml": "...", "origin": "..."},
     "seed": 7, "unfinished": null, "steps": [{"who": "chance", "action": {...}}, ...]}

* Actions are written as ``{"type": "horse/DealCard", "<field>": value, ...}``: the
  game package and class name, never a module path, so moving code does not break
  records.  They are read back only through the registry of ``Action`` subclasses:
  reading a record never evaluates or unpickles anything.  Format-1 records (types
  named by module path, ``"kingdoms.horse.actions.DealCard"``) still read.
* ``data`` is the sha256 digest of the component data the game was played with; a
  user's own data file is embedded as its TOML text.  Reading a record never opens a
  path; replaying against other data than the record's is refused.
* ``seed`` (an int or a str, or null) is the seed the game was played with;
  ``unfinished`` is null when the game ended by its rules, else the sentence saying
  why the engine cut it (``State.unfinished()``).

A malformed, oversized or mismatched record raises ``RecordError`` naming the field
at fault, in bounded time and memory.
"""
from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .data import MAX_NESTING, DataError, EmbeddedData, GameData, load_data, nesting, too_deep
from .i18n import _
from .protocol import (CHANCE, Action, IllegalAction, State, action_type_name,
                       legacy_action_type, registered_action_type)

__all__ = ["GameRecord", "RecordError", "encode_value", "decode_value", "FORMAT"]

FORMAT = 2
FORMAT_1 = "kingdoms-record/1"

MAX_RECORD_CHARS = 20_000_000     # a record's JSON text
MAX_DEPTH = 24                    # nesting of values inside an action
MAX_STRING = 10_000               # any string but the embedded data text
MAX_INT = 2 ** 64                 # integers in actions, seeds and options
MAX_PLAYERS_INDEX = 1_000
_FRACTION = re.compile(r"-?[0-9]{1,40}(/[0-9]{1,40})?")


class RecordError(ValueError):
    """A record that cannot be read or does not replay."""


# --------------------------------------------------------------------------- values

def encode_value(x: Any) -> Any:
    """A JSON-able form of an action, outcome or field value."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        if not math.isfinite(x):
            raise RecordError(_("cannot write {value} to a record (not a finite number)").format(
                value=repr(x)))
        return x
    if isinstance(x, Fraction):
        return {"fraction": str(x)}
    if isinstance(x, (tuple, list)):
        return [encode_value(v) for v in x]
    if isinstance(x, frozenset):
        return {"frozenset": sorted((encode_value(v) for v in x), key=json.dumps)}
    if isinstance(x, Action) and dataclasses.is_dataclass(x):
        out = {"type": action_type_name(type(x))}
        for f in dataclasses.fields(x):
            out[f.name] = encode_value(getattr(x, f.name))
        return out
    raise RecordError(_("cannot write {kind} values to a record").format(kind=type(x).__name__))


class _BigNumber:
    """A JSON number too long to convert (kept as text until the decoder names it)."""

    def __init__(self, text: str):
        self.text = text


def _parse_int(text: str):
    return _BigNumber(text) if len(text) > 40 else int(text)


def _parse_float(text: str):
    return _BigNumber(text) if len(text) > 40 else float(text)


def _parse_constant(text: str):
    return _BigNumber(text)          # NaN, Infinity, -Infinity


def _loads(text: str) -> Any:
    if not isinstance(text, (str, bytes, bytearray)):
        raise RecordError(_("a record is JSON text, not {kind}").format(kind=type(text).__name__))
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(_("the record is longer than {count} characters").format(
            count=MAX_RECORD_CHARS))
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                           parse_constant=_parse_constant)
    except RecursionError:      # json's parser recurses: far too deep for MAX_NESTING
        raise RecordError(too_deep(_("the record's objects and lists"))) from None
    except (ValueError, UnicodeDecodeError) as e:   # JSONDecodeError is a ValueError
        raise RecordError(_("not JSON: {error}").format(error=e)) from None
    if nesting(value) > MAX_NESTING:    # before anything recurses over it
        raise RecordError(too_deep(_("the record's objects and lists")))
    return value


def _scalar(x: Any, where: str) -> Any:
    """A checked JSON scalar (None, bool, bounded int, finite float, short str)."""
    if x is None or isinstance(x, bool):
        return x
    if isinstance(x, int):
        if -MAX_INT <= x <= MAX_INT:
            return x
        raise RecordError(where + ": " + _("the number is too large"))
    if isinstance(x, float):
        if math.isfinite(x):
            return x
        raise RecordError(where + ": " + _("{value} is not a finite number").format(value=repr(x)))
    if isinstance(x, str):
        if len(x) <= MAX_STRING:
            return x
        raise RecordError(where + ": " + _("the text is longer than {count} characters").format(
            count=MAX_STRING))
    if isinstance(x, _BigNumber):
        shown = x.text if len(x.text) <= 20 else x.text[:12] + _("... ({count} characters)").format(
            count=len(x.text))
        raise RecordError(where + ": " + _("the number {number} is too large (or not finite)")
                          .format(number=shown))
    raise RecordError(where + ": " + _("unexpected {kind} in a record").format(
        kind=type(x).__name__))


def _decode_fraction(text: Any, where: str) -> Fraction:
    """``{"fraction": "2/3"}``'s text as a Fraction (a clear error otherwise)."""
    if not isinstance(text, str) or not _FRACTION.fullmatch(text):
        raise RecordError(where + ".fraction: " + _(
            "{value} is not a fraction like \"2/3\" (at most 40 digits each side)").format(
                value=_short(text)))
    num, _sep, den = text.partition("/")
    if den and int(den) == 0:
        raise RecordError(where + ".fraction: " + _("{value} divides by zero").format(
            value=repr(text)))
    return Fraction(int(num), int(den) if den else 1)


def decode_value(x: Any, where: str = "value", *, legacy: bool = False,
                 _depth: int = 0) -> Any:
    """The inverse of ``encode_value`` (lists become tuples).  ``legacy`` also reads
    format-1 action type names (module paths)."""
    if _depth > MAX_DEPTH:
        raise RecordError(where + ": " + _("nested more than {count} levels deep").format(
            count=MAX_DEPTH))
    if isinstance(x, list):
        return tuple(decode_value(v, f"{where}[{i}]", legacy=legacy, _depth=_depth + 1)
                     for i, v in enumerate(x))
    if not isinstance(x, dict):
        return _scalar(x, where)
    if set(x) == {"fraction"}:
        return _decode_fraction(x["fraction"], where)
    if set(x) == {"frozenset"}:
        items = x["frozenset"]
        if not isinstance(items, list):
            raise RecordError(where + ".frozenset: " + _("should be a list, not {kind}").format(
                kind=_kind(items)))
        try:
            return frozenset(decode_value(v, f"{where}.frozenset[{i}]", legacy=legacy,
                                          _depth=_depth + 1) for i, v in enumerate(items))
        except TypeError:
            raise RecordError(where + ".frozenset: " + _(
                "holds a value that cannot be in a set")) from None
    if "type" not in x:
        raise RecordError(where + ": " + _("an object needs a 'type' key, got keys {keys}").format(
            keys=_short(sorted(map(str, x)))))
    name = x["type"]
    if not isinstance(name, str) or len(name) > 200:
        raise RecordError(where + ".type: " + _("{value} is not an action type name").format(
            value=_short(name)))
    cls = registered_action_type(name)
    if cls is None and legacy:
        cls = legacy_action_type(name)
    if cls is None:
        raise RecordError(where + ".type: " + _("{value} is not a known action type").format(
            value=repr(name)))
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    extra = set(x) - names - {"type"}
    if extra:
        raise RecordError(where + ": " + _("{name} has no field {fields}").format(
            name=name, fields=_names(extra)))
    kwargs = {k: decode_value(v, f"{where}.{k}", legacy=legacy, _depth=_depth + 1)
              for k, v in x.items() if k != "type"}
    try:
        value = cls(**kwargs)
        hash(value)
    except Exception as e:
        raise RecordError(where + ": " + _("cannot build {name}: {error}").format(
            name=name, error=_short(str(e)))) from None
    return value


def _kind(x) -> str:
    return _("an object") if isinstance(x, dict) else type(x).__name__


def _names(keys) -> str:
    text = ", ".join(sorted(map(str, keys)))
    return text if len(text) <= 80 else text[:80] + "..."


def _short(x, limit: int = 60) -> str:
    """A short, safe rendering of a (possibly hostile) value for messages."""
    if isinstance(x, (dict, list)):
        return _kind(x)
    if isinstance(x, _BigNumber):
        return _("a huge number")
    text = repr(x) if not isinstance(x, int) or abs(x) < 10 ** 30 else _("a huge number")
    return text if len(text) <= limit else text[:limit] + "..."


# --------------------------------------------------------------------------- seeds

def check_seed(seed: Any) -> Any:
    """``seed`` if it is None, an int or a str (what records keep), else TypeError."""
    if seed is None or isinstance(seed, str) or (isinstance(seed, int)
                                                 and not isinstance(seed, bool)):
        return seed
    raise TypeError(_("a seed is an int or a str (or None), not {kind}: records keep it as "
                      "JSON and replay the same game with it").format(kind=type(seed).__name__))


# --------------------------------------------------------------------------- records

def _read_step(i: int, step: Any, legacy: bool) -> tuple:
    """Step ``i`` of a record: ``(who, action)``."""
    if not isinstance(step, dict) or set(step) != {"who", "action"}:
        raise RecordError(f"steps[{i}]: " + _("expected keys 'who' and 'action'"))
    who = step["who"]
    if who == "chance":
        who = CHANCE
    elif not (type(who) is int and 0 <= who < MAX_PLAYERS_INDEX):
        raise RecordError(f"steps[{i}].who: " + _(
            "{value} is neither a player index nor 'chance'").format(value=_short(who)))
    return who, decode_value(step["action"], f"steps[{i}].action", legacy=legacy)


@dataclass(frozen=True)
class GameRecord:
    """One game from the start: which game, its options, and every step taken.

    ``steps`` is a tuple of ``(who, action)`` where ``who`` is a player index or
    ``CHANCE``.  ``seed`` is the seed it was played with, if any (an int or a str).
    ``unfinished`` is ``None`` when the game ended by its rules, else why it was cut.
    ``data_sha256`` is the digest of the component data it was played with; a
    user's own data travels in ``config["data"]`` as a ``GameData``.
    """

    game: str
    config: dict = field(hash=False)
    steps: tuple = ()
    seed: Any = None
    unfinished: str | None = None
    data_sha256: str | None = None
    # format 1 named a data file by path; it is never opened (pass it to replay)
    data_path: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, state: State, seed: Any = None) -> "GameRecord":
        """The record of the game that led to ``state``."""
        game = state.game
        config = dict(game.config())
        digest = None
        if "data" in config:
            data = game.game_data()
            digest = data.digest()
            if config["data"] is not None:
                config["data"] = data          # embedded, never a path
        unfinished = state.unfinished() if state.is_terminal() else None
        return cls(game=game.name, config=config, steps=state.history(),
                   seed=check_seed(seed), unfinished=unfinished, data_sha256=digest)

    # -- JSON --------------------------------------------------------------------
    def to_dict(self) -> dict:
        try:
            check_seed(self.seed)
        except TypeError as e:
            raise RecordError(f"seed: {e}") from None
        config, data = {}, None
        for k, v in self.config.items():
            if k == "data" and v is not None:
                gd = load_data("kingdoms", v) if isinstance(v, (str, Path)) else v
                if not isinstance(gd, GameData) or gd.text is None:
                    raise RecordError("config.data: " + _(
                        "only data read from TOML text can be written to a record"))
                data = {"sha256": gd.digest(), "toml": gd.text, "origin": gd.origin}
                config[k] = None
            else:
                try:
                    config[k] = encode_value(v)
                except RecordError as e:
                    raise RecordError(f"config.{k}: {e}") from None
        if data is None and self.data_sha256 is not None:
            data = {"sha256": self.data_sha256}
        return {
            "format": FORMAT,
            "game": self.game,
            "config": config,
            "data": data,
            "seed": self.seed,
            "unfinished": self.unfinished,
            "steps": [{"who": "chance" if who == CHANCE else who, "action": encode_value(a)}
                      for who, a in self.steps],
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_dict(cls, d: Any) -> "GameRecord":
        legacy = cls._check_keys(d)
        name = _scalar(d["game"], "game")
        # reading the actions needs the game's action types: import the game
        from .registry import game_class
        try:
            game_class(name)
        except ValueError as e:              # GameOptionError: no such game
            raise RecordError(f"game: {e}") from None
        except ImportError as e:
            raise RecordError("game: " + _("{name} cannot be imported here ({error})").format(
                name=repr(name), error=e)) from None
        config, data_path = cls._read_config(d["config"], legacy)
        data_sha = None
        if not legacy and d.get("data") is not None:
            data_sha = cls._embed_data(d["data"], config)
        seed = d.get("seed")
        if isinstance(seed, list):
            raise RecordError("seed: " + _("a list is not a seed (seeds are ints or strs)"))
        seed = _scalar(seed, "seed")
        if seed is not None and not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise RecordError("seed: " + _("{value} is not an int or a str").format(
                value=repr(seed)))
        unfinished = None if legacy else _scalar(d.get("unfinished"), "unfinished")
        if unfinished is not None and not isinstance(unfinished, str):
            raise RecordError("unfinished: " + _("should be null or a sentence"))
        steps = tuple(_read_step(i, step, legacy) for i, step in enumerate(d["steps"]))
        return cls(game=name, config=config, steps=steps, seed=seed,
                   unfinished=unfinished, data_sha256=data_sha, data_path=data_path)

    @staticmethod
    def _check_keys(d: Any) -> bool:
        """Check the record's format and keys; True for a format-1 record."""
        if not isinstance(d, dict):
            raise RecordError(_("a record is a JSON object"))
        fmt = d.get("format")
        if fmt != FORMAT and fmt != FORMAT_1:
            raise RecordError("format: " + _("expected {format} (or the older {old}), got "
                                             "{value}").format(format=FORMAT, old=repr(FORMAT_1),
                                                               value=_short(fmt)))
        legacy = fmt == FORMAT_1
        for key, kind in (("game", str), ("config", dict), ("steps", list)):
            if key not in d:
                raise RecordError(key + ": " + _("missing"))
            if not isinstance(d[key], kind):
                raise RecordError(key + ": " + _("should be a {kind}").format(kind=kind.__name__))
        known = {"format", "game", "config", "steps", "seed"} | (
            set() if legacy else {"data", "unfinished"})
        extra = set(d) - known
        if extra:
            raise RecordError(_names(extra) + ": " + _("not a key of a format {format} "
                                                         "record").format(format=fmt))
        return legacy

    @staticmethod
    def _read_config(raw: dict, legacy: bool) -> tuple[dict, str | None]:
        config, data_path = {}, None
        for k, v in raw.items():
            if k == "data" and v is not None:
                if not legacy:               # the data travels in "data", never a path
                    raise RecordError("config.data: " + _(
                        "should be null (a record carries its data in 'data', never a path)"))
                if not isinstance(v, str) or len(v) > MAX_STRING:
                    raise RecordError("config.data: " + _("should be a file name or null"))
                data_path, v = v, None       # never opened: replay(data=...) instead
            config[k] = decode_value(v, f"config.{k}", legacy=legacy)
        return config, data_path

    @classmethod
    def _embed_data(cls, raw: Any, config: dict) -> str:
        """Read the record's embedded data into ``config["data"]``; its sha256."""
        data_sha, data_text = cls._read_data(raw)
        if "data" not in config:
            raise RecordError("data: " + _("the record embeds data, but its config has no "
                                           "'data' option"))
        if data_text is not None:
            origin = raw.get("origin")
            origin = (f"the record's data (first read from {origin})"
                      if isinstance(origin, str) and len(origin) < 500 else "the record's data")
            try:
                config["data"] = GameData.from_toml(data_text, origin)
            except DataError as e:
                raise RecordError(f"data.toml: {e}") from None
        return data_sha

    @staticmethod
    def _read_data(data: Any) -> tuple[str, str | None]:
        if not isinstance(data, dict):
            raise RecordError("data: " + _("should be an object, not {kind}").format(
                kind=_kind(data)))
        extra = set(data) - {"sha256", "toml", "origin"}
        if extra:
            raise RecordError("data: " + _("unexpected key {keys}").format(keys=_names(extra)))
        sha = data.get("sha256")
        if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
            raise RecordError("data.sha256: " + _("should be 64 hex digits"))
        text = data.get("toml")
        if text is None:
            return sha, None
        if not isinstance(text, str):
            raise RecordError("data.toml: " + _("should be TOML text, not {kind}").format(
                kind=_kind(text)))
        import hashlib
        if hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() != sha:
            raise RecordError("data.toml: " + _("the text does not match data.sha256 "
                                                "(the record was changed)"))
        return sha, text

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        return cls.from_dict(_loads(text))

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        p = Path(path)
        try:
            with open(p, "rb") as f:
                blob = f.read(MAX_RECORD_CHARS * 4 + 1)
        except OSError as e:
            raise RecordError(f"{p}: " + _("cannot read the record ({error})").format(
                error=e.strerror)) from None
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{p}: " + _("not UTF-8 text")) from None
        return cls.from_json(text)

    # -- replay ------------------------------------------------------------------
    def make_game(self, data: "GameData | str | Path | None" = None):
        """The game the record was played in.  ``data`` (a ``GameData`` or a path the
        caller chooses) replaces the record's component data; it must be the same
        data (same sha256) when the record knows its digest."""
        from .registry import game_class
        config = dict(self.config)
        players = config.pop("players", None)
        if data is not None:
            if "data" not in config:
                raise RecordError("data: " + _("{game} has no data option").format(game=self.game))
            try:
                data = load_data("kingdoms", data)
            except (DataError, TypeError) as e:
                raise RecordError(f"data: {e}") from None
            if self.data_sha256 is not None and data.digest() != self.data_sha256:
                raise RecordError("data: " + _(
                    "the record was played with other component data (sha256 "
                    "{ours}...) than the data given ({origin}, sha256 {theirs}...): replaying "
                    "would be a different game").format(
                        ours=self.data_sha256[:12], origin=data.origin,
                        theirs=data.digest()[:12]))
            config["data"] = EmbeddedData(data)
        elif self.data_path is not None:
            raise RecordError("config.data: " + _(
                "this format-1 record was played with the data file {path}; records never "
                "open paths. Replay it with that data given explicitly: "
                "record.replay(data=path)").format(path=repr(self.data_path)))
        if isinstance(config.get("data"), GameData):
            # handed over as a str that carries the data: every game's data option
            # takes it, and load_data returns the data without opening anything
            config["data"] = EmbeddedData(config["data"])
        try:
            game = game_class(self.game).create(players=players, **config)
        except (ValueError, TypeError) as e:
            raise RecordError(f"config: {e}") from None
        if data is None and self.data_sha256 is not None and "data" in config:
            ours = game.game_data()
            if ours.digest() != self.data_sha256:
                raise RecordError("data: " + _(
                    "the record was played with other component data (sha256 "
                    "{theirs}...) than {origin} (sha256 {ours}...): replaying would be a "
                    "different game. Pass the record's data: record.replay(data=...)").format(
                        theirs=self.data_sha256[:12], origin=ours.origin,
                        ours=ours.digest()[:12]))
        return game

    def states(self, data: "GameData | str | Path | None" = None) -> list[State]:
        """Every state of the game, replayed from the start (``data``: see
        ``make_game``)."""
        state = self.make_game(data).initial_state()
        out = [state]
        for i, (who, action) in enumerate(self.steps):
            if state.current_player() != who:
                raise RecordError(f"steps[{i}].who: " + _(
                    "the record says {who} acts, but it is {now} to act").format(
                        who=repr(who), now=repr(state.current_player())))
            try:
                state = state.apply(action)
            except IllegalAction as e:
                raise RecordError(f"steps[{i}].action: {e}") from None
            except Exception as e:         # a game refusing malformed fields late
                raise RecordError(f"steps[{i}].action: " + _(
                    "cannot be applied ({kind}: {error})").format(
                        kind=type(e).__name__, error=_short(str(e), 200))) from None
            out.append(state)
        return out

    def replay(self, data: "GameData | str | Path | None" = None) -> State:
        """The final state of the record."""
        return self.states(data)[-1]

    def __len__(self):
        return len(self.steps)
