"""Sudoku engine: parsing, solving, grading, hints and generation.

Pure standard library (no Django): other code imports only from here.
"""

from .generator import Generated, GenerationFailed, generate
from .grader import Contradiction, Grade, Hint, grade, next_hint
from .grid import Grid, PuzzleFormatError, clue_count, format_grid, index, is_complete_solution, parse, rc
from .levels import CLUE_BANDS, Level
from .solver import SolverBudgetExceeded, count_solutions, has_unique_solution, solve
from .techniques import TECHNIQUES

__all__ = [
    "CLUE_BANDS",
    "Contradiction",
    "GenerationFailed",
    "Generated",
    "Grade",
    "Grid",
    "Hint",
    "Level",
    "PuzzleFormatError",
    "SolverBudgetExceeded",
    "TECHNIQUES",
    "clue_count",
    "count_solutions",
    "format_grid",
    "generate",
    "grade",
    "has_unique_solution",
    "index",
    "is_complete_solution",
    "next_hint",
    "parse",
    "rc",
    "solve",
]
