"""Text and HTML pictures of a King of the Woods position.

Covered followers stay visible (with the Assassin on top), so a student can see
what an Assassin-on-Assassin would bring back.  Hidden cards print as ``?``.
"""
from __future__ import annotations

import html as _html

from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL

from .rules import (FOOL_RUIN, AssassinAiming, Dealing, KnightLooking, Playing, PriestAdding,
                    PriestTakingBack, ScholarChoosing, TraderGiving, TraderReturning, ruined)

ABBREV = {"Assassin": "As", "Trader": "Tr", "Guard": "Gu", "Squire": "Sq", "Scholar": "Sc",
          "Priest": "Pr", "Fool": "Fo", "Treasurer": "Te", "Knight": "Kn", "General": "Ge",
          "Princess": "Pn"}

# the sub-decision under way, marked in ``short()``
STEP_MARKS = {AssassinAiming: " As", TraderGiving: " Tr", TraderReturning: " Tr<",
              KnightLooking: " Kn", ScholarChoosing: " Sc", PriestAdding: " Pr",
              PriestTakingBack: " Pr<"}

COLOURS = {"Assassin": "#4d4d4d", "Trader": "#b07d3a", "Guard": "#7a6a58", "Squire": "#9c8560",
           "Scholar": "#8a6d9e", "Priest": "#2f2f4f", "Fool": "#d9822b", "Treasurer": "#5b8c3a",
           "Knight": "#6b4423", "General": "#7f7f7f", "Princess": "#c0392b"}


def _name(state, p) -> str:
    return state.game.player_name(p)


def _card(c) -> str:
    return "?" if c is HIDDEN else str(c)


def _pile(pile) -> str:
    if len(pile) == 1:
        return pile[0]
    return f"[{pile[0]} under Assassin]"


def pending_text(state) -> str:
    """What the game waits for (the rules' words: ``state._pending_text()``)."""
    return state._pending_text()


def describe(state) -> str:
    """One line: what happens next, or the winners (``state.describe()``)."""
    return state.describe()


def _out(state) -> str:
    return "out of the round" if state.game.assassins_return else "out of the game"


def _goal(state) -> str:
    g = state.game
    if g.mode == "points":
        return f"points mode, first to {g.goal}"
    return f"round-win mode, first to {g.goal} round wins"


def text(state) -> str:
    g = state.game
    lines = [f"King of the Woods — round {state.round} ({_goal(state)}"
             + (", one round only" if g.one_round else "") + ")"]
    lines.append("Totals: " + ", ".join(f"{_name(state, p)} {t}" for p, t in enumerate(state.totals)))
    if state.last_round is not None:
        rnd, scores, tied, winner = state.last_round
        lines.append(f"Round {rnd} scored "
                     + ", ".join(f"{_name(state, p)} {s}" for p, s in enumerate(scores))
                     + f"; won by {', '.join(_name(state, p) for p in tied)}")
    for p in range(g.players):
        mark = ">" if (type(state.step) is Playing and not state.over and p == state.turn) else " "
        hand = state.hands[p]
        hand_text = ", ".join(_card(c) for c in hand) or "-"
        court = state.courts[p]
        court_text = ", ".join(_pile(x) for x in court) or "-"
        warn = (f"  (exactly {FOOL_RUIN} Fools: scores 0!)"
                if ruined(court) else "")
        score = state.court_scores()[p]
        lines.append(f"{mark} {_name(state, p)}: hand ({len(hand)}) {hand_text}")
        lines.append(f"    court: {court_text}  = {score}{warn}")
    lines.append(f"Set aside face down: {len(state.set_aside)}"
                 + (f"; Assassins {_out(state)}: {len(state.removed)}" if state.removed else ""))
    lines.append(describe(state))
    return "\n".join(lines)


def _chip(card, covered=False, hidden=False, influence=None) -> str:
    if hidden:
        return ('<span style="display:inline-block;margin:1px;padding:2px 6px;border-radius:4px;'
                'background:#ddd;color:#666;border:1px solid #aaa">?</span>')
    colour = COLOURS.get(card, "#888")
    style = (f"display:inline-block;margin:1px;padding:2px 6px;border-radius:4px;"
             f"background:{colour};color:white;border:1px solid #333")
    if covered:
        style += ";opacity:0.45;text-decoration:line-through"
    value = "" if influence is None else f' <small>{influence}</small>'
    return f'<span style="{style}">{_html.escape(card)}{value}</span>'


def html(state) -> str:
    g = state.game
    infl = g.influence
    rows = []
    scores = state.court_scores()
    for p in range(g.players):
        here = type(state.step) is Playing and not state.over and p == state.turn
        name = _html.escape(_name(state, p)) + (" ▶" if here else "")
        hand = "".join(_chip(c, hidden=c is HIDDEN, influence=None if c is HIDDEN else infl[c])
                       for c in state.hands[p]) or "—"
        piles = []
        for pile in state.courts[p]:
            if len(pile) == 1:
                piles.append(_chip(pile[0], influence=infl[pile[0]]))
            else:
                piles.append('<span style="white-space:nowrap">'
                             + _chip(pile[0], covered=True, influence=infl[pile[0]])
                             + "<sup>" + _chip("Assassin") + "</sup></span>")
        note = (f' <b style="color:#c0392b">{FOOL_RUIN} Fools → 0</b>'
                if ruined(state.courts[p]) else "")
        rows.append(f"<tr><td><b>{name}</b><br>total {state.totals[p]}</td>"
                    f"<td>{hand}</td><td>{''.join(piles) or '—'}</td>"
                    f"<td style='text-align:center'>{scores[p]}{note}</td></tr>")
    head = (f"<div><b>King of the Woods</b> — round {state.round} ({_html.escape(_goal(state))})"
            f"<br>{_html.escape(describe(state))}</div>")
    table = ("<table style='border-collapse:collapse'><tr><th>player</th><th>hand</th>"
             "<th>court (covered cards faded, Assassin on top)</th><th>court score</th></tr>"
             + "".join(rows) + "</table>")
    foot = f"<div>set aside face down: {len(state.set_aside)}"
    if state.removed:
        foot += f"; Assassins {_out(state)}: {len(state.removed)}"
    foot += "</div>"
    return head + table + foot


def short(state) -> str:
    cp = state.current_player()
    scores = ":".join(str(s) for s in state.court_scores())
    if cp == TERMINAL:
        return f"end {scores}"
    total = sum(len(h) for h in state.hands)
    if total <= 6:
        hands = "|".join("".join(ABBREV.get(c, "?") for c in h) for h in state.hands)
    else:
        hands = "/".join(str(len(h)) for h in state.hands)
    if cp == CHANCE:
        who = "deal" if isinstance(state.step, Dealing) else "draw"
    else:
        who = f"P{cp + 1}"
        if type(state.step) is not Playing:
            who += STEP_MARKS.get(type(state.step), "")
    out = f"{who} {hands} {scores}"
    return out if len(out) <= 30 else out[:29] + "…"
