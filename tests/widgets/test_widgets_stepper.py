"""The Stepper through its programmatic API and its buttons, on the toy game."""
from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction

import pytest

import kingdoms
from kingdoms.core.play import first_policy
from kingdoms.core.protocol import CHANCE, TERMINAL, TooManyOutcomes

W = pytest.importorskip("ipywidgets")
from kingdoms.widgets import Stepper, TreeExplorer  # noqa: E402
from toygame import Deal, HighCard, HighCardState, Redraw, Stand  # noqa: E402


def with_class(widget, css):
    """Every descendant widget carrying the CSS class ``css``."""
    out = []
    if css in getattr(widget, "_dom_classes", ()):
        out.append(widget)
    for child in getattr(widget, "children", ()):
        out.extend(with_class(child, css))
    return out


def game():
    return kingdoms.game("highcard", players=2)


def dealt(a=1, b=3):
    return game().initial_state().apply(Deal(a)).apply(Deal(b))


def test_import_kingdoms_does_not_import_ipywidgets():
    code = "import sys, kingdoms; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_is_a_displayable_ipywidget():
    s = Stepper(game(), show_setup=True)
    assert isinstance(s, W.VBox)
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "kingdoms-stepper" in s._dom_classes


def test_starts_from_game_state_or_name():
    assert Stepper(game(), show_setup=True).state == game().initial_state()
    assert Stepper(dealt()).state == dealt()
    assert Stepper("highcard", show_setup=True).state == game().initial_state()
    with pytest.raises(TypeError):
        Stepper(42)


def test_chance_node_lists_exact_outcomes_and_a_roll_button():
    s = Stepper(game(), show_setup=True, perspective="all")      # the teacher's view
    labels = [b.description for b in with_class(s, "kingdoms-outcome")]
    assert labels == ["deal a 1 (probability 1/4)", "deal a 2 (probability 1/4)",
                      "deal a 3 (probability 1/2)"]
    assert len(with_class(s, "kingdoms-roll")) == 1
    assert with_class(s, "kingdoms-action") == []     # nobody decides at a chance node


def test_teacher_picks_the_outcome_by_hand():
    s = Stepper(game(), show_setup=True, perspective="all")
    three = [b for b in with_class(s, "kingdoms-outcome") if b.description.startswith("deal a 3")]
    three[0].click()
    assert s.state == game().initial_state().apply(Deal(3))
    assert s.history == ((CHANCE, Deal(3)),)


@pytest.mark.slow
def test_roll_is_seeded():
    def rolls(seed):
        s = Stepper(game(), show_setup=True, seed=seed)
        s.roll()
        s.roll()
        return s.history
    assert rolls(7) == rolls(7)
    # the roll draws from the state's own sampler with random.Random(seed)
    rng = random.Random(7)
    st = game().initial_state()
    first = st.sample_chance(rng)
    second = st.apply(first).sample_chance(rng)
    assert rolls(7) == ((CHANCE, first), (CHANCE, second))
    assert len({rolls(seed) for seed in range(30)}) > 1


def test_action_buttons_are_the_legal_actions_in_rule_language():
    s = Stepper(dealt())
    buttons = with_class(s, "kingdoms-action")
    assert [b.description for b in buttons] == ["stand", "redraw"]
    before = s._state_html.value
    buttons[0].click()
    assert s.state == dealt().apply(Stand())
    assert s.state.current_player() == 1
    assert s._state_html.value != before


def test_state_html_is_the_states_render():
    s = Stepper(dealt(), perspective="all")
    assert s._state_html.value == dealt()._repr_html_()
    assert "kingdoms-state" in s._state_html._dom_classes


