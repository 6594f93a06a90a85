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

import functools
import html as _html
import textwrap
from fractions import Fraction
from typing import Callable

from .i18n import N_, _, ngettext, using
from .protocol import CHANCE, TERMINAL, State, TooManyOutcomes
from .text import count, localize

__all__ = ["game_tree", "draw_tree", "layered_positions", "tree_svg", "tree_picture",
           "TreePicture", "tree_outline", "sample_positions", "show_transpositions",
           "state_caption", "format_value", "format_number", "PALETTE"]

# Okabe–Ito: distinguishable with every common colour-vision deficiency.
PALETTE = {"blue": "#0072B2", "orange": "#E69F00", "green": "#009E73",
           "vermillion": "#D55E00", "sky": "#56B4E9", "yellow": "#F0E442",
           "purple": "#CC79A7", "grey": "#999999", "black": "#000000"}


def _speaking(function):
    """Run ``function(state_or_graph, ...)`` in the language of the position's game
    (a graph's root): a German game's tree is German also where the kernel is not."""
    @functools.wraps(function)
    def run(first, *args, **kwargs):
        root = first.graph.get("root") if hasattr(first, "graph") and isinstance(
            getattr(first, "graph"), dict) else first
        game = getattr(root, "game", None)
        with using(getattr(game, "language", None)):
            return function(first, *args, **kwargs)
    return run


def state_caption(s: State) -> str:
    """A short sentence for a position: ``describe()`` (whose turn, or the result); a
    chance event without a description of its own says how many outcomes it has."""
    text = s.describe()
    if s.current_player() == CHANCE and text.strip().rstrip(".") in (
            "Chance event", _("Chance event"), ""):
        try:
            n = len(s.chance_outcomes())
        except TooManyOutcomes as e:
            n = e.count
        return ngettext("Chance: one possible outcome", "Chance: {count} possible outcomes",
                        n).format(count=count(n))
    return text


def sample_positions(game, count: int, seed=0, start: float = 0.25,
                     stop: float = 0.75) -> list:
    """``count`` seeded positions of ``game`` where a player is to move, to open a
    tree at: each from a game played by the game's own players, between ``start`` and
    ``stop`` of its way (the defaults: mid-game; ``stop=0``: the first move)."""
    import random

    from .play import play_state
    rng = random.Random(f"kingdoms/sample_positions/{seed}")
    out = []
    for _try in range(100 * count):
        if len(out) == count:
            break
        s = play_state(game, seed=rng.randrange(10**9))
        path = []
        while s._prev is not None:
            s = s._prev
            path.append(s)
        path.reverse()
        decisions = [s for s in path if s.current_player() >= 0]
        if not decisions:
            continue
        within = [s for s in path[int(len(path) * start):int(len(path) * stop)]
                  if s.current_player() >= 0]
        out.append(rng.choice(within) if within else decisions[0])
    return out


