"""Screenshots of the site as players see it, to look at after a change of layout or style:
a showdown lobby (and its QR code), its 3-2-1 countdown, a race in progress (and with a
reaction's toast), a finished room, Solo Run (and its digit-first mode), Cardoku and Sudoku
Domino (solo, their first-play walkthroughs, and a duel each, with the Domino duel lobby's
walkthrough), How to Play, a scheduled showdown's guest name, the daily's share card (the PNG)
and its page, and the daily archive's statistics, at 1280x800 and 375x812, in the light and
the dark colour scheme.

    .venv/bin/python scripts/screenshots.py OUT_DIR [--only NAME,...] [--lang nl]

Starts daphne (HTTP and sockets) on a scratch SQLite database, lets three first-time
players (Ada, Grace, Linus) pick their names and play through the site in headless
Chromium, and saves OUT_DIR/<state>-<width>-<scheme>.png (whole pages: on a phone the fold
is at y=812). With --lang the screenshots are taken in that language (the players play in
English; the name gets a -<lang> suffix). The script reads the scratch database only to know the right moves.
"""

import argparse
import datetime as dt
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
SIZES = [(1280, 800), (375, 812)]
SCHEMES = ["light", "dark"]
STATES = [
    "lobby",
    "countdown",
    "race",
    "toast",
    "finished",
    "solo",
    "cardoku-solo",
    "cardoku-duel",
    "cardoku-duel-over",
    "domino-solo",
    "domino-duel",
    "domino-duel-over",
    "how-to-play",
    "digit-first",
    "reader-help",
    "share-qr",
    "cardoku-tour",
    "domino-tour",
    "home",
    "race-wait",
    "replay",
    "ghost-race",
    "friends",
    "profile",
    "league",
    "home-friends",
    "lobby-invite",
    "arena",
    "arenas",
    "arena-finished",
    "arena-private",
    "settings",
    "solo-paused",
    "solo-fill",
    "solo-why",
    "daily-rule",
    "display-cb-safe",
    "display-standard",
    "display-high-contrast",
    "display-high-standard",
    "display-numpad",
    "display-row",
    "display-left",
    "display-large",
    "guest-name",
    "duel-tour",
    "share-card",
    "daily-shared",
    "daily-stats",
]
# The first-play walkthroughs are shot on their own (the *-tour states); everywhere else this
# browser has seen them already.
TOURS_SEEN = "localStorage.setItem('tour-cardoku', 'done'); localStorage.setItem('tour-domino', 'done');"
# A phone's share sheet (navigator.share), so the room's Share button shows as on a phone.
SHARE_SHEET = "navigator.share = () => Promise.resolve();"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(env: dict) -> tuple[subprocess.Popen, str]:
    """daphne on a free port, once it accepts connections."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            if process.poll() is not None:
                raise SystemExit("daphne did not start") from None
            time.sleep(0.1)
    process.terminate()
    raise SystemExit("daphne did not answer within 30 s")


class Shooter:
    def __init__(self, browser, base: str, out: Path, only: set[str], lang: str = "en"):
        self.browser, self.base, self.out, self.only, self.lang = browser, base, out, only, lang
        self.players: dict[str, object] = {}

    def player(self, name: str):
        """The player's own page (a 1280x800 context with their cookie)."""
        if name not in self.players:
            context = self.browser.new_context(base_url=self.base, viewport={"width": 1280, "height": 800}, locale="en")
            context.add_init_script(TOURS_SEEN)
            page = context.new_page()
            page.set_default_timeout(15_000)
            self.players[name] = page
        return self.players[name]

    def into_lobby(self, page, name: str) -> None:
        """Into the lobby, picking a name on the way when asked (a first-time player)."""
        lobby = page.locator("#room-body[data-state=lobby] .row-actions")
        asked = page.get_by_label("Your name")
        lobby.or_(asked).wait_for()
        if asked.count():
            asked.fill(name)
            page.get_by_role("button", name="Continue").click()
            lobby.wait_for()

    def shoot(
        self,
        state: str,
        name: str,
        path,
        ready: str = "main",
        settle: int = 600,
        prepare=None,
        init: str = TOURS_SEEN,
        full_page: bool = True,
    ) -> None:
        """The page at `path` as player `name` sees it, in every size and scheme; `prepare`
        gets each fresh page first, `init` runs before the page's own scripts. `path` may be
        a function: a fresh path for each shot."""
        if self.only and state not in self.only:
            return
        cookies = self.player(name).context.cookies()
        for width, height in SIZES:
            for scheme in SCHEMES:
                context = self.browser.new_context(
                    base_url=self.base,
                    viewport={"width": width, "height": height},
                    color_scheme=scheme,
                    locale=self.lang,
                )
                context.add_cookies(cookies)
                if init:
                    context.add_init_script(init)
                page = context.new_page()
                page.goto(path() if callable(path) else path)
                if prepare:
                    prepare(page)
                page.wait_for_selector(ready)
                page.wait_for_timeout(settle)  # the socket's first push, fonts, transitions
                suffix = "" if self.lang == "en" else f"-{self.lang}"
                target = self.out / f"{state}-{width}-{scheme}{suffix}.png"
                page.screenshot(path=str(target), full_page=full_page)
                print(target)
                context.close()


