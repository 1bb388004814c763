"""Hostile input: hypothesis throws malformed, oversized, out-of-range and out-of-order
messages at the room socket and form posts at every POST endpoint.

For every input: no exception escapes (no 500, no traceback to the client), a refusal
comes with a clear message and leaves the stored state exactly as it was, and nothing
the client sent is echoed back unescaped.

Fast by default; FUZZ_EXAMPLES=10000 (or `.venv/bin/python loadtest/fuzz.py`) runs the
long variant. Each example runs inside a savepoint that is rolled back, so every example
starts from the same rooms and games (lobby, countdown, race, finished, expired; own,
someone else's, missing).
"""

import contextlib
import json
import os
import re
from datetime import timedelta
from urllib.parse import quote

import pytest
from asgiref.sync import async_to_sync
from django.db import transaction
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.engines import race as engine
from games.models import Puzzle
from games.sudoku import play
from games.sudoku.play import Enter, Hint
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.consumers import RoomConsumer
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, RoomEvent, RoomResult, Seat
from rooms.push import group_name
from tests.conftest import PUZZLE, SOLUTION, client_for

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
FUZZ = hsettings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("FUZZ_EXAMPLES"),
    suppress_health_check=list(HealthCheck),
    database=None,
)
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+|<class '|object at 0x")

pytestmark = pytest.mark.django_db
DELAYED_WITH_A_HINT = engine.Rules(hint_limit=1, feedback=engine.Feedback.DELAYED, submissions=3)


# --- inputs ------------------------------------------------------------------------------

