"""The accessibility gate: axe-core (vendored, tests/browser/vendor/) runs on every page and
every state a player meets, in light and dark color schemes, at phone (375 px) and desktop
(1100 px) widths, in English and in Dutch (the browser's language). Any violation fails the
test with a readable list: rule, impact, targets.

Plain pages run on pytest-django's live_server; room pages run on a real daphne process so
their WebSocket connects (and its first push, the full state, has landed) before axe runs.
Game states are made through each game's own write path, never by editing rows.
"""

import re
from pathlib import Path

import pytest

from games.sudoku.play import Enter
from tests.browser.puzzle import CLUES, EMPTY, PUZZLE, SOLUTION
from tests.conftest import cookie_for

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SCHEMES = ("light", "dark")
# axe's rules of its "cat.color" tag that a default run enables (color-contrast-enhanced, AAA, is off)
COLOUR_RULES = ("color-contrast", "link-in-text-block")
LANGUAGES = ("en-GB", "nl-NL")  # the browser locale: its Accept-Language picks the page language
WIDTHS = (375, 1100)
REACTIONS = {"en-GB": "Quick reactions", "nl-NL": "Snelle reacties"}  # the reactions' group, by language

# Record the room socket's state, so a check waits for the first (full-state) push.
WATCH_SOCKET = """
window.__ws = {open: false, last: 0};
document.addEventListener('htmx:wsOpen', () => { window.__ws.open = true; window.__ws.last = performance.now(); });
document.addEventListener('htmx:wsAfterMessage', () => { window.__ws.last = performance.now(); });
"""

# Let finite animations (a fresh digit's pop, a sliding stone) end: axe reads computed colors.
SETTLE = """async () => {
  const finite = document.getAnimations().filter(a => {
    const end = a.effect && a.effect.getComputedTiming().endTime;
    return end !== Infinity;
  });
  await Promise.race([Promise.all(finite.map(a => a.finished.catch(() => null))),
                      new Promise(r => setTimeout(r, 3000))]);
}"""


# The widest elements sticking out past the viewport (none: the page reflows). Endless
# animations (the countdown's pop) are looked at a tenth of their cycles apart too: the pop's
# first frames made a phone's page scroll sideways, which one moment's look saw only now and then.
REFLOW = """() => {
  const limit = document.documentElement.clientWidth;
  function wide() {
    if (document.documentElement.scrollWidth <= limit) return [];
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.right > limit + 1 && box.width > 0 && !el.closest('.visually-hidden, .ck-vh')) {
        const parent = el.parentElement && el.parentElement.getBoundingClientRect();
        if (!parent || parent.right <= limit + 1) {
          out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                   (el.className && typeof el.className === 'string'
                    ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
                   ' (right edge ' + Math.round(box.right) + 'px)');
        }
      }
    }
    return out.length ? out : ['html (scrollWidth ' + document.documentElement.scrollWidth + 'px)'];
  }
  let found = wide();
  // All of them stepped together: ten layouts a page, however many there are.
  const endless = document.getAnimations().filter(a => a.effect && a.effect.getComputedTiming().endTime === Infinity);
  const was = endless.map(a => a.currentTime);
  for (let i = 0; endless.length && i < 10 && !found.length; i++) {
    for (const a of endless) a.currentTime = a.effect.getComputedTiming().duration * i / 10;
    found = wide().map(w => w + ' at ' + i + '/10 of the endless animations');
  }
  endless.forEach((a, k) => { a.currentTime = was[k]; });
  return found;
}"""


def open_page(browser, base_url, profile, scheme, width, language="en-GB", touch=False):
    from django.conf import settings

    context = browser.new_context(
        color_scheme=scheme,
        viewport={"width": width, "height": 900},
        locale=language,
        base_url=base_url,
        bypass_csp=True,
        has_touch=touch,
        is_mobile=touch,
    )  # axe is injected inline
    if profile is not None:
        host = base_url.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie_for(profile), "domain": host, "path": "/"}]
        )
    context.add_init_script(WATCH_SOCKET)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


