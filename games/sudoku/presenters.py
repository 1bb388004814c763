"""Turns engine boards into what templates render. Only filled cells carry digits."""

from django.utils.safestring import SafeString

from games.engines.race import Board, Outcome

from . import fragments


def board_rows(board: Board, selected: int | None = None, flash: Outcome | None = None) -> list[list[SafeString]]:
    """Rows of ready-made cell markup for the ARIA grid (templates/games/board.html#grid),
    from the same builder as a move's answer (games/sudoku/fragments.py)."""
    return fragments.sudoku_rows(board, selected, flash)


def digit_pad(board: Board) -> list[SafeString]:
    """The on-screen pad's nine buttons, each with how many of its digit are still to place."""
    return fragments.pad_buttons(board)
