"""A real SMTP server (aiosmtpd, in-process) that receives every message the site sends."""

import email
import re
import socket
from email import policy

import pytest


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        self.messages.append({"to": list(envelope.rcpt_tos), "message": message})
        return "250 OK"

    def to(self, address):
        return [m["message"] for m in self.messages if address in m["to"]]

    def last_code(self, address) -> str:
        """The code in the newest message to `address` (allauth's: XXXX-XXXX)."""
        mail = self.to(address)[-1]
        body = mail.get_body(preferencelist=("plain",)).get_content()
        found = re.search(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4}|[A-Z0-9]{6})\s*$", body, re.MULTILINE)
        assert found, body
        return found.group(1)


@pytest.fixture
def smtp(settings):
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:  # a free port (aiosmtpd's start() connects to it, so not 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port},
        }
    }
    yield inbox
    controller.stop()


@pytest.fixture(autouse=True)
def _fresh_allauth_limits(settings):
    """allauth (and axes) count in the cache: each test starts with counters of its own. A fresh
    key prefix does it for the Redis cache CI uses, which outlives a test (never flushed: it is
    shared), and for the locmem one alike."""
    import uuid

    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"t-{uuid.uuid4().hex}"} for name, config in settings.CACHES.items()
    }


# One account on two browsers (a laptop and a phone), and a stranger without one.
@pytest.fixture
def account(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("ada", email="ada@example.com")


@pytest.fixture
def laptop(account):
    from players.models import Profile

    return Profile.objects.create(display_name="Ada", account=account)


@pytest.fixture
def phone(account):
    from players.models import Profile

    return Profile.objects.create(display_name="Ada", account=account)


@pytest.fixture
def stranger(db):
    from players.models import Profile

    return Profile.objects.create(display_name="Grace")