def format_number(x, exact: bool = True) -> str:
    """A value for people: whole numbers plainly, simple fractions as fractions
    ("19/23 ≈ 0.826" with ``exact``), others as a rounded decimal."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if exact:
        if x.denominator <= 1000:
            return f"{x.numerator}/{x.denominator} ≈ {localize(f'{float(x):.3g}')}"
        return f"≈ {localize(f'{float(x):.3g}')}"
    if x.denominator <= 100 and len(str(x)) <= 7:
        return str(x)
    return f"≈{localize(f'{float(x):.3g}')}"


def format_value(v, game=None, exact: bool = True) -> str:
    """A value vector for people: "Ann 1/2, Ben 1/2" (one value: just the number); an
    estimate says so: "Ann ≈ 0.62 ± 0.04, Ben ≈ 0.38 ± 0.04 (2,000 sampled games)"."""
    if v is None:
        return ""
    if getattr(v, "exact", True) is False:      # an Estimate: "≈ 0.62 ± 0.04" each
        if len(v) == 1 or game is None:
            return " : ".join(str(x) for x in v) + f" ({v.games})"
        return ", ".join(f"{game.player_name(i)} {x}" for i, x in enumerate(v)) + \
            f" ({v.games})"
    if len(v) == 1:
        return format_number(v[0], exact)
    if game is None:
        return " : ".join(format_number(x, exact) for x in v)
    return ", ".join(f"{game.player_name(i)} {format_number(x, exact)}"
                     for i, x in enumerate(v))


@_speaking
def game_tree(state: State, depth: int = 2, values=False, max_nodes: int = 500,
              label: Callable[[State], str] | None = None, value=None,
              max_states: int = 200_000, objective=None, *, samples: int | None = None,
              seed: int = 0, policy="default", step_budget: int | None = None,
              open_hands: bool = False):
    """The tree of everything that can happen within ``depth`` steps of ``state``.

    ``values=True`` gives every node a value for the ``objective`` (a name from
    ``state.game.objectives()``, a function or ``(name, function)``; default the share
    of the win; ``value`` is the older name), chosen automatically:

    * **exact** (expectimax to the very end) where that is within ``max_states``
      positions and reads nothing the player to move cannot see;
    * otherwise **estimated** (``kingdoms.core.estimate``): the root and the positions
      one step on get the mean of seeded sampled games played out by ``policy``
      (default the game's own players), from worlds consistent with what the player
      to move sees; each prints "≈ 0.62 ± 0.04".  ``samples``, ``seed`` and
      ``step_budget`` as in ``estimate_children``.

    ``open_hands=True`` says every hand is face up (a lesson's premise, e.g. an open
    encounter): values may then read every card, so they are exact wherever they are
    within reach (estimated ones start from the position itself) and the sentence
    says so.  ``values="exact"`` insists on exact values (``TreeTooLarge`` where they are out of
    reach).  The graph says which in ``values`` ("exact" or "estimated") and why in
    ``values_note`` (one sentence).  Every best move is marked, ties included.  Stops
    with ``ValueError`` if more than ``max_nodes`` nodes would be drawn.
    """
    import networkx as nx
    if values not in (True, False, "exact"):
        raise ValueError(_("values is True (exact where possible, else estimated), "
                           "'exact' or False; not {given}").format(given=repr(values)))
    game = state.game
    g = nx.DiGraph(root=state, players=[game.player_name(p) for p in range(game.players)])
    g.add_node(state, layer=0)
    frontier = [state]
    layer = 0
    while frontier and layer < depth:      # stops when nothing is left to expand
        layer += 1
        frontier = [child for s in frontier
                    for child in _expand(g, s, layer, max_nodes, depth)]
    solved = None
    if values:
        from .solve import resolve_objective
        name, fn = resolve_objective(state, objective, value)
        g.graph["objective"] = name
        solved = _values(g, state, (name, fn), values == "exact", max_states, open_hands,
                         dict(samples=samples, seed=seed, policy=policy, open_hands=open_hands,
                              **({} if step_budget is None else {"step_budget": step_budget})))
    for s, data in g.nodes(data=True):
        _annotate(g, s, data, label or state_caption, solved)
    return g


def _values(g, state: State, objective, exact_only: bool, max_states: int,
            open_hands: bool, how: dict):
    """Exact values where possible, else estimated ones: ``{node: value}`` and the
    best moves ``{node: [action, ...]}``; ``g.graph`` says which and why."""
    from .estimate import reads_hidden_information, viewer_of
    from .solve import TreeTooLarge, _words, expectimax
    viewer = viewer_of(state)
    who = state.game.player_name(viewer)
    hands = (_("with every hand face up (as this lesson assumes), ")
             if open_hands and state.game.hidden_information else "")
    if not (exact_only or open_hands) and reads_hidden_information(state, viewer):
        why = _("{player} cannot see every card here, and a value may only use what "
                "{player} knows").format(player=who)
    else:
        try:
            sol = expectimax(state, objective=objective, max_states=max_states)
        except TreeTooLarge as e:
            if exact_only:
                raise
            if e.outcomes:
                why = _("a chance event ahead has {count} outcomes, too many to solve "
                        "exactly").format(count=count(e.outcomes))
            elif e.estimate:
                why = _("the game can go on in more than {count} ways from "
                        "here, too many to solve exactly").format(count=_words(e.limit * 1000))
            else:
                why = _("more than {count} positions lie ahead, too many to solve "
                        "exactly").format(count=count(e.limit))
        else:
            g.graph["values"] = "exact"
            g.graph["values_note"] = _("Exact values: {hands}every way the game can go "
                                       "from here is worked out ({count} positions).").format(
                                           hands=hands, count=count(sol.states))
            best = {s: sol.best_actions(s) for s in g if s.current_player() >= 0}
            return sol.values, best
    return _estimated(g, state, objective, viewer, hands + why, how)


def _estimated(g, state: State, objective, viewer: int, why: str, how: dict):
    """Estimated values of the root and its children (``kingdoms.core.estimate``)."""
    from .estimate import estimate_children
    root, kids = estimate_children(state, objective, viewer=viewer, **how)
    vals = {state: root}
    for a, est in kids.items():
        vals[state.apply(a)] = est
    best = {}
    cp = state.current_player()
    if cp >= 0 and kids:
        top = max(e[cp].mean for e in kids.values())
        best[state] = [a for a, e in kids.items() if e[cp].mean == top]
    some = next(iter(kids.values()), root)
    seen = (_(", dealt anew from what {player} sees").format(
        player=state.game.player_name(viewer)) if some.viewer is not None else "")
    g.graph["values"] = "estimated"
    g.graph["values_note"] = _(
        "Estimated values (≈ ±, 95% interval): {why}, so each value is the average of "
        "{count} games played out by {policy}{seen} (seeded); "
        "positions further down get values when you start from them.").format(
            why=why, count=count(some.samples), policy=some.policy, seen=seen)
    return vals, best


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
                raise ValueError(_("the tree has more than {count} nodes within "
                                   "depth {depth}; lower depth or raise max_nodes").format(
                                       count=max_nodes, depth=depth))
            g.add_node(child, layer=layer)
            new.append(child)
        text = str(a) if p is None else f"{a} ({p})"
        g.add_edge(s, child, action=a, label=text, probability=p)
    return new


def _annotate(g, s: State, data: dict, label, solved) -> None:
    """A node's kind, player, label and (with values) value and best moves."""
    cp = s.current_player()
    if cp == TERMINAL:
        data["kind"] = "terminal"
    elif g.out_degree(s) == 0 and "outcomes" not in data:
        data["kind"] = "frontier"
    else:
        data["kind"] = "chance" if cp == CHANCE else "decision"
    data["player"] = cp
    data["label"] = label(s)
    if solved is None:
        return
    values, best = solved
    if s in values:
        data["value"] = values[s]
    if s in best:
        data["tie"] = len(best[s]) > 1
        for a in best[s]:
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
        return _("… {count} more").format(count=self.hidden)


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
                       label=_("… {count} more").format(count=hidden), player=None)
            h.add_edge(u, m, label="", probability=None, action=None)
    h.graph.update(graph.graph)
    h.graph["collapsed"] = sum(k for _, k in more)
    return h


