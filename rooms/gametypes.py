"""The game-specific part of a room, behind one small interface.

A game type knows how to start the players' boards, apply a board action, and describe a
seat for the standings. Lobby, ready flags, countdown, ranking, spectating and history
are the room's and shared by every game type.
"""

from django.conf import settings

from games.bank import take_puzzle
from games.engines import race

from . import actions as A


class ShowdownGame:
    """The interface every room game type implements:

    rules/summary/preset    the room's settings as shown in lobby, play and results
    start(room, seats)      give every seat its starting board (same for all)
    parse(data)             a socket message -> a typed board action (or MalformedMove)
    apply(room, seat, action, now) -> outcome with .kind and .message
    leave(seat)             a player leaves or forfeits a running game
    rank(room, seats)       [(place, seat)], ties share a place
    standing_line(seat)     the one-line summary in the live standings
    silhouette(seat)        81 classes: 'g' start position, 'f' filled by the player, '' empty
    board_template          partial rendering the player's own board in the room

    Optional (the duels in rooms/duels.py use them; Showdown does not need them):
    board_context(room, seat, outcome, selected, mode, now, playing)
                            the own board's template context, for types with their own board
    parse_settings(data)    the lobby's host settings form -> SetRules (level may be None)
    settings_template       partial with the host settings form in the lobby
    badges(room)            [(css class, text)] shown next to the game's name
    status_note(seat)       a word for the standings instead of "finished 3:20" (or None)
    deadline(room)          when time ends the game (None: only the safety limit)
    time_limit              the same as a timedelta from the countdown's end (for the sweep)
    close(room, seats, now) the room is finishing: settle what time has ended
    has_level, start_label, css, script
    """

    key = "showdown"
    label = "Sudoku Showdown"
    board_template = "rooms/room.html#showdown_board"
    start_label = "Start showdown"
    has_level = True
    time_limit = None
    script = "js/board.js"

    def parse(self, data):
        return A.parse_board_message(data)

    def rank(self, room, seats):
        rows = [race.Standing(seat.pk, race.Status(seat.status), seat.progress, seat.mistakes, seat.hints,
                              seat.score, seat.finish_seconds) for seat in seats]
        by_id = {seat.pk: seat for seat in seats}
        return [(place, by_id[s.key]) for place, s in race.rank(rows, settings.NEAR_TIE_SECONDS)]

    def silhouette(self, seat) -> list[str]:
        """Which cells are filled, never the digits."""
        if not seat.state:
            return []
        givens, cells = seat.state["givens"], seat.state["cells"]
        return ["g" if g != "0" else ("f" if c != "0" else "") for g, c in zip(givens, cells)]

    def standing_line(self, seat) -> str:
        parts = [f"{seat.score} pts", f"{seat.mistakes} mistake{'s' if seat.mistakes != 1 else ''}",
                 f"{seat.hints} hint{'s' if seat.hints != 1 else ''}"]
        return " · ".join(parts)

    def rules(self, room) -> race.Rules:
        return race.Rules.from_dict(room.rules) if room.rules else race.STANDARD

    def summary(self, room) -> list[str]:
        return self.rules(room).summary()

    def preset(self, room) -> str:
        return self.rules(room).preset

    def start(self, room, seats) -> None:
        room.puzzle = take_puzzle(room.level)
        board = race.Board.new(room.puzzle.givens_tuple)
        for seat in seats:
            seat.state = board.to_dict()
            seat.to_fill = board.to_fill

    def apply(self, room, seat, action, now) -> race.Outcome:
        board, rules, solution = race.Board.from_dict(seat.state), self.rules(room), room.puzzle.solution_tuple
        if isinstance(action, A.Enter):
            board, outcome = race.enter(board, rules, solution, action.cell, action.digit)
        elif isinstance(action, A.Note):
            board, outcome = race.toggle_note(board, rules, action.cell, action.digit)
        else:
            board, outcome = race.hint(board, rules, solution, action.cell)
        self.store(seat, board)
        return outcome

    def leave(self, seat) -> None:
        self.store(seat, race.leave(race.Board.from_dict(seat.state)))

    def store(self, seat, board: race.Board) -> None:
        seat.state = board.to_dict()
        seat.score, seat.mistakes, seat.hints, seat.progress = board.score, board.mistakes, board.hints, board.progress
        seat.status = str(board.status)


from .duels import CardokuDuel, DominoDuel  # noqa: E402  (they build on the interface above)

GAME_TYPES = {"showdown": ShowdownGame(), "domino": DominoDuel(), "cardoku": CardokuDuel()}


def game_for(room):
    return GAME_TYPES[room.game]
