"""Table tests for each solving technique on hand-built candidate positions.

Every position starts with all nine candidates in every cell and then carves
out exactly the pattern under test, so the expected eliminations can be read
off the table.
"""

from __future__ import annotations

import pytest

from games.engines.sudoku.grid import index
from games.engines.sudoku.solver import ROWPART
from games.engines.sudoku.techniques import (
    ELIM,
    Ctx,
    find_hidden_pair,
    find_hidden_single,
    find_hidden_triple,
    find_locked_candidates,
    find_naked_pair,
    find_naked_single,
    find_naked_triple,
    find_swordfish,
    find_x_wing,
    find_xy_wing,
)

ALL = set(range(1, 10))


def position(
    cells: dict[tuple[int, int], set[int]] | None = None, remove: list[tuple[int, list[tuple[int, int]]]] | None = None
) -> Ctx:
    """All candidates everywhere, then `cells` fixes some cells' candidates and
    `remove` takes a digit out of the listed cells."""
    cands = {i: set(ALL) for i in range(81)}
    for (r, c), ds in (cells or {}).items():
        cands[index(r, c)] = set(ds)
    for digit, where in remove or []:
        for r, c in where:
            cands[index(r, c)].discard(digit)
    X = 0
    for i, ds in cands.items():
        for d in ds:
            X |= ELIM[(d - 1) * 81 + i]
    return Ctx(X, 0, ROWPART)


def row(r: int, *, but: tuple[int, ...] = ()) -> list[tuple[int, int]]:
    return [(r, c) for c in range(1, 10) if c not in but]


def box_cells(b: int) -> list[tuple[int, int]]:
    r0, c0 = (b - 1) // 3 * 3 + 1, (b - 1) % 3 * 3 + 1
    return [(r0 + i, c0 + j) for i in range(3) for j in range(3)]


def elims(found) -> set[tuple[tuple[int, int], int]]:
    return {((i // 9 + 1, i % 9 + 1), d) for i, d in found.eliminations}


def test_naked_single():
    found = find_naked_single(position({(1, 1): {5}}))
    assert found.placement == (index(1, 1), 5)
    assert "r1c1 can only be 5" in found.why


def test_hidden_single():
    found = find_hidden_single(position(remove=[(7, row(3, but=(4,)))]))
    assert found.placement == (index(3, 4), 7)
    assert found.why == "In row 3, 7 fits only in r3c4."


def test_locked_candidates_pointing():
    # Box 1 keeps its 4s in row 1 only: 4 leaves the rest of row 1.
    ctx = position(remove=[(4, [rc for rc in box_cells(1) if rc[0] != 1])])
    found = find_locked_candidates(ctx)
    assert found.technique == "locked candidates"
    assert elims(found) == {((1, c), 4) for c in range(4, 10)}
    assert "pointing" in found.why


def test_locked_candidates_claiming():
    # Row 5 keeps its 2s inside box 5: 2 leaves the rest of box 5.
    ctx = position(remove=[(2, row(5, but=(4, 5)))])
    found = find_locked_candidates(ctx)
    assert elims(found) == {((r, c), 2) for r in (4, 6) for c in (4, 5, 6)}
    assert "claiming" in found.why


def test_naked_pair():
    found = find_naked_pair(position({(1, 1): {1, 2}, (1, 2): {1, 2}}))
    assert elims(found) == {((1, c), d) for c in range(3, 10) for d in (1, 2)}
    assert "naked pair in row 1" in found.why


def test_hidden_pair():
    ctx = position(remove=[(6, row(2, but=(3, 7))), (8, row(2, but=(3, 7)))])
    found = find_hidden_pair(ctx)
    assert elims(found) == {((2, c), d) for c in (3, 7) for d in ALL - {6, 8}}


def test_naked_triple():
    found = find_naked_triple(position({(4, 1): {1, 2}, (4, 2): {2, 3}, (4, 3): {1, 3}}))
    assert elims(found) == {((4, c), d) for c in range(4, 10) for d in (1, 2, 3)}
    assert "naked triple in row 4" in found.why


def test_hidden_triple():
    ctx = position(remove=[(4, row(6, but=(1, 5))), (5, row(6, but=(5, 9))), (9, row(6, but=(1, 9)))])
    found = find_hidden_triple(ctx)
    assert elims(found) == {((6, c), d) for c in (1, 5, 9) for d in ALL - {4, 5, 9}}


def test_x_wing():
    ctx = position(remove=[(3, row(2, but=(2, 7))), (3, row(7, but=(2, 7)))])
    found = find_x_wing(ctx)
    assert elims(found) == {((r, c), 3) for r in range(1, 10) if r not in (2, 7) for c in (2, 7)}
    assert found.why.startswith("X-Wing on 3: in rows 2 and 7")


def test_swordfish():
    ctx = position(remove=[(5, row(1, but=(1, 4))), (5, row(5, but=(4, 8))), (5, row(9, but=(1, 8)))])
    assert find_x_wing(ctx) is None  # no two rows share both columns
    found = find_swordfish(ctx)
    assert elims(found) == {((r, c), 5) for r in range(1, 10) if r not in (1, 5, 9) for c in (1, 4, 8)}


def test_xy_wing():
    # Pivot r1c1 {1,2}; wings r1c5 {1,3} and r5c1 {2,3}: r5c5 sees both wings.
    found = find_xy_wing(position({(1, 1): {1, 2}, (1, 5): {1, 3}, (5, 1): {2, 3}}))
    assert elims(found) == {((5, 5), 3)}
    assert "pivot r1c1" in found.why


@pytest.mark.parametrize(
    "finder",
    [
        find_naked_single,
        find_hidden_single,
        find_locked_candidates,
        find_naked_pair,
        find_hidden_pair,
        find_naked_triple,
        find_hidden_triple,
        find_x_wing,
        find_swordfish,
        find_xy_wing,
    ],
)
def test_nothing_to_find_on_an_open_board(finder):
    assert finder(position()) is None
