"""Real protocol peers for the reminders: a Web Push endpoint (a small local HTTP server that
checks the VAPID JWT and decrypts the aes128gcm payload, as a push service and the browser
would) and the accounts tests' SMTP server (aiosmtpd)."""

import base64
import json
import secrets
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings

from tests.accounts.conftest import _fresh_allauth_limits, smtp  # noqa: F401 - the SMTP server, reused


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def check_vapid(header: str, audience: str) -> tuple[dict, str]:
    """RFC 8292: `vapid t=<JWT>, k=<public key>`; the ES256 signature verifies with k, the
    audience is the endpoint's origin, the expiry within 24 hours. (claims, k) or ValueError."""
    scheme, _, params = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"not a vapid Authorization: {header!r}")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    token, key = fields["t"], fields["k"]
    signed, _, signature = token.rpartition(".")
    head = json.loads(unb64(signed.split(".")[0]))
    claims = json.loads(unb64(signed.split(".")[1]))
    if head.get("alg") != "ES256":
        raise ValueError(f"alg {head.get('alg')}")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT's signature does not verify with k") from None
    if claims.get("aud") != audience:
        raise ValueError(f"aud {claims.get('aud')} is not {audience}")
    if not time.time() < claims["exp"] <= time.time() + 24 * 3600:
        raise ValueError(f"exp {claims['exp']}")
    return claims, key


class Browser:
    """One subscribed browser: its own P-256 key pair and auth secret, as PushManager makes them."""

    def __init__(self, origin: str, status=201, location=None):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        self.token = secrets.token_urlsafe(8)
        self.status = status
        self.location = location  # sent as Location (with a 3xx status: a redirect)
        self.endpoint = f"{origin}/push/{self.token}"
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64(point)
        self.received: list[dict] = []

    def subscription(self, player):
        from notify.models import PushSubscription

        return PushSubscription.objects.create(
            player=player, endpoint=self.endpoint, p256dh=self.p256dh, auth=b64(self.auth)
        )

    def keys(self) -> dict:
        return {"p256dh": self.p256dh, "auth": b64(self.auth)}

    def body(self, **changes) -> dict:
        """What this browser posts to /push/subscribe/ (PushSubscription.toJSON()), changed as asked."""
        keys = {"p256dh": changes.pop("p256dh", self.p256dh), "auth": changes.pop("auth", b64(self.auth))}
        return {"endpoint": self.endpoint, "keys": keys, **changes}


class PushPeer:
    def __init__(self):
        self.browsers: dict[str, Browser] = {}
        self.errors: list[str] = []
        peer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                browser = peer.browsers.get(self.path.rsplit("/", 1)[-1])
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if browser is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                try:
                    claims, key = check_vapid(self.headers.get("Authorization", ""), peer.origin)
                    if self.headers.get("Content-Encoding") != "aes128gcm":
                        raise ValueError(f"Content-Encoding {self.headers.get('Content-Encoding')}")
                    plain = http_ece.decrypt(
                        body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
                    )
                    browser.received.append(
                        {"claims": claims, "k": key, "ttl": self.headers.get("TTL"), "payload": json.loads(plain)}
                    )
                except Exception as error:  # noqa: BLE001 - any failure is the test's to read
                    peer.errors.append(repr(error))
                    self.send_response(400)
                    self.end_headers()
                    return
                self.send_response(browser.status)
                if browser.location:
                    self.send_header("Location", browser.location)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def browser(self, status=201, location=None) -> Browser:
        browser = Browser(self.origin, status, location)
        self.browsers[browser.token] = browser
        return browser

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_peer(settings):
    # The peer is on http://127.0.0.1, which the endpoint checks refuse (issue 45): the
    # test-only switch admits loopback, and any host is allowed (the push services' list off).
    settings.PUSH_ALLOW_LOOPBACK_FOR_TESTS = True
    settings.PUSH_SERVICE_HOSTS = []
    peer = PushPeer()
    yield peer
    peer.close()
    assert not peer.errors, peer.errors


class Network:
    """A stub DNS (`names`: made-up host -> addresses) and a record of every connect attempted,
    none of which is made: tests of refused endpoints never reach any address."""

    def __init__(self):
        self.names: dict[str, list[str]] = {}
        self.lookups: list[str] = []
        self.connects: list[tuple] = []


@pytest.fixture
def network(monkeypatch):
    """No query leaves the machine and no connection is made: a name not in `names` does not
    exist, a numeric host is parsed locally (AI_NUMERICHOST), and connect() only records."""
    net = Network()
    real = socket.getaddrinfo
    # The test process's own Redis (the cache and the rate limits): its client may open a new
    # connection in the middle of a test (CI saw one, refused and recorded as if the push had
    # made it); its lookup and connect go through and are not counted. A push to that address
    # is refused at the endpoint check, before any connect (the INSIDE cases).
    redis = urlsplit(settings.REDIS_URL) if settings.REDIS_URL else None
    own = {(redis.hostname, redis.port or 6379)} if redis else set()

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else str(host)
        if (name, port) in own:  # the process's own Redis, as for connect below (CI saw its lookup)
            return real(host, port, family, type, proto, flags)
        net.lookups.append(name)
        if name not in net.names:
            return real(host, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (ip, port, 0, 0))
            if ":" in ip
            else (socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))
            for ip in net.names[name]
        ]

    real_connect = socket.socket.connect

    def connect(sock, address):
        if tuple(address[:2]) in own:
            return real_connect(sock, address)
        net.connects.append(address)
        raise ConnectionRefusedError(f"the test made no connection to {address}")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    return net
