"""Game trees as networkx graphs, and readable drawings and outlines of them.

``game_tree(state, depth)`` expands decisions and chance events breadth first.
A chance event too large to list (a full shuffle) is not expanded; its node carries
``outcomes`` (how many there are).  Nodes are the states themselves (hashable), so two
routes to the same position meet in one node (transpositions merged).  Node
attributes: ``kind`` ("decision", "chance", "terminal" or "frontier" = not expanded),
``player``, ``label`` (a short sentence for people), ``layer`` (depth of first
discovery) and, with ``values=True``, ``value`` (exact expectimax vector for the
chosen objective) and ``tie`` (several moves are equally best).  Edge attributes:
``action``, ``label`` (its text), ``probability`` (a Fraction on chance edges, else
None) and ``best`` (on every best move, all of them when moves tie).  Graph
attributes: ``root``, ``objective`` (its name, with values) and ``players`` (names).

``draw_tree`` draws it top-down without overlapping labels (each leaf gets its own
column; the figure grows to fit), with a legend, a stated objective, distinct shapes
for decisions, chance, ends and unexpanded positions, and wide fans collapsed into a
"… 14 more" box.  ``tree_svg`` gives the drawing as SVG text; ``tree_outline`` gives
a text outline (move, probability, value) for trees too wide to draw.
"""
from __future__ import annotations

import html as _html
import textwrap
from fractions import Fraction
from typing import Callable

from .protocol import CHANCE, TERMINAL, State, TooManyOutcomes

__all__ = ["game_tree", "draw_tree", "layered_positions", "tree_svg", "tree_outline",
           "state_caption", "format_value", "format_number", "PALETTE"]

# Okabe–Ito: distinguishable with every common colour-vision deficiency.
PALETTE = {"blue": "#0072B2", "orange": "#E69F00", "green": "#009E73",
           "vermillion": "#D55E00", "sky": "#56B4E9", "yellow": "#F0E442",
           "purple": "#CC79A7", "grey": "#999999", "black": "#000000"}


def state_caption(s: State) -> str:
    """A short sentence for a position: ``describe()`` (whose turn, or the result); a
    chance event without a description of its own says how many outcomes it has."""
    text = s.describe()
    if s.current_player() == CHANCE and text.strip().rstrip(".") in ("Chance event", ""):
        try:
            n = len(s.chance_outcomes())
        except TooManyOutcomes as e:
            n = e.count
        return "Chance: one possible outcome" if n == 1 else f"Chance: {n:,} possible outcomes"
    return text


