"""``class_app``: one page per game for a class (served by Voila: ``make app GAME=horse``).

The page is made for a projector: it opens on the table (what every player may see;
no hand face up), "show Player k's hand" shows one seat's hand until "hide hands".
Below the title: a one-paragraph rules card, the deal's number with "new deal" and
"replay deal #" (a deal can be played again), the Stepper (it opens at the first
decision; every seat can be a person or one of the game's named bots, and bots move
by themselves after a short pause, with "pause bots"; chance rolls and draws by
itself unless "roll / draw by itself" is unticked), and one odds question of that game
as a chart.  No code and no list of modelling assumptions is shown; the
apps/<game>.ipynb notebooks build it.
"""
from __future__ import annotations

import html

import ipywidgets as W

from ..core.i18n import _, using
from ..core.protocol import Game
from .stepper import OMNISCIENT, TABLE, Stepper

__all__ = ["class_app"]


def class_app(game: Game | str, rules: str, odds=None, odds_title: str | None = None,
              seed=None, seats=None, intro: str | None = None, auto_chance: bool = True,
              timer=None) -> W.VBox:
    """The class page of ``game``: title, rules card (``rules``: one paragraph of
    plain text; blank lines start a new paragraph), a Stepper that shows the table,
    and ``odds`` (a widget, e.g. a ``DistributionPlot``, or a function
    ``odds(stepper) -> widget``) under the heading ``odds_title``.  ``seed``: the
    first deal's number (default: drawn by the system, and shown); ``auto_chance``:
    chance events happen by themselves; ``timer``: see ``Stepper``."""
    if isinstance(game, str):
        import kingdoms
        game = kingdoms.game(game)
    with using(game.language):
        return _class_app(game, rules, odds, odds_title, seed, seats, intro, auto_chance, timer)


def _class_app(game, rules, odds, odds_title, seed, seats, intro, auto_chance, timer):
    table = TABLE if game.hidden_information else OMNISCIENT
    stepper = Stepper(game, seed=seed, seats=seats, perspective=table,
                      auto_chance=auto_chance, timer=timer)
    paragraphs = "".join(f"<p style='margin:0.3em 0'>{html.escape(p.strip())}</p>"
                         for p in rules.split("\n\n") if p.strip())
    head = W.HTML(f"<h1 style='margin:0.2em 0'>{html.escape(game.component_name(game.title))}</h1>"
                  + (f"<p><i>{html.escape(intro)}</i></p>" if intro else ""))
    head.add_class("kingdoms-app-title")
    card = W.HTML("<div style='border:1px solid #0072B2;border-radius:6px;padding:0.5em 1em;"
                  "background:#eef6fb;max-width:60em'><b>" + _("The rules in one paragraph") + "</b>"
                  f"{paragraphs}</div>")
    card.add_class("kingdoms-rules-card")
    hands = (_("The screen shows the table: what every player may see. A player whose turn "
               "it is presses “show …'s hand” to choose a move, then “hide hands”. ")
             if game.hidden_information else "")
    how = W.HTML("<p style='margin:0.6em 0 0.2em'><b>" + _("Play:") + "</b> " + html.escape(hands)
                 + _("Click a move; “undo” takes a step back. Dice and draws happen by "
                     "themselves (untick “roll / draw by itself” to press “roll / draw”). Under "
                     "“Seats”, choose for each player: a person (human) or one of the named "
                     "bots, who move by themselves after a short pause (“pause bots” stops "
                     "them). “new deal” "
                     "starts a new game; its number, typed into “replay deal #”, plays the "
                     "same deal again.") + "</p>")
    parts = [head, card, how, stepper]
    if odds is not None:
        widget = odds(stepper) if callable(odds) and not isinstance(odds, W.Widget) else odds
        title = W.HTML(f"<h2 style='margin:0.8em 0 0.2em'>{html.escape(odds_title or _('Odds'))}</h2>")
        box = W.VBox([title, widget])
        box.add_class("kingdoms-app-odds")
        parts.append(box)
    app = W.VBox(parts, layout=W.Layout(max_width="1100px"))
    app.add_class("kingdoms-app")
    app.stepper = stepper
    return app
