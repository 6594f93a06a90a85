"""Text and HTML pictures of a King of the Woods position.

Covered followers stay visible (with the Assassin on top), so a student can see
what an Assassin-on-Assassin would bring back.  Hidden cards print as ``?``.
"""
from __future__ import annotations

import html as _html

from kingdoms.core.i18n import _, language
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL

from .rules import (FOOL_RUIN, card_name, AssassinAiming, Dealing, KnightLooking, Playing, PriestAdding,
                    PriestTakingBack, ScholarChoosing, TraderGiving, TraderReturning, ruined)

ABBREV = {"Assassin": "As", "Trader": "Tr", "Guard": "Gu", "Squire": "Sq", "Scholar": "Sc",
          "Priest": "Pr", "Fool": "Fo", "Treasurer": "Te", "Knight": "Kn", "General": "Ge",
          "Princess": "Pn"}

# the sub-decision under way, marked in ``short()``
STEP_MARKS = {AssassinAiming: " As", TraderGiving: " Tr", TraderReturning: " Tr<",
              KnightLooking: " Kn", ScholarChoosing: " Sc", PriestAdding: " Pr",
              PriestTakingBack: " Pr<"}

# the same marks in other languages: the follower (its letters there) and "<" for a return
STEP_CARDS = {AssassinAiming: ("Assassin", ""), TraderGiving: ("Trader", ""),
              TraderReturning: ("Trader", "<"), KnightLooking: ("Knight", ""),
              ScholarChoosing: ("Scholar", ""), PriestAdding: ("Priest", ""),
              PriestTakingBack: ("Priest", "<")}

COLOURS = {"Assassin": "#4d4d4d", "Trader": "#b07d3a", "Guard": "#7a6a58", "Squire": "#9c8560",
           "Scholar": "#8a6d9e", "Priest": "#2f2f4f", "Fool": "#d9822b", "Treasurer": "#5b8c3a",
           "Knight": "#6b4423", "General": "#7f7f7f", "Princess": "#c0392b"}


def _name(state, p) -> str:
    return state.game.player_name(p)


def _card(c, game=None) -> str:
    return "?" if c is HIDDEN else card_name(str(c), game)


def _pile(pile, game=None) -> str:
    if len(pile) == 1:
        return card_name(pile[0], game)
    return _("[{card} under {assassin}]").format(card=card_name(pile[0], game),
                                                 assassin=card_name("Assassin", game))


def _title(state) -> str:
    return state.game.component_name(state.game.title)


def _abbrev(state) -> dict:
    """Two letters per follower for ``short()``: English ``ABBREV``; in another
    language the first letters of the names there, kept apart."""
    if language() == "en":
        return ABBREV
    out, used = {}, set()
    for card in ABBREV:
        local = card_name(card, state.game)
        pick = next((local[0] + x for x in local[1:].lower() if (local[0] + x) not in used),
                    local[:2])
        used.add(pick)
        out[card] = pick
    return out


def pending_text(state) -> str:
    """What the game waits for (the rules' words: ``state._pending_text()``)."""
    return state._pending_text()


def describe(state) -> str:
    """One line: what happens next, or the winners (``state.describe()``)."""
    return state.describe()


def _out(state) -> str:
    return _("out of the round") if state.game.assassins_return else _("out of the game")


def _goal(state) -> str:
    g = state.game
    if g.mode == "points":
        return _("points mode, first to {goal}").format(goal=g.goal)
    return _("round-win mode, first to {goal} round wins").format(goal=g.goal)


def _removed(state) -> str:
    return _("; {assassins} {out}: {n}").format(
        assassins=_plural_assassins(state), out=_out(state), n=len(state.removed))


def _plural_assassins(state) -> str:
    if language() == "en":
        return "Assassins"
    return _("{assassin} cards").format(assassin=card_name("Assassin", state.game))


def text(state) -> str:
    g = state.game
    lines = [_("{title} — round {round} ({goal}{one})").format(
        title=_title(state), round=state.round, goal=_goal(state),
        one=_(", one round only") if g.one_round else "")]
    lines.append(_("Totals: {totals}").format(
        totals=", ".join(f"{_name(state, p)} {t}" for p, t in enumerate(state.totals))))
    if state.last_round is not None:
        rnd, scores, tied, winner = state.last_round
        lines.append(_("Round {round} scored {scores}; won by {winners}").format(
            round=rnd, scores=", ".join(f"{_name(state, p)} {s}" for p, s in enumerate(scores)),
            winners=", ".join(_name(state, p) for p in tied)))
    for p in range(g.players):
        mark = ">" if (type(state.step) is Playing and not state.over and p == state.turn) else " "
        hand = state.hands[p]
        hand_text = ", ".join(_card(c, g) for c in hand) or "-"
        court = state.courts[p]
        court_text = ", ".join(_pile(x, g) for x in court) or "-"
        warn = (_("  (exactly {n} {fools}: scores 0!)").format(n=FOOL_RUIN, fools=_fools(state))
                if ruined(court) else "")
        score = state.court_scores()[p]
        lines.append(_("{mark} {player}: hand ({n}) {cards}").format(
            mark=mark, player=_name(state, p), n=len(hand), cards=hand_text))
        lines.append(_("    court: {court}  = {score}{warn}").format(
            court=court_text, score=score, warn=warn))
    lines.append(_("Set aside face down: {n}").format(n=len(state.set_aside))
                 + (_removed(state) if state.removed else ""))
    lines.append(describe(state))
    return "\n".join(lines)