SAME = "same"      # kind of the "same position as after …" boxes (transpositions)


class _Same:
    """A box standing for a position already drawn under another parent."""

    def __init__(self, parent, target):
        self.parent, self.target = parent, target

    def __repr__(self):
        return _("the same position as {position}").format(position=repr(self.target))


def show_transpositions(graph):
    """``graph`` with every move drawn: where two routes meet in one position (a
    transposition, one node of ``game_tree``), the position hangs under the route
    found first and each other route leads to a box "the same position as after
    “…”" carrying its value.  Without transpositions: ``graph`` itself."""
    children = _spanning_children(graph)
    parent = {v: u for u, kids in children.items() for v in kids}
    extra = [(u, v) for u, v in graph.edges() if parent.get(v) is not u]
    if not extra:
        return graph
    h = graph.copy()
    for u, v in extra:
        d = dict(h.edges[u, v])
        h.remove_edge(u, v)
        first = (graph.edges[parent[v], v].get("label") or "") if v in parent else ""
        where = _("after “{move}”").format(move=first) if first else _("drawn above")
        m = _Same(u, v)
        h.add_node(m, kind=SAME, layer=h.nodes[u].get("layer", 0) + 1, player=None,
                   label=_("the same position as {position}").format(position=where),
                   **({"value": graph.nodes[v]["value"]} if "value" in graph.nodes[v] else {}))
        h.add_edge(u, m, **d)
    h.graph["transpositions"] = len(extra)
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
#
# The drawing is laid out in points (1/72 inch) before anything is drawn: every text
# is measured with the renderer's own font metrics, each leaf gets a column as wide as
# the widest label, each row is as tall as its tallest label, and the figure is made
# exactly that size (axes filling it, one data unit = one point).  So no two labels
# can meet, the text keeps its size whatever the tree, and a wide tree is a wide
# picture (shown at its size, scrolled) rather than a small one.

