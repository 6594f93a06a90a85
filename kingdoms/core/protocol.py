"""The game protocol: one small interface that every game implements.

A *game* (``Game``) is an immutable configuration: player count, variant options and
the components read from the game's data file.  ``game.initial_state()`` gives the
first *state*.

A *state* (``State``) is an immutable, hashable value.  Two states that describe the
same position compare equal, whatever route led to them (the route is kept in
``history()`` but takes no part in equality).  At every state exactly one of three
things happens next:

* a **decision**: ``current_player()`` is a player index ``0..players-1`` and
  ``legal_actions()`` lists what that player may do;
* a **chance event**: ``current_player() == CHANCE`` and ``chance_outcomes()`` lists
  every outcome with its exact ``Fraction`` probability (a chance node too large to
  list, such as a full shuffle, raises ``TooManyOutcomes`` and offers
  ``sample_chance(rng)`` instead);
* the **end**: ``current_player() == TERMINAL`` and ``returns()`` gives each player's
  share of the win.

``apply(action)`` returns the next state and never changes the one it is called on.
An action that the rules forbid raises ``IllegalAction`` naming the rule it breaks.

A game implements the protocol by subclassing ``State`` (a frozen dataclass) and
filling in the underscore methods, which are plain functions of the position:

========================  ==================================================
``_current_player()``     whose decision, ``CHANCE`` or ``TERMINAL``
``_legal_actions()``      the actions open to the player to move
``_chance_outcomes()``    ``((outcome, Fraction), ...)`` at a chance node
``_next(action)``         the position after a legal action or outcome
``_returns()``            win shares at the end
``_why_illegal(action)``  optional: the rule an action breaks
``_refuse_malformed(a)``  optional: raise ``IllegalAction`` for a malformed action
``view(player)``          optional: what ``player`` may see (default: everything)
``scores()``              optional: running points
``Game.data_ranges()``    optional: the data file's schema, ``{key: (kind, min, max)}``
``sample_world(p, rng)``  hidden information: a full state ``p`` cannot tell apart
``chance_steps()``        optional: a huge chance node as small steps (a deal)
``unseen(p)``             hidden information: ``Counter`` of what ``p`` has not seen
========================  ==================================================

``table_view()`` (generic, no game code): what *every* player may see, for a screen the
whole table looks at (a projector): each part of the position that is the same in every
player's ``view(p)`` is kept, each part that differs becomes ``HIDDEN`` (or the form in
which the players who do not know it see it, e.g. a hand's size).  Actions in a table's
log read as ``action.seen_at_table(players)``.

A game's pictures live in its ``render.py`` (``text``, ``html``, ``short``,
``action_picture``), found by name: rules never import render.  The full anatomy
of a game package is written down in ``docs/anatomy.md``.

``_next`` builds the new position with ``replace(state, field=value, ...)`` from this
module: ``dataclasses.replace`` without its per-call overhead for states.

The public methods (``apply``, ``legal_actions`` ...) add the checks, caching and
history on top, so every game behaves the same for the generic tools.
"""
from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass, field
from itertools import repeat
from fractions import Fraction
from typing import Any, ClassVar, Iterable, Sequence

from .i18n import N_, _, check_language, language as current_language, naming, using

__all__ = [
    "CHANCE", "TERMINAL", "Action", "Game", "State", "IllegalAction",
    "TooManyOutcomes", "GameOptionError", "Hidden", "HIDDEN", "replace",
]

CHANCE = -1
"""``current_player()`` at a chance node (dice, draws, random picks)."""
TERMINAL = -4
"""``current_player()`` when the game is over."""


class IllegalAction(ValueError):
    """An action the rules do not allow here.  The message names the rule."""


class TooManyOutcomes(ValueError):
    """A chance node with too many outcomes to list (it can still be sampled)."""

    def __init__(self, message: str, count: int):
        super().__init__(message)
        self.count = count


class GameOptionError(ValueError):
    """A game asked for with options it does not have."""


# The core's own players, offered by every game (``Game.policies``): name -> a function
# making the player.  ``kingdoms.core.play`` adds ``random`` and ``kingdoms.core.search``
# adds ``mcts`` when they are imported (``kingdoms.core`` imports both), so the protocol
# imports neither.
CORE_PLAYERS: dict = {}


# --------------------------------------------------------------------------- actions

_ACTION_TYPES: dict[str, type] = {}
# record format 1 named action types by module path ("kingdoms.horse.actions.DealCard");
# those names still read back through this table (and ``legacy_action_type``).
_LEGACY_ACTION_TYPES: dict[str, type] = {}


