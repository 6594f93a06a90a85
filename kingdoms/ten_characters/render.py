"""Text and HTML pictures of a Ten Characters position (views show '?' for hidden cards)."""
from __future__ import annotations

import html as _html

from kingdoms.core.i18n import N_, _, language, ngettext
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL
from kingdoms.core.text import plural

from .rules import (character_name, Choosing, Dealing, FortuneTellerPicks, FortuneTellerSees, JesterJoins,
                    KnightMayRemove, MageMayRemove, UnicornDiscards, UnicornDraws)
from .scoring import CHARACTERS, COLUMNS, LABELS

ABBR = {"fortune_teller": "FT", "dragon": "Dr", "mage": "Ma", "noble": "No", "farmer": "Fa",
        "knight": "Kn", "unicorn": "Un", "queen": "Qu", "king": "Ki", "jester": "Je"}
# German: from the German names (Wahrsagerin, Drache, Magier, Adliger, Bäuerin, Ritterin,
# Einhorn, Königin, König, Hofnarr)
ABBR_DE = {"fortune_teller": "Wa", "dragon": "Dr", "mage": "Mg", "noble": "Ad", "farmer": "Bä",
           "knight": "Ri", "unicorn": "Ei", "queen": "Kn", "king": "Kg", "jester": "Hn"}


def _lab(c) -> str:
    return "?" if c is HIDDEN else character_name(c)


def _plural(n: int, word: str) -> str:
    """``plural`` in English; the catalog's plural in other languages."""
    if language() == "en":
        return plural(n, word)
    if word == "card":
        return ngettext("{n} card", "{n} cards", n).format(n=n)
    return ngettext("{n} point", "{n} points", n).format(n=n)


def _cards(cards) -> str:
    return ", ".join(_lab(c) for c in cards) if cards else "-"


def _counts(counts) -> str:
    if counts is HIDDEN or any(k is HIDDEN for k in counts):
        return _("hidden")
    parts = [f"{_lab(c)} {k}" for c, k in zip(CHARACTERS, counts) if k]
    return ", ".join(parts) if parts else _("empty")


def pending_text(s) -> str:
    """What the position is waiting for, in words."""
    cp = s.current_player()
    if cp == TERMINAL:
        return s.describe()
    name = s.game.player_name
    match s.step:
        case Dealing():
            return _("Dealing pass {number}: {player} gets a card").format(
                number=s.pass_no, player=name(s._deal_to()))
        case Choosing():
            return _("{player} chooses a card face down").format(player=name(cp))
        case KnightMayRemove(p):
            return _("{player}'s Knight may remove a Dragon").format(player=name(p))
        case MageMayRemove(p):
            return _("{player}'s Mage may remove any card").format(player=name(p))
        case JesterJoins(p):
            return _("{player} puts the Jester into an occupied column").format(player=name(p))
        case FortuneTellerPicks(p):
            return _("{player}'s Fortune Teller picks whose hand to look into").format(
                player=name(p))
        case FortuneTellerSees(p, t):
            return _("{player} looks at a random card of {target}").format(player=name(p),
                                                                          target=name(t))
        case UnicornDraws(drawers):
            return _("{player} draws a card (Unicorn)").format(player=name(drawers[0]))
        case UnicornDiscards():
            return _("{player} discards a card face down (Unicorn)").format(player=name(cp))
    return str(s.step)  # pragma: no cover


# the effect a player is busy with, in one word (``short``)
_BUSY = {KnightMayRemove: N_("knight"), MageMayRemove: N_("mage"), JesterJoins: N_("jester"),
         FortuneTellerPicks: N_("peek"), UnicornDiscards: N_("unicorn")}