_STYLE = {
    # kind: (marker, face colour, edge colour, line style, legend text)
    "decision": ("s", PALETTE["sky"], PALETTE["blue"], "solid", N_("a player decides")),
    "chance": ("o", PALETTE["yellow"], PALETTE["orange"], "solid", N_("chance (dice, cards)")),
    "terminal": ("D", PALETTE["green"], "#005a44", "solid", N_("the game ends")),
    "frontier": ("s", "white", "#555555", "dashed", N_("not expanded (raise the depth)")),
    MORE: ("s", "white", "#555555", "dotted", N_("more moves, not drawn")),
    SAME: ("o", "white", PALETTE["blue"], "dotted", N_("a position reached another way too")),
}
FONT_PT = 9                 # every text: 9 pt = 12 px at the size a notebook shows it
TITLE_PT = 10
_LINE = 1.25                # line height, in font sizes
_WRAP = 22                  # characters per label line
_LINES = 2                  # lines of a label's own text (the rest: on hover)
_MARKER = 16                # marker size (points)
_GAP_X = 16                 # between two columns' texts
_GAP_Y = 26                 # between a row's labels and the next row's (the arrows)
_PAD = 3                    # inside a label's box
_MARGIN = 10
_measure_cache: dict = {}


def _text_width(text: str, size: float = FONT_PT, bold: bool = False) -> float:
    """The width in points of one line of ``text`` in the drawing's font."""
    key = (text, size, bold)
    w = _measure_cache.get(key)
    if w is None:
        from matplotlib.backends.backend_agg import RendererAgg
        from matplotlib.font_manager import FontProperties
        r = _measure_cache.get("renderer")
        if r is None:
            r = _measure_cache["renderer"] = RendererAgg(1, 1, 72)
        prop = FontProperties(size=size, weight="bold" if bold else "normal")
        w = r.get_text_width_height_descent(text, prop, ismath=False)[0]
        if len(_measure_cache) > 20_000:
            _measure_cache.clear()
        _measure_cache[key] = w
    return w


def _shorten(text: str, lines: int = _LINES, width: int = _WRAP) -> list[str]:
    """``text`` wrapped into at most ``lines`` lines, the last ending in "…" when
    something was left out."""
    wrapped = textwrap.wrap(text, width, break_long_words=True) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][:width - 1].rstrip() + "…"
    return wrapped


def _value_lines(v) -> list[str]:
    """A node's value, one player per line when there are several: "1/2 : 1/2" read
    in the title's order."""
    if v is None:
        return []
    if getattr(v, "exact", True) is False:
        parts = [str(x) for x in v]
    else:
        parts = [format_number(x, exact=False) for x in v]
    if len(parts) == 1:
        return [parts[0]]
    line = " : ".join(parts)
    if len(line) <= _WRAP + 4:
        return [line]
    return [p + (" :" if i < len(parts) - 1 else "") for i, p in enumerate(parts)]


