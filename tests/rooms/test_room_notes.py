"""Issue 27: a cell's notes set in one move in a Showdown room (Backspace clears them, the
page's Undo note puts them back), private to the player like every pencil mark."""

from games.sudoku.play import Note, SetNotes
from rooms import actions as A
from rooms.api import act
from rooms.gametypes import GAME_TYPES
from rooms.models import Seat
from tests.browser.race_setup import running_room


def board_of(room, player):
    from games.engines import race

    return race.Board.from_dict(Seat.objects.get(room=room, player=player).state)


def test_notes_are_set_cleared_and_restored_in_the_room(db):
    room, (ada, grace) = running_room()
    for digit in (3, 8):
        act(room.code, ada, A.GameMove(Note(2, digit)))
    act(room.code, ada, A.GameMove(SetNotes(2, 0)))
    assert board_of(room, ada).notes_at(2) == []
    act(room.code, ada, A.GameMove(SetNotes(2, 1 << 3 | 1 << 8)))
    assert board_of(room, ada).notes_at(2) == [3, 8]
    assert board_of(room, grace).notes_at(2) == []  # nobody else's board
    seat = Seat.objects.get(room=room, player=ada)
    assert (seat.score, seat.mistakes) == (0, 0)
    message = GAME_TYPES["showdown"].parse({"action": "notes", "cell": "2", "marks": "38"})
    assert message == A.GameMove(SetNotes(2, 1 << 3 | 1 << 8))
