"""Room socket numbers are ASCII digits only (issue 12, section 3): int() reads "٣" and
"３" as 3, so a hostile client's hint limit or cell went through as a number."""

import pytest

from games.engines.errors import Malformed
from games.sudoku.play import Enter
from rooms import actions as A
from rooms.gametypes import GAME_TYPES

SHOWDOWN = GAME_TYPES["showdown"]


def test_room_numbers_are_ascii_only():
    """int() reads "٣" as 3: the room parser must not (issue 12, section 3)."""
    for text in ("٣", "３", "²", "1_0"):
        with pytest.raises(A.MalformedMessage, match="must be a number"):
            A.parse_message({"action": "enter", "cell": text, "digit": "1"}, SHOWDOWN)
        with pytest.raises(A.MalformedMessage, match="must be a number"):
            A.parse_message({"action": "rules", "level": "easy", "preset": "custom", "hint_limit": text}, SHOWDOWN)
    assert A.parse_message({"action": "enter", "cell": " 4 ", "digit": 7}, SHOWDOWN) == (A.GameMove(Enter(4, 7)), "")


@pytest.mark.parametrize(
    "field, message",
    [
        ({"hint_limit": "2"}, "Hint limit must be one of"),
        ({"hint_limit": "9"}, "hint limit must be between"),
        ({"mistake_cap": "8"}, "mistake cap must be between"),
        ({"penalty": "harsh"}, "Penalty must be none"),
    ],
)
def test_each_bad_rule_names_its_own_field(field, message):
    """A refused custom rule says which field is wrong (rule errors are ValueErrors too:
    catching ValueError around all of them once answered every one with the penalty's)."""
    with pytest.raises(Malformed, match=message):
        A.parse_message({"action": "rules", "level": "easy", "preset": "custom", **field}, SHOWDOWN)
