"""A Showdown room with delayed feedback (issue 25; RULES.md 1, "Delayed feedback") through
the room write path: entries kept as typed, erase, submit, out, ranking and scores at the end."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engines import race
from games.sudoku import play
from players.models import Profile
from rooms import actions as A
from rooms.api import NotAllowed, RoomError, create_room, perform
from rooms.gametypes import game_for
from rooms.models import Room, Seat
from tests.conftest import EMPTY, SOLUTION


@pytest.fixture
def players(db):
    return [Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus", "Ken")]


@pytest.fixture
def room(players, bank_puzzle):
    room = create_room(players[0], level="easy")
    for p in players[1:3]:
        perform(room.code, p, A.Join())
    perform(room.code, players[0], A.SetRules("easy", race.TOURNAMENT))
    for p in players[:3]:
        perform(room.code, p, A.SetReady(True))
    perform(room.code, players[0], A.Start())
    return room


def later(seconds):
    return timezone.now() + dt.timedelta(seconds=3.5 + seconds)


def right(cell):
    return int(SOLUTION[cell])


def wrong(cell):
    return right(cell) % 9 + 1


def fill(room, player, wrong_cells=(), at=10):
    for cell in EMPTY:
        perform(room.code, player, A.Enter(cell, wrong(cell) if cell in wrong_cells else right(cell)), now=later(at))


def submit(room, player, at):
    return perform(room.code, player, A.GameMove(play.Submit()), now=later(at))


def seat(room, player):
    return Seat.objects.get(room__code=room.code, player=player)


def test_the_socket_message_reads_erase_and_submit():
    game = game_for(Room(game="showdown"))
    assert game.parse({"action": "submit"}) == A.GameMove(play.Submit())
    assert game.parse({"action": "erase", "cell": "4"}) == A.GameMove(play.Erase(4))
    with pytest.raises(A.MalformedMessage, match="Pick a cell"):
        game.parse({"action": "erase"})
    assert game.parse({"cell": "2", "digit": "4"}) == A.Enter(2, 4)


def test_the_room_summary_says_delayed_feedback(room):
    room.refresh_from_db()
    assert "Delayed feedback, 3 submissions" in game_for(room).summary(room)


def test_entries_are_kept_as_typed_and_score_nothing(room, players):
    result = perform(room.code, players[0], A.Enter(EMPTY[0], wrong(EMPTY[0])), now=later(1))
    assert result.outcome.kind == "entry" and result.outcome.message == ""
    s = seat(room, players[0])
    assert (s.progress, s.score, s.mistakes, s.state["cells"][EMPTY[0]]) == (1, 0, 0, str(wrong(EMPTY[0])))
    perform(room.code, players[0], A.GameMove(play.Erase(EMPTY[0])), now=later(2))
    assert seat(room, players[0]).progress == 0


def test_three_players_race_a_tournament_room(room, players):
    ada, grace, linus = players[:3]
    # Ada: two wrong cells, told so, fixes them and finishes with +60 s.
    fill(room, ada, EMPTY[:2])
    result = submit(room, ada, 20)
    assert result.outcome.message == "2 cells are wrong (2 submissions left, +60 s)"
    for cell in EMPTY[:2]:
        perform(room.code, ada, A.Enter(cell, right(cell)), now=later(21))
    assert submit(room, ada, 30).outcome.finished
    # Grace: all right at once, later than Ada's clock but earlier than Ada's 30 + 60 s.
    fill(room, grace, at=40)
    assert submit(room, grace, 50).outcome.finished
    # Linus: uses all three submissions and is out.
    fill(room, linus, EMPTY[:1])
    for n in range(3):
        if n:
            perform(room.code, linus, A.Enter(EMPTY[n], wrong(EMPTY[n])), now=later(60 + n))
        result = submit(room, linus, 61 + n)
    assert result.outcome.kind == "out" and seat(room, linus).status == "eliminated"
    room.refresh_from_db()
    assert room.state == "finished"
    a, g, li = seat(room, ada), seat(room, grace), seat(room, linus)
    assert (g.place, a.place, li.place) == (1, 2, 3)  # Ada's ~30 s + 60 s loses to Grace's ~50 s
    assert (a.score, g.score) == (10 * 51 + 100 - 5, 10 * 51 + 100)
    assert (li.progress, li.score) == (48, 480 - 15)  # right cells at the end; -5 per wrong submission


def test_bad_submissions_are_refused_and_change_nothing(room, players):
    ada, grace, _ = players[:3]
    perform(room.code, ada, A.Enter(EMPTY[0], 1), now=later(1))
    with pytest.raises(race.IllegalMove, match="Fill every cell"):
        submit(room, ada, 2)
    fill(room, grace, EMPTY[:1])
    submit(room, grace, 20)
    before = seat(room, grace).state
    with pytest.raises(race.IllegalMove, match="already checked"):
        submit(room, grace, 21)
    with pytest.raises(race.IllegalMove, match="given"):
        perform(room.code, grace, A.Enter(0, 1), now=later(22))
    assert seat(room, grace).state == before and seat(room, grace).mistakes == 1
    with pytest.raises(NotAllowed, match="watching"):
        submit(room, players[3], 23)
    for n in (1, 2):  # Grace's second and third wrong submissions: she is out, Ada plays on
        perform(room.code, grace, A.Enter(EMPTY[n], wrong(EMPTY[n])), now=later(30 + n))
        submit(room, grace, 30 + n)
    assert seat(room, grace).status == "eliminated"
    for refused in (lambda: submit(room, grace, 40), lambda: perform(room.code, grace, A.Enter(EMPTY[0], 1))):
        with pytest.raises(race.IllegalMove, match="last submission: you are out"):
            refused()


def test_a_submission_after_the_room_finished_is_refused(room, players):
    for p in players[:3]:
        perform(room.code, p, A.Forfeit(), now=later(1))
    with pytest.raises(RoomError, match="not running"):
        submit(room, players[0], 2)


@pytest.mark.parametrize(
    "data, rules",
    [
        ({"level": "easy", "preset": "tournament"}, race.TOURNAMENT),
        (
            {
                "level": "easy",
                "preset": "custom",
                "notes": "on",
                "hint_limit": "1",
                "feedback": "delayed",
                "submissions": "5",
            },
            race.Rules(True, 1, race.Penalty.FLAT, None, race.Feedback.DELAYED, 5),
        ),
        ({"level": "easy", "preset": "custom", "notes": "on", "hint_limit": "3"}, race.STANDARD),
    ],
)
def test_the_lobby_reads_feedback_and_submissions(data, rules):
    assert A.parse_rules(data) == A.SetRules("easy", rules)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"feedback": "later"}, "Feedback must be immediate or delayed."),
        ({"feedback": "delayed", "submissions": "2"}, "Submissions must be 1, 3 or 5."),
        ({"feedback": "delayed", "submissions": "9"}, "between 1 and 5"),
    ],
)
def test_the_lobby_refuses_other_feedback_options(data, message):
    with pytest.raises((A.MalformedMessage, race.MalformedMove), match=message):
        A.parse_rules({"level": "easy", "preset": "custom", **data})


def test_submit_is_enabled_when_the_grid_becomes_full(room, players):
    ada = players[0]
    for cell in EMPTY[:-1]:
        perform(room.code, ada, A.Enter(cell, right(cell)), now=later(1))
    room.refresh_from_db()
    game, s = game_for(room), seat(room, ada)
    before = dict(s.state)
    result = perform(room.code, ada, A.Enter(EMPTY[-1], right(EMPTY[-1])), now=later(2))
    answer = game.move_answer(room, seat(room, ada), before, result.outcome, EMPTY[-1])
    assert 'id="submit-button"' in answer and "disabled" not in answer.split('id="submit-button"')[1].split(">")[0]
    full = seat(room, ada).state
    result = perform(room.code, ada, A.GameMove(play.Erase(EMPTY[-1])), now=later(3))
    answer = game.move_answer(room, seat(room, ada), full, result.outcome, EMPTY[-1])
    assert 'id="submit-button"' in answer and "disabled" in answer.split('id="submit-button"')[1].split(">")[0]


def test_the_race_page_has_erase_and_a_disabled_submit(room, players):
    from tests.conftest import client_for

    perform(room.code, players[0], A.Enter(EMPTY[0], 1), now=later(1))  # past the countdown: playing
    html = client_for(players[0]).get(reverse("room", args=[room.code])).content.decode()
    assert 'name="action" value="erase"' in html and re.search(r'id="submit-button"[^>]*disabled', html)
    assert "Delayed feedback, 3 submissions" in html


def test_the_lobby_offers_tournament_and_the_feedback_options(players, bank_puzzle):
    from tests.conftest import client_for

    lobby = create_room(players[0], level="easy")
    html = client_for(players[0]).get(reverse("room", args=[lobby.code])).content.decode()
    assert 'value="tournament"' in html and 'data-feedback="delayed"' in html
    assert 'name="feedback"' in html and 'name="submissions"' in html