def text(s) -> str:
    g = s.game
    lines = [_("{game} — pass {number} of {passes}, turn {turn} of {turns} · {pending}").format(
        game=g.component_name(g.title), number=s.pass_no, passes=g.passes, turn=s.turn,
        turns=g.turns_per_pass, pending=pending_text(s))]
    cols = []
    for i, c in enumerate(COLUMNS):
        k, j = s.columns[i], s.jesters[i]
        if k or j:
            cols.append(f"{_lab(c)} {k + j}" + (_(" (incl. {n} Jester)").format(n=j) if j else ""))
    lines.append(_("Display: {columns}").format(columns=" | ".join(cols) if cols else _("empty")))
    lines.append(_("Draw pile: {pile} · discard pile: {discards} · box: {box}").format(
        pile=_plural(s.pile_size, 'card'), discards=_counts(s.discard),
        box=_plural(sum(s.boxed), 'card')))
    face_down = _("face down")
    for p in range(g.players):
        row = _("{player}: {points} · hand ({n}): {cards}").format(
            player=g.player_name(p), points=_plural(s.points[p], 'point'), n=len(s.hands[p]),
            cards=_cards(s.hands[p]))
        c = s.chosen[p]
        if c is not None:
            row += _(" · chosen: {card}").format(card=face_down if c is HIDDEN else _lab(c))
        d = s.discarding[p]
        if d is not None:
            row += _(" · discarding: {card}").format(card=face_down if d is HIDDEN else _lab(d))
        seen = [_("{player} holds {cards}").format(player=g.player_name(t), cards=_cards(k))
                for t, k in enumerate(s.known[p]) if k]
        if seen:
            row += _(" · knows: {known}").format(known="; ".join(seen))
        lines.append(row)
    if any(c is not None for c in s.revealed):
        lines.append(_("Revealed: {cards}").format(cards=", ".join(
            f"{g.player_name(p)} {_lab(c)}" for p, c in enumerate(s.revealed) if c is not None)))
    if s.queue:
        lines.append(_("Still to place: {cards}").format(cards=", ".join(
            _("{player}'s {card}").format(player=g.player_name(p), card=_lab(c))
            for p, c in s.queue)))
    for pass_no, cards, pts in s.scoring_log:
        lines.append(_("Pass {number} scoring: {scores}").format(number=pass_no, scores="; ".join(
            f"{g.player_name(p)} {_cards(cs)} = {pts[p]}" for p, cs in enumerate(cards))))
    return "\n".join(lines)


def short(s) -> str:
    cp = s.current_player()
    abbr = ABBR if language() == "en" else ABBR_DE
    disp = "".join(f"{abbr[c]}{s.columns[i] + s.jesters[i]}" for i, c in enumerate(COLUMNS)
                   if s.columns[i] + s.jesters[i])
    if cp == TERMINAL:
        who = _("end {points}").format(points="-".join(str(x) for x in s.points))
    elif cp == CHANCE:
        who = _("chance")
    elif isinstance(s.step, Choosing):
        who = _("{player} chooses").format(player=s.game.player_name(cp))
    else:
        who = "{player} {busy}".format(player=s.game.player_name(cp),
                                       busy=_(_BUSY[type(s.step)]))
    return f"{s.pass_no}.{s.turn} {who} {disp}"[:40]


def html(s) -> str:
    g = s.game
    e = _html.escape
    head = "".join(f"<th>{e(_lab(c))}</th>" for c in COLUMNS)
    cells = []
    for i, c in enumerate(COLUMNS):
        k, j = s.columns[i], s.jesters[i]
        cell = str(k + j) + ("<br><small>" + e(_("{n} Jester").format(n=j)) + "</small>"
                             if j else "")
        cells.append(f"<td style='text-align:center'>{cell}</td>")
    rows = []
    for p in range(g.players):
        c = s.chosen[p]
        chosen = "" if c is None else (_("face down") if c is HIDDEN else _lab(c))
        seen = "; ".join(f"{g.player_name(t)}: {_cards(k)}" for t, k in enumerate(s.known[p]) if k)
        rows.append(f"<tr><td>{e(g.player_name(p))}</td><td>{s.points[p]}</td>"
                    f"<td>{e(_cards(s.hands[p]))}</td><td>{e(chosen)}</td><td>{e(seen)}</td></tr>")
    revealed = ", ".join(f"{g.player_name(p)} {_lab(c)}" for p, c in enumerate(s.revealed)
                         if c is not None)
    return (f"<div><b>{e(g.component_name(g.title))}</b> — "
            + e(_("pass {number}/{passes}, turn {turn}/{turns}: {pending}").format(
                number=s.pass_no, passes=g.passes, turn=s.turn, turns=g.turns_per_pass,
                pending=pending_text(s)))
            + "<table><caption style='text-align:left'>" + e(_("The display: cards in each column"))
            + f"</caption><tr><th></th>{head}</tr><tr><th style='text-align:left'>"
            + e(_("cards")) + f"</th>{''.join(cells)}</tr></table>"
            + "<p>" + e(_("Draw pile {pile} · discards: {discards} · box {box}").format(
                pile=s.pile_size, discards=_counts(s.discard), box=sum(s.boxed)))
            + (e(_(" · revealed: {cards}").format(cards=revealed)) if revealed else "") + "</p>"
            "<table><tr><th>" + e(_("player")) + "</th><th>" + e(_("points")) + "</th><th>"
            + e(_("hand")) + "</th><th>" + e(_("chosen")) + "</th><th>" + e(_("knows"))
            + f"</th></tr>{''.join(rows)}</table></div>")
