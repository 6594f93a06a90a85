"""make catalogs: the German catalog of every text a person reads.

1. extract every ``_()``, ``N_()`` and ``ngettext()`` text of ``kingdoms/`` (Babel);
2. update ``kingdoms/locale/<lang>/LC_MESSAGES/kingdoms.po``: new texts are added with an
   empty translation (to be written there), texts no longer in the code are dropped,
   translations kept; the file is sorted by text, one line per text, with no dates, so
   that two branches' catalogs merge as text;
3. compile the ``.mo`` the package ships (read by ``kingdoms.core.i18n``).

``python tools/catalogs.py [--check]``: with ``--check`` nothing is written; it lists
texts without a translation, translations whose ``{placeholders}`` differ from the
English text's, and says whether the ``.mo`` is out of date (exit status 1 if any).
``tests/test_i18n.py`` runs the same checks.
"""
from __future__ import annotations

import datetime
import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kingdoms"
LOCALE = PACKAGE / "locale"
LANGUAGES = ("de",)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
HEADER = ("German catalog of kingdoms: every text a person reads (make catalogs; "
          "kingdoms/core/i18n.py).\nNames of cards, characters and tiles are not here: "
          "they are in each game's data.toml (name_de).\nA translation keeps every "
          "{placeholder} of the English text, in any order.")


def extracted() -> dict:
    """``{msgid: where}`` of every text in the code (msgid a str, or a (singular,
    plural) tuple)."""
    found = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS):
        if message in ("", None) or (isinstance(message, tuple) and not all(message)):
            continue
        found.setdefault(message, f"kingdoms/{filename}:{lineno}")
    return found


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "kingdoms.po"


def read(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, project="kingdoms")
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def fields(text: str) -> list[str]:
    """The ``{placeholder}`` names of ``text``, sorted (``ValueError`` on a bad brace)."""
    return sorted(name for _lit, name, _spec, _conv in string.Formatter().parse(text)
                  if name is not None)


def problems(lang: str) -> list[str]:
    """What is wrong with the catalog of ``lang`` against the code, for people."""
    catalog = read(lang)
    out = []
    for msgid, where in sorted(extracted().items(), key=lambda kv: str(kv[0])):
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        message = catalog.get(key)
        if message is None or not message.string or (
                isinstance(message.string, tuple) and not all(message.string)):
            out.append(f"{where}: no {lang} translation of {key!r}")
            continue
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        local = message.string if isinstance(message.string, tuple) else (message.string,)
        try:
            want = fields(english[-1])
            for text in local:
                if fields(text) != want:
                    out.append(f"{where}: the {lang} translation {text!r} has the "
                               f"placeholders {fields(text)}, the English text {want}")
        except ValueError as e:
            out.append(f"{where}: {key!r}: a brace out of place ({e})")
        if message.fuzzy:
            out.append(f"{where}: the {lang} translation of {key!r} is marked fuzzy")
    if not mo_path(lang).exists() or _messages(compiled(catalog)) != _messages(mo_path(lang).read_bytes()):
        out.append(f"{mo_path(lang).relative_to(ROOT)} is out of date: run make catalogs")
    return out


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def _messages(mo: bytes) -> dict:
    """The translations a compiled catalog holds (its header aside)."""
    import gettext
    found = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)
    found.pop("", None)
    return found


def compiled(catalog: Catalog) -> bytes:
    # a fixed date: the .mo changes only when a translation does
    catalog.creation_date = catalog.revision_date = datetime.datetime(2026, 1, 1)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def update(lang: str) -> Catalog:
    """The catalog of ``lang`` with exactly the code's texts, translations kept."""
    old = read(lang)
    new = Catalog(locale=lang, project="kingdoms", header_comment="# " + HEADER.replace("\n", "\n# "),
                  fuzzy=False)
    for msgid in sorted(extracted(), key=lambda m: m if isinstance(m, str) else m[0]):
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        kept = old.get(key)
        string_ = kept.string if kept is not None else ("", "") if isinstance(msgid, tuple) else ""
        if isinstance(msgid, tuple) and isinstance(string_, str):
            string_ = (string_, "")
        new.add(msgid, string_, flags=("python-brace-format",) if "{" in key else ())
    return new


def write(catalog: Catalog, lang: str) -> None:
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, no_location=True, omit_header=False, sort_output=True)
    text = buf.getvalue().decode("utf-8")
    # no dates or tool versions: a catalog changes only when a text does
    keep = [line for line in text.splitlines(keepends=True)
            if not line.startswith(('"POT-Creation-Date', '"PO-Revision-Date', '"Generated-By',
                                    '"Report-Msgid-Bugs-To', '"Last-Translator', '"Language-Team'))]
    path.write_text("".join(keep), encoding="utf-8")
    mo_path(lang).write_bytes(compiled(read(lang)))


def main(argv: list[str]) -> int:
    if "--check" in argv:
        bad = [p for lang in LANGUAGES for p in problems(lang)]
        print("\n".join(bad) if bad else "every text has its translation; the .mo is up to date")
        return 1 if bad else 0
    for lang in LANGUAGES:
        write(update(lang), lang)
        missing = [p for p in problems(lang) if "no " + lang in p]
        print(f"{po_path(lang).relative_to(ROOT)}: {len(read(lang))} texts, "
              f"{len(missing)} without a translation")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