TRICKY = [
    "0",
    "1",
    "9",
    "80",
    "81",
    "-1",
    "10",
    " 7 ",
    "５",
    "٣",
    "1e2",
    "0x10",
    "nan",
    "inf",
    "",
    "  ",
    "off",
    "none",
    "on",
    "true",
    "3",
    "5",
    "7",
    "flat",
    "progressive",
    "easy",
    "expert",
    "custom",
    "friendly",
    "standard",
    "hardcore",
    "enter",
    "note",
    "hint",
    "\x00",
    "a\x00b",
    "<script>alert(1)</script>",
    "'; DROP TABLE rooms_room; --",
    "\ud7ff\ue000",
    "𝟘",
    "ABCDEF",
    "abcdef",
    # isdigit() is true for these, int() raises or reads another script (issue 12, section 3)
    "²",
    "３",
    "7,²",
    "²-1",
    "left-²",
    "８,1",
    "9" * 400,
]  # last: TRICKY[:-1] leaves it out
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(TRICKY),
    st.text(max_size=40),
    st.lists(st.integers(-3, 90), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
oversized = st.integers(min_value=4000, max_value=12000).map(lambda n: "x" * n)
ACTIONS = [
    "join",
    "leave",
    "forfeit",
    "ready",
    "unready",
    "rules",
    "start",
    "sync",
    "enter",
    "note",
    "hint",
    "erase",  # delayed feedback's own moves (issue 25)
    "submit",
    "explode",
    "react",  # quick reactions (issue 27): fixed words only, rate-limited, seated players only
    "",
    "ENTER",
    "<b>hint</b>",
]
SOCKET_FIELDS = {
    "action": st.one_of(st.sampled_from(ACTIONS), scalars),
    "cell": st.one_of(st.integers(-3, 90).map(str), st.integers(-3, 90), scalars),
    "digit": st.one_of(st.integers(-1, 11).map(str), st.integers(-1, 11), scalars),
    "mode": st.one_of(st.sampled_from(["enter", "note", "NOTE", ""]), scalars),
    "command": st.one_of(st.just("hint"), scalars),
    "mid": st.one_of(st.uuids().map(str), st.just("same-id"), scalars, oversized),
    "level": st.one_of(st.sampled_from(A.LEVELS), scalars),
    "preset": st.one_of(st.sampled_from(["friendly", "standard", "hardcore", "tournament", "custom"]), scalars),
    "feedback": st.one_of(st.sampled_from(["immediate", "delayed", "DELAYED"]), scalars),
    "submissions": scalars,
    "notes": scalars,
    "hint_limit": scalars,
    "penalty": scalars,
    "mistake_cap": scalars,
    "HEADERS": st.one_of(st.just({"HX-Request": "true", "HX-Trigger": "move-form"}), scalars),
    # the duels' fields (issue 28, item 6: a list or an object as a Domino joker crashed)
    "joker": st.one_of(st.sampled_from(["grey", "gold", ""]), scalars),
    "push": st.one_of(st.sampled_from(["top-1", "left-9", "bottom-5"]), scalars),
    "row": scalars,
    "col": scalars,
    "seat": scalars,
    "option": scalars,
    "on": scalars,
    "step": scalars,
    "version": scalars,
    "reaction": st.one_of(st.sampled_from([*A.REACTIONS, "GG", "Close one!", "", "<b>gg</b>"]), scalars),
}
# Numbers JSON cannot carry but a client can write: 1e400 parses as an infinite float (int() of
# it raised OverflowError), Infinity and NaN are Python's extensions; in every field.
NON_FINITE = ["1e400", "-1e400", "Infinity", "-Infinity", "NaN", "[1e400]", '{"x":1e400}']
socket_messages = st.one_of(
    st.fixed_dictionaries({}, optional=SOCKET_FIELDS),
    st.dictionaries(st.text(max_size=12), st.one_of(scalars, oversized), max_size=4),
)
socket_frames = st.one_of(
    socket_messages.map(lambda m: {"text_data": json.dumps(m)}),
    st.sampled_from(["[]", "null", "1", '"x"', "{}", "[{}]", '{"a":' * 60, "{'cell': 1}", "\x00", ""]).map(
        lambda t: {"text_data": t}
    ),
    st.text(max_size=80).map(lambda t: {"text_data": t}),
    st.binary(max_size=80).map(lambda b: {"text_data": None, "bytes_data": b}),
    oversized.map(lambda x: {"text_data": json.dumps({"cell": "2", "digit": "4", "pad": x})}),
    st.tuples(st.sampled_from([*SOCKET_FIELDS]), st.sampled_from(NON_FINITE), st.sampled_from(ACTIONS)).map(
        lambda t: {"text_data": f'{{"action": "{t[2]}", "{t[0]}": {t[1]}, "cell": "1-1"}}'}
    ),
)


def form_values(keys):
    value = st.one_of(
        scalars.map(lambda v: v if isinstance(v, str) else json.dumps(v)),
        oversized,
        st.lists(st.sampled_from(TRICKY), min_size=2, max_size=3),
    )
    return st.fixed_dictionaries({}, optional={k: value for k in keys})


# --- the stored state that a refusal must leave untouched ----------------------------------


def snapshot(rooms_only=False):
    from games.cardoku.models import CardokuGame
    from games.domino.models import DominoGame
    from games.models import SoloRun

    models = (Room, Seat, RoomEvent, RoomResult)
    if not rooms_only:
        models += (SoloRun, CardokuGame, DominoGame, Profile, Puzzle)
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def assert_clean(text: str, where: str):
    assert not TRACEBACK.search(text), f"{where}: internals leaked to the client: {text[:500]}"
    assert "<script>alert(1)" not in text, f"{where}: input echoed unescaped"


def visible_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


# --- rooms in every state, and a socket consumer driven directly --------------------------


@pytest.fixture
def world(db, settings, monkeypatch, time_machine):
    """Rooms in every state with their players; Solo, Cardoku and Domino games."""
    # Clocks stand still: a long run (10,000 examples) outlasts the countdown, the Domino
    # game's 10 minutes and the lobbies' 30 idle minutes, and a room or game that moved on
    # by itself would look like a refused message that changed the state.
    time_machine.move_to(timezone.now(), tick=False)
    # channels closes "old" connections around every database call; inside the test's
    # transaction that would drop it. The consumer's own logic is what is fuzzed here.
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)
    Puzzle.objects.bulk_create(
        [
            Puzzle(level=level, givens=PUZZLE, solution=SOLUTION, clues=30, seed=i)
            for i in range(8)
            for level in A.LEVELS
        ]
    )
    ada, grace, lin, watcher = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Lin", "Watcher"))
    past = timezone.now() - timedelta(seconds=10)

    def room(preset="standard", join=(grace,), ready=False, start=None, game="showdown", rules=None):
        r = create_room(ada, game=game, level="easy", preset=preset)
        for p in join:
            act(r.code, p, A.Join())
        if rules is not None:
            act(r.code, ada, A.SetRules("easy", rules))
        if ready or start:
            for p in (ada, *join):
                act(r.code, p, A.SetReady(True))
        if start is not None:
            act(r.code, ada, A.Start(), now=start)
            act(r.code, ada, A.Sync())
        return r.code

    codes = {
        "lobby": room(),
        "ready lobby": room(ready=True),
        "race": room(start=past),
        "hardcore": room("hardcore", join=(grace, lin), start=past),
        "finished": room(start=past),
        "expired": room(),
        "domino duel": room(start=past, game="domino"),
        "cardoku duel": room(start=past, game="cardoku"),
        # Delayed feedback (issue 25): Grace's full grid was checked (one cell wrong), Lin used
        # her three submissions and is out; in the custom room (1 hint) Ada's hint locked cell 2.
        "tournament": room("tournament", join=(grace, lin), start=past),
        "delayed hints": room(start=past, rules=DELAYED_WITH_A_HINT),
    }
    settings.COUNTDOWN_SECONDS = 600
    codes["countdown"] = room(start=timezone.now())
    wrong = int(SOLUTION[2]) % 9 + 1
    for i in range(3):  # Lin is eliminated in the hardcore race
        act(codes["hardcore"], lin, A.GameMove(Enter(2, wrong)), message_id=f"w{i}")
    for p in (ada, grace):
        act(codes["finished"], p, A.Forfeit())
    empty = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
    for p in (grace, lin):
        for cell in empty:
            act(codes["tournament"], p, A.GameMove(Enter(cell, wrong if cell == 2 else int(SOLUTION[cell]))))
    act(codes["tournament"], grace, A.GameMove(play.Submit()))
    for n in range(3):
        if n:  # a changed grid (cell 3 wrong too) may go in again
            act(codes["tournament"], lin, A.GameMove(Enter(3, int(SOLUTION[3]) % 9 + n)))
        act(codes["tournament"], lin, A.GameMove(play.Submit()))
    act(codes["delayed hints"], ada, A.GameMove(Hint(2)))
    act(codes["expired"], None, A.Expire("Fuzzed away."))
    players = {"ada": ada, "grace": grace, "lin": lin, "watcher": watcher}
    return {"codes": codes, "players": players}


