"""The recorder (replays/tracks.py): moves the server logged, played again through the
engine, as the event list a replay and a ghost play. Worked examples on the suite's puzzle."""

from games.engines import race
from replays import tracks
from tests.conftest import PUZZLE, SOLUTION

EMPTY = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
DELAYED = race.Rules.from_dict({**race.STANDARD.to_dict(), "feedback": "delayed"})


def test_right_wrong_hint_and_notes_as_the_board_showed_them():
    # Cell 2 (row 1, column 3) is 4; cell 3 is 6. A 9 at cell 2 is wrong and taken off.
    moves = [(1000, "e", 2, 4), (2500, "e", 3, 9), (3000, "n", 5, 7), (3100, "n", 5, 8), (4000, "h", None, None)]
    out = tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves)
    notes = [[3000, 5, 1 << 7, "n"], [3100, 5, 1 << 7 | 1 << 8, "n"]]
    assert out.events[:4] == [[1000, 2, 4, "c"], [2500, 3, 9, "w"], *notes]
    ms, cell, digit, mark = out.events[4]
    assert (ms, mark) == (4000, "h") and digit == int(SOLUTION[cell])  # the engine's choice, replayed
    assert (out.mistakes, out.hints, out.finished) == (1, 1, False)


def test_a_refused_move_leaves_no_event():
    moves = [(1000, "e", 0, 5), (2000, "e", 2, 4), (2100, "e", 2, 4)]  # a given; then a solved cell
    assert tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves).events == [[2000, 2, 4, "c"]]


def test_split_times_per_box_and_a_finish():
    moves = [(100 * (n + 1), "e", cell, int(SOLUTION[cell])) for n, cell in enumerate(EMPTY)]
    out = tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves)
    assert out.finished and len(out.events) == len(EMPTY)
    # Box 1 (top left) holds cells 0-2, 9-11, 18-20: its last empty cell in this order is 20.
    last_of_box1 = max(n for n, cell in enumerate(EMPTY) if cell in tracks.BOXES[0])
    assert out.splits[0] == 100 * (last_of_box1 + 1)
    assert out.splits[8] == 100 * len(EMPTY)  # the bottom-right box's last cell is the last cell entered


def test_a_pause_beyond_the_grace_is_not_play_time():
    moves = [(1000, "e", 2, 4), (2000, "p", None, None), (62_000, "r", None, None), (63_000, "e", 3, 6)]
    out = tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves)
    assert [e[0] for e in out.events] == [1000, 63_000 - 50_000]  # 60 s away, 10 s of it counted


def test_a_pause_before_any_entry_keeps_the_clock_running():
    moves = [(1000, "p", None, None), (61_000, "r", None, None), (62_000, "e", 2, 4)]
    assert tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves).events[0][0] == 62_000


def test_delayed_feedback_keeps_entries_as_typed_and_judges_only_submissions():
    fill = [(10 * (n + 1), "enter", cell, 1 if n == 0 else int(SOLUTION[cell])) for n, cell in enumerate(EMPTY)]
    moves = [*fill, (5000, "submit", None, None), (6000, "erase", EMPTY[0], None)]
    out = tracks.record(PUZZLE, SOLUTION, DELAYED, moves)
    assert out.events[0] == [10, EMPTY[0], 1, "e"]  # a wrong digit, unjudged, as typed
    assert {e[3] for e in out.events[:-2]} == {"e"}
    assert out.events[-2:] == [[5000, -1, 1, "s"], [6000, EMPTY[0], 0, "x"]]
    assert out.splits == [None] * 9  # a split would say which boxes were right before a submission did


def test_pack_stays_within_5_kb_and_round_trips():
    moves = [(n * 7, "n", EMPTY[n % len(EMPTY)], 1 + n % 9) for n in range(3000)]
    moves += [(30_000 + 100 * n, "e", cell, int(SOLUTION[cell])) for n, cell in enumerate(EMPTY)]
    events = tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves).events
    packed = tracks.pack(events)
    assert len(packed) <= tracks.MAX_BYTES
    unpacked = tracks.unpack(packed)
    assert [e for e in unpacked if e[3] == "c"] == [e for e in events if e[3] == "c"]
    wrong = [(n * 3, "e", 2, 9) for n in range(3000)] + [(10_000, "e", 2, 4)]  # 3,000 mistakes, then right
    events = tracks.record(PUZZLE, SOLUTION, race.STANDARD, wrong).events
    packed = tracks.pack(events)
    assert len(packed) <= tracks.MAX_BYTES and tracks.unpack(packed)[-1] == [10_000, 2, 4, "c"]
    small = events[-10:]
    assert tracks.unpack(tracks.pack(small)) == small


def test_a_ghost_line_has_cells_never_digits():
    moves = [(1000, "e", 2, 4), (2000, "e", 3, 9), (3000, "n", 5, 7), (4000, "h", 3, None)]
    events = tracks.record(PUZZLE, SOLUTION, race.STANDARD, moves).events
    assert tracks.ghost_line(events) == [[1000, 2, 1], [4000, 3, 1]]
