"""Small helpers shared by the widgets (no game-specific code here)."""
from __future__ import annotations

import html
import io

import ipywidgets as W

from ..core.text import speaks  # noqa: F401  (the widgets' methods run in their game's language)


def figure_png(fig) -> bytes:
    """A matplotlib ``Figure`` as PNG bytes (no pyplot, so nothing leaks into cells)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return buf.getvalue()


def new_figure(figsize):
    """A ``Figure`` that is not registered with pyplot.

    The inline backend shows every open pyplot figure at the end of a cell; figures
    made here stay out of the cell's output and are shown only inside the widget.
    """
    from matplotlib.figure import Figure
    return Figure(figsize=figsize)


def message_html(text: str, kind: str = "info") -> str:
    if not text:
        return ""
    colour = {"error": "#a61b1b", "info": "#333333", "note": "#7a5b00"}.get(kind, "#333")
    return f'<div style="color:{colour}">{html.escape(text)}</div>'


def button(description: str, css: str | tuple = (), tooltip: str | None = None,
           style: str = "", on_click=None) -> W.Button:
    b = W.Button(description=description, tooltip=tooltip or description,
                 button_style=style, layout=W.Layout(width="auto"))
    for c in ((css,) if isinstance(css, str) else css):
        b.add_class(c)
    if on_click is not None:
        b.on_click(lambda _b: on_click())
    return b


def close_all(widgets) -> None:
    """Close widgets that are being replaced (frees their comms in the kernel)."""
    for w in widgets:
        try:
            if isinstance(w, W.Box):
                close_all(w.children)
            w.close()
        except Exception:   # a closed or half-built widget: nothing to free
            pass