class Socket:
    """RoomConsumer.receive, called as daphne would, with the frames it sends captured."""

    def __init__(self, code, player):
        consumer = RoomConsumer()
        consumer.scope = {"type": "websocket", "player": player, "url_route": {"kwargs": {"code": code}}}
        consumer.player, consumer.code, consumer.group = player, code, group_name(code)
        consumer.ip = "127.0.0.1"  # a sync spends the client's connect budget (connect() sets it)
        consumer.game = GAME_TYPES[Room.objects.get(code=code).game]
        consumer.tokens, consumer.strikes = 10**9, 0
        consumer._allow = lambda: True  # the flood limit has its own test (tests/rooms/test_consumer.py)
        self.sent = []

        async def base_send(message):
            self.sent.append(message)

        consumer.base_send = base_send
        self.consumer = consumer

    def receive(self, text_data=None, bytes_data=None) -> list:
        self.sent = []
        async_to_sync(self.consumer.receive)(text_data=text_data, bytes_data=bytes_data)
        return self.sent


def check_socket_answer(frame, sent, before, after, applied_mids, where):
    assert all(m["type"] == "websocket.send" for m in sent), f"{where}: socket closed: {sent}"
    texts = [m["text"] for m in sent]
    for text in texts:
        assert_clean(text, where)
    changed = before != after
    errors = []
    for text in texts:
        match = re.search(r'<p id="room-message" class="message([^"]*)"[^>]*>(.*?)</p>', text, re.S)
        if match and "is-error" in match.group(1) and not text.lstrip().startswith('<section id="game"'):
            errors.append(visible_text(match.group(2)))
    if errors:
        assert not changed, f"{where}: refused ({errors}) but the stored state changed"
        for message in errors:
            assert len(message) >= 8 and message[0].isupper() and message[-1] in ".!?", (
                f"{where}: unclear refusal {message!r}"
            )
        return
    if changed or texts:
        return
    # Silence only for a message applied already (a re-sent duplicate); all else is answered.
    mid = ""
    with contextlib.suppress(Exception):  # not JSON, or not an object
        mid = json.loads(frame["text_data"]).get("mid") or ""
    assert mid in applied_mids, f"{where}: {frame!r} got no answer and changed nothing"