class Action:
    """Base class for actions and chance outcomes.

    Subclasses are small frozen dataclasses whose fields are ints, strings, bools,
    ``None``, Fractions, tuples of these or other ``Action`` values, and whose
    ``__str__`` reads like the rules ("play the General to Ann's court").  Every
    subclass is registered by name so that records can be read back without
    ``eval`` or pickle: only registered names can ever be constructed.

    The name does not depend on module paths: ``"<game package>/<qualname>"`` (e.g.
    ``"horse/DealCard"``) for classes in a ``kingdoms.<game>`` package; a class
    elsewhere (a test game, a user's game) gives a stable name itself:
    ``class Deal(Action, record_name="highcard/Deal")`` (without one it is named by
    its module path).
    """

    def __init_subclass__(cls, record_name: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if record_name is not None and (not isinstance(record_name, str) or not record_name):
            raise TypeError("record_name must be a non-empty str")
        cls._record_name = record_name       # set on every class: never inherited
        name = action_type_name(cls)
        other = _ACTION_TYPES.get(name)
        if other is not None and (other.__module__, other.__qualname__) != (
                cls.__module__, cls.__qualname__):
            # two classes of one game package share a qualname (e.g. a helper game in
            # an odds module): the later one is named with its module as well
            cls._record_name = name.replace("/", f"/{cls.__module__.split('.', 2)[-1]}.", 1)
            name = cls._record_name
        _ACTION_TYPES[name] = cls
        _LEGACY_ACTION_TYPES[f"{cls.__module__}.{cls.__qualname__}"] = cls

    def seen_by(self, player: int) -> "Action":
        """This action as ``player`` sees it (override to hide e.g. a drawn card)."""
        return self

    def seen_at_table(self, players: int) -> "Action":
        """This action as every one of ``players`` players sees it: the parts that some
        player does not see (``seen_by``) are ``HIDDEN`` (see ``State.table_view``)."""
        check_count(players, "seen_at_table(players): players", 1)
        return common_part([self.seen_by(p) for p in range(players)])


def action_type_name(cls: type) -> str:
    """The name records use for an action type: ``"horse/DealCard"`` (game package and
    class qualname) for ``kingdoms.<game>`` classes, else the class's ``record_name``
    (or, without one, its module path)."""
    explicit = cls.__dict__.get("_record_name")
    if explicit:
        return explicit
    parts = cls.__module__.split(".")
    if len(parts) >= 2 and parts[0] == "kingdoms" and parts[1] != "core":
        return f"{parts[1]}/{cls.__qualname__}"
    return f"{cls.__module__}.{cls.__qualname__}"


def registered_action_type(name: str) -> type | None:
    return _ACTION_TYPES.get(name)


def legacy_action_type(name: str) -> type | None:
    """The action type a format-1 record names by module path, e.g.
    ``"kingdoms.horse.actions.DealCard"`` -> ``horse/DealCard`` (also after the class
    moved to another module of its game package)."""
    cls = _LEGACY_ACTION_TYPES.get(name)
    if cls is not None:
        return cls
    parts = name.split(".")
    if len(parts) >= 3 and parts[0] == "kingdoms":
        for k in range(2, len(parts)):
            cls = _ACTION_TYPES.get(f"{parts[1]}/{'.'.join(parts[k:])}")
            if cls is not None:
                return cls
    return None


class _Hidden:
    """Stands for something a player may not see (a card in another hand)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "HIDDEN"

    def __str__(self):
        return "?"

    def __reduce__(self):
        return (_Hidden, ())


HIDDEN = _Hidden()
Hidden = _Hidden


# --------------------------------------------------------------------------- apply's checks

_NOT_SAMPLED = object()     # no outcome drawn at this chance node yet
_NOT_FOUND = object()
# outcomes of chance nodes too large to list are checked by the game only when they
# are values of these types (never an object that may claim to equal anything)
_OUTCOME_TYPES = (Action, int, str, tuple, frozenset, Fraction)


def same_value(a, b) -> bool:
    """``a == b`` with the same types all the way down: dataclass fields (those that
    take part in comparison) and tuple entries are compared the same way, so ``True``
    is not ``1``, ``"0"`` is not ``0`` and an object that claims to equal everything
    (``unittest.mock.ANY``) equals nothing."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if dataclasses.is_dataclass(a):
        return all(same_value(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a) if f.compare)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(same_value, a, b))
    return a == b


def _find_equal(options, action):
    """The entry of ``options`` that is ``action``'s value with the same types (see
    ``same_value``), else ``_NOT_FOUND`` (also when comparing raises: a malformed
    action)."""
    kind = type(action)
    try:
        # ``==`` first: cheap, and never false for the same value (actions are values);
        # ``same_value`` then rules out a look-alike (``True`` for ``1``, ``ANY``)
        for a in options:
            if type(a) is kind and a == action and same_value(a, action):
                return a
    except Exception:
        pass
    return _NOT_FOUND


def _action_text(action) -> str:
    """``str(action)`` for messages, never raising (a malformed action's ``__str__``
    may fail on its bad fields)."""
    try:
        text = str(action)
        if isinstance(text, str):
            return text if len(text) <= 200 else text[:200] + "..."
    except Exception:
        pass
    try:
        text = object.__repr__(action)
    except Exception:       # pragma: no cover
        text = "an action"
    return _("{kind} with malformed fields ({text})").format(kind=type(action).__name__,
                                                             text=text)


# --------------------------------------------------------------------------- options

_SIMPLE_TYPES = {"int": int, "str": str, "bool": bool, "float": float, "None": type(None),
                 "NoneType": type(None), "tuple": tuple, "Optional": None, "Union": None}


def safe_repr(x, limit: int = 60) -> str:
    """``repr(x)`` for messages about bad input: never raises (a hostile object gives
    its type's name) and is cut to ``limit`` characters."""
    try:
        text = repr(x)
    except Exception:
        text = f"<{type(x).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_name(value, names, kind: str) -> str:
    """``value`` if it is one of ``names`` (a card, a character, a suit ...), else a
    ``ValueError`` for people: "no card called 'fool' (did you mean 'Fool'?); the
    cards are: ..." (the hint where only case, spaces or underscores differ)."""
    names = tuple(names)
    if isinstance(value, str) and value in names:
        return value
    hint = ""
    if isinstance(value, str):
        key = value.lower().replace(" ", "_")
        close = [n for n in names if isinstance(n, str) and n.lower().replace(" ", "_") == key]
        hint = _(" (did you mean {name}?)").format(name=repr(close[0])) if close else ""
    raise ValueError(_("no {kind} called {given}{hint}; the {kinds} are: {names}").format(
        # the English plural is the word + "s"; another language's sentence has none
        kind=kind, given=safe_repr(value, 40), hint=hint,
        kinds=kind + "s" if current_language() == "en" else "",
        names=", ".join(map(str, names))))


def check_count(n, what: str, least: int = 0, most: int | None = None) -> int:
    """``n`` if it is a whole number from ``least`` (to ``most``), else a ``ValueError``
    for people: "rerolls must be a whole number from 0 to 10; not -1"."""
    if type(n) is not int or n < least or (most is not None and n > most):
        if most is not None:
            raise ValueError(_("{what} must be a whole number from {least} to {most}; "
                               "not {given}").format(what=what, least=least, most=most,
                                                     given=safe_repr(n, 40)))
        raise ValueError(_("{what} must be a whole number of at least {least}; not {given}")
                         .format(what=what, least=least, given=safe_repr(n, 40)))
    return n


def check_player(game, player, what: str = "view", arg: str = "player",
                 other_than: int | None = None) -> int:
    """``player`` if it is one of ``game``'s player numbers (and not ``other_than``,
    who knows their own hand), else a ``ValueError`` naming the players as people do:
    "p_holds(target): target must be one of 0 (Player 1), 1 (Player 2); not 3"
    (``what``: the function asked; ``arg``: its argument)."""
    n = game.players
    if type(player) is not int or not 0 <= player < n:
        try:
            shown = repr(player)[:40]
        except Exception:
            shown = type(player).__name__
        names = ", ".join(f"{i} ({game.player_name(i)})" for i in range(n))
        raise ValueError(_("{what}({arg}): {arg} must be one of {names}; not {given}").format(
            what=what, arg=arg, names=names, given=shown))
    if player == other_than:
        raise ValueError(_("{what}({arg}): {player} knows their own hand; "
                           "ask about another player").format(
                               what=what, arg=arg, player=game.player_name(player)))
    return player


