"""Cardoku cards, deals and deal codes."""

import random

import pytest

from games.engines import cardoku as ck


@pytest.mark.parametrize(
    "code, rank, suit, digit, wild, red, label, name",
    [
        ("AS", "A", "S", 1, False, False, "A♠", "Ace of spades"),
        ("9H", "9", "H", 9, False, True, "9♥", "9 of hearts"),
        ("TD", "10", "D", None, True, True, "10♦", "10 of diamonds"),
        ("JC", "J", "C", None, True, False, "J♣", "Jack of clubs"),
        ("QS", "Q", "S", None, True, False, "Q♠", "Queen of spades"),
        ("KH", "K", "H", None, True, True, "K♥", "King of hearts"),
        ("X1", "Joker", None, None, True, False, "Joker", "Joker"),
        ("X2", "Joker", None, None, True, True, "Joker", "Joker"),
    ],
)
def test_card_properties(code, rank, suit, digit, wild, red, label, name):
    card = ck.parse_card(code)
    assert (card.rank, card.suit, card.digit, card.is_wild, card.is_red) == (rank, suit, digit, wild, red)
    assert card.label == label
    assert card.name == name
    assert ck.format_card(card) == code == str(card)


@pytest.mark.parametrize("code, symbol", [("AS", "♠"), ("2H", "♥"), ("3D", "♦"), ("4C", "♣"), ("X1", "★")])
def test_suit_symbols(code, symbol):
    assert ck.parse_card(code).symbol == symbol


@pytest.mark.parametrize("code, expected", [("ah", "AH"), ("10h", "TH"), (" kc ", "KC"), ("x2", "X2")])
def test_parse_is_forgiving(code, expected):
    assert ck.parse_card(code).code == expected


@pytest.mark.parametrize("code", ["", "1S", "AX", "X3", "11H", "KHH", None, 7])
def test_bad_card_codes(code):
    with pytest.raises(ck.BadCard):
        ck.parse_card(code)


def test_bad_card_is_malformed_input_not_a_rule_violation():
    assert issubclass(ck.BadCard, ck.InvalidInput)
    assert not issubclass(ck.BadCard, ck.IllegalMove)


def test_every_card_round_trips():
    for card in ck.ALL_CARDS:
        assert ck.parse_card(card.code) == card


def test_deck_composition():
    assert len(ck.ALL_CARDS) == len(set(ck.ALL_CARDS)) == 54
    assert len(ck.DEAL_CARDS) == 45
    assert sum(c.is_joker for c in ck.DEAL_CARDS) == 2
    assert sum(c.is_wild and not c.is_joker for c in ck.DEAL_CARDS) == 16
    assert sum(not c.is_wild for c in ck.DEAL_CARDS) == 27
    assert not any(c.suit == "S" and not c.is_wild for c in ck.DEAL_CARDS)


def test_deal_is_a_permutation_of_the_45_cards():
    cards = ck.deal(42)
    assert len(cards) == 45
    assert sorted(cards, key=lambda c: c.sort_key) == sorted(ck.DEAL_CARDS, key=lambda c: c.sort_key)


def test_deal_is_pinned():
    # The order for a seed must never change, or shared deal codes break.
    assert [c.code for c in ck.deal(0)[:8]] == ["2H", "KH", "4D", "AH", "TC", "4C", "3D", "8H"]
    assert [c.code for c in ck.deal(123456789)[:8]] == ["KS", "4H", "8H", "9D", "QH", "7C", "JH", "8D"]


def test_deal_ignores_global_random():
    random.seed(1)
    a = ck.deal(7)
    random.seed(2)
    assert ck.deal(7) == a
    assert ck.deal(8) != a


@pytest.mark.parametrize("seed", [0, 1, 31, 32, 123456789, ck.SEED_LIMIT - 1])
def test_deal_code_round_trip(seed):
    code = ck.deal_code(seed)
    assert len(code) == ck.CODE_LENGTH
    assert ck.parse_deal_code(code) == seed
    assert ck.parse_deal_code(code.lower()) == seed


def test_deal_code_forgives_lookalikes_and_dashes():
    assert ck.deal_code(33) == "00000011"
    assert ck.parse_deal_code("oooo-ooIl") == 33


@pytest.mark.parametrize("code", ["", "ABC", "ABCDEFGHJ", "ABCD#FGH", "UUUUUUUU", None])
def test_bad_deal_codes(code):
    with pytest.raises(ck.BadDealCode):
        ck.parse_deal_code(code)


@pytest.mark.parametrize("seed", [-1, ck.SEED_LIMIT, 1.5, "12", True, None])
def test_bad_seeds(seed):
    with pytest.raises(ck.BadDealCode):
        ck.deal(seed)


def test_random_seed_uses_given_generator():
    assert ck.random_seed(random.Random(3)) == ck.random_seed(random.Random(3))
    assert 0 <= ck.random_seed(random.Random(3)) < ck.SEED_LIMIT


def test_engine_imports_only_the_standard_library():
    import ast
    import sys
    from pathlib import Path

    package = Path(ck.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)
                assert top not in ("time", "datetime"), (path.name, name)


def test_deal_matches_random_shuffle():
    cards = list(ck.DEAL_CARDS)
    random.Random(2024).shuffle(cards)
    assert tuple(cards) == ck.deal(2024)
