"""Cardoku placement rules, moves and errors.

Default layout: A♠ 2♠ 3♠ at row 7 cols 1-3, 4♠ 5♠ 6♠ at row 8 cols 4-6,
7♠ 8♠ 9♠ at row 9 cols 7-9.
"""

import pytest

from games.engines import cardoku as ck


def position(current, extra=None, layout=None):
    """A state with the default spades, extra cards {(r, c): code}, and ``current`` to play."""
    layout = layout or ck.default_layout()
    board = [None] * 81
    for (r, c), card in layout.placements:
        board[(r - 1) * 9 + c - 1] = card
    for (r, c), code in (extra or {}).items():
        board[(r - 1) * 9 + c - 1] = ck.parse_card(code)
    cur = ck.parse_card(current)
    rest = tuple(c for c in ck.DEAL_CARDS if c not in board and c != cur)
    return ck.GameState(layout=layout, seed=0, deck=(cur,) + rest, board=tuple(board))


# --- legal and illegal squares ---------------------------------------------------------

LEGAL = [
    # (current card, extra cards, square, why it is fine)
    ("5H", {}, (6, 1), "next to the A♠ and no 5 in row 6, column 1 or box 4"),
    ("KH", {}, (8, 7), "a King next to the 7♠: digits never block wilds"),
    ("KH", {}, (9, 6), "a King between the 6♠ and 7♠"),
    ("5H", {(6, 1): "KH"}, (6, 2), "wilds never block digits, even of the same suit"),
    ("KS", {(6, 1): "QH"}, (6, 2), "different suit and rank"),
    ("X1", {(6, 1): "KH"}, (6, 2), "a joker has no suit"),
    ("KS", {(6, 1): "X1"}, (6, 2), "a joker does not block a King"),
    ("5H", {(5, 9): "5D"}, (6, 1), "a 5 elsewhere on the board does not matter"),
]


@pytest.mark.parametrize("current, extra, square, why", LEGAL)
def test_legal(current, extra, square, why):
    state = position(current, extra)
    assert square in ck.legal_squares(state), why
    assert ck.is_legal(state, *square)
    assert ck.blockers(state, square) == frozenset()
    ck.check_square(state, *square)
    assert ck.place(state, *square).card_at(*square) == ck.parse_card(current)


ILLEGAL = [
    # (current, extra, square, reason, blockers, words in the message)
    ("5H", {}, (1, 1), "not_adjacent", set(), "not next to a card"),
    ("5H", {}, (6, 5), "not_adjacent", set(), "not next to a card"),  # diagonal to nothing
    ("5H", {}, (7, 1), "occupied", set(), "already taken by the Ace of spades"),
    ("3H", {}, (6, 3), "digit", {(7, 3)}, "already a 3 in column 3"),
    ("3H", {}, (8, 1), "digit", {(7, 3)}, "already a 3 in box 7"),
    ("AH", {}, (7, 4), "digit", {(7, 1)}, "already an Ace (1) in row 7"),
    ("8D", {}, (8, 8), "digit", {(9, 8)}, "already an 8 in column 8"),
    ("KH", {(8, 7): "KS", (8, 9): "2H"}, (7, 9), "wild_rank", {(8, 7)}, "already a King in box 9"),
    ("X2", {(8, 7): "X1"}, (8, 8), "wild_rank", {(8, 7)}, "already a joker in row 8"),
    ("KH", {(6, 1): "QH"}, (6, 2), "wild_suit", {(6, 1)}, "wild of hearts in row 6"),
    ("TD", {(6, 2): "JD"}, (5, 2), "wild_suit", {(6, 2)}, "wild of diamonds in column 2"),
    ("JC", {(6, 1): "TC", (6, 3): "JD"}, (6, 2), "wild_suit", {(6, 1), (6, 3)}, "wild of clubs in row 6"),
]


@pytest.mark.parametrize("current, extra, square, reason, blocking, words", ILLEGAL)
def test_illegal(current, extra, square, reason, blocking, words):
    state = position(current, extra)
    assert square not in ck.legal_squares(state)
    assert not ck.is_legal(state, *square)
    with pytest.raises(ck.IllegalSquare) as info:
        ck.place(state, *square)
    err = info.value
    assert (err.reason, err.square, set(err.blockers)) == (reason, square, blocking)
    assert words in str(err)
    if reason not in ("occupied", "not_adjacent"):
        assert ck.blockers(state, square) == frozenset(blocking)


def test_digits_block_whatever_the_suit():
    state = position("3H")
    assert ck.conflict(ck.parse_card("3H"), ck.parse_card("3S")) == "digit"
    assert ck.blockers(state, (6, 3)) == {(7, 3)}


