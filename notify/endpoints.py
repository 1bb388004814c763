"""Where a push may go (issue 45, 1). A subscription's endpoint is a URL the browser hands us
and the reminder job POSTs to: a request the server makes on a stranger's behalf. So only
https, only the browsers' push services (PUSH_SERVICE_HOSTS), and only hosts whose every
address is public. The browser's subscribe is checked here (notify/subscriptions.py) and every
send again (DNS changes): at send time the host is looked up once, by the connection's own
resolver (`PublicResolver`), so the address checked is the address connected to (no second
lookup a hostile DNS server could answer differently), within the send's deadline."""

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult
from django.conf import settings
from django.utils.translation import gettext as _

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(ValueError):
    """An endpoint (or key) the server will not send to; the text says why, fit for the browser."""


def public(address: Address) -> bool:
    """On the public internet: not loopback, private, link-local, multicast, reserved or
    unspecified, nor an IPv6 form wrapping such an IPv4 address (::ffff:127.0.0.1, 6to4)."""
    if isinstance(address, ipaddress.IPv6Address):
        address = address.ipv4_mapped or address.sixtofour or address
    if address.is_loopback and settings.PUSH_ALLOW_LOOPBACK_FOR_TESTS:
        return True
    inside = (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )
    return address.is_global and not inside  # is_global alone lets multicast through


def known_service(host: str) -> bool:
    """`host` is one of PUSH_SERVICE_HOSTS or under one (an empty list allows any host)."""
    names = [name.lower().lstrip("*.").rstrip(".") for name in settings.PUSH_SERVICE_HOSTS]
    return not names or any(host == name or host.endswith("." + name) for name in names)


def target(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an endpoint the server may send to, checked without any lookup."""
    # Printable ASCII only: no whitespace or backslash for two URL parsers to read differently.
    if not url or not all(33 <= ord(char) < 127 and char != "\\" for char in url):
        raise Refused(_("The push endpoint is not a valid address."))
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and settings.PUSH_ALLOW_LOOPBACK_FOR_TESTS):
        raise Refused(_("The push endpoint must be an https:// address."))
    if "@" in parts.netloc:
        raise Refused(_("The push endpoint must not carry a user name or password."))
    host = (parts.hostname or "").rstrip(".")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        raise Refused(_("The push endpoint is not a valid address.")) from None
    if not host:
        raise Refused(_("The push endpoint is not a valid address."))
    if not known_service(host):
        raise Refused(
            _("Push notifications go only through the browsers' push services (Google, Mozilla, Apple, Microsoft).")
        )
    return scheme, host, port


def addresses(host: str, port: int, plain_http: bool = False, family: int = 0) -> list[tuple[int, str]]:
    """Every (family, address) `host` resolves to, or Refused unless every one is public.
    `plain_http` (the test switch's http) additionally wants every address to be loopback."""
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        found: list[tuple[int, str]] = [(socket.AF_INET if literal.version == 4 else socket.AF_INET6, str(literal))]
    else:
        try:
            infos = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            raise Refused(_("The push endpoint's host has no address.")) from None
        found = [(int(info[0]), str(info[4][0])) for info in infos]
    if not found:
        raise Refused(_("The push endpoint's host has no address."))
    for _family, text in found:
        address = ipaddress.ip_address(text)
        if not public(address):
            raise Refused(_("The push endpoint must be on the public internet."))
        if plain_http and not address.is_loopback:
            raise Refused(_("The push endpoint must be an https:// address."))
    return found


def check(url: str, lookup: bool = True) -> None:
    """Refused unless the server may send to `url` now (a DNS lookup: call outside transactions).
    Without `lookup` a host name is left to the connection's resolver; an IP literal is checked."""
    scheme, host, port = target(url)
    if lookup or host.replace(".", "").isdigit() or ":" in host:  # what aiohttp takes for a literal
        addresses(host, port, plain_http=scheme == "http")


class PublicResolver(AbstractResolver):
    """aiohttp's lookup for a send: it connects only to addresses `addresses` checked. (An IP
    literal never reaches a resolver in aiohttp: `target` and `addresses` checked it before.)"""

    def __init__(self, plain_http: bool = False):
        self.plain_http = plain_http

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await asyncio.to_thread(addresses, host, port, self.plain_http, family)
        return [
            {"hostname": host, "host": text, "port": port, "family": fam, "proto": 0, "flags": socket.AI_NUMERICHOST}
            for fam, text in found
        ]

    async def close(self) -> None:
        pass
