"""The class pages' Stepper: the table view with "show hand" / "hide hands", deals
("new deal", "replay deal #"), bots that move by themselves (the timer driven by the
test) and seat names.  No browser: the widgets' own state is checked, every string
of it, since a front end gets all of it (texts, tooltips, option labels)."""
from __future__ import annotations

import asyncio
import html
import random
import re

import pytest

import kingdoms
from kingdoms.core.protocol import CHANCE

W = pytest.importorskip("ipywidgets")
from kingdoms.widgets import Stepper  # noqa: E402
from kingdoms.widgets.app import class_app  # noqa: E402
from kingdoms.widgets.stepper import (BOT_DELAY, deal_number,  # noqa: E402
                                      event_loop_timer, new_deal_number)
from widgets.test_widgets_stepper import with_class  # noqa: E402  (tests/ is on the path)

GAMES = [g for g in kingdoms.games() if g != "highcard"]




def widget_texts(widget) -> list[str]:
    """Every string the front end gets from ``widget`` and its descendants (values,
    descriptions, tooltips, placeholders, option labels), model ids left out."""
    out = []
    state = widget.get_state()
    for key, value in state.items():
        if key.startswith("_") or key in ("layout", "style", "children", "tabbable"):
            continue
        out.extend(_strings(value))
    for child in getattr(widget, "children", ()):
        out.extend(widget_texts(child))
    return out


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [] if value.startswith("IPY_MODEL_") else [value]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


class FakeTimer:
    """Stands for the event loop: records what is scheduled; ``fire()`` runs it."""

    def __init__(self):
        self.pending = []

    def __call__(self, delay, callback):
        handle = _Handle(delay, callback)
        self.pending.append(handle)
        return handle

    def live(self):
        return [h for h in self.pending if not h.cancelled]

    def fire(self) -> bool:
        live = self.live()
        if not live:
            return False
        self.pending = []
        for h in live:
            h.callback()
        return True


class _Handle:
    def __init__(self, delay, callback):
        self.delay, self.callback, self.cancelled = delay, callback, False

    def cancel(self):
        self.cancelled = True




# ------------------------------------------------------------------ the table

@pytest.mark.parametrize("name", GAMES)
def test_the_table_sends_the_same_widgets_for_positions_that_differ_in_hidden_cards(name):
    """Two positions that differ only in what some player may not see give the
    same widget state at the table: no text, tooltip or label tells them apart."""
    game = kingdoms.game(name, players=3 if name != "horse" else 2)
    s, rng = Stepper(game, seed=7).state, random.Random(7)       # the first decision
    texts = widget_texts(Stepper(s, perspective="table"))
    for p in range(game.players):
        other = s.sample_world(p, rng)
        assert widget_texts(Stepper(other, perspective="table")) == texts, p
    # a hand shown does differ: the comparison can see a hand
    assert any(widget_texts(Stepper(s, perspective=p)) != texts for p in range(game.players))


def woods_hand_names(stepper, player):
    return set(stepper.state.hands[player])


def test_class_page_opens_on_the_table_and_shows_a_hand_only_when_asked():
    app = class_app("woods", rules="Rules.", seed=4711, timer=FakeTimer())
    s = app.stepper
    assert s.perspective == "table" and s.seed == 4711
    assert "showing the table" in s._title.value
    visible = " ".join(widget_texts(app))
    hand = woods_hand_names(s, s.state.current_player())
    # the names of this hand that a table shows nowhere else on the page
    secret = {c for c in hand if c not in visible}
    assert secret, "seed 4711 should deal a card not named elsewhere on the page"
    with_class(s, "kingdoms-show-hand")[s.state.current_player()].click()
    shown = " ".join(widget_texts(app))
    assert "what Player 1 may see" in s._title.value and s.perspective == 0
    assert all(c in shown for c in secret)            # the hand and its moves are there
    assert with_class(s, "kingdoms-action")            # the player can choose now
    assert "Player 1's hand is shown" in html.unescape(s._hand_note.value)
    with_class(s, "kingdoms-hide-hands")[0].click()
    assert s.perspective == "table"
    assert not any(c in " ".join(widget_texts(app)) for c in secret)
    assert with_class(s, "kingdoms-action") == []      # no moves: they show the hand
    assert "press “show Player 1's hand”" in html.unescape(s._choices.children[0].value)