def sudoku_moves(page, puzzle, count: int | None = None, wrong: int = 0) -> None:
    """Enter `count` right digits (all, when None) on the board, then `wrong` wrong ones."""
    empty = [i for i, g in enumerate(puzzle.givens) if g == "0"]
    right = empty if count is None else empty[:count]
    for index in right:
        page.locator(f'[data-board] [data-cell="{index}"]').click()
        page.keyboard.press(puzzle.solution[index])
        page.locator(f'[data-board] [data-cell="{index}"][data-value="{puzzle.solution[index]}"]').wait_for()
    for index in empty[len(right) : len(right) + wrong]:
        page.locator(f'[data-board] [data-cell="{index}"]').click()
        page.keyboard.press(str(int(puzzle.solution[index]) % 9 + 1))
        page.wait_for_timeout(400)


def wait_until(done, seconds: float = 10) -> None:
    """Until the move shows in the database (the page's answer follows)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("a move did not land")
        time.sleep(0.05)


def room_code(page) -> str:
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def open_room(shots: Shooter, game: str, host: str, guests: list[str]) -> str:
    """A lobby of `game` made through the home page, with every guest joined by the link."""
    page = shots.player(host)
    page.goto("/")
    page.locator("select[name=game]").select_option(game)
    page.locator("select[name=level]").select_option("easy")
    page.get_by_role("button", name="Create room").click()
    shots.into_lobby(page, host)
    code = room_code(page)
    for guest in guests:
        other = shots.player(guest)
        other.goto(f"/r/{code}/")
        other.locator("#room-body").get_by_role("button", name=re.compile(r"^Join (as|the room)")).click()
        shots.into_lobby(other, guest)
    return code


def start_room(shots: Shooter, code: str, players: list[str]) -> None:
    for name in players[1:]:  # the host's Start is the host's ready (issue 27)
        page = shots.player(name)
        page.locator("#room-body").get_by_role("button", name="I'm ready").click()
        page.locator("#room-body").get_by_role("button", name="Not ready").wait_for()
    host = shots.player(players[0])
    host.locator("form:has(input[value=start]) button").click()
    for name in players:
        shots.player(name).wait_for_selector("#room-body[data-state=playing] #game", timeout=20_000)


def showdown(shots: Shooter) -> None:
    from rooms.models import Room

    players = ["Ada", "Grace", "Linus"]
    code = open_room(shots, "showdown", "Ada", players[1:])
    ada, grace, linus = (shots.player(n) for n in players)
    grace.locator("#room-body").get_by_role("button", name="I'm ready").click()
    shots.shoot("lobby", "Ada", f"/r/{code}/", "#room-body[data-state=lobby]")
    shots.shoot(
        "share-qr",
        "Ada",
        f"/r/{code}/",
        "#room-body[data-state=lobby]",
        prepare=lambda page: page.locator(".share-qr summary").click(),
        init=TOURS_SEEN + SHARE_SHEET,
        full_page=False,
    )
    grace.locator("#room-body").get_by_role("button", name="Not ready").click()
    start_room(shots, code, players)
    puzzle = Room.objects.get(code=code).puzzle
    sudoku_moves(ada, puzzle, 14, wrong=1)
    sudoku_moves(grace, puzzle, 8)
    sudoku_moves(linus, puzzle, 3, wrong=2)
    ada.locator("[data-board] [data-cell]").nth(40).click()
    shots.shoot("race", "Ada", f"/r/{code}/", "#room-body[data-state=playing] #game", settle=1500)
    reactors = iter(["Grace", "Linus"] * 2)  # a reaction each per shot: within their 3 per 10 s

    def react(page) -> None:
        """Ada's fresh page hears a rival's reaction once its socket is up (a toast, 5 s)."""
        page.wait_for_selector("#room-body[data-state=playing] #game")
        page.wait_for_timeout(900)
        shots.player(next(reactors)).get_by_role("button", name="Close one!").click()
        page.locator("#toasts .toast").wait_for()

    shots.shoot("toast", "Ada", f"/r/{code}/", "#toasts .toast", settle=400, prepare=react)
    sudoku_moves(ada, puzzle)
    sudoku_moves(grace, puzzle)
    linus.get_by_text("Forfeit and leave").click()  # it asks first (issue 27)
    linus.get_by_role("button", name="Yes, forfeit").click()
    linus.wait_for_url(shots.base + "/")
    ada.wait_for_selector("#room-body[data-state=finished]")
    shots.shoot("finished", "Grace", f"/r/{code}/", "#room-body[data-state=finished]", settle=2500)

    def midway(page) -> None:  # the replay stepped to the middle of the race
        page.locator("[data-timeline]").evaluate(
            "el => { el.value = String(Math.round(el.max * 0.55)); el.dispatchEvent(new Event('input')); }"
        )

    shots.shoot("replay", "Grace", f"/replay/room/{code}/", "[data-replay]", prepare=midway)
    if not shots.only or "ghost-race" in shots.only:
        page = shots.player("Linus")
        page.goto(f"/replay/room/{code}/")
        page.get_by_role("button", name="Race Ada's ghost").click()
        page.wait_for_selector("#ghosts")
        sudoku_moves(page, puzzle, 12)
        shots.shoot("ghost-race", "Linus", page.url.removeprefix(shots.base), "#ghosts", settle=2500, prepare=resume)


def countdown(shots: Shooter) -> None:
    """The 3-2-1 in big digits: for each shot a room started (through the write path) to
    reach its start about 3 seconds after the page shows it."""
    from django.conf import settings
    from django.db import OperationalError
    from django.utils import timezone

    from players.models import Profile
    from rooms import actions as A
    from rooms.api import act, create_room

    grace, linus = Profile.objects.get(display_name="Grace"), Profile.objects.get(display_name="Linus")

    def counting() -> str:
        for _attempt in range(20):  # SQLite: the last shot's room, running in daphne, may hold the lock
            try:
                return start_counting()
            except OperationalError:
                time.sleep(0.25)
        raise SystemExit("the database stayed locked")

    def start_counting() -> str:
        code = create_room(grace, "showdown", "easy", "standard").code
        act(code, linus, A.Join())
        act(code, linus, A.SetReady(True))
        ahead = 3.6 - settings.COUNTDOWN_SECONDS  # the page loads and settles in about a second
        act(code, grace, A.Start(), now=timezone.now() + dt.timedelta(seconds=ahead))
        return f"/r/{code}/"

    shots.shoot("countdown", "Linus", counting, "#room-body[data-state=countdown] .big-count", settle=200)


def solo(shots: Shooter) -> None:
    from games.models import SoloRun

    page = shots.player("Ada")
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")
    run = SoloRun.objects.filter(player__display_name="Ada").latest("pk")
    sudoku_moves(page, run.puzzle, 20, wrong=1)
    page.locator("[data-board] [data-cell]").nth(30).click()
    shots.shoot("solo", "Ada", page.url.removeprefix(shots.base), "[data-board]", prepare=resume)
    digit = next(d for d in "123456789" if run.puzzle.givens.count(d) >= 3)

    def digit_first(page) -> None:  # the switch on and a digit picked: its cells light up
        resume(page)
        page.get_by_role("button", name="Digit first").click()
        page.locator(f'.pad [data-digit="{digit}"]').click()

    shots.shoot("digit-first", "Ada", page.url.removeprefix(shots.base), "[data-board]", prepare=digit_first)

    def reader_help(page) -> None:  # screen-reader mode (static/js/reader.js): its keys, opened by "?"
        resume(page)
        page.locator("[data-board] [data-cell]").nth(30).focus()
        page.keyboard.press("?")
        page.locator("#reader-help").wait_for()

    reader_on = "document.addEventListener('readystatechange', () => document.documentElement.dataset.reader = 'on');"
    path = page.url.removeprefix(shots.base)
    shots.shoot("reader-help", "Ada", path, "#reader-help", prepare=reader_help, init=TOURS_SEEN + reader_on)


def solo_pause(shots: Shooter) -> None:
    """Issue 43: a Solo Run paused over 10 s (the paused screen says it is now Assisted), the
    Assisted run with Fill notes pressed, its finish saying why, and the dailies' page with
    the pause rule before the start."""
    from django.db.models import F
    from django.utils import timezone

    from games.daily.models import Daily
    from games.models import SoloRun

    page = shots.player("Grace")
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")
    run = SoloRun.objects.filter(player__display_name="Grace").latest("pk")
    sudoku_moves(page, run.puzzle, 3)
    page.get_by_role("button", name="Pause").click()
    page.locator("[data-pause-rule]").wait_for()
    SoloRun.objects.filter(pk=run.pk).update(
        paused_at=F("paused_at") - dt.timedelta(seconds=11), revision=F("revision") + 1
    )
    path = page.url.removeprefix(shots.base)
    shots.shoot("solo-paused", "Grace", path, "[data-pause-rule].is-warn")
    page.reload()
    page.get_by_role("button", name="Resume").click()
    page.locator("#fill-notes:not([hidden])").click()
    page.locator("#game-message", has_text="Notes filled").wait_for()
    shots.shoot("solo-fill", "Grace", path, "#fill-notes")
    sudoku_moves(page, run.puzzle)
    shots.shoot("solo-why", "Grace", path, ".assisted-why")
    puzzle = run.puzzle
    Daily.objects.get_or_create(date=timezone.now().date(), level="easy", defaults={"puzzle": puzzle})
    shots.shoot("daily-rule", "Grace", "/daily/", ".pause-rule-note")


def resume(page) -> None:
    """A Solo Run left paused (Pause pressed before the shot): resume it; a playing one is left alone."""
    button = page.locator("button[name=command][value=resume]")
    page.locator("[data-board]").or_(button).wait_for()
    if button.count():
        button.click()


def cardoku_taps(page, load_state, count: int) -> None:
    """`count` cards laid on squares the engine allows, one tap each."""
    from games.engines import cardoku as ck

    for _ in range(count):
        state = load_state()
        squares = sorted(ck.legal_squares(state))
        if not squares:
            return
        row, col = squares[len(squares) // 2]
        before = len(state.cards_on_board())
        page.locator(f'#ck-board [data-row="{row}"][data-col="{col}"]').click()
        wait_until(lambda before=before: len(load_state().cards_on_board()) > before)
        page.wait_for_timeout(300)


def cardoku_solo(shots: Shooter) -> None:
    from games.cardoku.models import CardokuGame
    from games.cardoku.play import load

    page = shots.player("Grace")
    page.goto("/cardoku/")
    page.get_by_role("button", name="Shuffle & Deal").click()
    page.wait_for_selector("#ck-board")
    game = CardokuGame.objects.filter(player__display_name="Grace").latest("pk")
    cardoku_taps(page, lambda: load(CardokuGame.objects.get(pk=game.pk).state), 6)
    shots.shoot("cardoku-solo", "Grace", page.url.removeprefix(shots.base), "#ck-board")
    tour(shots, "cardoku-tour", "Grace", page.url.removeprefix(shots.base), "#ck-board")


def seat_state(name: str) -> dict:
    from rooms.api import running_view
    from rooms.models import Seat

    seat = Seat.objects.filter(player__display_name=name).latest("pk")
    _, seats = running_view(seat.room.code)
    return next(s for s in seats if s.pk == seat.pk).state


def cardoku_duel(shots: Shooter) -> None:
    from games.engines import cardoku as ck

    code = open_room(shots, "cardoku", "Ada", ["Grace"])
    start_room(shots, code, ["Ada", "Grace"])
    cardoku_taps(shots.player("Ada"), lambda: ck.from_dict(seat_state("Ada")), 5)
    cardoku_taps(shots.player("Grace"), lambda: ck.from_dict(seat_state("Grace")), 3)
    shots.shoot("cardoku-duel", "Ada", f"/r/{code}/", "#room-body[data-state=playing] #ck-board", settle=1200)
    end_duel(shots, code, "Grace", "Ada")
    shots.shoot("cardoku-duel-over", "Ada", f"/r/{code}/", "#room-body[data-state=finished]", settle=1500)


def end_duel(shots: Shooter, code: str, *players: str) -> None:
    """Every player forfeits in turn: the room is over."""
    for name in players:
        page = shots.player(name)
        page.locator("details.forfeit summary").click()
        page.get_by_role("button", name="Yes, forfeit").click()
        page.wait_for_url(shots.base + "/")


def domino_pushes(page, load_state, count: int) -> None:
    """`count` stones pushed in from an entry point where they land on their own cell."""
    from games.engines import domino as d

    for _ in range(count):
        state = load_state()
        where = next(
            (
                (edge, line)
                for (edge, line), (row, col) in sorted(d.entry_points(state).items())
                if state.solution[(row - 1) * 9 + col - 1] == state.current_stone
            ),
            None,
        )
        if where is None:
            return
        page.locator(f'[data-marker][data-edge="{where[0]}"][data-line="{where[1]}"]').click()
        wait_until(lambda done=state.move_count: load_state().move_count > done)
        page.wait_for_timeout(300)


def domino_solo(shots: Shooter) -> None:
    """Linus's first Domino game: its walkthrough with the clock waiting for it (shot first:
    the walkthrough's end starts the clock), then the game a few stones on."""
    from games.domino import solo as domino
    from games.domino.models import DominoGame
    from players.models import Profile

    game = domino.start_game(Profile.objects.filter(display_name="Linus").latest("pk"), "easy")
    path = f"/domino/{game.pk}/"
    tour(shots, "domino-tour", "Linus", path, "[data-domino-board]", step=1)  # the hand, the clock waiting
    page = shots.player("Linus")
    page.goto(path)
    page.locator("#dm-clock [data-clock-waiting]").wait_for(state="detached")  # seen: the clock runs
    domino_pushes(page, lambda: DominoGame.objects.get(pk=game.pk).engine_state(), 6)
    shots.shoot("domino-solo", "Linus", path, "[data-domino-board]")