class _Block:
    """One label: its lines, full text (shown on hover), box style and size."""

    def __init__(self, lines, full: str, bold: bool = False, box=None):
        self.lines, self.full, self.bold, self.box = lines, full, bold, box
        self.width = max((_text_width(t, FONT_PT, bold) for t in lines), default=0) + 2 * _PAD
        self.height = len(lines) * FONT_PT * _LINE + 2 * _PAD if lines else 0


def _node_block(d, show_value: bool) -> _Block:
    text = d.get("label", "")
    lines = _shorten(text)
    full = text
    if "outcomes" in d and d.get("kind") == "chance":
        lines.append(_("{count} outcomes, not listed").format(count=count(d['outcomes'])))
    if show_value and d.get("value") is not None:
        vl = _value_lines(d["value"])
        lines += vl
        full += _(" — value ") + " ".join(vl)
        if getattr(d["value"], "exact", True) is False:
            full += f" ({d['value'].games})"
    if d.get("tie"):
        lines.append(_("(tie: several best)"))
    return _Block(lines, full)


def _edge_block(d, edge_labels: bool) -> _Block | None:
    a = d.get("action")
    if a is None and not d.get("label"):
        return None
    p = d.get("probability")
    # a decision edge's label may have been shortened by the caller (e.g. "Red 9 top")
    text = (d.get("label") or str(a)) if p is None else str(a)
    lines = _shorten(text) if edge_labels else []
    full = text
    if p is not None:
        lines.append(f"p = {p}")
        full += _(" (probability {probability})").format(probability=p)
    if d.get("best"):
        lines.append(_("★ best"))
        full += _(" — best")
    if not lines:
        return None
    return _Block(lines, full, bold=bool(d.get("best")), box=bool(d.get("best")))


def _layout(g, edge_labels: bool, node_labels: bool, has_values: bool):
    """Positions in points: ``{node: (x, y of the marker)}``, the blocks, the size."""
    pos = layered_positions(g)               # columns and rows
    children = _spanning_children(g)
    parent = {v: u for u, kids in children.items() for v in kids}
    nodes = {n: _node_block(d, has_values) if node_labels else _Block([], "")
             for n, d in g.nodes(data=True)}
    edges = {v: _edge_block(g.edges[u, v], edge_labels) for v, u in parent.items()}
    widths = [b.width for b in nodes.values()] + [b.width for b in edges.values() if b]
    col = max(max(widths, default=0), _MARKER) + _GAP_X
    rows = int(-min(y for _, y in pos.values())) + 1
    depth = {n: int(-y) for n, (_, y) in pos.items()}
    above = [0.0] * rows
    below = [0.0] * rows
    for n, d in depth.items():
        b = edges.get(n)
        above[d] = max(above[d], b.height if b else 0)
        below[d] = max(below[d], nodes[n].height)
    marker_y, top = [], 0.0
    for r in range(rows):
        marker_y.append(top + above[r] + _MARKER / 2 + (2 if above[r] else 0))
        top = marker_y[r] + _MARKER / 2 + 2 + below[r] + _GAP_Y
    xy = {n: (_MARGIN + col * (x + 0.5), marker_y[depth[n]]) for n, (x, _) in pos.items()}
    cols = max(x for x, _ in pos.values()) + 1
    return xy, nodes, edges, parent, col * cols + 2 * _MARGIN, top - _GAP_Y


