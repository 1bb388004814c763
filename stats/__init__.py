"""Leaderboards and history: what the home page and the leaderboards show of every game
(panels.py, one Panel per game), the Solo Run boards (leaderboards.py) and charts, and the
room history and totals of every room game (history.py, from rooms.models.RoomResult).
No models of its own: its migrations are the history of Profile and ShowdownResult, which
moved to players and rooms with their tables."""