def player_label(player) -> str:
    """The one default name of a seat: ``"Player 1"`` for player 0 (1-based, as people
    count).  Never raises, whatever ``player`` is (texts of malformed actions)."""
    if type(player) is int and player >= 0:
        return _("Player {number}").format(number=player + 1)
    return _("player {what}").format(what=safe_repr(player))


def _safe_repr(x, limit: int = 40) -> str:
    try:
        text = repr(x)
    except Exception:
        text = f"a {type(x).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def _declared_types(f) -> tuple | None:
    """The types an option field declares (from its annotation, else its default's
    type), or None when it says nothing checkable."""
    import re
    ann = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    words = re.findall(r"[A-Za-z_]+", ann or "")
    if words and all(w in _SIMPLE_TYPES for w in words):
        kinds = {_SIMPLE_TYPES[w] for w in words} - {None}
        if kinds:
            return tuple(k for k in (bool, int, float, str, tuple, type(None)) if k in kinds)
    d = f.default
    if d is dataclasses.MISSING or d is None:
        return None
    return (type(d),)


def _kind_names(kinds) -> str:
    names = {bool: N_("True or False"), int: N_("a whole number"), str: N_("a text"),
             float: N_("a number"), tuple: N_("a list"), type(None): "None"}
    return _(" or ").join(_(names[k]) if k in names else k.__name__ for k in kinds)


def _check_option(cls, f, value, players):
    name = f.name
    where = _("{game}: option {name}").format(game=cls.title, name=name)
    if name == "data":
        import os
        from .data import GameData
        if value is None or isinstance(value, (str, os.PathLike, GameData)):
            return value
        raise GameOptionError(_("{where} is None, the path of a data file (str or Path) or a "
                                "GameData, not {given}").format(where=where,
                                                                given=_safe_repr(value)))
    if name == "player_names":
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) and v.strip()
                                                     for v in value) \
                and len(value) in (0, players):
            return tuple(value)
        raise GameOptionError(_("{where} is a list of {players} names (texts), one per "
                                "player, not {given}").format(where=where, players=players,
                                                              given=_safe_repr(value)))
    kinds = _declared_types(f)
    if kinds is None:
        return value
    if tuple in kinds and isinstance(value, list):
        value = tuple(value)
    ok = any((type(value) is bool) if k is bool else
             (type(value) is int) if k is int else
             (isinstance(value, (int, float)) and type(value) is not bool) if k is float else
             isinstance(value, k) for k in kinds)
    if ok and isinstance(value, tuple) and isinstance(f.default, tuple) and f.default:
        inner = {type(v) for v in f.default}
        if len(inner) == 1 and inner <= {int, str}:
            ok = all(type(v) in inner for v in value)
    if not ok:
        raise GameOptionError(_("{where} is {kinds}, not {given}").format(
            where=where, kinds=_kind_names(kinds), given=_safe_repr(value)))
    return value


# --------------------------------------------------------------------------- games

