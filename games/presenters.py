"""Turns engine boards into what templates render. Only filled cells carry digits."""

from games.engines.race import Board, Outcome


def board_rows(board: Board, selected: int | None = None, flash: Outcome | None = None,
               show_digits: bool = True) -> list[list[dict]]:
    """Rows of cell dicts for the ARIA grid. `show_digits=False` gives a silhouette
    (filled or not) for opponents and spectators."""
    rows = []
    for r in range(9):
        row = []
        for c in range(9):
            i = r * 9 + c
            value = board.cells[i] if show_digits else 0
            filled = bool(board.cells[i])
            label = f"Row {r + 1}, column {c + 1}"
            if value:
                label += f", {value}"
            notes = board.notes_at(i) if show_digits and not filled else []
            row.append({
                "index": i, "row": r + 1, "col": c + 1, "box": (r // 3) * 3 + c // 3 + 1,
                "value": value, "filled": filled, "given": bool(board.givens[i]),
                "hinted": i in board.hinted, "notes": [d if d in notes else "" for d in range(1, 10)] if notes else [],
                "label": label, "selected": i == selected,
                "wrong": flash is not None and flash.kind == "wrong" and flash.cell == i,
                "fresh": flash is not None and flash.kind in ("correct", "hint") and flash.cell == i,
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