def test_illegal_action_is_a_message_and_changes_nothing():
    s = Stepper(game(), show_setup=True)
    assert s.choose(Stand()) is False            # a decision at a chance node
    assert s.state == game().initial_state() and s.index == 0
    assert "cannot happen" in s.message
    assert "cannot happen" in s._msg.value
    # a state where redraw breaks a rule: the rule's words are shown
    st = dealt()
    st = st.apply(Redraw()).apply(Deal(2)).apply(Redraw()).apply(Deal(3))
    assert st.is_terminal()
    s2 = Stepper(st)
    assert not s2.choose(Redraw()) and "over" in s2.message
    s3 = Stepper(dealt())
    assert s3.choose("no such move") is False and "no such move" in s3.message
    assert s3.choose("redraw") is True and s3.message == ""


def test_why_illegal_reason_is_shown():
    # deck empty: redraw is not legal, and the game's rule text is shown
    g = kingdoms.game("highcard", players=2, deck=(1, 2))
    st = g.initial_state().apply(Deal(1)).apply(Deal(2))
    s = Stepper(st)
    assert not s.choose(Redraw())
    assert "only while the deck has cards" in s.message
    assert s.state == st


def test_undo_redo_goto_and_truncation():
    s = Stepper(game(), show_setup=True)
    s.choose(Deal(1)); s.choose(Deal(3)); s.choose(Stand())
    end = s.state
    assert s.index == 3 and len(s.states) == 4
    assert s.undo() and s.index == 2
    assert s.state == game().initial_state().apply(Deal(1)).apply(Deal(3))
    assert s.redo() and s.state == end
    assert not s.redo()
    assert s.goto(0) and s.state == game().initial_state() and s.history == ()
    assert not s.undo()
    assert not s.goto(9) and "no step 9" in s.message and s.index == 0
    s.goto(2)
    s.choose(Redraw())                          # a new branch drops the old future
    assert len(s.states) == 4 and s.state == s.states[2].apply(Redraw())
    assert not s.redo()


def test_undo_and_redo_buttons_and_history_slider():
    s = Stepper(game(), show_setup=True)
    s.choose(Deal(2))
    s.choose(Deal(1))
    with_class(s, "kingdoms-undo")[0].click()
    assert s.index == 1
    with_class(s, "kingdoms-redo")[0].click()
    assert s.index == 2
    slider = with_class(s, "kingdoms-history")[0]
    assert (slider.min, slider.max, slider.value) == (0, 2, 2)
    slider.value = 0                            # time travel by the slider
    assert s.index == 0 and s.state == game().initial_state()
    assert with_class(s, "kingdoms-undo")[0].disabled


def test_perspective_shows_the_players_view_and_hides_dealt_cards_in_the_log():
    s = Stepper(game(), show_setup=True, perspective="all")
    s.choose(Deal(3)); s.choose(Deal(1))
    assert "deal a 3" in s._log.value
    s.perspective = 1
    assert s._state_html.value == s.state.view(1)._repr_html_()
    assert "deal a 3" not in s._log.value and "deal a ?" in s._log.value
    s.perspective = "all"
    assert s._state_html.value == s.state._repr_html_()


def test_bot_seats_play_until_my_turn_and_to_end():
    s = Stepper(game(), show_setup=True, seats={1: first_policy}, seed=3)
    n = s.play_until_my_turn()                  # two deals, then player 0 decides
    assert n == 2 and s.state.current_player() == 0
    s.choose(Stand())
    s.play_until_my_turn()                      # bot stands, game ends
    assert s.state.is_terminal()
    assert s.history[-1] == (1, Stand())
    s2 = Stepper(game(), show_setup=True, seats=[None, first_policy], seed=3)
    s2.play_to_end()
    assert s2.state.is_terminal()
    with pytest.raises(ValueError):
        Stepper(game(), show_setup=True, seats={5: first_policy})


def test_play_to_end_is_bounded():
    s = Stepper(game(), show_setup=True, seed=1, max_steps=2)
    assert s.play_to_end() == 2
    assert "Stopped after 2 steps" in s.message


def test_autoplay_lets_bots_answer():
    s = Stepper(dealt(), seats={1: first_policy}, autoplay=True)
    s.choose(Stand())
    assert s.state.is_terminal() and s.history[-1] == (1, Stand())


