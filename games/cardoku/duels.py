"""A Cardoku duel's deal (issue 27, 13): a code of 8 characters like a solo deal's (``U`` and
7 more, games/engines/cardoku/deal.py duel_code), whose deck is the long seed only this
server can expand (duel_seed, keyed from SECRET_KEY): the cards a duel shows give nothing
away, and a player can still read the code out and replay the deal in solo Cardoku.
(A new SECRET_KEY gives the duel codes made before it other decks.)"""

import hashlib
import secrets

from django.conf import settings

from games.engines import cardoku as ck
from games.engines.cardoku.deal import DUEL_BITS


def _key() -> bytes:
    return hashlib.sha256(b"cardoku-duel-key:" + str(settings.SECRET_KEY).encode()).digest()


def new_deal() -> tuple[str, int]:
    """A fresh duel's (code, seed)."""
    number = secrets.randbits(DUEL_BITS)
    return ck.duel_code(number), ck.duel_seed(number, _key())


def seed_of(code) -> tuple[str, int] | None:
    """(the code as written here, the seed) of a duel's code; None when `code` is not one."""
    number = ck.parse_duel_code(code)
    return None if number is None else (ck.duel_code(number), ck.duel_seed(number, _key()))
