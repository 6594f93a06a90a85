"""Text and HTML pictures of an Into the Black Forest position.

Hidden things (other players' hands, face-down Right cards in a player's view) are
shown as ``?``; nothing hidden ever reaches the text of a view.
"""
from __future__ import annotations

from html import escape

from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL
from kingdoms.core.text import plural

from .rules import CAPACITY, Discarding, GameOver, Playing, Revealing


def _card(c, long: bool = True) -> str:
    if c is HIDDEN:
        return "?"
    return f"{c} {c.suit}" if long else str(c)


def _pairs(state, pairs, size: int, face_down: bool = False) -> str:
    names = state.game.player_name
    cells = []
    for p, c in pairs:
        text = _card(c)
        if face_down and c is not HIDDEN:
            text += " (face down)"
        cells.append(f"{text} [{names(p)}]")
    cells += ["—"] * (size - len(pairs))
    return " | ".join(cells) if cells else "—"


def _cards(cards) -> str:
    if not cards:
        return "—"
    if all(c is HIDDEN for c in cards):
        return f"{len(cards)} hidden"
    return ", ".join(_card(c) for c in cards)


def headline(state) -> str:
    g = state.game
    head = (f"Into the Black Forest — {g.players} players, round {min(state.round, g.n_rounds)} "
            f"of {g.n_rounds}")
    enc = state.encounter
    if isinstance(state.step, GameOver):
        return head + " — game over"
    if enc is not None and isinstance(state.step, Playing):
        head += f", encounter {state.played + 1} of {g.n_encounters}: {enc}"
    return head


def text(state) -> str:
    """The position as text (``str(state)``)."""
    g = state.game
    names = g.player_name
    lines = [headline(state)]
    enc = state.encounter
    if enc is not None:
        cond = g.conditions[enc]
        lines.append(f"  Right-side condition: {cond} ({g.right_points} points)")
        if len(state.upcoming) > 1:
            lines.append("  Then: " + ", ".join(g.encounter_label(e) for e in state.upcoming[1:]))
    if isinstance(state.step, Playing):
        lines.append(f"  Top:    {_pairs(state, state.top, CAPACITY['top'])}")
        lines.append(f"  Left:   {_pairs(state, state.left, CAPACITY['left'])}")
        lines.append(f"  Bottom: {_pairs(state, state.bottom, CAPACITY['bottom'])}")
        lines.append(f"  Right:  {_pairs(state, state.right, 0, face_down=True)}")
    pts = " · ".join(f"{names(p)} {v}{' (token)' if p == state.token else ''}"
                     for p, v in enumerate(state.points))
    lines.append(f"Points: {pts}")
    lines.append("Hands:")
    for p, h in enumerate(state.hands):
        extra = []
        if state.decks[p]:
            extra.append(f"deck {len(state.decks[p])}")
        if state.won[p]:
            extra.append("won " + ", ".join(_card(c, False) for c in state.won[p]))
        if state.discarded[p]:
            extra.append(f"discarded {_cards(state.discarded[p])}")
        more = f"   [{'; '.join(extra)}]" if extra else ""
        lines.append(f"  {names(p)} ({len(h)}): {_cards(h)}{more}")
    if state.report:
        lines.append("Last: " + " ".join(state.report))
    cp = state.current_player()
    if cp == CHANCE:
        if isinstance(state.step, Revealing):
            lines.append(f"Chance: the next encounter is revealed ({len(state.encounter_deck)} "
                         "equally likely).")
        else:
            p = state.dealing()
            lines.append(f"Chance: {names(p)} draws a card ({len(state.decks[p])} equally likely).")
    elif cp == TERMINAL:
        lines.append(state.describe())
    elif isinstance(state.step, Discarding):
        lines.append(f"{names(cp)} discards down to {g.hand_size} cards.")
    else:
        lines.append(f"{names(cp)} to play.")
    return "\n".join(lines)


def html(state) -> str:
    """The position as an HTML table (``state._repr_html_()``)."""
    g = state.game
    names = g.player_name
    e = escape
    rows = [f"<tr><th colspan='2' style='text-align:left'>{e(headline(state))}</th></tr>"]
    enc = state.encounter
    if enc is not None:
        rows.append(f"<tr><td>Right condition</td><td><b>{e(str(g.conditions[enc]))}</b> "
                    f"({g.right_points} points)</td></tr>")
        if len(state.upcoming) > 1:
            rows.append("<tr><td>Then</td><td>" + e(", ".join(
                g.encounter_label(x) for x in state.upcoming[1:])) + "</td></tr>")
    if isinstance(state.step, Playing):
        for label, pairs, size, fd in (("Top", state.top, CAPACITY["top"], False),
                                       ("Left", state.left, CAPACITY["left"], False),
                                       ("Bottom", state.bottom, CAPACITY["bottom"], False),
                                       ("Right", state.right, 0, True)):
            rows.append(f"<tr><td>{label}</td><td>{e(_pairs(state, pairs, size, fd))}</td></tr>")
    for p in range(g.players):
        token = " &#9733; token" if p == state.token else ""
        rows.append(f"<tr><td>{e(names(p))}: {plural(state.points[p], 'point')}{token}</td>"
                    f"<td>hand ({len(state.hands[p])}): {e(_cards(state.hands[p]))}"
                    + (f"<br>won: {e(_cards(state.won[p]))}" if state.won[p] else "")
                    + "</td></tr>")
    if state.report:
        rows.append("<tr><td>Last</td><td>" + "<br>".join(e(x) for x in state.report)
                    + "</td></tr>")
    rows.append(f"<tr><td colspan='2'><i>{e(text(state).splitlines()[-1])}</i></td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def short(state) -> str:
    """One line for tree nodes (at most ~30 characters)."""
    cp = state.current_player()
    if cp == TERMINAL:
        return "end " + ":".join(str(v) for v in state.points)
    if cp == CHANCE:
        return ("reveal" if isinstance(state.step, Revealing)
                else f"deal {state.game.player_name(state.dealing())}")
    name = state.game.player_name(cp)
    if isinstance(state.step, Discarding):
        return f"{name} discards"

    def vals(pairs):
        return ",".join("?" if c is HIDDEN else str(c.value) for _, c in pairs) or "-"
    return (f"B{vals(state.bottom)} L{vals(state.left)} T{vals(state.top)} "
            f"R{len(state.right)} {name}")
