"""A browser's push subscription, checked and saved (issue 45). The endpoint must be a public
push service (endpoints.py); the keys what PushManager makes (p256dh an uncompressed P-256
point, auth 16 bytes: anything else crashed the reminder job's encryption); an endpoint stays
with the profile that saved it (another browser posting it cannot take the reminders over);
a profile keeps at most MAX_PER_PLAYER, a new one replacing the oldest."""

import base64
import binascii
import re

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction
from django.utils.translation import gettext as _

from players.models import Profile

from .endpoints import Refused, check
from .models import PushSubscription

MAX_PER_PLAYER = 5  # browsers of one profile: phone, laptop, a few more; not an unbounded list
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class Taken(Refused):
    """The endpoint is another profile's."""


def b64url(text: str) -> bytes | None:
    """The bytes of base64url text (padded or not), None if it is not strictly that."""
    if not BASE64URL.fullmatch(text):
        return None
    bare = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except binascii.Error:  # a length no encoding has (4n + 1 characters)
        return None


def check_keys(p256dh: str, auth: str) -> None:
    """Refused unless p256dh is an uncompressed point on P-256 and auth is 16 bytes (RFC 8291)."""
    point = b64url(p256dh)
    if point is None or len(point) != 65 or point[0] != 0x04:
        raise Refused(_("The browser's push key is not a valid P-256 public key."))
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:  # not on the curve
        raise Refused(_("The browser's push key is not a valid P-256 public key.")) from None
    secret = b64url(auth)
    if secret is None or len(secret) != 16:
        raise Refused(_("The browser's push secret must be 16 bytes."))


def check_subscription(endpoint: str, p256dh: str, auth: str) -> None:
    """Everything about a subscription that needs no profile (a DNS lookup: outside transactions)."""
    check_keys(p256dh, auth)
    check(endpoint)


def save(player: Profile, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Store a checked subscription for `player`: new keys for their own endpoint, Taken for
    another profile's, and the oldest dropped past MAX_PER_PLAYER."""
    with transaction.atomic():
        # One subscribe per profile at a time, so two at once cannot both skip the trim.
        Profile.objects.select_for_update().filter(pk=player.pk).first()
        subscription, created = PushSubscription.objects.get_or_create(
            endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth}
        )
        if subscription.player_id != player.pk:
            raise Taken(
                _(
                    "This browser's push subscription belongs to another player here. Turn notifications off in "
                    "this browser's site settings and on again to get a new one."
                )
            )
        if not created:
            subscription.p256dh, subscription.auth, subscription.failures = p256dh, auth, 0
            subscription.save(update_fields=["p256dh", "auth", "failures"])
            return subscription
        oldest = player.push_subscriptions.order_by("-created_at", "-pk").values_list("pk", flat=True)[MAX_PER_PLAYER:]
        PushSubscription.objects.filter(pk__in=list(oldest)).delete()
    return subscription