def tour(shots: Shooter, state: str, name: str, path: str, ready: str, step: int = 2) -> None:
    """A first visit (no walkthrough seen): the walkthrough on its `step` (the one about the
    board by default), as the player sees it (the screen, not the whole page: the card is
    fixed at its foot)."""

    def on_step(page) -> None:
        for _ in range(step - 1):
            page.get_by_role("dialog").get_by_role("button", name="Next").click()
        page.wait_for_timeout(700)  # the smooth scroll to the ringed part
        if step == 1:  # the page's top: a first Domino game's clock, waiting for the walkthrough
            page.evaluate("window.scrollTo(0, 0)")

    shots.shoot(state, name, path, ready, prepare=on_step, init="", full_page=False)


def domino_duel(shots: Shooter) -> None:
    from games.engines import domino as d

    code = open_room(shots, "domino", "Grace", ["Linus"])
    # Grace never played Domino: the lobby walks her through it (a browser that never saw it).
    shots.shoot("duel-tour", "Grace", f"/r/{code}/", ".tour[data-tour=domino]", init="", full_page=False)
    start_room(shots, code, ["Grace", "Linus"])
    domino_pushes(shots.player("Grace"), lambda: d.from_dict(seat_state("Grace")), 5)
    domino_pushes(shots.player("Linus"), lambda: d.from_dict(seat_state("Linus")), 3)
    shots.shoot("domino-duel", "Grace", f"/r/{code}/", "#room-body[data-state=playing] [data-domino-board]")
    end_duel(shots, code, "Linus", "Grace")
    shots.shoot("domino-duel-over", "Grace", f"/r/{code}/", "#room-body[data-state=finished]", settle=1500)