@dataclass(frozen=True)
class Game:
    """An immutable game configuration.

    Subclasses set the class attributes ``name``, ``title``, ``min_players`` and
    ``max_players``, declare their options as dataclass fields with defaults, load
    their components in ``__post_init__`` (see ``kingdoms.core.data``) and implement
    ``initial_state()``.
    """

    name: ClassVar[str] = "game"
    title: ClassVar[str] = "Game"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    # True when some player ever lacks information another has (hands, secret gold):
    # then ``play`` hands policies ``view(player)`` by default, and the Stepper opens
    # in the human seat's view.
    hidden_information: ClassVar[bool] = False
    # What the game's package attaches (``attach``): its players and its worlds.
    _hooks: ClassVar[dict] = {}

    players: int = 2
    # The language of this game's own texts (pictures, widgets): a class page in German
    # whatever the kernel's language.  Not a rule option: not in options() or config(),
    # records and equality ignore it.  None: the current language (kingdoms.set_language).
    language: str | None = dataclasses.field(default=None, compare=False, repr=False, kw_only=True)

    def __getattr__(self, name: str):
        # (asked only when ``name`` is not found.)  A game where a position is wanted
        # is the commonest slip in a lesson (``odds.p_win(game, ...)``): name it.
        if not name.startswith("_") and name in _position_words(self):
            with using(self.__dict__.get("language")):
                raise AttributeError(_(
                    "{game}: this is the game (its rules and options), not a position; "
                    "'{name}' belongs to a position (a State): use state = "
                    "game.initial_state(), or a state from play_state or the "
                    "Stepper").format(game=self.title, name=name))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __post_init__(self):
        fixed = type(self)._check_options(
            {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init})
        for k, v in fixed.items():
            if getattr(self, k) is not v:
                object.__setattr__(self, k, v)

    @classmethod
    def _check_options(cls, values: dict) -> dict:
        """Check each option's type against its declaration (annotation, else the
        default's type) and return the values, lists turned into tuples.  Raises
        ``GameOptionError`` naming the option and what it takes."""
        players = values.get("players")
        if type(players) is not int or not cls.min_players <= players <= cls.max_players:
            raise GameOptionError(_(
                "{game} is for {least}-{most} players; players={given} is not allowed").format(
                    game=cls.title, least=cls.min_players, most=cls.max_players,
                    given=_safe_repr(players)))
        out = dict(values)
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        for name, value in values.items():
            f = fields.get(name)
            if f is None or name == "players":
                continue
            if name == "language":
                out[name] = None if value is None else check_language(value)
                continue
            out[name] = _check_option(cls, f, value, players)
        return out

    @classmethod
    def options(cls) -> dict[str, Any]:
        """The options this game accepts, with their defaults."""
        return {f.name: f.default for f in dataclasses.fields(cls)
                if f.init and f.name not in ("players", "language")}

    @classmethod
    def create(cls, players: int | None = None, **options) -> "Game":
        """Build the game, rejecting unknown options with the list of allowed ones."""
        allowed = cls.options()
        unknown = sorted(set(options) - set(allowed) - {"language"})
        if unknown:
            listing = ", ".join(f"{k}={v!r}" for k, v in allowed.items()) or _("none")
            raise GameOptionError(_(
                "{game} has no option {unknown}; its options are: {listing}").format(
                    game=cls.title, unknown=", ".join(unknown), listing=listing))
        if players is None:
            players = cls.min_players if cls.min_players > 1 else cls.max_players if cls.max_players == 1 else 2
        options = cls._check_options({"players": players, **options})
        return cls(**options)

    @classmethod
    def configurations(cls) -> list[dict[str, Any]]:
        """Representative configurations (every player count; games add their
        variants) — what the generic test-suite and benchmarks play."""
        return [{"players": k} for k in range(cls.min_players, cls.max_players + 1)]

    def config(self) -> dict[str, Any]:
        """``players`` and the options, as plain JSON-able values (for records)."""
        out = {"players": self.players}
        out.update({k: getattr(self, k) for k in self.options()})
        return out

    def initial_state(self) -> "State":
        raise NotImplementedError(f"{type(self).__name__} must define initial_state()")

    # -- the components' data file (kingdoms/<game>/data.toml or the user's copy) -----
    def game_data(self):
        """This game's ``GameData``: the package's ``data.toml``, or the file given as
        the ``data`` option.  Read once per configuration (games that load it in
        ``__post_init__`` keep it as ``_data``)."""
        d = self.__dict__.get("_data")
        if d is None:
            if "data" not in {f.name for f in dataclasses.fields(self)}:
                raise AttributeError(_("{game} has no data file").format(game=self.title))
            from .data import load_data
            d = load_data(type(self).__module__.rpartition(".")[0], self.data)
            object.__setattr__(self, "_data", d)
        return d

    def assumptions(self) -> list:
        """Every component number this copy assumes (not published), with the reason."""
        return self.game_data().assumptions()

    def assumptions_table(self) -> str:
        """The assumptions as plain text, for notebooks."""
        return self.game_data().assumptions_table()

    def sources(self) -> list[tuple[str, str]]:
        """``(key, source)`` for every component number whose source is known."""
        return self.game_data().sources()

    @classmethod
    def data_ranges(cls) -> dict[str, tuple]:
        """The declared schema of the game's data file: ``{key: (kind, min, max)}``.

        ``key`` is a dotted data key (``"game.points_to_win"``) or a pattern in which
        ``*`` stands for any one table key or list index (``"followers.*.copies"``).
        ``kind`` is ``int`` (a whole number from ``min`` to ``max``, inclusive, ``None``
        for no bound; for a list of numbers, every entry) or ``list`` (a list of
        ``min`` to ``max`` entries).  Every value is checked against its range when the
        game is built, with a ``DataError`` naming the key and the range; checks across
        keys (totals, a deck that deals evenly) may still refuse values inside these
        ranges.  Games with a data file override it; the default ``{}`` declares
        nothing.  Returns a new dict on each call."""
        return {}

    # -- what the game's package attaches: its players and its worlds ------------------
    @classmethod
    def attach(cls, *, policies=None, default_policies=None, sample_world=None,
               unseen=None, observation=None) -> None:
        """How a game package hands the core its players and its hidden-information
        worlds, so that the rules never import them (``kingdoms/<game>/__init__.py``
        calls it once, after importing ``rules``, ``policies`` and ``worlds``):

        * ``policies(game) -> {name: policy}``: the game's named players, added to
          the core's (``Game.policies``); ``default_policies(game) -> tuple``: one
          policy per seat (``Game.default_policies``);
        * ``sample_world(state, player, rng)``, ``unseen(state, player)`` and
          ``observation(state, player)``: behind the ``State`` methods of those names
          (``_observation`` for the last).

        A subclass inherits what its base attached and may attach more."""
        given = {"policies": policies, "default_policies": default_policies,
                 "sample_world": sample_world, "unseen": unseen, "observation": observation}
        for name, hook in given.items():
            if hook is not None and not callable(hook):
                raise TypeError(f"{cls.__name__}.attach: {name} must be a function")
        cls._hooks = {**cls._hooks, **{k: v for k, v in given.items() if v is not None}}

    # -- players to play with (simulate, play, tournaments, the Stepper's seats) -------
    def policies(self) -> dict:
        """Named players for this game: ``{name: policy}``.  Every game offers the
        core's players (``CORE_PLAYERS``: ``"random"`` and ``"mcts"``, the search bot
        at its default budget), then those its package attached (``attach``), which
        may replace them (a game's own ``mcts`` settings)."""
        players = {name: make() for name, make in CORE_PLAYERS.items()}
        own = self._hooks.get("policies")
        if own is not None:
            players.update(own(self))
        return players

    def default_policies(self) -> tuple:
        """One policy per seat used by ``play``/``simulate`` when none are given:
        cheap, sensible players whose games end by the rules (attached by the game's
        package; without one, the core's random player in every seat)."""
        own = self._hooks.get("default_policies")
        if own is not None:
            return tuple(own(self))
        return (CORE_PLAYERS["random"](),) * self.players

    # -- what a solver or a tree maximises (expectimax, game_tree, TreeExplorer) -------
    def objectives(self) -> dict:
        """The objectives this game offers: ``{name: value}`` where ``value(state)``
        gives one number per player at a finished (or evaluated) state.  The default
        is ``{"share of the win": returns}``; games add theirs (points margin, gold ...)
        so that a printed solution and a drawn tree can name the same objective."""
        return {"share of the win": _share_of_the_win}

    def action_text(self, action) -> str:
        """``action`` as a person reads it in this game (buttons, move logs): its
        ``str()`` in this game's language, with components named by this game's data
        file (``kingdoms.core.i18n.naming``); a game whose action texts cannot know the
        players' names (an action does not carry the game) overrides it."""
        with using(self.language), naming(self):
            return _action_text(action)

    # -- for other frameworks (kingdoms.interop.openspiel) ------------------------
    def action_universe(self) -> tuple:
        """Every action and chance outcome this configuration can ever produce, in a
        fixed, documented order derived from the game's data (OpenSpiel numbers
        actions up front).  Games that support interop override it."""
        raise NotImplementedError(f"{self.title} does not list its action universe")

    def action_key(self, action):
        """The entry of ``action_universe()`` that ``action`` stands for (games whose
        actions carry fields that follow from the position override it)."""
        return action

    def max_game_length(self) -> int:
        """A true bound on the number of steps (decisions and chance events) of a
        game, with the argument in the game's docstring.  Games override it."""
        raise NotImplementedError(f"{self.title} gives no bound on a game's length")

    def chance_step_items(self) -> tuple:
        """Every item a ``State.chance_steps()`` deal of this configuration can ever
        deal (e.g. every card name), each once, in a fixed order derived from the
        game's data (OpenSpiel numbers these steps after ``action_universe()``).
        Default ``()``: the game offers no chance steps."""
        return ()

    def component_name(self, name: str) -> str:
        """``name`` (a component's English name in the data file: a card, a character,
        a tile) in the current language: the data file's ``name_<language>`` beside it
        (from the rulebook of that language, or our translation marked as assumed), or
        ``name`` itself when the data gives none."""
        code = current_language()
        if code == "en" or "data" not in {f.name for f in dataclasses.fields(self)}:
            return name
        return self.game_data().names(code).get(name, name)

    def component_names(self, names) -> str:
        """Components' English names (a hand of cards, a few characters) in the current
        language, one after the other: ``"Knight, Squire"`` (German ``"Ritter, Knappe"``)."""
        return ", ".join(self.component_name(name) for name in names)

    def player_name(self, player: int) -> str:
        names = getattr(self, "player_names", None)
        if names and player < len(names):
            return names[player]
        return player_label(player)


