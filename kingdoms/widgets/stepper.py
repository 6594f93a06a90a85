"""``Stepper``: step through any game turn by turn, in a notebook or a Voila app.

It works through the protocol only (``legal_actions``, ``chance_outcomes``,
``apply``, ``view``, ``_repr_html_``), so it needs nothing from the game beyond it.

Programmatic API (used by tests and notebooks)::

    s = Stepper(kingdoms.game("horse", players=2), seed=1)
    s.choose(s.state.legal_actions()[0])   # or s.choose("stand"): matched by its text
    s.roll()                                # a seeded draw at a chance node
    s.undo(); s.redo(); s.goto(0)
    s.state, s.history, s.index, s.states, s.message
"""
from __future__ import annotations

import html
import random
from typing import Any, Callable, Mapping, Sequence

import ipywidgets as W

from ..core.protocol import CHANCE, TERMINAL, Game, IllegalAction, State, TooManyOutcomes
from ._common import button, close_all, message_html

__all__ = ["Stepper"]

OMNISCIENT = "all"


def _seat_policies(seats, players: int) -> dict[int, Callable]:
    """``seats`` as ``{player: policy}`` (a list may hold ``None`` for humans)."""
    if seats is None:
        return {}
    if isinstance(seats, Mapping):
        items = seats.items()
    else:
        seats = list(seats)
        if len(seats) > players:
            raise ValueError(f"{len(seats)} seats for a {players}-player game")
        items = enumerate(seats)
    out = {}
    for p, pol in items:
        if not isinstance(p, int) or not 0 <= p < players:
            raise ValueError(f"seat {p!r} is not a player index 0..{players - 1}")
        if pol is not None:
            if not callable(pol):
                raise TypeError(f"seat {p}: a policy is a callable policy(state, rng)")
            out[p] = pol
    return out


