"""Component data files: TOML with the provenance of every number.

Each game keeps its components in ``kingdoms/<game>/data.toml``.  Beside any value
``key`` the file may say where it comes from:

* ``key_source = "..."`` — the value is known; the text names the source
  (the rulebook, a public card table ...);
* ``key_assumed = "..."`` — nobody publishes the value; this copy ASSUMES it, and the
  text gives the reason.  A user with the real box edits the value (and the note).
  ``key_assumed_de = "..."`` beside it gives the reason in German (any language
  code the library speaks: ``key_assumed_<code>``); German output shows it.

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

from .i18n import LANGUAGES, N_, _, language

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["DataError", "GameData", "EmbeddedData", "load_data", "Assumption", "MAX_NESTING",
           "shown", "is_note"]

MAX_NESTING = 64
"""How deep tables and lists may nest in a data file or a record (the games' files
nest a few levels).  Deeper input is refused with ``DataError`` / ``RecordError``
before anything recurses over it (the parsers and the freezing here would overflow
Python's stack, and ``tomllib`` takes time quadratic in a dotted key's length)."""


class DataError(ValueError):
    """A component data file that cannot be used; the message names the key."""


@dataclass(frozen=True)
class Assumption:
    key: str          # dotted path, e.g. "king_die.faces"
    value: Any
    reason: str       # in English (``key_assumed``)
    # the reason in other languages, ``((code, text), ...)`` (``key_assumed_<code>``)
    reasons: tuple = ()

    def reason_in(self, code: str | None = None) -> str:
        """The reason in language ``code`` (default: the current language); English
        when the file gives none in that language."""
        return dict(self.reasons).get(code or language(), self.reason)

    def __str__(self):
        return _("{key} = {value}  (assumed: {reason})").format(
            key=self.key, value=shown(self.value, ASSUMED_VALUE_CHARS),
            reason=self.reason_in())


ASSUMED_VALUE_CHARS = 300
"""How much of an assumed value a line of ``assumptions_table`` shows (the packaged
files' longest, a deck's twelve suits, takes about 160 characters)."""

_NOTE_SUFFIXES = ("_source", "_assumed") + tuple(f"_assumed_{code}" for code in LANGUAGES)


def is_note(key) -> bool:
    """Whether ``key`` is a note beside a value (``x_source``, ``x_assumed``,
    ``x_assumed_de``), not a value of the game."""
    return isinstance(key, str) and key.endswith(_NOTE_SUFFIXES)


def _thaw(x):
    if isinstance(x, Mapping):
        return {k: _thaw(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return [_thaw(v) for v in x]
    return x


def shown(value, limit: int = 60) -> str:
    """A value of a data file as a message shows it: written as in the file (TOML:
    ``"text"``, ``[1, 2]``, ``{a = 1}``, ``true``; never Python's internal types) and
    cut to about ``limit`` characters."""
    parts: list[str] = []
    size = 0
    todo = [value]                  # what is still to write (strings: written as is)
    while todo and size <= limit:
        x = todo.pop()
        if isinstance(x, _Raw):
            piece = x
        elif isinstance(x, bool):
            piece = "true" if x else "false"
        elif x is None:
            piece = _("nothing")
        elif isinstance(x, str):
            piece = '"' + x[:limit + 1].replace("\\", "\\\\").replace('"', '\\"') + '"'
        elif isinstance(x, Mapping):
            items = list(x.items())[:limit]
            seq: list = [_Raw("{")]
            for i, (k, v) in enumerate(items):
                seq += [_Raw(", " if i else ""), _Raw(f"{str(k)[:limit]} = "), v]
            todo.extend(reversed(seq + [_Raw("}")]))
            continue
        elif isinstance(x, (list, tuple)):
            seq = [_Raw("[")]
            for i, v in enumerate(x[:limit]):
                seq += [_Raw(", " if i else ""), v]
            todo.extend(reversed(seq + [_Raw("]")]))
            continue
        elif isinstance(x, (int, float)) and not isinstance(x, bool):
            piece = repr(x) if not isinstance(x, int) or abs(x) < 10 ** 30 else _("a huge number")
        else:
            piece = _("a {kind}").format(kind=type(x).__name__)
        parts.append(piece)
        size += len(piece)
    text = "".join(parts)
    return text if len(text) <= limit and not todo else text[:limit - 3] + "..."


class _Raw(str):
    """Text ``shown`` writes as it is (brackets, separators)."""


_KIND_WORDS = {bool: N_("true or false"), int: N_("a whole number"), float: N_("a number"),
               str: N_("a text"), tuple: N_("a list"), list: N_("a list"), Mapping: N_("a table"),
               dict: N_("a table")}


def kind_words(kinds) -> str:
    """Types as a data file's reader says them: "a whole number or a list"."""
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    words = []
    for k in kinds:
        w = (_(_KIND_WORDS[k]) if k in _KIND_WORDS else _("a value") if k is object
             else _("a {kind}").format(kind=k.__name__))
        if w not in words:
            words.append(w)
    return _(" or ").join(words)


def _freeze(x):
    if isinstance(x, dict):
        return MappingProxyType({k: _freeze(v) for k, v in x.items()})
    if isinstance(x, list):
        return tuple(_freeze(v) for v in x)
    return x


def nesting(x, limit: int = MAX_NESTING) -> int:
    """How deep the tables and lists of ``x`` nest (a scalar: 0; ``[[1]]``: 2), found
    without recursion; stops counting past ``limit`` (returns ``limit + 1``)."""
    deepest = 0
    todo = [(x, 0)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, Mapping):
            children = node.values()
        elif isinstance(node, (list, tuple)):
            children = node
        else:
            continue
        depth += 1
        if depth > limit:
            return limit + 1
        deepest = max(deepest, depth)
        todo.extend((c, depth) for c in children)
    return deepest


def too_deep(what: str) -> str:
    """The one sentence for input nested deeper than ``MAX_NESTING``."""
    return _("{what} nest more than {limit} levels deep (the limit)").format(
        what=what, limit=MAX_NESTING)


# the characters that matter for nesting in TOML text, outside strings and comments
_TOML_TOKEN = None


def toml_nesting_bound(text: str, limit: int = MAX_NESTING) -> int:
    """An upper bound (exact up to a level or two) on how deep the tables and lists of
    TOML ``text`` nest, read in one pass without parsing (strings and comments are
    skipped); stops past ``limit``.  Counts table headers' and keys' dotted parts and
    the brackets and braces of values."""
    import re
    global _TOML_TOKEN
    if _TOML_TOKEN is None:
        _TOML_TOKEN = re.compile(r'"""|\'\'\'|["\'#\[\]{}=,.\n]')
    search = _TOML_TOKEN.search
    best = header = nested = pushed = dots = 0
    stack: list[int] = []
    in_header = in_value = False
    array_header = False
    pos, n = 0, len(text)
    while best <= limit:
        m = search(text, pos)
        if m is None:
            break
        tok, pos = m.group(), m.end()
        if tok in ('"', '"""', "'", "'''"):
            pos = _string_end(text, pos, tok)
        elif tok == "#":
            end = text.find("\n", pos)
            pos = n if end < 0 else end
        elif tok == "\n":
            if nested == 0:
                in_value = in_header = False
                dots = 0
        elif tok == "[" and nested == 0 and not in_value:
            in_header, dots = True, 0
            array_header = text.startswith("[", pos)
            pos += array_header
        elif tok == "]" and in_header:
            header = dots + 1 + array_header
            in_header, dots = False, 0
            pos += array_header and text.startswith("]", pos)
        elif tok in "[{":
            nested += 1
            stack.append(dots)
            pushed += dots
            dots = 0
        elif tok in "]}":
            if nested:
                nested -= 1
                dots = stack.pop()
                pushed -= dots
        elif tok == "=":
            in_value = in_value or nested == 0
        elif tok == ",":
            dots = 0
        else:                                   # "."
            dots += 1
        best = max(best, (0 if in_header else header) + pushed + nested + dots + 1)
    return best


def _string_end(text: str, pos: int, quote: str) -> int:
    """Where the TOML string opened by ``quote`` just before ``pos`` ends (past its
    closing quote; at the line's end for an unclosed one-line string)."""
    escapes = quote[0] == '"'
    while True:
        end = text.find(quote, pos)
        if len(quote) == 1:
            line_end = text.find("\n", pos)
            if line_end >= 0 and (end < 0 or line_end < end):
                return line_end
        if end < 0:
            return len(text)
        if escapes:
            k = end
            while k > pos and text[k - 1] == "\\":
                k -= 1
            if (end - k) % 2:                   # an escaped quote: look further
                pos = end + 1
                continue
        end += len(quote)
        if len(quote) == 3:                     # up to two more quotes end the text
            for _ in range(2):
                if text.startswith(quote[0], end):
                    end += 1
        return end


class GameData:
    """The parsed data file: ``data["table"]["key"]`` plus typed getters.

    The getters (``data.get("king_die.faces", list)``) raise ``DataError`` naming the
    file and the key when a value is missing or has the wrong type.
    """

    def __init__(self, raw: Mapping, origin: str, text: str | None = None):
        if nesting(raw) > MAX_NESTING:
            raise DataError(origin + ": " + too_deep(_("the tables and lists")))
        self.raw = _freeze(raw)
        self.origin = origin
        self.text = text        # the TOML text it was read from (records embed it)

    @classmethod
    def from_toml(cls, text: str, origin: str = "data given as text") -> "GameData":
        """Parse TOML ``text`` (e.g. a record's embedded data); ``origin`` names it in
        messages.  Bad TOML (or text over 1 MB) raises ``DataError``."""
        if not isinstance(text, str):
            raise DataError(_("{origin}: the data should be TOML text, not {kind}").format(
                origin=origin, kind=type(text).__name__))
        if len(text) > MAX_DATA_CHARS:
            raise DataError(_("{origin}: the data is longer than {count} characters").format(
                origin=origin, count=MAX_DATA_CHARS))
        if toml_nesting_bound(text) > MAX_NESTING:      # before tomllib recurses
            raise DataError(origin + ": " + too_deep(_("the tables and lists")))
        try:
            raw = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError, RecursionError) as e:
            raise DataError(_("{origin}: not valid TOML ({error})").format(
                origin=origin, error=e)) from None
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
        """The ``DataError`` for ``key`` (a message of at most a few lines: a long
        ``problem`` is cut)."""
        if len(problem) > MAX_PROBLEM_CHARS:
            problem = problem[:MAX_PROBLEM_CHARS - 3] + "..."
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
                raise self.error(key, _("is missing"))
        kinds = kind if isinstance(kind, tuple) else (kind,)
        kinds = tuple(tuple if k is list else Mapping if k is dict else k for k in kinds)
        if not isinstance(node, kinds) or (isinstance(node, bool) and bool not in kinds
                                           and int in kinds):
            raise self.error(key, _("should be {kinds}, not {given}").format(
                kinds=kind_words(kinds), given=shown(node)))
        if min is not None or max is not None:
            check_range(self, key, node, min, max)
        return node

    def assumptions(self) -> list[Assumption]:
        """Every value this copy assumes, with the reason (and the reason in other
        languages where the file gives it: ``key_assumed_de``; not text: ``DataError``)."""
        out = []
        for key, base, node, note in self._annotations("_assumed"):
            reasons = []
            for code in LANGUAGES:
                said = node.get(f"{base}_assumed_{code}")
                if said is None or code == "en":
                    continue
                if not isinstance(said, str) or not said.strip():
                    raise self.error(f"{key}_assumed_{code}", _("should be a text, not {given}")
                                     .format(given=shown(said)))
                reasons.append((code, said))
            out.append(Assumption(key, node.get(base, "(see note)"), str(note), tuple(reasons)))
        return out

    def texts(self, key: str) -> dict[str, str]:
        """A text of the file in every language it is given in: ``{"en": value of key,
        "de": value of key_de, ...}`` (a language the file does not give is left out;
        a value that is not text raises ``DataError`` naming the key)."""
        out = {}
        for code in LANGUAGES:
            where = key if code == "en" else f"{key}_{code}"
            said = self.get(where, object, None)
            if said is None:
                continue
            if not isinstance(said, str):
                raise self.error(where, _("should be a text, not {given}").format(given=shown(said)))
            out[code] = said
        return out

    def sources(self) -> list[tuple[str, str]]:
        """``(key, source)`` for every value whose source is given (the sources of
        translated names are in ``translated_names``)."""
        return [(key, str(note)) for key, base, _node, note in self._annotations("_source")
                if not _is_translation(base)]

    def names(self, code: str) -> dict[str, str]:
        """``{English name: name in language code}`` for every component the file
        translates: a table with ``name_<code> = "..."`` beside its ``name`` (or, without
        ``name``, under a table key that is the English name)."""
        return {english: local for english, local, _how, _note in self.translated_names(code)}

    def translated_names(self, code: str) -> list[tuple[str, str, str, str]]:
        """``(English name, translated name, how, note)`` for every name the file gives
        in language ``code``; ``how`` is ``"rulebook"`` (``name_<code>_source``: the
        name printed in that language's rulebook or box) or ``"ours"``
        (``name_<code>_ours``: our translation, to be corrected by a teacher whose box
        says otherwise).  A name given without either mark, or not as text, raises
        ``DataError`` naming the key."""
        key = f"name_{code}"
        out = []

        def walk(node, prefix, label):
            if isinstance(node, Mapping):
                if key in node:
                    english = node.get("name", label)
                    local = node[key]
                    where = prefix + key
                    if not isinstance(english, str) or not isinstance(local, str) or not local:
                        raise self.error(where, _("should be text beside a name, not {given}")
                                         .format(given=shown(local)))
                    marks = [(how, node[f"{key}_{suffix}"]) for how, suffix in
                             (("rulebook", "source"), ("ours", "ours")) if f"{key}_{suffix}" in node]
                    if len(marks) != 1:
                        raise self.error(where, _(
                            "needs exactly one of {key}_source (from the rulebook) or {key}_ours "
                            "(our translation)").format(key=key))
                    out.append((english, local, marks[0][0], str(marks[0][1])))
                for k, v in node.items():
                    if isinstance(v, (Mapping, tuple)):
                        walk(v, f"{prefix}{k}.", k)
            elif isinstance(node, tuple):
                for i, v in enumerate(node):
                    name = v.get("name") if isinstance(v, Mapping) else None
                    walk(v, f"{prefix}{name if isinstance(name, str) else i}.", name)

        walk(self.raw, "", None)
        return out

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
        lines = [_("This copy of the data ({origin}) ASSUMES:").format(origin=self.origin)]
        lines += [f"  - {a}" for a in self.assumptions()]
        lines.append(_("Edit the data file if your box differs: "
                       "kingdoms.game(name, data='my.toml')."))
        return "\n".join(lines)


