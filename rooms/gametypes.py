"""The game-specific part of a room, behind one small interface.

A game type knows how to start the players' boards, apply a board action, and describe a
seat for the standings. Lobby, ready flags, countdown, ranking, spectating and history
are the room's and shared by every game type.
"""

from games.bank import take_puzzle
from games.engines import race

from . import actions as A


class ShowdownGame:
    key = "showdown"
    label = "Sudoku Showdown"
    board_actions = (A.Enter, A.Note, A.Hint)

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

    def apply(self, room, seat, action) -> race.Outcome:
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


GAME_TYPES = {"showdown": ShowdownGame()}


def game_for(room):
    return GAME_TYPES[room.game]
