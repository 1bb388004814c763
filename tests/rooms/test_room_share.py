"""Issue 27, joining in one tap: the room's QR code of its link, drawn on the server as
inline SVG (segno; no script), beside Copy and the share sheet's button."""

import re

import pytest
import segno
from django.urls import reverse


def qr_of(html: str) -> str:
    match = re.search(r'<svg role="img" aria-label="[^"]*"[^>]*class="qr".*?</svg>', html, re.S)
    assert match, "no QR code on the page"
    return match.group(0)


@pytest.mark.parametrize(
    ("language", "label"), [("en", "QR code of the room link"), ("nl", "QR-code van de kamerlink")]
)
def test_the_lobby_shows_a_qr_code_of_exactly_its_link(player_client, room, language, label):
    html = player_client.get(reverse("room", args=[room.code]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    link = re.search(r'id="share-link" readonly value="([^"]+)"', html).group(1)
    assert link == f"http://testserver/r/{room.code}/"
    svg = qr_of(html)
    assert f'aria-label="{label} {link}"' in svg
    # The modules drawn are those of this link and no other (segno, error level M).
    expected = segno.make(link, error="m").svg_inline(scale=4, border=4, dark="#000", light="#fff", svgclass="qr")
    assert svg.split(">", 1)[1] == expected.split(">", 1)[1]
    other = segno.make(link.replace(room.code, "ZZZZZZ"), error="m").svg_inline(scale=4, border=4, svgclass="qr")
    assert svg.split(">", 1)[1] != other.split(">", 1)[1]
    # No script draws it, and nothing in it breaks the page's Content-Security-Policy.
    assert "<script" not in svg and "style=" not in svg
    # The share sheet's button waits, hidden, for a browser that has one.
    assert re.search(r'<button type="button" class="button primary" data-share-link="#share-link"[^>]* hidden>', html)


def test_segno_is_pinned_with_its_reason():
    from pathlib import Path

    requirements = (Path(__file__).resolve().parents[2] / "requirements.txt").read_text()
    assert re.search(r"# The room's QR code[^\n]*\n(#[^\n]*\n)*segno==\d+\.\d+\.\d+\n", requirements)


@pytest.mark.parametrize(
    ("host", "local"),
    [("localhost:8000", True), ("127.0.0.1:8000", True), ("[::1]:8000", True), ("192.168.1.20:8000", False)],
)
def test_a_link_that_names_this_computer_says_no_other_phone_opens_it(player_client, room, settings, host, local):
    """Issue 43 item 16: `make run` serves localhost, and its share link and QR code open nothing
    on another phone; the page says so there (and how to serve the local network), else nothing."""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    html = player_client.get(reverse("room", args=[room.code]), HTTP_HOST=host).content.decode()
    assert f'value="http://{host}/r/{room.code}/"' in html
    assert ("data-share-loopback" in html) is local
    if local:
        assert "no other phone or computer can open them" in html and "make run HOST=0.0.0.0" in html


def test_make_run_listens_where_host_says():
    """The README's `make run HOST=0.0.0.0` reaches runserver; the default stays localhost."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    def served(*args):
        out = subprocess.run(["make", "-n", "run", *args], cwd=root, capture_output=True, text=True, check=True)
        return re.search(r"runserver (\S+)", out.stdout).group(1)

    assert served() == "localhost:8000"
    assert served("HOST=0.0.0.0") == "0.0.0.0:8000"
    assert "make run HOST=0.0.0.0 DJANGO_ALLOWED_HOSTS=" in (root / "README.md").read_text()
