"""Text and HTML pictures of a My Kingdom for a Horse position."""
from __future__ import annotations

import html as _html

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import _
from kingdoms.core.protocol import CHANCE, HIDDEN

from . import pasture
from .components import SPECIES, herd_text
from .pasture import COLS, ROWS, H, V
from .steps import Effects, GameOver, Keeping, OthersChoose
from .words import count_words, face_words, name, species_word

LETTER = {0: "s", 1: "p", 2: "c", 3: "h"}
EMOJI = {0: "🐑", 1: "🐖", 2: "🐄", 3: "🐎"}
# Every emoji shown goes with its word (a machine without an emoji font shows boxes).
EMOJI_WORDS = {"🐑": "sheep", "🐖": "pig", "🐄": "cattle", "🐎": "horse",
               "⚡": "lightning", "∞": "infinity"}
SPECIES_WORD = dict(enumerate(SPECIES))



def pasture_text(farm, per_field: int = 2) -> list:
    """ASCII drawing: '+---+' fences, fields show e.g. 's2' (2 sheep)."""
    return list(_pasture_lines(farm.fences, farm.herd, per_field))


@speed_cache(maxsize=1 << 14)
def _pasture_lines(fences, herd, per_field) -> tuple:
    place = (pasture.placement(fences, herd, per_field)
             if pasture.fits(fences, herd, per_field) else {})
    lines = []
    for r in range(ROWS + 1):
        row = "+"
        for c in range(COLS):
            row += ("---" if fences >> H(r, c) & 1 else "   ") + "+"
        lines.append(row)
        if r == ROWS:
            break
        row = ""
        for c in range(COLS + 1):
            row += "|" if fences >> V(r, c) & 1 else " "
            if c < COLS:
                f = r * COLS + c
                row += f"{LETTER[place[f][0]]}{place[f][1]} " if f in place else "   "
        lines.append(row)
    return tuple(lines)


def _areas_text(fences, per_field) -> str:
    caps = pasture.capacities(fences, per_field)
    if not caps:
        return _("no fenced area")
    return _("fenced areas hold {sizes} animals").format(sizes=", ".join(map(str, caps)))


def _hand(farm, game=None) -> str:
    if not farm.hand:
        return "-"
    if farm.hand[0] is HIDDEN:
        return _("{n} hidden cards").format(n=len(farm.hand))
    return ", ".join(name(c, game) for c in farm.hand)


def _faces(faces, game=None) -> str:
    return ", ".join(face_words(f, game) for f in faces)


def _herd(herd, game=None) -> str:
    return herd_text(herd, game)


def short(state) -> str:
    if isinstance(state.step, GameOver):
        if state.unfinished():
            return _("over: cut by the round limit")
        w = state.winners()
        return _("over: {winners}").format(
            winners=",".join(_who(state, x) for x in w) or _("no winner"))
    who = _("chance") if state.current_player() == CHANCE else state._who()
    dice = ""
    if state.dice and isinstance(state.step, (Keeping, Effects, OthersChoose)):
        dice = " " + "".join(_abbr(f) for f in state.dice[0]) + "|" + \
            species_word(state.dice[1], 1, state.game)[:2]
    return f"{who[:8]} {_(state.step.name)}{dice}"[:34]


def _abbr(face: str) -> str:
    return {"1 sheep": "s", "2 sheep": "S", "1 pig": "p", "half cattle": "½",
            "1 fence": "f", "2 fences": "F"}.get(face, face[:2])


def _who(state, x) -> str:
    return "Moritz" if x == -1 else state.game.player_name(x)


def _dice_line(state) -> str:
    g = state.game
    return _("Dice: {faces}; the pink die shows {mult}").format(
        faces=_faces(state.dice[0], g), mult=species_word(state.dice[1], 1, g))


