"""``TreeExplorer``: the decision/chance tree from a state, with values for a
stated objective.

Uses ``kingdoms.core.tree.game_tree`` and ``draw_tree``.  Exact values are shown when
the game from the root can be solved within ``max_states`` positions reading only what
the player to move sees (or every hand, with ``open_hands=True``); otherwise estimated
values ("≈ 0.62 ± 0.04") from seeded sampled games, and one sentence says which and
why.  Where not even that is possible the tree is shown without values and a note
says why and what can be done.  A drawing too wide to read becomes an outline (move, probability, value),
and wide fans are collapsed ("… 14 more") until "show every move" is ticked.
"""
from __future__ import annotations

import html

import ipywidgets as W

from ..core.i18n import _, language, ngettext, using
from ..core.protocol import CHANCE, TERMINAL, Game, State, TooManyOutcomes, safe_repr
from ..core.estimate import EstimateError
from ..core.solve import TreeTooLarge, objective_text, resolve_objective
from ..core.text import count
from ..core.tree import (drawing_columns, format_value, game_tree, state_caption,
                         tree_outline, tree_svg)
from ._common import button, message_html, speaks

__all__ = ["TreeExplorer"]

MAX_DRAWN_COLUMNS = 24      # wider than this, the outline is shown instead of a drawing