def _is_translation(base: str) -> bool:
    """``name_de`` and the like: a translated name, not a number of the game."""
    return base.startswith("name_") and len(base) == 7 and base[5:].isalpha()


def check_range(data: "GameData", key: str, value: Any, lo: Any = None, hi: Any = None):
    """Raise ``DataError`` naming ``key`` and the allowed range unless ``lo <= value <= hi``
    (for a list, every entry)."""
    values = value if isinstance(value, tuple) else (value,)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) \
                or (lo is not None and v < lo) or (hi is not None and v > hi):
            if lo is not None and hi is not None:
                problem = _("should be a number from {least} to {most}, not {given}")
            elif lo is not None:
                problem = _("should be a number of at least {least}, not {given}")
            else:
                problem = _("should be a number of at most {most}, not {given}")
            raise data.error(key, problem.format(least=lo, most=hi, given=shown(v)))


MAX_DATA_CHARS = 1_000_000
MAX_PROBLEM_CHARS = 300         # what a DataError says about one key


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
        raise TypeError(_("data should be None, a path (str or Path) or a GameData, not {kind}")
                        .format(kind=type(data).__name__))
    p = Path(data)
    origin = str(p)
    try:
        # non-blocking open: a FIFO must not wait for a writer; then only regular files
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise DataError(_("{origin}: not a regular file (devices and pipes "
                                  "are not read)").format(origin=origin))
            blob = f.read(MAX_DATA_CHARS * 4 + 1)
    except OSError as e:
        raise DataError(_("{origin}: cannot read the data file ({error})").format(
            origin=origin, error=e.strerror)) from None
    if len(blob) > MAX_DATA_CHARS * 4:
        raise DataError(_("{origin}: the data file is too large").format(origin=origin))
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(_("{origin}: the data file is not UTF-8 text").format(
            origin=origin)) from None
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
