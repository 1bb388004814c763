"""Follows, friendships, blocks and their limits (docs/rules.md 11)."""

import pytest

from friends import graph
from friends.models import Block, Follow, Notification
from tests.friends.people import befriend, browser_of, member

pytestmark = pytest.mark.django_db


def test_a_mutual_follow_is_a_friendship_and_unfollow_ends_it():
    ana, bo = member("Ana"), member("Bo")
    assert graph.follow(ana.account_id, bo.account_id) is False  # one way: not yet friends
    assert graph.friend_ids(ana.account_id) == []
    assert Notification.objects.filter(account=bo.account, kind="follow", actor=ana.account).count() == 1
    assert graph.follow(bo.account_id, ana.account_id) is True
    assert graph.friend_ids(ana.account_id) == [bo.account_id]
    assert graph.friend_ids(bo.account_id) == [ana.account_id]
    graph.follow(ana.account_id, bo.account_id)  # again: nothing changes, no second notification
    assert Follow.objects.count() == 2 and Notification.objects.filter(account=bo.account).count() == 1
    graph.unfollow(ana.account_id, bo.account_id)
    assert graph.friend_ids(bo.account_id) == []


def test_following_yourself_is_refused():
    ana = member("Ana")
    response = browser_of(ana).post(f"/friends/follow/{ana.account_id}/")
    assert response.status_code == 400 and "cannot follow yourself" in response.content.decode()
    assert not Follow.objects.exists()


def test_a_blocked_player_cannot_follow_and_the_block_ends_both_follows():
    ana, bo = member("Ana"), member("Bo")
    befriend(ana, bo)
    browser_of(ana).post(f"/friends/block/{bo.account_id}/")
    assert Block.objects.filter(blocker=ana.account, blocked=bo.account).exists()
    assert not Follow.objects.exists()
    response = browser_of(bo).post(f"/friends/follow/{ana.account_id}/")
    assert response.status_code == 400 and "cannot follow this player" in response.content.decode()
    assert not Follow.objects.exists()
    # nor can the blocked player find or see the blocker's profile
    assert browser_of(bo).get("/u/ana/").status_code == 404
    assert browser_of(bo).get("/friends/find/?q=ana").status_code == 404


def test_at_most_the_follow_limit(settings):
    settings.FOLLOW_MAX = 3
    ana = member("Ana")
    others = [member(f"P{i}", f"p{i}x") for i in range(4)]
    for other in others[:3]:
        graph.follow(ana.account_id, other.account_id)
    response = browser_of(ana).post(f"/friends/follow/{others[3].account_id}/")
    assert response.status_code == 400 and "the most there can be" in response.content.decode()
    assert Follow.objects.filter(follower=ana.account).count() == 3


def test_a_flood_of_follows_is_limited(settings):
    settings.CREATION_LIMITS = {**settings.CREATION_LIMITS, "follow": (5, 100)}
    ana, bo = member("Ana"), member("Bo")
    client = browser_of(ana)
    codes = [
        client.post(f"/friends/{'follow' if i % 2 == 0 else 'unfollow'}/{bo.account_id}/").status_code for i in range(7)
    ]
    assert codes[:5] == [302] * 5 and codes[5:] == [429, 429]


def test_following_an_unknown_account_is_a_404_and_anonymous_players_are_sent_to_sign_in(client):
    ana = member("Ana")
    assert browser_of(ana).post("/friends/follow/99999/").status_code == 404
    response = client.post(f"/friends/follow/{ana.account_id}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Follow.objects.exists()


def test_a_profile_shows_nothing_private():
    ana = member("Ana")
    page = browser_of(member("Bo")).get("/u/ANA/")
    text = page.content.decode()
    assert page.status_code == 200 and "@ana" in text and "Ana" in text
    assert "ana@example.com" not in text and ana.token not in text


def test_my_own_profile_offers_its_address_as_a_link_and_a_qr_code():
    member("Ana")
    page = browser_of(member("Ana2", "ana_two")).get("/u/ana_two/").content.decode()
    assert "data-profile-url" in page and "http://testserver/u/ana_two/" in page
    assert 'aria-label="QR code of your profile&#x27;s address"' in page or "QR code of your profile" in page
    other = browser_of(member("Bo")).get("/u/ana_two/").content.decode()
    assert "data-profile-url" not in other  # only on one's own


def test_an_unfindable_player_is_not_found_by_handle_but_keeps_their_profile():
    ana = member("Ana")
    ana.account.member.findable = False
    ana.account.member.save()
    assert browser_of(member("Bo")).get("/friends/find/?q=ana").status_code == 404
    assert browser_of(member("Cy")).get("/u/ana/").status_code == 200