def test_many_choices_are_buttons_with_a_filter_box():
    s = Stepper(dealt(), max_buttons=1)
    buttons = with_class(s, "kingdoms-action")
    assert [b.description for b in buttons] == ["stand", "redraw"]   # still buttons
    search = with_class(s, "kingdoms-filter")[0]
    search.value = "redr"
    assert [b.layout.display for b in buttons] == ["none", None]
    search.value = ""
    assert [b.layout.display for b in buttons] == [None, None]
    buttons[1].click()
    assert s.state == dealt().apply(Redraw())
    assert with_class(Stepper(dealt()), "kingdoms-filter") == []   # few moves: no box


@dataclass(frozen=True)
class Shuffle(HighCardState):
    """High Card whose deal is 'too large to list' (sampled only)."""

    def _chance_outcomes(self):
        if not self.hands:
            raise TooManyOutcomes("a full shuffle", 24)
        return super()._chance_outcomes()

    def _sample_chance(self, rng):
        return Deal(rng.choice(self.deck))

    def _is_possible_outcome(self, outcome):
        return isinstance(outcome, Deal) and outcome.card in self.deck


def test_too_many_outcomes_offers_only_the_roll():
    st = Shuffle(game(), hands=(), deck=(1, 2, 3, 3), to_act=0, redrawing=False)
    s = Stepper(st, seed=0)
    assert with_class(s, "kingdoms-outcome") == []
    assert len(with_class(s, "kingdoms-roll")) == 1
    note = "".join(w.value for w in s._choices.children[1:] if isinstance(w, W.HTML))
    assert "24 possible outcomes" in note and "sample_chance" not in note
    s.perspective = "all"
    tree = s.open_tree()                         # a tree at such a node: a note, no crash
    assert "24" in tree.note and not tree.values   # sampled only: no exact values
    assert s.roll() and len(s.history) == 1
    assert s.state.hands in ((1,), (2,), (3,))


def test_open_tree_here():
    s = Stepper(dealt(), perspective="all")
    tree = s.open_tree()
    assert isinstance(tree, TreeExplorer) and tree.root == dealt()
    assert tree in s._tree_box.children
    s.close_tree()
    assert s._tree_box.children == ()


def test_terminal_state_shows_shares():
    s = Stepper(dealt(1, 3).apply(Stand()).apply(Stand()))
    assert s.state.current_player() == TERMINAL
    assert "Shares of the win: Player 1 0, Player 2 1" in s._status.value
    assert with_class(s, "kingdoms-play-to-end")[0].disabled


def test_a_broken_bot_is_reported_not_raised():
    def broken(state, rng):
        raise RuntimeError("bot bug")

    def cheat(state, rng):
        return Redraw() if state.deck == () else Deal(1)

    s = Stepper(dealt(), seats={0: broken})
    assert s.play_to_end() == 0 and "bot bug" in s.message and s.index == 0
    s2 = Stepper(dealt(), seats={0: cheat})
    assert s2.play_to_end() == 0 and "illegal action" in s2.message and s2.state == dealt()


def test_short_plain_text_repr():
    s = Stepper(game(), show_setup=True)
    assert repr(s) == "Stepper(High Card, step 0 of 0: chance decides what happens next)"
    assert s._repr_mimebundle_()["text/plain"] == repr(s)


# ---- a Stepper for a class -------------------------------------------------------------

def test_opens_at_the_first_decision_with_a_seeded_set_up():
    s = Stepper(game(), seed=4)
    assert s.state.current_player() == 0 and s.index == 0
    assert len(s.setup) == 2 and all(who == CHANCE for who, _ in s.setup)
    assert s.state.history() == s.setup                    # the deals were really played
    assert Stepper(game(), seed=4).setup == s.setup         # same seed, same deal
    assert "set-up by chance (2 steps, deal #4)" in s._log.value
    assert with_class(s, "kingdoms-action")                 # a decision to make at once
    assert Stepper(game(), seed=4, show_setup=True).state == game().initial_state()
    assert Stepper(dealt()).setup == ()                     # a given state: kept as is