def test_the_table_lists_no_chance_outcome_that_would_show_a_card():
    from toygame import Deal
    s = Stepper(kingdoms.game("highcard", players=2), show_setup=True, perspective="table")
    assert with_class(s, "kingdoms-outcome") == [] and with_class(s, "kingdoms-roll")
    assert "deal a 3" not in " ".join(widget_texts(s))
    s.choose(Deal(3))
    assert "deal a 3" not in " ".join(widget_texts(s))        # the log as the table saw it
    s.perspective = "all"
    assert "deal a 3" in " ".join(widget_texts(s))


def test_show_hand_refuses_a_seat_that_is_not_there():
    s = Stepper(kingdoms.game("woods"), seed=1, perspective="table")
    with pytest.raises(ValueError, match="show_hand"):
        s.show_hand(5)
    assert s.perspective == "table"


# ------------------------------------------------------------------ deals

def test_new_deal_draws_a_shown_number_and_a_number_replays_its_deal():
    s = Stepper(kingdoms.game("woods"), seed=3)
    assert "deal #3" in s._deal_label.value
    first = s.state
    assert s.new_deal() and s.seed != 3 and isinstance(s.seed, int)
    assert f"deal #{s.seed}" in s._deal_label.value and s.index == 0
    s._deal_input.value = " #3 "
    with_class(s, "kingdoms-replay-deal")[0].click()
    assert s.seed == 3 and s.state == first and s._deal_input.value == ""
    assert s.state == Stepper(kingdoms.game("woods"), seed=3).state
    assert "deal #3" in s._deal_label.value


@pytest.mark.parametrize("bad", ["x", "-1", "1.5", "", "12345678901"])
def test_a_bad_deal_number_says_what_a_deal_number_is_and_changes_nothing(bad):
    s = Stepper(kingdoms.game("woods"), seed=3)
    s.choose(s.state.legal_actions()[0])
    before = (s.seed, s.states, s.index)
    s._deal_input.value = bad
    with_class(s, "kingdoms-replay-deal")[0].click()
    assert (s.seed, s.states, s.index) == before
    assert "whole number from 0 to 999,999,999" in s.message
    with pytest.raises(ValueError):
        deal_number(bad)


def test_deal_numbers_come_from_the_system_and_a_stepper_without_seed_shows_its_own():
    assert len({new_deal_number() for _ in range(20)}) > 1
    assert new_deal_number(other_than=5) != 5
    s = Stepper(kingdoms.game("woods"))
    assert isinstance(s.seed, int) and f"deal #{s.seed}" in s._deal_label.value
    assert s.state == Stepper(kingdoms.game("woods"), seed=s.seed).state
    from_a_position = Stepper(s.state)
    assert with_class(from_a_position, "kingdoms-new-deal") == []
    assert not from_a_position.new_deal() and "no deals" in from_a_position.message


# ------------------------------------------------------------------ bots by themselves

def bot_stepper(**kw):
    timer = FakeTimer()
    s = Stepper(kingdoms.game("woods"), seed=2, seats={1: "greedy"}, timer=timer, **kw)
    return s, timer


def test_a_bot_moves_by_itself_after_a_short_pause_once_a_browser_shows_it():
    s, timer = bot_stepper()
    s.choose(s.state.legal_actions()[0])              # Player 1 (human) moves
    assert s.state.current_player() == 1
    assert timer.live() == []                          # nobody watches: nothing moves
    s._view_count = 1                                  # what the front end reports
    assert [h.delay for h in timer.live()] == [BOT_DELAY]
    assert "moves by itself in a moment" in s._status.value
    assert "Player 2: bot (greedy)" in s._status.value
    step = s.index
    assert timer.fire()
    assert s.index == step + 1 and s.history[-1][0] == 1      # the bot's move
    assert s.state.current_player() == 0 and timer.live() == []   # a human is to move


