"""Simulated players: real HTTP + WebSocket clients driving complete showdowns.

Each player is what a browser would be: it loads pages over HTTP (home, profile, create
or join, the room page, forfeit), and plays over the room socket with the same JSON the
htmx ws extension sends (form fields, a unique "mid", "HEADERS"). It keeps the last
state the server rendered for it (its board, score, standings) so the run can compare
what every client shows against the database afterwards.

A player sends one move at a time and waits for its answer, like someone looking at the
board before the next tap. Replies are told apart by their top element:
  <section id="game">      the answer to a board move that was applied
  <div id="room-body">     the full state: the resync on (re)connect, a room refresh,
                           or (with an error message) the answer to a refused move
  <section id="standings"> the shared standings push
  <p id="room-message">    an error for a malformed or rate-limited message
  out-of-band fragments    the answer to a Showdown move applied by the room's live owner:
                           the changed cells, counters and pad digits, the message line and
                           the room version (<input id="room-version">), each swapped by id
"""

import asyncio
import contextlib
import json
import random
import re
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from .common import HttpSession, csrf_from

HEAD = re.compile(r'\s*<(\w+)\s+id="([\w-]+)"')
VERSION = re.compile(
    r'id="(?:room-body|game|standings)"[^>]*?data-version="(\d+)"|id="room-version"[^>]*?value="(\d+)"'
)
OOB = re.compile(r'\s*<\w+ hx-swap-oob="true" id="[\w-]+"')
STATE = re.compile(r'id="room-body" data-state="(\w+)"')
MESSAGE = re.compile(r'<p id="room-message" class="message([^"]*)"[^>]*>(.*?)</p>', re.S)
CELL_SPLIT = re.compile(r'role="gridcell"')
CELL = re.compile(r'data-cell="(\d+)"[^>]*?data-value="(\d*)"')
NOTES = re.compile(r'<span class="notes"[^>]*>(.*?)</span>\s*</div>', re.S)
SCORE = re.compile(r"data-score>\s*(\d+)")
MISTAKES = re.compile(r"data-mistakes>\s*(\d+)")
HINTS = re.compile(r"data-hints>\s*(\d+)")
STANDING = re.compile(
    # the row's other classes and attributes (its racer colour, seat, event) are not read
    r'<li class="standing status-(\w+)[^"]*"[^>]*>.*?aria-label="Place (\d+)".*?<strong class="name">(.*?)</strong>'
    # the line starts with the rival's state when there is one ("finished 1:35 · 210 pts")
    r'\s*<span class="line">\s*(?:<span class="state">[^<]*</span> · )?(\d+) pts',
    re.S,
)
COUNTDOWN = re.compile(r'data-countdown="1"[^>]*?data-elapsed="([\d.]+)"')
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"/.*\.py\", line \d+")


def classify(text: str) -> str:
    if OOB.match(text) and 'id="room-message"' in text:
        return "fragments"
    match = HEAD.match(text)
    return match.group(2) if match else "?"


@dataclass
class View:
    """What the server last rendered for this client."""

    state: str = ""
    version: int = -1
    cells: str = ""  # 81 digits, "0" for empty; "" before the board was ever shown
    givens: str = ""  # the start position as shown (cells with class "given")
    notes: dict = field(default_factory=dict)
    score: int | None = None
    mistakes: int | None = None
    hints: int | None = None
    status: str = "playing"
    standings: dict = field(default_factory=dict)  # name -> (place, status, score)
    standings_version: int = -1
    countdown: float | None = None