def guest_name(shots: Shooter) -> None:
    """A scheduled showdown's invitation as a guest still called "Player 1234" sees it: "I'm
    coming" asks the name the guest list shows (issue 43, 6)."""
    from django.utils import timezone

    from players.models import Profile
    from rooms.api import create_room

    ada = Profile.objects.filter(display_name="Ada").latest("pk")
    room = create_room(ada, level="easy", scheduled_for=timezone.now() + dt.timedelta(days=1), host_timezone="UTC")
    guests = Profile.objects.filter(display_name__startswith="Player ")
    known = guests.count()
    page = shots.player("Hedy")  # a first visit: the room's socket makes the profile
    page.goto(f"/r/{room.code}/")
    wait_until(lambda: guests.count() > known)
    shots.shoot("guest-name", "Hedy", f"/r/{room.code}/", ".coming-form .guest-name")


def daily_share(shots: Shooter) -> None:
    """Today's easy daily solved: the share card itself (the PNG), the page a shared link
    opens, and the archive's statistics per level."""
    from django.utils import timezone

    from games.bank import take_puzzle
    from games.daily.models import Daily
    from games.models import SoloRun

    Daily.objects.get_or_create(date=timezone.now().date(), level="easy", defaults={"puzzle": take_puzzle("easy")})
    page = shots.player("Linus")
    page.goto("/daily/")
    page.locator("button[name=level][value=easy]").click()
    page.wait_for_selector("[data-board]")
    run = SoloRun.objects.filter(player__display_name="Linus", daily__isnull=False).latest("pk")
    sudoku_moves(page, run.puzzle)
    page.locator("[data-share][data-card-url]").wait_for()
    shots.shoot("share-card", "Linus", f"/daily/card/{run.pk}.png", "img", full_page=False)
    shots.shoot("daily-shared", "Linus", f"/daily/shared/{run.pk}/", ".share-card")
    shots.shoot("daily-stats", "Linus", "/daily/archive/", "#stats")


