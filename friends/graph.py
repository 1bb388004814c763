"""Who follows whom (docs/rules.md 11): a mutual follow is a friendship. Every follow, unfollow,
block and unblock goes through here, and every "who are my friends" reads here."""

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Profile

from .models import Block, Follow, Member, Notification


class Refused(Exception):
    """A friends action that changes nothing; its message is for the player."""


@dataclass(frozen=True)
class Person:
    account_id: int
    name: str
    handle: str  # "" for an account that has not chosen one yet


def friend_ids(account_id: int) -> list[int]:
    """The accounts that follow `account_id` and that it follows, in one query over the two
    indexes of Follow (follower, followee) and (followee, follower)."""
    followers = Follow.objects.filter(followee_id=account_id).values("follower_id")
    return list(
        Follow.objects.filter(follower_id=account_id, followee_id__in=followers).values_list("followee_id", flat=True)
    )


def circle(account_id: int, field: str) -> Q:
    """A filter on an account field (`field`) matching the account and its friends: a Friends
    tab's rows, in the board's own query (the friendship a subquery of it)."""
    from django.contrib.auth import get_user_model

    followers = Follow.objects.filter(followee_id=account_id).values("follower_id")
    friends = Follow.objects.filter(follower_id=account_id, followee_id__in=followers).values("followee_id")
    me = get_user_model().objects.filter(pk=account_id).values("pk")
    # One IN over the union, not "= me OR IN (friends)": PostgreSQL found no index for the OR
    # and scanned every finish of the daily (bench/friends.py: 58 ms, now under 1 ms).
    return Q(**{f"{field}__in": friends.union(me, all=True)})


def handles_of(account_ids) -> dict[int, str]:
    """Each account's handle, for linking names on a board to profiles (one query)."""
    ids = {i for i in account_ids if i is not None}
    return dict(Member.objects.filter(account_id__in=ids).values_list("account_id", "handle")) if ids else {}


def is_friend(a: int, b: int) -> bool:
    return Follow.objects.filter(Q(follower_id=a, followee_id=b) | Q(follower_id=b, followee_id=a)).count() == 2


def follows(a: int, b: int) -> bool:
    return Follow.objects.filter(follower_id=a, followee_id=b).exists()


def blocked_between(a: int, b: int) -> bool:
    return Block.objects.filter(Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)).exists()


def people(account_ids) -> dict[int, Person]:
    """Each account's display name (its most recently seen profile's) and handle, in two queries."""
    ids = list(account_ids)
    handles = dict(Member.objects.filter(account_id__in=ids).values_list("account_id", "handle"))
    names: dict[int, str] = {}
    for account_id, name in (
        Profile.objects.filter(account_id__in=ids)
        .order_by("account_id", "-last_seen")
        .values_list("account_id", "display_name")
    ):
        names.setdefault(account_id, name)
    return {i: Person(i, names.get(i, "?"), handles.get(i, "")) for i in ids}


def follow(me: int, other: int) -> bool:
    """Follow `other`; True when that made a friendship. A follow tells the other player (a
    notification) so that they can follow back."""
    if me == other:
        raise Refused(_("You cannot follow yourself."))
    if blocked_between(me, other):
        raise Refused(_("You cannot follow this player."))
    if Follow.objects.filter(follower_id=me).count() >= settings.FOLLOW_MAX:
        raise Refused(
            _("You follow %(n)s players, the most there can be: unfollow someone first.") % {"n": settings.FOLLOW_MAX}
        )
    try:
        with transaction.atomic():
            Follow.objects.create(follower_id=me, followee_id=other)
    except IntegrityError:  # following already (or the account is gone): nothing changes
        return is_friend(me, other)
    from .notices import notify

    notify(other, Notification.Kind.FOLLOW, me)
    return is_friend(me, other)


def unfollow(me: int, other: int) -> None:
    Follow.objects.filter(follower_id=me, followee_id=other).delete()


def block(me: int, other: int) -> None:
    """A blocked player follows, invites and sees nothing of `me` any more: both follows end,
    and what they sent that is unread is gone."""
    if me == other:
        raise Refused(_("You cannot block yourself."))
    with transaction.atomic():
        Block.objects.get_or_create(blocker_id=me, blocked_id=other)
        Follow.objects.filter(Q(follower_id=me, followee_id=other) | Q(follower_id=other, followee_id=me)).delete()
        Notification.objects.filter(account_id=me, actor_id=other, read_at__isnull=True).update(read_at=timezone.now())
    from .notices import forget_unread

    forget_unread(me)


def unblock(me: int, other: int) -> None:
    Block.objects.filter(blocker_id=me, blocked_id=other).delete()


def find(handle_text: str, viewer: int | None) -> Member | None:
    """The findable member whose handle `handle_text` folds to (never one who blocked the viewer)."""
    from .handles import fold

    member = Member.objects.filter(handle=fold(handle_text), findable=True).first()
    if member is None or (viewer is not None and blocked_between(viewer, member.account_id)):
        return None
    return member
