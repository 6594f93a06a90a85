"""``Stepper``: step through any game turn by turn, in a notebook or a Voila app.

It works through the protocol only (``legal_actions``, ``chance_outcomes``,
``apply``, ``view``, ``_repr_html_``), so it needs nothing from the game beyond it.

Programmatic API (used by tests and notebooks)::

    s = Stepper(kingdoms.game("horse", players=2), seed=1)   # opens at the first decision
    s.choose(s.state.legal_actions()[0])   # or s.choose("stand"): matched by its text
    s.roll()                                # a seeded draw at a chance node
    s.undo(); s.redo(); s.goto(0)
    s.state, s.history, s.index, s.states, s.message, s.setup
    s.set_seat(1, "random")                 # a named bot from game.policies(); None: human
    s.perspective = "table"                 # what every player may see (a projector)
    s.show_hand(1); s.hide_hands()          # one seat's hand, then the table again
    s.new_deal(); s.new_deal(4711)          # a new game: a new (shown) seed, or a given one
    s.seat_name(1)                          # "Player 2: bot (random)"

Bot seats move by themselves after a short pause (``bot_delay`` seconds) while the
Stepper is shown in a browser (JupyterLab, Voila): a timer on the kernel's event loop,
started when the front end reports a view of the widget, so a notebook executed
without a browser never moves on its own.  "pause bots" stops them; with
``auto_chance`` (the "roll / draw by itself" box) chance events are played the same
way.  ``step_bots()`` is the timer's step, for tests and scripts.

Started from a game, the set-up chance events (shuffles, deals, first rolls) are
played with the seed and the Stepper opens at the first decision (``s.setup`` lists
them; ``show_setup=True`` starts before them).  Hidden-information games open in the
human seat's view.  Moves are buttons, grouped by kind; with many, a filter box
narrows them.  A game that draws where its moves go (``State.action_picture``, e.g.
Horse numbers the fence slots on the pasture) gets that picture above the buttons,
and each button starts with its move's label.
"""
from __future__ import annotations

import asyncio
import html
import random
import secrets
from typing import Any, Callable, Mapping, Sequence

import ipywidgets as W

from ..core.i18n import _, language, using
from ..core.play import named_policy
from ..core.protocol import (CHANCE, TERMINAL, Action, Game, IllegalAction, State,
                             TooManyOutcomes, check_player, safe_repr)
from ..core.text import count
from ._common import button, close_all, message_html, speaks

__all__ = ["Stepper"]

OMNISCIENT = "all"
TURN = "turn"          # the view of the human whose turn it is (hot-seat play)
TABLE = "table"        # what every player may see (State.table_view): a projector
BOT_DELAY = 0.8        # seconds a bot "thinks" before it moves by itself
MAX_SHOWN = 200        # buttons at most; beyond, the filter box narrows the list


def _seat_policies(seats, game: Game, named: Mapping) -> dict[int, Callable]:
    """``seats`` as ``{player: policy}`` (a list may hold ``None`` for humans; a
    string names a policy of ``named``, the game's ``policies()``)."""
    players = game.players
    if seats is None:
        return {}
    if isinstance(seats, Mapping):
        items = seats.items()
    else:
        seats = list(seats)
        if len(seats) > players:
            raise ValueError(_("{seats} seats for a {players}-player game").format(
                seats=len(seats), players=players))
        items = enumerate(seats)
    out = {}
    for p, pol in items:
        check_player(game, p, "Stepper", "seats")
        if isinstance(pol, str):
            try:
                pol = named_policy(game, pol, named)
            except ValueError as e:
                raise ValueError(_("{player}'s seat: {error}").format(
                    player=game.player_name(p), error=e)) from None
        if pol is not None:
            if not callable(pol):
                raise TypeError(_("{player}'s seat: a policy is a callable "
                                  "policy(state, rng)").format(player=game.player_name(p)))
            out[p] = pol
    return out


def _start_of(game_or_state) -> tuple[State, bool]:
    """The first position of a game (given as a Game, a State or a name), and whether
    it was a whole game."""
    if isinstance(game_or_state, str):
        import kingdoms
        game_or_state = kingdoms.game(game_or_state)
    if isinstance(game_or_state, Game):
        return game_or_state.initial_state(), True
    if isinstance(game_or_state, State):
        return game_or_state, False
    raise TypeError(_("Stepper needs a Game, a State or a game name, not {kind}").format(
        kind=type(game_or_state).__name__))


MAX_DEAL = 999_999_999     # deal numbers are whole numbers from 0 to this


def deal_number(text) -> int:
    """A deal number typed by a person (``"4711"``, ``" #4711 "``) or given as an int,
    else a ``ValueError`` saying what a deal number is."""
    if type(text) is int and 0 <= text <= MAX_DEAL:
        return text
    if isinstance(text, str):
        t = text.strip().lstrip("#").strip()
        if t.isascii() and t.isdigit() and len(t) <= len(str(MAX_DEAL)):
            return int(t)
    raise ValueError(_("a deal number is a whole number from 0 to {most}; not {given}").format(
        most=count(MAX_DEAL), given=safe_repr(text, 40)))


def new_deal_number(other_than=None) -> int:
    """A deal number drawn by the system (not always the same), never ``other_than``."""
    while True:
        n = 1 + secrets.randbelow(99_999)
        if n != other_than:
            return n


def event_loop_timer(delay: float, callback):
    """Run ``callback`` after ``delay`` seconds on the running asyncio loop (the
    kernel's, in JupyterLab and Voila); ``None`` where no loop runs (plain Python)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(delay, callback)


def _policy_label(policy) -> str:
    """A given policy's name for people: its ``name`` or function name."""
    name = getattr(policy, "name", None) or getattr(policy, "__name__", None)
    return name if isinstance(name, str) and name and not name.startswith("<") else _("given")