def format_number(x, exact: bool = True) -> str:
    """A value for people: whole numbers plainly, simple fractions as fractions
    ("19/23 ≈ 0.826" with ``exact``), others as a rounded decimal."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if exact:
        if x.denominator <= 1000:
            return f"{x.numerator}/{x.denominator} ≈ {float(x):.3g}"
        return f"≈ {float(x):.3g}"
    if x.denominator <= 100 and len(str(x)) <= 7:
        return str(x)
    return f"≈{float(x):.3g}"


def format_value(v, game=None, exact: bool = True) -> str:
    """A value vector for people: "Ann 1/2, Ben 1/2" (one value: just the number)."""
    if v is None:
        return ""
    if len(v) == 1:
        return format_number(v[0], exact)
    if game is None:
        return " : ".join(format_number(x, exact) for x in v)
    return ", ".join(f"{game.player_name(i)} {format_number(x, exact)}"
                     for i, x in enumerate(v))


def game_tree(state: State, depth: int = 2, values: bool = False, max_nodes: int = 500,
              label: Callable[[State], str] | None = None, value=None,
              max_states: int = 200_000, objective=None):
    """The tree of everything that can happen within ``depth`` steps of ``state``.

    ``values=True`` annotates every node with its exact expectimax value for the
    ``objective`` (a name from ``state.game.objectives()``, a function or ``(name,
    function)``; default the share of the win; ``value`` is the older name), solving to
    the end of the game, so only for small subgames.  Every best move is marked, ties
    included.  Stops with ``ValueError`` if more than ``max_nodes`` nodes would be drawn.
    """
    import networkx as nx
    game = state.game
    g = nx.DiGraph(root=state, players=[game.player_name(p) for p in range(game.players)])
    g.add_node(state, layer=0)
    frontier = [state]
    layer = 0
    while frontier and layer < depth:      # stops when nothing is left to expand
        layer += 1
        frontier = [child for s in frontier
                    for child in _expand(g, s, layer, max_nodes, depth)]
    solution = None
    if values:
        from .solve import expectimax, resolve_objective
        name, fn = resolve_objective(state, objective, value)
        solution = expectimax(state, objective=(name, fn), max_states=max_states)
        g.graph["objective"] = name
    for s, data in g.nodes(data=True):
        _annotate(g, s, data, label or state_caption, solution)
    return g


def _expand(g, s: State, layer: int, max_nodes: int, depth: int) -> list:
    """Add the children of ``s`` to ``g``; the new ones, to expand next."""
    cp = s.current_player()
    if cp == TERMINAL:
        return []
    if cp == CHANCE:
        try:
            pairs = s.chance_outcomes()
        except TooManyOutcomes as e:   # a full shuffle: drawn, not expanded
            g.nodes[s]["outcomes"] = e.count
            return []
    else:
        pairs = [(a, None) for a in s.legal_actions()]
    new = []
    for a, p in pairs:
        child = s.apply(a)
        if child not in g:
            if g.number_of_nodes() >= max_nodes:
                raise ValueError(f"the tree has more than {max_nodes} nodes within "
                                 f"depth {depth}; lower depth or raise max_nodes")
            g.add_node(child, layer=layer)
            new.append(child)
        text = str(a) if p is None else f"{a} ({p})"
        g.add_edge(s, child, action=a, label=text, probability=p)
    return new


def _annotate(g, s: State, data: dict, label, solution) -> None:
    """A node's kind, player, label and (with a solution) value and best moves."""
    cp = s.current_player()
    if cp == TERMINAL:
        data["kind"] = "terminal"
    elif g.out_degree(s) == 0 and "outcomes" not in data:
        data["kind"] = "frontier"
    else:
        data["kind"] = "chance" if cp == CHANCE else "decision"
    data["player"] = cp
    data["label"] = label(s)
    if solution is not None:
        data["value"] = solution.values[s]
        if cp >= 0:
            best = solution.best_actions(s)
            data["tie"] = len(best) > 1
            for a in best:
                child = s.apply(a)
                if g.has_edge(s, child):
                    g.edges[s, child]["best"] = True


# --------------------------------------------------------------------------- layout

MORE = "more"      # kind of the "… 14 more" placeholder nodes


class _More:
    """A placeholder node standing for the hidden children of a wide fan."""

    def __init__(self, parent, hidden: int):
        self.parent, self.hidden = parent, hidden

    def __repr__(self):
        return f"… {self.hidden} more"


def collapse_fans(graph, max_fan: int | None = 8):
    """A copy of ``graph`` in which a node with more than ``max_fan`` children keeps
    the best moves and the first others (``max_fan - 1`` in all) and one "… N more"
    node stands for the rest (and everything below them)."""
    if not max_fan or all(graph.out_degree(n) <= max_fan for n in graph):
        return graph
    root = graph.graph["root"]
    keep_edges = []
    more = []
    for u in graph:
        kids = list(graph.successors(u))
        if len(kids) <= max_fan:
            keep_edges.extend((u, v) for v in kids)
            continue
        best = [v for v in kids if graph.edges[u, v].get("best")]
        rest = [v for v in kids if not graph.edges[u, v].get("best")]
        shown = (best + rest)[:max(max_fan - 1, 1)]
        shown = [v for v in kids if v in set(shown)]          # keep the game's order
        keep_edges.extend((u, v) for v in shown)
        more.append((u, len(kids) - len(shown)))
    h = graph.edge_subgraph(keep_edges).copy() if keep_edges else graph.subgraph([root]).copy()
    h.add_node(root, **graph.nodes[root])
    # keep only what is still reachable from the root
    import networkx as nx
    reachable = nx.descendants(h, root) | {root}
    h = h.subgraph(reachable).copy()
    for u, hidden in more:
        if u in h:
            m = _More(u, hidden)
            h.add_node(m, kind=MORE, layer=h.nodes[u]["layer"] + 1,
                       label=f"… {hidden} more", player=None)
            h.add_edge(u, m, label="", probability=None, action=None)
    h.graph.update(graph.graph)
    h.graph["collapsed"] = sum(k for _, k in more)
    return h


