"""Numbers in form fields and socket messages: ASCII digits only, in one place.

`str.isdigit()` is true for "²", "٣" and full-width "３", and `int()` accepts some of them
("٣" is 3, "３" is 3) and raises on others ("²"): a check with one and a conversion with
the other turned hostile input into 500s. Every game's parser reads numbers through here
and turns `None` into its own "malformed" error (a 400 with a clear message).
"""

import re

from games.engines.text import Text, _

# The fields parsers name in their messages, marked for the catalog (say() translates them).
FIELDS = (_("cell"), _("digit"), _("row"), _("column"), _("line"), _("step"), _("version"))
_ASCII_NUMBER = re.compile(r"[0-9]{1,9}")


def ascii_int(value: object) -> int | None:
    """The whole number `value` spells in ASCII digits (spaces around it allowed), else
    None. An int passes through (socket messages are JSON); a bool is not a number."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip(" \t")
    return int(text) if _ASCII_NUMBER.fullmatch(text) else None


def ascii_int_in(value: object, low: int, high: int) -> int | None:
    """`ascii_int(value)` if it lies in low..high, else None."""
    number = ascii_int(value)
    return number if number is not None and low <= number <= high else None


def number_field(value: object, name: str, low: int, high: int, error: type[Exception]) -> int:
    """`ascii_int(value)` in low..high, else `error` saying whether the field is no number
    or out of range (Sudoku moves and room messages)."""
    number = ascii_int(value)
    if number is None:
        raise error(_("The %(name)s must be a number.", name=Text(name)))
    if not low <= number <= high:
        raise error(_("The %(name)s must be between %(low)s and %(high)s.", name=Text(name), low=low, high=high))
    return number


def whole_number(value: object, name: str, low: int, high: int, error: type[Exception]) -> int:
    """`ascii_int_in(value, low, high)`, else `error` with the range (Cardoku and Domino)."""
    number = ascii_int_in(value, low, high)
    if number is None:
        raise error(
            _("The %(name)s must be a whole number from %(low)s to %(high)s.", name=Text(name), low=low, high=high)
        )
    return number
