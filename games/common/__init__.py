"""What every game shares, below every game (games/sudoku, games/cardoku, games/domino,
games/daily) and importing none of them: the row writer, ASCII number fields, htmx answers,
the per-client limits, time zones, the language helpers, the home page's and leaderboards'
panel, durations as players read them, and the server's uptime."""
