"""Text and HTML pictures of a King of the Elves position (realms around a table)."""
from __future__ import annotations

import html as _html
import math

from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL

SPECIAL_SIGN = {"gold": "G", "thief": "T", "tree": "Tr", "sea_monster": "S"}
TERRAIN_COLOUR = {"plains": "#e9dc8a", "forest": "#7fb77e", "mountain": "#b5a89a",
                  "desert": "#f0c27b", "river": "#8ec5e8", "lake": "#5c9bd1"}


from .rules import card_label as _label  # noqa: E402  (render is imported lazily by rules)


def _hand_text(state, p) -> str:
    hand = state.hands[p]
    if hand and hand[0] is HIDDEN:
        return f"{hand[1]} cards (hidden)"
    parts = [f"{c}× {_label(k)}" for k, c in zip(state.game.kinds, hand) if c]
    return ", ".join(parts) if parts else "no cards"


def _gold_text(state, p) -> str:
    """A player's gold, or "? (secret)" in another player's view."""
    gold = state.gold[p]
    return "? (secret)" if gold is HIDDEN else str(gold)


def _spot_name(state, spot) -> str:
    return f"{state.game.player_name(spot.realm)}'s {spot.terrain} village ({spot.value})"


def _village_text(state, kind, specials) -> str:
    g = state.game
    extra = ", ".join(f"{s.replace('_', ' ')} of {g.player_name(o)}" for s, o in specials)
    return _label(kind) + (f" [{extra}]" if extra else "")


def _phase_text(state) -> str:
    g = state.game
    cp = state.current_player()
    if state.phase == "over":
        return state.describe()
    if state.phase == "deal":
        return f"Dealing: {state.pending[0]} more card(s) to {g.player_name(state.turn)}"
    if state.phase == "planning":
        if cp == CHANCE:
            return f"Planning: {g.player_name(state.turn)} draws ({state.pending[2]})"
        if state.pending and state.pending[0] == "search":
            return (f'Planning: {g.player_name(state.turn)} said "No village card!" and '
                    "searches the supply")
        if state.pending:
            return f"Planning: {g.player_name(state.turn)} discards {state.pending[1]} more"
        return (f"Planning: {g.player_name(state.turn)} to act "
                f"({state.passes} pass(es) in a row)")
    t = state.trip
    where = "castle" if t.pos is None else _spot_name(state, state.table.spots[t.pos])
    return (f"Journeying: {g.player_name(state.turn)} at {where}, "
            f"{'clockwise' if t.direction > 0 else 'counter-clockwise'}")


def text(state) -> str:
    g = state.game
    lines = [f"King of the Elves — round {state.round} of {g.rounds}, starting player "
             f"{g.player_name(state.start)}. {_phase_text(state)}"]
    for p in range(g.players):
        realm = state.realms[p]
        villages = "; ".join(f"{i + 1}) {_village_text(state, k, sp)}"
                             for i, (k, sp) in enumerate(realm)) or "no villages"
        bought = f", bought {state.bought[p]}" if state.bought[p] else ""
        lines.append(f"  {g.player_name(p)}: gold {_gold_text(state, p)}{bought}, "
                     f"tokens {state.tokens_left(p)}; realm: {villages}")
        lines.append(f"      hand: {_hand_text(state, p)}")
    supply = state.supply_size()
    disc = [f"{c}× {_label(k)}" for k, c in zip(g.kinds, state.discard) if c]
    lines.append(f"  supply: {supply} cards; discard pile: {', '.join(disc) if disc else 'empty'}")
    return "\n".join(lines)


def html(state) -> str:
    """The realms drawn around an oval table, the state of play in the middle."""
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
                            f'{terrain} {k.split(":")[2]} {signs}</span>')
        start = " (starting player)" if p == state.start else ""
        parts.append(
            f'<div style="position:absolute;left:{x:.0f}px;top:{y:.0f}px;width:190px;'
            f'background:#fff;border:{border};border-radius:6px;padding:4px">'
            f'<b>{_html.escape(g.player_name(p))}</b>{start} — gold {_html.escape(_gold_text(state, p))}, '
            f'tokens {state.tokens_left(p)}<br>{"".join(villages[::-1]) or "<i>no villages</i>"}'
            f'<br><small>{_html.escape(_hand_text(state, p))}</small></div>')
    parts.append("</div>")
    supply = state.supply_size()
    parts.append(f"<div style='font-family:sans-serif;font-size:12px'>Round {state.round} of "
                 f"{g.rounds}; supply {supply} cards, discard pile {sum(state.discard)} cards. "
                 f"Each realm shows its villages as its owner sees them: the first one played on the right. "
                 f"(G gold, T thief, Tr tree, S sea monster; subscript: owner).</div>")
    return "".join(parts)
