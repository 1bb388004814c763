"""A Showdown room with delayed feedback (issue 25; docs/rules.md 1, "Delayed feedback") through
the room write path: entries kept as typed, erase, submit, out, ranking and scores at the end."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from games.engines import race
from games.sudoku import play
from games.sudoku.play import Enter
from rooms import actions as A
from rooms.api import NotAllowed, RoomError, act, create_room
from rooms.gametypes import game_for
from rooms.models import Room, Seat
from tests.conftest import EMPTY, PUZZLE, SOLUTION


@pytest.fixture
def tournament(players, bank_puzzle, make_room):
    """Ada's easy tournament (delayed feedback), started with Grace and Linus; the watcher watches."""
    room = make_room(*players[:3], level="easy")
    act(room.code, players[0], A.SetRules("easy", race.TOURNAMENT))
    for p in players[:3]:
        act(room.code, p, A.SetReady(True))
    act(room.code, players[0], A.Start())
    return room


def later(seconds):
    """`seconds` into the race (half a second past the countdown): counted from the started
    room's start, not from now, so a test that runs slowly on a loaded machine reads the same
    clocks."""
    starts_at = Room.objects.filter(starts_at__isnull=False).latest("starts_at").starts_at
    return starts_at + dt.timedelta(seconds=0.5 + seconds)


def right(cell):
    return int(SOLUTION[cell])


def wrong(cell):
    return right(cell) % 9 + 1


def fill(room, player, wrong_cells=(), at=10):
    for cell in EMPTY:
        act(
            room.code,
            player,
            A.GameMove(Enter(cell, wrong(cell) if cell in wrong_cells else right(cell))),
            now=later(at),
        )


def submit(room, player, at):
    return act(room.code, player, A.GameMove(play.Submit()), now=later(at))


def seat(room, player):
    return Seat.objects.get(room__code=room.code, player=player)


def test_the_socket_message_reads_erase_and_submit():
    game = game_for(Room(game="showdown"))
    assert game.parse({"action": "submit"}) == A.GameMove(play.Submit())
    assert game.parse({"action": "erase", "cell": "4"}) == A.GameMove(play.Erase(4))
    with pytest.raises(A.MalformedMessage, match="Pick a cell"):
        game.parse({"action": "erase"})
    assert game.parse({"cell": "2", "digit": "4"}) == A.GameMove(Enter(2, 4))


def test_the_room_summary_says_delayed_feedback(tournament):
    tournament.refresh_from_db()
    assert "Delayed feedback, 3 submissions" in game_for(tournament).summary(tournament)


def test_entries_are_kept_as_typed_and_score_nothing(tournament, players):
    result = act(tournament.code, players[0], A.GameMove(Enter(EMPTY[0], wrong(EMPTY[0]))), now=later(1))
    assert result.outcome.kind == "entry" and result.outcome.message == ""
    s = seat(tournament, players[0])
    assert (s.progress, s.score, s.mistakes, s.state["cells"][EMPTY[0]]) == (1, 0, 0, str(wrong(EMPTY[0])))
    act(tournament.code, players[0], A.GameMove(play.Erase(EMPTY[0])), now=later(2))
    assert seat(tournament, players[0]).progress == 0


def test_three_players_race_a_tournament_room(tournament, players):
    ada, grace, linus = players[:3]
    # Ada: two wrong cells, told so, fixes them and finishes with +60 s.
    fill(tournament, ada, EMPTY[:2])
    result = submit(tournament, ada, 20)
    assert result.outcome.message == "2 cells are wrong (2 submissions left, +60 s)"
    for cell in EMPTY[:2]:
        act(tournament.code, ada, A.GameMove(Enter(cell, right(cell))), now=later(21))
    assert submit(tournament, ada, 30).outcome.finished
    # Grace: all right at once, later than Ada's clock but earlier than Ada's 30 + 60 s.
    fill(tournament, grace, at=40)
    assert submit(tournament, grace, 50).outcome.finished
    # Linus: uses all three submissions and is out.
    fill(tournament, linus, EMPTY[:1])
    for n in range(3):
        if n:
            act(tournament.code, linus, A.GameMove(Enter(EMPTY[n], wrong(EMPTY[n]))), now=later(60 + n))
        result = submit(tournament, linus, 61 + n)
    assert result.outcome.kind == "out" and seat(tournament, linus).status == "eliminated"
    tournament.refresh_from_db()
    assert tournament.state == "finished"
    a, g, li = seat(tournament, ada), seat(tournament, grace), seat(tournament, linus)
    assert (g.place, a.place, li.place) == (1, 2, 3)  # Ada's ~30 s + 60 s loses to Grace's ~50 s
    assert (a.score, g.score) == (10 * 51 + 100 - 5, 10 * 51 + 100)
    assert (li.progress, li.score) == (48, 480 - 15)  # right cells at the end; -5 per wrong submission


