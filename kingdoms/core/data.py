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

__all__ = ["DataError", "GameData", "load_data", "Assumption"]


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

    def __init__(self, raw: Mapping, origin: str):
        self.raw = _freeze(raw)
        self.origin = origin

    def __reduce__(self):   # mapping proxies do not pickle; rebuild from plain values
        return (GameData, (_thaw(self.raw), self.origin))

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
        out: list[Assumption] = []

        def walk(node, prefix):
            if isinstance(node, Mapping):
                for k, v in node.items():
                    if isinstance(k, str) and k.endswith("_assumed"):
                        base = k[: -len("_assumed")]
                        value = node.get(base, "(see note)")
                        out.append(Assumption(prefix + base, value, str(v)))
                    else:
                        walk(v, f"{prefix}{k}.")
            elif isinstance(node, tuple):
                for i, v in enumerate(node):
                    label = v.get("name") if isinstance(v, Mapping) else None
                    walk(v, f"{prefix}{label if isinstance(label, str) else i}.")

        walk(self.raw, "")
        return out

    def sources(self) -> list[tuple[str, str]]:
        """``(key, source)`` for every value whose source is given."""
        out = []

        def walk(node, prefix):
            if isinstance(node, Mapping):
                for k, v in node.items():
                    if isinstance(k, str) and k.endswith("_source"):
                        out.append((prefix + k[: -len("_source")], str(v)))
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


def load_data(package: str, path: str | Path | None = None) -> GameData:
    """Read ``data.toml`` of ``package`` (e.g. ``"kingdoms.horse"``), or a user's file."""
    if path is None:
        ref = resources.files(package).joinpath("data.toml")
        origin = f"{package}/data.toml"
        text = ref.read_text(encoding="utf-8")
    else:
        p = Path(path)
        origin = str(p)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise DataError(f"{origin}: cannot read the data file ({e.strerror})") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{origin}: not valid TOML ({e})") from None
    return GameData(raw, origin)