# --------------------------------------------------------------------------- states

@dataclass(frozen=True)
class State:
    """Base class of every game's state.  See the module docstring.

    Subclasses are ``@dataclass(frozen=True)``.  Their fields describe the position;
    every field must be hashable (tuples, frozensets, ints, strings, frozen
    dataclasses).  ``game`` is the configuration the state belongs to.
    """

    game: Game
    # The route to this position: the previous state and the action taken there.
    # Excluded from equality and hashing, so transpositions compare equal.
    # (init=False: ``dataclasses.replace`` and views start without a route.)
    _prev: "State | None" = field(default=None, init=False, compare=False, repr=False)
    _last: Any = field(default=None, init=False, compare=False, repr=False)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("view")
        if own is not None and not getattr(own, "_checks_player", False):
            # every game's view(p) refuses players out of range before it runs
            def view(self, player, *args, _own=own, **kw):
                # the usual case checked inline; _check_player raises with the message
                if type(player) is not int or not 0 <= player < self.game.players:
                    self._check_player(player, "view")
                return _own(self, player, *args, **kw)
            view.__doc__, view.__name__, view.__qualname__ = own.__doc__, "view", own.__qualname__
            view.__wrapped__ = own
            view._checks_player = True
            cls.view = view
        if "_repr_pretty_" not in cls.__dict__:
            # IPython asks each class for _repr_pretty_ before its own (dataclass)
            # __repr__: a displayed state shows its picture, not its fields
            cls._repr_pretty_ = State._repr_pretty_

    def _check_player(self, player, what: str = "view", arg: str = "player") -> None:
        """Raise ``ValueError`` naming the allowed players unless ``player`` is one
        (``check_player``)."""
        check_player(self.game, player, what, arg)

    # ---- what a game implements -------------------------------------------------
    def _current_player(self) -> int:
        raise NotImplementedError

    def _legal_actions(self) -> Sequence[Action]:
        raise NotImplementedError

    def _chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        raise NotImplementedError

    def _sample_chance(self, rng) -> Any:
        """Draw one outcome.  Override for chance nodes too large to list."""
        outcomes = self._chance_list()
        r = rng.random()
        acc = 0.0
        try:
            for outcome, p in outcomes:
                # float(p) (the same division), without Fraction's property calls
                acc += p._numerator / p._denominator
                if r < acc:
                    return outcome
        except AttributeError:          # not a Fraction: the same sum, the public way
            acc = 0.0
            for outcome, p in outcomes:
                acc += p.numerator / p.denominator
                if r < acc:
                    return outcome
        return outcomes[-1][0]

    def _is_possible_outcome(self, outcome) -> bool:
        """For sampled chance nodes: can ``outcome`` happen here?  Override."""
        return any(o == outcome for o, _ in self._chance_list())

    def _next(self, action) -> "State":
        raise NotImplementedError

    def _returns(self) -> tuple:
        raise NotImplementedError

    def _why_illegal(self, action) -> str | None:
        """The rule ``action`` breaks, in the rulebook's words (override)."""
        return None

    def _refuse_malformed(self, action) -> None:
        """Optional: raise ``IllegalAction`` (with the game's own message) when
        ``action`` is malformed (``None``, a foreign type, fields of the wrong type).
        ``apply`` calls it before it looks for an equal listed action, but never
        for the very objects this state listed (``legal_actions()``, or the outcome
        ``sample_chance`` just drew): the game built those itself, so a game that
        checks here instead of overriding ``apply`` pays for the check only on
        actions from outside.  Default: nothing (the core's own checks apply)."""

    # ---- the protocol -----------------------------------------------------------
    # The per-state caches (``_cp``, ``_la``, ``_co``) live in the instance dict and
    # are read with ``dict.get``: a miss costs no exception (every new state misses
    # once), and ``replace`` never copies them to the next state.
    def current_player(self) -> int:
        """The player to decide, ``CHANCE`` or ``TERMINAL``."""
        cache = self.__dict__
        cp = cache.get("_cp")
        if cp is None:
            cp = cache["_cp"] = self._current_player()
        return cp

    def is_terminal(self) -> bool:
        cp = self.__dict__.get("_cp")
        return (self.current_player() if cp is None else cp) == TERMINAL

    def is_chance(self) -> bool:
        cp = self.__dict__.get("_cp")
        return (self.current_player() if cp is None else cp) == CHANCE

    def legal_actions(self) -> tuple:
        """Actions open now; at a chance node, its outcomes; at the end, none."""
        cache = self.__dict__
        la = cache.get("_la")
        if la is not None:
            return la
        cp = cache.get("_cp")
        if cp is None:
            cp = self.current_player()
        if cp == TERMINAL:
            la = ()
        elif cp == CHANCE:
            la = tuple(o for o, _ in self.chance_outcomes())
        else:
            la = tuple(self._legal_actions())
        cache["_la"] = la
        return la

    def _chance_list(self):
        cache = self.__dict__
        co = cache.get("_co")
        if co is None:
            co = cache["_co"] = tuple(self._chance_outcomes())
        return co

    def chance_outcomes(self) -> tuple:
        """``((outcome, Fraction probability), ...)`` at a chance node, summing to 1."""
        if self.current_player() != CHANCE:
            raise ValueError(_("chance_outcomes() is asked at a chance node; "
                               "here it is {player}'s decision").format(player=self._who()))
        return self._chance_list()

    def sample_chance(self, rng) -> Any:
        """One outcome of this chance node, drawn with ``rng`` (a ``random.Random``)."""
        if self.current_player() != CHANCE:
            raise ValueError(_("sample_chance() is asked at a chance node; "
                               "here it is {player}'s decision").format(player=self._who()))
        outcome = self._sample_chance(rng)
        self.__dict__["_sampled"] = outcome   # drawn here, so apply need not re-check it
        return outcome

    def apply(self, action) -> "State":
        """The state after ``action`` (or chance outcome).  ``self`` is unchanged.

        The action must be one of ``legal_actions()`` (the same object, or an equal
        value of the same type): anything else (``None``, a wrong type, fields of the
        wrong type, an object that claims to equal everything) raises
        ``IllegalAction`` and changes nothing.  The game continues with its own listed
        action object, so the history holds the game's values.
        """
        cache = self.__dict__
        cp = cache.get("_cp")
        if cp is None:
            cp = self.current_player()
        if cp >= 0:
            legal = cache.get("_la")
            if legal is None:
                legal = self.legal_actions()
            # the action object itself is usually in the list (a button, a policy's
            # pick): look for it by identity first, at C speed, before ``==``
            if not any(map(operator.is_, legal, repeat(action))):
                self._refuse_malformed(action)
                found = _find_equal(legal, action)
                if found is _NOT_FOUND:
                    self._refuse_illegal(cp, action)
                action = found
        elif cp == CHANCE:
            listed = cache.get("_la")
            if action is not cache.get("_sampled", _NOT_SAMPLED) and (
                    listed is None or not any(map(operator.is_, listed, repeat(action)))):
                action = self._equal_outcome(action)
        else:
            self._refuse_malformed(action)
            with using(self.game.language):
                raise IllegalAction(_("The game is over: no more actions ({action}).").format(
                    action=_action_text(action)))
        nxt = self._next(action)
        after = nxt.__dict__
        after["_prev"] = self
        after["_last"] = (cp, action)
        return nxt

    def _refuse_illegal(self, cp: int, action) -> None:
        """``apply``'s ``IllegalAction`` for a move not among the legal ones: the game's
        reason (``_why_illegal``) in the game's language."""
        with using(self.game.language):
            reason = None
            try:
                reason = self._why_illegal(action)
            except Exception:       # a malformed action may break the check
                pass
            if not isinstance(reason, str):
                reason = _("{action} is not allowed now").format(action=_action_text(action))
            raise IllegalAction(_("{player} may not do that: {reason}").format(
                player=self.game.player_name(cp), reason=reason))

    def _equal_outcome(self, action):
        """``apply``'s check of an outcome that is not the listed or drawn object: the
        listed outcome of the same value, else a possible outcome of a node too large
        to list; anything else raises ``IllegalAction``."""
        self._refuse_malformed(action)
        try:
            found = _find_equal(self.legal_actions(), action)
        except TooManyOutcomes:
            found = _NOT_FOUND
            if isinstance(action, _OUTCOME_TYPES):
                try:
                    if self._is_possible_outcome(action):
                        found = action
                except Exception:
                    pass
        if found is _NOT_FOUND:
            with using(self.game.language):
                raise IllegalAction(_("{action} cannot happen at this chance event").format(
                    action=_action_text(action)))
        return found

    def unfinished(self) -> str | None:
        """At the end: ``None`` when the game ended by its rules; otherwise a sentence
        saying why the engine stopped it (e.g. a round-limit safeguard that no rule
        has).  An unfinished game has no winner; ``simulate`` counts it apart."""
        return None

    def returns(self) -> tuple:
        """Each player's share of the win (Fractions summing to 1; ties share)."""
        if not self.is_terminal():
            raise ValueError(_("returns() exist only when the game is over"))
        return tuple(self._returns())

    def scores(self) -> tuple | None:
        """Running points per player, where the game has points (else ``None``)."""
        return None

    def view(self, player: int) -> "State":
        """The state as ``player`` may see it (hidden things become ``HIDDEN``).

        ``player`` must be a player index ``0..players-1`` (else ``ValueError``; a
        game's own ``view`` gets this check automatically)."""
        self._check_player(player, "view")
        return self

    def table_view(self) -> "State":
        """The state as the whole table sees it (a projector in a class): only what
        every player may see.  Generic: the common part of ``view(p)`` for every
        player ``p`` (``common_part``): what is the same in all views is kept, what
        differs becomes ``HIDDEN``, or the form in which the players who do not know
        it see it (a hand's size, a face-down pile).  A game without hidden
        information shows everything.  Who is to move is public: the view answers
        ``current_player()`` as the state does."""
        if not self.game.hidden_information:
            return self
        seen = common_part([self.view(p) for p in range(self.game.players)])
        if seen is self:
            return self
        if isinstance(seen, State):
            seen = replace(seen)         # a view may be cached or carry caches: a copy
            seen.__dict__["_cp"] = self.current_player()
            return seen
        raise TypeError(f"{self.game.title}: the players' views are not states of one kind")

    def chance_steps(self) -> "SequentialDeal | None":
        """At a chance node too large to list (``TooManyOutcomes``), the same event as
        a sequence of small ones, for frameworks that need every chance node listed:
        a ``kingdoms.core.cards.SequentialDeal`` (a deal one item at a time, in a fixed
        order of places, each step with its exact ``Fraction`` probability) whose
        ``outcome(dealt)`` for the complete deal is the outcome ``apply`` accepts.  A
        game may offer it at every state of such an event (also where the deal happens
        to have a single outcome).  Default ``None``: no steps."""
        return None

    def sample_world(self, player: int, rng) -> "State":
        """A full state consistent with everything ``player`` has seen (own hand,
        public moves, cards shown to them), drawn uniformly among the consistent ones
        where the game can (each game documents its measure); ``view(player)`` of the
        result equals this state's ``view(player)``.  For determinizing searches
        (IS-MCTS): it never reads what ``player`` may not see.  ``rng`` is a
        ``random.Random``.  Default: a game without hidden information returns
        ``self``; a game with hidden information must override it."""
        self._check_player(player, "sample_world")
        if not self.game.hidden_information:
            return self
        hook = self.game._hooks.get("sample_world")
        if hook is None:
            raise NotImplementedError(
                _("{game} does not sample worlds (State.sample_world) yet").format(
                    game=self.game.title))
        return hook(self, player, rng)

    def unseen(self, player: int) -> "Counter":
        """The components ``player`` has not seen, counted: ``Counter(card -> copies)``
        of everything whose place is hidden from ``player`` (other hands, face-down
        piles, cards set aside).  Lessons count odds from it; ``sample_world`` deals
        it out.  It is computed from ``view(player)`` only.  Default: nothing is
        hidden in a game without hidden information; such a game must override it."""
        self._check_player(player, "unseen")
        if not self.game.hidden_information:
            from collections import Counter
            return Counter()
        hook = self.game._hooks.get("unseen")
        if hook is None:
            raise NotImplementedError(
                _("{game} does not count unseen components (State.unseen) yet").format(
                    game=self.game.title))
        return hook(self, player)

    def observed(self, player: int) -> "State":
        """``view(player)`` that also carries what ``player`` has observed on the way
        here (``observation(player)``), so a search can sample worlds from it
        (``sample_world``) in games whose hidden cards depend on the course of the
        game, not only on the position.  Nothing ``player`` may not see is carried:
        the observation is built from ``history(player)`` (each action as ``player``
        saw it) and ``view(player)`` of the states on the way.  ``play`` hands it to
        policies that ask for it (``policy.observes = True``, e.g. the search bot)
        instead of the bare view.  A state whose view is itself returns itself."""
        self._check_player(player, "observed")
        seen = self.view(player)
        if seen is self:
            return self
        carried = self.observation(player)
        seen = replace(seen)            # a game may hand out a cached view: copy it
        seen.__dict__["_observed"] = (player, carried)
        return seen

    def observation(self, player: int):
        """What ``player`` has observed from the start to here, as the game needs it to
        sample worlds (``_observation``; by default ``history(player)``).  On a view
        from ``observed(player)``, the observation it carries."""
        carried = self.__dict__.get("_observed")
        if carried is not None:
            if carried[0] != player:
                raise ValueError(_("this is {player}'s view: it carries only what they "
                                   "observed").format(player=self.game.player_name(carried[0])))
            return carried[1]
        return self._observation(player)

    def _observation(self, player: int):
        """Behind ``observation``: the ``observation`` the game's package attached,
        by default ``history(player)``."""
        hook = self.game._hooks.get("observation")
        return hook(self, player) if hook is not None else self.history(player)

    def history(self, player: int | None = None) -> tuple:
        """``((who, action), ...)`` from the initial state to here.

        With ``player``, each action as that player saw it (``Action.seen_by``).
        A view (``view(player)``) carries no history of its own.
        """
        steps = []
        s = self
        while s._last is not None:
            steps.append(s._last)
            s = s._prev
        steps.reverse()
        if player is not None:
            steps = [(who, a.seen_by(player) if isinstance(a, Action) else a)
                     for who, a in steps]
        return tuple(steps)

    def root(self) -> "State":
        s = self
        while s._prev is not None:
            s = s._prev
        return s

    def path(self) -> tuple:
        """The states from the initial state to this one."""
        out = []
        s = self
        while s is not None:
            out.append(s)
            s = s._prev
        out.reverse()
        return tuple(out)

    # ---- rendering --------------------------------------------------------------
    def _who(self) -> str:
        cp = self.current_player()
        if cp == CHANCE:
            return _("chance")
        if cp == TERMINAL:
            return _("nobody (game over)")
        return self.game.player_name(cp)

    def describe(self) -> str:
        """A short line: whose turn, or the result."""
        with using(self.game.language):
            return self._describe()

    def _describe(self) -> str:
        cp = self.current_player()
        if cp == TERMINAL:
            shares = self.returns()
            winners = [self.game.player_name(i) for i, r in enumerate(shares) if r > 0]
            if winners:
                return _("Game over. Winner: {winners}").format(winners=", ".join(winners))
            return _("Game over.")
        if cp == CHANCE:
            return _("Chance event")
        return _("{player} to act").format(player=self.game.player_name(cp))

    # The render contract: a game's pictures live in ``<game package>/render.py``
    # with the functions ``text(state)``, ``html(state)``, ``short(state)`` and
    # optionally ``action_picture(state, actions)``.  The core finds that module by
    # this name, so rules modules never import render; a missing module or function
    # falls back to the plain sentence of ``describe()``.
    def __str__(self):
        f = _renderer(type(self), "text")
        with using(self.game.language):
            return f(self) if f is not None else self.describe()

    def _repr_html_(self):
        f = _renderer(type(self), "html")
        with using(self.game.language):
            if f is not None:
                return f(self)
            import html
            return f"<pre>{html.escape(str(self))}</pre>"

    def _repr_pretty_(self, printer, cycle) -> None:
        # IPython's plain-text form of a displayed state: the picture, not the fields
        printer.text(str(self))

    def short(self) -> str:
        """One line about the position (the Stepper's log, tree labels)."""
        f = _renderer(type(self), "short")
        with using(self.game.language):
            return f(self) if f is not None else self.describe()

    def action_picture(self, actions: Sequence[Action]) -> tuple[str, tuple[str, ...]] | None:
        """Optional: where ``actions`` (this state's legal actions, in order) take
        effect, drawn: ``(html, labels)`` with a picture and one short label per
        action (``""`` for an action not drawn).  The Stepper shows the picture above
        the moves and puts each label on its move's button (e.g. Horse numbers the
        fence slots on the pasture).  It draws only what this state shows (the
        Stepper calls it on the viewer's view).  Default ``None``: no picture; a
        game draws one with ``action_picture(state, actions)`` in its render module."""
        f = _renderer(type(self), "action_picture")
        with using(self.game.language):
            return f(self, actions) if f is not None else None

    def __getstate__(self):
        # Pickled (e.g. to a worker process) without the route that led here.
        d = dict(self.__dict__)
        for k in ("_prev", "_last", "_cp", "_la", "_co", "_sampled"):
            d.pop(k, None)
        d["_prev"] = None
        d["_last"] = None
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)


