"""Text and HTML pictures of an Into the Black Forest position.

Hidden things (other players' hands, face-down Right cards in a player's view) are
shown as ``?``; nothing hidden ever reaches the text of a view.
"""
from __future__ import annotations

from html import escape

from kingdoms.core.i18n import _, language, ngettext
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL
from kingdoms.core.text import plural

from .components import name
from .rules import CAPACITY, Discarding, GameOver, Playing, Revealing, said


def _card(c, long: bool = True) -> str:
    if c is HIDDEN:
        return "?"
    if language() == "en":
        return f"{c} {c.suit}" if long else str(c)
    return f"{c.text()} {name(c.suit)}" if long else c.text()


def _names(state):
    """The seats' names in the current language."""
    return lambda p: name(state.game.player_name(p))


def _pairs(state, pairs, size: int, face_down: bool = False) -> str:
    names = _names(state)
    cells = []
    for p, c in pairs:
        text = _card(c)
        if face_down and c is not HIDDEN:
            text = _("{card} (face down)").format(card=text)
        cells.append(f"{text} [{names(p)}]")
    cells += ["—"] * (size - len(pairs))
    return " | ".join(cells) if cells else "—"


def _cards(cards) -> str:
    if not cards:
        return "—"
    if all(c is HIDDEN for c in cards):
        return _("{n} hidden").format(n=len(cards))
    return ", ".join(_card(c) for c in cards)


def headline(state) -> str:
    g = state.game
    head = _("{game} — {players} players, round {round} of {rounds}").format(
        game=g.component_name(g.title), players=g.players, round=min(state.round, g.n_rounds),
        rounds=g.n_rounds)
    enc = state.encounter
    if isinstance(state.step, GameOver):
        return _("{headline} — game over").format(headline=head)
    if enc is not None and isinstance(state.step, Playing):
        head = _("{headline}, encounter {number} of {encounters}: {encounter}").format(
            headline=head, number=state.played + 1, encounters=g.n_encounters,
            encounter=name(enc))
    return head


def text(state) -> str:
    """The position as text (``str(state)``)."""
    g = state.game
    names = _names(state)
    lines = [headline(state)]
    enc = state.encounter
    if enc is not None:
        cond = g.conditions[enc]
        lines.append(_("  Right-side condition: {condition} ({points} points)").format(
            condition=cond.said(), points=g.right_points))
        if len(state.upcoming) > 1:
            lines.append(_("  Then: {encounters}").format(encounters=", ".join(
                g.encounter_label(e) for e in state.upcoming[1:])))
    if isinstance(state.step, Playing):
        lines.append(_("  Top:    {cards}").format(cards=_pairs(state, state.top, CAPACITY['top'])))
        lines.append(_("  Left:   {cards}").format(
            cards=_pairs(state, state.left, CAPACITY['left'])))
        lines.append(_("  Bottom: {cards}").format(
            cards=_pairs(state, state.bottom, CAPACITY['bottom'])))
        lines.append(_("  Right:  {cards}").format(
            cards=_pairs(state, state.right, 0, face_down=True)))
    pts = " · ".join((_("{player} {points} (token)") if p == state.token
                      else "{player} {points}").format(player=names(p), points=v)
                     for p, v in enumerate(state.points))
    lines.append(_("Points: {points}").format(points=pts))
    lines.append(_("Hands:"))
    for p, h in enumerate(state.hands):
        extra = []
        if state.decks[p]:
            extra.append(_("deck {n}").format(n=len(state.decks[p])))
        if state.won[p]:
            extra.append(_("won {cards}").format(
                cards=", ".join(_card(c, False) for c in state.won[p])))
        if state.discarded[p]:
            extra.append(_("discarded {cards}").format(cards=_cards(state.discarded[p])))
        more = f"   [{'; '.join(extra)}]" if extra else ""
        lines.append(f"  {names(p)} ({len(h)}): {_cards(h)}{more}")
    if state.report:
        lines.append(_("Last: {report}").format(report=" ".join(map(said, state.report))))
    cp = state.current_player()
    if cp == CHANCE:
        if isinstance(state.step, Revealing):
            lines.append(_("Chance: the next encounter is revealed ({n} equally likely).")
                         .format(n=len(state.encounter_deck)))
        else:
            p = state.dealing()
            lines.append(_("Chance: {player} draws a card ({n} equally likely).").format(
                player=names(p), n=len(state.decks[p])))
    elif cp == TERMINAL:
        lines.append(state.describe())
    elif isinstance(state.step, Discarding):
        lines.append(_("{player} discards down to {n} cards.").format(player=names(cp),
                                                                      n=g.hand_size))
    else:
        lines.append(_("{player} to play.").format(player=names(cp)))
    return "\n".join(lines)


def html(state) -> str:
    """The position as an HTML table (``state._repr_html_()``)."""
    g = state.game
    names = _names(state)
    e = escape
    rows = [f"<tr><th colspan='2' style='text-align:left'>{e(headline(state))}</th></tr>"]
    enc = state.encounter
    if enc is not None:
        rows.append("<tr><td>" + _("Right condition") + "</td><td><b>"
                    + e(g.conditions[enc].said()) + "</b> " + e(_("({points} points)").format(points=g.right_points))
                    + "</td></tr>")
        if len(state.upcoming) > 1:
            rows.append("<tr><td>" + _("Then") + "</td><td>" + e(", ".join(
                g.encounter_label(x) for x in state.upcoming[1:])) + "</td></tr>")
    if isinstance(state.step, Playing):
        for label, pairs, size, fd in ((_("Top"), state.top, CAPACITY["top"], False),
                                       (_("Left"), state.left, CAPACITY["left"], False),
                                       (_("Bottom"), state.bottom, CAPACITY["bottom"], False),
                                       (_("Right"), state.right, 0, True)):
            rows.append(f"<tr><td>{label}</td><td>{e(_pairs(state, pairs, size, fd))}</td></tr>")
    for p in range(g.players):
        token = " &#9733; " + _("token") if p == state.token else ""
        points = (plural(state.points[p], 'point') if language() == "en" else
                  ngettext("{n} point", "{n} points", state.points[p]).format(n=state.points[p]))
        rows.append(f"<tr><td>{e(names(p))}: {points}{token}</td>"
                    "<td>" + e(_("hand ({n}): {cards}").format(n=len(state.hands[p]),
                                                               cards=_cards(state.hands[p])))
                    + (("<br>" + e(_("won: {cards}").format(cards=_cards(state.won[p]))))
                       if state.won[p] else "")
                    + "</td></tr>")
    if state.report:
        rows.append("<tr><td>" + _("Last") + "</td><td>" + "<br>".join(e(said(x)) for x in state.report)
                    + "</td></tr>")
    rows.append(f"<tr><td colspan='2'><i>{e(text(state).splitlines()[-1])}</i></td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def short(state) -> str:
    """One line for tree nodes (at most ~30 characters)."""
    cp = state.current_player()
    if cp == TERMINAL:
        return _("end {points}").format(points=":".join(str(v) for v in state.points))
    if cp == CHANCE:
        return (_("reveal") if isinstance(state.step, Revealing)
                else _("deal {player}").format(player=_names(state)(state.dealing())))
    who = _names(state)(cp)
    if isinstance(state.step, Discarding):
        return _("{player} discards").format(player=who)

    def vals(pairs):
        return ",".join("?" if c is HIDDEN else str(c.value) for _, c in pairs) or "-"
    return _("B{bottom} L{left} T{top} R{right} {player}").format(
        bottom=vals(state.bottom), left=vals(state.left), top=vals(state.top),
        right=len(state.right), player=who)