def test_bad_submissions_are_refused_and_change_nothing(tournament, players):
    ada, grace, _ = players[:3]
    act(tournament.code, ada, A.GameMove(Enter(EMPTY[0], 1)), now=later(1))
    with pytest.raises(race.IllegalMove, match="Fill every cell"):
        submit(tournament, ada, 2)
    fill(tournament, grace, EMPTY[:1])
    submit(tournament, grace, 20)
    before = seat(tournament, grace).state
    with pytest.raises(race.IllegalMove, match="already checked"):
        submit(tournament, grace, 21)
    with pytest.raises(race.IllegalMove, match="given"):
        act(tournament.code, grace, A.GameMove(Enter(0, 1)), now=later(22))
    assert seat(tournament, grace).state == before and seat(tournament, grace).mistakes == 1
    with pytest.raises(NotAllowed, match="watching"):
        submit(tournament, players[3], 23)
    for n in (1, 2):  # Grace's second and third wrong submissions: she is out, Ada plays on
        act(tournament.code, grace, A.GameMove(Enter(EMPTY[n], wrong(EMPTY[n]))), now=later(30 + n))
        submit(tournament, grace, 30 + n)
    assert seat(tournament, grace).status == "eliminated"
    for refused in (
        lambda: submit(tournament, grace, 40),
        lambda: act(tournament.code, grace, A.GameMove(Enter(EMPTY[0], 1))),
    ):
        with pytest.raises(race.IllegalMove, match="last submission: you are out"):
            refused()


def test_a_submission_after_the_room_finished_is_refused(tournament, players):
    for p in players[:3]:
        act(tournament.code, p, A.Forfeit(), now=later(1))
    with pytest.raises(RoomError, match="not running"):
        submit(tournament, players[0], 2)


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


def test_submit_is_enabled_when_the_grid_becomes_full(tournament, players):
    ada = players[0]
    for cell in EMPTY[:-1]:
        act(tournament.code, ada, A.GameMove(Enter(cell, right(cell))), now=later(1))
    tournament.refresh_from_db()
    game, s = game_for(tournament), seat(tournament, ada)
    before = dict(s.state)
    result = act(tournament.code, ada, A.GameMove(Enter(EMPTY[-1], right(EMPTY[-1]))), now=later(2))
    answer = game.move_answer(tournament, seat(tournament, ada), before, result.outcome, EMPTY[-1])
    assert 'id="submit-button"' in answer and "disabled" not in answer.split('id="submit-button"')[1].split(">")[0]
    full = seat(tournament, ada).state
    result = act(tournament.code, ada, A.GameMove(play.Erase(EMPTY[-1])), now=later(3))
    answer = game.move_answer(tournament, seat(tournament, ada), full, result.outcome, EMPTY[-1])
    assert 'id="submit-button"' in answer and "disabled" in answer.split('id="submit-button"')[1].split(">")[0]


def test_the_race_page_has_erase_and_a_disabled_submit(tournament, players):
    from tests.conftest import client_for

    act(tournament.code, players[0], A.GameMove(Enter(EMPTY[0], 1)), now=later(1))  # past the countdown: playing
    html = client_for(players[0]).get(reverse("room", args=[tournament.code])).content.decode()
    assert 'name="action" value="erase"' in html and re.search(r'id="submit-button"[^>]*disabled', html)
    assert "Delayed feedback, 3 submissions" in html


def test_the_lobby_offers_tournament_and_the_feedback_options(players, bank_puzzle):
    from tests.conftest import client_for

    lobby = create_room(players[0], level="easy")
    html = client_for(players[0]).get(reverse("room", args=[lobby.code])).content.decode()
    assert 'value="tournament"' in html and 'data-feedback="delayed"' in html
    assert 'name="feedback"' in html and 'name="submissions"' in html