def _spanning_children(graph) -> dict:
    """Each node's children in a spanning tree (a node shared by several parents —
    a transposition — hangs under the first parent found breadth first)."""
    root = graph.graph["root"]
    children = {n: [] for n in graph}
    seen = {root}
    queue = [root]
    while queue:
        nxt = []
        for u in queue:
            for v in graph.successors(u):
                if v not in seen:
                    seen.add(v)
                    children[u].append(v)
                    nxt.append(v)
        queue = nxt
    return children


def layered_positions(graph) -> dict:
    """Node positions for a top-down drawing: ``{node: (x, y)}`` with the root at the
    top, one row per step.  Every leaf gets a column of its own and every parent sits
    centred over its children, so no two nodes of a row are closer than one column."""
    root = graph.graph.get("root")
    if root is None or root not in graph:
        root = next(iter(graph))
        graph.graph["root"] = root
    children = _spanning_children(graph)
    pos: dict = {}
    depth_of: dict = {root: 0}
    next_col = [0.0]

    def place(u, d):
        kids = children[u]
        if not kids:
            x = next_col[0]
            next_col[0] += 1
        else:
            xs = [place(v, d + 1) for v in kids]
            x = (xs[0] + xs[-1]) / 2
        pos[u] = (x, -d)
        return x

    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        place(root, 0)
    finally:
        sys.setrecursionlimit(limit)
    for n in graph:                 # anything unreachable (should not happen): a row below
        if n not in pos:
            pos[n] = (next_col[0], -(graph.nodes[n].get("layer", 0)))
            next_col[0] += 1
    del depth_of
    return pos


# --------------------------------------------------------------------------- drawing

_STYLE = {
    # kind: (marker, face colour, edge colour, line style, legend text)
    "decision": ("s", PALETTE["sky"], PALETTE["blue"], "solid", "a player decides"),
    "chance": ("o", PALETTE["yellow"], PALETTE["orange"], "solid", "chance (dice, cards)"),
    "terminal": ("D", PALETTE["green"], "#005a44", "solid", "the game ends"),
    "frontier": ("s", "white", "#555555", "dashed", "not expanded (raise the depth)"),
    MORE: ("s", "white", "#555555", "dotted", "more moves, not drawn"),
}
_COL_INCHES = 1.55          # width of one leaf column
_ROW_INCHES = 1.45          # height of one step
_WRAP = 17                  # characters per label line


def _node_text(d, game, show_value: bool) -> str:
    text = d.get("label", "")
    lines = textwrap.wrap(text, _WRAP)[:2]
    if len(textwrap.wrap(text, _WRAP)) > 2:
        lines[-1] = lines[-1][:_WRAP - 1] + "…"
    if "outcomes" in d and d.get("kind") == "chance":
        lines.append(f"({d['outcomes']:,} outcomes: not listed)")
    if show_value and d.get("value") is not None:
        lines.append("value " + format_value(d["value"], None, exact=False))
    return "\n".join(lines)


def _edge_text(d) -> str:
    if d.get("action") is None and not d.get("label"):
        return ""
    a = d.get("action")
    p = d.get("probability")
    # a decision edge's label may have been shortened by the caller (e.g. "Red 9 top");
    # a chance edge's label carries the probability, written on a line of its own here
    text = d.get("label") or str(a) if p is None else str(a)
    lines = textwrap.wrap(text, _WRAP)
    if len(lines) > 3:
        lines = lines[:3]
        lines[-1] = lines[-1][:_WRAP - 1] + "…"
    if p is not None:
        lines.append(f"p = {p}")
    if d.get("best"):
        lines.append("★ best")
    return "\n".join(lines)