def race_now(shots: Shooter) -> None:
    """The home page with Race now first, and the pool's waiting page with two waiting."""
    shots.shoot("home", "Ada", "/", ".race-now")
    for name in ("Ada", "Grace"):
        page = shots.player(name)
        page.goto("/")
        page.get_by_role("form", name="Race now: pick a level").get_by_role("button", name="Hard").click()
        page.wait_for_selector("#pool-panel")
    shots.shoot("race-wait", "Ada", "/race/", "#pool-panel")
    for name in ("Ada", "Grace"):
        page = shots.player(name)
        page.goto("/race/")
        page.get_by_role("button", name="Cancel").click()


def signed_in(shots: Shooter, name: str):
    """A player signed in to an account with a handle: their page's context gets the session."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core import signing
    from django.test import Client

    from friends.models import Member
    from players.models import Profile

    user = get_user_model().objects.create_user(username=name.lower(), email=f"{name.lower()}@example.com")
    Member.objects.create(account=user, handle=name.lower())
    profile = Profile.objects.create(display_name=name, account=user)
    client = Client()
    client.force_login(user)
    page = shots.player(name)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": shots.base,
            },
            {
                "name": settings.PLAYER_COOKIE_NAME,
                "value": signing.dumps(profile.token, salt="stats.player"),
                "url": shots.base,
            },
            {"name": "name_chosen", "value": "1", "url": shots.base},
        ]
    )
    return profile


def friends(shots: Shooter) -> None:
    """Friends and leagues (docs/rules.md 11): the friends page with a friend online, a public
    profile, the week's league, the home page's panel and a lobby's invite."""
    import datetime as dt

    from django.utils import timezone

    from friends.models import Follow
    from games.daily.models import Daily
    from games.models import Puzzle, SoloRun
    from leagues import placement
    from rooms.api import create_room

    ana, bo, cy = (signed_in(shots, name) for name in ("Ana", "Bo", "Cy"))
    for a, b in ((ana, bo), (bo, ana), (ana, cy), (cy, ana)):
        Follow.objects.create(follower_id=a.account_id, followee_id=b.account_id)
    puzzle = Puzzle.objects.filter(level="easy").first() or Puzzle.objects.first()
    assert puzzle is not None, "the showdown step made the bank's puzzles first"
    daily = Daily.objects.create(date=timezone.now().date(), level="easy", puzzle=puzzle)
    for profile, seconds in ((ana, 251.0), (bo, 190.0), (cy, 320.0)):
        run = SoloRun.objects.create(
            player=profile, puzzle=puzzle, level="easy", board={}, daily=daily, state="finished",
            elapsed=seconds, mistakes=1, score=100, finished_at=timezone.now() - dt.timedelta(hours=1),
        )  # fmt: skip
        placement.run_finished(SoloRun, run)
    shots.player("Bo").goto("/")  # Bo is online: the panels show him
    shots.shoot("friends", "Ana", "/friends/", "#friends-online-slot .online-list", settle=800)
    shots.shoot("profile", "Ana", "/u/bo/", ".public-profile")
    shots.shoot("league", "Ana", "/league/", ".league-table")
    shots.shoot("home-friends", "Ana", "/", "#friends-online-slot .online-list", settle=800)
    lobby = create_room(ana, "showdown", "easy", "standard")
    shots.shoot("lobby-invite", "Ana", f"/r/{lobby.code}/", "#friends-online-slot [data-invite]", settle=800)
    arenas(shots, ana, bo, cy)