def text(state) -> str:
    g = state.game
    head = _("{title} — round {round}, {player}'s turn, {step}").format(
        title=name(g.title, g), round=state.round, player=g.player_name(state.active),
        step=_(state.step.words))
    lines = [head]
    if state.dice:
        lines.append(_dice_line(state)
                     + (_("  (re-rolls left {n})").format(n=state.rerolls_left)
                        if isinstance(state.step, Keeping) else ""))
    if isinstance(state.step, Effects) and state.unused:
        lines.append(_("Not yet carried out: {dice}").format(dice=_faces(state.unused, g)))
    if isinstance(state.step, OthersChoose):
        lines.append(_("Dice left for the others: {dice}").format(
            dice=_faces(state.available_dice(), g)))
    if state.fence_job:
        job = state.fence_job
        p, k, placed, moved, lifted = job.player, job.received, job.placed, job.moved, job.lifted
        lines.append(_("{player} builds fences: received {received}, placed {placed}, "
                       "moved {moved}").format(player=g.player_name(p), received=k,
                                               placed=placed, moved=moved)
                     + (_(", holding the fence from {where}").format(
                         where=pasture.edge_words(lifted)) if lifted >= 0 else ""))
    lines.append(_("Supply: {animals}; farm deck {n} cards").format(
        animals=_herd(state.supply, g), n=state.deck_count))
    if state.moritz is not None:
        lines.append(_("Moritz: {animals}").format(animals=_herd(state.moritz, g)))
    blocks = []
    for i, f in enumerate(state.farms):
        pic = pasture_text(f, g.comp.per_field)
        placed = pasture.popcount(f.fences)
        info = [f"{g.player_name(i)}: {_herd(f.herd, g)}",
                _("fences placed {placed}, supply {left}").format(
                    placed=placed, left=g.comp.fences_per_player - placed),
                _areas_text(f.fences, g.comp.per_field),
                _("hand: {cards}").format(cards=_hand(f, g))]
        if f.tableau:
            info.append(_("in play: {cards}").format(
                cards=", ".join(name(c, g) for c in f.tableau)))
        if not f.fits(g.comp.per_field):
            info.append(_("(does not fit: unfenced animals run away at the end of the phase)"))
        blocks.append([a.ljust(18) + "  " + (info[j] if j < len(info) else "")
                       for j, a in enumerate(pic)])
    for b in blocks:
        lines.extend(b)
    over = isinstance(state.step, GameOver)
    if state.end_triggered and not over:
        lines.append(_("The end is triggered: this turn is the last."))
    if not over:
        lines.append(state.describe())
    elif state.unfinished():
        lines.append(_("Game over. {why}").format(why=state.unfinished()))
    else:
        lines.append(_("Game over. Winner: {winners}").format(
            winners=", ".join(_who(state, x) for x in state.winners())
            or _("nobody holds the set")))
    return "\n".join(lines)


def _edge_xy(e: int, size: float) -> tuple:
    """The end points of border ``e`` (without the padding)."""
    if e < pasture.N_H:
        r, c = divmod(e, COLS)
        return c * size, r * size, (c + 1) * size, r * size
    r, c = divmod(e - pasture.N_H, COLS + 1)
    return c * size, r * size, c * size, (r + 1) * size


# Okabe-Ito colours (safe for colour-blind readers); the kind of a mark is also
# told by its shape (dashed line / square) and by the words of the legend.
SLOT_COLOUR = "#0072B2"      # blue: a free border a fence can go to
LIFT_COLOUR = "#D55E00"      # vermillion: a placed fence that can be lifted


def pasture_svg(farm, size: int = 44, per_field: int = 2, marks=None, title=None) -> str:
    """The pasture as SVG.  ``marks``: ``{border: (label, kind)}`` with kind
    ``"slot"`` (a free border, drawn dashed, label in a circle) or ``"lift"`` (a
    placed fence, label in a square) — the fence moves of ``action_picture``.
    ``title``: the picture's text alternative."""
    pad = 6 if not marks else 14
    w, h = COLS * size + 2 * pad, ROWS * size + 2 * pad
    alt = _html.escape(title or _("pasture: {animals}").format(animals=herd_text(farm.herd)),
                       quote=True)
    out = [f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg" role="img" '
           f'aria-label="{alt}"><title>{alt}</title>',
           f'<rect x="{pad}" y="{pad}" width="{COLS*size}" height="{ROWS*size}" fill="#cfe8b0"/>']
    for r in range(ROWS):
        for c in range(COLS):
            x, y = pad + c * size, pad + r * size
            out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="none" '
                       'stroke="#9bb" stroke-dasharray="3,3"/>')
    place = (pasture.placement(farm.fences, farm.herd, per_field)
             if farm.fits(per_field) else {})
    for f, (s, k) in place.items():
        r, c = divmod(f, COLS)
        x = pad + c * size + size / 2
        out.append(f'<text x="{x}" y="{pad + r*size + size*0.45}" '
                   f'font-size="{size*0.3:.1f}" text-anchor="middle">{EMOJI[s]*k}</text>'
                   f'<text x="{x}" y="{pad + r*size + size*0.85}" font-size="{size*0.22:.1f}" '
                   f'text-anchor="middle">{_html.escape(count_words(k, SPECIES_WORD[s]))}</text>')
    marks = marks or {}
    for e, (_label, kind) in marks.items():
        if kind == "slot":
            x1, y1, x2, y2 = _edge_xy(e, size)
            out.append(f'<line x1="{x1+pad}" y1="{y1+pad}" x2="{x2+pad}" y2="{y2+pad}" '
                       f'stroke="{SLOT_COLOUR}" stroke-width="3" stroke-dasharray="6,4"/>')
    for e in range(pasture.EDGES):
        if not farm.fences >> e & 1:
            continue
        x1, y1, x2, y2 = _edge_xy(e, size)
        out.append(f'<line x1="{x1+pad}" y1="{y1+pad}" x2="{x2+pad}" y2="{y2+pad}" '
                   'stroke="#7a4b1e" stroke-width="5" stroke-linecap="round"/>')
    rad = max(8.0, size * 0.2)
    for e, (label, kind) in marks.items():
        x1, y1, x2, y2 = _edge_xy(e, size)
        cx, cy = pad + (x1 + x2) / 2, pad + (y1 + y2) / 2
        colour = LIFT_COLOUR if kind == "lift" else SLOT_COLOUR
        if kind == "lift":
            shape = (f'<rect x="{cx-rad:.1f}" y="{cy-rad:.1f}" width="{2*rad:.1f}" '
                     f'height="{2*rad:.1f}" rx="2" fill="white" stroke="{colour}" '
                     'stroke-width="2.5"/>')
        else:
            shape = (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rad:.1f}" fill="white" '
                     f'stroke="{colour}" stroke-width="2.5"/>')
        out.append(f'<g class="kingdoms-mark" data-label="{_html.escape(label, quote=True)}">'
                   f'<title>{_html.escape(label)}: {_html.escape(kind_words(kind, e))}</title>'
                   + shape +
                   f'<text x="{cx:.1f}" y="{cy + rad * 0.42:.1f}" font-size="{rad * 1.15:.1f}" '
                   f'font-weight="bold" text-anchor="middle" fill="black">'
                   f'{_html.escape(label)}</text></g>')
    out.append("</svg>")
    return "".join(out)


