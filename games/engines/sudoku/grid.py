"""Grid representation, parsing/formatting and the shared geometry tables.

A grid is a flat tuple of 81 ints in row-major order, 0 meaning empty. Cell
indices are 0..80 internally; anything shown to a player uses 1-based
(row, column) as in docs/rules.md.
"""

from __future__ import annotations

Grid = tuple[int, ...]

CELLS = 81
DIGITS = range(1, 10)


class PuzzleFormatError(ValueError):
    """The text is not a well-formed puzzle (bad length, character or duplicate given)."""


def rc(index: int) -> tuple[int, int]:
    """Cell index 0..80 -> (row, col), both 1-based."""
    if not 0 <= index < CELLS:
        raise IndexError(f"cell index {index} is outside 0..80")
    return index // 9 + 1, index % 9 + 1


def index(row: int, col: int) -> int:
    """1-based (row, col) -> cell index 0..80."""
    if not (1 <= row <= 9 and 1 <= col <= 9):
        raise IndexError(f"cell ({row}, {col}) is outside the 9x9 grid")
    return (row - 1) * 9 + (col - 1)


def cell_name(index_: int) -> str:
    """Human name of a cell, e.g. 'r3c4'."""
    r, c = rc(index_)
    return f"r{r}c{c}"


# --- geometry tables (built once at import; every engine module shares them) ---

ROW_OF: tuple[int, ...] = tuple(i // 9 for i in range(CELLS))
COL_OF: tuple[int, ...] = tuple(i % 9 for i in range(CELLS))
BOX_OF: tuple[int, ...] = tuple((i // 27) * 3 + (i % 9) // 3 for i in range(CELLS))

ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
COLS: tuple[tuple[int, ...], ...] = tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
BOXES: tuple[tuple[int, ...], ...] = tuple(
    tuple((b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)) for b in range(9)
)
# Unit order matters for messages and for deterministic technique search:
# rows 0-8, columns 9-17, boxes 18-26.
UNITS: tuple[tuple[int, ...], ...] = ROWS + COLS + BOXES
UNIT_KIND: tuple[str, ...] = ("row",) * 9 + ("column",) * 9 + ("box",) * 9


def unit_name(u: int) -> str:
    return f"{UNIT_KIND[u]} {u % 9 + 1}"


PEERS: tuple[frozenset[int], ...] = tuple(
    frozenset(
        j
        for j in range(CELLS)
        if j != i and (ROW_OF[j] == ROW_OF[i] or COL_OF[j] == COL_OF[i] or BOX_OF[j] == BOX_OF[i])
    )
    for i in range(CELLS)
)
PEER_LISTS: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(p)) for p in PEERS)


def parse(text: str) -> Grid:
    """Parse 81 characters (digits 1-9, '0' or '.' for empty) into a Grid.

    Raises PuzzleFormatError for a wrong length, a bad character or two equal
    givens in one row, column or box -- each with a message a player can act on.
    """
    if not isinstance(text, str):
        raise PuzzleFormatError(f"puzzle must be text, not {type(text).__name__}")
    s = text.strip()
    if len(s) != CELLS:
        raise PuzzleFormatError(f"puzzle must have 81 cells, found {len(s)} characters")
    cells: list[int] = []
    for pos, ch in enumerate(s):
        if ch in "0.":
            cells.append(0)
        elif "1" <= ch <= "9":
            cells.append(ord(ch) - 48)
        else:
            r, c = rc(pos)
            raise PuzzleFormatError(
                f"bad character {ch!r} at position {pos + 1} (row {r}, column {c}); "
                "use digits 1-9 and '0' or '.' for empty cells"
            )
    grid = tuple(cells)
    dup = find_duplicate(grid)
    if dup is not None:
        digit, unit = dup
        raise PuzzleFormatError(f"digit {digit} appears twice in {unit_name(unit)}")
    return grid


def find_duplicate(grid: Grid) -> tuple[int, int] | None:
    """First (digit, unit) where a digit is given twice, or None."""
    for u, cells in enumerate(UNITS):
        seen = 0
        for i in cells:
            v = grid[i]
            if v:
                bit = 1 << v
                if seen & bit:
                    return v, u
                seen |= bit
    return None


def format_grid(grid: Grid, empty: str = ".") -> str:
    """Grid -> 81-character string (the inverse of parse)."""
    if len(grid) != CELLS:
        raise PuzzleFormatError(f"grid must have 81 cells, found {len(grid)}")
    return "".join(str(v) if v else empty for v in grid)


def clue_count(grid: Grid) -> int:
    return sum(1 for v in grid if v)


def is_complete_solution(grid: Grid) -> bool:
    """True when every unit holds the digits 1..9 exactly once."""
    if len(grid) != CELLS:
        return False
    full = set(DIGITS)
    return all({grid[i] for i in cells} == full for cells in UNITS)
