"""The widgets on every registered game, with no game-specific code.

Games whose module does not import yet are skipped with the import error as reason.
"""
from __future__ import annotations

import random

import pytest

import kingdoms
from kingdoms.core.protocol import CHANCE, TERMINAL, TooManyOutcomes

pytest.importorskip("ipywidgets")
from kingdoms.widgets import Stepper, TreeExplorer  # noqa: E402


def game_or_skip(name):
    try:
        return kingdoms.game(name)
    except (ImportError, AttributeError, NotImplementedError) as e:
        pytest.skip(f"{name}: the game's module does not import yet ({type(e).__name__}: {e})")


def with_class(widget, css):
    out = [widget] if css in getattr(widget, "_dom_classes", ()) else []
    for child in getattr(widget, "children", ()):
        out.extend(with_class(child, css))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", kingdoms.games())
def test_stepper_clicks_through_the_game(name):
    game = game_or_skip(name)
    s = Stepper(game, seed=1)
    start = s.state
    assert start.current_player() >= 0, "the Stepper opens at the first decision"
    if game.hidden_information:
        assert s.perspective != "all", "a hidden-information game opens in a player's view"
    rng = random.Random(f"widgets/{name}")
    for _ in range(40):                 # click what a student would click
        if s.state.is_terminal():
            break
        before = s.state
        if before.current_player() == CHANCE:
            outcomes = with_class(s, "kingdoms-outcome")
            if outcomes and rng.random() < 0.5:
                rng.choice(outcomes).click()
            else:
                with_class(s, "kingdoms-roll")[0].click()
        else:
            buttons = with_class(s, "kingdoms-action")
            assert buttons, f"no action button at a decision of {name}"
            acts = before.legal_actions()
            viewer = s.viewer()                          # labels of State.action_picture
            drawn = (before if viewer == "all" else before.view(viewer)).action_picture(acts)
            marks = drawn[1] if drawn else ("",) * len(acts)
            labels = [f"{m} · {a}" if m else str(a) for a, m in zip(acts, marks)]
            assert [b.description for b in buttons] == labels[:len(buttons)]
            filters = with_class(s, "kingdoms-filter")
            if filters:                                  # many choices: narrow, then click
                pick = rng.choice(labels)
                filters[0].value = pick
                visible = [b for b in buttons if b.layout.display != "none"]
                assert pick in [b.description for b in visible]
                next(b for b in visible if b.description == pick).click()
            else:
                rng.choice(buttons).click()
        assert s.message == "", s.message
        assert s.states[-2] == before and s.state.history()[-1] == s.history[-1]
        viewer = s.viewer()
        shown = s.state if viewer == "all" else s.state.view(viewer)
        assert s._state_html.value == shown._repr_html_()
        assert "Chance event" not in s._status.value
    steps = s.index
    assert steps > 0
    for k in range(game.players):                 # every perspective renders
        s.perspective = k
        assert s._state_html.value == s.state.view(k)._repr_html_()
    s.perspective = "all"
    assert s._state_html.value == s.state._repr_html_()
    while s.undo():
        pass
    assert s.state == start and s._state_html.value == start._repr_html_()
    s.goto(steps)
    assert len(s.history) == steps


@pytest.mark.parametrize("name", kingdoms.games())
def test_bots_play_the_game_to_the_end(name):
    game = game_or_skip(name)
    from kingdoms.core.play import random_policy
    s = Stepper(game, seats=[random_policy] * game.players, seed=2)
    s.play_until_my_turn()                          # no human seat: to the end
    assert s.state.is_terminal(), s.message
    assert "Shares of the win" in s._status.value


@pytest.mark.slow           # make test only: keeps make test-fast under 2 minutes
@pytest.mark.parametrize("name", kingdoms.games())
def test_open_tree_at_the_start_never_crashes(name):
    game = game_or_skip(name)
    s = Stepper(game, perspective="all")
    tree = s.open_tree(depth=1)
    if tree is None:                               # shown as a message instead
        assert "Cannot draw the tree" in s._tree_box.children[0].value
    else:
        assert isinstance(tree, TreeExplorer) and tree.root == s.state