ARENA_STATES = ("arena", "arenas", "arena-finished", "arena-private")


def arenas(shots: Shooter, *players) -> None:
    """An arena halfway (docs/rules.md 12): its table with fire and berserk, and the list."""
    import datetime as dt

    from django.utils import timezone

    from arenas.models import Arena, Entry

    now = timezone.now()
    arena = Arena.objects.create(
        level="medium", starts_at=now - dt.timedelta(minutes=20), minutes=60, ends_at=now + dt.timedelta(minutes=40)
    )
    scores = [
        (9, 3, [[2, False, False], [2, False, False], [4, True, False]]),
        (5, 2, [[1, False, True], [4, False, False]]),
    ]
    scores.append((1, 0, [[0, False, False], [1, False, False]]))
    for profile, (points, firsts, recent) in zip(players, scores, strict=True):
        Entry.objects.create(
            arena=arena, player=profile, account_id=profile.account_id, points=points, rooms=len(recent),
            firsts=firsts, recent=recent, solving_seconds=300.0 * len(recent), state="waiting", waiting_since=now,
        )  # fmt: skip
    Entry.objects.filter(arena=arena, player=players[0]).update(state="paused")  # no pairing while shot
    shots.shoot("arena", "Ana", f"/arena/{arena.code}/", "#arena-table")
    shots.shoot("arenas", "Ana", "/arenas/", ".arena-list")
    # Finished: the podium and Ana's rooms in order (fire, berserk, a room she left).
    over = Arena.objects.create(
        level="easy", starts_at=now - dt.timedelta(minutes=40), minutes=30, ends_at=now - dt.timedelta(minutes=10)
    )
    rooms: list[tuple[int | None, int, int, bool, bool]] = [
        (1, 3, 2, False, True), (1, 3, 2, False, False), (1, 4, 6, True, False), (2, 4, 4, True, False),
        (None, 3, 0, False, False),
    ]  # fmt: skip
    history = [
        {"room": "ABCDEF", "place": p, "size": n, "points": pts, "fire": f, "berserk": b, "left": p is None}
        for p, n, pts, f, b in rooms
    ]
    for profile, points, past in zip(players, (14, 6, 3), (history, history[:2], history[:1]), strict=True):
        Entry.objects.create(
            arena=over, player=profile, account_id=profile.account_id, points=points, rooms=len(past),
            recent=[[h["points"], h["fire"], h["berserk"]] for h in past], history=past, state="paused",
            solving_seconds=200.0 * len(past),
        )  # fmt: skip
    shots.shoot("arena-finished", "Ana", f"/arena/{over.code}/", "#history")
    # A private arena before its start: the guest list and Ana's reminders.
    private = Arena.objects.create(
        level="hard", starts_at=now + dt.timedelta(hours=3), minutes=60, ends_at=now + dt.timedelta(hours=4),
        private=True, host_id=players[0].account_id,
    )  # fmt: skip
    for profile in players[:2]:
        Entry.objects.create(arena=private, player=profile, account_id=profile.account_id, by_email=True)
    shots.shoot("arena-private", "Ana", f"/arena/{private.code}/", "[data-arena-guests]")