def race_to_the_end(room, players):
    """Ada: two wrong cells, fixed, finishes at ~30 s (+60 s); Grace all right at ~50 s;
    Linus out after three wrong submissions (EMPTY[0..2] wrong at the end)."""
    ada, grace, linus = players[:3]
    fill(room, ada, EMPTY[:2])
    submit(room, ada, 20)
    for cell in EMPTY[:2]:
        act(room.code, ada, A.GameMove(Enter(cell, right(cell))), now=later(21))
    submit(room, ada, 30)
    fill(room, grace, at=40)
    submit(room, grace, 50)
    fill(room, linus, EMPTY[:1])
    for n in range(3):
        if n:
            act(room.code, linus, A.GameMove(Enter(EMPTY[n], wrong(EMPTY[n]))), now=later(60 + n))
        submit(room, linus, 61 + n)


def page(player, room):
    from tests.conftest import client_for

    return client_for(player).get(reverse("room", args=[room.code])).content.decode()


def review_boards(html):
    """[(name, [(kind, digit, small digit) per cell])] of the page's review section."""
    section = html.split('id="review"', 1)[1].split("</section>", 1)[0]
    boards = []
    for item in section.split('<li class="review-board')[1:]:
        name = re.search(r'</span> ([^<]+?)(?: <span|</h3>)', item).group(1)
        grid = item.split('class="review-grid"', 1)[1].split("</div>", 1)[0]
        cells = re.findall(r'<span class="(\w+)">(\d?)(?:<small>(\d)</small>)?</span>', grid)
        boards.append((name, cells))
    return boards


def test_the_finished_room_shows_every_board_with_its_wrong_cells_marked(tournament, players):
    linus, ken = players[2:]
    race_to_the_end(tournament, players)
    tournament.refresh_from_db()
    assert tournament.state == "finished"
    for viewer in (linus, ken):  # a player and a spectator see the same boards
        boards = review_boards(page(viewer, tournament))
        assert [name for name, _ in boards] == ["Grace", "Ada", "Linus"]  # in place order
        for name, cells in boards:
            assert len(cells) == 81
            givens = [i for i, (kind, _, _) in enumerate(cells) if kind == "given"]
            assert givens == [i for i in range(81) if i not in EMPTY]
            wrong = {i: (int(d), int(small)) for i, (kind, d, small) in enumerate(cells) if kind == "wrong"}
            if name == "Linus":  # his three wrong cells: his digit, the right one small
                assert wrong == {c: (wrong_digit(c), right(c)) for c in EMPTY[:3]}
            else:
                assert wrong == {}
            rights = [(i, d, small) for i, (kind, d, small) in enumerate(cells) if kind == "right"]
            assert all(int(d) == right(i) and not small for i, d, small in rights)
    html = page(linus, tournament)
    assert "48 right · 3 wrong · 0 empty" in html and "row 1, column 3: 5, right 4" in html


def test_the_review_arrives_with_the_finish_push(tournament, players):
    """The room's refresh (the push every socket gets when the room ends) renders the same
    partial as the page."""
    from rooms.answers import render_views

    linus, ken = players[2:]
    race_to_the_end(tournament, players)
    views = render_views(tournament.code, {(ken.pk, "en"): ken, (linus.pk, "nl"): linus})
    assert review_boards(views[ken.pk, "en"]) == review_boards(page(ken, tournament))
    assert "Elk bord aan het eind" in views[linus.pk, "nl"]


def test_an_immediate_room_has_no_review(players, bank_puzzle):
    room = create_room(players[0], level="easy")
    act(room.code, players[1], A.Join())
    for p in players[:2]:
        act(room.code, p, A.SetReady(True))
    act(room.code, players[0], A.Start())
    for p in players[:2]:
        act(room.code, p, A.Forfeit(), now=later(1))
    assert 'id="review"' not in page(players[0], room)


def wrong_digit(cell):
    return wrong(cell)


def standings_html(viewer, room):
    return page(viewer, room).split('id="standings"', 1)[1].split("</section>", 1)[0]