class TreeExplorer(W.VBox):
    """Draw the tree of what can happen within ``depth`` steps of ``state`` (a
    position; a game starts at its first position).

    Squares are decisions, circles chance events (edges carry exact probabilities),
    diamonds ends of the game, dashed squares positions not expanded.  With values,
    each node shows its value (exact, or estimated with its ± where exact is out of
    reach or would read hidden cards; ``open_hands=True``: every hand is face up by
    the lesson's premise) for the ``objective`` (a name from
    ``state.game.objectives()``, a function, or ``(name, function)``; default the
    share of the win), stated above the tree, and every best move is marked — all of
    them when moves tie.  Choose a child to move the root; "back" returns.

    Programmatic API: ``.root``, ``.depth``, ``.graph``, ``.values`` (bool),
    ``.objective`` (its name), ``.note``, ``.view`` ("drawing" or "outline"),
    ``.children_of_root()``, ``.move_to(action)``, ``.back()``, ``.set_depth(d)``,
    ``.show_all(bool)``.
    """

    def __init__(self, state: State, depth: int = 2, max_depth: int = 6,
                 max_nodes: int = 300, max_states: int = 2_000, render: bool = True,
                 objective=None, max_fan: int = 8, view: str = "auto",
                 open_hands: bool = False):
        if isinstance(state, Game):
            state = state.initial_state()
        elif not isinstance(state, State):
            raise TypeError(_("TreeExplorer draws the tree below a position: give it a state "
                              "(or a game, to start at its first position); not "
                              "{given}").format(given=safe_repr(state, 40)))
        self._language = state.game.language
        with using(self._language):
            self._init(state, depth, max_depth, max_nodes, max_states, render, objective,
                       max_fan, view, open_hands)

    def _init(self, state, depth, max_depth, max_nodes, max_states, render, objective,
              max_fan, view, open_hands) -> None:
        self.max_nodes = max_nodes
        self.max_states = max_states
        self.max_fan = max_fan
        self.open_hands = bool(open_hands)
        self._objective = resolve_objective(state, objective)
        from ..core.solve import _objectives_of
        self._offered = dict(_objectives_of(state))
        self._offered.setdefault(self._objective[0], self._objective[1])
        self._roots: list[State] = [state]
        self.graph = None
        self.values = False
        self.note = ""
        self.view = "drawing"
        self._render_images = render
        self._depth = W.IntSlider(value=depth, min=1, max=max(max_depth, depth),
                                  description=_("steps ahead"), continuous_update=False,
                                  style={"description_width": "initial"})
        self._depth.add_class("kingdoms-tree-depth")
        self._depth.observe(lambda _c: self._update(), names="value")
        self._back_b = button(_("back"), "kingdoms-tree-back", on_click=self.back,
                              tooltip=_("back to the previous root"))
        self._view = W.ToggleButtons(options=[(_("automatic"), "auto"), (_("drawing"), "drawing"),
                                              (_("outline"), "outline")], value=view,
                                     description=_("show"), style={"button_width": "auto"})
        self._view.add_class("kingdoms-tree-view")
        self._view.observe(lambda _c: self._update(), names="value")
        self._all = W.Checkbox(value=False, description=_("show every move (no “… more”)"),
                               indent=False)
        self._all.add_class("kingdoms-tree-all")
        self._all.observe(lambda _c: self._update(), names="value")
        shown = list(self._offered) if language() == "en" else [(objective_text(k), k) for k in self._offered]
        self._obj = W.Dropdown(options=shown,
                               value=self._objective[0],
                               description=_("values:"), layout=W.Layout(width="320px"))
        self._obj.add_class("kingdoms-tree-objective")
        self._obj.observe(lambda c: self.set_objective(c["new"]), names="value")
        self._children = W.Dropdown(description=_("move to"), layout=W.Layout(width="420px"))
        self._children.add_class("kingdoms-tree-children")
        self._go_b = button(_("make it the root"), "kingdoms-tree-go",
                            on_click=lambda: self._go_selected())
        self._info = W.HTML()
        self._info.add_class("kingdoms-tree-info")
        self._image = W.HTML(layout=W.Layout(max_width="100%", overflow="auto"))
        self._image.add_class("kingdoms-tree-image")
        super().__init__([W.HBox([self._depth, self._back_b, self._obj]),
                          W.HBox([self._view, self._all]),
                          W.HBox([self._children, self._go_b]), self._info, self._image])
        self.add_class("kingdoms-tree")
        self._update()

    # ------------------------------------------------------------------ API
    @property
    def root(self) -> State:
        return self._roots[-1]

    @property
    def depth(self) -> int:
        return self._depth.value

    @property
    def objective(self) -> str:
        """The name of what the values measure (e.g. "share of the win")."""
        return self._objective[0]

    @speaks
    def set_depth(self, d: int) -> None:
        self._depth.value = d      # the observer redraws

    @speaks
    def set_objective(self, name: str) -> None:
        """Measure the values by another of the game's objectives (redraws)."""
        if name not in self._offered:
            raise ValueError(_("the objectives here are {names}").format(
                names=", ".join(map(repr, self._offered))))
        if name != self._objective[0]:
            self._objective = (name, self._offered[name])
            if self._obj.value != name:
                self._obj.value = name
            self._update()

    @speaks
    def show_all(self, on: bool = True) -> None:
        """Draw every move (``True``) or collapse wide fans into "… N more"."""
        self._all.value = on

    def children_of_root(self) -> list[tuple]:
        """``[(action, probability or None, child state), ...]`` of the root."""
        s = self.root
        cp = s.current_player()
        if cp == TERMINAL:
            return []
        if cp == CHANCE:
            return [(o, p, s.apply(o)) for o, p in s.chance_outcomes()]
        return [(a, None, s.apply(a)) for a in s.legal_actions()]

    @speaks
    def move_to(self, action) -> None:
        """Make the child reached by ``action`` the new root."""
        self._roots.append(self.root.apply(action))
        self._update()

    @speaks
    def back(self) -> None:
        """Return to the previous root."""
        if len(self._roots) > 1:
            self._roots.pop()
            self._update()

    @speaks
    def __repr__(self):
        return _("TreeExplorer({depth} steps ahead of: {position})").format(
            depth=self.depth, position=self.root.describe())

    # ------------------------------------------------------------------ internals
    def _go_selected(self) -> None:
        i = self._children.value
        if i is not None:
            self.move_to(self._child_actions[i])

    def _build(self):
        """The tree with values: exact where they are within reach, else estimated
        (``game_tree`` chooses and says why in ``values_note``)."""
        root, depth = self.root, self.depth
        try:
            g = game_tree(root, depth, values=True, max_nodes=self.max_nodes,
                          max_states=self.max_states, objective=self._objective,
                          open_hands=self.open_hands)
            return g, True, g.graph.get("values_note", "")
        except (EstimateError, TooManyOutcomes, RecursionError, TreeTooLarge) as e:
            why = (str(e).rstrip(".") + "." if isinstance(e, EstimateError) else
                   _("working out values here would take too much work."))
        note = _("No values here: {why} What you can do: choose a move below and look "
                 "again, or read the tree without values (who decides, what chance can "
                 "bring).").format(why=why)
        g = game_tree(root, depth, values=False, max_nodes=self.max_nodes)
        return g, False, note

    @speaks
    def _update(self) -> None:
        root = self.root
        self._back_b.disabled = len(self._roots) == 1
        try:
            kids = self.children_of_root()
        except TooManyOutcomes:
            kids = []
        self._child_actions = [a for a, _p, _s in kids]
        self._children.options = [
            (str(a) if p is None else _("{outcome} (probability {probability})").format(
                outcome=a, probability=p), i)
            for i, (a, p, _s) in enumerate(kids)]
        self._children.value = 0 if kids else None
        self._go_b.disabled = not kids
        try:
            self.graph, self.values, self.note = self._build()
        except ValueError as e:          # more nodes than max_nodes
            self.graph, self.values = None, False
            self.note = _("Cannot draw the tree: {error}. Fewer steps ahead show less of it "
                          "({count} positions at most).").format(error=e, count=self.max_nodes)
            self._info.value = self._info_html(root) + message_html(self.note, "error")
            self._image.value = ""
            return
        if not kids and root.current_player() == CHANCE:
            try:
                root.chance_outcomes()
            except TooManyOutcomes as e:
                self.note = _("Here chance has {count} possible outcomes (a shuffle or "
                              "a deal): too many to draw or to list. Let chance decide in "
                              "the Stepper (roll / draw), then open the tree after it.").format(
                                  count=count(e.count))
        self._info.value = self._info_html(root) + message_html(self.note, "note")
        fan = None if self._all.value else self.max_fan
        wide = drawing_columns(self.graph, fan) > MAX_DRAWN_COLUMNS
        mode = self._view.value
        self.view = "outline" if mode == "outline" or (mode == "auto" and wide) else "drawing"
        if self.view == "outline":
            lead = ("<div><i>" + _("The drawing would be too wide to read, so here is the tree "
                                   "as an outline (click a line to open it).") + "</i></div>"
                    if mode == "auto" else "")
            self._image.value = lead + tree_outline(self.graph, html=True)
        elif self._render_images:
            self._image.value = self._draw(fan)

    def _info_html(self, root: State) -> str:
        game = root.game
        lines = [_("{from_here} {position} (step {step} of the game)").format(
            from_here="<b>" + _("From here:") + "</b>", position=html.escape(state_caption(root)),
            step=len(root.history()))]
        g = self.graph
        if g is not None and g.graph.get("root") is root:
            lines.append(ngettext("{count} positions within {depth} step.",
                                  "{count} positions within {depth} steps.",
                                  self.depth).format(count=g.number_of_nodes(), depth=self.depth))
            if self.values and "value" in g.nodes[root]:
                objective = "<b>" + _("Objective: {name}").format(
                    name=html.escape(objective_text(self.objective))) + "</b>"
                if g.graph.get("values") == "estimated":
                    lines.append(_("{objective} — estimated: a value is what sampled games "
                                   "from here brought, ± its 95% uncertainty.").format(
                                       objective=objective))
                else:
                    lines.append(_("{objective} — each player chooses what is best for them "
                                   "by this measure; a value is what they get with best play "
                                   "by everyone.").format(objective=objective))
                lines.append(_("Value here: ") + html.escape(format_value(
                    g.nodes[root]["value"], game)))
                rows = []
                tie = g.nodes[root].get("tie")
                for u, v, d in g.out_edges(root, data=True):
                    best = (_(" ★ best (tie)") if tie else _(" ★ best")) if d.get("best") else ""
                    p = d.get("probability")
                    rows.append(f"<tr><td>{html.escape(str(d['action']))}{best}</td>"
                                f"<td>{'' if p is None else p}</td>"
                                f"<td>{html.escape(format_value(g.nodes[v].get('value'), game))}"
                                f"</td></tr>")
                if rows:
                    lines.append("<table><tr><th>{choice}</th><th>{probability}</th>"
                                 "<th>{value}</th></tr>".format(
                                     choice=_("choice"), probability=_("probability"),
                                     value=_("value ({objective})").format(
                                         objective=html.escape(objective_text(self.objective))))
                                 + "".join(rows) + "</table>")
                if tie:
                    lines.append(_("Several moves are equally good here: all are marked best."))
        return "<div>" + "<br>".join(lines) + "</div>"

    def _draw(self, fan) -> str:
        """The SVG inline, at its own size (a wide tree scrolls instead of shrinking;
        shortened labels show their whole text on hover), named for screen readers."""
        svg = tree_svg(self.graph, max_fan=fan)
        body = svg[svg.index("<svg"):].replace(
            "<svg ", f'<svg role="img" aria-label="{html.escape(self._alt_text())}" ', 1)
        return f'<div style="overflow-x:auto">{body}</div>'

    def _alt_text(self) -> str:
        g = self.graph
        root = self.root
        text = _("Game tree from: {position}. {count} positions.").format(
            position=state_caption(root).rstrip('.'), count=g.number_of_nodes())
        best = [str(d["action"]) for _u, _v, d in g.out_edges(root, data=True) if d.get("best")]
        if best:
            if g.graph.get("values") == "estimated":
                text += _(" Best ({objective}, estimated): {moves}.").format(
                    objective=objective_text(self.objective), moves=", ".join(best))
            else:
                text += _(" Best ({objective}): {moves}.").format(
                    objective=objective_text(self.objective), moves=", ".join(best))
        return text