@dataclass(frozen=True)
class SecretHighCard(type(game())):
    hidden_information = True


@dataclass(frozen=True)
class OpenHighCard(type(game())):
    hidden_information = False


def test_hidden_information_opens_in_the_human_seats_view():
    g = SecretHighCard()
    s = Stepper(g, seats={1: first_policy}, seed=1)
    assert s.perspective == 0 and s.viewer() == 0
    assert s._state_html.value == s.state.view(0)._repr_html_()
    two = Stepper(g, seed=1)                                # two humans: who is to move
    assert two.perspective == "turn" and two.viewer() == 0
    two.choose(Stand())
    assert two.viewer() == 1 and two._state_html.value == two.state.view(1)._repr_html_()
    assert Stepper(OpenHighCard()).perspective == "all"     # nothing hidden: everything


def test_a_bot_seat_sees_only_its_view_in_a_hidden_information_game():
    seen = []

    def spy(state, rng):
        seen.append(state)
        return state.legal_actions()[0]
    g = SecretHighCard()
    start = g.initial_state().apply(Deal(1)).apply(Deal(3))
    s = Stepper(start, seats={0: spy}, seed=1)
    s.play_to_end()
    assert seen and all(v == start.view(0) for v in seen[:1])
    assert all(kingdoms.core.HIDDEN in v.hands for v in seen)     # never the other card
    open_seen = []
    Stepper(OpenHighCard().initial_state().apply(Deal(1)).apply(Deal(3)),
            seats={0: lambda st, rng: open_seen.append(st) or st.legal_actions()[0]},
            seed=1).play_to_end()
    assert open_seen and all(kingdoms.core.HIDDEN not in v.hands for v in open_seen)


def test_seats_are_chosen_by_name_or_in_the_widget():
    s = Stepper(dealt(), seats={1: "random"}, seed=3)
    seats = with_class(s, "kingdoms-seat")
    assert [d.value for d in seats] == ["", "random"]
    assert ("bot (random)", "random") in seats[0].options
    seats[0].value = "random"                               # Player 1 becomes a bot
    assert 0 in s.seats and "Player 1: bot (random)" in s._status.value
    assert s.play_until_my_turn() > 0 and s.state.is_terminal()
    seats[0].value = ""
    assert 0 not in s.seats
    s.set_seat(1, None)
    assert s.seats == {} and seats[1].value == ""
    with pytest.raises(ValueError, match="no player called 'genius'"):
        Stepper(dealt(), seats={1: "genius"})


def test_status_lines_say_what_happens_never_just_chance_event():
    s = Stepper(game(), show_setup=True, perspective="all")
    status = s._status.value
    assert "Chance event" not in status
    assert "one of 3 possible outcomes" in status and "deal a 1" in status
    s.choose(Deal(1)); s.choose(Deal(1))
    s.choose(Redraw())                           # the deck holds 2, 3, 3
    assert "one of 2 possible outcomes" in s._status.value


def test_moves_are_buttons_grouped_by_kind():
    s = Stepper(dealt())
    groups = with_class(s, "kingdoms-choice-group")
    assert [[b.description for b in g.children] for g in groups] == [["stand"], ["redraw"]]
    text = "".join(w.value for w in with_class_type(s, W.HTML))
    assert "Stand" in text and "Redraw" in text             # each group named


def with_class_type(widget, cls):
    out = [widget] if isinstance(widget, cls) else []
    for child in getattr(widget, "children", ()):
        out.extend(with_class_type(child, cls))
    return out


def test_no_emoji_carries_meaning_alone():
    s = Stepper(game(), show_setup=True)
    for b in with_class_type(s, W.Button):
        words = "".join(ch for ch in b.description if ch.isalpha())
        assert len(words) >= 3, f"button {b.description!r} needs words"


