"""``TreeExplorer``: the decision/chance tree from a state, with exact values.

Uses ``kingdoms.core.tree.game_tree`` and ``draw_tree``.  Exact expectimax values
are shown when the subgame from the root can be solved within ``max_states``
states; otherwise the tree is drawn without values and a note says why.
"""
from __future__ import annotations

import html

import ipywidgets as W

from ..core.protocol import CHANCE, TERMINAL, State, TooManyOutcomes
from ..core.solve import TreeTooLarge
from ..core.tree import draw_tree, game_tree
from ._common import button, figure_png, message_html, new_figure

__all__ = ["TreeExplorer"]


def _fmt_value(v) -> str:
    return "(" + ", ".join(str(x) for x in v) + ")"


class TreeExplorer(W.VBox):
    """Draw the tree of what can happen within ``depth`` steps of ``state``.

    Squares are decisions, circles chance events (edges carry exact Fraction
    probabilities), diamonds ends of the game.  With values, each node shows its
    exact expectimax value (one share of the win per player) and the best action's
    edge is thick and red.  Choose a child to move the root; "back" returns.

    Programmatic API: ``.root``, ``.depth``, ``.graph``, ``.values`` (bool),
    ``.note``, ``.children_of_root()``, ``.move_to(action)``, ``.back()``,
    ``.set_depth(d)``.
    """

    def __init__(self, state: State, depth: int = 2, max_depth: int = 6,
                 max_nodes: int = 300, max_states: int = 2_000, render: bool = True):
        self.max_nodes = max_nodes
        self.max_states = max_states
        self._roots: list[State] = [state]
        self._solvable: dict = {}     # root -> True/False (tried expectimax)
        self.graph = None
        self.values = False
        self.note = ""
        self._render_images = render
        self._depth = W.IntSlider(value=depth, min=1, max=max(max_depth, depth),
                                  description="depth", continuous_update=False)
        self._depth.add_class("kingdoms-tree-depth")
        self._depth.observe(lambda _c: self._update(), names="value")
        self._back_b = button("⬑ back", "kingdoms-tree-back", on_click=self.back)
        self._children = W.Dropdown(description="child", layout=W.Layout(width="420px"))
        self._children.add_class("kingdoms-tree-children")
        self._go_b = button("make it the root", "kingdoms-tree-go",
                            on_click=lambda: self._go_selected())
        self._info = W.HTML()
        self._info.add_class("kingdoms-tree-info")
        self._image = W.Image(format="png", layout=W.Layout(max_width="100%"))
        self._image.add_class("kingdoms-tree-image")
        super().__init__([W.HBox([self._depth, self._back_b]),
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

    def set_depth(self, d: int) -> None:
        self._depth.value = d      # the observer redraws

    def children_of_root(self) -> list[tuple]:
        """``[(action, probability or None, child state), ...]`` of the root."""
        s = self.root
        cp = s.current_player()
        if cp == TERMINAL:
            return []
        if cp == CHANCE:
            return [(o, p, s.apply(o)) for o, p in s.chance_outcomes()]
        return [(a, None, s.apply(a)) for a in s.legal_actions()]

    def move_to(self, action) -> None:
        """Make the child reached by ``action`` the new root."""
        self._roots.append(self.root.apply(action))
        self._update()

    def back(self) -> None:
        """Return to the previous root."""
        if len(self._roots) > 1:
            self._roots.pop()
            self._update()

    def __repr__(self):
        return f"TreeExplorer(depth {self.depth} from: {self.root.describe()})"

    # ------------------------------------------------------------------ internals
    def _go_selected(self) -> None:
        i = self._children.value
        if i is not None:
            self.move_to(self._child_actions[i])

    def _build(self):
        root, depth = self.root, self.depth
        note = ""
        want_values = self._solvable.get(root, True)
        if want_values:
            try:
                g = game_tree(root, depth, values=True, max_nodes=self.max_nodes,
                              max_states=self.max_states)
                self._solvable[root] = True
                return g, True, note
            except (TreeTooLarge, TooManyOutcomes, RecursionError) as e:
                self._solvable[root] = False
                note = (f"Values not shown: exact values need the whole game from here "
                        f"solved, which is too large ({e}). Move the root nearer the end, "
                        f"or pass a larger max_states (now {self.max_states}).")
        else:
            note = (f"Values not shown: the game from here has more than "
                    f"{self.max_states} states to solve exactly.")
        g = game_tree(root, depth, values=False, max_nodes=self.max_nodes)
        return g, False, note

    def _update(self) -> None:
        root = self.root
        self._back_b.disabled = len(self._roots) == 1
        try:
            kids = self.children_of_root()
        except TooManyOutcomes as e:
            kids = []
            self.note = f"The root is a chance event with {e.count} outcomes: {e}"
        self._child_actions = [a for a, _, _ in kids]
        self._children.options = [
            (str(a) if p is None else f"{a} ({p})", i) for i, (a, p, _) in enumerate(kids)]
        self._children.value = 0 if kids else None
        self._go_b.disabled = not kids
        try:
            self.graph, self.values, self.note = self._build()
        except (ValueError, TreeTooLarge, TooManyOutcomes) as e:
            self.graph, self.values = None, False
            self.note = f"Cannot draw the tree: {e}"
            self._info.value = self._info_html(root) + message_html(self.note, "error")
            self._image.value = b""
            return
        self._info.value = self._info_html(root) + message_html(self.note, "note")
        if self._render_images:
            self._image.value = self._draw()

    def _info_html(self, root: State) -> str:
        lines = [f"<b>root:</b> {html.escape(root.describe())} "
                 f"(step {len(root.history())} of the game)"]
        g = self.graph
        if g is not None and g.graph.get("root") is root:
            lines.append(f"{g.number_of_nodes()} nodes within depth {self.depth}.")
            if self.values and "value" in g.nodes[root]:
                lines.append(f"Exact value (share of the win per player): "
                             f"{_fmt_value(g.nodes[root]['value'])}")
                rows = []
                for u, v, d in g.out_edges(root, data=True):
                    best = " ★ best" if d.get("best") else ""
                    rows.append(f"<tr><td>{html.escape(d['label'])}{best}</td>"
                                f"<td>{_fmt_value(g.nodes[v]['value'])}</td></tr>")
                if rows:
                    lines.append("<table><tr><th>choice</th><th>value</th></tr>"
                                 + "".join(rows) + "</table>")
        return "<div>" + "<br>".join(lines) + "</div>"

    def _draw(self) -> bytes:
        g = self.graph
        layers = max((d["layer"] for _, d in g.nodes(data=True)), default=0) + 1
        width = max(sum(1 for _, d in g.nodes(data=True) if d["layer"] == k)
                    for k in range(layers))
        fig = new_figure((min(16, max(6, 1.6 * width)), min(10, max(3, 1.8 * layers))))
        ax = fig.add_subplot()
        draw_tree(g, ax=ax)
        # room below the last layer for its labels (drawn under the nodes)
        ymin, ymax = ax.get_ylim()
        ax.set_ylim(ymin - 0.3 * max(ymax - ymin, 1.0), ymax)
        return figure_png(fig)