def draw_tree(graph, ax=None, edge_labels: bool = True, node_labels: bool = True,
              figsize=None, max_fan: int | None = 8, legend: bool = True,
              title: str | None = None):
    """Draw a ``game_tree`` graph top-down (no graphviz needed) and return the Axes.

    Squares are decisions, circles chance events (their edges carry the exact
    probability), diamonds ends of the game, dashed squares positions not expanded;
    with values, every node shows its value for the stated objective and every best
    move (all of them when moves tie) is drawn thick and marked "★ best".  A node with
    more than ``max_fan`` children shows the best and the first ones and a "… N more"
    box (``max_fan=None`` draws all).  The figure grows so that labels never overlap.
    """
    g = collapse_fans(graph, max_fan)
    pos = layered_positions(g)
    cols = max((x for x, _ in pos.values()), default=0) + 1
    rows = -min((y for _, y in pos.values()), default=0) + 1
    ax = _axes_with_room(ax, figsize, (max(6.0, _COL_INCHES * cols + 0.6),
                                       max(3.0, _ROW_INCHES * rows + 1.4)))
    root = g.graph["root"]
    has_values = "value" in g.nodes[root]
    game = root.game if isinstance(root, State) else None
    _draw_edges(ax, g, pos, edge_labels)         # edges first (under the nodes)
    _draw_nodes(ax, g, pos, node_labels, game, has_values)
    ax.set_xlim(-0.6, cols - 0.4)
    ax.set_ylim(-(rows - 1) - 0.9, 0.5)
    ax.set_axis_off()
    heading = title
    if heading is None:
        heading = "What can happen from here"
        if has_values:
            heading += f" — values: {g.graph.get('objective', 'share of the win')}"
            if game is not None and game.players > 1:
                heading += " (" + " : ".join(g.graph.get("players") or
                                             [game.player_name(p) for p in range(game.players)]) + ")"
    ax.set_title(heading, fontsize=9, loc="left")
    if legend:
        _draw_legend(ax, g)
    return ax


def _axes_with_room(ax, figsize, need: tuple):
    """New axes of the size ``need`` (inches), or ``ax`` with its figure grown to it."""
    import matplotlib.pyplot as plt
    if ax is None:
        fig = plt.figure(figsize=figsize or need)
        return fig.add_subplot()
    fig = ax.figure
    w, h = fig.get_size_inches()
    if len(fig.axes) == 1 and (w < need[0] or h < need[1]):
        fig.set_size_inches(max(w, need[0]), max(h, need[1]))   # room for the labels
    return ax


def _draw_edges(ax, g, pos, edge_labels: bool) -> None:
    for u, v, d in g.edges(data=True):
        (x0, y0), (x1, y1) = pos[u], pos[v]
        best = d.get("best")
        ax.annotate("", xy=(x1, y1 + 0.12), xytext=(x0, y0 - 0.12),
                    arrowprops=dict(arrowstyle="-|>", lw=3.0 if best else 1.0,
                                    color=PALETTE["vermillion"] if best else "#666666",
                                    linestyle="solid" if d.get("action") is not None else ":",
                                    shrinkA=0, shrinkB=0), zorder=1)
        text = _edge_text(d) if edge_labels else ""
        if text:
            t = 0.74
            ax.text(x0 + t * (x1 - x0), y0 + t * (y1 - y0), text, ha="center",
                    va="center", fontsize=7, zorder=3,
                    fontweight="bold" if best else "normal",
                    bbox=dict(boxstyle="round,pad=0.2", fc="white",
                              ec=PALETTE["vermillion"] if best else "none", alpha=0.92))


def _draw_nodes(ax, g, pos, node_labels: bool, game, has_values: bool) -> None:
    for kind, (marker, face, edge, style, _) in _STYLE.items():
        nodes = [n for n, d in g.nodes(data=True) if d.get("kind") == kind]
        if not nodes:
            continue
        xs = [pos[n][0] for n in nodes]
        ys = [pos[n][1] for n in nodes]
        ax.scatter(xs, ys, marker=marker, s=260, c=face, edgecolors=edge, linewidths=1.5,
                   linestyle=style, zorder=4)
    if not node_labels:
        return
    for n, d in g.nodes(data=True):
        x, y = pos[n]
        text = _node_text(d, game, has_values)
        if d.get("tie"):
            text += "\n(tie: several best moves)"
        ax.text(x, y - 0.16, text, ha="center", va="top", fontsize=7, zorder=5,
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))


