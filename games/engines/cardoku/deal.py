"""Seeded shuffles and deal codes.

A deal is fully determined by its seed, an integer in ``range(SEED_LIMIT)``
(40 bits). The deal code is the same number written as 8 characters of Crockford's
base 32 (digits and letters without I, L, O, U), e.g. ``"3KX9-2QPA"`` style without
the dash. Codes are read case-insensitively; dashes and spaces are ignored, and the
look-alikes O -> 0 and I/L -> 1 are forgiven.

The shuffle is a Fisher-Yates shuffle driven by ``random.Random(seed).getrandbits``,
written out here so the order never depends on how a future Python implements
``random.shuffle``.
"""

from __future__ import annotations

import random

from .cards import DEAL_CARDS, Card
from .errors import BadDealCode

SEED_BITS = 40
SEED_LIMIT = 1 << SEED_BITS
CODE_LENGTH = 8
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DECODE = {ch: i for i, ch in enumerate(CODE_ALPHABET)} | {"O": 0, "I": 1, "L": 1}


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a valid deal seed, else raise :class:`BadDealCode`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise BadDealCode(f"A deal seed must be a whole number from 0 to {SEED_LIMIT - 1}.")
    return seed


def random_seed(rng: random.Random) -> int:
    """A fresh deal seed drawn from the given generator (pass ``random.SystemRandom()``)."""
    return rng.getrandbits(SEED_BITS)


def _randbelow(rng: random.Random, n: int) -> int:
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def seeded_shuffle(items, rng: random.Random) -> list:
    """Fisher-Yates shuffle of a copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal(seed: int) -> tuple[Card, ...]:
    """The 45 cards to draw, in order, for this seed. Same seed, same order."""
    check_seed(seed)
    return tuple(seeded_shuffle(DEAL_CARDS, random.Random(seed)))


def deal_code(seed: int) -> str:
    """The player-friendly code of a seed: 8 characters, e.g. ``"0000001Z"``."""
    check_seed(seed)
    chars = []
    for _ in range(CODE_LENGTH):
        seed, digit = divmod(seed, 32)
        chars.append(CODE_ALPHABET[digit])
    return "".join(reversed(chars))


def parse_deal_code(code: str) -> int:
    """The seed of a deal code (case-insensitive). Raises :class:`BadDealCode`."""
    if not isinstance(code, str):
        raise BadDealCode("A deal code is 8 letters and digits, like 7K3M9QXA.")
    text = code.strip().upper().replace("-", "").replace(" ", "")
    if len(text) != CODE_LENGTH:
        raise BadDealCode(
            f"A deal code has {CODE_LENGTH} letters and digits; {code.strip()!r} has {len(text)}."
        )
    seed = 0
    for ch in text:
        if ch not in _DECODE:
            raise BadDealCode(f"{ch!r} cannot appear in a deal code (letters U and symbols never do).")
        seed = seed * 32 + _DECODE[ch]
    return seed
