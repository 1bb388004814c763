"""The Sudoku the browser tests play: tests.conftest's puzzle with 20 of its 51 blanks left
open, the others filled in as given.

A browser test types each cell it fills (a click, a key, the answer's swap), and a page open
on a room redraws for every move another player makes: the 51 blanks of the unit tests' puzzle
cost the browser run minutes of CPU on a 2-core machine, while what these tests check (a
finish, a clock, a podium, a row lighting up) needs only a board that is played to its end.
The blanks are a subset of the full puzzle's, so the solution is the same and still unique:
the first thirteen (three rows' worth, row 1 whole, which the tests' single-cell checks use)
and seven more spread over the lower rows.
"""

from tests.conftest import EMPTY as FULL_EMPTY
from tests.conftest import SOLUTION

EMPTY = FULL_EMPTY[:13] + [30, 40, 50, 58, 64, 72, 78]
assert set(EMPTY) <= set(FULL_EMPTY)
PUZZLE = "".join("0" if i in EMPTY else digit for i, digit in enumerate(SOLUTION))
CLUES = 81 - len(EMPTY)

__all__ = ["CLUES", "EMPTY", "PUZZLE", "SOLUTION"]