def test_legal_squares_at_the_deal():
    state = position("3C")
    assert ck.legal_squares(state) == {(6, 1), (6, 2), (8, 7), (8, 8), (8, 9), (9, 4), (9, 5), (9, 6)}


def test_wild_can_go_on_any_adjacent_square_at_the_deal():
    state = position("KH")
    adjacent = {
        (r + dr, c + dc)
        for (r, c), _ in state.layout.placements
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 1 <= r + dr <= 9 and 1 <= c + dc <= 9
    } - {sq for sq, _ in state.layout.placements}
    assert ck.legal_squares(state) == adjacent


def test_blocking_cards():
    assert ck.blocking_cards(position("3H")) == {(7, 3)}
    assert ck.blocking_cards(position("KH")) == frozenset()
    assert ck.blocking_cards(position("KH", {(8, 7): "KS", (6, 1): "QH", (6, 2): "JS"})) == {(8, 7), (6, 1)}


# --- moves -----------------------------------------------------------------------------


def test_place_draws_the_next_card():
    state = ck.new_game(ck.default_layout(), 12345)
    first, second = state.deck[0], state.deck[1]
    assert state.current_card == first
    square = min(ck.legal_squares(state))
    after = ck.place(state, *square)
    assert after.card_at(*square) == first
    assert after.current_card == second
    assert after.position == 1 and after.cards_left == 44
    assert after.history == (ck.Move("place", first, *square),)
    assert after.moves == (("place", *square),)
    assert state.card_at(*square) is None  # the old state is untouched


def test_discard_costs_nine():
    state = ck.discard(ck.new_game(ck.default_layout(), 12345))
    assert state.discards == 1
    assert state.moves == (("discard",),)
    assert ck.score(state).total == -9


def test_undo_takes_back_placements_and_discards():
    start = ck.new_game(ck.default_layout(), 5)
    placed = ck.place(start, *min(ck.legal_squares(start)))
    discarded = ck.discard(placed)
    assert ck.undo(discarded) == placed
    assert ck.undo(placed) == start
    with pytest.raises(ck.NothingToUndo, match="start of the deal"):
        ck.undo(start)


def test_deck_running_out_ends_the_game():
    state = ck.new_game(ck.default_layout(), 77)
    for _ in range(45):
        assert not state.finished
        state = ck.discard(state)
    assert state.finished and state.current_card is None and state.cards_left == 0
    assert ck.score(state).total == -405
    assert ck.legal_squares(state) == frozenset()
    assert ck.blocking_cards(state) == frozenset()
    for move in (ck.discard, lambda s: ck.place(s, 6, 1)):
        with pytest.raises(ck.GameOver):
            move(state)
    back = ck.undo(state)
    assert not back.finished and back.current_card == state.deck[44]


@pytest.mark.parametrize("row, col", [(0, 5), (10, 1), (5, -1), ("a", 1), (True, 2), (1.0, 2), (None, None)])
def test_off_board_is_bad_move(row, col):
    state = ck.new_game(None, 1)
    with pytest.raises(ck.BadMove):
        ck.place(state, row, col)


@pytest.mark.parametrize("move", [(), ("jump",), ("place", 1), ("discard", 3), 42, ("place", "x", 1)])
def test_malformed_moves(move):
    with pytest.raises(ck.BadMove):
        ck.apply_move(ck.new_game(None, 1), move)


def test_error_families():
    for cls in (ck.BadMove, ck.BadCard, ck.BadDealCode, ck.BadState):
        assert issubclass(cls, ck.InvalidInput) and not issubclass(cls, ck.IllegalMove)
    for cls in (ck.IllegalSquare, ck.GameOver, ck.NothingToUndo):
        assert issubclass(cls, ck.IllegalMove) and not issubclass(cls, ck.InvalidInput)
    for cls in (ck.InvalidInput, ck.IllegalMove, ck.LayoutError):
        assert issubclass(cls, ck.CardokuError)


def test_new_game_needs_a_layout_and_a_seed():
    with pytest.raises(ck.BadMove):
        ck.new_game({(7, 1): "AS"}, 1)
    with pytest.raises(ck.BadDealCode):
        ck.new_game(None, -5)


def test_new_game_places_the_layout():
    layout = ck.random_layout(3)
    state = ck.new_game(layout, 3)
    assert state.cards_on_board() == layout.as_mapping()
    assert state.deck == ck.deal(3)
    assert state.deal_code == ck.deal_code(3)


def test_replay_accepts_json_lists_and_undo():
    start = ck.new_game(None, 9)
    sq = min(ck.legal_squares(start))
    state = ck.replay(None, 9, [["place", *sq], ["discard"], ["undo"]])
    assert state == ck.place(start, *sq)
