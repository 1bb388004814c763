"""The solution never leaves the server, except one cell at a time to the player who
solved it (a correct entry) or asked for it (a hint).

A whole showdown is played through the real stack (HTTP pages through the test client,
sockets through the ASGI application): two players and a spectator, with notes, wrong
entries, hints with and without a selected cell, page reloads mid-race, a reconnect, a
forfeit over HTTP, the finish and the pages after it. Every HTML response and socket
frame each of them received is collected; then, in the order each viewer received them:

- every digit shown in a board cell (its data-value, its aria-label, a hint message) is a
  given, or a cell this viewer was already told, or the one fresh cell of this viewer's
  own answer to a correct entry or hint;
- an answer reveals at most one new cell; a spectator and an opponent see no digits;
- no run of 9+ digits (a row, a serialized grid) appears anywhere.
"""

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games.models import Puzzle
from players.models import Profile
from rooms.models import Room
from tests.conftest import EMPTY, PUZZLE, SOLUTION, cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

ARIA = re.compile(r'aria-label="Row (\d), column (\d), (\d)(?:, given|, hint)?"')
VALUE = re.compile(r'data-cell="(\d+)"[^>]*?data-value="(\d)"')
HINT = re.compile(r"Hint: (\d) at row (\d), column (\d)")
FRESH = re.compile(r'class="cell[^"]*\bfresh\b[^"]*"[^>]*?data-cell="(\d+)"')
LONG_DIGITS = re.compile(r"\d{9,}")
GIVEN = {i for i, ch in enumerate(PUZZLE) if ch != "0"}


class Viewer:
    def __init__(self, name, profile=None):
        self.name, self.profile = name, profile
        self.http = Client()
        if profile is not None:
            self.http.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(profile)
        self.received = []  # (kind, text) in arrival order
        self.socket = None

    async def get(self, path):
        response = await sync_to_async(self.http.get)(path)
        self.received.append(("page " + path, response.content.decode()))
        return response

    async def post(self, path, data=None, htmx=False):
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = await sync_to_async(self.http.post)(path, data or {}, **extra)
        self.received.append(("post " + path, response.content.decode()))
        return response

    async def connect(self, code):
        headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
        cookie = self.http.cookies.get(settings.PLAYER_COOKIE_NAME)
        if cookie:
            headers.append((b"cookie", f"{settings.PLAYER_COOKIE_NAME}={cookie.value}".encode()))
        self.socket = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
        assert (await self.socket.connect(timeout=10))[0]
        await self.drain()

    async def disconnect(self):
        await self.drain()
        await self.socket.disconnect()

    async def send(self, **message):
        """Send, then wait for a frame (every message here gets an answer or a push)."""
        await self.socket.send_to(text_data=json.dumps(message))
        self.received.append(("frame", await self.socket.receive_from(timeout=20)))
        await self.drain()

    async def drain(self, quiet=0.1):
        # receive_nothing peeks without cancelling the application (a receive timeout would)
        while not await self.socket.receive_nothing(timeout=quiet):
            self.received.append(("frame", await self.socket.receive_from(timeout=5)))


def leaks(viewer: Viewer, seated: bool) -> list[str]:
    problems: list[str] = []
    told: set[int] = set()
    for kind, text in viewer.received:
        for run in LONG_DIGITS.findall(text):
            problems.append(f"{viewer.name} {kind}: a run of digits {run}")
        shown = {(int(r) - 1) * 9 + int(c) - 1: int(d) for r, c, d in ARIA.findall(text)}
        shown.update({int(i): int(d) for i, d in VALUE.findall(text)})
        hinted = {(int(r) - 1) * 9 + int(c) - 1: int(d) for d, r, c in HINT.findall(text)}
        fresh = {int(i) for i in FRESH.findall(text)}
        if not seated and (set(shown) - GIVEN or hinted):
            problems.append(f"{viewer.name} {kind}: a spectator saw digits of cells {sorted(set(shown) - GIVEN)}")
        new = (set(shown) | set(hinted)) - GIVEN - told
        if len(new) > 1 or not new <= fresh:
            problems.append(
                f"{viewer.name} {kind}: cells {sorted(new)} shown before this viewer solved them"
                f" (fresh: {sorted(fresh)})"
            )
        for cell, digit in {**shown, **hinted}.items():
            if digit != int(SOLUTION[cell]):
                problems.append(f"{viewer.name} {kind}: cell {cell} shows {digit}, not its value")
        told |= new
    return problems