SOCKETS = [
    ("lobby", "ada"),
    ("lobby", "grace"),
    ("lobby", "watcher"),
    ("ready lobby", "ada"),
    ("ready lobby", "grace"),
    ("countdown", "grace"),
    ("race", "ada"),
    ("race", "watcher"),
    ("hardcore", "grace"),
    ("hardcore", "lin"),
    ("finished", "ada"),
    ("expired", "grace"),
    ("domino duel", "ada"),
    ("domino duel", "watcher"),
    ("cardoku duel", "grace"),
    ("tournament", "ada"),
    ("tournament", "grace"),
    ("tournament", "lin"),
    ("tournament", "watcher"),
    ("delayed hints", "ada"),
]


def test_socket_messages_never_crash_and_refusals_change_nothing(world):
    sockets = {key: Socket(world["codes"][key[0]], world["players"][key[1]]) for key in SOCKETS}

    ran = {"examples": 0, "frames": 0}

    @FUZZ
    @given(key=st.sampled_from(SOCKETS), frames=st.lists(socket_frames, min_size=1, max_size=4))
    def fuzz(key, frames):
        ran["examples"] += 1
        ran["frames"] += len(frames)
        socket = sockets[key]
        with transaction.atomic():
            applied_mids = set()
            before = snapshot(rooms_only=True)
            for frame in frames:
                sent = socket.receive(**frame)
                after = snapshot(rooms_only=True)
                check_socket_answer(frame, sent, before, after, applied_mids, f"{key} {frame!r}"[:300])
                if before != after:
                    with contextlib.suppress(Exception):  # not JSON, or not an object
                        applied_mids.add(json.loads(frame["text_data"]).get("mid") or "")
                before = after
            transaction.set_rollback(True)

    fuzz()
    print(f"\nsocket fuzz: {ran['examples']} examples, {ran['frames']} frames")
    assert ran["examples"] >= EXAMPLES


def test_socket_refusals_have_clear_messages(world):
    """Known hostile messages, each with the message the player must read."""
    race = Socket(world["codes"]["race"], world["players"]["ada"])
    cases = [
        ({"text_data": "x" * 5000}, "too large"),
        ({"text_data": None, "bytes_data": b"\x00\x01"}, "not text"),
        ({"text_data": "{"}, "must be JSON"),
        ({"text_data": json.dumps({"cell": "2", "digit": "4", "mid": "m" * 65})}, "Bad message id"),
        ({"text_data": json.dumps({"action": "join", "mid": "\u0000"})}, "Bad message id"),
        ({"text_data": json.dumps({"cell": "2", "digit": "4", "mid": "é"})}, "Bad message id"),
        ({"text_data": json.dumps({"cell": "2", "digit": 10**30})}, "between 1 and 9"),
        ({"text_data": json.dumps({"cell": "0", "digit": "5"})}, "is a given"),
        ({"text_data": json.dumps({"action": []})}, "Unknown action"),  # was a TypeError
        ({"text_data": json.dumps({"action": "rules", "level": "easy", "preset": "x"})}, "Unknown rule preset"),
        # a list in any field is refused at the boundary, before a parser sees it (issue 28)
        ({"text_data": json.dumps({"action": "rules", "level": "easy", "preset": ["x"]})}, "must be text or a number"),
        ({"text_data": '{"action": "ready", "cell": 1e400}'}, "must be text or a number"),
        ({"text_data": '{"action": "ready", "cell": Infinity}'}, "must be JSON"),
        ({"text_data": json.dumps({"action": "start"})}, "only possible in the lobby"),
        (
            {"text_data": json.dumps({"action": "rules", "level": "easy", "preset": "custom", "hint_limit": "2"})},
            "Hint limit must be",
        ),
        (
            {"text_data": json.dumps({"action": "rules", "level": "easy", "preset": "custom", "feedback": "later"})},
            "Feedback must be immediate or delayed.",
        ),
        (
            {"text_data": json.dumps({"action": "rules", "level": "easy", "preset": "custom", "submissions": "2"})},
            "Submissions must be 1, 3 or 5.",
        ),
        ({"text_data": json.dumps({"action": "erase"})}, "Pick a cell on the board first."),
    ]
    check_refusals(race, cases)


