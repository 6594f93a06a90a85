"""Ten Characters in German (issue 31): names from the German rules, an illegal move's reason."""
from __future__ import annotations

import pytest

import kingdoms
from kingdoms.core.i18n import using
from kingdoms.core.protocol import IllegalAction
from kingdoms.ten_characters.rules import Choose

from german import german_scan


def test_an_illegal_choice_says_why_in_german_with_the_rulebook_name():
    g = kingdoms.game("ten_characters", players=3)
    state = g.position(hands=[["dragon"] * 6, ["king"] * 6, ["queen"] * 6])
    with using("de"):
        with pytest.raises(IllegalAction) as err:
            state.apply(Choose(0, "jester"))
        reason = state._why_illegal(Choose(0, "jester"))   # the game's part of the message
        picture = str(state)
    german_scan([reason, picture], "ten_characters illegal move")
    assert "Hofnarr" in reason and reason in str(err.value) and "Drache" in picture
