"""Turns engine boards into what templates render. Only filled cells carry digits."""

from games.engines.race import Board, Outcome


def board_rows(board: Board, selected: int | None = None, flash: Outcome | None = None) -> list[list[dict]]:
    """Rows of cell dicts for the ARIA grid. Each cell carries its finished class list
    and label: the grid is re-rendered on every move, and per-cell template logic over
    81 cells was most of a move's cost."""
    wrong = flash.cell if flash is not None and flash.kind == "wrong" else None
    fresh = flash.cell if flash is not None and flash.kind in ("correct", "hint") else None
    rows = []
    for r in range(9):
        row = []
        for c in range(9):
            i = r * 9 + c
            value = board.cells[i]
            css = ["cell"]
            if board.givens[i]:
                css.append("given")
            elif i in board.hinted:
                css.append("hinted")
            elif value:
                css.append("entered")
            css += [name for name, on in (("selected", i == selected), ("wrong", i == wrong), ("fresh", i == fresh),
                                          ("box-right", c in (2, 5)), ("box-bottom", r in (2, 5))) if on]
            label = f"Row {r + 1}, column {c + 1}"
            notes = [] if value else board.notes_at(i)
            if value:
                label += f", {value}"
            elif notes:
                label += ", notes " + " ".join(map(str, notes))
            row.append({
                "index": i, "row": r + 1, "col": c + 1, "box": (r // 3) * 3 + c // 3 + 1,
                "value": value or "", "css": " ".join(css), "label": label, "selected": i == selected,
                "notes": [d if d in notes else "" for d in range(1, 10)] if notes else [],
            })
        rows.append(row)
    return rows


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def digit_pad(board: Board) -> list[tuple[int, int]]:
    """(digit, how many of it are still to place) for the on-screen pad."""
    return [(d, 9 - board.cells.count(d)) for d in range(1, 10)]
