"""Turns engine boards into what templates render. Only filled cells carry digits."""

from django.utils.safestring import SafeString

from games.engines.race import Board, Outcome
from games.sudoku import fragments


def board_rows(board: Board, selected: int | None = None, flash: Outcome | None = None) -> list[list[SafeString]]:
    """Rows of ready-made cell markup for the ARIA grid (templates/games/board.html#grid),
    from the same builder as a move's answer (games/sudoku/fragments.py)."""
    return fragments.sudoku_rows(board, selected, flash)


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def digit_pad(board: Board) -> list[SafeString]:
    """The on-screen pad's nine buttons, each with how many of its digit are still to place."""
    return fragments.pad_buttons(board)
