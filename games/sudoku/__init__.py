"""Sudoku (Solo Run and the Showdown game type), a peer of games/cardoku and games/domino.

play.py is its pure layer (no Django): the one parser of a board move and the one way to
apply it, shared by Solo Run and the Showdown game type (rooms/gametypes/showdown.py). The
rules themselves are the race engine's (games/engines/race.py). Solo Run: solo.py (the one
write path), views.py and urls.py (/solo/...), bests.py (the boards across accounts),
presenters.py and fragments.py (the board for pages and answers), panels.py (its tile and
leaderboard tab). Its rows (SoloRun, SoloBest, SoloBand) are games/models.py's, where their
migrations are.
"""