class Audit:
    """Runs axe on pages and collects every violation with where it was found."""

    def __init__(self, width, language="en-GB"):
        self.where = f"{width}px, {language}"
        self.language = language.split("-")[0]
        self.found = []
        self.pages = 0

    def check(self, page, label, url=None, socket=False):
        """Audit the page as it is now in each colour scheme in turn (the media feature switched
        on the loaded page: one load and one game state serve both schemes)."""
        if url is not None:
            page.goto(url)
        page.wait_for_load_state("load")
        if socket:
            page.wait_for_function("window.__ws && window.__ws.open && performance.now() - window.__ws.last > 400")
        assert page.evaluate("document.documentElement.lang") == self.language, f"{label} is not in {self.language}"
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            page.evaluate(SETTLE)
            self.audit(page, f"{label} [{scheme}]", everything=scheme == SCHEMES[0])
        page.emulate_media(color_scheme=SCHEMES[0])

    def audit(self, page, label, everything=True):
        """Every axe rule and the reflow check; or, for the second scheme (`everything` False),
        the colour rules alone: a colour scheme changes only colours (every prefers-color-scheme
        block of static/css sets custom properties), so structure, names and layout are the
        first scheme's, already checked."""
        rules = "{}" if everything else f"{{runOnly: {{type: 'rule', values: {list(COLOUR_RULES)}}}}}"
        result = page.evaluate(f"axe.run(document, Object.assign({rules}, {{resultTypes: ['violations']}}))")
        self.pages += 1
        for v in result["violations"]:
            self.found.append((label, v))
        if not everything:
            return
        # Reflow (WCAG 1.4.10), which axe does not check: nothing makes the page scroll sideways.
        wide = page.evaluate(REFLOW)
        if wide:
            self.found.append(
                (
                    label,
                    {
                        "id": "reflow",
                        "impact": "serious",
                        "help": "The page scrolls sideways",
                        "nodes": [{"target": [t]} for t in wide],
                    },
                )
            )

    def summary(self) -> str:
        lines = []
        for label, v in self.found:
            lines.append(f"[{self.where}] {label}: {v['id']} ({v['impact']}) {v['help']}")
            for node in v["nodes"][:8]:
                target = " ".join(" > ".join(t) if isinstance(t, list) else t for t in node["target"])
                detail = ""
                for check in node.get("any", []) + node.get("all", []) + node.get("none", []):
                    data = check.get("data")
                    if isinstance(data, dict) and "contrastRatio" in data:
                        detail = (
                            f" fg {data.get('fgColor')} on bg {data.get('bgColor')}: "
                            f"{data.get('contrastRatio')} < {data.get('expectedContrastRatio')}"
                        )
                        break
                lines.append(f"      {target}{detail}")
            if len(v["nodes"]) > 8:
                lines.append(f"      ... and {len(v['nodes']) - 8} more")
        return "\n".join(lines)

    def assert_clean(self):
        assert self.pages, "no page was checked"
        if self.found:
            print(self.summary())
        assert not self.found, f"axe found {len(self.found)} violation(s):\n{self.summary()}"


def bank(count, level="easy"):
    from games.models import Puzzle

    for seed in range(count):
        Puzzle.objects.create(
            level=level, givens=PUZZLE, solution=SOLUTION, clues=CLUES, techniques=["naked single"], seed=seed + 1
        )


def solo_runs(player):
    """A finished run (one mistake on the way), a paused one, and one in play with entries
    and notes; the one in play is the newest, so the home page offers to continue it."""
    from games.sudoku import solo

    def enter(run, cell, digit):
        solo.act(run.pk, player, solo.SoloAction("enter", cell=cell, digit=digit))

    finished = solo.start_run(player, "easy")
    enter(finished, EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1)
    for cell in EMPTY:
        enter(finished, cell, int(SOLUTION[cell]))
    paused = solo.start_run(player, "easy")
    solo.act(paused.pk, player, solo.SoloAction("pause"))
    playing = solo.start_run(player, "easy")
    for cell in EMPTY[:6]:
        enter(playing, cell, int(SOLUTION[cell]))
    for cell in EMPTY[6:]:  # every 1 placed: its pad button shows as done
        if SOLUTION[cell] == "1":
            enter(playing, cell, 1)
    for digit in (2, 4, 7):
        solo.act(playing.pk, player, solo.SoloAction("note", cell=EMPTY[8], digit=digit))
    solo.act(playing.pk, player, solo.SoloAction("hint", cell=EMPTY[9]))
    return finished, paused, playing


