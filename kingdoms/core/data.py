"""Component data files: TOML with the provenance of every number.

Each game keeps its components in ``kingdoms/<game>/data.toml``.  Beside any value
``key`` the file may say where it comes from:

* ``key_source = "..."`` — the value is known; the text names the source
  (the rulebook, a public card table ...);
* ``key_assumed = "..."`` — nobody publishes the value; this copy ASSUMES it, and the
  text gives the reason.  A user with the real box edits the value (and the note).

``load_data`` reads such a file (the packaged one, or a user's copy given by path)
into plain immutable Python values; ``assumptions`` lists every assumed value so a
notebook can show them.  Malformed files raise ``DataError`` naming the bad key.
"""
from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["DataError", "GameData", "EmbeddedData", "load_data", "Assumption"]


class DataError(ValueError):
    """A component data file that cannot be used; the message names the key."""


@dataclass(frozen=True)
class Assumption:
    key: str          # dotted path, e.g. "king_die.faces"
    value: Any
    reason: str

    def __str__(self):
        return f"{self.key} = {_thaw(self.value)!r}  (assumed: {self.reason})"


def _thaw(x):
    if isinstance(x, Mapping):
        return {k: _thaw(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return [_thaw(v) for v in x]
    return x


def _freeze(x):
    if isinstance(x, dict):
        return MappingProxyType({k: _freeze(v) for k, v in x.items()})
    if isinstance(x, list):
        return tuple(_freeze(v) for v in x)
    return x


class GameData:
    """The parsed data file: ``data["table"]["key"]`` plus typed getters.

    The getters (``data.get("king_die.faces", list)``) raise ``DataError`` naming the
    file and the key when a value is missing or has the wrong type.
    """

    def __init__(self, raw: Mapping, origin: str, text: str | None = None):
        self.raw = _freeze(raw)
        self.origin = origin
        self.text = text        # the TOML text it was read from (records embed it)

    @classmethod
    def from_toml(cls, text: str, origin: str = "data given as text") -> "GameData":
        """Parse TOML ``text`` (e.g. a record's embedded data); ``origin`` names it in
        messages.  Bad TOML (or text over 1 MB) raises ``DataError``."""
        if not isinstance(text, str):
            raise DataError(f"{origin}: the data should be TOML text, not {type(text).__name__}")
        if len(text) > MAX_DATA_CHARS:
            raise DataError(f"{origin}: the data is longer than {MAX_DATA_CHARS} characters")
        try:
            raw = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError, RecursionError) as e:
            raise DataError(f"{origin}: not valid TOML ({e})") from None
        return cls(raw, origin, text)

    def digest(self) -> str:
        """The sha256 hex digest of the TOML text (of the parsed values when built
        without text): equal digests, same components."""
        import hashlib
        import json
        if self.text is not None:
            blob = self.text
        else:
            blob = json.dumps(_thaw(self.raw), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def __eq__(self, other):
        if not isinstance(other, GameData):
            return NotImplemented
        return self is other or self.digest() == other.digest()

    def __hash__(self):
        return hash(self.digest())

    def __repr__(self):
        return f"<GameData from {self.origin}, sha256 {self.digest()[:12]}>"

    def __reduce__(self):   # mapping proxies do not pickle; rebuild from plain values
        return (GameData, (_thaw(self.raw), self.origin, self.text))

    def __getitem__(self, key):
        return self.raw[key]

    def __contains__(self, key):
        return key in self.raw

    def error(self, key: str, problem: str) -> DataError:
        return DataError(f"{self.origin}: '{key}' {problem}")

    def get(self, key: str, kind: type | tuple = object, default: Any = ..., *,
            min: Any = None, max: Any = None):
        """The value at a dotted key, checked to be of ``kind`` and, for numbers,
        within ``min``..``max`` (inclusive; ``None`` = unbounded)."""
        node: Any = self.raw
        for part in key.split("."):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, tuple) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                if default is not ...:
                    return default
                raise self.error(key, "is missing")
        kinds = kind if isinstance(kind, tuple) else (kind,)
        kinds = tuple(tuple if k is list else Mapping if k is dict else k for k in kinds)
        if not isinstance(node, kinds) or (isinstance(node, bool) and bool not in kinds
                                           and int in kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.error(key, f"should be {names}, not {node!r}")
        if min is not None or max is not None:
            check_range(self, key, node, min, max)
        return node

    def assumptions(self) -> list[Assumption]:
        """Every value this copy assumes, with the reason."""
        return [Assumption(key, node.get(base, "(see note)"), str(note))
                for key, base, node, note in self._annotations("_assumed")]

    def sources(self) -> list[tuple[str, str]]:
        """``(key, source)`` for every value whose source is given."""
        return [(key, str(note)) for key, _base, _node, note in self._annotations("_source")]

    def _annotations(self, suffix: str) -> list[tuple]:
        """``(dotted key, base name, table, note)`` for every ``<base><suffix>`` key."""
        out = []

        def walk(node, prefix):
            if isinstance(node, Mapping):
                for k, v in node.items():
                    if isinstance(k, str) and k.endswith(suffix):
                        base = k[: -len(suffix)]
                        out.append((prefix + base, base, node, v))
                    else:
                        walk(v, f"{prefix}{k}.")
            elif isinstance(node, tuple):
                for i, v in enumerate(node):
                    label = v.get("name") if isinstance(v, Mapping) else None
                    walk(v, f"{prefix}{label if isinstance(label, str) else i}.")

        walk(self.raw, "")
        return out

    def assumptions_table(self) -> str:
        """A plain text list of the assumptions (for notebooks)."""
        lines = [f"This copy of the data ({self.origin}) ASSUMES:"]
        lines += [f"  - {a}" for a in self.assumptions()]
        lines.append("Edit the data file if your box differs: "
                     "kingdoms.game(name, data='my.toml').")
        return "\n".join(lines)


def check_range(data: "GameData", key: str, value: Any, lo: Any = None, hi: Any = None):
    """Raise ``DataError`` naming ``key`` and the allowed range unless ``lo <= value <= hi``
    (for a list, every entry)."""
    values = value if isinstance(value, tuple) else (value,)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) \
                or (lo is not None and v < lo) or (hi is not None and v > hi):
            allowed = (f"from {lo} to {hi}" if lo is not None and hi is not None
                       else f"at least {lo}" if lo is not None else f"at most {hi}")
            raise data.error(key, f"should be a number {allowed}, not {v!r}")


MAX_DATA_CHARS = 1_000_000


class EmbeddedData(str):
    """Component data given in place of a path: a ``str`` (so every game's ``data``
    option takes it, and it prints, compares and hashes by content) that carries a
    ``GameData``.  ``load_data`` returns that data and never opens a file.  Records
    replay their embedded data this way: ``EmbeddedData(GameData.from_toml(text))``.
    """

    def __new__(cls, data: "GameData"):
        if not isinstance(data, GameData):
            raise TypeError(f"EmbeddedData wraps a GameData, not {type(data).__name__}")
        self = super().__new__(cls, f"<embedded data, sha256 {data.digest()}>")
        self.data = data
        return self

    def __reduce__(self):
        return (EmbeddedData, (self.data,))

    def __fspath__(self):      # never a file to open
        raise TypeError("embedded component data is not a file path")


def load_data(package: str, data: "str | Path | GameData | None" = None) -> GameData:
    """``data.toml`` of ``package`` (e.g. ``"kingdoms.horse"``) when ``data`` is None,
    a user's file when it is a path, and ``data`` itself when it is a ``GameData``
    (e.g. ``GameData.from_toml(text)``, as records carry it).  Only regular files up
    to 1 MB are read (no devices or pipes)."""
    if isinstance(data, GameData):
        return data
    if isinstance(data, EmbeddedData):
        return data.data
    if data is None:
        ref = resources.files(package).joinpath("data.toml")
        return GameData.from_toml(ref.read_text(encoding="utf-8"), f"{package}/data.toml")
    if not isinstance(data, (str, Path)):
        raise TypeError(f"data should be None, a path (str or Path) or a GameData, "
                        f"not {type(data).__name__}")
    p = Path(data)
    origin = str(p)
    try:
        # non-blocking open: a FIFO must not wait for a writer; then only regular files
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise DataError(f"{origin}: not a regular file (devices and pipes "
                                "are not read)")
            blob = f.read(MAX_DATA_CHARS * 4 + 1)
    except OSError as e:
        raise DataError(f"{origin}: cannot read the data file ({e.strerror})") from None
    if len(blob) > MAX_DATA_CHARS * 4:
        raise DataError(f"{origin}: the data file is too large")
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(f"{origin}: the data file is not UTF-8 text") from None
    return GameData.from_toml(text, origin)


class FrozenParts:
    """Base of a game's frozen ``Components`` dataclass (``components.py``).

    Read-only mappings (``MappingProxyType``) keep components immutable but do not
    pickle; pickling (worker processes of ``simulate``) goes through plain dicts and
    back, so a game's ``Components`` needs no ``__reduce__`` of its own."""

    __slots__ = ()

    def __reduce__(self):
        from dataclasses import fields
        return (_rebuild_parts, (type(self), tuple(
            (f.name, _plain_value(getattr(self, f.name))) for f in fields(self))))


def _plain_value(value):
    from types import MappingProxyType
    return dict(value) if isinstance(value, MappingProxyType) else value


def _rebuild_parts(cls: type, items: tuple):
    from types import MappingProxyType
    return cls(**{k: MappingProxyType(v) if isinstance(v, dict) else v for k, v in items})
