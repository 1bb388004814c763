"""games/common/numbers.py: every number a game reads from a form is ASCII digits, or refused."""

import string

from hypothesis import given
from hypothesis import strategies as st

from games.common.numbers import ascii_int, ascii_int_in

# Decimal digits of every script, full-width digits, superscripts and other numerals
# (Unicode categories Nd and No): isdigit() is true for many of them, int() for some.
unicode_digits = st.characters(categories=["Nd", "No"])
numberish = st.lists(st.one_of(unicode_digits, st.sampled_from("0123456789 \t+-_.,")), max_size=12).map("".join)


@given(numberish)
def test_only_ascii_digits_are_numbers(text):
    number = ascii_int(text)
    core = text.strip(" \t")
    if core and len(core) <= 9 and all(ch in string.digits for ch in core):
        assert number == int(core)
    else:
        assert number is None


@given(st.integers(min_value=0, max_value=10**9 - 1))
def test_every_ascii_number_reads_back(n):
    assert ascii_int(str(n)) == n == ascii_int(f" {n}\t") and ascii_int(n) == n


def test_known_traps():
    for text in ("²", "３", "٣", "𝟘", "7²", "1_0", "+1", "-1", "1e2", "0x10", "", " ", "1" * 10):
        assert ascii_int(text) is None, text
    assert ascii_int(True) is None and ascii_int(None) is None and ascii_int(1.0) is None
    assert ascii_int_in("9", 1, 9) == 9 and ascii_int_in("10", 1, 9) is None and ascii_int_in("²", 0, 9) is None
