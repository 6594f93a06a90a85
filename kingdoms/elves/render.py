"""Text and HTML pictures of a King of the Elves position (realms around a table).

The core finds these by name (``State.__str__``, ``_repr_html_``, ``short()``):
``text``, ``html`` and ``short`` draw an ``ElvesState`` and also a ``JourneyState``
(one journey as a puzzle, ``kingdoms.elves.journey``), whose states live in this
package too.
"""
from __future__ import annotations

import html as _html
import math

from kingdoms.core.i18n import N_, _, language
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL

from .journey import JourneyState, name_of, player_text
from .rules import (DrawingBought, DrawingThree, Dealing, Discarding, GameOver, Planning,
                    Searching, card_label as _label)

__all__ = ["text", "html", "short"]

SPECIAL_SIGN = {"gold": "G", "thief": "T", "tree": "Tr", "sea_monster": "S"}
# the steps' words (``phase``, ``why``) shown in the pictures, for the catalog
STEP_WORDS = (N_("deal"), N_("planning"), N_("journey"), N_("over"), N_("draw3"), N_("buy"))
TERRAIN_COLOUR = {"plains": "#e9dc8a", "forest": "#7fb77e", "mountain": "#b5a89a",
                  "desert": "#f0c27b", "river": "#8ec5e8", "lake": "#5c9bd1"}


def _hand_text(state, p) -> str:
    hand = state.hands[p]
    if hand and hand[0] is HIDDEN:
        return _("{n} cards (hidden)").format(n=hand[1])
    parts = [f"{c}× {_label(k)}" for k, c in zip(state.game.kinds, hand) if c]
    return ", ".join(parts) if parts else _("no cards")


def _gold_text(state, p) -> str:
    """A player's gold, or "? (secret)" in another player's view."""
    gold = state.gold[p]
    return _("? (secret)") if gold is HIDDEN else str(gold)


def _spot_name(state, spot) -> str:
    return _("{player}'s {terrain} village ({value})").format(
        player=state.game.player_name(spot.realm), terrain=name_of(spot.terrain), value=spot.value)


def _village_text(state, kind, specials) -> str:
    g = state.game
    extra = ", ".join(_("{special} of {player}").format(special=name_of(s), player=g.player_name(o))
                      for s, o in specials)
    return _label(kind) + (f" [{extra}]" if extra else "")


def _phase_text(state) -> str:
    who = state.game.player_name(state.turn)
    match state.step:
        case GameOver():
            return state.describe()
        case Dealing(cards=cards):
            return _("Dealing: {cards} more card(s) to {player}").format(cards=cards, player=who)
        case DrawingThree() | DrawingBought():
            return _("Planning: {player} draws ({why})").format(player=who, why=_(state.step.why))
        case Searching():
            return _('Planning: {player} said "No village card!" and searches the supply').format(
                player=who)
        case Discarding(cards=cards):
            return _("Planning: {player} discards {cards} more").format(player=who, cards=cards)
        case Planning():
            return _("Planning: {player} to act ({passes} pass(es) in a row)").format(
                player=who, passes=state.passes)
    t = state.trip
    where = _("castle") if t.pos is None else _spot_name(state, state.table.spots[t.pos])
    way = _("clockwise") if t.direction > 0 else _("counter-clockwise")
    return _("Journeying: {player} at {where}, {direction}").format(player=who, where=where,
                                                                  direction=way)


def text(state) -> str:
    """The position in lines: round, whose step, each realm, hand and gold."""
    if isinstance(state, JourneyState):
        return _journey_text(state)
    g = state.game
    lines = [_("{game} — round {round} of {rounds}, starting player {player}. {phase}").format(
        game=g.component_name(g.title), round=state.round, rounds=g.rounds,
        player=g.player_name(state.start), phase=_phase_text(state))]
    for p in range(g.players):
        realm = state.realms[p]
        villages = "; ".join(f"{i + 1}) {_village_text(state, k, sp)}"
                             for i, (k, sp) in enumerate(realm)) or _("no villages")
        bought = _(", bought {n}").format(n=state.bought[p]) if state.bought[p] else ""
        lines.append(_("  {player}: gold {gold}{bought}, tokens {tokens}; realm: {villages}").format(
            player=g.player_name(p), gold=_gold_text(state, p), bought=bought,
            tokens=state.tokens_left(p), villages=villages))
        lines.append(_("      hand: {cards}").format(cards=_hand_text(state, p)))
    supply = state.supply_size()
    disc = [f"{c}× {_label(k)}" for k, c in zip(g.kinds, state.discard) if c]
    lines.append(_("  supply: {n} cards; discard pile: {discards}").format(
        n=supply, discards=", ".join(disc) if disc else _("empty")))
    return "\n".join(lines)


