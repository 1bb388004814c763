"""At an arena's end each player's rooms in order (points, place, fire, berserk) and the podium;
before a private arena's start its guest list and reminders (docs/rules.md 12), sent through
notify's channels, each once."""

import datetime as dt

import pytest
from django.utils import timezone

from arenas import reminders, service
from arenas.models import Arena, Entry
from arenas.table import table
from games.sudoku.play import Enter
from notify import webpush
from notify.models import PushSubscription
from rooms import actions as A
from rooms.api import act
from rooms.models import Room
from tests.conftest import EMPTY, SOLUTION
from tests.friends.people import browser_of, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def rematch_arena(settings, make_arena):
    settings.ARENA_REMATCH_SECONDS = 0  # the same two race again at once: nobody else waits
    return make_arena(puzzles=4)


def race_room(arena, winner, loser):
    """A room of the two: `winner` solves it, `loser` is still solving when it ends."""
    (code,) = service.tick(arena, force=True)
    room = Room.objects.get(code=code)
    at = room.starts_at + dt.timedelta(seconds=5)
    for cell in EMPTY:
        act(code, winner, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)
    act(code, loser, A.Sync(), now=at + dt.timedelta(seconds=61))
    assert Room.objects.get(code=code).state == "finished"
    service.score_finished(arena, timezone.now())
    return code


def test_the_finished_page_shows_each_players_rooms_in_order_and_the_podium(rematch_arena):
    ana, bo = member("Ana"), member("Bo")
    for p in (ana, bo):
        service.join(rematch_arena, p)
    service.set_berserk(rematch_arena, ana, True)
    codes = [race_room(rematch_arena, ana, bo) for _ in range(3)]
    Arena.objects.filter(pk=rematch_arena.pk).update(ends_at=timezone.now() - dt.timedelta(seconds=1))
    mine = Entry.objects.get(account=ana.account)
    # 1 + berserk 1, then 1 (two firsts in a row: on fire), then 1 x 2
    assert [r["points"] for r in mine.history] == [2, 1, 2] and mine.points == 5
    assert [(r["room"], r["place"], r["size"], r["fire"], r["berserk"]) for r in mine.history] == [
        (codes[0], 1, 2, False, True),
        (codes[1], 1, 2, False, False),
        (codes[2], 1, 2, True, False),
    ]
    page = browser_of(ana).get(f"/arena/{rematch_arena.code}/").content.decode()
    history = page[page.index("data-arena-history") : page.index('id="arena-table"')]
    assert "Your rooms" in history and history.count("data-history-room") == 3
    assert [history.index(f"/r/{code}/") for code in codes] == sorted(history.index(f"/r/{c}/") for c in codes)
    assert history.count("×2") == 1 and history.count(">B</abbr>") == 1 and "2 pts" in history and "1 of 2" in history
    assert "podium-steps" in page and f"?player={mine.pk}#history" in page  # names lead to their rooms
    bos = Entry.objects.get(account=bo.account)
    other = browser_of(ana).get(f"/arena/{rematch_arena.code}/?player={bos.pk}").content.decode()
    shown = other[other.index("data-arena-history") : other.index('id="arena-table"')]
    assert "Bo's rooms" in shown and shown.count("2 of 2") == 3, shown
    for bad in ("x", "99999", "１"):  # not an entry of this arena: the viewer's own
        assert "Your rooms" in browser_of(ana).get(f"/arena/{rematch_arena.code}/?player={bad}").content.decode()


def test_the_table_is_ranked_once_per_change(rematch_arena, django_assert_num_queries):
    ana, bo = member("Ana"), member("Bo")
    service.join(rematch_arena, ana)
    rematch_arena.refresh_from_db()
    table(rematch_arena, ana.account_id)
    with django_assert_num_queries(0):  # another page's render of the same table
        top, _ = table(rematch_arena, bo.account_id)
    assert [r.name for r in top] == ["Ana"] and not top[0].mine
    service.join(rematch_arena, bo)  # a change: ranked again
    rematch_arena.refresh_from_db()
    top, _ = table(rematch_arena, bo.account_id)
    assert [r.name for r in top] == ["Ana", "Bo"] and top[1].mine