def cardoku_games(player):
    """A finished game (it fills the records) and one in play with both helpers on."""
    from games.cardoku import play, solo
    from games.engines import cardoku as ck
    from tests.games.test_cardoku_views import deal, finish

    finish(deal(player), player)
    game = deal(player)
    for _ in range(4):
        legal = sorted(ck.legal_squares(game.engine_state()))
        action = play.Action("place", *legal[0]) if legal else play.Action("discard")
        game, _ = solo.act(game.pk, player, action)
    solo.set_option(game.pk, player, "moves", True)
    solo.set_option(game.pk, player, "restrictions", True)
    return game


def domino_games(player):
    """A game lost on lives (records) and one in play after a correct push."""
    from games.domino import play, solo
    from tests.games.test_domino_views import entries, seed_with_both

    lost = solo.start_game(player, "easy", seed=seed_with_both())
    for _ in range(3):
        solo.act(lost.pk, player, play.parse_action({"push": entries(lost, False)[0], "version": ""}))
    game = solo.start_game(player, "easy", seed=seed_with_both())
    solo.act(game.pk, player, play.parse_action({"push": entries(game, True)[0], "version": ""}))
    return game


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_pages_have_no_axe_violations(browser, live_server, player, width, language):
    bank(6)
    audit = Audit(width, language)
    page = open_page(browser, live_server.url, player, SCHEMES[0], width, language)

    audit.check(page, "home (new player)", "/")
    audit.check(page, "leaderboards (empty)", "/leaderboards/")
    finished, paused, playing = solo_runs(player)
    cardoku = cardoku_games(player)
    domino = domino_games(player)

    audit.check(page, "home (runs and games in progress)", "/")
    audit.check(page, "Solo Run: playing", f"/solo/{playing.pk}/")
    page.locator('[role="gridcell"][data-cell="2"]').click()  # row 1, column 3: a selection and its highlights
    page.keyboard.press("n")  # notes mode on
    audit.check(page, "Solo Run: playing, cell selected, notes on")
    page.locator("[data-digit-first]").click()  # issue 27: digit first, a digit picked
    page.locator('.pad [data-digit="5"]').click()
    audit.check(page, "Solo Run: digit first, a digit picked")
    audit.check(page, "Solo Run: paused", f"/solo/{paused.pk}/")
    audit.check(page, "Solo Run: finished", f"/solo/{finished.pk}/")
    from games.sudoku import solo
    from replays.models import Track

    track = Track.objects.get(run=finished)  # recorded at its finish (issue 39)
    audit.check(page, "replay of a Solo Run", f"/replay/run/{finished.pk}/")
    page.get_by_role("button", name=re.compile("Step|Stap")).last.click()
    audit.check(page, "replay, one step in")
    ghost_run = solo.new_run(player, finished.puzzle, ghost=track)
    audit.check(page, "Solo Run racing a ghost", f"/solo/{ghost_run.pk}/")
    audit.check(page, "Cardoku: setup", "/cardoku/")
    page.locator('input[type="radio"][name="layout"][value="custom"]').check()
    audit.check(page, "Cardoku: setup, custom layout editor")
    audit.check(page, "Cardoku: play (both helpers on), the walkthrough's first step", f"/cardoku/{cardoku.pk}/")
    page.locator("[data-tour-next]").click()
    audit.check(page, "Cardoku: the walkthrough's second step")
    audit.check(page, "Sudoku Domino: home", "/domino/")
    audit.check(page, "Sudoku Domino: play", f"/domino/{domino.pk}/")
    if width < 400:  # a phone's touch screen: a tapped cell offers its line's entry points
        phone = open_page(browser, live_server.url, player, SCHEMES[0], width, language, touch=True)
        phone.goto(f"/domino/{domino.pk}/")
        phone.locator("[data-domino-board] [role=gridcell]").nth(40).tap()
        phone.locator("#dm-line-picker").wait_for()
        audit.check(phone, "Sudoku Domino: play, a phone's line picker")
        phone.context.close()
    page.keyboard.press("j")  # the gold joker: empty cells become buttons
    page.locator("[data-pick]").first.wait_for()
    audit.check(page, "Sudoku Domino: play, gold joker picked")
    audit.check(page, "leaderboards (records)", "/leaderboards/")
    audit.check(page, "How to Play", "/how-to-play/")
    audit.check(page, "profile", "/profile/")
    audit.check(page, "message page (unknown room)", "/r/ZZZZZZ/")
    audit.check(page, "404 page", "/no/such/page/")
    page.context.close()
    audit.assert_clean()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_room_pages_have_no_axe_violations(browser, daphne_server, width, language):
    from django.utils import timezone

    from games.engines import race
    from players.models import Profile
    from rooms import actions as A
    from rooms import api
    from tests.browser.conftest import act  # tries a moved room again

    bank(2)  # the race's puzzle and the countdown room's
    ada = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    linus = Profile.objects.create(display_name="Linus")
    room = api.create_room(ada, level="easy", preset="hardcore")
    act(room.code, grace, A.Join())
    audit = Audit(width, language)
    host = open_page(browser, daphne_server, ada, SCHEMES[0], width, language)
    guest = open_page(browser, daphne_server, grace, SCHEMES[0], width, language)
    watcher = open_page(browser, daphne_server, linus, SCHEMES[0], width, language)
    url = f"/r/{room.code}/"

    act(room.code, grace, A.SetReady(True))
    audit.check(host, "showdown lobby (host)", url, socket=True)
    host.locator(".share-qr summary").click()
    audit.check(host, "showdown lobby (host), the QR code open", socket=True)
    audit.check(guest, "showdown lobby (guest, ready)", url, socket=True)
    audit.check(watcher, "showdown lobby (spectator)", url, socket=True)
    act(room.code, ada, A.SetRules("easy", race.PRESETS["hardcore"]))  # Grace is told why to ready again
    audit.check(guest, "showdown lobby (guest, the host changed the rules)", url, socket=True)
    act(room.code, grace, A.SetReady(True))

    # The 3-2-1 countdown, in a room of its own that nobody plays on (it counts for a minute).
    counting = api.create_room(ada, level="easy", preset="standard")
    act(counting.code, grace, A.Join())
    act(counting.code, grace, A.SetReady(True))
    act(counting.code, ada, A.Start(), now=timezone.now() + timezone.timedelta(seconds=60))
    audit.check(guest, "showdown countdown (3, 2, 1)", f"/r/{counting.code}/", socket=True)

    started = act(room.code, ada, A.Start()).room
    act(room.code, ada, A.Sync(), now=started.starts_at + timezone.timedelta(seconds=1))
    for cell in EMPTY[:12]:
        act(room.code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))))
    act(room.code, grace, A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1)))
    audit.check(host, "showdown race (board + standings)", url, socket=True)
    audit.check(guest, "showdown race (after a mistake)", url, socket=True)
    audit.check(watcher, "spectator view", url, socket=True)
    guest.get_by_role("group", name=REACTIONS[language]).get_by_role("button", name="GG").click()
    host.locator("#toasts .toast").wait_for()
    audit.check(host, "showdown race (a reaction's toast)")

    for _ in range(2):  # Hardcore: the third mistake locks Grace's board
        act(room.code, grace, A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1)))
    audit.check(guest, "showdown race (eliminated)", url, socket=True)
    for cell in EMPTY[12:]:
        act(room.code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))))
    audit.check(host, "showdown finished", url, socket=True)
    audit.check(watcher, "spectator view (finished)", url, socket=True)
    audit.check(host, "leaderboards (showdown history)", "/leaderboards/")

    later = api.create_room(
        ada, level="hard", scheduled_for=timezone.now() + timezone.timedelta(hours=2), host_timezone="Europe/Paris"
    )
    audit.check(host, "showdown lobby (scheduled)", f"/r/{later.code}/", socket=True)
    act(later.code, ada, A.Expire("The host closed the room."))
    audit.check(host, "expired room", f"/r/{later.code}/")
    for page in (host, guest, watcher):
        page.context.close()
    audit.assert_clean()


def test_the_gate_finds_a_contrast_failure_of_one_scheme_alone(browser, live_server, player):
    """The second scheme runs the colour rules alone: a text unreadable only in the dark is
    still found, and only there; a sideways scroll is found (in the first scheme)."""
    audit = Audit(1100)
    page = open_page(browser, live_server.url, player, SCHEMES[0], 1100)
    page.goto("/how-to-play/")
    page.add_style_tag(content="@media (prefers-color-scheme: dark) { h1 { color: #333 !important; } }")
    audit.check(page, "planted")
    found = {(label, v["id"]) for label, v in audit.found}
    assert found == {("planted [dark]", "color-contrast")}, found
    page.add_style_tag(content="h1 { width: 3000px; }")
    audit.check(page, "wide")
    assert ("wide [light]", "reflow") in {(label, v["id"]) for label, v in audit.found}
    page.context.close()
