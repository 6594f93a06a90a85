"""A test helper: is an SVG tree drawing readable where it is shown?

``svg_problems(svg, shown_width=None)`` parses the SVG (matplotlib's, with real
``<text>``) and lists, in words, every text smaller than ``MIN_PX`` pixels at the size
it is shown and every two labels or boxes that overlap.  A label is one matplotlib
text group (``<g id=...>`` holding ``<text>`` lines and, for a boxed label, its box
path); its extent is the union of its box and its lines, each line measured with
matplotlib's own font metrics at the size the SVG states.  ``shown_width``: the
pixels the picture is shown at (default: its own size; 1 pt = 4/3 px).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

MIN_PX = 11
_NS = "{http://www.w3.org/2000/svg}"
_TOL = 0.5          # rectangles touching within half a point do not count


def _size_pt(svg_root) -> tuple[float, float]:
    return tuple(float(svg_root.get(k).rstrip("pt")) for k in ("width", "height"))


def _font(style: str) -> tuple[float, bool]:
    m = re.search(r"font(?:-size)?:\s*(?:(italic|bold|normal)\s+)*([0-9.]+)px", style)
    if not m:
        raise AssertionError(f"a text without a font size: {style!r}")
    return float(m.group(2)), "bold" in style


def _line_box(el) -> tuple:
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties
    style = el.get("style", "")
    size, bold = _font(style)
    text = "".join(el.itertext())
    r = RendererAgg(1, 1, 72)
    w, h, d = r.get_text_width_height_descent(
        text, FontProperties(size=size, weight="bold" if bold else "normal"), ismath=False)
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    m = re.search(r"translate\(([-0-9.e]+)[ ,]+([-0-9.e]+)\)", el.get("transform", ""))
    if m:
        x, y = x + float(m.group(1)), y + float(m.group(2))
    anchor = re.search(r"text-anchor:\s*(\w+)", style)
    anchor = anchor.group(1) if anchor else "start"
    x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
    return (x0, y - (h - d), x0 + w, y + d), size, text


def _path_box(d: str):
    nums = [float(v) for v in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", d)]
    xs, ys = nums[0::2], nums[1::2]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _labels(svg_root):
    """``[(group id, box, [(line text, font size)])]`` of every text group."""
    out = []
    for g in svg_root.iter(_NS + "g"):
        texts = [c for c in g if c.tag == _NS + "text"]
        if not texts:
            continue
        boxes, lines = [], []
        for t in texts:
            b, size, text = _line_box(t)
            boxes.append(b)
            lines.append((text, size))
        for p in g.iter(_NS + "path"):
            pb = _path_box(p.get("d", ""))
            if pb:
                boxes.append(pb)
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))
        out.append((g.get("id"), box, lines))
    return out


def svg_problems(svg: str, shown_width: float | None = None) -> list[str]:
    """What makes the drawing hard to read (an empty list: nothing)."""
    svg = svg[svg.index("<svg"):]
    root = ET.fromstring(svg)
    width, _ = _size_pt(root)
    px_per_unit = 4 / 3 if shown_width is None else shown_width / width
    problems = []
    labels = _labels(root)
    if not labels:
        problems.append("no text found")
    for gid, _, lines in labels:
        for text, size in lines:
            if size * px_per_unit < MIN_PX - 1e-9:
                problems.append(f"{text!r} ({gid}) is {size * px_per_unit:.1f} px high")
    for i, (ga, a, la) in enumerate(labels):
        for gb, b, lb in labels[i + 1:]:
            if (a[0] < b[2] - _TOL and b[0] < a[2] - _TOL and a[1] < b[3] - _TOL
                    and b[1] < a[3] - _TOL):
                problems.append(f"{la[0][0]!r} ({ga}) overlaps {lb[0][0]!r} ({gb})")
    return problems
