"""The pictures of How to Play's short guides: fixed positions drawn by each game's own
board builders (the cells, stones and cards a real game shows), so the pictures cannot
drift from the boards players meet."""

from __future__ import annotations

from dataclasses import replace

from games.cardoku import presenters as ck_presenters
from games.domino import play as dm_play
from games.domino import presenters as dm_presenters
from games.engines import cardoku as ck
from games.engines.race import Board
from games.sudoku import fragments

# A classic puzzle with one solution (the Wikipedia example), for the Sudoku and Domino pictures.
PUZZLE = tuple(int(d) for d in "530070000600195000098000060800060003400803001700020006060000280000419005000080079")
SOLUTION = tuple(int(d) for d in "534678912672195348198342567859761423426853791713924856961537284287419635345286179")
CARDOKU_SEED = 20_260_446  # deals the 2 of hearts first: eight squares to go to


def sudoku_picture() -> dict:
    """A Solo Run mid-game: a few entries, a hinted cell, notes in one cell, one selected."""
    board = Board.new(PUZZLE)
    cells = list(board.cells)
    for index in (2, 3, 10, 11, 18):  # the player's entries, the last one a hint
        cells[index] = SOLUTION[index]
    notes = list(board.notes)
    notes[5] = (1 << 2) | (1 << 8)  # 2 and 8 pencilled in row 1, column 6
    board = replace(board, cells=tuple(cells), hinted=frozenset({18}), notes=tuple(notes))
    selected = 5
    return {"rows": fragments.sudoku_rows(board, selected), "pad": fragments.pad_buttons(board)}


def cardoku_picture() -> dict:
    """A fresh deal with possible moves lit: the card in hand and where it may go."""
    state = ck.new_game(ck.default_layout(), CARDOKU_SEED)
    return {
        "rows": ck_presenters.board_rows(state, legal=ck.legal_squares(state)),
        "current": ck_presenters.card_view(state.current_card),
    }


def domino_picture() -> dict:
    """A fresh game: the entry markers round the grid, the stone in hand and the next one."""
    state = dm_play.load(dm_play.start_state(PUZZLE, SOLUTION, seed=7, started_at=0.0))
    return {
        "rows": dm_presenters.board_rows(state),
        "markers": dm_presenters.markers(state),
        "current": state.current_stone,
        "preview": state.next_stone,
        "stones_left": state.stones_left,
    }
