"""Fence moves drawn on the pasture (issue 11, item 5): ``HorseState.action_picture``
numbers every fence slot of a fence decision, and the Stepper shows the picture and
puts the same numbers on the move buttons."""
import re

import pytest

import kingdoms
from kingdoms.horse import pasture
from kingdoms.horse.actions import EndFences, LiftFence, PlaceFence, PutFence, UseDie
from kingdoms.horse.render import LIFT_COLOUR, SLOT_COLOUR

FENCE_MOVES = (PlaceFence, LiftFence, PutFence)


def start_fence_job():
    """A fence job from the rules' own path: roll a fence, keep it, carry it out."""
    from kingdoms.horse.actions import KeepDice, Roll
    g = kingdoms.game("horse", players=2, easy=True)
    s = g.initial_state()
    for _ in range(50):
        if s.fence_job is not None:
            return s
        if s.is_chance():
            outs = [o for o, _ in s.chance_outcomes()]
            rolls = [o for o in outs if isinstance(o, Roll) and "1 fence" in o.king]
            s = s.apply(rolls[0] if rolls else outs[0])
            continue
        acts = s.legal_actions()
        pick = next((a for a in acts if isinstance(a, UseDie) and "fence" in a.die), None)
        if pick is None:
            pick = next((a for a in acts if isinstance(a, KeepDice)), acts[-1])
        s = s.apply(pick)
    pytest.fail("no fence job reached")


def marks(svg_html):
    """{label: title text} of the numbered marks in the picture."""
    return dict(re.findall(r'data-label="([^"]+)"><title>[^:<]+: ([^<]+)</title>', svg_html))


def check_picture(state):
    acts = state.legal_actions()
    got = state.action_picture(acts)
    assert got is not None
    pic, labels = got
    assert len(labels) == len(acts)
    fence = [(a, lab) for a, lab in zip(acts, labels) if type(a) in FENCE_MOVES]
    assert fence and all(lab for _, lab in fence)
    assert len({lab for _, lab in fence}) == len(fence)          # one label per move
    assert all(lab == "" for a, lab in zip(acts, labels) if type(a) not in FENCE_MOVES)
    drawn = marks(pic)
    assert set(drawn) == {lab for _, lab in fence}
    for a, lab in fence:                                  # each label sits on its border
        assert pasture.edge_words(a.edge) in drawn[lab]
    return pic, labels


def test_fence_job_picture_labels_every_place_and_lift_move():
    s = start_fence_job()
    acts = s.legal_actions()
    assert any(isinstance(a, PlaceFence) for a in acts) and EndFences() in acts
    pic, labels = check_picture(s)
    assert "where a new fence can be placed" in pic
    assert any(isinstance(a, LiftFence) for a in acts) == ("can be lifted" in pic)
    # kinds told apart by shape and words, in colour-blind-safe colours
    assert SLOT_COLOUR in pic and "<circle" in pic and "stroke-dasharray" in pic
    if any(isinstance(a, LiftFence) for a in acts):
        assert LIFT_COLOUR in pic and "<rect" in pic
    assert 'role="img"' in pic and "<title>" in pic                # a text alternative


def test_put_the_lifted_fence_picture():
    s = start_fence_job()
    lift = next(a for a in s.legal_actions() if isinstance(a, LiftFence))
    s = s.apply(lift)
    assert all(isinstance(a, PutFence) for a in s.legal_actions())
    pic, labels = check_picture(s)
    assert "where the lifted fence can be put" in pic
    assert pasture.edge_words(lift.edge) in pic                   # where it came from


def test_no_picture_outside_a_fence_decision():
    s = start_fence_job().apply(EndFences())
    if not s.is_chance() and not s.is_terminal():
        assert s.action_picture(s.legal_actions()) is None
    g = kingdoms.game("horse", players=2)
    assert g.initial_state().action_picture(()) is None


def test_the_players_view_draws_the_same_picture_and_no_hidden_card():
    s = start_fence_job()
    p = s.current_player()
    acts = s.legal_actions()
    assert s.view(p).action_picture(acts) == s.action_picture(acts)   # fences are public
    pic, _ = s.view(1 - p).action_picture(acts)
    for card in s.farms[p].hand:
        assert card not in pic


def test_stepper_shows_the_fence_picture_and_numbers_the_buttons():
    W = pytest.importorskip("ipywidgets")
    from kingdoms.widgets import Stepper
    s = start_fence_job()
    st = Stepper(s)
    pics = [w for w in with_class(st, "kingdoms-action-picture")]
    assert len(pics) == 1 and isinstance(pics[0], W.HTML)
    acts = s.legal_actions()
    _, labels = s.action_picture(acts)
    buttons = {b.description: b for b in with_class(st, "kingdoms-action")}
    for a, lab in zip(acts, labels):
        want = f"{lab} · {a}" if lab else str(a)
        assert want in buttons
    assert set(marks(pics[0].value)) == {lab for lab in labels if lab}
    # the button numbered 2 takes the move drawn as 2
    two = acts[labels.index("2")]
    buttons[f"2 · {two}"].click()
    assert st.state == s.apply(two)
    # after the fence job, no picture
    assert st.choose(EndFences())
    assert with_class(st, "kingdoms-action-picture") == []


def with_class(widget, css):
    out = []
    if css in getattr(widget, "_dom_classes", ()):
        out.append(widget)
    for child in getattr(widget, "children", ()):
        out.extend(with_class(child, css))
    return out
