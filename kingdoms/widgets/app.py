"""``class_app``: one page per game for a class (served by Voila: ``make app GAME=horse``).

The page: the game's title, a one-paragraph rules card, the Stepper at the top (it
opens at the first decision; every seat can be a human or one of the game's named
bots), and one odds question of that game as a chart.  No code and no list of
modelling assumptions is shown; the apps/<game>.ipynb notebooks build it.
"""
from __future__ import annotations

import html

import ipywidgets as W

from ..core.protocol import Game
from .stepper import Stepper

__all__ = ["class_app"]


def class_app(game: Game | str, rules: str, odds=None, odds_title: str | None = None,
              seed=1, seats=None, intro: str | None = None) -> W.VBox:
    """The class page of ``game``: title, rules card (``rules``: one paragraph of
    plain text; blank lines start a new paragraph), a Stepper, and ``odds`` (a widget,
    e.g. a ``DistributionPlot``, or a function ``odds(stepper) -> widget``) under the
    heading ``odds_title``."""
    if isinstance(game, str):
        import kingdoms
        game = kingdoms.game(game)
    stepper = Stepper(game, seed=seed, seats=seats)
    paragraphs = "".join(f"<p style='margin:0.3em 0'>{html.escape(p.strip())}</p>"
                         for p in rules.split("\n\n") if p.strip())
    head = W.HTML(f"<h1 style='margin:0.2em 0'>{html.escape(game.title)}</h1>"
                  + (f"<p><i>{html.escape(intro)}</i></p>" if intro else ""))
    head.add_class("kingdoms-app-title")
    card = W.HTML("<div style='border:1px solid #0072B2;border-radius:6px;padding:0.5em 1em;"
                  "background:#eef6fb;max-width:60em'><b>The rules in one paragraph</b>"
                  f"{paragraphs}</div>")
    card.add_class("kingdoms-rules-card")
    how = W.HTML("<p style='margin:0.6em 0 0.2em'><b>Play:</b> click a move; “roll / draw” "
                 "lets chance decide; “undo” takes a step back. Under “Seats”, choose for "
                 "each player: a person (human) or a bot.</p>")
    parts = [head, card, how, stepper]
    if odds is not None:
        widget = odds(stepper) if callable(odds) and not isinstance(odds, W.Widget) else odds
        title = W.HTML(f"<h2 style='margin:0.8em 0 0.2em'>{html.escape(odds_title or 'Odds')}</h2>")
        box = W.VBox([title, widget])
        box.add_class("kingdoms-app-odds")
        parts.append(box)
    app = W.VBox(parts, layout=W.Layout(max_width="1100px"))
    app.add_class("kingdoms-app")
    app.stepper = stepper
    return app