def parse_board(text: str, view: View) -> bool:
    """Update `view` from my own board if `text` has it (the grid with data-cell)."""
    chunks = CELL_SPLIT.split(text)
    if len(chunks) < 2:
        return False
    cells, givens, notes, seen = ["0"] * 81, ["0"] * 81, {}, 0
    for chunk in chunks[1:]:
        match = CELL.search(chunk)
        if not match:
            continue
        index, value = int(match.group(1)), match.group(2)
        seen += 1
        cells[index] = value or "0"
        if re.match(r'\s*class="cell given', chunk):
            givens[index] = value or "0"
        note = NOTES.search(chunk)
        if note:
            digits = frozenset(int(d) for d in re.findall(r"<span>(\d)</span>", note.group(1)))
            if digits:
                notes[index] = digits
    if seen != 81:
        return False
    view.cells, view.givens, view.notes = "".join(cells), "".join(givens), notes
    for regex, name in ((SCORE, "score"), (MISTAKES, "mistakes"), (HINTS, "hints")):
        match = regex.search(text)
        if match:
            setattr(view, name, int(match.group(1)))
    if "You finished" in text:
        view.status = "finished"
    elif "your board is locked" in text and "banner bad" in text:
        view.status = "eliminated"
    elif "You forfeited" in text:
        view.status = "left"
    return True


def parse_fragments(text: str, view: View) -> None:
    """Apply a move's out-of-band answer (only the changed cells and counters) to `view`."""
    if view.cells:
        cells = list(view.cells)
        for chunk in CELL_SPLIT.split(text)[1:]:
            match = CELL.search(chunk)
            if not match:
                continue
            index, value = int(match.group(1)), match.group(2)
            cells[index] = value or "0"
            note = NOTES.search(chunk)
            digits = frozenset(int(d) for d in re.findall(r"<span>(\d)</span>", note.group(1))) if note else frozenset()
            if digits:
                view.notes[index] = digits
            else:
                view.notes.pop(index, None)
        view.cells = "".join(cells)
    for regex, name in ((SCORE, "score"), (MISTAKES, "mistakes"), (HINTS, "hints")):
        match = regex.search(text)
        if match:
            setattr(view, name, int(match.group(1)))


def parse_standings(text: str) -> dict:
    return {name: (int(place), status, int(score)) for status, place, name, score in STANDING.findall(text)}


@dataclass
class Connection:
    ws: ClientConnection
    opened: float  # wall clock
    closed_at: float | None = None
    client_closing: bool = False
    first: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    arrivals: list = field(default_factory=list)  # (kind, version, wall time, monotonic)
    close_code: int | None = None
    reader: asyncio.Task | None = None  # held here: the loop keeps only a weak reference


class Deadline(Exception):
    pass


class RunStats:
    """Counts for the whole run, filled by every client."""

    def __init__(self):
        self.http = Counter()
        self.http_5xx = []
        self.http_errors = []  # (wall time, what)
        self.closes = Counter()
        self.error_closes = []  # (wall time, code, reason)
        self.connect_failures = []  # (wall time, what)
        self.latencies = []  # ms, send -> own reply
        self.resync_waits = []  # s, socket open -> first (full state) frame
        self.replies = Counter()  # applied / refused / error
        self.tracebacks = []
        self.unexpected = []
        self.timeouts = []
        self.resent = 0
        self.resent_without_reply = 0
        self.reconnects = Counter()
        self.fault_windows = []  # (start, end) wall times
        self.fault_note: str | None = None  # what the fault did (loadtest/faults.py)
        self.probes: list[str] = []  # HTTP answers during the outage (loadtest/faults.py)
        self.started = self.ended = None
        self.play_started = None

    def in_fault(self, t: float, grace: float = 8.0) -> bool:
        return any(
            start - 1.0 <= t <= (end if end is not None else float("inf")) + grace for start, end in self.fault_windows
        )


