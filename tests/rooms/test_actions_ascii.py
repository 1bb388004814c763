"""Room socket numbers are ASCII digits only (issue 12, section 3): int() reads "٣" and
"３" as 3, so a hostile client's hint limit or cell went through as a number."""

import pytest

from rooms import actions as A


def test_room_numbers_are_ascii_only():
    """int() reads "٣" as 3: the room parser must not (issue 12, section 3)."""
    for text in ("٣", "３", "²", "1_0"):
        with pytest.raises(A.MalformedMessage, match="must be a number"):
            A.parse_message({"action": "enter", "cell": text, "digit": "1"})
        with pytest.raises(A.MalformedMessage, match="must be a number"):
            A.parse_message({"action": "rules", "level": "easy", "preset": "custom", "hint_limit": text})
    assert A.parse_message({"action": "enter", "cell": " 4 ", "digit": 7}) == (A.Enter(4, 7), "")