@pytest.fixture
def upcoming():
    start = timezone.now() + dt.timedelta(hours=2)
    host = member("Host")
    return service.create_private(host, "easy", "standard", start, 30), host


def test_a_private_arenas_guest_list_before_its_start(upcoming):
    arena, _host = upcoming
    ana, bo = member("Ana"), member("Bo")
    for p in (ana, bo):
        assert browser_of(p).post(f"/arena/{arena.code}/join/", {"zone": "Europe/Amsterdam"}).status_code == 302
    page = browser_of(ana).get(f"/arena/{arena.code}/").content.decode()
    assert "2 coming" in page and ">Ana<" in page and ">Bo<" in page and "Not coming" in page
    assert Entry.objects.get(account=ana.account).time_zone == "Europe/Amsterdam"
    browser_of(bo).post(f"/arena/{arena.code}/pause/")  # Not coming: off the list
    page = browser_of(ana).get(f"/arena/{arena.code}/").content.decode()
    assert "1 coming" in page and ">Bo<" not in page
    assert browser_of(bo).post(f"/arena/{arena.code}/join/").status_code == 302  # and back on it


def test_reminders_are_picked_refused_when_they_cannot_be_and_sent_once(upcoming, mailoutbox, monkeypatch):
    arena, _host = upcoming
    ana, cy = member("Ana"), member("Cy")
    service.join(arena, ana, language="nl")
    client = browser_of(ana)
    assert client.post(f"/arena/{arena.code}/remind/", {"channel": "email", "on": "1"}).status_code == 302
    assert client.post(f"/arena/{arena.code}/remind/", {"channel": "push", "on": "1"}).status_code == 302
    refused = client.post(f"/arena/{arena.code}/remind/", {"channel": "sms", "on": "1"})
    assert refused.status_code == 400 and "push or email" in refused.content.decode()
    refused = browser_of(cy).post(f"/arena/{arena.code}/remind/", {"channel": "email", "on": "1"})
    assert refused.status_code == 400 and "join it first" in refused.content.decode()
    nobody = member("Di")
    nobody.account.email = ""
    nobody.account.save()
    service.join(arena, nobody)
    refused = browser_of(nobody).post(f"/arena/{arena.code}/remind/", {"channel": "email", "on": "1"})
    assert refused.status_code == 400 and "email address" in refused.content.decode()
    page = client.get(f"/arena/{arena.code}/").content.decode()
    assert "Email reminders to ana@example.com: on." in page and "data-push-subscribe" in page

    pushed = []
    monkeypatch.setattr(webpush, "send", lambda sub, text: pushed.append(text) or "sent")
    PushSubscription.objects.create(player=ana, endpoint="https://push.example.com/x", p256dh="k", auth="a")
    start = arena.starts_at
    assert reminders.send_all(start - dt.timedelta(hours=1)) == 0  # not yet
    assert reminders.send_all(start - dt.timedelta(minutes=10)) == 2  # push and email
    assert reminders.send_all(start - dt.timedelta(minutes=9)) == 0  # once
    assert f"/arena/{arena.code}/" in mailoutbox[0].body and pushed[0]["tag"] == f"arena-{arena.code}"
    assert reminders.send_all(start + dt.timedelta(minutes=1)) == 2  # it started
    assert reminders.send_all(start + dt.timedelta(minutes=2)) == 0
    assert len(mailoutbox) == 2 and len(pushed) == 2
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - dt.timedelta(minutes=1))
    refused = client.post(f"/arena/{arena.code}/remind/", {"channel": "email", "on": "0"})
    assert refused.status_code == 400 and "started" in refused.content.decode()


def test_a_reminder_due_late_is_skipped_for_the_start_one(upcoming, mailoutbox):
    arena, _host = upcoming
    ana = member("Ana")
    entry = service.join(arena, ana)
    Entry.objects.filter(pk=entry.pk).update(by_email=True)
    assert reminders.send_all(arena.starts_at + dt.timedelta(minutes=3)) == 1  # only "it has started"
    assert reminders.send_all(arena.starts_at - dt.timedelta(minutes=5)) == 0  # a late beat: nothing older
    assert len(mailoutbox) == 1 and "started" in mailoutbox[0].subject