def kind_words(kind: str, e: int) -> str:
    if kind == "lift":
        return _("lift the fence {where}").format(where=pasture.edge_words(e))
    return _("a fence can go {where}").format(where=pasture.edge_words(e))


def action_picture(state, actions):
    """``HorseState.action_picture``: at a fence decision, the builder's pasture
    with every fence move of ``actions`` drawn on its border and labelled
    ``1, 2, …`` (the same labels go on the move buttons).  ``(html, labels)`` with
    one label per action (``""`` for an action not drawn, e.g. "done"), or None
    when no action is a fence move."""
    from .actions import LiftFence, PlaceFence, PutFence
    job = state.fence_job
    if job is None:
        return None
    kinds = {PlaceFence: "slot", PutFence: "slot", LiftFence: "lift"}
    labels, marks = [], {}
    for a in actions:
        kind = kinds.get(type(a))
        if kind is None or not isinstance(getattr(a, "edge", None), int) \
                or not 0 <= a.edge < pasture.EDGES or a.edge in marks:
            labels.append("")
            continue
        label = str(len(marks) + 1)
        marks[a.edge] = (label, kind)
        labels.append(label)
    if not marks:
        return None
    g = state.game
    player, farm = job.player, state.farms[job.player]
    who = g.player_name(player)
    slots = [lab for lab, k in marks.values() if k == "slot"]
    lifts = [lab for lab, k in marks.values() if k == "lift"]
    moving = any(type(a) is PutFence for a in actions)
    legend = []
    if slots:
        what = (_("where the lifted fence can be put") if moving
                else _("where a new fence can be placed"))
        legend.append(_("dashed blue border, number in a circle ({numbers}): {what}").format(
            numbers=_span(slots), what=what))
    if lifts:
        legend.append(_("fence with a number in a square ({numbers}): "
                        "a placed fence that can be lifted to move it").format(
            numbers=_span(lifts)))
    if moving and 0 <= job.lifted < pasture.EDGES:
        legend.append(_("the fence in hand was lifted {where}").format(
            where=pasture.edge_words(job.lifted)))
    title = _("{player}'s pasture with the fence moves numbered: {legend}").format(
        player=who, legend="; ".join(legend))
    svg = pasture_svg(farm, size=64, per_field=g.comp.per_field, marks=marks, title=title)
    items = "".join(f"<li>{_html.escape(t)}</li>" for t in legend)
    out = ("<div class='kingdoms-action-picture'><b>"
           + _html.escape(_("Where the fence moves go on {player}'s pasture").format(player=who))
           + "</b> " + _html.escape(_("(the numbers are on the buttons below)"))
           + f"<br>{svg}<ul style='margin:2px 0'>{items}</ul></div>")
    return out, tuple(labels)


def _span(labels) -> str:
    return labels[0] if len(labels) == 1 else f"{labels[0]}–{labels[-1]}"


def html(state) -> str:
    g = state.game
    esc = _html.escape
    cells = []
    for i, f in enumerate(state.farms):
        cells.append(f"<td style='vertical-align:top;padding:4px'><b>{esc(g.player_name(i))}</b>"
                     f"<br>{pasture_svg(f, per_field=g.comp.per_field)}<br>{esc(_herd(f.herd, g))}<br>"
                     "<small>" + esc(_("hand: {cards}").format(cards=_hand(f, g)))
                     + ("<br>" + esc(_("in play: {cards}").format(
                         cards=", ".join(name(c, g) for c in f.tableau))) if f.tableau else "")
                     + "</small></td>")
    top = esc(text(state).split("\n")[0])
    info = []
    if state.dice:
        info.append(esc(_dice_line(state)))
    info.append(esc(_("Supply: {animals}").format(animals=_herd(state.supply, g))))
    if state.moritz is not None:
        info.append(esc(_("Moritz: {animals}").format(animals=_herd(state.moritz, g))))
    info.append(esc(short(state) if isinstance(state.step, GameOver) else state.describe()))
    return (f"<div><b>{top}</b><br>{'<br>'.join(info)}"
            f"<table><tr>{''.join(cells)}</tr></table></div>")
