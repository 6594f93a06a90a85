"""Languages: every text a person reads goes through this module.

English is the default; ``kingdoms.set_language("de")`` makes the library speak
German (action texts, pictures, status lines, widget labels, tables, chart labels,
student-facing errors, exercise feedback).  A game built with ``language="de"``
speaks German in its own pictures and widgets whatever the default is (a class page).

How a module says a text::

    from kingdoms.core.i18n import _, N_, ngettext

    _("Player {n} draws a card").format(n=2)      # translated now, in the current language
    ngettext("{n} card", "{n} cards", k).format(n=k)
    TITLE = N_("Draw a card")                       # only marked: translate where it is shown,
    ...                                             # with _(TITLE)

Placeholders are ``str.format`` fields with names (``{card}``), never ``%s`` or
positional ``{}``: a translation may put them in another order.  The catalogs are
standard gettext catalogs, ``kingdoms/locale/<language>/LC_MESSAGES/kingdoms.po``,
extracted and compiled with Babel (``make catalogs``); the compiled ``.mo`` files are
shipped in the package and read with the standard library's ``gettext``.

Names from the games' data files (a card, a character, a tile) are not in the catalog:
they are data, translated in the game's ``data.toml`` next to the English name
(``name_de = "…"``, with ``name_de_source`` when the German rulebook gives it, or
``name_de_ours`` when it is our translation), so that a teacher whose box says
something else edits the data like every other assumption.  ``Game.component_name``
reads them.  So are the reasons of the assumptions (``key_assumed_de``, shown by
``kingdoms.core.data.Assumption``) and other texts of a data file (``GameData.texts``).
"""
from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
from importlib import resources
from typing import Iterator

__all__ = ["LANGUAGES", "set_language", "language", "using", "check_language",
           "_", "N_", "ngettext", "translations"]

# the languages the library speaks: code -> the language's own name
LANGUAGES = {"en": "English", "de": "Deutsch"}
DOMAIN = "kingdoms"

_default = "en"
_current: contextvars.ContextVar = contextvars.ContextVar("kingdoms_language", default=None)
_catalogs: dict[str, _gettext.NullTranslations] = {}


def check_language(code, what: str = "language") -> str:
    """``code`` if it is a language the library speaks; a ``ValueError`` naming the
    languages otherwise (nothing changes)."""
    if not isinstance(code, str) or code not in LANGUAGES:
        listing = ", ".join(f"{k!r} ({v})" for k, v in LANGUAGES.items())
        shown = repr(code) if isinstance(code, str) and len(code) < 40 else type(code).__name__
        raise ValueError(f"{what}={shown} is not a language kingdoms speaks; "
                         f"choose one of {listing}")
    return code


def set_language(code: str) -> None:
    """Make ``code`` (``"en"`` or ``"de"``) the language of every text from now on
    (in this kernel).  A game built with ``language=`` and ``using(...)`` blocks
    still speak their own language."""
    global _default
    _default = check_language(code)


def language() -> str:
    """The language texts are made in now (``"en"`` or ``"de"``)."""
    return _current.get() or _default


@contextlib.contextmanager
def using(code: str | None) -> Iterator[str]:
    """Within the block, texts are made in ``code``; ``None`` keeps the current one."""
    if code is None:
        yield language()
        return
    token = _current.set(check_language(code))
    try:
        yield code
    finally:
        _current.reset(token)


_naming: contextvars.ContextVar = contextvars.ContextVar("kingdoms_naming", default=None)


@contextlib.contextmanager
def naming(game) -> Iterator:
    """Within the block, texts name components by ``game``'s data file (an action
    does not carry its game: ``Game.action_text`` makes its text inside this)."""
    token = _naming.set(game)
    try:
        yield game
    finally:
        _naming.reset(token)


def naming_game():
    """The game whose data file names the components in the text being made (inside
    ``naming``), or ``None``: then the packaged data file names them."""
    return _naming.get()


def translations(code: str | None = None) -> _gettext.NullTranslations:
    """The compiled catalog of ``code`` (default: the current language)."""
    code = code or language()
    found = _catalogs.get(code)
    if found is None:
        found = _gettext.NullTranslations()
        if code != "en":
            path = resources.files("kingdoms") / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
            try:
                with path.open("rb") as f:
                    found = _gettext.GNUTranslations(f)
            except FileNotFoundError:
                pass
        _catalogs[code] = found
    return found


def _(message: str) -> str:
    """``message`` in the current language (the English text when a translation is
    missing; the catalog test keeps that from happening)."""
    if language() == "en":
        return message
    return translations().gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (module constants,
    data); translate it with ``_()`` where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for the count ``n`` in the current language."""
    if language() == "en":
        return singular if n == 1 else plural
    return translations().ngettext(singular, plural, n)
