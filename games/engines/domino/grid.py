"""Grid geometry for Sudoku Domino: cells, units, sliding and unreachable cells.

A board is a tuple of 81 ints, row-major. ``EMPTY`` (0) is an empty cell, 1-9 a
stone (a given or a placed stone), ``GREY`` and ``GOLD`` a joker. Cells are
``(row, col)`` with rows and columns numbered 1-9; boxes are numbered 1-9 left to
right, top to bottom.
"""

from __future__ import annotations

from collections.abc import Sequence

EMPTY = 0
GREY = -1
GOLD = -2

EDGES = ("top", "bottom", "left", "right")

Cell = tuple[int, int]

NO_STONE = "no_stone"
NO_ROOM = "no_room"


def index(cell: Cell) -> int:
    row, col = cell
    return (row - 1) * 9 + (col - 1)


def cell_of(i: int) -> Cell:
    return (i // 9 + 1, i % 9 + 1)


def box_of(cell: Cell) -> int:
    row, col = cell
    return (row - 1) // 3 * 3 + (col - 1) // 3 + 1


ALL_CELLS: tuple[Cell, ...] = tuple(cell_of(i) for i in range(81))

ROWS = {r: tuple((r, c) for c in range(1, 10)) for r in range(1, 10)}
COLUMNS = {c: tuple((r, c) for r in range(1, 10)) for c in range(1, 10)}
BOXES = {b: tuple(cell for cell in ALL_CELLS if box_of(cell) == b) for b in range(1, 10)}
UNIT_CELLS = {
    **{("row", r): cells for r, cells in ROWS.items()},
    **{("column", c): cells for c, cells in COLUMNS.items()},
    **{("box", b): cells for b, cells in BOXES.items()},
}


def units_of(cell: Cell) -> tuple[tuple[str, int], ...]:
    """The row, column and box of a cell, in that order."""
    return (("row", cell[0]), ("column", cell[1]), ("box", box_of(cell)))


def _path(edge: str, line: int) -> tuple[Cell, ...]:
    """Cells a stone passes, in order, when it is pushed in at (edge, line)."""
    if edge == "top":
        return tuple((r, line) for r in range(1, 10))
    if edge == "bottom":
        return tuple((r, line) for r in range(9, 0, -1))
    if edge == "left":
        return tuple((line, c) for c in range(1, 10))
    return tuple((line, c) for c in range(9, 0, -1))


PATHS: dict[tuple[str, int], tuple[Cell, ...]] = {
    (edge, line): _path(edge, line) for edge in EDGES for line in range(1, 10)
}


def landing(board: Sequence[int], edge: str, line: int) -> tuple[Cell | None, str | None]:
    """Where a stone pushed in at (edge, line) stops.

    Returns ``(cell, None)`` for a valid entry, or ``(None, NO_ROOM)`` when the first
    cell of the line is occupied, or ``(None, NO_STONE)`` when the slide meets no stone.
    """
    path = PATHS[(edge, line)]
    if board[index(path[0])] != EMPTY:
        return None, NO_ROOM
    for k in range(1, 9):
        if board[index(path[k])] != EMPTY:
            return path[k - 1], None
    return None, NO_STONE


def valid_entries(board: Sequence[int]) -> dict[tuple[str, int], Cell]:
    """Every valid entry point with its landing cell (top, bottom, left, right;
    lines 1-9 within each edge)."""
    found = {}
    for key in PATHS:
        cell, _ = landing(board, *key)
        if cell is not None:
            found[key] = cell
    return found


def unreachable_cells(board: Sequence[int]) -> frozenset[Cell]:
    """Empty cells whose four straight lines to the border are all blocked by a stone
    (given, placed stone or joker). Such a cell can never again be the landing cell
    of a slide; only a joker can fill it. A cell on the border always has one open
    line (the empty stretch to its own edge has no cells), so it is never marked."""
    marked = set()
    for cell in ALL_CELLS:
        if board[index(cell)] != EMPTY:
            continue
        row, col = cell
        lines = (
            [(r, col) for r in range(1, row)],  # towards the top
            [(r, col) for r in range(row + 1, 10)],  # towards the bottom
            [(row, c) for c in range(1, col)],  # towards the left
            [(row, c) for c in range(col + 1, 10)],  # towards the right
        )
        if all(any(board[index(x)] != EMPTY for x in stretch) for stretch in lines):
            marked.add(cell)
    return frozenset(marked)


def is_full(board: Sequence[int]) -> bool:
    return all(v != EMPTY for v in board)
