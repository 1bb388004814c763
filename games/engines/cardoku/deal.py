"""Seeded shuffles and deal codes.

A deal is fully determined by its seed. Two kinds:

- a *classic* seed, an integer in ``range(SEED_LIMIT)`` (40 bits): solo deals. Its code
  is 8 characters of Crockford's base 32 (digits and letters without I, L, O, U).
- a *long* seed, ``LONG_SEED_FLAG | bits`` for 128 random bits: duel decks. Nine visible
  cards single out a 40-bit seed (a brute-force matcher checks 270,000 seeds a second),
  so a duel's deck must not be guessable from what its players see. Its code has 26
  characters (130 bits; the flag bit tells the kinds apart).

A duel's *code* is 8 characters too: ``U`` (outside the code alphabet, so no solo code has
it) and 7 characters of a 35-bit number. Its deck is the long seed HMAC-SHA256(key, number)
(``duel_seed``): short enough to read out, and unguessable from the cards seen, since only
the server holding the key can expand the number. The 26-character codes of older duels
still name their decks.

Codes are read case-insensitively; dashes and spaces are ignored, and the look-alikes
O -> 0 and I/L -> 1 are forgiven.

The shuffle is a Fisher-Yates shuffle written out here, so the order never depends on
how a future Python implements ``random.shuffle``. Classic seeds draw from
``random.Random(seed)`` (existing codes keep their deals); long seeds from SHA-256 in
counter mode, which reveals nothing of the seed however many cards are seen.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Protocol

from ..text import _
from .cards import DEAL_CARDS, Card
from .errors import BadDealCode

SEED_BITS = 40
SEED_LIMIT = 1 << SEED_BITS
CODE_LENGTH = 8
LONG_SEED_BITS = 128
LONG_SEED_FLAG = 1 << LONG_SEED_BITS
LONG_CODE_LENGTH = 26  # 130 bits of base 32 hold the flag and the 128 bits
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DECODE = {ch: i for i, ch in enumerate(CODE_ALPHABET)} | {"O": 0, "I": 1, "L": 1}


DUEL_MARK = "U"
DUEL_BITS = 35  # the seven characters after the mark


def duel_code(number: int) -> str:
    """A duel's 8-character code: the mark and the number in 7 characters."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 1 << DUEL_BITS:
        raise BadDealCode(f"A duel's number has {DUEL_BITS} bits.")
    chars = []
    for _n in range(CODE_LENGTH - 1):
        number, digit = divmod(number, 32)
        chars.append(CODE_ALPHABET[digit])
    return DUEL_MARK + "".join(reversed(chars))


def parse_duel_code(code: object) -> int | None:
    """The number of a duel's code (``U`` and 7 characters), None for anything else."""
    if not isinstance(code, str):
        return None
    text = code.strip().upper().replace("-", "").replace(" ", "")
    if len(text) != CODE_LENGTH or text[0] != DUEL_MARK or not all(ch in _DECODE for ch in text[1:]):
        return None
    number = 0
    for ch in text[1:]:
        number = number * 32 + _DECODE[ch]
    return number


def duel_seed(number: int, key: bytes) -> int:
    """The long seed a duel's number names, with the server's `key`: the code says nothing
    of the deck to anyone without the key."""
    digest = hmac.new(key, b"cardoku-duel:" + number.to_bytes(5, "big"), hashlib.sha256).digest()
    return long_seed(int.from_bytes(digest[:16], "big"))


def is_long_seed(seed: int) -> bool:
    return LONG_SEED_FLAG <= seed < LONG_SEED_FLAG << 1


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a valid deal seed, else raise :class:`BadDealCode`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not (0 <= seed < SEED_LIMIT or is_long_seed(seed)):
        raise BadDealCode(f"A deal seed must be a whole number from 0 to {SEED_LIMIT - 1}, or a long seed.")
    return seed


def long_seed(bits: int) -> int:
    """The long seed of 128 random bits (pass ``secrets.randbits(128)``)."""
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits < LONG_SEED_FLAG:
        raise BadDealCode(f"A long seed is made of {LONG_SEED_BITS} random bits.")
    return LONG_SEED_FLAG | bits


class Bits(Protocol):
    """What a shuffle draws from: random.Random or _HashBits."""

    def getrandbits(self, k: int, /) -> int: ...


class _HashBits:
    """``getrandbits`` from SHA-256 of the seed and a block counter: deterministic for
    replays, and no number of outputs gives the seed (or the next output) away."""

    def __init__(self, seed: int):
        self._key = b"cardoku-deal:" + seed.to_bytes(17, "big")
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def getrandbits(self, k: int) -> int:
        while self._bits < k:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(block, "big")
            self._bits += 256
        self._bits -= k
        value = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return value


def random_seed(rng: random.Random) -> int:
    """A fresh deal seed drawn from the given generator (pass ``random.SystemRandom()``)."""
    return rng.getrandbits(SEED_BITS)


def _randbelow(rng: Bits, n: int) -> int:
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def seeded_shuffle(items, rng: Bits) -> list:
    """Fisher-Yates shuffle of a copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal(seed: int) -> tuple[Card, ...]:
    """The 45 cards to draw, in order, for this seed. Same seed, same order."""
    check_seed(seed)
    rng = _HashBits(seed) if is_long_seed(seed) else random.Random(seed)
    return tuple(seeded_shuffle(DEAL_CARDS, rng))


def deal_code(seed: int) -> str:
    """The player-friendly code of a seed: 8 characters, e.g. ``"0000001Z"`` (26 for a
    long seed)."""
    check_seed(seed)
    chars = []
    for _n in range(LONG_CODE_LENGTH if is_long_seed(seed) else CODE_LENGTH):
        seed, digit = divmod(seed, 32)
        chars.append(CODE_ALPHABET[digit])
    return "".join(reversed(chars))


def parse_deal_code(code: str) -> int:
    """The seed of a deal code (case-insensitive). Raises :class:`BadDealCode`."""
    if not isinstance(code, str):
        raise BadDealCode(_("A deal code is 8 letters and digits, like 7K3M9QXA."))
    text = code.strip().upper().replace("-", "").replace(" ", "")
    if len(text) not in (CODE_LENGTH, LONG_CODE_LENGTH):
        raise BadDealCode(
            _(
                "A deal code has %(length)s letters and digits; %(code)s has %(n)s.",
                length=CODE_LENGTH,
                code=repr(code.strip()[:40]),
                n=len(text),
            )
        )
    seed = 0
    for ch in text:
        if ch not in _DECODE:
            raise BadDealCode(
                _("%(char)s cannot appear in a deal code (a U only first, in a duel's code).", char=repr(ch))
            )
        seed = seed * 32 + _DECODE[ch]
    if len(text) == LONG_CODE_LENGTH and not is_long_seed(seed):
        raise BadDealCode(_("That 26-character deal code names no deal: check it and try again."))
    return seed
