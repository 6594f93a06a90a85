"""German widgets (issue 31): a Stepper, a TreeExplorer and a DistributionPlot of a
German game speak German in every label, tooltip, status line and message — also when
a button's callback runs outside the cell's language — and English ones stay English.

The games' own texts (action texts, pictures, describe(), titles) belong to each
game's translation; here they are replaced by neutral German words, so that what is
scanned is exactly what the widgets write."""
from __future__ import annotations

import random

import pytest

import kingdoms
from kingdoms.core.i18n import language, set_language, using
from kingdoms.core.protocol import CHANCE

pytest.importorskip("ipywidgets")
import ipywidgets as W  # noqa: E402

from kingdoms.widgets import DistributionPlot, Stepper, TreeExplorer  # noqa: E402
from kingdoms.widgets.app import class_app  # noqa: E402

from german import german_scan  # noqa: E402
from toygame import HighCard  # noqa: E402


def texts(widget) -> list[str]:
    """Every text a person reads in ``widget`` and its children: descriptions,
    tooltips, placeholders, HTML, option labels and accordion titles."""
    out = []
    for attr in ("description", "tooltip", "placeholder"):
        v = getattr(widget, attr, None)
        if isinstance(v, str) and v:
            out.append(v)
    if isinstance(widget, (W.HTML, W.Label)) and widget.value:
        out.append(widget.value)
    for label in getattr(widget, "_options_labels", ()) or ():
        out.append(label)
    for t in getattr(widget, "titles", ()) or ():
        if t:
            out.append(t)
    for child in getattr(widget, "children", ()):
        out.extend(texts(child))
    return out


def with_class(widget, css):
    out = [widget] if css in getattr(widget, "_dom_classes", ()) else []
    for child in getattr(widget, "children", ()):
        out.extend(with_class(child, css))
    return out


def _without(text: str, words) -> str:
    for w in words:
        text = text.replace(f"({w})", "()")
    return text


@pytest.fixture
def neutral(monkeypatch):
    """Make a game's own texts neutral German words (they are the games' catalogs)."""
    def make(game):
        state_cls = type(game.initial_state())
        monkeypatch.setattr(type(game), "title", "Spiel")
        monkeypatch.setattr(type(game), "action_text", lambda self, a: "Zug")
        monkeypatch.setattr(state_cls, "describe", lambda self: "Stellung.")
        monkeypatch.setattr(state_cls, "_repr_html_", lambda self: "<p>Bild</p>")
        monkeypatch.setattr(state_cls, "__str__", lambda self: "Bild")
        monkeypatch.setattr(state_cls, "action_picture", lambda self, actions: None)
        return game
    return make


@pytest.mark.parametrize("name", kingdoms.games())
def test_a_german_stepper_is_german_through_a_game(name, neutral):
    game = neutral(kingdoms.game(name, language="de"))
    assert language() == "en"            # the kernel stays English: the game speaks German
    s = Stepper(game, seed=3)
    seen = texts(s)
    rng = random.Random(name)
    for _step in range(12):              # press the buttons a student presses
        if s.state.is_terminal():
            break
        if s.state.current_player() == CHANCE:
            with_class(s, "kingdoms-roll")[0].click()
        else:
            buttons = with_class(s, "kingdoms-action")
            if buttons:
                rng.choice(buttons).click()
            else:                         # another player's hidden turn: the bots' button
                with_class(s, "kingdoms-play-until-turn")[0].click()
        seen += texts(s)
    with_class(s, "kingdoms-undo")[0].click()
    seen += texts(s) + [s.message]
    with_class(s, "kingdoms-pause-bots")[0].value = True
    s.set_seat(1, "random")
    seen += texts(s) + [s.seat_name(1), s.seat_name(0), repr(s)]
    for hand in with_class(s, "kingdoms-show-hand")[:1]:
        hand.click()
        seen += texts(s)
        with_class(s, "kingdoms-hide-hands")[0].click()
        seen += texts(s)
    s.new_deal("no number")               # a bad deal number: a message, nothing changes
    seen += [s.message] + texts(s)
    s.choose("kein solcher Zug")
    seen += [s.message]
    s.goto(999)
    seen += [s.message]
    with_class(s, "kingdoms-play-to-end")[0].click()
    seen += texts(s)
    assert language() == "en"
    # the bots' names are the game's (its catalog translates them)
    bots = sorted(game.policies(), key=len, reverse=True)
    seen = [_without(x, bots) for x in seen]
    german_scan(seen, f"the Stepper of {name} in German")
    assert "Schritt" in " ".join(seen) and "rückgängig" in " ".join(seen)


def test_button_callbacks_speak_the_game_language_outside_any_block():
    """ipywidgets runs a click's callback in the kernel's comm handler, outside the
    cell's ``using``: the Stepper runs its work in its game's language itself."""
    s = Stepper(HighCard(language="de"), show_setup=True, seed=1)
    with using("en"):
        with_class(s, "kingdoms-roll")[0].click()
        assert "Schritt 1 von 1" in s._status.value
        s.goto(7)
        assert s.message == "Es gibt keinen Schritt 7; die Schritte sind 0 bis 1."
    english = Stepper(HighCard(language="en"), show_setup=True, seed=1)
    with using("de"):                     # an English game stays English in a German block
        with_class(english, "kingdoms-roll")[0].click()
        assert "step 1 of 1" in english._status.value


def test_the_kernel_language_makes_a_plain_stepper_german():
    try:
        set_language("de")
        s = Stepper(HighCard(), show_setup=True, seed=1)
    finally:
        set_language("en")
    assert with_class(s, "kingdoms-roll")[0].description == "würfeln / ziehen"
    assert with_class(s, "kingdoms-undo")[0].tooltip == "einen Schritt zurück"


def test_german_tree_explorer_and_distribution_plot():
    s = HighCard(language="de").initial_state()
    t = TreeExplorer(s, depth=2, render=True)
    seen = texts(t) + [repr(t)]
    t.move_to(t.children_of_root()[0][0])
    seen += texts(t)
    # the moves themselves ("deal a 1") are the toy game's English: drop them
    german_scan([x.replace("deal a", "").replace("High Card", "") for x in seen],
                "the German TreeExplorer")
    assert "Wahrscheinlichkeit" in " ".join(seen)
    from kingdoms.core.distribution import Distribution
    with using("de"):
        plot = DistributionPlot(Distribution({1: 1, 2: 3}), n=400, seed=1)
    plot.n = 800                          # the slider's callback, outside the block
    table = plot._table.value
    german_scan(texts(plot) + [repr(plot), plot._alt_text()], "the German DistributionPlot")
    assert "exakte Wahrscheinlichkeit" in table and "1/4 ≈ 0,25" in table and "0,220 bis 0,280" in table
    svg = plot.svg()
    assert "Ausgang" in svg and "Wahrscheinlichkeit" in svg and ">0,2<" in svg


def test_german_class_page(neutral):
    game = neutral(kingdoms.game("woods", language="de"))
    app = class_app(game, "Eine Regel.", seed=4, timer=lambda d, cb: None)
    seen = texts(app)
    german_scan(seen, "the German class page")
    assert "Die Regeln in einem Absatz" in " ".join(seen)


def test_english_widgets_unchanged():
    s = Stepper(HighCard(), show_setup=True, seed=1)
    assert with_class(s, "kingdoms-roll")[0].description == "roll / draw"
    assert s._status.value.startswith("<div>step 0 of 0: ")
    assert any("<b>Seats:</b>" in x for x in texts(s))
