"""Names and counts of My Kingdom for a Horse as people read them, in the current
language (``kingdoms.core.i18n``).

English texts are the data file's names as they always were ("2 sheep", "3 pig",
"half cattle", "multiply pig").  In another language the names come from the data
file (``name_de`` of the species, the farm cards and the title; ``plural_de`` for a
species counted other than once), and the die faces are read by their grammar
("N sheep", "half cattle", "N fence(s)", "multiply <species>") and said again.
Texts built without a game use the packaged data file; a game's own pictures pass
the game, so an edited data file's names are used there.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping

from kingdoms.core.i18n import N_, _, language, naming_game, ngettext

__all__ = ["name", "species_word", "count_words", "herd_words", "face_words", "dice_words",
           "kind_words"]


@functools.lru_cache(maxsize=4)
def _packaged(code: str) -> tuple:
    from kingdoms.core.data import load_data
    data = load_data("kingdoms.horse", None)
    return data.names(code), _plurals(data, code)


def _plurals(data, code: str) -> dict:
    animals = data.raw.get("animals", {})
    return {k: v[f"plural_{code}"] for k, v in animals.items()
            if isinstance(v, Mapping) and isinstance(v.get(f"plural_{code}"), str)}


def _tables(game) -> tuple:
    code = language()
    if game is None:
        game = naming_game()
    if game is None or "data" not in getattr(game, "__dataclass_fields__", {}):
        return _packaged(code)
    data = game.game_data()
    return data.names(code), _plurals(data, code)


def name(english, game=None) -> str:
    """A component's name (a farm card, a species, the title) in the current language."""
    if type(english) is not str:
        return str(english)
    if language() == "en":
        return english
    return _tables(game)[0].get(english, english)


def species_word(species, n: int = 1, game=None) -> str:
    """The species' word for ``n`` animals (English: the data's name, whatever ``n``)."""
    if language() == "en" or type(species) is not str:
        return str(species)
    names, plurals = _tables(game)
    if n != 1 and species in plurals:
        return plurals[species]
    return names.get(species, species)


def count_words(n, species, game=None) -> str:
    """``"2 sheep"``: a number of animals of one species."""
    return f"{n} {species_word(species, n if type(n) is int else 2, game)}"


def herd_words(herd, species: tuple, game=None) -> str:
    """The animals of a herd (per species, in ``species`` order), or "nothing"."""
    items = [count_words(n, s, game) for s, n in zip(species, herd) if n]
    return ", ".join(items) if items else _("nothing")


# The faces of the simplified King die that ``reroll.RerollGame`` draws as a small tree:
# half cattle, or any other face.
SIMPLE_FACES = {"half": N_("half"), "other": N_("other")}


def face_words(face, game=None) -> str:
    """A die as people read it: a King face ("2 sheep", "half cattle", "1 fence"), the
    pink die's "multiply <species>", or a face of the simplified die ("half", "other")."""
    if type(face) is not str or language() == "en":
        return str(face)
    if face in SIMPLE_FACES:          # a simplified King die (``reroll.RerollGame``)
        return _(SIMPLE_FACES[face])
    if face.startswith("multiply "):
        species = face[len("multiply "):]
        return _("multiply {species}").format(species=species_word(species, 2, game))
    if face.startswith("half "):
        return _("half {species}").format(species=species_word(face[len("half "):], 1, game))
    number, _sep, what = face.partition(" ")
    if number.isdigit():
        n = int(number)
        if what in ("fence", "fences"):
            return ngettext("{n} fence", "{n} fences", n).format(n=n)
        return count_words(n, what, game)
    return species_word(face, 1, game)


def dice_words(faces, game=None) -> str:
    """Dice as people read them, one after the other ("2 sheep, half cattle, multiply
    pig"; German "2 Schafe, halbes Rind, Schweine vermehren")."""
    return ", ".join(face_words(face, game) for face in faces)


def kind_words(kind: str) -> str:
    """A farm card's kind: lightning (one-shot) or infinity (permanent)."""
    return {"lightning": _("lightning"), "infinity": _("infinity")}.get(kind, kind)