_RENDER_MODULES: dict[str, Any] = {}


_POSITION_WORDS: dict[type, frozenset] = {}
_LOOKING: set = set()


def _position_words(game: "Game") -> frozenset:
    """The public names of ``game``'s positions (the protocol's and the state's
    fields), for ``Game.__getattr__``'s message; empty while it is being worked out."""
    cls = type(game)
    words = _POSITION_WORDS.get(cls)
    if words is None:
        if cls in _LOOKING:             # initial_state() itself missed a name
            return frozenset()
        _LOOKING.add(cls)
        try:
            fields = dataclasses.fields(type(game.initial_state()))
        except Exception:
            fields = ()
        finally:
            _LOOKING.discard(cls)
        words = _POSITION_WORDS[cls] = frozenset(
            [n for n in dir(State) if not n.startswith("_")]
            + [f.name for f in fields if not f.name.startswith("_")]) - set(dir(cls))
    return words


def _renderer(cls: type, name: str):
    """The function ``name`` of the render module of ``cls``'s game package
    (``kingdoms.woods.rules.WoodsState`` -> ``kingdoms.woods.render``), or None."""
    package = cls.__module__.rpartition(".")[0]
    try:
        module = _RENDER_MODULES[package]
    except KeyError:
        import importlib
        target = f"{package}.render" if package else "render"
        try:
            module = importlib.import_module(target) if package else None
        except ModuleNotFoundError as e:
            if e.name != target:
                raise
            module = None
        _RENDER_MODULES[package] = module
    return getattr(module, name, None)