class Player:
    def __init__(
        self,
        run,
        room,
        index: int,
        name: str,
        rng: random.Random,
        *,
        host=False,
        watcher=False,
        leave_at: float | None = None,
    ):
        self.run, self.room, self.index, self.name, self.rng = run, room, index, name, rng
        self.host, self.watcher, self.leave_at = host, watcher, leave_at
        self.stats: RunStats = run.stats
        self.config = run.config
        self.view = View()
        self.connections: list[Connection] = []
        self.conn: Connection | None = None
        self.pending: tuple[str, asyncio.Future] | None = None  # (mid, future)
        # the host's Start click awaiting a refusal (or the countdown)
        self.lobby_pending: asyncio.Future | None = None
        self.sent: dict[str, dict] = {}  # mid -> action dict
        # mid -> ("applied", version, kind) | ("refused", message) | ("error", message)
        self.outcomes: dict[str, tuple] = {}
        self.unknown: set[str] = set()  # mids whose fate the client never learned (no answer)
        self.applied_unacked: set[str] = set()  # seen applied in a resync, answer lost
        # The room version of the resync that showed a re-sent move applied: a process that
        # took the room over answers such a duplicate with the game as of its logged version
        # (rooms/answers.forwarded_answer), so an answer at or below it is that one's, never
        # the answer to a later move (which is applied after the resync, at a higher version).
        self.duplicate_floor: int | None = None
        self.port = None
        self.http: HttpSession | None = None
        self.countdown_end: float | None = None  # client clock (monotonic) when play began, per the server
        self.finished_reply_at = None  # monotonic time of the reply that finished my board
        self.finished_sent_at = None  # ... and of its send
        self.solution = None
        self.sent_at: dict[str, float] = {}  # mid -> monotonic send time (of the answered send)
        self.history: dict[str, dict] = {}  # room code -> what this client saw of that showdown

    # --- HTTP -----------------------------------------------------------------------------

    async def get(self, path, **kw):
        return await self._http("GET", path, **kw)

    async def post(self, path, data, htmx=False):
        data = dict(data, csrfmiddlewaretoken=self.http.csrf())
        return await self._http("POST", path, data=data, headers={"HX-Request": "true"} if htmx else None)

    async def _http(self, method, path, data=None, headers=None, retries=60):
        for attempt in range(retries):
            self.check_deadline()
            try:
                response = await self.http.request(method, path, data=data, headers=headers)
            except (TimeoutError, OSError, ConnectionError) as error:
                self.stats.http_errors.append((time.time(), f"{method} {path}: {error!r}"))
                await asyncio.sleep(0.3 + 0.2 * attempt)
                continue
            self.stats.http[f"{response.status // 100}xx"] += 1
            if response.status >= 500:
                self.stats.http_5xx.append((time.time(), method, path, response.status, response.text[:300]))
            if TRACEBACK.search(response.text):
                self.stats.tracebacks.append(f"{method} {path}: {response.text[:300]}")
            return response
        raise ConnectionError(f"{method} {path} failed {retries} times")

    def check_deadline(self):
        if time.monotonic() > self.run.deadline:
            raise Deadline()

    # --- socket ---------------------------------------------------------------------------

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws/r/{self.room.code}/"

    def pick_port(self):
        ports = self.run.ports
        return ports[(self.index + self.room.index) % len(ports)]

    async def connect(self):
        delay = 0.2
        while True:
            self.check_deadline()
            self.port = self.pick_port()
            headers = {
                "Origin": f"http://127.0.0.1:{self.port}",
                "Cookie": f"showdown_player={self.http.cookies.get('showdown_player', '')}",
            }
            try:
                ws = await websockets.connect(
                    self.url,
                    additional_headers=headers,
                    proxy=None,
                    compression=None,
                    ping_interval=None,
                    open_timeout=30,
                    close_timeout=3,
                    max_size=2**23,
                )
            except (TimeoutError, OSError, InvalidHandshake, InvalidStatus, ConnectionClosed) as error:
                self.stats.connect_failures.append((time.time(), repr(error)[:200]))
                await asyncio.sleep(delay * (0.5 + self.rng.random()))
                delay = min(2.0, delay * 2)
                continue
            conn = Connection(ws, time.time())
            self.conn = conn
            self.connections.append(conn)
            conn.reader = asyncio.create_task(self.reader(conn))
            started = time.monotonic()
            try:  # a browser waits as long as the socket is open; so do we (up to 5 minutes)
                await asyncio.wait_for(self.first_or_close(conn), 300)
            except TimeoutError:
                self.stats.timeouts.append((time.time(), self.name, "no resync within 300 s of connecting"))
            self.stats.resync_waits.append(time.monotonic() - started)
            if conn.first.is_set():
                if len(self.connections) > 1:
                    self.stats.reconnects["total"] += 1
                return conn
            await self.close(abort=True)  # a browser gives up on a socket that never answers
            await asyncio.sleep(delay * (0.5 + self.rng.random()))
            delay = min(2.0, delay * 2)

    async def first_or_close(self, conn):
        waiters = [asyncio.create_task(conn.first.wait()), asyncio.create_task(conn.done.wait())]
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        for w in waiters:
            w.cancel()

    async def close(self, abort=False):
        conn, self.conn = self.conn, None
        if conn is None or conn.done.is_set():
            return
        conn.client_closing = True
        if abort:
            conn.ws.transport.abort()
        else:
            with contextlib.suppress(Exception):  # closing a dead socket
                await asyncio.wait_for(conn.ws.close(), 5)
        await conn.done.wait()

    async def reader(self, conn: Connection):
        try:
            async for frame in conn.ws:
                self.on_frame(conn, frame if isinstance(frame, str) else frame.decode())
        except ConnectionClosed:
            pass
        except Exception as error:  # noqa: BLE001 - a client bug must not hide as a hang
            self.stats.unexpected.append(f"{self.name}: reader crashed: {error!r}")
        finally:
            conn.closed_at = time.time()
            rcvd = conn.ws.protocol.close_rcvd  # the server's close frame (None: the connection just died)
            code = rcvd.code if rcvd is not None else 1006
            conn.close_code = code
            self.stats.closes["client" if conn.client_closing else code] += 1
            if code in (4429, 4503) and not conn.first.is_set():
                # a handshake refused "try later" (accepted, then closed with the code)
                self.stats.connect_failures.append((conn.closed_at, f"refused {code}"))
            elif not conn.client_closing and code not in (1000, 1001):
                self.stats.error_closes.append((conn.closed_at, code, rcvd.reason if rcvd else "", self.name))
            if self.pending and not self.pending[1].done():
                self.pending[1].set_result(("closed",))
            conn.done.set()

    def on_frame(self, conn: Connection, text: str):
        now_wall, now = time.time(), time.monotonic()
        kind = classify(text)
        if TRACEBACK.search(text):
            self.stats.tracebacks.append(f"{self.name} socket frame: {text[:300]}")
        found = VERSION.search(text)
        version = int(found.group(1) or found.group(2)) if found else None
        conn.arrivals.append((kind, version, now_wall, now))
        message = MESSAGE.search(text)
        error = message and "is-error" in message.group(1)
        message_text = re.sub(r"\s+", " ", message.group(2)).strip() if message else ""
        if kind == "room-body":
            state = STATE.search(text)
            if state:
                self.view.state = state.group(1)
            countdown = COUNTDOWN.search(text) if self.view.state == "countdown" else None
            if countdown:
                self.view.countdown = float(countdown.group(1))
                self.countdown_end = now + self.view.countdown
            if version is not None:
                self.view.version = version
            parse_board(text, self.view)
            self._standings(text, version)
            conn.first.set()
            if error and message_text:
                self._answer(("refused", message_text, version))
        elif kind == "game":
            parse_board(text, self.view)
            outcome = "wrong" if error else "ok"
            self._answer(("applied", version, outcome, message_text), unexpected_ok=False)
        elif kind == "fragments":
            parse_fragments(text, self.view)
            outcome = "wrong" if error else "ok"
            self._answer(("applied", version, outcome, message_text), unexpected_ok=False)
        elif kind == "standings":
            self._standings(text, version)
        elif kind == "room-message":
            self._answer(("error", message_text, version))
        else:
            self.stats.unexpected.append(f"{self.name}: unknown frame {text[:120]!r}")

    def _standings(self, text, version):
        rows = parse_standings(text)
        if rows and (version is None or version >= self.view.standings_version):
            self.view.standings = rows
            self.view.standings_version = version if version is not None else self.view.standings_version

    def _answer(self, answer, unexpected_ok=True):
        if answer[0] == "applied" and answer[1] is not None and answer[1] <= (self.duplicate_floor or -1):
            self.stats.reconnects["duplicate answered"] += 1
            return
        if self.pending and not self.pending[1].done():
            self.pending[1].set_result(answer)
        elif self.lobby_pending is not None and not self.lobby_pending.done() and answer[0] != "applied":
            self.lobby_pending.set_result(answer)
        elif answer[0] != "refused" or not unexpected_ok:
            self.stats.unexpected.append(f"{self.name}: answer with nothing pending: {answer!r}"[:300])

    async def send(self, conn, payload) -> bool:
        try:
            await conn.ws.send(json.dumps(payload))
            return True
        except ConnectionClosed:
            return False

    # --- moves ----------------------------------------------------------------------------

    def payload(self, action: dict, mid: str) -> dict:
        return dict(
            action,
            mid=mid,
            HEADERS={
                "HX-Request": "true",
                "HX-Trigger": "move-form",
                "HX-Trigger-Name": None,
                "HX-Target": None,
                "HX-Current-URL": f"http://127.0.0.1:{self.port}/r/{self.room.code}/",
            },
        )

    def applied_in_view(self, action, before: View) -> bool:
        """After a resync: does my board show that `action` (whose answer was lost) took effect?"""
        view, cell = self.view, int(action["cell"]) if str(action.get("cell", "")).isdigit() else None
        if action.get("command") == "hint":
            return (view.hints or 0) > (before.hints or 0)
        if action.get("mode") == "note":
            return view.notes.get(cell, frozenset()) != before.notes.get(cell, frozenset())
        if cell is not None and view.cells and before.cells and view.cells[cell] != before.cells[cell]:
            return True
        return (view.mistakes or 0) > (before.mistakes or 0)

    async def move(self, action: dict, drop=False):
        """Send one board move and wait for its answer, through reconnects. Returns the answer."""
        mid = uuid.uuid4().hex
        self.sent[mid] = action
        resent = False
        while True:
            conn = self.conn if self.conn is not None and not self.conn.done.is_set() else await self.connect()
            before = View(
                cells=self.view.cells, notes=dict(self.view.notes), mistakes=self.view.mistakes, hints=self.view.hints
            )
            future = asyncio.get_running_loop().create_future()
            self.pending = (mid, future)
            started = time.monotonic()
            sent = await self.send(conn, self.payload(action, mid))
            if sent and drop:
                drop = False
                self.stats.reconnects["dropped in flight"] += 1
                await self.close(abort=True)
            try:
                answer = await asyncio.wait_for(asyncio.shield(future), 10 if resent else 300) if sent else ("closed",)
            except TimeoutError:
                answer = ("timeout",)
            finally:
                self.pending = None
            if answer[0] == "applied":
                self.sent_at[mid] = started
                self.stats.latencies.append((time.monotonic() - started) * 1000)
                self.outcomes[mid] = answer
                self.stats.replies["applied"] += 1
                return answer + (mid,)
            if answer[0] in ("refused", "error"):
                self.stats.latencies.append((time.monotonic() - started) * 1000)
                self.outcomes[mid] = answer
                self.stats.replies[answer[0]] += 1
                return answer
            if answer[0] == "timeout":
                if resent:
                    # Re-sent after a reconnect and no answer: the first send was applied
                    # after the resync was rendered (a duplicate gets no answer). Resync.
                    self.stats.resent_without_reply += 1
                    self.unknown.add(mid)
                    await self.sync()
                    return ("unknown",)
                self.stats.timeouts.append((time.time(), self.name, f"no answer to {action}"))
                self.unknown.add(mid)
                await self.close(abort=True)
                return ("unknown",)
            # The socket closed before the answer: reconnect (resync), then decide like a
            # browser that re-sends its queued message; we re-send even when the resync
            # already shows the move, to prove that a duplicate is applied once.
            await asyncio.sleep(0.2 + 0.6 * self.rng.random())
            await self.connect()
            self.stats.resent += 1
            if self.applied_in_view(action, before):
                self.applied_unacked.add(mid)
                self.duplicate_floor = self.view.version
                await self.send(self.conn, self.payload(action, mid))
                return ("applied-unacked",)
            resent = True

    async def sync(self):
        conn = self.conn if self.conn is not None and not self.conn.done.is_set() else await self.connect()
        await self.send(conn, {"action": "sync", "HEADERS": {"HX-Request": "true"}})
        await asyncio.sleep(0.3)

    async def lobby_message(self, action: dict):
        conn = self.conn if self.conn is not None and not self.conn.done.is_set() else await self.connect()
        if not await self.send(conn, self.payload(action, uuid.uuid4().hex)):
            await self.connect()

    async def wait_for(self, predicate, timeout=120.0, poke=None):
        """Wait until `predicate()` holds (reconnecting if the socket dies)."""
        end = time.monotonic() + timeout
        while not predicate():
            self.check_deadline()
            if time.monotonic() > end:
                raise TimeoutError(f"{self.name}: waited {timeout:.0f}s in state {self.view.state}")
            if self.conn is None or self.conn.done.is_set():
                await self.connect()
                if poke:
                    await poke()
            await asyncio.sleep(0.05)

    # --- the showdown ---------------------------------------------------------------------

    async def setup_http(self):
        self.http = HttpSession(self.run.ports[self.index % len(self.run.ports)])
        await self.get("/")
        await self.post("/profile/", {"display_name": self.name})

    async def play_round(self, room):
        self.room, self.view, self.solution = room, View(), None
        self.duplicate_floor = None
        self.connections, self.conn, self.countdown_end = [], None, None
        self.finished_reply_at = self.finished_sent_at = None
        if self.host:
            response = await self.post("/rooms/new/", {"level": "easy", "preset": room.preset, "game": "showdown"})
            location = response.header("Location") or ""
            match = re.search(r"/r/(\w+)/", location)
            if response.status != 302 or not match:
                room.code_future.set_exception(
                    RuntimeError(f"room not created: {response.status} {response.text[:200]}")
                )
                return
            room.code_future.set_result(match.group(1))
        code = await room.code_future
        if not self.watcher:
            response = await self.post(f"/r/{code}/join/", {}, htmx=self.rng.random() < 0.5)
            if response.status not in (200, 302):
                self.stats.unexpected.append(f"{self.name}: join {code} -> {response.status} {response.text[:200]}")
                return
        page = await self.get(f"/r/{code}/")
        if page.status != 200 or 'id="room-body"' not in page.text:
            self.stats.unexpected.append(f"{self.name}: room page {page.status}")
        self.page_csrf = csrf_from(page.text)
        await self.connect()
        if self.watcher:
            try:
                await self.watch_to_end(room)
            finally:
                self.remember(room)
            return
        await self.lobby_message({"action": "ready"})
        room.ready.add(self.name)
        if len(room.ready) == room.seated:
            room.all_ready.set()
        if self.host:
            await room.all_ready.wait()
            await self.start_showdown()
        await self.wait_for(lambda: self.view.state in ("countdown", "playing", "finished"), timeout=300)
        if self.view.state == "countdown":
            await asyncio.sleep(max(0.0, (self.countdown_end or time.monotonic()) - time.monotonic()) + 0.05)
            await self.sync()
            await self.wait_for(lambda: self.view.state in ("playing", "finished"), timeout=60, poke=self.sync)
        if self.stats.play_started is None:
            self.stats.play_started = time.monotonic()
        try:
            await self.play(room)
            await self.watch_to_end(room)
        finally:
            self.remember(room)

    def remember(self, room):
        self.history[room.code] = {
            "view": self.view,
            "connections": list(self.connections),
            "left": self.name in room.left,
            "countdown_end": self.countdown_end,
            "finished_reply_at": self.finished_reply_at,
            "finished_sent_at": self.finished_sent_at,
        }

    async def start_showdown(self):
        """Click Start until it works: a start shows up as the countdown, a refusal (someone's
        ready flag has not landed yet) as an error. Only after a refusal is Start clicked again,
        so no late refusal can be mistaken for the answer to a move."""

        def started():
            return self.view.state in ("countdown", "playing", "finished")

        async def click():
            await self.lobby_message({"action": "start"})

        for _ in range(200):
            self.lobby_pending = asyncio.get_running_loop().create_future()
            await click()
            try:  # after a reconnect the resync shows the lobby again: click again
                await self.wait_for(lambda: started() or self.lobby_pending.done(), timeout=300, poke=click)
            finally:
                self.lobby_pending = None
            if started():
                return
            await asyncio.sleep(0.3)

    async def watch_to_end(self, room):
        with contextlib.suppress(TimeoutError, Deadline):
            await self.wait_for(
                lambda: self.view.state in ("finished", "expired"), timeout=self.run.deadline - time.monotonic()
            )
        await asyncio.sleep(1.0)  # let the last pushes land
        await self.close()

    def empties(self):
        return [i for i, ch in enumerate(self.view.cells) if ch == "0"]

    def choose(self):
        cfg, rng = self.config, self.rng
        empties = self.empties()
        cell = rng.choice(empties)
        r = rng.random()
        if r < cfg.p_hint:
            return {"cell": str(cell) if rng.random() < 0.7 else "", "mode": "enter", "command": "hint"}
        r -= cfg.p_hint
        if r < cfg.p_note:
            return {"cell": str(cell), "mode": "note", "digit": str(rng.randint(1, 9))}
        r -= cfg.p_note
        digit = int(self.solution[cell])
        if r < cfg.p_wrong:
            return {"cell": str(cell), "mode": "enter", "digit": str(digit % 9 + 1)}
        r -= cfg.p_wrong
        if r < cfg.p_silly:  # a tap on a given or solved cell: refused with a message
            filled = [i for i, ch in enumerate(self.view.cells) if ch != "0"]
            return {"cell": str(rng.choice(filled)), "mode": "enter", "digit": str(rng.randint(1, 9))}
        return {"cell": str(cell), "mode": "enter", "digit": str(digit)}

    async def play(self, room):
        cfg, rng = self.config, self.rng
        while self.view.status == "playing" and self.view.state == "playing":
            self.check_deadline()
            if not self.view.cells or "0" not in self.view.cells:
                await asyncio.sleep(0.1)
                continue
            if self.solution is None:
                self.solution = self.run.solutions[self.view.givens]
            to_fill = self.view.givens.count("0")
            if self.leave_at is not None and to_fill - self.view.cells.count("0") >= self.leave_at * to_fill:
                await self.forfeit()
                return
            r = rng.random()
            if r < cfg.p_reconnect:
                self.stats.reconnects["clean"] += 1
                await self.close()
                await asyncio.sleep(0.1 + 0.5 * rng.random())
                await self.connect()
            elif r < cfg.p_reconnect + cfg.p_reload:
                self.stats.reconnects["page reload"] += 1
                await self.close()
                await self.get(f"/r/{room.code}/")
                await self.connect()
            drop = rng.random() < cfg.p_drop
            answer = await self.move(self.choose(), drop=drop)
            if answer[0] == "applied" and self.view.status == "finished" and self.finished_reply_at is None:
                self.finished_reply_at = time.monotonic()
                self.finished_sent_at = self.sent_at[answer[-1]]
            await asyncio.sleep(rng.uniform(0.5, 1.5) / cfg.rate)

    async def forfeit(self):
        htmx = self.rng.random() < 0.5
        response = await self.post(f"/r/{self.room.code}/leave/", {}, htmx=htmx)
        ok = response.status in (302,) or (htmx and response.status == 200 and response.header("HX-Redirect"))
        if not ok:
            self.stats.unexpected.append(f"{self.name}: leave -> {response.status} {response.text[:200]}")
        await self.wait_for(
            lambda: self.view.status == "left" or self.view.state == "finished", timeout=30, poke=self.sync
        )
        self.room.left.add(self.name)
        await asyncio.sleep(0.5)
        await self.close()  # the browser follows the redirect home

    async def run_all(self, rooms):
        await self.setup_http()
        for room in rooms:
            if not self.host and not self.watcher:
                cfg = self.config
                self.leave_at = self.rng.uniform(0.15, 0.85) if self.rng.random() < cfg.leave_fraction else None
            await self.play_round(room)


class RoomPlan:
    """One showdown of one room: who plays, and the coordination a group of friends has
    outside the app (the host shares the code, the host starts once everyone is ready)."""

    def __init__(self, index, preset, seated):
        self.index, self.preset, self.seated = index, preset, seated
        self.code_future = asyncio.get_running_loop().create_future()
        self.ready, self.left = set(), set()
        self.all_ready = asyncio.Event()

    @property
    def code(self):
        return self.code_future.result() if self.code_future.done() and not self.code_future.exception() else None
