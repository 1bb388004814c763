"""Sudoku (Solo Run and the Showdown game type), a peer of games/cardoku and games/domino.

play.py is its pure layer (no Django): the one parser of a board move and the one way to
apply it, shared by Solo Run (games/solo.py) and the Showdown game type
(rooms/gametypes/showdown.py). The rules themselves are the race engine's
(games/engines/race.py).
"""