def _html_part(css_class: str):
    part = W.HTML()
    part.add_class(css_class)
    return part


class Stepper(W.VBox):
    """Step through a game: the state, the legal moves as buttons, chance by hand or
    by a seeded roll, undo/redo, time travel, a move log and the players' views.

    ``game_or_state``: a ``Game``, a ``State`` to start from, or a registered game
    name.  ``seats``: bot players, as ``{player: policy}`` or a list (``None`` for a
    human seat); a policy is ``policy(state, rng)`` or the name of one of
    ``game.policies()``.  Each seat can also be switched between human and the named
    bots in the widget.  ``seed`` seeds the ``random.Random`` used for the set-up,
    rolls and bots.  ``show_setup``: start before the set-up chance events (default:
    they are played with the seed and the Stepper opens at the first decision; only
    when started from a game).  ``perspective``: whose view is shown ("all" for
    everything, "table" for what every player may see (``State.table_view``: a
    projector), a player index, or "turn" for the human to move); default everything,
    or for hidden-information games the human seat's view.  In a view other than
    everything, chance outcomes that the view hides are not listed (only "roll / draw")
    and the moves of another player are not shown (they would show a hand).  ``max_buttons``: above
    this many choices a filter box appears.  ``autoplay``: after a human move, let
    chance and the bots play until a human is to move at once.  ``bot_delay``: the
    pause (seconds) before a bot seat moves by itself; ``auto_chance``: chance events
    are also played by themselves (else by "roll / draw"); ``timer(delay, callback)``
    schedules those steps (default: the kernel's asyncio loop; tests pass their own).
    Started from a game, the seed is the deal's number ("deal #4711"; without one
    the system draws it) and "new deal" starts a new game.
    """

    def __init__(self, game_or_state: Game | State | str, seats=None, seed: Any = None,
                 max_buttons: int = 12, autoplay: bool = False, max_steps: int = 10_000,
                 perspective: int | str | None = None, show_setup: bool = False,
                 bot_delay: float = BOT_DELAY, auto_chance: bool = False,
                 timer: Callable | None = None):
        start, from_game = _start_of(game_or_state)
        self.game = start.game
        self._language = self.game.language
        with using(self._language):
            self._init(start, from_game, seats, seed, max_buttons, autoplay, max_steps,
                       perspective, show_setup, bot_delay, auto_chance, timer)

    def _init(self, start, from_game, seats, seed, max_buttons, autoplay, max_steps,
              perspective, show_setup, bot_delay, auto_chance, timer) -> None:
        if from_game and seed is None:
            seed = new_deal_number()
        self.seed = seed
        self.rng = random.Random(seed)
        self._from_game = from_game
        self._show_setup = show_setup
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) \
                or not 0 <= bot_delay <= 60:
            raise ValueError(_("bot_delay must be a number of seconds from 0 to 60; "
                               "not {given}").format(given=safe_repr(bot_delay, 40)))
        self.bot_delay = bot_delay
        self._timer = timer or event_loop_timer
        self._pending = None          # the scheduled bot step (a handle with cancel())
        try:
            self._named = dict(self.game.policies())
        except Exception:        # a game's hook failing: humans and random only
            from ..core.play import random_policy
            self._named = {"random": random_policy}
        self.seats = _seat_policies(seats, self.game, self._named)
        self.max_buttons = max_buttons
        self.max_steps = max_steps
        self.autoplay = autoplay
        self.setup: tuple = ()
        if from_game and not show_setup:
            start, self.setup = self._play_setup(start)
        self._states: list[State] = [start]
        self._index = 0
        self._message = ("", "info")
        self._tree = None
        if perspective is None:
            perspective = self._default_perspective()
        super().__init__(self._build_parts(perspective, auto_chance))
        self.add_class("kingdoms-stepper")
        # the front end counts the views it shows; bots move by themselves only then
        self._view_count = 0
        self.observe(lambda _c: self._schedule(), names="_view_count")
        self._render()

    def _build_parts(self, perspective, auto_chance: bool = False) -> list:
        """The widgets, top to bottom."""
        self._title = _html_part("kingdoms-title")
        self._status = _html_part("kingdoms-status")
        self._state_html = _html_part("kingdoms-state")
        self._choices = W.VBox()
        self._choices.add_class("kingdoms-choices")
        self._msg = _html_part("kingdoms-message")
        self._undo_b = button(_("↶ undo"), "kingdoms-undo", on_click=self.undo,
                              tooltip=_("one step back"))
        self._redo_b = button(_("↷ redo"), "kingdoms-redo", on_click=self.redo,
                              tooltip=_("one step forward again"))
        self._slider = W.IntSlider(value=0, min=0, max=0, description=_("step"),
                                   continuous_update=False,
                                   layout=W.Layout(width="320px"))
        self._slider.add_class("kingdoms-history")
        self._slider.observe(self._on_slider, names="value")
        names = [(_("what {player} sees").format(player=self.game.player_name(k)), k)
                 for k in range(self.game.players)]
        table = [(_("the table (what every player sees)"), TABLE)] \
            if self.game.hidden_information else []
        self._persp = W.Dropdown(options=table + [(_("everything (teacher)"), OMNISCIENT),
                                                  (_("the player to move"), TURN)] + names,
                                 value=perspective, description=_("show"),
                                 tooltip=_("whose view the Stepper shows"),
                                 layout=W.Layout(width="340px"))
        self._persp.add_class("kingdoms-perspective")
        self._persp.observe(lambda _c: self._render(), names="value")
        self._seat_boxes = [self._seat_dropdown(k) for k in range(self.game.players)]
        self._until_b = button(_("play until my turn"), "kingdoms-play-until-turn",
                               on_click=self.play_until_my_turn,
                               tooltip=_("chance and the bot seats play until a human "
                                         "seat is to move"))
        self._end_b = button(_("play to end"), "kingdoms-play-to-end", on_click=self.play_to_end,
                             tooltip=_("play to the end of the game (bot seats use their "
                                       "policy, other seats play at random)"))
        self._tree_b = button(_("open tree here"), "kingdoms-open-tree", on_click=self.open_tree)
        self._pause_b, self._chance_b = self._auto_toggles(auto_chance)
        hands = self._hands_row()
        deals = self._deals_row()
        self._tree_box = W.VBox()
        self._tree_box.add_class("kingdoms-tree-box")
        self._log = _html_part("kingdoms-log")
        controls = W.HBox([self._undo_b, self._redo_b, self._slider, self._persp],
                          layout=W.Layout(flex_flow="row wrap"))
        bots = W.HBox([self._until_b, self._end_b, self._pause_b, self._chance_b, self._tree_b],
                      layout=W.Layout(flex_flow="row wrap"))
        seats_row = W.HBox([W.HTML("<b>" + _("Seats:") + "</b>&nbsp;")] + self._seat_boxes,
                           layout=W.Layout(flex_flow="row wrap"))
        seats_row.add_class("kingdoms-seats")
        log_box = W.Accordion(children=[self._log], titles=(_("moves so far"),))
        return [self._title] + deals + hands + [
            self._status, self._state_html, self._msg, self._choices, controls, bots,
            seats_row, log_box, self._tree_box]

    def _auto_toggles(self, auto_chance: bool) -> tuple:
        """"pause bots" and "roll / draw by itself"."""
        pause = W.ToggleButton(value=False, description=_("pause bots"),
                               tooltip=_("stop the bot seats from moving by themselves"),
                               layout=W.Layout(width="auto"))
        pause.add_class("kingdoms-pause-bots")
        pause.observe(lambda _c: self._render(), names="value")
        chance = W.Checkbox(value=bool(auto_chance), description=_("roll / draw by itself"),
                            tooltip=_("chance events (dice, draws) happen by themselves after "
                                      "a short pause; untick to press “roll / draw” yourself"),
                            indent=False, layout=W.Layout(width="auto"))
        chance.add_class("kingdoms-auto-chance")
        chance.observe(lambda _c: self._render(), names="value")
        return pause, chance

    def _hands_row(self) -> list:
        """In a game with hidden cards: "show Player k's hand" per seat and "hide
        hands" (back to the table), for a screen the whole class sees."""
        if not self.game.hidden_information:
            self._hand_bs, self._hide_b = [], None
            return []
        self._hand_bs = [button(_("show {player}'s hand").format(player=self.game.player_name(k)),
                                "kingdoms-show-hand",
                                tooltip=_("show what {player} may see: their hand, on the "
                                          "screen").format(player=self.game.player_name(k)),
                                on_click=lambda k=k: self.show_hand(k))
                         for k in range(self.game.players)]
        self._hide_b = button(_("hide hands (show the table)"), "kingdoms-hide-hands",
                              tooltip=_("back to the table: only what every player may see"),
                              on_click=self.hide_hands)
        self._hand_note = _html_part("kingdoms-hand-note")
        row = W.HBox([*self._hand_bs, self._hide_b], layout=W.Layout(flex_flow="row wrap"))
        row.add_class("kingdoms-hands")
        return [row, self._hand_note]

    def _deals_row(self) -> list:
        """Started from a game: the deal's number, "new deal" and "replay deal #"."""
        if not self._from_game:
            self._deal_label = None
            return []
        self._deal_label = _html_part("kingdoms-deal")
        new = button(_("new deal"), "kingdoms-new-deal", on_click=self.new_deal,
                     tooltip=_("start a new game with a new deal (its number is shown, so "
                               "it can be replayed)"))
        self._deal_input = W.Text(placeholder=_("deal number"), description=_("replay deal #"),
                                  tooltip=_("the number of a deal to play again"),
                                  style={"description_width": "initial"},
                                  layout=W.Layout(width="230px"))
        self._deal_input.add_class("kingdoms-deal-input")
        replay = button(_("replay"), "kingdoms-replay-deal", on_click=self._on_replay,
                        tooltip=_("start again from the deal whose number is typed in the box"))
        row = W.HBox([self._deal_label, new, self._deal_input, replay],
                     layout=W.Layout(flex_flow="row wrap", align_items="center"))
        row.add_class("kingdoms-deals")
        return [row]

    def _seat_dropdown(self, k: int):
        """Who plays seat ``k``: a person or one of the game's named bots."""
        # a bot's name: the game's, translated where the game's catalog has it
        opts = [(_("human"), "")] + [(_("bot ({name})").format(name=_(n) if n else n), n)
                                     for n in self._named]
        current = ""
        if k in self.seats:
            current = next((n for n, f in self._named.items() if f is self.seats[k]), None)
            if current is None:
                current = f"given:{k}"
                opts.append((_("bot ({name})").format(name=_policy_label(self.seats[k])), current))
                self._given = getattr(self, "_given", {})
                self._given[current] = self.seats[k]
        d = W.Dropdown(options=opts, value=current, description=self.game.player_name(k),
                       tooltip=_("who plays for {player}: a person (human) or one of the "
                                 "named bots").format(player=self.game.player_name(k)),
                       style={"description_width": "initial"},
                       layout=W.Layout(width="auto"))
        d.add_class("kingdoms-seat")
        d.observe(lambda c, k=k: self._on_seat(k, c["new"]), names="value")
        return d

    # ------------------------------------------------------------------ the API
    @property
    def state(self) -> State:
        """The state shown now (omniscient, whatever the perspective)."""
        return self._states[self._index]

    @property
    def states(self) -> tuple:
        """Every state of the timeline (also those after ``index``, for redo)."""
        return tuple(self._states)

    @property
    def index(self) -> int:
        """The position of ``state`` in ``states`` (0 = where the stepper started)."""
        return self._index

    @property
    def history(self) -> tuple:
        """``((who, action), ...)`` taken in this stepper up to the current state."""
        return tuple(s._last for s in self._states[1:self._index + 1])

    @property
    def message(self) -> str:
        """The last message shown (an illegal move's rule, a note, or '')."""
        return self._message[0]

    @property
    def perspective(self):
        return self._persp.value

    @perspective.setter
    def perspective(self, value):
        self._persp.value = value

    def viewer(self):
        """The player whose view is shown now (``"all"`` for everything)."""
        persp = self._persp.value
        if persp != TURN:
            return persp
        humans = [p for p in range(self.game.players) if p not in self.seats]
        cp = self.state.current_player()
        if cp >= 0 and cp in humans:
            return cp
        # between human turns: the human who moved last (else the first human)
        for s in reversed(self._states[:self._index + 1]):
            if s._last is not None and s._last[0] in humans:
                return s._last[0]
        return humans[0] if humans else OMNISCIENT

    @speaks
    def show_hand(self, player: int) -> None:
        """Show what ``player`` may see (their hand) until ``hide_hands``."""
        check_player(self.game, player, "show_hand")
        self._persp.value = player          # the observer re-renders

    @speaks
    def hide_hands(self) -> None:
        """Back to the table: only what every player may see (in a game without
        hidden information: everything)."""
        self._persp.value = TABLE if self.game.hidden_information else OMNISCIENT

    @speaks
    def seat_name(self, player: int) -> str:
        """Who plays ``player``'s seat, for people: "Player 2: bot (greedy)",
        "Player 1: human"."""
        check_player(self.game, player, "seat_name")
        name = self.game.player_name(player)
        if player not in self.seats:
            return _("{player}: human").format(player=name)
        return _("{player}: bot ({name})").format(player=name, name=self._bot_name(player))

    @property
    def paused(self) -> bool:
        """Whether the bots are paused (they then move only on "play until my turn")."""
        return self._pause_b.value

    @paused.setter
    def paused(self, value: bool) -> None:
        self._pause_b.value = bool(value)

    @property
    def auto_chance(self) -> bool:
        """Whether chance events (dice, draws) are played by themselves like bots."""
        return self._chance_b.value

    @auto_chance.setter
    def auto_chance(self, value: bool) -> None:
        self._chance_b.value = bool(value)

    @speaks
    def new_deal(self, seed=None) -> bool:
        """Start a new game (only for a Stepper started from a game): with ``seed``
        (a deal number, to replay a deal) or a new number drawn by the system.  The
        seats and what is shown stay.  A bad number changes nothing and says why."""
        if not self._from_game:
            self._set_message(_("This Stepper started from a position, not a game: it "
                                "has no deals."), "error")
            self._render()
            return False
        if seed is None:
            seed = new_deal_number(other_than=self.seed)
        else:
            try:
                seed = deal_number(seed)
            except ValueError as e:
                self._set_message(str(e)[0].upper() + str(e)[1:] + ".", "error")
                self._render()
                return False
        self._cancel_pending()
        self.close_tree()
        self.seed = seed
        self.rng = random.Random(seed)
        start = self.game.initial_state()
        self.setup = ()
        if not self._show_setup:
            start, self.setup = self._play_setup(start)
        self._states = [start]
        self._index = 0
        self._set_message(_("New game: deal #{number}.").format(number=seed))
        self._render()
        return True

    @speaks
    def _on_replay(self) -> None:
        if self.new_deal(self._deal_input.value if self._deal_input.value.strip() else ""):
            self._deal_input.value = ""

    @speaks
    def step_bots(self) -> bool:
        """One step of the automatic play (what the timer runs): a bot seat's move,
        or a chance event when ``auto_chance``; nothing when paused, when a human is to
        move, at the end, or after time travel (a step back keeps its future for
        redo).  Returns whether a step was played."""
        self._pending = None
        if not self._auto_due():
            return False
        played = self._advance(stop_at_human=True, render=False, limit=1)
        self._render()
        return played > 0

    @speaks
    def set_seat(self, player: int, policy) -> None:
        """Make ``player`` a human seat (``None``) or a bot (a name from
        ``game.policies()`` or a policy function)."""
        check_player(self.game, player, "set_seat")
        if policy is None or policy == "":
            self.seats.pop(player, None)
        else:
            self.seats.update(_seat_policies({player: policy}, self.game, self._named))
        box = self._seat_boxes[player]
        name = "" if policy is None else policy if isinstance(policy, str) else next(
            (n for n, f in self._named.items() if f is policy), None)
        if name is not None and name != box.value and name in [v for _, v in box.options]:
            box.value = name              # the observer re-renders
        self._render()

    @speaks
    def choose(self, action) -> bool:
        """Take ``action`` (a decision or a chance outcome) from the current state.

        A string is matched against the text of the legal actions.  An action the
        rules forbid is shown as a message (the rule it breaks) and the state stays
        as it is; the return value says whether the action was taken.
        """
        state = self.state
        if isinstance(action, str):
            found = self._by_text(action)
            if found is None:
                self._set_message(_("No move here reads “{text}”.").format(text=action),
                                  "error")
                self._render()
                return False
            action = found
        try:
            nxt = state.apply(action)
        except IllegalAction as e:
            self._set_message(str(e), "error")
            self._render()
            return False
        self._push(nxt)
        if self.autoplay and self._is_bot_or_chance(nxt):
            self._advance(stop_at_human=True, render=False)
        self._render()
        return True

    @speaks
    def roll(self) -> bool:
        """At a chance node: draw the outcome with the stepper's seeded random source."""
        state = self.state
        if state.current_player() != CHANCE:
            self._set_message(_("There is nothing to roll or draw: it is a player's turn."),
                              "error")
            self._render()
            return False
        outcome = state.sample_chance(self.rng)
        return self.choose(outcome)

    def undo(self) -> bool:
        """One step back (the later steps stay available to ``redo``)."""
        return self.goto(self._index - 1) if self._index > 0 else False

    def redo(self) -> bool:
        """One step forward again after ``undo``."""
        return self.goto(self._index + 1) if self._index + 1 < len(self._states) else False

    @speaks
    def goto(self, i: int) -> bool:
        """Jump to step ``i`` of the timeline (0 = the start)."""
        if not 0 <= i < len(self._states):
            self._set_message(_("There is no step {step}; the steps are 0 to {last}.").format(
                step=i, last=len(self._states) - 1), "error")
            self._render()
            return False
        self._index = i
        self._set_message("")
        self._render()
        return True

    @speaks
    def play_until_my_turn(self) -> int:
        """Let chance and the bot seats play until a human seat is to move (or the
        game ends).  Returns the number of steps played."""
        n = self._advance(stop_at_human=True)
        self._render()
        return n

    @speaks
    def play_to_end(self) -> int:
        """Play to the end: bot seats use their policy, the others play at random."""
        n = self._advance(stop_at_human=False)
        self._render()
        return n

    @speaks
    def open_tree(self, depth: int = 1):
        """Show a ``TreeExplorer`` rooted at the current state below the stepper."""
        from .tree import TreeExplorer
        close_all(self._tree_box.children)
        if self._tree_would_leak():
            self._tree = None
            self._tree_box.children = [W.HTML(message_html(
                _("The tree shows every card, also the hidden ones. Switch “show” to "
                  "“everything (teacher)” to open it."), "note"))]
            return None
        try:
            self._tree = TreeExplorer(self.state, depth=depth)
        except Exception as e:   # shown to the user, never a traceback in the app
            self._tree = None
            self._tree_box.children = [W.HTML(message_html(
                _("Cannot draw the tree here: {error}").format(error=e), "error"))]
            return None
        close_b = button(_("close tree"), "kingdoms-close-tree", on_click=self.close_tree)
        self._tree_box.children = [close_b, self._tree]
        return self._tree

    def close_tree(self) -> None:
        close_all(self._tree_box.children)
        self._tree_box.children = []
        self._tree = None

    @speaks
    def __repr__(self):
        st = self.state
        now = (_("chance decides what happens next") if st.current_player() == CHANCE
               else st.describe())
        return _("Stepper({title}, step {step} of {last}: {now})").format(
            title=self.game.component_name(self.game.title), step=self._index, last=len(self._states) - 1, now=now)

    # ------------------------------------------------------------------ internals
    def _play_setup(self, start: State):
        """Play the chance events before the first decision with the seeded rng."""
        s = start
        steps = []
        while s.current_player() == CHANCE and len(steps) < self.max_steps:
            o = s.sample_chance(self.rng)
            steps.append((CHANCE, o))
            s = s.apply(o)
        return s, tuple(steps)

    def _tree_would_leak(self) -> bool:
        """A tree shows the full state: not while a player's view is shown in a game
        with hidden information."""
        return bool(self.game.hidden_information) and \
            self.viewer() != OMNISCIENT

    def _default_perspective(self):
        if not self.game.hidden_information:
            return OMNISCIENT
        humans = [p for p in range(self.game.players) if p not in self.seats]
        if not humans:
            return OMNISCIENT
        return humans[0] if len(humans) == 1 else TURN

    @speaks
    def _on_seat(self, player: int, value) -> None:
        if value == "":
            self.seats.pop(player, None)
        elif value in self._named:
            self.seats[player] = self._named[value]
        elif value in getattr(self, "_given", {}):
            self.seats[player] = self._given[value]
        self._render()

    def _by_text(self, text: str):
        state = self.state
        try:
            options = state.legal_actions()
        except TooManyOutcomes:
            options = ()
        for a in options:
            if str(a) == text or self.game.action_text(a) == text:
                return a
        return None

    def _push(self, nxt: State) -> None:
        del self._states[self._index + 1:]
        self._states.append(nxt)
        self._index += 1
        self._set_message("")

    def _set_message(self, text: str, kind: str = "info") -> None:
        self._message = (text, kind)

    def _is_bot_or_chance(self, s: State) -> bool:
        cp = s.current_player()
        return cp == CHANCE or cp in self.seats

    def _bot_name(self, p: int) -> str:
        pol = self.seats.get(p)
        name = next((n for n, f in self._named.items() if f is pol), None)
        return _(name) if name else _policy_label(pol)

    # -- bots that move by themselves
    def _auto_due(self) -> bool:
        """Whether the automatic play should take the next step now."""
        state = self.state
        if self.paused or self._index + 1 != len(self._states):
            return False
        cp = state.current_player()
        return cp in self.seats or (cp == CHANCE and self.auto_chance)

    def _watched(self) -> bool:
        """A front end shows this Stepper (it reports its views in ``_view_count``)."""
        return (self._view_count or 0) > 0

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            try:
                self._pending.cancel()
            except Exception:   # an already finished timer: nothing to stop
                pass
            self._pending = None

    def _schedule(self) -> None:
        """Start the pause before the next automatic step, if one is due and someone
        watches; any earlier pending step is cancelled first."""
        self._cancel_pending()
        if getattr(self, "_persp", None) is None or not self._watched() or not self._auto_due():
            return
        self._pending = self._timer(self.bot_delay, self.step_bots)

    def _advance(self, stop_at_human: bool, render: bool = True,
                 limit: int | None = None) -> int:
        from ..core.play import _decide, random_policy
        steps = 0
        state = self.state
        limit = self.max_steps if limit is None else min(limit, self.max_steps)
        while steps < limit:
            cp = state.current_player()
            if cp == TERMINAL:
                break
            if cp >= 0 and cp not in self.seats and stop_at_human:
                break
            who = self.game.player_name(cp) if cp >= 0 else _("chance")
            try:
                if cp == CHANCE:
                    action = state.sample_chance(self.rng)
                elif cp in self.seats:
                    # a bot sees what its seat sees (play's rule), never the hidden cards
                    action = _decide(state, cp, self.seats[cp], self.rng,
                                     bool(self.game.hidden_information))
                else:
                    action = random_policy(state, self.rng)
            except Exception as e:   # a broken bot: say so, keep what was played
                self._set_message(_("The bot playing for {player} failed ({error}); the game "
                                    "stays where it was.").format(player=who, error=e), "error")
                return steps
            try:
                state = state.apply(action)
            except IllegalAction as e:
                self._set_message(_("The bot playing for {player} chose an illegal action: "
                                    "{error}").format(player=who, error=e), "error")
                return steps
            self._push(state)
            steps += 1
        else:
            if limit == self.max_steps:
                self._set_message(_("Stopped after {steps} steps.").format(
                    steps=self.max_steps), "note")
        return steps

    @speaks
    def _on_slider(self, change) -> None:
        if change["new"] != self._index:
            self.goto(change["new"])

    def _who(self, who: int) -> str:
        return _("chance") if who == CHANCE else self.game.player_name(who)

    def _seen(self, action, persp):
        """``action`` as the viewer ``persp`` sees it (the table: every player)."""
        if persp == OMNISCIENT or not isinstance(action, Action):
            return action
        if persp == TABLE:
            return action.seen_at_table(self.game.players)
        return action.seen_by(persp)

    def _shown_state(self, state: State, persp) -> State:
        """The position as the viewer ``persp`` sees it."""
        if persp == OMNISCIENT:
            return state
        if persp == TABLE:
            return state.table_view()
        return state.view(persp)

    def _public_outcomes(self, outcomes, persp) -> bool:
        """Whether the viewer sees every chance outcome as it is (dice: yes; a card
        dealt to a hand: no; then the outcomes are not listed, only "roll / draw")."""
        return persp == OMNISCIENT or all(self._seen(o, persp) == o for o, _ in outcomes)

    def _describe(self, state: State, shown: State, persp) -> str:
        """``describe()`` of what the viewer sees (a game's sentence may name a card
        only some players know, e.g. the Trader's); the plain protocol sentence if
        the game's sentence fails on a view."""
        if persp == OMNISCIENT or state.current_player() == TERMINAL:
            return state.describe()
        try:
            return shown.describe()
        except Exception:   # noqa: BLE001 - a game's sentence for a view: fall back
            return State.describe(state)

    def _status_text(self, state: State, shown: State | None = None,
                     persp=OMNISCIENT) -> str:
        """What happens now, in a sentence."""
        shown = state if shown is None else shown
        cp = state.current_player()
        if cp == CHANCE:
            text = self._describe(state, shown, persp)
            if text.strip().rstrip(".") in ("Chance event", _("Chance event"), ""):
                try:
                    outcomes = state.chance_outcomes()
                except TooManyOutcomes as e:
                    return _("Chance decides what happens next: one of {count} "
                             "possible outcomes (a shuffle or a deal).").format(
                                 count=count(e.count))
                if not self._public_outcomes(outcomes, persp):
                    return _("Chance decides what happens next (hidden from this view).")
                examples = ", ".join(_("“{move}”").format(move=self.game.action_text(o))
                                     for o, _p in outcomes[:2])
                more = " …" if len(outcomes) > 2 else ""
                if len(outcomes) == 1:
                    return _("Chance: only one thing can happen now: {examples}.").format(
                        examples=examples)
                return _("Chance decides what happens next: one of {count} "
                         "possible outcomes ({examples}).").format(
                             count=len(outcomes), examples=examples + more)
            return text
        if cp == TERMINAL:
            return state.describe()
        text = self._describe(state, shown, persp)
        if cp in self.seats:
            text += " ({seat}{auto})".format(seat=self.seat_name(cp), auto=self._auto_words())
        return text

    def _auto_words(self) -> str:
        """How a bot at the end of the timeline will move: by itself, or not."""
        if self._index + 1 != len(self._states):
            return _("; a step back in time: “redo” or a move goes on")
        if self.paused:
            return _("; bots paused: press “play until my turn” or untick “pause bots”")
        return _("; it moves by itself in a moment")

    @speaks
    def _render(self) -> None:
        state = self.state
        persp = self.viewer()
        try:
            shown = self._shown_state(state, persp)
        except Exception as e:   # a game's view failing must not break the stepper
            # never show more than asked for: the table's plain sentence, no picture
            shown = None
            self._set_message(_("The view of {viewer} failed ({error}).").format(
                viewer=self._who_sees(persp), error=e), "error")
        cp = state.current_player()
        seen = (_("everything (teacher view)") if persp == OMNISCIENT else
                _("the table (what every player may see)") if persp == TABLE else
                _("what {player} may see").format(player=self.game.player_name(persp)))
        self._title.value = (f"<b>{html.escape(self.game.component_name(self.game.title))}</b> — " +
                             _("{players} players; showing {seen}").format(
                                 players=self.game.players, seen=html.escape(seen)))
        status = self._status_text(state, shown, persp) if shown is not None \
            else State.describe(state)
        if cp == TERMINAL:
            status += _(" Shares of the win: ") + ", ".join(
                f"{self.game.player_name(i)} {r}" for i, r in enumerate(state.returns()))
            scores = state.scores()
            if scores is not None:
                status += _("; points: ") + ", ".join(
                    f"{self.game.player_name(i)} {x}" for i, x in enumerate(scores))
        try:
            self._state_html.value = shown._repr_html_() if shown is not None else ""
        except Exception as e:   # a broken render must not break the stepper
            self._state_html.value = (f"<pre>{html.escape(str(shown))}</pre>"
                                      + message_html(_("(The picture failed: {error})").format(
                                          error=e), "note"))
        self._msg.value = message_html(*self._message)
        self._render_choices(state, persp, shown)
        self._undo_b.disabled = self._index == 0
        self._redo_b.disabled = self._index + 1 >= len(self._states)
        # update the slider without triggering a goto
        self._slider.unobserve(self._on_slider, names="value")
        self._slider.max = len(self._states) - 1
        self._slider.value = self._index
        self._slider.observe(self._on_slider, names="value")
        over = cp == TERMINAL
        self._until_b.disabled = over or not self._is_bot_or_chance(state)
        self._end_b.disabled = over
        self._pause_b.description = _("bots paused (press to go on)") if self.paused \
            else _("pause bots")
        self._tree_b.disabled = self._tree_would_leak()
        self._tree_b.tooltip = (_("switch “show” to everything (teacher) to see the tree: it "
                                  "shows hidden cards") if self._tree_b.disabled else
                                _("the tree of what can happen from here"))
        self._render_hands(persp)
        if self._deal_label is not None:
            self._deal_label.value = "<b>{deal}</b>&nbsp;".format(
                deal=_("deal #{number}").format(number=html.escape(str(self.seed))))
        self._log.value = self._log_html(persp)
        # the step counter last: a browser that sees it change sees the whole update
        self._status.value = "<div>{text}</div>".format(
            text=_("step {step} of {last}: {status}").format(
                step=self._index, last=len(self._states) - 1, status=html.escape(status)))
        self._schedule()

    def _who_sees(self, persp) -> str:
        return _("the table") if persp == TABLE else self._who(persp)

    def _render_hands(self, persp) -> None:
        """The "show Player k's hand" buttons: the shown one disabled, "hide" only
        while a hand (or everything) is shown, and a note saying whose hand is up."""
        if self._hide_b is None:
            return
        for k, b in enumerate(self._hand_bs):
            b.disabled = persp == k
        self._hide_b.disabled = persp == TABLE
        if persp == TABLE:
            note = ""
        elif persp == OMNISCIENT:
            note = _("Every hand is shown (teacher view): press “hide hands” to show the table.")
        else:
            note = _("{player}'s hand is shown: press “hide hands” before the others "
                     "look.").format(player=self.game.player_name(persp))
        self._hand_note.value = message_html(note, "note")

    def _log_html(self, persp) -> str:
        items = []
        if self.setup:
            setup = [self.game.action_text(self._seen(a, persp)) for _, a in self.setup]
            shown = "; ".join(setup[:6]) + (_("; … ({count} more)").format(count=len(setup) - 6)
                                            if len(setup) > 6 else "")
            items.append("<li><i>{text}</i></li>".format(
                text=_("set-up by chance ({steps} steps, deal #{number}): {moves}").format(
                    steps=len(setup), number=html.escape(str(self.seed)),
                    moves=html.escape(shown))))
        for who, action in self.history:
            a = self._seen(action, persp)
            items.append(f"<li>{html.escape(self._who(who))}: "
                         f"{html.escape(self.game.action_text(a))}</li>")
        if not items:
            return "<i>" + _("no moves yet") + "</i>"
        return ('<ol style="max-height:12em;overflow:auto;margin:0">' + "".join(items)
                + "</ol>")

    def _render_choices(self, state: State, persp, shown: State | None = None) -> None:
        # the same position, viewer and seats: the buttons stay (a click on a button
        # that was just replaced would be lost; "pause bots" changes none of them)
        key = (persp, tuple(sorted((p, id(f)) for p, f in self.seats.items())))
        last = getattr(self, "_choices_key", None)
        if last is not None and last[0] is state and last[1] == key:
            return
        self._choices_key = (state, key)
        old = list(self._choices.children)
        cp = state.current_player()
        rows: list = []
        if cp == TERMINAL:
            rows.append(W.HTML("<i>" + _("The game is over.") + "</i>"))
        elif cp == CHANCE:
            rows += self._chance_rows(state, persp)
        elif persp != OMNISCIENT and persp != cp:
            who = self.game.player_name(cp)
            if cp in self.seats:
                rows.append(W.HTML("<i>" + _("{seat} is to move (see above).").format(
                    seat=html.escape(self.seat_name(cp))) + "</i>"))
            elif persp == TABLE:
                rows.append(W.HTML("<i>" + _(
                    "{player} is to move. Their moves show their hand: press “show "
                    "{player}'s hand” to choose, then “hide hands”.").format(
                        player=html.escape(who)) + "</i>"))
            else:
                rows.append(W.HTML("<i>" + _(
                    "{player} is choosing (their options are hidden from {viewer}). "
                    "Switch “show” to see them.").format(
                        player=html.escape(who),
                        viewer=html.escape(self.game.player_name(persp))) + "</i>"))
        else:
            who = self.game.player_name(cp)
            rows.append(W.HTML(_("{player} chooses:").format(
                player=f"<b>{html.escape(who)}</b>")))
            actions = state.legal_actions()
            labels = [(self.game.action_text(a), a) for a in actions]
            picture, marks = self._action_picture(shown, actions) if shown is not None \
                else (None, None)
            if picture is not None:
                rows.append(picture)
            rows.append(self._choice_rows(labels, ("kingdoms-action", "kingdoms-choice"),
                                          marks))
        self._choices.children = rows
        close_all(old)

    def _chance_rows(self, state: State, persp) -> list:
        """The rows at a chance event: the roll button, and the outcomes to choose from
        when this view may see them."""
        rows: list = []
        roll = button(_("roll / draw"), "kingdoms-roll", style="warning", on_click=self.roll,
                      tooltip=_("let chance decide (a seeded random draw)"))
        try:
            outcomes = state.chance_outcomes()
        except TooManyOutcomes as e:
            rows.append(W.HBox([roll]))
            rows.append(W.HTML(message_html(
                _("Chance has {count} possible outcomes here (a shuffle or a deal): "
                  "too many to show one by one. Press “roll / draw” to let chance "
                  "decide.").format(count=count(e.count)), "note")))
        else:
            if self._public_outcomes(outcomes, persp):
                rows.append(W.HBox([roll, W.HTML("&nbsp;" + _("or choose what happens:"))]))
                labels = [(_("{outcome} (probability {probability})").format(
                    outcome=self.game.action_text(o), probability=p), o)
                    for o, p in outcomes]
                rows.append(self._choice_rows(labels, ("kingdoms-outcome",
                                                       "kingdoms-choice")))
            else:
                rows.append(W.HBox([roll, W.HTML(
                    "&nbsp;" + _("(what chance can bring here is hidden from this view)"))]))
        return rows

    def _action_picture(self, shown: State, actions: Sequence) -> tuple:
        """The game's picture of where the moves go (``State.action_picture``) as
        ``(widget or None, one label per action or None)``; a failing or malformed
        hook shows no picture and never breaks the stepper."""
        try:
            got = shown.action_picture(actions)
            if got is None:
                return None, None
            pic, marks = got
            marks = tuple(marks)
            if not isinstance(pic, str) or len(marks) != len(actions) or not all(
                    isinstance(m, str) for m in marks):
                raise ValueError("it is not (html, one label per move)")
        except Exception as e:   # noqa: BLE001 - a game's hook must not break the stepper
            return W.HTML(message_html(_("(The picture of the moves failed: {error})").format(
                error=e), "note")), None
        box = W.HTML(pic)
        box.add_class("kingdoms-action-picture")
        return box, marks

    def _choice_rows(self, labels: Sequence[tuple[str, Any]], css: tuple,
                     marks: Sequence[str] | None = None) -> W.Widget:
        """Buttons, one row per kind of move; with many, a filter box above them.
        ``marks``: a short label per move (from ``State.action_picture``), put in
        front of its button's text."""
        groups: dict = {}
        marks = marks or ("",) * len(labels)
        for (text, a), mark in list(zip(labels, marks))[:MAX_SHOWN]:
            groups.setdefault(type(a).__name__, []).append((text, a, mark))
        buttons = []
        rows = []
        for members in groups.values():
            row = []
            for text, a, mark in members:
                if mark:
                    text = f"{mark} · {text}"
                b = button(text, css, on_click=lambda a=a: self.choose(a))
                row.append(b)
                buttons.append((text.lower(), b))
            box = W.HBox(row, layout=W.Layout(flex_flow="row wrap"))
            box.add_class("kingdoms-choice-group")
            if len(groups) > 1:
                box = W.VBox([W.HTML(f"<small>{html.escape(_heading(members))}</small>"), box])
            rows.append(box)
        many = len(labels) > self.max_buttons
        if not many:
            return W.VBox(rows)
        search = W.Text(placeholder=_("type to filter the {count} choices").format(
                            count=len(labels)),
                        layout=W.Layout(width="320px"))
        search.add_class("kingdoms-filter")
        counted = W.HTML("&nbsp;" + _("{count} choices").format(count=len(labels)))
        extra = ("" if len(labels) <= MAX_SHOWN else
                 _(" (the first {count} are shown; type to find the others)").format(
                     count=MAX_SHOWN))

        def narrow(change):
            words = change["new"].lower().split()
            shown = 0
            for text, b in buttons:
                ok = all(w in text for w in words)
                b.layout.display = None if ok else "none"
                shown += ok
            with using(self._language):
                counted.value = "&nbsp;" + _("{shown} of {count} choices shown").format(
                    shown=shown, count=len(labels))

        search.observe(narrow, names="value")
        area = W.VBox(rows, layout=W.Layout(max_height="18em", overflow="auto"))
        return W.VBox([W.HBox([search, counted, W.HTML(extra)]), area])


def _heading(members) -> str:
    """A group's heading: the words its moves begin with (else the kind's name)."""
    texts = [m[0].split() for m in members]
    common = []
    for words in zip(*texts):
        if len(set(words)) != 1:
            break
        common.append(words[0])
    if len(members) > 1 and common:
        return " ".join(common[:6]) + " …"
    if language() != "en":      # a class name is English: the move's own text instead
        return members[0][0] if len(members) == 1 else _("other moves")
    name = type(members[0][1]).__name__
    import re
    return re.sub(r"(?<!^)([A-Z])", r" \1", name).lower().capitalize()