def _fools(state) -> str:
    if language() == "en":
        return "Fools"
    return _("{fool} cards").format(fool=card_name("Fool", state.game))


def _chip(card, covered=False, hidden=False, influence=None, game=None) -> str:
    if hidden:
        return ('<span style="display:inline-block;margin:1px;padding:2px 6px;border-radius:4px;'
                'background:#ddd;color:#666;border:1px solid #aaa">?</span>')
    colour = COLOURS.get(card, "#888")
    style = (f"display:inline-block;margin:1px;padding:2px 6px;border-radius:4px;"
             f"background:{colour};color:white;border:1px solid #333")
    if covered:
        style += ";opacity:0.45;text-decoration:line-through"
    value = "" if influence is None else f' <small>{influence}</small>'
    return f'<span style="{style}">{_html.escape(card_name(card, game))}{value}</span>'


def html(state) -> str:
    g = state.game
    infl = g.influence
    rows = []
    scores = state.court_scores()
    for p in range(g.players):
        here = type(state.step) is Playing and not state.over and p == state.turn
        name = _html.escape(_name(state, p)) + (" ▶" if here else "")
        hand = "".join(_chip(c, hidden=c is HIDDEN, influence=None if c is HIDDEN else infl[c],
                             game=g)
                       for c in state.hands[p]) or "—"
        piles = []
        for pile in state.courts[p]:
            if len(pile) == 1:
                piles.append(_chip(pile[0], influence=infl[pile[0]], game=g))
            else:
                piles.append('<span style="white-space:nowrap">'
                             + _chip(pile[0], covered=True, influence=infl[pile[0]], game=g)
                             + "<sup>" + _chip("Assassin", game=g) + "</sup></span>")
        note = (' <b style="color:#c0392b">'
                + _html.escape(_("{n} {fools} → 0").format(n=FOOL_RUIN, fools=_fools(state)))
                + "</b>" if ruined(state.courts[p]) else "")
        rows.append(f"<tr><td><b>{name}</b><br>"
                    + _html.escape(_("total {points}").format(points=state.totals[p]))
                    + f"</td><td>{hand}</td><td>{''.join(piles) or '—'}</td>"
                    f"<td style='text-align:center'>{scores[p]}{note}</td></tr>")
    esc = _html.escape
    head = (f"<div><b>{esc(_title(state))}</b> — "
            + esc(_("round {round} ({goal})").format(round=state.round, goal=_goal(state)))
            + f"<br>{esc(describe(state))}</div>")
    table = ("<table style='border-collapse:collapse'><tr><th>" + esc(_("player"))
             + "</th><th>" + esc(_("hand")) + "</th><th>"
             + esc(_("court (covered cards faded, {assassin} on top)").format(
                 assassin=card_name("Assassin", g)))
             + "</th><th>" + esc(_("court score")) + "</th></tr>"
             + "".join(rows) + "</table>")
    foot = "<div>" + esc(_("set aside face down: {n}").format(n=len(state.set_aside)))
    if state.removed:
        foot += esc(_removed(state))
    foot += "</div>"
    return head + table + foot


def short(state) -> str:
    cp = state.current_player()
    scores = ":".join(str(s) for s in state.court_scores())
    if cp == TERMINAL:
        return _("end {scores}").format(scores=scores)
    total = sum(len(h) for h in state.hands)
    if total <= 6:
        abbrev = _abbrev(state)
        hands = "|".join("".join(abbrev.get(c, "?") for c in h) for h in state.hands)
    else:
        hands = "/".join(str(len(h)) for h in state.hands)
    if cp == CHANCE:
        who = _("deal") if isinstance(state.step, Dealing) else _("draw")
    else:
        who = _("P{number}").format(number=cp + 1)
        if type(state.step) is not Playing:
            if language() == "en":
                who += STEP_MARKS.get(type(state.step), "")
            elif type(state.step) in STEP_CARDS:
                card, back = STEP_CARDS[type(state.step)]
                who += " " + _abbrev(state)[card] + back
    out = f"{who} {hands} {scores}"
    return out if len(out) <= 30 else out[:29] + "…"
