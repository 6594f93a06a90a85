"""Seeded fingerprints of every game's behaviour, to keep refactors and speed-ups honest.

    python tools/fingerprint.py > before.txt
    ... refactor ...
    python tools/fingerprint.py > after.txt && diff before.txt after.txt

For every game and player count it plays seeded games with the game's default
players and with random players, and hashes what a person or a tool can observe:
the record (every action and chance outcome, JSON), the text, short text and HTML of
positions along the way, every player's view, the legal actions' texts, chance
probabilities, scores and returns.  One line per configuration; a refactor that keeps
behaviour byte-identical keeps every line.  ``--game NAME`` limits it to one game,
``--games K`` sets how many games per configuration (default 3).
"""
from __future__ import annotations

import argparse
import hashlib
import sys

import kingdoms
from kingdoms.core import CHANCE, play, random_policy
from kingdoms.core.play import play_state


def _observe(h, state, game) -> None:
    put = lambda s: h.update(str(s).encode() + b"\x00")
    put(state)
    put(state.short() if hasattr(state, "short") else "")
    put(state._repr_html_())
    put(state.current_player())
    for p in range(game.players):
        put(state.view(p))
    if state.is_terminal():
        put(state.returns())
        put(state.unfinished())
    elif state.current_player() == CHANCE:
        try:
            outs = state.chance_outcomes()
        except Exception as e:              # too many outcomes to list
            put(type(e).__name__)
        else:
            for o, p in outs:
                put(game.action_text(o)); put(p)
    else:
        for a in state.legal_actions():
            put(game.action_text(a))
    put(state.scores())


def fingerprint(name: str, players: int, games: int, every: int) -> str:
    h = hashlib.sha256()
    game = kingdoms.game(name, players=players)
    seats = [None, [random_policy] * players]
    for k, policies in enumerate(seats):
        for i in range(games):
            rec = play(game, policies, seed=1000 * k + i)
            h.update(rec.to_json().encode())
            for j, st in enumerate(rec.states()):
                if j % every == 0 or st.is_terminal():
                    _observe(h, st, game)
    return h.hexdigest()[:16]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--every", type=int, default=7, help="observe every k-th position")
    args = ap.parse_args(argv)
    for name in args.game or kingdoms.games():
        cls = kingdoms.game_class(name)
        counts = sorted({c.get("players") for c in cls.configurations()} - {None})
        for n in counts:
            print(f"{name} players={n} {fingerprint(name, n, args.games, args.every)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
