"""High Card: a tiny test-only game that exercises every part of the protocol.

Deck 1, 2, 3, 3.  Chance deals one hidden card to each player; then each player in
turn may *stand* or *redraw* (discard the card, draw the deck's next card at random).
Highest card wins; equal cards share the win.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL, Action, Game, State


@dataclass(frozen=True)
class Deal(Action):
    card: int

    def __str__(self):
        return f"deal a {self.card}"

    def seen_by(self, player):
        return Deal(card=HIDDEN)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Stand(Action):
    def __str__(self):
        return "stand"


@dataclass(frozen=True)
class Redraw(Action):
    def __str__(self):
        return "redraw"


@dataclass(frozen=True)
class HighCard(Game):
    name = "highcard"
    title = "High Card"
    min_players = 2
    max_players = 3
    players: int = 2
    deck: tuple = (1, 2, 3, 3)

    def initial_state(self):
        return HighCardState(self, hands=(), deck=self.deck, to_act=0, redrawing=False)


@dataclass(frozen=True)
class HighCardState(State):
    hands: tuple        # one card per dealt player
    deck: tuple         # remaining cards, sorted
    to_act: int         # next player to decide once all are dealt
    redrawing: bool     # a redraw is waiting for its chance draw

    def _current_player(self):
        if len(self.hands) < self.game.players or self.redrawing:
            return CHANCE
        if self.to_act >= self.game.players:
            return TERMINAL
        return self.to_act

    def _legal_actions(self):
        return (Stand(), Redraw()) if self.deck else (Stand(),)

    def _why_illegal(self, action):
        if isinstance(action, Redraw):
            return "You may redraw only while the deck has cards."
        return None

    def _chance_outcomes(self):
        counts = Counter(self.deck)
        n = len(self.deck)
        return tuple((Deal(c), Fraction(k, n)) for c, k in sorted(counts.items()))

    def _next(self, action):
        from dataclasses import replace
        if isinstance(action, Deal):
            deck = list(self.deck)
            deck.remove(action.card)
            if self.redrawing:
                hands = self.hands[:self.to_act] + (action.card,) + self.hands[self.to_act + 1:]
                return replace(self, hands=hands, deck=tuple(deck), redrawing=False,
                               to_act=self.to_act + 1)
            return replace(self, hands=self.hands + (action.card,), deck=tuple(deck))
        if isinstance(action, Stand):
            return replace(self, to_act=self.to_act + 1)
        return replace(self, redrawing=True)

    def _returns(self):
        best = max(self.hands)
        winners = [i for i, c in enumerate(self.hands) if c == best]
        return tuple(Fraction(1, len(winners)) if i in winners else Fraction(0)
                     for i in range(self.game.players))

    def scores(self):
        return self.hands if self.is_terminal() else None

    def view(self, player):
        from dataclasses import replace
        if self.is_terminal():
            return self
        hands = tuple(c if i == player else HIDDEN for i, c in enumerate(self.hands))
        return replace(self, hands=hands, deck=tuple(HIDDEN for _ in self.deck))

    def __str__(self):
        hands = ", ".join(f"{self.game.player_name(i)}: {c}" for i, c in enumerate(self.hands))
        return f"High Card — hands [{hands}], deck {len(self.deck)} cards. {self.describe()}"