def _share_of_the_win(state: "State") -> tuple:
    """Each player's share of the win at a finished state (the default objective)."""
    return state.returns()


def check_probabilities(outcomes: Iterable[tuple[Any, Fraction]]) -> None:
    """Raise ``ValueError`` unless the probabilities are Fractions in (0,1] summing to 1."""
    total = Fraction(0)
    for o, p in outcomes:
        if not isinstance(p, Fraction) or not (0 < p <= 1):
            raise ValueError(f"outcome {o}: probability {p!r} is not a Fraction in (0, 1]")
        total += p
    if total != 1:
        raise ValueError(f"chance probabilities sum to {total}, not 1")


# --------------------------------------------------------------------------- the table

def _holds_hidden(x) -> bool:
    """Whether ``x`` is or contains ``HIDDEN`` (in tuples, frozensets, dataclasses)."""
    if x is HIDDEN:
        return True
    if isinstance(x, (tuple, frozenset, list)):
        return any(map(_holds_hidden, x))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return any(_holds_hidden(getattr(x, f.name, None)) for f in dataclasses.fields(x)
                   if f.init and not isinstance(getattr(x, f.name, None), Game))
    return False


def common_part(versions: Sequence):
    """What the ``versions`` of one thing (each player's view of a position, each
    player's sight of an action) have in common.  Equal versions: that version.
    Tuples of one length: entry by entry (a row that holds ``HIDDEN`` places, such
    as a hand of which a player knows some cards, only when all versions that hide
    something agree, else place by place where they agree); dataclasses of one class:
    field by field.
    Otherwise an empty tuple or set among them (a player who knows nothing of it)
    stands for all, or a version that hides something (holds ``HIDDEN``: e.g. a
    hand as ``(HIDDEN, 5)``) when the hiding versions agree; else the whole thing
    is ``HIDDEN``.  Nothing that a single version shows and another
    does not survives."""
    first = versions[0]
    if all(v is first or v == first for v in versions[1:]) and \
            all(type(v) is type(first) for v in versions):
        return first
    kind = type(first)
    if all(type(v) is kind for v in versions):
        if kind is tuple and len({len(v) for v in versions}) == 1 and \
                not any(x is HIDDEN for v in versions for x in v):
            return tuple(common_part(entry) for entry in zip(*versions))
        if dataclasses.is_dataclass(first) and not isinstance(first, Game):
            return _common_fields(versions)
        if kind in (tuple, frozenset) and any(len(v) == 0 for v in versions):
            return first[:0] if kind is tuple else frozenset()   # someone knows nothing
    hiding = [v for v in versions if _holds_hidden(v)]
    if hiding and len(hiding) < len(versions):
        return common_part(hiding)
    if kind is tuple and len({len(v) for v in versions}) == 1:
        # a row with hidden places (cards face down) that the players see differently
        # (one knows a card another does not): shown where all agree, in place
        return tuple(x[0] if all(y is x[0] or y == x[0] for y in x) else HIDDEN
                     for x in zip(*versions))
    return HIDDEN