def test_the_tree_is_not_opened_in_a_players_view_of_hidden_cards():
    s = Stepper(SecretHighCard(), seed=1)
    assert s.viewer() == 0 and with_class(s, "kingdoms-open-tree")[0].disabled
    assert s.open_tree() is None and "everything (teacher)" in s._tree_box.children[0].value
    s.perspective = "all"
    assert not with_class(s, "kingdoms-open-tree")[0].disabled
    assert isinstance(s.open_tree(), TreeExplorer)


# ------------------------------------------------- State.action_picture (the moves drawn)

@dataclass(frozen=True)
class Pictured(HighCardState):
    """High Card whose moves are drawn: a picture labels each move."""

    def action_picture(self, actions):
        labels = tuple("S" if isinstance(a, Stand) else "R" for a in actions)
        return (f"<svg role='img' aria-label='table'><text>{' '.join(labels)}</text></svg>",
                labels)


@dataclass(frozen=True)
class BrokenPicture(HighCardState):
    def action_picture(self, actions):
        return "<svg/>", ("only one label",) * (len(actions) + 1)


def like(cls, state):
    return cls(state.game, hands=state.hands, deck=state.deck, to_act=state.to_act,
               redrawing=state.redrawing)


def test_action_picture_default_is_none():
    assert dealt().action_picture(dealt().legal_actions()) is None
    s = Stepper(dealt())
    assert with_class(s, "kingdoms-action-picture") == []
    assert [b.description for b in with_class(s, "kingdoms-action")] == ["stand", "redraw"]


def test_stepper_shows_the_action_picture_and_its_labels_on_the_buttons():
    s = Stepper(like(Pictured, dealt()), max_buttons=1)
    pics = with_class(s, "kingdoms-action-picture")
    assert len(pics) == 1 and "S R" in pics[0].value
    buttons = with_class(s, "kingdoms-action")
    assert [b.description for b in buttons] == ["S · stand", "R · redraw"]
    text = "".join(w.value for w in with_class_type(s, W.HTML))
    assert "Stand" in text and "Redraw" in text             # group headings unchanged
    search = with_class(s, "kingdoms-filter")[0]
    search.value = "r ·"                                    # the filter finds labels
    assert [b.layout.display for b in buttons] == ["none", None]
    buttons[1].click()
    assert s.state.redrawing                                # the labelled move was taken


def test_a_malformed_action_picture_is_a_note_not_a_crash():
    s = Stepper(like(BrokenPicture, dealt()))
    pics = with_class(s, "kingdoms-action-picture")
    assert pics == []
    assert "picture of the moves failed" in "".join(
        w.value for w in with_class_type(s, W.HTML))
    assert [b.description for b in with_class(s, "kingdoms-action")] == ["stand", "redraw"]
    assert s.choose("stand")


def test_a_wrong_seat_is_named_as_people_count_players():
    """Seats are given by player number (0, 1, ...); messages name the player as people
    do ("Player 2's seat"), never "seat 1", and list the numbers with their names."""
    game = kingdoms.game("woods", players=2)
    with pytest.raises(ValueError, match=r"^Player 1's seat: King of the Woods has no player "
                                         r"called 'nope'; its players are: random, mcts"):
        Stepper(game, seats=["nope", "random"])
    with pytest.raises(ValueError, match=r"^Stepper\(seats\): seats must be one of 0 "
                                         r"\(Player 1\), 1 \(Player 2\); not 5$"):
        Stepper(game, seats={5: "random"})
    with pytest.raises(TypeError, match=r"^Player 1's seat: a policy is a callable"):
        Stepper(game, seats=[3])
    st = Stepper(game)
    with pytest.raises(ValueError, match=r"^set_seat\(player\): player must be one of 0 "
                                         r"\(Player 1\), 1 \(Player 2\); not 2$"):
        st.set_seat(2, "random")
    with pytest.raises(ValueError, match=r"^Player 2's seat: King of the Woods has no player "
                                         r"called 'x'"):
        st.set_seat(1, "x")
    assert st.seats == {}                   # nothing changed
