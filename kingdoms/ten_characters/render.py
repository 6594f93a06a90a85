"""Text and HTML pictures of a Ten Characters position (views show '?' for hidden cards)."""
from __future__ import annotations

import html as _html

from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL
from kingdoms.core.text import plural

from .rules import (Choosing, Dealing, FortuneTellerPicks, FortuneTellerSees, JesterJoins,
                    KnightMayRemove, MageMayRemove, UnicornDiscards, UnicornDraws)
from .scoring import CHARACTERS, COLUMNS, LABELS

ABBR = {"fortune_teller": "FT", "dragon": "Dr", "mage": "Ma", "noble": "No", "farmer": "Fa",
        "knight": "Kn", "unicorn": "Un", "queen": "Qu", "king": "Ki", "jester": "Je"}


def _lab(c) -> str:
    return "?" if c is HIDDEN else LABELS[c]


def _cards(cards) -> str:
    return ", ".join(_lab(c) for c in cards) if cards else "-"


def _counts(counts) -> str:
    if counts is HIDDEN or any(k is HIDDEN for k in counts):
        return "hidden"
    parts = [f"{LABELS[c]} {k}" for c, k in zip(CHARACTERS, counts) if k]
    return ", ".join(parts) if parts else "empty"


def pending_text(s) -> str:
    """What the position is waiting for, in words."""
    cp = s.current_player()
    if cp == TERMINAL:
        return s.describe()
    name = s.game.player_name
    match s.step:
        case Dealing():
            return f"Dealing pass {s.pass_no}: {name(s._deal_to())} gets a card"
        case Choosing():
            return f"{name(cp)} chooses a card face down"
        case KnightMayRemove(p):
            return f"{name(p)}'s Knight may remove a Dragon"
        case MageMayRemove(p):
            return f"{name(p)}'s Mage may remove any card"
        case JesterJoins(p):
            return f"{name(p)} puts the Jester into an occupied column"
        case FortuneTellerPicks(p):
            return f"{name(p)}'s Fortune Teller picks whose hand to look into"
        case FortuneTellerSees(p, t):
            return f"{name(p)} looks at a random card of {name(t)}"
        case UnicornDraws(drawers):
            return f"{name(drawers[0])} draws a card (Unicorn)"
        case UnicornDiscards():
            return f"{name(cp)} discards a card face down (Unicorn)"
    return str(s.step)  # pragma: no cover


# the effect a player is busy with, in one word (``short``)
_BUSY = {KnightMayRemove: "knight", MageMayRemove: "mage", JesterJoins: "jester",
         FortuneTellerPicks: "peek", UnicornDiscards: "unicorn"}


def text(s) -> str:
    g = s.game
    lines = [f"Ten Characters — pass {s.pass_no} of {g.passes}, turn {s.turn} of "
             f"{g.turns_per_pass} · {pending_text(s)}"]
    cols = []
    for i, c in enumerate(COLUMNS):
        k, j = s.columns[i], s.jesters[i]
        if k or j:
            cols.append(f"{LABELS[c]} {k + j}" + (f" (incl. {j} Jester)" if j else ""))
    lines.append("Display: " + (" | ".join(cols) if cols else "empty"))
    lines.append(f"Draw pile: {plural(s.pile_size, 'card')} · discard pile: {_counts(s.discard)} · "
                 f"box: {plural(sum(s.boxed), 'card')}")
    for p in range(g.players):
        row = f"{g.player_name(p)}: {plural(s.points[p], 'point')} · hand ({len(s.hands[p])}): {_cards(s.hands[p])}"
        c = s.chosen[p]
        if c is not None:
            row += f" · chosen: {'face down' if c is HIDDEN else _lab(c)}"
        d = s.discarding[p]
        if d is not None:
            row += f" · discarding: {'face down' if d is HIDDEN else _lab(d)}"
        seen = [f"{g.player_name(t)} holds {_cards(k)}" for t, k in enumerate(s.known[p]) if k]
        if seen:
            row += " · knows: " + "; ".join(seen)
        lines.append(row)
    if any(c is not None for c in s.revealed):
        lines.append("Revealed: " + ", ".join(f"{g.player_name(p)} {_lab(c)}"
                                              for p, c in enumerate(s.revealed) if c is not None))
    if s.queue:
        lines.append("Still to place: " + ", ".join(f"{g.player_name(p)}'s {_lab(c)}"
                                                   for p, c in s.queue))
    for pass_no, cards, pts in s.scoring_log:
        lines.append(f"Pass {pass_no} scoring: " + "; ".join(
            f"{g.player_name(p)} {_cards(cs)} = {pts[p]}" for p, cs in enumerate(cards)))
    return "\n".join(lines)


def short(s) -> str:
    cp = s.current_player()
    disp = "".join(f"{ABBR[c]}{s.columns[i] + s.jesters[i]}" for i, c in enumerate(COLUMNS)
                   if s.columns[i] + s.jesters[i])
    if cp == TERMINAL:
        who = "end " + "-".join(str(x) for x in s.points)
    elif cp == CHANCE:
        who = "chance"
    elif isinstance(s.step, Choosing):
        who = f"{s.game.player_name(cp)} chooses"
    else:
        who = f"{s.game.player_name(cp)} {_BUSY[type(s.step)]}"
    return f"{s.pass_no}.{s.turn} {who} {disp}"[:40]


def html(s) -> str:
    g = s.game
    e = _html.escape
    head = "".join(f"<th>{e(LABELS[c])}</th>" for c in COLUMNS)
    cells = []
    for i, c in enumerate(COLUMNS):
        k, j = s.columns[i], s.jesters[i]
        cell = str(k + j) + (f"<br><small>{j} Jester</small>" if j else "")
        cells.append(f"<td style='text-align:center'>{cell}</td>")
    rows = []
    for p in range(g.players):
        c = s.chosen[p]
        chosen = "" if c is None else ("face down" if c is HIDDEN else _lab(c))
        seen = "; ".join(f"{g.player_name(t)}: {_cards(k)}" for t, k in enumerate(s.known[p]) if k)
        rows.append(f"<tr><td>{e(g.player_name(p))}</td><td>{s.points[p]}</td>"
                    f"<td>{e(_cards(s.hands[p]))}</td><td>{e(chosen)}</td><td>{e(seen)}</td></tr>")
    revealed = ", ".join(f"{g.player_name(p)} {_lab(c)}" for p, c in enumerate(s.revealed)
                         if c is not None)
    return (f"<div><b>Ten Characters</b> — pass {s.pass_no}/{g.passes}, turn {s.turn}/"
            f"{g.turns_per_pass}: {e(pending_text(s))}"
            f"<table><caption style='text-align:left'>The display: cards in each column"
            f"</caption><tr><th></th>{head}</tr><tr><th style='text-align:left'>cards</th>"
            f"{''.join(cells)}</tr></table>"
            f"<p>Draw pile {s.pile_size} · discards: {e(_counts(s.discard))} · box {sum(s.boxed)}"
            + (f" · revealed: {e(revealed)}" if revealed else "") + "</p>"
            "<table><tr><th>player</th><th>points</th><th>hand</th><th>chosen</th>"
            f"<th>knows</th></tr>{''.join(rows)}</table></div>")
