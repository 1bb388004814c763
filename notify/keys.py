"""The server's VAPID identity (RFC 8292): VAPID_PRIVATE_KEY / VAPID_PUBLIC_KEY /
VAPID_CONTACT from the environment, or in the embedded default a key pair made once and
kept in the database, so `make run` needs nothing."""

import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction
from py_vapid import Vapid

from .models import VapidKey


@dataclass(frozen=True)
class Identity:
    vapid: Vapid  # signs each push's JWT
    public_key: str  # base64url, the browser's applicationServerKey
    contact: str  # the JWT's "sub": mailto: or https:


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def public_of(vapid: Vapid) -> str:
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def new_pair() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    vapid = Vapid.from_raw(b64url(raw).encode())
    return b64url(raw), public_of(vapid)


def stored_pair() -> tuple[str, str]:
    """The database's pair, made by the first caller (two at once: the first row wins)."""
    row = VapidKey.objects.order_by("pk").first()
    if row is None:
        private, public = new_pair()
        try:
            with transaction.atomic():
                VapidKey.objects.create(private_key=private, public_key=public)
        except IntegrityError:
            pass
        row = VapidKey.objects.order_by("pk").first()
    assert row is not None
    return row.private_key, row.public_key


def identity() -> Identity:
    if settings.VAPID_PRIVATE_KEY:
        vapid = Vapid.from_string(settings.VAPID_PRIVATE_KEY)
        public = public_of(vapid)
        if settings.VAPID_PUBLIC_KEY and settings.VAPID_PUBLIC_KEY.rstrip("=") != public:
            raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
    else:
        private, public = stored_pair()
        vapid = Vapid.from_string(private)
    return Identity(vapid, public, settings.VAPID_CONTACT or "mailto:admin@localhost")
