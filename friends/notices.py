"""In-site notifications (docs/rules.md 11): invites, nudges and new followers. Each is a row
(the bell's unread count), pushed at once to the player's open pages, and for invites and
nudges also sent by Web Push and email where the player chose those (off the request, a
Celery task)."""

import logging

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .models import Member, Notification

logger = logging.getLogger(__name__)


def notify(account_id: int, kind: str, actor_id: int, room_code: str = "") -> Notification:
    from .presence import group

    notification = Notification.objects.create(
        account_id=account_id, kind=kind, actor_id=actor_id, room_code=room_code, created_at=timezone.now()
    )
    forget_unread(account_id)

    def push():
        forget_unread(account_id)  # again: a count read before the commit saw the row missing
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group(account_id), {"type": "me.notified", "id": notification.pk})
        if kind != Notification.Kind.FOLLOW:
            deliver.delay(notification.pk)

    transaction.on_commit(push, robust=True)
    return notification


def _unread_key(account_id: int) -> str:
    return f"friends:unread:{account_id}"


def unread(account_id: int) -> int:
    """The bell's count, cached (every page of a signed-in player shows it): dropped by each
    new notification and each read (forget_unread), so it is never stale."""
    count = cache.get_or_set(
        _unread_key(account_id),
        lambda: Notification.objects.filter(account_id=account_id, read_at__isnull=True).count(),
        3600,
    )
    return int(count or 0)


def forget_unread(account_id: int) -> None:
    cache.delete(_unread_key(account_id))


def text(notification: Notification, actor_name: str) -> dict:
    """The notification's title, body and link, in the active language."""
    if notification.kind == Notification.Kind.INVITE:
        return {
            "title": _("%(name)s invites you to a race") % {"name": actor_name},
            "body": _("Room %(code)s: accept to join.") % {"code": notification.room_code},
            "url": reverse("friends_accept", args=[notification.pk]),
        }
    if notification.kind == Notification.Kind.NUDGE:
        return {
            "title": _("%(name)s nudges you") % {"name": actor_name},
            "body": _("Today's daily is waiting: keep your friend streak going."),
            "url": reverse("daily"),
        }
    return {
        "title": _("%(name)s follows you") % {"name": actor_name},
        "body": _("Follow back to be friends."),
        "url": reverse("friends"),
    }


@shared_task
def deliver(notification_id: int) -> list[str]:
    """Web Push to each of the player's browsers, and email, as the player chose. Never raises
    for one failed channel."""
    from notify import webpush
    from notify.models import PushSubscription

    from .graph import people

    notification = Notification.objects.filter(pk=notification_id).select_related("account").first()
    if notification is None or notification.read_at is not None:
        return []
    member = Member.objects.filter(account_id=notification.account_id).first()
    if member is None:
        return []
    actor = people([notification.actor_id])[notification.actor_id]
    with translation.override(settings.LANGUAGE_CODE):
        message = text(notification, actor.name)
    message["tag"] = f"friends-{notification.pk}"
    results = []
    if member.notify_push:
        for subscription in PushSubscription.objects.filter(player__account_id=notification.account_id):
            results.append(webpush.send(subscription, message))
    address = notification.account.email
    if member.notify_email and address:
        link = f"{(settings.SITE_URL or '').rstrip('/')}{message['url']}"
        try:
            send_mail(message["title"], f"{message['body']}\n\n{link}\n", settings.DEFAULT_FROM_EMAIL, [address])
            results.append("emailed")
        except OSError as error:  # smtplib's errors are OSErrors
            logger.warning("notification email %s failed: %s", notification.pk, error)
            results.append("email failed")
    return results
