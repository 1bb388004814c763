"""Sudoku engine: parsing, solving, grading and generation (standard library only)."""

from .grid import Grid, PuzzleFormatError, format_grid, index, parse, rc
from .solver import SolverBudgetExceeded, count_solutions, has_unique_solution, solve

__all__ = [
    "Grid",
    "PuzzleFormatError",
    "SolverBudgetExceeded",
    "count_solutions",
    "format_grid",
    "has_unique_solution",
    "index",
    "parse",
    "rc",
    "solve",
]
