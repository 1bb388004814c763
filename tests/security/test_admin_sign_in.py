"""Admin sign-in attempts are limited per address and per username before the password is
hashed (issue 28, item 4): 60 wrong passwords in a row all got 200, and 32 clients posting
them took GET /how-to-play/ from 8 to 2,670 ms."""

import threading
from urllib.parse import urlencode

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

from config.asgi import django_asgi_app

LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture(autouse=True)
def quick_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only


@pytest.fixture
def admin(db):
    cache.clear()  # the counters live in the cache, shared by every test
    yield get_user_model().objects.create_superuser("boss", "boss@example.com", "right-password-1")
    cache.clear()


@pytest.fixture
def hashes(monkeypatch):
    """Every password check that reaches the hashing backend, with the thread it ran in."""
    seen = []
    check = ModelBackend.authenticate

    def counted(self, request, username=None, password=None, **kwargs):
        seen.append(threading.get_ident())
        return check(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counted)
    return seen


def sign_in(client, username, password, address="203.0.113.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_from_one_address_are_refused_before_the_hash(client, admin, hashes):
    answers = [sign_in(client, f"guess{n}", "wrong").status_code for n in range(60)]
    limit = settings.AXES_FAILURE_LIMIT
    # The form again ("enter a correct username..."); the limit-th failure locks the address.
    assert answers[: limit - 1] == [200] * (limit - 1) and set(answers[limit - 1 :]) == {429}
    assert len(hashes) == limit  # the 55 after it were refused before the hash
    locked = sign_in(client, "boss", "right-password-1")  # the right one too, from there
    assert locked.status_code == 429 and b"Too many failed sign-in attempts" in locked.content
    assert "_auth_user_id" not in client.session
    # Another address is not locked out by this one.
    assert sign_in(client, "boss", "right-password-1", address="198.51.100.2").status_code == 302


def test_one_username_from_many_addresses_is_locked_too(client, admin, hashes):
    limit = settings.AXES_FAILURE_LIMIT
    answers = [sign_in(client, "boss", "wrong", address=f"192.0.2.{n}").status_code for n in range(1, 30)]
    assert answers[: limit - 1] == [200] * (limit - 1) and set(answers[limit - 1 :]) == {429}
    assert len(hashes) == limit
    assert sign_in(client, "boss", "right-password-1", address="198.51.100.9").status_code == 429
    get_user_model().objects.create_superuser("other", "o@example.com", "right-password-2")
    assert sign_in(client, "other", "right-password-2", address="198.51.100.9").status_code == 302


@pytest.mark.django_db(transaction=True)
async def test_the_hash_runs_in_the_request_s_own_thread_not_the_sockets(hashes):
    """Django's ASGI handler gives each request a thread of its own; the sockets' sync calls
    (channels' database_sync_to_async) share one. The hash must not run on that one."""
    cache.clear()
    await database_sync_to_async(get_user_model().objects.create_superuser)("boss", "b@example.com", "pw-1-right")
    sockets = await database_sync_to_async(threading.get_ident)()
    token = "a" * 32  # a CSRF secret of the right shape, in the cookie and the form
    body = urlencode({"username": "boss", "password": "wrong", "csrfmiddlewaretoken": token}).encode()
    headers = [
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"host", b"testserver"),
        (b"cookie", f"csrftoken={token}".encode()),
    ]
    response = await HttpCommunicator(django_asgi_app, "POST", LOGIN, body, headers).get_response()
    assert response["status"] == 200 and len(hashes) == 1  # the form again: a wrong password
    assert hashes[0] != sockets
