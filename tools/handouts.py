"""Printable handouts: one PDF of one or two pages per lesson notebook.

    python tools/handouts.py [--dest build/handouts] [NOTEBOOK ...]      (make handouts)

A handout holds what a student needs on paper and nothing else: the lesson's title and
what it teaches, the cells tagged ``handout`` (the task questions, and the lesson's key
picture or, for a code cell without one, the table it prints), and room to answer under
every task question. No code, and never a cell tagged ``teacher-only``. Markdown is rendered by mistune (nbconvert's own Markdown
parser) into the small HTML subset that fpdf2 writes; pictures are the cells' stored PNG
outputs. The font is matplotlib's DejaVu Sans (so ≈, −, → and ² print), which every
install of kingdoms has.

A handout that would run over two pages is built again with smaller pictures and less
answer room; if even the smallest layout does not fit, the script stops with an error
naming the lesson.
"""
from __future__ import annotations

import argparse
import base64
import io
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = ("woods", "black_forest", "elves", "horse", "ten_characters")
LESSONS = ("walkthrough", "odds", "explore")
MAX_PAGES = 2
# (picture height in mm, answer lines per task, font size): tried in this order
LAYOUTS = ((75, 5, 11), (60, 4, 10.5), (48, 3, 10), (38, 3, 9.5))
INSTRUCTION = re.compile(r"^\*(Type your guess|Work it out|Your answer)[^\n]*\*\s*$", re.M)


def lesson_notebooks() -> list[Path]:
    return [REPO / "notebooks" / g / f"{lesson}.ipynb" for g in GAMES for lesson in LESSONS]


def tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def source(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


# ---- markdown for paper ---------------------------------------------------------------

_LATEX = [
    (re.compile(r"\\binom\{([^{}]*)\}\{([^{}]*)\}"), r"C(\1, \2)"),
    (re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}"), r"(\1)/(\2)"),
    (re.compile(r"\\text\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\\(cdot|times)"), "·"), (re.compile(r"\\approx"), "≈"),
    (re.compile(r"\\le(q)?\b"), "≤"), (re.compile(r"\\ge(q)?\b"), "≥"),
    (re.compile(r"\\pm"), "±"), (re.compile(r"\\sum"), "Σ"), (re.compile(r"\\,"), " "),
    (re.compile(r"\\left|\\right"), ""), (re.compile(r"\^2"), "²"), (re.compile(r"\^3"), "³"),
]


def plain_math(text: str) -> str:
    """``$\\binom{13}{7}$`` -> ``C(13, 7)``: formulas as a student writes them by hand."""
    def one(m):
        s = m.group(1)
        for pattern, repl in _LATEX:
            s = pattern.sub(repl, s)
        return s.replace("{", "").replace("}", "").replace("\\", "")
    text = re.sub(r"\$\$(.+?)\$\$", one, text, flags=re.S)
    return re.sub(r"\$(.+?)\$", one, text)


def markdown_html(text: str) -> str:
    """Markdown to the HTML subset fpdf2 writes (headings, paragraphs, bold, italic,
    lists); code spans are kept as plain text, links as their text."""
    import mistune
    body = mistune.html(plain_math(text))
    body = re.sub(r"<a [^>]*>(.*?)</a>", r"\1", body, flags=re.S)
    body = re.sub(r"</?code>", "", body)
    body = body.replace("<strong>", "<b>").replace("</strong>", "</b>")
    body = body.replace("<em>", "<i>").replace("</em>", "</i>")
    return body


def title_part(text: str) -> str:
    """The title cell up to the paragraph that gives the time (what it teaches, how long)."""
    paragraphs = text.strip().split("\n\n")
    kept = []
    for p in paragraphs:
        kept.append(p)
        if re.search(r"\d+\s*minutes", p):
            break
    return "\n\n".join(kept)


def task_kind(text: str) -> str | None:
    for word, kind in (("**Predict", "predict"), ("**By hand", "by_hand"), ("**Explain", "explain")):
        if text.lstrip().startswith(word):
            return kind
    return None


def items(nb: dict) -> list[tuple[str, object]]:
    """What goes on paper, in order: ("title", html), ("text", html), ("task", (kind, html)),
    ("picture", png bytes), ("printed", the text a cell printed)."""
    out = []
    for i, cell in enumerate(nb["cells"]):
        t = tags(cell)
        if "teacher-only" in t or "handout" not in t:
            continue
        text = source(cell)
        if cell["cell_type"] == "markdown":
            if i == 0:
                out.append(("title", markdown_html(title_part(text))))
                continue
            kind = task_kind(text)
            text = INSTRUCTION.sub("", text).strip()
            if kind:
                out.append(("task", (kind, markdown_html(text))))
            else:
                out.append(("text", markdown_html(text)))
        elif cell["cell_type"] == "code":
            # the cell's picture; a cell without one gives its printed text (a table, a matrix)
            pictures = [o["data"]["image/png"] for o in cell.get("outputs", [])
                        if "image/png" in o.get("data", {})]
            if pictures:
                png = pictures[0]
                out.append(("picture", base64.b64decode("".join(png) if isinstance(png, list) else png)))
            else:
                printed = "".join("".join(o["text"]) if isinstance(o.get("text"), list) else o.get("text", "")
                                  for o in cell.get("outputs", []) if o.get("output_type") == "stream"
                                  and o.get("name") == "stdout")
                if printed.strip():
                    out.append(("printed", printed.rstrip("\n")))
    return out


# ---- the PDF --------------------------------------------------------------------------

def _font_files() -> dict[str, Path]:
    import matplotlib
    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    return {"": ttf / "DejaVuSans.ttf", "B": ttf / "DejaVuSans-Bold.ttf",
            "I": ttf / "DejaVuSans-Oblique.ttf", "BI": ttf / "DejaVuSans-BoldOblique.ttf",
            "mono": ttf / "DejaVuSansMono.ttf"}


ANSWER_LABEL = {"predict": ("My prediction (before running the cell):", "What the notebook shows:"),
                "by_hand": ("My working:", "My answer:"),
                "explain": ("My answer:",)}


def render(content, lesson_title: str, layout) -> "fpdf.FPDF":
    from fpdf import FPDF
    picture_mm, lines, size = layout

    class Handout(FPDF):
        def footer(self):
            self.set_y(-12)
            self.set_font("DejaVu", "I", 8)
            self.set_text_color(90, 90, 90)
            self.cell(0, 5, f"kingdoms · {lesson_title} · page {self.page_no()}", align="C")

    pdf = Handout(format="A4")
    pdf.set_title(lesson_title)
    pdf.set_author("kingdoms")
    pdf.set_margins(18, 15, 18)
    pdf.set_auto_page_break(True, margin=16)
    for style, path in _font_files().items():
        if style == "mono":
            pdf.add_font("DejaVuMono", "", str(path))
        else:
            pdf.add_font("DejaVu", style, str(path))
    pdf.add_page()
    pdf.set_font("DejaVu", "", 9)
    pdf.cell(0, 6, "Name: ______________________   Class: __________   Date: __________",
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    width = pdf.w - pdf.l_margin - pdf.r_margin

    from fpdf.fonts import TextStyle
    heading = {"h1": TextStyle(font_family="DejaVu", font_style="B", font_size_pt=size + 5,
                               color=(0, 0, 0), t_margin=2, b_margin=2),
               "h2": TextStyle(font_family="DejaVu", font_style="B", font_size_pt=size + 2,
                               color=(0, 0, 0), t_margin=2, b_margin=1)}

    def write(body: str) -> None:
        pdf.set_font("DejaVu", "", size)
        pdf.write_html(body, font_family="DejaVu", tag_styles=heading)

    for kind, value in content:
        if kind in ("title", "text"):
            write(value)
        elif kind == "task":
            task, body = value
            # a question stays on the page of its answer room
            rows = sum(lines if label == "My working:" or task == "explain" else 1
                       for label in ANSWER_LABEL[task])
            needed = 8 * rows + 6 * len(ANSWER_LABEL[task]) + 0.6 * size * (len(body) / 90 + 1)
            if pdf.get_y() + needed > pdf.h - pdf.b_margin:
                pdf.add_page()
            write(body)
            for label in ANSWER_LABEL[task]:
                pdf.set_font("DejaVu", "I", size - 1)
                pdf.cell(0, 6, label, new_x="LMARGIN", new_y="NEXT")
                n = lines if label == "My working:" or task == "explain" else 1
                for _ in range(n):
                    y = pdf.get_y() + 7
                    if y > pdf.h - pdf.b_margin:
                        pdf.add_page()
                        y = pdf.get_y() + 7
                    pdf.set_draw_color(170, 170, 170)
                    pdf.line(pdf.l_margin, y, pdf.l_margin + width, y)
                    pdf.set_y(y + 1)
            pdf.ln(3)
        elif kind == "printed":
            pdf.set_font("DejaVuMono", "", size - 3)
            pdf.multi_cell(0, (size - 3) * 0.45, value, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        elif kind == "picture":
            from PIL import Image
            img = Image.open(io.BytesIO(value))
            w_px, h_px = img.size
            h = min(picture_mm, width * h_px / w_px)
            w = h * w_px / h_px
            if pdf.get_y() + h > pdf.h - pdf.b_margin:
                pdf.add_page()
            pdf.image(io.BytesIO(value), x=pdf.l_margin + (width - w) / 2, w=w, h=h)
            pdf.ln(3)
    return pdf


def build(notebook: Path, dest: Path) -> Path:
    """Write ``dest/<game>-<lesson>.pdf`` for one lesson notebook and return its path."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    content = items(nb)
    if not any(kind == "task" for kind, _ in content):
        raise SystemExit(f"{notebook}: no cell tagged both 'student-task' and 'handout'; "
                         "a handout needs the lesson's tasks")
    first = source(nb["cells"][0]).splitlines()[0].lstrip("# ").strip()
    out = dest / f"{notebook.parent.name}-{notebook.stem}.pdf"
    for layout in LAYOUTS:
        pdf = render(content, first, layout)
        if pdf.pages_count <= MAX_PAGES:
            dest.mkdir(parents=True, exist_ok=True)
            pdf.output(str(out))
            return out
    raise SystemExit(f"{notebook}: the handout does not fit on {MAX_PAGES} pages even with the "
                     "smallest layout; tag fewer cells 'handout'")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dest", default=str(REPO / "build" / "handouts"),
                    help="folder for the PDFs (default: build/handouts)")
    ap.add_argument("notebooks", nargs="*", help="lesson notebooks (default: all 15)")
    args = ap.parse_args(argv)
    dest = Path(args.dest)
    paths = [Path(p) for p in args.notebooks] or lesson_notebooks()
    for path in paths:
        if not path.is_file():
            print(f"no such notebook: {path}", file=sys.stderr)
            return 2
        out = build(path, dest)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