@_speaking
def draw_tree(graph, ax=None, edge_labels: bool = True, node_labels: bool = True,
              figsize=None, max_fan: int | None = 8, legend: bool = True,
              title: str | None = None, value_name: str | None = None):
    """Draw a ``game_tree`` graph top-down (no graphviz needed) and return the Axes.

    Squares are decisions, circles chance events (their edges carry the exact
    probability), diamonds ends of the game, dashed squares positions not expanded;
    with values, every node shows its value for the stated objective (``value_name``:
    the lesson's words for it, default the objective's name), estimated values say
    "≈ ... ± ...", and every best move (all of them when moves tie) is drawn thick and
    marked "★ best".  One sentence under the title says whether the values are exact
    or estimated, and why.  A node with more than ``max_fan`` children shows the best
    and the first ones and a "… N more" box (``max_fan=None`` draws all).

    Every label is measured before drawing, each leaf gets a column as wide as the
    widest label and each row the height of its tallest: labels never overlap and
    keep a 9 pt (12 px) font; long labels are shortened ("…"; ``tree_svg`` keeps the
    whole text for hovering).  The figure is made the size the tree needs
    (``figsize`` is ignored then; an ``ax`` sharing its figure is drawn at its size).
    """
    g = show_transpositions(collapse_fans(graph, max_fan))
    root = g.graph["root"]
    has_values = any("value" in d for _, d in g.nodes(data=True))
    game = root.game if isinstance(root, State) else None
    xy, nodes, edges, parent, width, height = _layout(g, edge_labels, node_labels,
                                                      has_values)
    head = _heading(g, game, has_values, title, value_name)
    width = max(width, 360.0)
    head_lines = _wrap_to(head, width - 2 * _MARGIN, TITLE_PT, bold=True)
    note = g.graph.get("values_note") if has_values else None
    note_lines = _wrap_to(note, width - 2 * _MARGIN, FONT_PT) if note else []
    top = _MARGIN + len(head_lines) * TITLE_PT * _LINE + len(note_lines) * FONT_PT * _LINE + 8
    entries = _legend_entries(g) if legend else []
    legend_rows = _legend_rows(entries, width - 2 * _MARGIN)
    total = top + height + 12 + len(legend_rows) * FONT_PT * 1.8 + _MARGIN
    ax = _axes_for(ax, width, total)
    ax.set_xlim(0, width)
    ax.set_ylim(total, 0)
    ax.set_axis_off()
    y = _MARGIN
    for i, line in enumerate(head_lines):
        _text(ax, _MARGIN, y, line, "left", "top", f"tree-title-{i}", TITLE_PT, bold=True)
        y += TITLE_PT * _LINE
    for i, line in enumerate(note_lines):
        _text(ax, _MARGIN, y, line, "left", "top", f"tree-note-{i}", FONT_PT, italic=True)
        y += FONT_PT * _LINE
    xy = {n: (x, yy + top) for n, (x, yy) in xy.items()}
    _draw_edges(ax, g, xy, nodes, edges, parent)
    _draw_nodes(ax, g, xy, nodes)
    _draw_legend(ax, legend_rows, top + height + 12)
    return ax


def _heading(g, game, has_values: bool, title, value_name) -> str:
    from .solve import objective_text
    if title is not None:
        return title
    heading = _("What can happen from here")
    if has_values:
        objective = g.graph.get("objective")
        name = value_name or (objective_text(objective) if objective else _("value"))
        heading += _(" — values: {name}").format(name=name)
        names = g.graph.get("players") or ([game.player_name(p) for p in range(game.players)]
                                           if game is not None else [])
        if len(names) > 1:
            heading += " (" + " : ".join(names) + ")"
    return heading


