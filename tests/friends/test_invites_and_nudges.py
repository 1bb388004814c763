"""Invites to a lobby, nudges and notifications (docs/rules.md 11): who may, how often, and what
reaches the friend (the bell's row, and a Web Push or an email as they chose)."""

import pytest

from friends import notices
from friends.models import Member, Notification, Nudge
from rooms import actions as A
from rooms.api import act, create_room
from tests.accounts.conftest import smtp  # noqa: F401  (a real SMTP server)
from tests.friends.people import befriend, browser_of, member
from tests.notify.conftest import push_peer  # noqa: F401  (a real Web Push peer)

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(bank_puzzle):
    ana, bo = member("Ana"), member("Bo")
    befriend(ana, bo)
    return ana, bo


def test_a_friend_is_invited_to_my_lobby_and_accepting_opens_it(friends):
    ana, bo = friends
    room = create_room(ana, "showdown", "easy", "standard")
    response = browser_of(ana).post(f"/friends/invite/{bo.account_id}/", {"room": room.code})
    assert response.status_code == 302
    invite = Notification.objects.get(account=bo.account, kind="invite")
    assert invite.room_code == room.code and invite.actor == ana.account
    client = browser_of(bo)
    assert notices.unread(bo.account_id) == 1
    page = client.get("/notifications/").content.decode()
    assert "Ana invites you to a race" in page and f"Room {room.code}" in page
    accepted = client.get(f"/notifications/{invite.pk}/accept/")
    assert accepted.status_code == 302 and accepted["Location"] == f"/r/{room.code}/"
    assert notices.unread(bo.account_id) == 0
    # another player cannot accept Bo's invite
    assert browser_of(member("Cy")).get(f"/notifications/{invite.pk}/accept/").status_code == 404


def test_invites_are_refused_outside_a_lobby_i_sit_in_or_to_a_non_friend(friends):
    ana, bo = friends
    cy = member("Cy")
    theirs = create_room(cy, "showdown", "easy", "standard")
    client = browser_of(ana)
    refused = client.post(f"/friends/invite/{bo.account_id}/", {"room": theirs.code})
    assert refused.status_code == 403 and "a room you are in" in refused.content.decode()
    assert client.post(f"/friends/invite/{bo.account_id}/", {"room": "ZZZZZZ"}).status_code == 404
    mine = create_room(ana, "showdown", "easy", "standard")
    refused = client.post(f"/friends/invite/{cy.account_id}/", {"room": mine.code})
    assert refused.status_code == 403 and "friends only" in refused.content.decode()
    act(mine.code, cy, A.Join())
    for p in (ana, cy):
        act(mine.code, p, A.SetReady(True))
    act(mine.code, ana, A.Start())
    refused = client.post(f"/friends/invite/{bo.account_id}/", {"room": mine.code})
    assert refused.status_code == 400 and "only a lobby" in refused.content.decode()
    assert not Notification.objects.filter(kind="invite").exists()


def test_a_player_who_blocked_me_gets_no_invite(friends):
    ana, bo = friends
    room = create_room(ana, "showdown", "easy", "standard")
    browser_of(bo).post(f"/friends/block/{ana.account_id}/")
    assert browser_of(ana).post(f"/friends/invite/{bo.account_id}/", {"room": room.code}).status_code == 403
    assert not Notification.objects.filter(account=bo.account, kind="invite").exists()


def test_a_nudge_once_a_day_per_friend(friends):
    ana, bo = friends
    client = browser_of(ana)
    assert client.post(f"/friends/nudge/{bo.account_id}/").status_code == 302
    again = client.post(f"/friends/nudge/{bo.account_id}/")
    assert again.status_code == 429 and "once a day" in again.content.decode()
    assert Nudge.objects.count() == 1
    assert Notification.objects.filter(account=bo.account, kind="nudge").count() == 1
    # a stranger cannot nudge
    assert browser_of(member("Cy")).post(f"/friends/nudge/{bo.account_id}/").status_code == 403


def test_an_invite_goes_by_email_to_a_friend_who_chose_it(friends, smtp):  # noqa: F811
    ana, bo = friends
    Member.objects.filter(account=bo.account).update(notify_email=True, notify_push=False)
    room = create_room(ana, "showdown", "easy", "standard")
    note = notices.notify(bo.account_id, "invite", ana.account_id, room.code)
    assert notices.deliver(note.pk) == ["emailed"]
    (message,) = smtp.to("bo@example.com")
    assert message["Subject"] == "Ana invites you to a race"
    assert f"/notifications/{note.pk}/accept/" in message.get_payload(decode=True).decode()
    Member.objects.filter(account=bo.account).update(notify_email=False)
    assert notices.deliver(note.pk) == []  # nothing chosen: nothing sent
    assert len(smtp.messages) == 1


def test_a_nudge_goes_by_web_push_to_each_browser_of_the_friend(friends, push_peer):  # noqa: F811
    ana, bo = friends
    browser = push_peer.browser()
    browser.subscription(bo)
    note = notices.notify(bo.account_id, "nudge", ana.account_id)
    assert notices.deliver(note.pk) == ["sent"]  # push is on by default, email off
    (got,) = browser.received
    assert got["payload"]["title"] == "Ana nudges you" and got["payload"]["url"] == "/daily/"


def test_the_choices_are_saved():
    ana = member("Ana")
    response = browser_of(ana).post("/friends/choices/", {"notify_email": "on"})
    assert response.status_code == 302
    chosen = Member.objects.get(account=ana.account)
    assert (chosen.findable, chosen.notify_push, chosen.notify_email) == (False, False, True)