def _common_fields(versions: Sequence):
    """``common_part`` of dataclass values of one class, field by field."""
    first = versions[0]
    changes = {}
    for f in dataclasses.fields(first):
        if not f.init:
            continue
        values = [getattr(v, f.name) for v in versions]
        common = common_part(values)
        if common is not values[0]:
            changes[f.name] = common
    if not changes:
        return first
    if isinstance(first, State):
        return replace(first, **changes)
    import copy
    out = copy.copy(first)              # no __init__: its checks would refuse HIDDEN
    for name, value in changes.items():
        object.__setattr__(out, name, value)
    return out


# --------------------------------------------------------------------------- replace

_FAST_FIELDS: dict[type, "tuple[tuple[str, ...], frozenset, int, dict] | None"] = {}


def _fast_fields(cls: type):
    """The init fields of a dataclass whose instances can be copied field by field, or
    None (not a dataclass, slotted, with ``__post_init__``, or with an init=False
    field without a plain default: then ``dataclasses.replace`` must run ``__init__``)."""
    try:
        return _FAST_FIELDS[cls]
    except KeyError:
        pass
    fast = None
    if dataclasses.is_dataclass(cls) and isinstance(cls, type) \
            and getattr(cls, "__post_init__", None) is None \
            and not any("__slots__" in c.__dict__ for c in cls.__mro__):
        fields = dataclasses.fields(cls)
        if all(f.init or f.default is not dataclasses.MISSING for f in fields):
            names = tuple(f.name for f in fields if f.init)
            fresh = _FRESH if issubclass(cls, State) else {}
            fast = (names, frozenset(names), len(names) + len(fresh), fresh)
    _FAST_FIELDS[cls] = fast
    return fast


# What the core keeps in a state's ``__dict__`` beside the fields: the route and the
# per-state caches, each with its "empty" value.  ``replace`` resets them, so the copy
# starts as after ``__init__``.  They are reset, never deleted: a state's dict then
# keeps one layout from copy to copy, and CPython copies such a dict in one block
# (deleting and re-adding keys grows it until ``dict.copy`` must re-insert every key,
# about 4 times slower: measured on a Horse state of 23 fields).
_FRESH = {"_prev": None, "_last": None, "_cp": None, "_la": None, "_co": None,
          "_sampled": _NOT_SAMPLED, "_observed": None}
_new_instance = object.__new__
_set_instance_dict = object.__setattr__


def replace(obj, /, **changes):
    """``dataclasses.replace(obj, **changes)``, fast for game states and other plain
    value dataclasses.

    States are frozen dataclasses that only hold values, so the copy needs no
    ``__init__``: the fields are copied and the changes applied, while the route
    (``_prev``/``_last``) and the per-state caches start empty, as after ``__init__``.
    A class with ``__post_init__`` (or slots) goes through ``dataclasses.replace``.
    An unknown field is a ``TypeError`` either way.
    """
    cls = type(obj)
    try:
        fast = _FAST_FIELDS[cls]
    except KeyError:
        fast = _fast_fields(cls)
    if fast is None:
        return dataclasses.replace(obj, **changes)
    names, known, size, fresh = fast
    src = obj.__dict__
    # one C-level copy of the instance dict, then (a state's) route and caches
    # emptied: much cheaper than copying field by field
    d = src.copy()
    d.update(fresh)
    if len(d) != size:              # anything else beside the fields: field by field
        d = {name: src[name] for name in names}
        d.update(fresh)
    if changes:
        if not changes.keys() <= known:
            for k in changes:
                if k not in known:
                    raise TypeError(f"{cls.__name__} has no field {k!r}")
        d.update(changes)
    new = _new_instance(cls)
    _set_instance_dict(new, "__dict__", d)
    return new