def _wrap_to(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` in lines no wider than ``width`` points."""
    lines: list[str] = []
    for word in text.split():
        if lines and _text_width(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _axes_for(ax, width: float, height: float):
    """Axes filling a figure of ``width`` x ``height`` points (a new one, or ``ax``'s
    figure resized when ``ax`` is its only axes)."""
    size = (width / 72, height / 72)
    if ax is None:
        import matplotlib.pyplot as plt
        fig = plt.figure(figsize=size)
        return fig.add_axes((0, 0, 1, 1))
    fig = ax.figure
    if len(fig.axes) == 1:
        fig.set_size_inches(*size)
        ax.set_position((0, 0, 1, 1))
    return ax


def _text(ax, x, y, text, ha, va, gid, size=FONT_PT, bold=False, italic=False, box=None):
    kw = {}
    if box is not None:
        kw["bbox"] = box
    return ax.text(x, y, text, ha=ha, va=va, fontsize=size, gid=gid, zorder=5,
                   fontweight="bold" if bold else "normal",
                   fontstyle="italic" if italic else "normal",
                   linespacing=_LINE, **kw)


_FULL_TEXTS: dict = {}      # gid -> whole text, for tree_svg's hover titles


def _draw_edges(ax, g, xy, nodes, edges, parent) -> None:
    for u, v, d in g.edges(data=True):
        if parent.get(v) is not u:
            continue            # a second route to a position: drawn once, under its first
        (x0, y0), (x1, y1) = xy[u], xy[v]
        start = y0 + _MARKER / 2 + 2 + nodes[u].height
        b = edges.get(v)
        end = y1 - _MARKER / 2 - 2 - (b.height if b else 0)
        best = d.get("best")
        ax.annotate("", xy=(x1, end), xytext=(x0, start),
                    arrowprops=dict(arrowstyle="-|>", lw=3.0 if best else 1.0,
                                    color=PALETTE["vermillion"] if best else "#666666",
                                    linestyle="solid" if d.get("action") is not None else ":",
                                    shrinkA=0, shrinkB=0), zorder=1)
        if b is not None:
            gid = f"tree-edge-{id(v)}"
            _FULL_TEXTS[gid] = b.full
            box = dict(boxstyle=f"round,pad={_PAD / FONT_PT:.3f}", fc="white",
                       ec=PALETTE["vermillion"] if b.box else "none", lw=1.2)
            _text(ax, x1, end + _PAD, "\n".join(b.lines), "center", "top", gid,
                  bold=b.bold, box=box)


def _draw_nodes(ax, g, xy, nodes) -> None:
    for kind, (marker, face, edge, style, _legend) in _STYLE.items():
        ns = [n for n, d in g.nodes(data=True) if d.get("kind") == kind]
        if ns:
            ax.scatter([xy[n][0] for n in ns], [xy[n][1] for n in ns], marker=marker,
                       s=_MARKER ** 2 * (0.7 if marker == "D" else 1), c=face,
                       edgecolors=edge, linewidths=1.5, linestyle=style, zorder=4)
    for n in g:
        b = nodes[n]
        if not b.lines:
            continue
        x, y = xy[n]
        gid = f"tree-node-{id(n)}"
        _FULL_TEXTS[gid] = b.full
        _text(ax, x, y + _MARKER / 2 + 2 + _PAD, "\n".join(b.lines), "center", "top", gid,
              box=dict(boxstyle=f"round,pad={_PAD / FONT_PT:.3f}", fc="white", ec="none"))


def _legend_entries(g) -> list:
    kinds = {d.get("kind") for _, d in g.nodes(data=True)}
    out = [(("marker", m, f, e, s), _(text)) for k, (m, f, e, s, text) in _STYLE.items()
           if k in kinds]
    if any(d.get("best") for *_rest, d in g.edges(data=True)):
        out.append((("line", PALETTE["vermillion"], 3), _("★ best move (all of them when tied)")))
    if any(d.get("probability") is not None for *_rest, d in g.edges(data=True)):
        out.append((("line", "#666666", 1), _("p = exact probability of an outcome")))
    return out


def _legend_rows(entries, width: float) -> list:
    rows: list = []
    x = width + 1
    for sym, text in entries:
        w = 22 + _text_width(text) + 18
        if x + w > width:
            rows.append([])
            x = 0
        rows[-1].append((x, sym, text))
        x += w
    return rows


def _draw_legend(ax, rows, top: float) -> None:
    for r, row in enumerate(rows):
        y = top + r * FONT_PT * 1.8 + FONT_PT * 0.7
        for i, (x, sym, text) in enumerate(row):
            x += _MARGIN
            if sym[0] == "marker":
                _, m, f, e, s = sym
                ax.scatter([x + 8], [y], marker=m, s=100, c=f, edgecolors=e, linewidths=1.2,
                           linestyle=s, zorder=4)
            else:
                ax.plot([x, x + 16], [y, y], color=sym[1], lw=sym[2], zorder=4)
            _text(ax, x + 22, y, text, "left", "center", f"tree-legend-{r}-{i}")


@_speaking
def tree_svg(graph, max_fan: int | None = 8, **kwargs) -> str:
    """The drawing as SVG text (crisp at any zoom, real text), made without pyplot so
    nothing leaks into a notebook cell's output.  Every shortened label carries its
    whole text as an SVG ``<title>`` (shown on hover where the SVG is inline); the
    same tree gives the same text (no date, fixed ids)."""
    import io

    import matplotlib
    from matplotlib.figure import Figure
    _FULL_TEXTS.clear()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "kingdoms-tree"}):
        fig = Figure()
        ax = fig.add_subplot()
        draw_tree(graph, ax=ax, max_fan=max_fan, **kwargs)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    return _with_titles(svg, dict(_FULL_TEXTS))


def _with_titles(svg: str, full: dict) -> str:
    """``svg`` with a ``<title>`` (the whole text) in each label's group, ids made
    stable (numbered in drawing order) and the root marked ``class="kingdoms-tree"``."""
    import re
    order: dict = {}

    def group(m):
        gid = m.group(1)
        new = order.setdefault(gid, re.sub(r"-\d+$", f"-{len(order)}", gid)
                               if gid.startswith(("tree-node-", "tree-edge-")) else gid)
        text = full.get(gid)
        title = f"<title>{_html.escape(text)}</title>" if text else ""
        return f'<g id="{new}">{title}'
    svg = re.sub(r'<g id="(tree-[a-z]+-[0-9-]+)">', group, svg)
    return svg.replace("<svg ", '<svg class="kingdoms-tree" ', 1)


class TreePicture:
    """A tree drawing for a notebook: the SVG at its own size (a wide tree scrolls
    sideways instead of shrinking), each shortened label's whole text on hover.
    ``tree_picture(graph, ...)`` makes one; ``.svg`` is the SVG text."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_html_(self):
        body = self.svg[self.svg.index("<svg"):]
        return f'<div class="kingdoms-tree-picture" style="overflow-x:auto">{body}</div>'

    def __repr__(self):
        return "<tree drawing (SVG)>"


def tree_picture(graph, max_fan: int | None = 8, **kwargs) -> TreePicture:
    """``draw_tree``'s drawing of ``graph`` for a notebook cell (see ``TreePicture``);
    the arguments are ``draw_tree``'s."""
    return TreePicture(tree_svg(graph, max_fan=max_fan, **kwargs))


def drawing_columns(graph, max_fan: int | None = 8) -> int:
    """How many columns (leaves) a drawing of ``graph`` needs."""
    g = show_transpositions(collapse_fans(graph, max_fan))
    return sum(1 for kids in _spanning_children(g).values() if not kids)


def _outline_head(graph, objective) -> str:
    """The outline's first line: the root, its value and the objective."""
    from .solve import objective_text
    root = graph.graph["root"]
    head = graph.nodes[root]["label"]
    if "value" in graph.nodes[root]:
        head += _(" — value {value}").format(
            value=format_value(graph.nodes[root]['value'], root.game))
    if objective:
        head += _(" (objective: {name})").format(name=objective_text(objective))
    return head


@_speaking
def tree_outline(graph, html: bool = False, open_levels: int = 1) -> str:
    """The tree as an outline: one line per move with its probability and value,
    indented by depth (``html=True``: nested collapsible ``<details>``).  A move to a
    position listed under another route says "the same position as after …"."""
    graph = show_transpositions(graph)
    root = graph.graph["root"]
    game = root.game
    children = _spanning_children(graph)
    objective = graph.graph.get("objective")

    def line(d_edge, node) -> str:
        nd = graph.nodes[node]
        parts = [str(d_edge["action"])]
        if d_edge.get("probability") is not None:
            parts.append(_("probability {probability}").format(
                probability=d_edge['probability']))
        if "value" in nd:
            parts.append(_("value ") + format_value(nd["value"], game))
        if d_edge.get("best"):
            parts.append(_("★ best (tie)") if graph.nodes[_parent(node)].get("tie")
                         else _("★ best"))
        parts.append("→ " + nd["label"])
        return " — ".join(parts)

    parent_of = {v: u for u, kids in children.items() for v in kids}

    def _parent(node):
        return parent_of[node]

    head = _outline_head(graph, objective)
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
