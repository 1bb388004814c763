"""Sending one Web Push message (RFC 8030, encrypted aes128gcm per RFC 8291, signed with
VAPID per RFC 8292) through pywebpush. A push service that answers 404 or 410 says the
subscription is gone for good: it is deleted."""

import json
import logging

from django.utils import timezone
from pywebpush import WebPushException, webpush

from .keys import identity
from .models import PushSubscription

logger = logging.getLogger(__name__)

GONE = (404, 410)
TTL = 30 * 60  # seconds a push service keeps an undelivered reminder: later it is stale


def send(subscription: PushSubscription, payload: dict) -> str:
    """ "sent", "gone" (deleted) or "failed"."""
    me = identity()
    try:
        webpush(
            subscription.info(),
            json.dumps(payload),
            vapid_private_key=me.vapid,
            vapid_claims={"sub": me.contact},
            ttl=TTL,
            timeout=10,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            subscription.delete()
            return "gone"
        logger.warning("push to %s failed: %s", subscription.endpoint[:60], status or error)
        return "failed"
    except OSError as error:  # the push service unreachable (requests' errors are OSErrors)
        logger.warning("push to %s failed: %s", subscription.endpoint[:60], error)
        return "failed"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
    return "sent"