def test_pause_bots_stops_them_and_going_on_restarts_them():
    s, timer = bot_stepper()
    s._view_count = 1
    s.choose(s.state.legal_actions()[0])
    assert timer.live()
    pause = with_class(s, "kingdoms-pause-bots")[0]
    pause.value = True
    assert timer.live() == [] and s.paused
    assert "bots paused" in s._status.value and pause.description.startswith("bots paused")
    assert not timer.fire() and s.state.current_player() == 1
    assert s.play_until_my_turn() == 1                 # by hand it still works
    s.undo()
    pause.value = False
    assert timer.live() == []                          # a step back keeps its future
    assert "a step back in time" in s._status.value
    s.choose(s.state.legal_actions()[0])               # ... until another move is made
    assert s.state.current_player() == 0 or timer.live()


def test_chance_by_itself_only_when_ticked():
    s = Stepper(kingdoms.game("horse", players=2), seed=1, seats={1: "greedy"},
                timer=(timer := FakeTimer()))
    s._view_count = 1
    while s.state.current_player() != CHANCE:
        s.choose(s.state.legal_actions()[0]) if s.state.current_player() == 0 else timer.fire()
    assert timer.live() == [] and not s.auto_chance
    s.auto_chance = True
    assert timer.live()
    step = s.index
    timer.fire()
    assert s.index == step + 1 and s.history[-1][0] == CHANCE


def test_a_new_pending_step_replaces_the_old_one():
    s, timer = bot_stepper()
    s._view_count = 1
    s.choose(s.state.legal_actions()[0])
    s._render()
    s._render()
    assert len(timer.live()) == 1


def test_the_timer_runs_on_the_event_loop_and_never_without_one():
    # asked in a thread of its own: in this test session a browser test's driver may
    # run an event loop in the main thread
    import threading
    outside, fired = [], []

    async def main():
        event_loop_timer(0.01, lambda: fired.append(True))
        await asyncio.sleep(0.2)

    def check():
        outside.append(event_loop_timer(0, lambda: None))   # plain Python: no loop
        asyncio.run(main())

    thread = threading.Thread(target=check)
    thread.start()
    thread.join()
    assert outside == [None]
    assert fired == [True]


def test_bot_delay_is_checked():
    with pytest.raises(ValueError, match="bot_delay must be a number of seconds"):
        Stepper(kingdoms.game("woods"), bot_delay=-1)
    with pytest.raises(ValueError, match="bot_delay"):
        Stepper(kingdoms.game("woods"), bot_delay="fast")


# ------------------------------------------------------------------ seat names

def test_every_seat_has_a_name_and_no_seat_is_called_a_bot():
    def my_player(state, rng):
        return state.legal_actions()[0]

    s = Stepper(kingdoms.game("woods", players=3), seed=1,
                seats={1: "greedy", 2: my_player})
    assert [s.seat_name(p) for p in range(3)] == [
        "Player 1: human", "Player 2: bot (greedy)", "Player 3: bot (my_player)"]
    seats = with_class(s, "kingdoms-seat")
    assert [d.description for d in seats] == ["Player 1", "Player 2", "Player 3"]
    assert ("bot (my_player)", "given:2") in seats[2].options
    assert all(d.tooltip for d in seats)
    assert not any(re.search(r"\ba bot\b", t) for t in widget_texts(s))


def test_every_new_control_has_an_accessible_name():
    app = class_app("woods", rules="Rules.", seed=1, timer=FakeTimer())
    s = app.stepper
    for css in ("kingdoms-show-hand", "kingdoms-hide-hands", "kingdoms-new-deal",
                "kingdoms-replay-deal", "kingdoms-pause-bots", "kingdoms-auto-chance",
                "kingdoms-deal-input", "kingdoms-seat", "kingdoms-perspective"):
        found = with_class(s, css)
        assert found, css
        assert all(w.description and w.tooltip for w in found), css


def test_pause_and_chance_toggles_keep_the_move_buttons():
    """A browser click on a button that was just replaced is lost: toggles that change
    no move keep the buttons."""
    s = Stepper(kingdoms.game("woods"), seed=2, timer=FakeTimer())
    buttons = with_class(s, "kingdoms-action")
    assert buttons
    s.paused = True
    s.auto_chance = True
    s._view_count = 1
    assert all(a is b for a, b in zip(with_class(s, "kingdoms-action"), buttons))
    s.choose(buttons[0].description)
    assert not any(b in with_class(s, "kingdoms-action") for b in buttons)
