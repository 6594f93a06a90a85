"""Game trees as networkx graphs, and a layered matplotlib drawing of them.

``game_tree(state, depth)`` expands decisions and chance events breadth first.
A chance event too large to list (a full shuffle) is not expanded; its node carries
``outcomes`` (how many there are).  Nodes are the states themselves (hashable), so two routes to the same position meet
in one node (transpositions merged).  Node attributes: ``kind`` ("decision",
"chance", "terminal" or "frontier"), ``player``, ``label``, ``layer`` (depth of
first discovery) and, with ``values=True``, ``value`` (exact expectimax vector).
Edge attributes: ``action`` (the action or outcome), ``label`` (its text) and, on
chance edges, ``probability`` (a Fraction).  The root is ``graph.graph["root"]``.
"""
from __future__ import annotations

from typing import Callable

from .protocol import CHANCE, TERMINAL, State, TooManyOutcomes

__all__ = ["game_tree", "draw_tree", "layered_positions"]


def _node_label(s: State) -> str:
    short = getattr(s, "short", None)
    return short() if callable(short) else s.describe()


def game_tree(state: State, depth: int = 2, values: bool = False, max_nodes: int = 500,
              label: Callable[[State], str] | None = None, value=None,
              max_states: int = 200_000):
    """The tree of everything that can happen within ``depth`` steps of ``state``.

    ``values=True`` annotates every node with its exact expectimax value (solving to
    the end of the game, so only for small subgames; ``value`` as in ``expectimax``).
    Stops with ``ValueError`` if more than ``max_nodes`` nodes would be drawn.
    """
    import networkx as nx
    label = label or _node_label
    g = nx.DiGraph(root=state)
    g.add_node(state, layer=0)
    frontier = [state]
    for layer in range(1, depth + 1):
        nxt = []
        for s in frontier:
            cp = s.current_player()
            if cp == TERMINAL:
                continue
            if cp == CHANCE:
                try:
                    pairs = s.chance_outcomes()
                except TooManyOutcomes as e:   # a full shuffle: drawn, not expanded
                    g.nodes[s]["outcomes"] = e.count
                    continue
            else:
                pairs = [(a, None) for a in s.legal_actions()]
            for a, p in pairs:
                child = s.apply(a)
                if child not in g:
                    if g.number_of_nodes() >= max_nodes:
                        raise ValueError(f"the tree has more than {max_nodes} nodes within "
                                         f"depth {depth}; lower depth or raise max_nodes")
                    g.add_node(child, layer=layer)
                    nxt.append(child)
                text = str(a) if p is None else f"{a} ({p})"
                g.add_edge(s, child, action=a, label=text, probability=p)
        frontier = nxt
    solution = None
    if values:
        from .solve import expectimax
        solution = expectimax(state, value=value, max_states=max_states)
    for s, data in g.nodes(data=True):
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
            best = solution.best.get(s)
            if best is not None:
                child = s.apply(best)
                if g.has_edge(s, child):
                    g.edges[s, child]["best"] = True
    return g


_SHAPES = {"decision": "s", "chance": "o", "terminal": "D", "frontier": "."}
_COLOURS = {"decision": "#8fbcdb", "chance": "#f4d58d", "terminal": "#b5d99c",
            "frontier": "#cccccc"}


def _fmt_value(v) -> str:
    return "(" + ", ".join(str(x) for x in v) + ")"


def layered_positions(graph) -> dict:
    """Node positions for a top-down drawing: one row per layer, each node placed
    under the average position of its parents (barycentre ordering), so edges
    rarely cross.  Returns ``{node: (x, y)}`` with the root at the top."""
    rows: dict[int, list] = {}
    for node, d in graph.nodes(data=True):
        rows.setdefault(d["layer"], []).append(node)
    width = max(len(r) for r in rows.values())
    pos: dict = {}
    for layer in sorted(rows):
        def barycentre(node, order={n: i for i, n in enumerate(rows[layer])}):
            xs = [pos[p][0] for p in graph.predecessors(node) if p in pos]
            return (sum(xs) / len(xs) if xs else 0.0, order[node])
        row = sorted(rows[layer], key=barycentre)
        n = len(row)
        for i, node in enumerate(row):
            pos[node] = ((i - (n - 1) / 2) * width / max(n, 1), -layer)
    return pos


def draw_tree(graph, ax=None, edge_labels: bool = True, node_labels: bool = True,
              figsize=None):
    """Draw a ``game_tree`` graph top-down in layers (no graphviz needed).

    Squares are decisions, circles chance events, diamonds ends of the game; chance
    edges carry their exact probability; with values, nodes show their value and the
    best action's edge is drawn thick.  Returns the matplotlib Axes.
    """
    import textwrap

    import matplotlib.pyplot as plt
    import networkx as nx
    n = graph.number_of_nodes()
    layers = max((d["layer"] for _, d in graph.nodes(data=True)), default=0) + 1
    width = max(sum(1 for _, d in graph.nodes(data=True) if d["layer"] == k)
                for k in range(layers))
    if ax is None:
        _, ax = plt.subplots(figsize=figsize or (max(6, 1.6 * width), max(3, 1.8 * layers)))
    pos = layered_positions(graph)
    for kind, shape in _SHAPES.items():
        nodes = [s for s, d in graph.nodes(data=True) if d.get("kind") == kind]
        if nodes:
            nx.draw_networkx_nodes(graph, pos, nodelist=nodes, node_shape=shape,
                                   node_color=_COLOURS[kind], node_size=500, ax=ax,
                                   edgecolors="#555555")
    best = [(u, v) for u, v, d in graph.edges(data=True) if d.get("best")]
    rest = [(u, v) for u, v, d in graph.edges(data=True) if not d.get("best")]
    nx.draw_networkx_edges(graph, pos, edgelist=rest, ax=ax, arrows=True, node_size=500,
                           edge_color="#777777")
    if best:
        nx.draw_networkx_edges(graph, pos, edgelist=best, ax=ax, arrows=True, width=3,
                               node_size=500, edge_color="#c0392b")
    if edge_labels and graph.number_of_edges() <= 80:
        # wrapped, level text; on wide rows near the child, where the edges are apart
        nx.draw_networkx_edge_labels(
            graph, pos, ax=ax, font_size=7, rotate=False,
            label_pos=0.85 if width > 4 else 0.5,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
            edge_labels={(u, v): textwrap.fill(d["label"], 14)
                         for u, v, d in graph.edges(data=True)})
    if node_labels and n <= 60:
        labels = {}
        for s, d in graph.nodes(data=True):
            text = d["label"] if len(d["label"]) <= 28 else d["label"][:26] + "…"
            if "value" in d:
                text += "\n" + _fmt_value(d["value"])
            labels[s] = text
        below = {k: (x, y - 0.12) for k, (x, y) in pos.items()}
        nx.draw_networkx_labels(graph, below, labels=labels, ax=ax, font_size=7,
                                verticalalignment="top")
    ax.set_axis_off()
    return ax