def html(state) -> str:
    """The realms drawn around an oval table, the state of play in the middle."""
    if isinstance(state, JourneyState):
        return f"<pre>{_html.escape(_journey_text(state))}</pre>"
    g = state.game
    n = g.players
    w, h = 720, 460
    # the bottom realm's box grows downwards with its villages and hand: room below
    parts = [f'<div style="position:relative;width:{w}px;height:{h + 140}px;font-family:sans-serif;'
             f'font-size:12px">',
             f'<div style="position:absolute;left:{w * 0.25}px;top:{h * 0.3}px;width:{w * 0.5}px;'
             f'height:{h * 0.4}px;border-radius:50%;background:#e8f1e4;border:2px solid #7a9a6a;'
             f'display:flex;align-items:center;justify-content:center;text-align:center;padding:8px;'
             f'box-sizing:border-box">{_html.escape(_phase_text(state))}</div>']
    cp = state.current_player()
    for p in range(n):
        # player 0 at the bottom, the others clockwise (to his left)
        ang = math.pi / 2 + 2 * math.pi * p / n
        x = w / 2 + math.cos(ang) * w * 0.36 - 95
        y = h / 2 + math.sin(ang) * h * 0.38 - 45
        border = "3px solid #c0392b" if p == state.turn and cp not in (TERMINAL,) else "1px solid #888"
        villages = []
        for k, sp in state.realms[p]:
            terrain = k.split(":")[1]
            signs = " ".join(f"{SPECIAL_SIGN[s]}<sub>{_html.escape(g.player_name(o))}</sub>"
                             for s, o in sp)
            villages.append(f'<span style="background:{TERRAIN_COLOUR.get(terrain, "#ddd")};'
                            f'padding:1px 4px;margin:1px;border-radius:3px;display:inline-block" '
                            f'title="{_html.escape(_village_text(state, k, sp))}">'
                            f'{_html.escape(name_of(terrain))} {k.split(":")[2]} {signs}</span>')
        start = _(" (starting player)") if p == state.start else ""
        parts.append(
            f'<div style="position:absolute;left:{x:.0f}px;top:{y:.0f}px;width:190px;'
            f'background:#fff;border:{border};border-radius:6px;padding:4px">'
            f'<b>{_html.escape(g.player_name(p))}</b>{start} — '
            + _html.escape(_("gold {gold}, tokens {tokens}").format(
                gold=_gold_text(state, p), tokens=state.tokens_left(p)))
            + f'<br>{"".join(villages[::-1]) or "<i>" + _("no villages") + "</i>"}'
            f'<br><small>{_html.escape(_hand_text(state, p))}</small></div>')
    parts.append("</div>")
    supply = state.supply_size()
    parts.append("<div style='font-family:sans-serif;font-size:12px'>" + _html.escape(_(
        "Round {round} of {rounds}; supply {supply} cards, discard pile {discards} cards. "
        "Each realm shows its villages as its owner sees them: the first one played on the "
        "right. (G gold, T thief, Tr tree, S sea monster; subscript: owner).").format(
        round=state.round, rounds=g.rounds, supply=supply, discards=sum(state.discard)))
        + "</div>")
    return "".join(parts)


def short(state) -> str:
    """One line: round, phase and who is to act (the Stepper's log, tree labels)."""
    if isinstance(state, JourneyState):
        return _journey_short(state)
    if type(state.step) is GameOver:
        return _("game over {gold}").format(gold="/".join(map(str, state.gold)))
    who = _("chance") if state.current_player() == CHANCE else _("P{number}").format(
        number=state.turn + 1)
    return _("R{round} {phase} {player}").format(round=state.round, phase=_(state.phase),
                                                 player=who)


# ----------------------------------------------------------------- one journey (a puzzle)

def _journey_short(state) -> str:
    t = state.trip
    spots = state.game.table.spots
    where = _("castle") if t.pos is None else _("P{realm}.{slot}").format(
        realm=spots[t.pos].realm + 1, slot=spots[t.pos].slot + 1)
    arrow = "" if t.direction > 0 else _(" ccw")
    return _("{where}{arrow} {net}g {cards}c").format(
        where=where, arrow=arrow, net=f"{state.net():+d}", cards=t.cards()) + (
        _(" end") if t.done else "")


def _journey_text(state) -> str:
    t = state.trip
    rules = state.game.rules
    hand = ", ".join(f"{k} {name_of(v) if language() != 'en' else v}"
                     for v, k in zip(rules.vehicles, t.hand) if k) or _("no travel cards")
    extra = []
    if t.escorts:
        extra.append(_("{n} escort").format(n=t.escorts))
    if t.turns:
        extra.append(_("{n} change direction").format(n=t.turns))
    where = _("in the castle") if t.pos is None else _("at {village}").format(
        village=state.game.table.spots[t.pos].name())
    way = _("clockwise") if t.direction > 0 else _("counter-clockwise")
    return (_("Journey of {player}: {where}, {direction}, gold {gold} (net {net}); hand: {hand}")
            .format(player=player_text(t.player), where=where, direction=way, gold=t.gold,
                    net=f"{state.net():+d}", hand=hand)
            + ("; " + ", ".join(extra) if extra else "")
            + (_(" — journey over") if t.done else ""))
