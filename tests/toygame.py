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
class Deal(Action, record_name="highcard/Deal"):
    card: int

    def __str__(self):
        return f"deal a {self.card}"

    def seen_by(self, player):
        return Deal(card=HIDDEN)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Stand(Action, record_name="highcard/Stand"):
    def __str__(self):
        return "stand"


@dataclass(frozen=True)
class Redraw(Action, record_name="highcard/Redraw"):
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


HighCard.hidden_information = True      # nobody sees the others' cards


# ---- Marathon: a test-only game with a safeguard (an unfinished ending) -------------

@dataclass(frozen=True)
class Step(Action, record_name="marathon/Step"):
    n: int

    def __str__(self):
        return "step forward" if self.n else "stay"


def forward_policy(state, rng):
    """Marathon's sensible player: always step forward when allowed."""
    return max(state.legal_actions(), key=lambda a: a.n)


@dataclass(frozen=True)
class Marathon(Game):
    """Players take turns: a coin decides whether they may move, then they step
    forward or stay.  The first at ``goal`` wins.  The engine cuts the game after
    ``limit`` decisions (a safeguard no rule has): then it is unfinished."""
    name = "marathon"
    title = "Marathon"
    min_players = 1
    max_players = 3
    players: int = 2
    goal: int = 3
    limit: int = 12

    def default_policies(self):
        return (forward_policy,) * self.players

    def initial_state(self):
        return MarathonState(self, positions=(0,) * self.players, turn=0, may_move=None)


@dataclass(frozen=True)
class MarathonState(State):
    positions: tuple
    turn: int              # decisions taken so far
    may_move: object       # None: coin not flipped yet this turn

    def _winner(self):
        return next((i for i, p in enumerate(self.positions) if p >= self.game.goal), None)

    def _current_player(self):
        if self._winner() is not None or self.turn >= self.game.limit:
            return TERMINAL
        if self.may_move is None:
            return CHANCE
        return self.turn % self.game.players

    def _chance_outcomes(self):
        return ((Step(0), Fraction(1, 2)), (Step(1), Fraction(1, 2)))

    def _legal_actions(self):
        return (Step(0), Step(1)) if self.may_move else (Step(0),)

    def _next(self, action):
        from dataclasses import replace
        if self.may_move is None:
            return replace(self, may_move=bool(action.n))
        me = self.turn % self.game.players
        pos = list(self.positions)
        pos[me] += action.n
        return replace(self, positions=tuple(pos), turn=self.turn + 1, may_move=None)

    def _returns(self):
        w = self._winner()
        if w is None:
            return tuple(Fraction(1, self.game.players) for _ in self.positions)
        return tuple(Fraction(int(i == w)) for i in range(self.game.players))

    def unfinished(self):
        if self._winner() is None:
            return f"the engine stopped it after {self.game.limit} turns (a safeguard)"
        return None