def _draw_legend(ax, g) -> None:
    from matplotlib.lines import Line2D
    kinds = {d.get("kind") for _, d in g.nodes(data=True)}
    handles = [Line2D([], [], marker=m, linestyle="none", markersize=9,
                      markerfacecolor=f, markeredgecolor=e, label=text)
               for k, (m, f, e, _s, text) in _STYLE.items() if k in kinds]
    if any(d.get("best") for *_, d in g.edges(data=True)):
        handles.append(Line2D([], [], color=PALETTE["vermillion"], lw=3,
                              label="★ best move (all of them when tied)"))
    if any(d.get("probability") is not None for *_, d in g.edges(data=True)):
        handles.append(Line2D([], [], color="#666666", lw=1,
                              label="p = exact probability of an outcome"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, -0.01),
              ncol=min(3, len(handles)), fontsize=7, frameon=False)


def tree_svg(graph, max_fan: int | None = 8, **kwargs) -> str:
    """The drawing as SVG text (crisp at any zoom), made without pyplot so nothing
    leaks into a notebook cell's output."""
    import io

    import matplotlib
    from matplotlib.figure import Figure
    with matplotlib.rc_context({"svg.fonttype": "none"}):   # real, selectable text
        fig = Figure()
        ax = fig.add_subplot()
        draw_tree(graph, ax=ax, max_fan=max_fan, **kwargs)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight")
    return buf.getvalue()


def drawing_columns(graph, max_fan: int | None = 8) -> int:
    """How many columns (leaves) a drawing of ``graph`` needs."""
    g = collapse_fans(graph, max_fan)
    return sum(1 for kids in _spanning_children(g).values() if not kids)


def tree_outline(graph, html: bool = False, open_levels: int = 1) -> str:
    """The tree as an outline: one line per move with its probability and value,
    indented by depth (``html=True``: nested collapsible ``<details>``)."""
    root = graph.graph["root"]
    game = root.game
    children = _spanning_children(graph)
    objective = graph.graph.get("objective")

    def line(d_edge, node) -> str:
        nd = graph.nodes[node]
        parts = [str(d_edge["action"])]
        if d_edge.get("probability") is not None:
            parts.append(f"probability {d_edge['probability']}")
        if "value" in nd:
            parts.append("value " + format_value(nd["value"], game))
        if d_edge.get("best"):
            parts.append("★ best" + (" (tie)" if graph.nodes[_parent(node)].get("tie") else ""))
        parts.append("→ " + nd["label"])
        return " — ".join(parts)

    parent_of = {v: u for u, kids in children.items() for v in kids}

    def _parent(node):
        return parent_of[node]

    head = graph.nodes[root]["label"]
    if "value" in graph.nodes[root]:
        head += f" — value {format_value(graph.nodes[root]['value'], game)}"
    if objective:
        head += f" (objective: {objective})"
    if not html:
        out = [head]

        def walk(u, depth):
            for v in children[u]:
                out.append("  " * depth + "- " + line(graph.edges[u, v], v))
                walk(v, depth + 1)
        walk(root, 1)
        return "\n".join(out)

    def walk_html(u, depth) -> str:
        items = []
        for v in children[u]:
            text = _html.escape(line(graph.edges[u, v], v))
            if graph.edges[u, v].get("best"):
                text = f"<b>{text}</b>"
            if children[v]:
                opened = " open" if depth < open_levels else ""
                items.append(f"<li><details{opened}><summary>{text}</summary>"
                             f"{walk_html(v, depth + 1)}</details></li>")
            else:
                items.append(f"<li>{text}</li>")
        return "<ul style='margin:0 0 0 1em;padding:0'>" + "".join(items) + "</ul>"

    return (f"<div class='kingdoms-tree-outline'><div><b>{_html.escape(head)}</b></div>"
            f"{walk_html(root, 0)}</div>")