def check_refusals(socket, cases):
    for frame, needle in cases:
        before = snapshot()
        texts = [m["text"] for m in socket.receive(**frame)]
        assert any(needle in text for text in texts), (frame, texts)
        assert snapshot() == before


def submit_frame(**fields):
    return {"text_data": json.dumps({"action": "submit", **fields})}


def test_delayed_feedback_refusals_have_clear_messages(world):
    """Issue 25's Bad input, over the socket: each refused with its message, nothing changed."""
    code, players = world["codes"], world["players"]
    ada, grace, lin, watcher = (Socket(code["tournament"], players[n]) for n in ("ada", "grace", "lin", "watcher"))
    erase = {"text_data": json.dumps({"action": "erase", "cell": "2"})}
    check_refusals(ada, [(submit_frame(), "Fill every cell before you submit (51 cells are empty).")])
    check_refusals(ada, [({"text_data": json.dumps({"cell": "0", "digit": "5"})}, "is a given and cannot change")])
    check_refusals(ada, [(erase, "The cell at row 1, column 3 is already empty.")])
    check_refusals(grace, [(submit_frame(), "This grid was already checked: change a cell before you submit again.")])
    check_refusals(lin, [(submit_frame(), "You used your last submission: you are out and your board is locked.")])
    check_refusals(lin, [(erase, "You used your last submission")])
    check_refusals(watcher, [(submit_frame(), "You are watching this room: only seated players can do that.")])
    hinted = Socket(code["delayed hints"], players["ada"])
    check_refusals(hinted, [(erase, "The cell at row 1, column 3 was revealed by a hint and cannot change.")])
    check_refusals(hinted, [({"text_data": json.dumps({"cell": "2", "digit": "5"})}, "revealed by a hint")])
    check_refusals(Socket(code["finished"], players["ada"]), [(submit_frame(), "The showdown is not running.")])
    check_refusals(
        Socket(code["race"], players["ada"]),
        [(submit_frame(), "Every entry is judged at once in this game: there is nothing to submit.")],
    )
    # Two submissions of one grid in one burst: the first is judged, the second refused.
    frames = [submit_frame(mid="s1"), submit_frame(mid="s2")]
    grace_room = Room.objects.get(code=code["tournament"])
    seat = grace_room.seats.get(player=players["grace"])
    act(
        code["tournament"], players["grace"], A.GameMove(Enter(2, int(SOLUTION[2]) % 9 + 2))
    )  # still wrong, not checked
    answers = [" ".join(m["text"] for m in grace.receive(**frame)) for frame in frames]
    assert "1 cell is wrong (1 submission left, +60 s)" in answers[0]
    assert "already checked" in answers[1]
    seat.refresh_from_db()
    assert seat.mistakes == 2


# --- every POST endpoint ----------------------------------------------------------------------

SPADES = [f"spade_{d}" for d in range(1, 10)]
ENDPOINTS = [
    ("/rooms/new/", ["level", "preset", "game", "scheduled_at", "timezone"]),
    ("/rooms/join/", ["code"]),
    ("/r/{code}/join/", ["code"]),
    ("/r/{code}/leave/", []),
    ("/solo/new/", ["level"]),
    ("/solo/{run}/act/", ["cell", "digit", "mode", "command"]),
    ("/cardoku/new/", ["layout", "code", *SPADES]),
    ("/cardoku/layout/check/", SPADES),
    ("/cardoku/{cardoku}/act/", ["action", "step", "square", "row", "col"]),
    ("/cardoku/{cardoku}/option/", ["option", "on"]),
    ("/domino/new/", ["level"]),
    ("/domino/{domino}/act/", ["version", "joker", "push", "cell", "row", "col", "edge", "line"]),
    ("/profile/", ["display_name", "next"]),
]


