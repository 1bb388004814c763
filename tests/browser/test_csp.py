"""Content-Security-Policy in a real browser (issue 12, section 7): every page is served with
the policy and runs without a single violation (no inline script, no eval, no style element
inserted by htmx), including htmx swaps, live room pushes and the games' own scripts. Our
scripts also leave no globals behind (each is an IIFE): only the vendored ones."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import new_page, off_thread
from tests.browser.puzzle import EMPTY, SOLUTION
from tests.browser.test_accessibility import bank, cardoku_games, domino_games, solo_runs

WATCH = """
window.__globals = Object.getOwnPropertyNames(window);
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} `
  + `at ${e.sourceFile || '?'}:${e.lineNumber} ${e.sample || ''}`));
// The room socket's messages swapped in so far (a room page's first is the full state).
document.addEventListener('htmx:wsAfterMessage', () => {
  const html = document.documentElement;
  html.dataset.watchPushes = String(Number(html.dataset.watchPushes || 0) + 1);
});
"""


# This watch's, the vendored htmx's, and django-htmx's debug helper (a sloppy-mode block
# function: only when DEBUG is on, as in the live test server).
OWN_GLOBALS = {"__globals", "__csp", "htmx", "showErrorResponse"}


class Watch:
    """Collects violations (the page's securitypolicyviolation events and Chromium's console)."""

    def __init__(self, page):
        self.page, self.found, self.pages = page, [], 0
        page.context.add_init_script(WATCH)
        page.on("console", lambda m: "Content Security Policy" in m.text and self.found.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.found.append(f"page error: {e}"))

    def visit(self, label, url=None, ready=None, ours=True):
        """`ours`: the page runs only our scripts (and the vendored htmx), not Django admin's."""
        if url is not None:
            response = self.page.goto(url)
            policy = response.headers.get("content-security-policy", "")
            assert "script-src 'self'" in policy, f"{label}: no Content-Security-Policy ({url})"
            self.pages += 1
        # At the load event the deferred scripts have run and htmx has started (no page has
        # a request of its own on load); a room page's socket then brings the full state.
        self.page.wait_for_load_state("load")
        if ready:
            self.page.wait_for_selector(ready, timeout=15_000)
        if self.page.locator("[ws-connect]").count():
            expect(self.page.locator("html")).to_have_attribute("data-watch-pushes", re.compile(r"^[1-9]"))
        # A violation's event is a task queued as it happens: one turn of the page's event loop.
        self.page.evaluate("() => new Promise(resolve => setTimeout(resolve))")
        self.found += [f"{label}: {v}" for v in self.page.evaluate("window.__csp.splice(0)")]
        styles = self.page.evaluate("document.querySelectorAll('style').length")
        if styles:
            self.found.append(f"{label}: {styles} style element(s) in the page")
        leaked = self.page.evaluate("Object.getOwnPropertyNames(window).filter(n => !__globals.includes(n))")
        leaked = sorted(set(leaked) - OWN_GLOBALS)
        if leaked and ours:
            self.found.append(f"{label}: scripts left globals behind: {', '.join(leaked)}")

    def assert_clean(self):
        assert self.pages
        assert not self.found, "\n".join(self.found)


def test_pages_and_their_scripts_raise_no_csp_violation(browser, live_server, player):
    bank(6)
    page = new_page(browser, live_server.url, player, csp=True)
    watch = Watch(page)
    newcomer = new_page(browser, live_server.url, csp=True)  # no cookie: the guest view
    fresh = Watch(newcomer)
    fresh.visit("home (no cookie)", "/")
    fresh.visit("how to play (no cookie)", "/how-to-play/")

    watch.visit("home (new player)", "/")
    finished, paused, playing = solo_runs(player)
    cardoku = cardoku_games(player)
    domino = domino_games(player)
    watch.visit("home (games in progress)", "/")
    watch.visit("Solo Run", f"/solo/{playing.pk}/")
    cell = next(c for c in EMPTY[12:] if SOLUTION[c] != "1")
    name = f"Row {cell // 9 + 1}, column {cell % 9 + 1}"
    page.get_by_role("gridcell", name=name).click()
    page.keyboard.press(SOLUTION[cell])  # an htmx post and swap
    page.get_by_role("gridcell", name=f"{name}, {SOLUTION[cell]}", exact=True).wait_for()
    page.keyboard.press("n")
    watch.visit("Solo Run after an entry (htmx swap)")
    watch.visit("Solo Run paused", f"/solo/{paused.pk}/")
    watch.visit("Solo Run finished", f"/solo/{finished.pk}/")
    watch.visit("Cardoku setup", "/cardoku/")
    page.get_by_role("radio", name=re.compile("Custom")).check()
    watch.visit("Cardoku custom layout editor")
    watch.visit("Cardoku play", f"/cardoku/{cardoku.pk}/")
    toggle = page.locator("[data-toggle=moves]")
    expect(toggle).to_have_attribute("aria-checked", "true")  # cardoku_games turned it on
    toggle.click()  # an htmx post and swap
    expect(toggle).to_have_attribute("aria-checked", "false")
    watch.visit("Cardoku after a toggle")
    watch.visit("Domino home", "/domino/")
    watch.visit("Domino play", f"/domino/{domino.pk}/")
    version = int(page.locator("#game").get_attribute("data-version"))
    page.locator("#game [data-marker]").first.click()  # a sliding stone: per-cell CSS variables
    expect(page.locator("#game")).to_have_attribute("data-version", str(version + 1))
    watch.visit("Domino after a push")
    watch.visit("leaderboards", "/leaderboards/")
    watch.visit("How to Play", "/how-to-play/")
    watch.visit("profile", "/profile/")
    page.get_by_label("Display name").fill("Ada L")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".banner", has_text="Saved.")).to_be_visible()
    watch.visit("profile saved")
    watch.visit("unknown room", "/r/ZZZZZZ/")
    watch.visit("admin login", "/admin/login/", ours=False)
    for w in (watch, fresh):
        w.page.context.close()
        w.assert_clean()


def test_room_pages_and_live_pushes_raise_no_csp_violation(browser, daphne_server):
    from django.utils import timezone

    from players.models import Profile
    from rooms import actions as A
    from rooms import api

    def act(*args, **kwargs):
        return off_thread(api.act, *args, **kwargs)

    bank(3)
    ada = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    host, guest = new_page(browser, daphne_server, ada, csp=True), new_page(browser, daphne_server, grace, csp=True)
    watches = [Watch(host), Watch(guest)]
    for game in ("showdown", "domino", "cardoku"):
        room = api.create_room(ada, game=game, level="easy")
        act(room.code, grace, A.Join())
        url = f"/r/{room.code}/"
        watches[0].visit(f"{game} lobby (host)", url, ready="#room-body[data-state=lobby]")
        watches[1].visit(f"{game} lobby (guest)", url, ready="#room-body[data-state=lobby]")
        guest.get_by_role("button", name="I'm ready").click()  # an htmx post, pushed to both
        host.locator(".player.is-ready", has_text="Grace").wait_for()
        act(room.code, ada, A.SetReady(True))
        started = act(room.code, ada, A.Start()).room
        act(room.code, ada, A.Sync(), now=started.starts_at + timezone.timedelta(seconds=1))
        for label, watch in (("host", watches[0]), ("guest", watches[1])):
            watch.visit(f"{game} playing ({label})", url, ready="#room-body[data-state=playing]")
        if game != "cardoku":  # a move over the host's socket; Grace gets the standings push
            standings = guest.locator("#standings")
            seen = standings.get_attribute("data-version")  # the room's version
            if game == "showdown":
                cell = EMPTY[0]
                name = f"Row {cell // 9 + 1}, column {cell % 9 + 1}"
                host.get_by_role("gridcell", name=name).click()
                host.keyboard.press(SOLUTION[cell])
                host.get_by_role("gridcell", name=f"{name}, {SOLUTION[cell]}", exact=True).wait_for()
            else:
                version = int(host.locator("#game").get_attribute("data-version"))
                host.locator("#game [data-marker]").first.click()
                expect(host.locator("#game")).to_have_attribute("data-version", str(version + 1))
            expect(standings).not_to_have_attribute("data-version", seen)
        for label, watch in (("host", watches[0]), ("guest", watches[1])):
            watch.visit(f"{game} after a move ({label})")
    for watch in watches:
        watch.page.context.close()
        watch.assert_clean()