async def race_of_two_and_a_watcher(preset: str) -> tuple[str, Viewer, Viewer, Viewer]:
    """Ada and Grace race a room of `preset` made through the site, a spectator watching;
    each has loaded the room page and holds an open socket, drained, when it returns."""
    ada_p, grace_p = await sync_to_async(lambda: [Profile.objects.create(display_name=n) for n in ("Ada", "Grace")])()
    ada, grace, watcher = Viewer("Ada", ada_p), Viewer("Grace", grace_p), Viewer("Watcher")
    await watcher.get("/")  # a first visit: the spectator gets a profile of its own
    for v in (ada, grace):
        await v.get("/")
    created = await ada.post("/rooms/new/", {"level": "easy", "preset": preset})
    made = re.search(r"/r/(\w+)/", created["Location"])
    assert made, created["Location"]
    code = made.group(1)
    await grace.post(f"/r/{code}/join/", htmx=True)
    for v in (ada, grace, watcher):
        await v.get(f"/r/{code}/")
        await v.connect(code)
    for v in (ada, grace):
        await v.send(action="ready", mid=f"ready-{v.name}")
    await ada.send(action="start", mid="start")
    await asyncio.sleep(0.5)
    await ada.send(action="sync")
    for v in (ada, grace, watcher):
        await v.drain()
    assert (await sync_to_async(Room.objects.get)(code=code)).state == "playing"
    return code, ada, grace, watcher


async def test_no_unsolved_digit_in_any_page_or_frame_of_a_whole_showdown(settings):
    settings.COUNTDOWN_SECONDS = 0.3
    await sync_to_async(Puzzle.objects.create)(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    code, ada, grace, watcher = await race_of_two_and_a_watcher("standard")

    todo = list(EMPTY)
    wrong = int(SOLUTION[todo[0]]) % 9 + 1
    await ada.send(cell=str(todo[0]), digit=str(wrong), mode="note", mid="n1")  # a pencil mark
    await ada.send(cell=str(todo[0]), digit=str(wrong), mode="enter", mid="w1")  # a wrong entry
    await ada.send(cell=str(todo[1]), mode="enter", command="hint", mid="h1")  # hint, cell selected
    await ada.send(cell="", mode="enter", command="hint", mid="h2")  # hint, the server picks
    for i, cell in enumerate(todo[:3]):
        await grace.send(cell=str(cell), digit=SOLUTION[cell], mode="enter", mid=f"g{i}")
    await grace.send(cell=str(todo[5]), digit=str(int(SOLUTION[todo[5]]) % 9 + 1), mode="enter", mid="gw")
    for v in (ada, grace, watcher):  # reloads mid-race
        await v.get(f"/r/{code}/")
    await grace.disconnect()  # a reconnect: the resync shows Grace only her own cells
    await grace.connect(code)
    await grace.post(f"/r/{code}/leave/", htmx=True)  # forfeit
    await grace.get(f"/r/{code}/")
    board = await sync_to_async(lambda: Room.objects.get(code=code).seats.get(player=ada.profile).state["cells"])()
    for i, cell in enumerate(c for c in todo if board[c] == "0"):
        await ada.send(cell=str(cell), digit=SOLUTION[cell], mode="enter", mid=f"a{i}")
    for _ in range(100):
        room = await sync_to_async(Room.objects.get)(code=code)
        if room.state == "finished":
            break
        await asyncio.sleep(0.1)
    assert room.state == "finished"
    for v in (ada, grace, watcher):
        await v.get(f"/r/{code}/")
        await v.get("/leaderboards/")
        await v.get("/profile/")
        await v.disconnect()

    assert sum(kind == "frame" for v in (ada, grace, watcher) for kind, _ in v.received) > 40
    problems = leaks(ada, True) + leaks(grace, True) + leaks(watcher, False)
    assert not problems, "\n".join(problems[:20])
    # The check itself sees digits: Ada was told every cell, one answer at a time.
    told_ada = set()
    for _, text in ada.received:
        told_ada |= {int(i) for i, _ in VALUE.findall(text)}
    assert set(EMPTY) <= told_ada


def test_the_leak_check_catches_a_leak():
    """The checker is not blind: a frame showing an unsolved cell's digit is reported."""
    spy = Viewer.__new__(Viewer)
    spy.name = "spy"
    cell = EMPTY[0]
    r, c = divmod(cell, 9)
    spy.received = [("frame", f'<div aria-label="Row {r + 1}, column {c + 1}, {SOLUTION[cell]}"></div>')]
    assert leaks(spy, True)
    spy.received = [("frame", f"<p>{SOLUTION[:9]}</p>")]
    assert leaks(spy, False)
    spy.received = [("frame", f"<p>Hint: {SOLUTION[cell]} at row {r + 1}, column {c + 1}.</p>")]
    assert leaks(spy, False)