@pytest.fixture
def games(world):
    """A Solo Run, a Cardoku and a Domino game each for Ada (one finished Solo Run too)."""
    ada = client_for(world["players"]["ada"])
    ids = {}
    for name, path, data in (
        ("run", "/solo/new/", {"level": "easy"}),
        ("cardoku", "/cardoku/new/", {}),
        ("domino", "/domino/new/", {"level": "easy"}),
    ):
        response = ada.post(path, data)
        assert response.status_code == 302, (path, response.status_code)
        ids[name] = int(re.search(r"/(\d+)/", response["Location"]).group(1))
    from games.models import SoloRun

    finished = ada.post("/solo/new/", {"level": "easy"})
    finished_id = int(re.search(r"/(\d+)/", finished["Location"]).group(1))
    SoloRun.objects.filter(pk=finished_id).update(state="finished")
    ids["finished run"] = finished_id
    return ids


def test_every_post_endpoint_survives_hostile_forms(world, games):
    clients = {name: client_for(p) for name, p in world["players"].items()}
    clients["newcomer"] = Client()
    codes = list(world["codes"].values())
    targets = {
        "code": st.one_of(st.sampled_from(codes), st.sampled_from(TRICKY[:-1]), st.text(min_size=1, max_size=12)),
        "run": st.sampled_from([games["run"], games["finished run"], 999999]),
        "cardoku": st.sampled_from([games["cardoku"], 999999]),
        "domino": st.sampled_from([games["domino"], 999999]),
    }

    ran = {"examples": 0}

    @FUZZ
    @given(data=st.data())
    def fuzz(data):
        ran["examples"] += 1
        path, keys = data.draw(st.sampled_from(ENDPOINTS))
        for name, strategy in targets.items():
            if "{" + name + "}" in path:
                value = str(data.draw(strategy)).replace("/", "")
                path = path.replace("{" + name + "}", quote(value, safe="") or "X")
        who = data.draw(st.sampled_from(sorted(clients)))
        form = data.draw(form_values(keys))
        headers = {"HTTP_HX_REQUEST": "true"} if data.draw(st.booleans()) else {}
        with transaction.atomic():
            before = snapshot()
            response = clients[who].post(path, form, **headers)
            after = snapshot()
            transaction.set_rollback(True)
        where = f"POST {path} as {who} {form!r}"[:400]
        body = response.content.decode(errors="replace")
        assert response.status_code < 500, where
        assert_clean(body, where)
        if response.status_code >= 400:
            assert len(visible_text(body)) >= 8, f"{where}: {response.status_code} without a message"
            if who != "newcomer":  # a first visit creates the visitor's profile, nothing else
                assert before == after, f"{where}: refused with {response.status_code} but the state changed"

    fuzz()
    print(f"\nPOST fuzz: {ran['examples']} requests")
    assert ran["examples"] >= EXAMPLES


@pytest.mark.parametrize("path", ["/r/AB%00CD/", "/r/%20/", "/r/%00/", "/r/AB%00CDE/calendar.ics"])
def test_room_pages_with_unstorable_codes_are_not_found(player_client, path):
    """Regressions: a NUL byte reached PostgreSQL (500), '/r/%20/' redirected to an empty code (500)."""
    response = player_client.get(path)
    assert response.status_code in (302, 404)


@pytest.mark.parametrize(
    "path, data", [("/rooms/join/", {"code": "AB\x00CDE"}), ("/r/AB%00CDE/join/", {}), ("/r/AB%00CDE/leave/", {})]
)
def test_room_forms_with_unstorable_codes_are_refused(player_client, path, data):
    response = player_client.post(path, data)
    assert response.status_code in (400, 404) and b"code" in response.content.lower()
