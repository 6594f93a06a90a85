"""Actions and chance outcomes of My Kingdom for a Horse (small frozen dataclasses).

Each class declares the exact type of every field (``FIELD_TYPES``); ``well_formed``
checks an action against it, so an object that merely compares equal to a legal
action (``3.0`` for ``3``, ``True`` for ``1``, ``unittest.mock.ANY``) is refused.
``str()`` of an action never raises, whatever its fields hold.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from kingdoms.core.i18n import _
from kingdoms.core.protocol import HIDDEN, Action

from .pasture import edge_words
from .words import count_words, face_words, name, species_word

__all__ = ["Roll", "DealCard", "DrawCard", "RollDice", "KeepDice", "UseDie", "UseCattle",
           "PlayCard", "EndEffects", "Discard", "TakeDie", "PlaceFence", "LiftFence",
           "PutFence", "EndFences", "RunAway", "Trade", "EndTrading", "PLAYER_NAMES",
           "well_formed"]

PLAYER_NAMES = ("Ann", "Ben", "Cat", "Dan")


def _name(player) -> str:
    if type(player) is int and 0 <= player < len(PLAYER_NAMES):
        return PLAYER_NAMES[player]
    return _("player {what}").format(what=repr(player))


class _HorseAction(Action):
    """``__str__`` is ``_text()``, falling back to a plain description when the
    fields are not what they should be (so error messages can always be built)."""

    def _text(self) -> str:
        raise NotImplementedError

    def __str__(self):
        try:
            return self._text()
        except Exception:                               # noqa: BLE001 - bad fields
            parts = []
            for f in fields(self):
                try:
                    parts.append(f"{f.name}={getattr(self, f.name)!r}")
                except Exception:                       # noqa: BLE001 - hostile repr
                    parts.append(f"{f.name}=?")
            return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(frozen=True)
class Roll(_HorseAction):
    """Chance: the dice show ``king`` (sorted King faces) and ``mult`` (pink)."""
    king: tuple
    mult: str

    def _text(self):
        return _("the dice show {king} and the pink die shows {mult}").format(
            king=", ".join(face_words(f) for f in self.king), mult=species_word(self.mult))


@dataclass(frozen=True)
class DealCard(_HorseAction):
    """Chance: ``player`` is dealt ``card`` at setup."""
    player: int
    card: str

    def _text(self):
        return _("deal {card} to {player}").format(card=name(self.card),
                                                   player=_name(self.player))

    def seen_by(self, player):
        return self if player == self.player else DealCard(self.player, HIDDEN)


@dataclass(frozen=True)
class DrawCard(_HorseAction):
    """Chance: ``player`` draws ``card`` from the farm deck."""
    player: int
    card: str

    def _text(self):
        return _("{player} draws {card}").format(player=_name(self.player),
                                                 card=name(self.card))

    def seen_by(self, player):
        return self if player == self.player else DrawCard(self.player, HIDDEN)


@dataclass(frozen=True)
class RollDice(_HorseAction):
    """Start rolling (offered while a farm card could still be played first)."""

    def _text(self):
        return _("roll the dice")


@dataclass(frozen=True)
class KeepDice(_HorseAction):
    """Keep these dice and re-roll the others (keeping all four = stop rolling).
    ``keep_mult`` is None where no pink die is in play (``reroll.RerollGame`` without
    it); the game itself always says True or False."""
    kept: tuple
    keep_mult: bool | None

    def _text(self):
        kept = ", ".join(face_words(f) for f in self.kept)
        if self.keep_mult is None:
            return _("keep {dice}").format(dice=kept or _("nothing"))
        if self.keep_mult:
            return _("keep {dice} and the pink die").format(dice=kept or _("no King die"))
        return _("keep {dice}, re-roll the pink die").format(dice=kept or _("no King die"))


@dataclass(frozen=True)
class UseDie(_HorseAction):
    """Carry out one die: a King face or ``"multiply <species>"``."""
    die: str

    def _text(self):
        return _("use the die {die}").format(die=face_words(self.die))


@dataclass(frozen=True)
class UseCattle(_HorseAction):
    """Turn 2 or 3 half-cattle dice into 1 cattle."""

    def _text(self):
        return _("take {one} for the {halves}").format(one=count_words(1, "cattle"),
                                                       halves=face_words("half cattle"))


@dataclass(frozen=True)
class PlayCard(_HorseAction):
    card: str

    def _text(self):
        return _("play the farm card {card}").format(card=name(self.card))


@dataclass(frozen=True)
class EndEffects(_HorseAction):
    def _text(self):
        return _("finish (decline the unused dice)")


@dataclass(frozen=True)
class Discard(_HorseAction):
    """No card played: discard these cards and draw as many."""
    cards: tuple

    def _text(self):
        if self.cards:
            return _("discard {cards}").format(cards=", ".join(name(c) for c in self.cards))
        return _("keep the hand")


@dataclass(frozen=True)
class TakeDie(_HorseAction):
    """Another player chooses a die of the final result (``None``: takes none)."""
    die: str | None

    def _text(self):
        if self.die is None:
            return _("choose no die")
        return _("choose the die {die}").format(die=face_words(self.die))


@dataclass(frozen=True)
class PlaceFence(_HorseAction):
    edge: int

    def _text(self):
        return _("place a new fence {where}").format(where=edge_words(self.edge))


@dataclass(frozen=True)
class LiftFence(_HorseAction):
    edge: int

    def _text(self):
        return _("lift the fence {where} to move it").format(where=edge_words(self.edge))


@dataclass(frozen=True)
class PutFence(_HorseAction):
    edge: int

    def _text(self):
        return _("put the moved fence {where}").format(where=edge_words(self.edge))


@dataclass(frozen=True)
class EndFences(_HorseAction):
    def _text(self):
        return _("done with the fences")


@dataclass(frozen=True)
class RunAway(_HorseAction):
    """Let one animal of ``species`` run away (back to the supply)."""
    species: str

    def _text(self):
        return _("let {one} run away").format(one=count_words(1, self.species))


@dataclass(frozen=True)
class Trade(_HorseAction):
    """Give ``pay`` animals of ``give`` for ``count`` of ``get`` (the next species)."""
    give: str
    pay: int
    get: str
    count: int

    def _text(self):
        return _("trade {pay} for {get}").format(pay=count_words(self.pay, self.give),
                                                 get=count_words(self.count, self.get))


@dataclass(frozen=True)
class EndTrading(_HorseAction):
    def _text(self):
        return _("no (more) trades")


# The exact type of every field: (type, ...) for a value, ("tuple", type) for a
# tuple of values of one type.
_STR, _INT, _BOOL = (str,), (int,), (bool,)
FIELD_TYPES = {
    Roll: (("tuple", str), _STR), DealCard: (_INT, _STR), DrawCard: (_INT, _STR),
    RollDice: (), KeepDice: (("tuple", str), _BOOL), UseDie: (_STR,), UseCattle: (),
    PlayCard: (_STR,), EndEffects: (), Discard: (("tuple", str),),
    TakeDie: ((str, type(None)),), PlaceFence: (_INT,), LiftFence: (_INT,),
    PutFence: (_INT,), EndFences: (), RunAway: (_STR,), Trade: (_STR, _INT, _STR, _INT),
    EndTrading: (),
}
_FIELD_NAMES = {cls: tuple(f.name for f in fields(cls)) for cls in FIELD_TYPES}


def well_formed(action) -> bool:
    """Is ``action`` one of these classes with fields of exactly the declared types?"""
    spec = FIELD_TYPES.get(type(action))
    if spec is None:
        return False
    d = action.__dict__
    for name, kinds in zip(_FIELD_NAMES[type(action)], spec):
        v = d.get(name)
        if kinds[0] == "tuple":
            if type(v) is not tuple or any(type(x) is not kinds[1] for x in v):
                return False
        elif type(v) not in kinds:
            return False
    return True
