"""King of the Woods: seeded random playouts for every player count and variant."""
from collections import Counter
import dataclasses
import random

import pytest

import kingdoms
from kingdoms.core.play import game_rng, play
from kingdoms.core.protocol import CHANCE, HIDDEN, TERMINAL
from kingdoms.core.records import GameRecord
from kingdoms.woods import Woods
from kingdoms.woods.rules import Playing, DEALING, Dealing, PriestTakingBack, TraderReturning

VARIANTS = [(n, mode, beginner) for n in (2, 3, 4, 5) for mode in ("points", "rounds")
            for beginner in (False, True)]


def _full_deck(g):
    return Counter({nm: g.copies[nm] for nm in g.followers})


def _check_state(s):
    g = s.game
    # conservation: hands + courts + set aside + removed (+ box) = the whole deck
    if not (s.step == DEALING and s.last_round is None):
        assert s.cards() + Counter(g.box) == _full_deck(g)
    for o in range(g.players):
        for q in range(g.players):
            assert not (Counter(s.known[o][q]) - Counter(s.hands[q])), "knowledge must be true"
        assert s.known[o][o] == ()
    assert all(len(p) <= 2 for c in s.courts for p in c)
    cp = s.current_player()
    if cp != TERMINAL:
        assert len(s.legal_actions()) > 0 if cp != CHANCE or not isinstance(s.step, Dealing) else True
    if cp >= 0 and isinstance(s.step, Playing):
        assert s.hands[cp], "a player without cards is skipped"
    if cp >= 0:
        # the player to move can decide from their own view
        assert s.view(cp).legal_actions() == s.legal_actions()
    # anatomy: a turn step is a frozen, hashable dataclass (no tagged tuple)
    if not isinstance(s.step, Playing):
        assert dataclasses.is_dataclass(s.step) and not isinstance(s.step, tuple)
        assert type(s.step).__dataclass_params__.frozen and hash(s.step) is not None
    assert all(isinstance(t, PriestTakingBack) for t in s.after)


def _check_view(s, p):
    v = s.view(p)
    g = s.game
    assert v.hands[p] == s.hands[p]
    assert v.set_aside == (HIDDEN,) * len(s.set_aside)
    for q in range(g.players):
        assert len(v.hands[q]) == len(s.hands[q])            # counts are public
        if q != p:
            shown = Counter(c for c in v.hands[q] if c is not HIDDEN)
            assert shown == Counter(s.known[p][q])
    assert all(row is HIDDEN for o, row in enumerate(v.known) if o != p)
    if isinstance(s.step, TraderReturning) and p not in (s.step.giver, s.step.receiver):
        assert v.step.card is HIDDEN
    assert v.history() == ()
    # the text of the view names only cards the player may see
    visible = Counter(v.hands[p])
    for q in range(g.players):
        visible.update(c for c in v.hands[q] if c is not HIDDEN)
    text = str(v)
    for line in text.splitlines():
        if ": hand (" in line:
            names = [x.strip() for x in line.split(")", 1)[1].split(",")]
            for nm in names:
                assert nm in ("?", "-") or nm in visible


@pytest.mark.parametrize("n,mode,beginner", VARIANTS)
def test_random_playouts(n, mode, beginner):
    g = kingdoms.game("woods", players=n, mode=mode, beginner=beginner)
    for seed in range(3):
        rng = game_rng(f"woods-test-{seed}")
        s = g.initial_state()
        steps = 0
        while not s.is_terminal():
            _check_state(s)
            if steps % 3 == 0:
                for p in range(n):
                    _check_view(s, p)
            if s.is_chance():
                s = s.apply(s.sample_chance(rng))
            else:
                la = s.legal_actions()
                s = s.apply(la[rng.randrange(len(la))])
            steps += 1
            assert steps < 5000
        _check_state(s)
        assert sum(s.returns()) == 1
        assert max(s.totals) >= g.goal
        # records round-trip and replay identically; the views of actions hide cards
        rec = GameRecord.of(s, seed=seed)
        again = GameRecord.from_json(rec.to_json()).replay()
        assert again == s and again.history() == s.history()
        for who, a in s.history():
            for p in range(n):
                seen = a.seen_by(p)
                involved = {getattr(a, f, None) for f in ("giver", "receiver", "taker",
                                                          "victim", "drawer")}
                if hasattr(a, "hands"):
                    assert all(all(c is HIDDEN for c in h) for q, h in enumerate(seen.hands)
                               if q != p)
                elif getattr(a, "card", None) is not None and involved - {None} and \
                        p not in involved:
                    assert seen.card is HIDDEN


def test_play_and_record_protocol():
    for n in (2, 3, 4, 5):
        rec = play(kingdoms.game("woods", players=n), seed=7)
        assert GameRecord.from_json(rec.to_json()).replay() == rec.replay()


def test_winner_starts_next_round_in_playouts():
    g = Woods(players=3)
    rng = game_rng("woods-starter")
    s = g.initial_state()
    rounds = 0
    while not s.is_terminal():
        if s.is_chance() and s.step == DEALING and s.last_round is not None:
            rnd, scores, tied, winner = s.last_round
            assert s.starter == winner == s.turn
            assert winner in tied and scores[winner] == max(scores)
            rounds += 1
        if s.is_chance():
            s = s.apply(s.sample_chance(rng))
        else:
            la = s.legal_actions()
            s = s.apply(la[rng.randrange(len(la))])
    assert rounds >= 1


def test_games_and_states_pickle_for_worker_processes():
    import pickle
    g = Woods(players=3, mode="rounds", beginner=True)
    assert pickle.loads(pickle.dumps(g)) == g
    s = g.initial_state()
    s = s.apply(s.sample_chance(random.Random(1)))
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.legal_actions() == s.legal_actions()


def test_views_are_idempotent_and_same_class():
    g = Woods(players=4)
    rng = game_rng("woods-views")
    s = g.initial_state()
    for _ in range(60):
        if s.is_terminal():
            break
        for p in range(4):
            v = s.view(p)
            assert type(v) is type(s) and v.view(p) == v
        s = s.apply(s.sample_chance(rng)) if s.is_chance() else s.apply(
            s.legal_actions()[rng.randrange(len(s.legal_actions()))])


from hypothesis import given, settings, HealthCheck, strategies as st


@st.composite
def positions(draw):
    n = draw(st.integers(2, 4))
    g = Woods(players=n)
    deck = list(g.deck)
    order = draw(st.permutations(deck))
    hands, courts = [], [[] for _ in range(n)]
    i = 0
    for p in range(n):
        k = draw(st.integers(0 if p else 1, 4))
        hands.append(list(order[i:i + k]))
        i += k
    for p in range(n):
        k = draw(st.integers(0, 4))
        courts[p] = list(order[i:i + k])
        i += k
    spare = list(order[i:]).count("Assassin")     # Assassins not yet placed
    for p in range(n):
        for j, c in enumerate(courts[p]):
            if spare and c != "Assassin" and draw(st.booleans()):
                courts[p][j] = (c, "Assassin")       # covered by a spare Assassin
                spare -= 1
    return g.position(hands=hands, courts=courts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 10 ** 6))
def test_any_position_plays_out_soundly(state, seed):
    rng = random.Random(seed)
    s = state
    while not (s.is_terminal() or (s.step == DEALING)):
        _check_state(s)
        for p in range(s.game.players):
            _check_view(s, p)
        s = s.apply(s.sample_chance(rng)) if s.is_chance() else s.apply(
            s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    assert s.cards() == Counter(s.game.deck)
    assert s.last_round[1] == s.court_scores()