def test_standings_show_filling_never_correctness_until_the_end(tournament, players):
    ada, grace, linus, ken = players
    fill(tournament, ada, EMPTY[:2])  # full, two wrong
    submit(tournament, ada, 20)  # a wrong submission
    fill(tournament, grace)  # full, all right, not submitted
    for viewer in (ada, grace, linus, ken):
        html = standings_html(viewer, tournament)
        lines = re.findall(r'<span class="line">(.*?)</span>', html)
        assert lines == ["51/51 filled", "51/51 filled", "0/51 filled"]
        assert not re.search(r"pts|mistake|wrong|right|punt|fout", html)
        assert re.findall(r'class="place"[^>]*>(\d)', html) == ["1", "1", "3"]  # Ada's wrong submission ranks nothing
    # Once Ada finishes, her line shows the seconds her wrong submission added, still no score.
    for cell in EMPTY[:2]:
        act(tournament.code, ada, A.GameMove(Enter(cell, right(cell))), now=later(21))
    submit(tournament, ada, 30)
    html = standings_html(ken, tournament)
    assert "51/51 filled · +60 s" in html and "pts" not in html
    assert re.search(r"finished 1:3\d", html)  # ~33.5 s on the clock + 60 s
    # The end: scores and wrong submissions, progress is right cells.
    submit(tournament, grace, 40)
    act(tournament.code, linus, A.Forfeit(), now=later(41))
    html = standings_html(ken, tournament)
    assert "610 pts · 0 wrong submissions" in html and "605 pts · 1 wrong submission" in html
    assert "51 of 51 cells right" in html


def test_the_standings_in_dutch(tournament, players):
    from django.utils import translation

    from rooms.gametypes import game_for

    fill(tournament, players[0])
    tournament.refresh_from_db()
    with translation.override("nl"):
        assert game_for(tournament).shown_line(tournament, seat(tournament, players[0])) == "51/51 ingevuld"


def submit_disabled(answer):
    return "disabled" in answer.split('id="submit-button"')[1].split(">")[0]


def test_submit_is_off_after_a_wrong_submission_until_a_cell_changes(tournament, players):
    ada = players[0]
    fill(tournament, ada, EMPTY[:1])
    tournament.refresh_from_db()
    game = game_for(tournament)
    before = seat(tournament, ada).state
    result = submit(tournament, ada, 20)
    answer = game.move_answer(tournament, seat(tournament, ada), before, result.outcome, None)
    assert "1 cell is wrong" in answer and submit_disabled(answer)
    assert re.search(r'id="submit-button"[^>]*disabled', page(ada, tournament))  # a reload agrees
    checked = seat(tournament, ada).state
    result = act(tournament.code, ada, A.GameMove(Enter(EMPTY[0], right(EMPTY[0]))), now=later(21))
    answer = game.move_answer(tournament, seat(tournament, ada), checked, result.outcome, EMPTY[0])
    assert not submit_disabled(answer)


def test_a_delayed_entry_answer_and_push_are_as_small_as_an_immediate_one(tournament, players):
    """Issue 25: the live path's answer and standings push of a delayed entry cost what an
    immediate entry's do (bench/realtime.py --feedback delayed measures the CPU)."""
    from rooms.push import standings_html

    def sizes(code, player, cell, digit):
        r = Room.objects.get(code=code)
        before = seat(r, player).state
        result = act(code, player, A.GameMove(Enter(cell, digit)), now=later(5))
        r.refresh_from_db()
        answer = game_for(r).move_answer(r, seat(r, player), before, result.outcome, cell)
        push = standings_html(r, list(r.seats.select_related("player")), ["en"])["en"]
        return len(answer), len(push)

    from games.models import Puzzle

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=2)  # the same grid
    immediate = create_room(players[0], level="easy")
    for p in players[1:3]:
        act(immediate.code, p, A.Join())
    for p in players[:3]:
        act(immediate.code, p, A.SetReady(True))
    act(immediate.code, players[0], A.Start())
    for n, cell in enumerate(EMPTY[:5]):
        delayed_answer, delayed_push = sizes(tournament.code, players[0], cell, right(cell))
        immediate_answer, immediate_push = sizes(immediate.code, players[0], cell, right(cell))
        assert delayed_answer <= immediate_answer * 1.1, n
        assert delayed_push <= immediate_push * 1.1, n
