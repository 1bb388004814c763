"""Signed-in players with handles, and their browsers, for the friends and leagues tests."""

from friends.models import Follow, Member
from tests.conftest import client_for
from tests.stats.rated_rooms import signed_in


def member(name: str, handle: str | None = None):
    profile = signed_in(name)
    assert profile.account is not None
    Member.objects.create(account=profile.account, handle=handle or name.lower())
    return profile


def browser_of(profile):
    client = client_for(profile)
    client.force_login(profile.account)
    return client


def befriend(a, b) -> None:
    Follow.objects.create(follower=a.account, followee=b.account)
    Follow.objects.create(follower=b.account, followee=a.account)