def how_to_play(shots: Shooter) -> None:
    """The guides (a screen each, pictures from the real boards) above the rules in detail."""
    shots.shoot("how-to-play", "Ada", "/how-to-play/", "#play-solo")


# Each display setting (players/display.py) on a Solo Run board with a wrong entry just
# refused: (state, the profile's stored settings).
DISPLAYS = [
    ("display-cb-safe", {}),
    ("display-standard", {"palette": "standard"}),
    ("display-high-contrast", {"contrast": "high"}),
    ("display-high-standard", {"contrast": "high", "palette": "standard"}),
    ("display-numpad", {"pad": "numpad"}),
    ("display-row", {"pad": "row"}),
    ("display-left", {"pad_side": "left"}),
    ("display-large", {"text": "large"}),
]


def display_settings(shots: Shooter) -> None:
    """The settings page, then a Solo Run board in each setting with one wrong digit refused
    (its cross and tint)."""
    from games.models import SoloRun
    from players.models import Profile

    shots.shoot("settings", "Ada", "/settings/", "#settings-form")
    page = shots.player("Ada")
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")
    run = SoloRun.objects.filter(player__display_name="Ada").latest("pk")
    sudoku_moves(page, run.puzzle, 12)
    wrong_at = [i for i, g in enumerate(run.puzzle.givens) if g == "0"][-1]  # far from the 12 entered

    def a_wrong_digit(page) -> None:
        resume(page)
        page.locator(f'[data-board] [data-cell="{wrong_at}"]').click()
        page.keyboard.press(str(int(run.puzzle.solution[wrong_at]) % 9 + 1))
        page.locator(f'[data-board] [data-cell="{wrong_at}"].wrong').wait_for()
        page.locator(f'[data-board] [data-cell="{wrong_at}"].wrong .value').wait_for(state="detached")

    ada = Profile.objects.filter(display_name="Ada")
    for state, settings in DISPLAYS:
        ada.update(display=settings)
        shots.shoot(state, "Ada", page.url.removeprefix(shots.base), "[data-board]", prepare=a_wrong_digit)
    ada.update(display={})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the PNGs (made if missing)")
    parser.add_argument("--only", default="", help=f"comma-separated states among {', '.join(STATES)}")
    parser.add_argument("--lang", default="en", help="the screenshots' language (en, nl)")
    args = parser.parse_args()
    only = {s for s in args.only.split(",") if s}
    if unknown := only - set(STATES):
        parser.error(f"unknown states: {', '.join(sorted(unknown))}")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
        env.update(
            DATABASE_URL=f"sqlite:///{tmp}/screenshots.sqlite3",
            DJANGO_DEBUG="true",
            PUZZLE_BANK_INLINE="1",
            COUNTDOWN_SECONDS="1",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0", "--noinput"], env=env, cwd=ROOT, check=True)
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM beside Playwright's loop
        process, base = serve(env)
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
                shots = Shooter(browser, base, args.out, only, args.lang)
                # Names are picked on the first room; the order keeps every player's first
                # visit a first-time one.
                for step, states in (
                    (showdown, {"lobby", "share-qr", "race", "toast", "finished", "replay", "ghost-race"}),
                    (countdown, {"countdown"}),
                    (solo, {"solo", "digit-first", "reader-help"}),
                    (cardoku_solo, {"cardoku-solo", "cardoku-tour"}),
                    (cardoku_duel, {"cardoku-duel", "cardoku-duel-over"}),
                    (domino_solo, {"domino-solo", "domino-tour"}),
                    (domino_duel, {"duel-tour", "domino-duel", "domino-duel-over"}),
                    (how_to_play, {"how-to-play"}),
                    (race_now, {"home", "race-wait"}),
                    (friends, {"friends", "profile", "league", "home-friends", "lobby-invite", *ARENA_STATES}),
                    (display_settings, {"settings", *(state for state, _ in DISPLAYS)}),
                    (solo_pause, {"solo-paused", "solo-fill", "solo-why", "daily-rule"}),
                    (guest_name, {"guest-name"}),
                    (daily_share, {"share-card", "daily-shared", "daily-stats"}),
                ):
                    if not only or only & states or step is showdown:
                        step(shots)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
