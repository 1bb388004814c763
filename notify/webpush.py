"""Sending one Web Push message (RFC 8030, encrypted aes128gcm per RFC 8291 by pywebpush,
signed with VAPID per RFC 8292 by py-vapid). A push service that answers 404 or 410 says the
subscription is gone for good: it is deleted.

Issue 45: each send is on its own. The endpoint and keys are checked again first (DNS changes,
and rows may predate the checks); what fails the checks is deleted. The POST is aiohttp's, not
pywebpush's requests call: requests' timeout bounds each read, so a server trickling a byte
at a time held the job for as long as it liked, while aiohttp's ClientTimeout(total=...) ends
the whole request, connect to last header, and closes the connection (no thread left behind).
Its resolver is endpoints.PublicResolver, redirects are not followed and proxies from the
environment are not used. Any other failure counts: MAX_FAILURES in a row and the
subscription is dropped."""

import asyncio
import json
import logging
import time
from urllib.parse import urlsplit

import aiohttp
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from pywebpush import WebPusher

from . import endpoints
from .keys import identity
from .models import PushSubscription
from .subscriptions import check_keys

logger = logging.getLogger(__name__)

GONE = (404, 410)
TTL = 30 * 60  # seconds a push service keeps an undelivered reminder: later it is stale
MAX_FAILURES = 3  # failed sends in a row before a subscription is dropped (a dead or hostile host)


async def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST to a push service within PUSH_SEND_SECONDS in all; its status code."""
    plain_http = urlsplit(url).scheme.lower() == "http"  # only with PUSH_ALLOW_LOOPBACK_FOR_TESTS
    connector = aiohttp.TCPConnector(resolver=endpoints.PublicResolver(plain_http), use_dns_cache=False)
    timeout = aiohttp.ClientTimeout(total=settings.PUSH_SEND_SECONDS)
    async with (
        aiohttp.ClientSession(connector=connector, timeout=timeout, trust_env=False) as session,
        session.post(url, data=body, headers=headers, allow_redirects=False) as response,
    ):
        return response.status


def request(subscription: PushSubscription, payload: dict) -> tuple[bytes, dict[str, str]]:
    """The encrypted body and the headers pywebpush's webpush() would send."""
    me = identity()
    parts = urlsplit(subscription.endpoint)
    claims = {"sub": me.contact, "aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + 12 * 3600}
    body = WebPusher(subscription.info()).encode(json.dumps(payload).encode(), "aes128gcm")["body"]
    headers = {"Content-Encoding": "aes128gcm", "TTL": str(TTL), **me.vapid.sign(claims)}
    return body, headers


def failed(subscription: PushSubscription, why: object) -> str:
    logger.warning("push to %s failed: %s", subscription.endpoint[:60], why)
    PushSubscription.objects.filter(pk=subscription.pk).update(failures=F("failures") + 1)
    PushSubscription.objects.filter(pk=subscription.pk, failures__gte=MAX_FAILURES).delete()
    return "failed"


def send(subscription: PushSubscription, payload: dict) -> str:
    """ "sent", "gone" (404/410: deleted), "refused" (endpoint or keys fail the checks:
    deleted) or "failed" (kept until MAX_FAILURES in a row). Never raises."""
    try:
        check_keys(subscription.p256dh, subscription.auth)
        endpoints.check(subscription.endpoint, lookup=False)  # names: PublicResolver, under the deadline
        status = asyncio.run(post(subscription.endpoint, *request(subscription, payload)))
    except endpoints.Refused as error:
        logger.warning("push to %s refused, subscription deleted: %s", subscription.endpoint[:60], error)
        subscription.delete()
        return "refused"
    except (aiohttp.ClientError, OSError) as error:  # unreachable, reset, timed out (TimeoutError)
        return failed(subscription, repr(error))
    except Exception as error:  # any: one subscription's fault never stops the others (issue 45)
        logger.exception("push to %s crashed", subscription.endpoint[:60])
        return failed(subscription, repr(error))
    if status in GONE:
        subscription.delete()
        return "gone"
    if not 200 <= status < 300:  # a redirect too: it is not followed
        return failed(subscription, status)
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now(), failures=0)
    return "sent"
