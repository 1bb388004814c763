"""Handles (docs/rules.md 11): the name in a profile's address, /u/<handle>/, chosen once.

A handle is 3-20 of a-z, 0-9 and _, compared without case. What a player types is folded
first: NFKC (full-width and styled letters become plain ones), lower case, and every letter
that looks like a Latin one in another script (Cyrillic "а", Greek "ο") becomes that Latin
letter, from Unicode's confusables table (confusable_homoglyphs), so "аna" with a Cyrillic
a is "ana" and cannot stand beside it. Pure: no Django.
"""

import re
import unicodedata

from confusable_homoglyphs import confusables

MIN_LENGTH, MAX_LENGTH = 3, 20
SHAPE = re.compile(rf"[a-z0-9_]{{{MIN_LENGTH},{MAX_LENGTH}}}")
# Not anyone's: the site's own words, so nobody poses as it.
RESERVED = frozenset({"admin", "sudoku", "showdown", "support", "staff", "moderator", "system", "help", "root"})


class BadHandle(ValueError):
    pass


def _latin(ch: str) -> str:
    """The ASCII letter or digit `ch` looks like, else `ch` itself."""
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry["homoglyphs"]:
            if glyph["c"].isascii() and glyph["c"].isalnum():
                return glyph["c"].lower()
    return ch


def fold(text: str) -> str:
    """The handle `text` stands for: the key handles are unique by."""
    text = unicodedata.normalize("NFKC", text.strip().lstrip("@")).casefold()
    return "".join(_latin(ch) for ch in text)


def clean(text: str) -> str:
    """The folded handle, or BadHandle with what is wrong."""
    handle = fold(text)
    if not SHAPE.fullmatch(handle):
        raise BadHandle(f"{MIN_LENGTH}-{MAX_LENGTH} letters a-z, digits or _")
    if handle in RESERVED or handle.startswith("player"):
        raise BadHandle("reserved")
    return handle
