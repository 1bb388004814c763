"""Duel decks from 128 random bits (issue 12, section 2): a 40-bit seed drawn through
random.Random was singled out by nine visible cards; a long seed is not guessable and its
deal comes from SHA-256, so seeing cards tells nothing about the cards to come."""

import random
from collections import Counter

import pytest

from games.engines import cardoku as ck
from games.engines.cardoku.deal import LONG_SEED_FLAG

BITS = [0, 1, 0xDEADBEEF, (1 << 128) - 1, random.Random(7).getrandbits(128)]


@pytest.mark.parametrize("bits", BITS)
def test_long_seed_codes_round_trip_in_26_characters(bits):
    seed = ck.long_seed(bits)
    assert ck.is_long_seed(seed) and seed.bit_length() == 129
    code = ck.deal_code(seed)
    assert len(code) == ck.LONG_CODE_LENGTH == 26
    assert ck.parse_deal_code(code) == seed == ck.parse_deal_code("-".join([code[:13], code[13:]]).lower())


def test_long_deals_are_fixed_by_the_seed_and_use_every_card():
    seed = ck.long_seed(BITS[4])
    deck = ck.deal(seed)
    assert deck == ck.deal(seed) and Counter(deck) == Counter(ck.DEAL_CARDS)
    assert ck.deal(ck.long_seed(BITS[4] ^ 1)) != deck
    # The 128 bits decide the deal, not only the low 40.
    assert ck.deal(seed) != ck.deal(ck.long_seed(BITS[4] ^ (1 << 100)))


def test_long_deals_do_not_come_from_random_random():
    bits = BITS[4]
    assert ck.deal(ck.long_seed(bits)) != ck.deal(bits % ck.SEED_LIMIT)
    shuffled = list(ck.DEAL_CARDS)
    random.Random(ck.long_seed(bits)).shuffle(shuffled)
    assert tuple(shuffled) != ck.deal(ck.long_seed(bits))


def test_long_deals_look_uniform():
    """The first card over 900 seeds: every card shows up, none far too often."""
    firsts = Counter(ck.deal(ck.long_seed(n))[0] for n in range(900))
    assert len(firsts) == len(set(ck.DEAL_CARDS)) and max(firsts.values()) < 60


def test_a_long_game_plays_saves_and_replays():
    seed = ck.long_seed(BITS[4])
    state = ck.discard(ck.new_game(ck.random_layout(seed), seed))
    saved = ck.to_dict(state)
    assert saved["deal_code"] == ck.deal_code(seed) and ck.from_dict(saved) == state
    assert ck.from_dict({k: v for k, v in saved.items() if k != "seed"}) == state


@pytest.mark.parametrize("code", ["0" * 26, "Z" * 26, "0" * 25, "1" * 27])
def test_26_character_codes_outside_the_long_range_are_refused(code):
    with pytest.raises(ck.BadDealCode):
        ck.parse_deal_code(code)


@pytest.mark.parametrize("value", [-1, LONG_SEED_FLAG, True, 1.5, None])
def test_long_seed_needs_128_bits(value):
    with pytest.raises(ck.BadDealCode):
        ck.long_seed(value)


@pytest.mark.parametrize("seed", [ck.SEED_LIMIT, LONG_SEED_FLAG - 1, LONG_SEED_FLAG << 1])
def test_seeds_between_the_kinds_are_refused(seed):
    with pytest.raises(ck.BadDealCode):
        ck.deal(seed)


# --- a duel's 8-character code (issue 27, 13) ------------------------------------------------


@pytest.mark.parametrize("number", [0, 1, 12345, (1 << 35) - 1])
def test_duel_codes_are_8_characters_and_round_trip(number):
    code = ck.duel_code(number)
    assert len(code) == ck.CODE_LENGTH == 8 and code[0] == "U"
    assert ck.parse_duel_code(code) == number == ck.parse_duel_code(f" {code[:4].lower()}-{code[4:]} ")


@pytest.mark.parametrize("bad", [1 << 35, -1, True, "7", None])
def test_a_duel_number_has_35_bits(bad):
    with pytest.raises(ck.BadDealCode):
        ck.duel_code(bad)


@pytest.mark.parametrize("text", ["7K3M9QXA", "U", "U1234567X", "UU123456", "1U234567", "", None, 7])
def test_only_u_and_seven_code_characters_are_a_duels_code(text):
    assert ck.parse_duel_code(text) is None


def test_a_duels_deck_needs_the_servers_key():
    seed = ck.duel_seed(12345, b"key one")
    assert ck.is_long_seed(seed) and seed == ck.duel_seed(12345, b"key one")
    assert ck.duel_seed(12345, b"key two") != seed and ck.duel_seed(12346, b"key one") != seed
    assert ck.deal(seed) != ck.deal(ck.duel_seed(12345, b"key two"))


def test_a_solo_deal_code_refuses_a_duels_with_its_reason():
    with pytest.raises(ck.BadDealCode, match=r"a U only first, in a duel's code"):
        ck.parse_deal_code(ck.duel_code(5))
    with pytest.raises(ck.BadDealCode, match=r"has 8 letters and digits; '7K3' has 3"):
        ck.parse_deal_code("7K3")