class Stepper(W.VBox):
    """Step through a game: the state, the legal moves as buttons, chance by hand or
    by a seeded roll, undo/redo, time travel, a move log and the players' views.

    ``game_or_state``: a ``Game``, a ``State`` to start from, or a registered game
    name.  ``seats``: policies ``policy(state, rng)`` for bot players, as a dict
    ``{player: policy}`` or a list (``None`` for a human seat).  ``seed`` seeds the
    ``random.Random`` used for rolls and bots.  ``max_buttons``: above this many
    choices a dropdown replaces the buttons.  ``autoplay``: after a human move, let
    chance and the bots play until a human is to move.
    """

    def __init__(self, game_or_state: Game | State | str, seats=None, seed: Any = None,
                 max_buttons: int = 12, autoplay: bool = False, max_steps: int = 10_000,
                 perspective: int | str = OMNISCIENT):
        if isinstance(game_or_state, str):
            import kingdoms
            game_or_state = kingdoms.game(game_or_state)
        if isinstance(game_or_state, Game):
            start = game_or_state.initial_state()
        elif isinstance(game_or_state, State):
            start = game_or_state
        else:
            raise TypeError("Stepper needs a Game, a State or a game name, "
                            f"not {type(game_or_state).__name__}")
        self.game = start.game
        self.seed = seed
        self.rng = random.Random(seed)
        self.seats = _seat_policies(seats, self.game.players)
        self.max_buttons = max_buttons
        self.max_steps = max_steps
        self.autoplay = autoplay
        self._states: list[State] = [start]
        self._index = 0
        self._message = ("", "info")
        self._tree = None

        # --- the parts ------------------------------------------------------------
        self._title = W.HTML()
        self._status = W.HTML()
        self._status.add_class("kingdoms-status")
        self._state_html = W.HTML()
        self._state_html.add_class("kingdoms-state")
        self._choices = W.VBox()
        self._choices.add_class("kingdoms-choices")
        self._msg = W.HTML()
        self._msg.add_class("kingdoms-message")
        self._undo_b = button("↶ undo", "kingdoms-undo", on_click=self.undo)
        self._redo_b = button("↷ redo", "kingdoms-redo", on_click=self.redo)
        self._slider = W.IntSlider(value=0, min=0, max=0, description="step",
                                   continuous_update=False,
                                   layout=W.Layout(width="320px"))
        self._slider.add_class("kingdoms-history")
        self._slider.observe(self._on_slider, names="value")
        names = [(self.game.player_name(k), k) for k in range(self.game.players)]
        self._persp = W.Dropdown(options=[("omniscient", OMNISCIENT)] + names,
                                 value=perspective, description="view",
                                 layout=W.Layout(width="220px"))
        self._persp.add_class("kingdoms-perspective")
        self._persp.observe(lambda _c: self._render(), names="value")
        self._until_b = button("play until my turn", "kingdoms-play-until-turn",
                               on_click=self.play_until_my_turn,
                               tooltip="chance and the bot seats play until a human "
                                       "seat is to move")
        self._end_b = button("play to end", "kingdoms-play-to-end", on_click=self.play_to_end,
                             tooltip="play to the end of the game (bot seats use their "
                                     "policy, other seats play at random)")
        self._tree_b = button("open tree here", "kingdoms-open-tree", on_click=self.open_tree)
        self._tree_box = W.VBox()
        self._tree_box.add_class("kingdoms-tree-box")
        self._log = W.HTML()
        self._log.add_class("kingdoms-log")
        controls = W.HBox([self._undo_b, self._redo_b, self._slider, self._persp])
        bots = W.HBox([self._until_b, self._end_b, self._tree_b])
        log_box = W.Accordion(children=[self._log], titles=("moves so far",))
        super().__init__([self._title, self._status, self._state_html, self._msg,
                          self._choices, controls, bots, log_box, self._tree_box])
        self.add_class("kingdoms-stepper")
        self._render()

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
                self._set_message(f"No legal action reads {action!r} here.", "error")
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

    def roll(self) -> bool:
        """At a chance node: draw the outcome with the stepper's seeded random source."""
        state = self.state
        if state.current_player() != CHANCE:
            self._set_message("There is nothing to roll or draw: it is not a chance event.",
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

    def goto(self, i: int) -> bool:
        """Jump to step ``i`` of the timeline (0 = the start)."""
        if not 0 <= i < len(self._states):
            self._set_message(f"There is no step {i}; the steps are 0..{len(self._states) - 1}.",
                              "error")
            self._render()
            return False
        self._index = i
        self._set_message("")
        self._render()
        return True

    def play_until_my_turn(self) -> int:
        """Let chance and the bot seats play until a human seat is to move (or the
        game ends).  Returns the number of steps played."""
        n = self._advance(stop_at_human=True)
        self._render()
        return n

    def play_to_end(self) -> int:
        """Play to the end: bot seats use their policy, the others play at random."""
        n = self._advance(stop_at_human=False)
        self._render()
        return n

    def open_tree(self, depth: int = 1):
        """Show a ``TreeExplorer`` rooted at the current state below the stepper."""
        from .tree import TreeExplorer
        close_all(self._tree_box.children)
        try:
            self._tree = TreeExplorer(self.state, depth=depth)
        except Exception as e:   # shown to the user, never a traceback in the app
            self._tree = None
            self._tree_box.children = [W.HTML(message_html(
                f"Cannot draw the tree here: {type(e).__name__}: {e}", "error"))]
            return None
        close_b = button("close tree", "kingdoms-close-tree", on_click=self.close_tree)
        self._tree_box.children = [close_b, self._tree]
        return self._tree

    def close_tree(self) -> None:
        close_all(self._tree_box.children)
        self._tree_box.children = []
        self._tree = None

    def __repr__(self):
        return (f"Stepper({self.game.title}, step {self._index} of {len(self._states) - 1}: "
                f"{self.state.describe()})")

    # ------------------------------------------------------------------ internals
    def _by_text(self, text: str):
        state = self.state
        try:
            options = state.legal_actions()
        except TooManyOutcomes:
            options = ()
        for a in options:
            if str(a) == text:
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

    def _advance(self, stop_at_human: bool, render: bool = True) -> int:
        from ..core.play import random_policy
        steps = 0
        state = self.state
        while steps < self.max_steps:
            cp = state.current_player()
            if cp == TERMINAL:
                break
            if cp >= 0 and cp not in self.seats and stop_at_human:
                break
            who = self.game.player_name(cp) if cp >= 0 else "chance"
            try:
                if cp == CHANCE:
                    action = state.sample_chance(self.rng)
                elif cp in self.seats:
                    action = self.seats[cp](state, self.rng)
                else:
                    action = random_policy(state, self.rng)
            except Exception as e:   # a broken bot: say so, keep what was played
                self._set_message(f"The policy of {who} failed: {type(e).__name__}: {e}",
                                  "error")
                return steps
            try:
                state = state.apply(action)
            except IllegalAction as e:
                self._set_message(f"The policy of {who} chose an illegal action: {e}", "error")
                return steps
            self._push(state)
            steps += 1
        else:
            self._set_message(f"Stopped after {self.max_steps} steps.", "note")
        return steps

    def _on_slider(self, change) -> None:
        if change["new"] != self._index:
            self.goto(change["new"])

    def _who(self, who: int) -> str:
        return "chance" if who == CHANCE else self.game.player_name(who)

    def _render(self) -> None:
        state = self.state
        persp = self._persp.value
        try:
            shown = state if persp == OMNISCIENT else state.view(persp)
        except Exception as e:   # a game's view failing must not break the stepper
            shown = state
            self._set_message(f"view({persp}) failed ({type(e).__name__}: {e}); "
                              "showing everything.", "error")
        cp = state.current_player()
        seen = "everything (omniscient)" if persp == OMNISCIENT else \
            f"what {self.game.player_name(persp)} may see"
        self._title.value = (f"<b>{html.escape(self.game.title)}</b> — "
                             f"{self.game.players} players; showing {html.escape(seen)}")
        status = state.describe()
        if cp == TERMINAL:
            status += " Shares of the win: " + ", ".join(
                f"{self.game.player_name(i)} {r}" for i, r in enumerate(state.returns()))
            scores = state.scores()
            if scores is not None:
                status += "; scores: " + ", ".join(str(x) for x in scores)
        elif cp in self.seats:
            status += " (a bot seat)"
        try:
            self._state_html.value = shown._repr_html_()
        except Exception as e:   # a broken render must not break the stepper
            self._state_html.value = (f"<pre>{html.escape(str(shown))}</pre>"
                                      + message_html(f"(HTML render failed: {e})", "note"))
        self._msg.value = message_html(*self._message)
        self._render_choices(state)
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
        self._log.value = self._log_html(persp)
        # the step counter last: a browser that sees it change sees the whole update
        self._status.value = (f"<div>step {self._index} of {len(self._states) - 1}: "
                              f"{html.escape(status)}</div>")

    def _log_html(self, persp) -> str:
        items = []
        for who, action in self.history:
            a = action if persp == OMNISCIENT else action.seen_by(persp)
            items.append(f"<li>{html.escape(self._who(who))}: {html.escape(str(a))}</li>")
        if not items:
            return "<i>no moves yet</i>"
        return ('<ol style="max-height:12em;overflow:auto;margin:0">' + "".join(items)
                + "</ol>")

    def _render_choices(self, state: State) -> None:
        old = list(self._choices.children)
        cp = state.current_player()
        rows: list = []
        if cp == TERMINAL:
            rows.append(W.HTML("<i>The game is over.</i>"))
        elif cp == CHANCE:
            roll = button("🎲 roll / draw", "kingdoms-roll", style="warning", on_click=self.roll,
                          tooltip="draw the outcome at random (seeded)")
            try:
                outcomes = state.chance_outcomes()
            except TooManyOutcomes as e:
                rows.append(W.HBox([roll]))
                rows.append(W.HTML(message_html(
                    f"This chance event has {e.count} outcomes, too many to list: {e} "
                    "Use roll / draw.", "note")))
            else:
                rows.append(W.HBox([roll, W.HTML("&nbsp;or choose the outcome:")]))
                labels = [(f"{o} ({p})", o) for o, p in outcomes]
                rows.append(self._choice_row(labels, ("kingdoms-outcome", "kingdoms-choice")))
        else:
            who = self.game.player_name(cp)
            rows.append(W.HTML(f"<b>{html.escape(who)}</b> chooses:"))
            labels = [(str(a), a) for a in state.legal_actions()]
            rows.append(self._choice_row(labels, ("kingdoms-action", "kingdoms-choice")))
        self._choices.children = rows
        close_all(old)

    def _choice_row(self, labels: Sequence[tuple[str, Any]], css: tuple) -> W.Widget:
        if len(labels) <= self.max_buttons:
            buttons = []
            for text, a in labels:
                buttons.append(button(text, css, on_click=lambda a=a: self.choose(a)))
            return W.HBox(buttons, layout=W.Layout(flex_flow="row wrap"))
        drop = W.Dropdown(options=[(text, i) for i, (text, _) in enumerate(labels)],
                          layout=W.Layout(width="auto", max_width="520px"))
        drop.add_class("kingdoms-select")
        do = button("do it", css + ("kingdoms-do",),
                    on_click=lambda: self.choose(labels[drop.value][1]))
        return W.HBox([drop, do, W.HTML(f"&nbsp;({len(labels)} choices)")])
