"""Issue 27, joining in one tap, in real Chromium: the room's Share button opens the phone's
share sheet (navigator.share) with the room link, and only where there is one; the QR code
of the link opens from the share box, big enough for a camera, in both colour schemes."""

import pytest
from playwright.sync_api import expect

from rooms.api import create_room
from tests.browser.conftest import new_page

pytestmark = pytest.mark.browser

SHARE_SHEET = "window.__shared = []; navigator.share = (d) => { window.__shared.push(d); return Promise.resolve(); };"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_share_sheet_and_qr_code(browser, live_server, player, bank_puzzle, scheme):
    room = create_room(player, level="easy")
    link = f"{live_server.url}/r/{room.code}/"

    # A phone: the share sheet exists.
    page = new_page(browser, live_server.url, player, width=375, height=812)
    page.emulate_media(color_scheme=scheme)
    page.add_init_script(SHARE_SHEET)
    page.goto(f"/r/{room.code}/")
    share = page.get_by_role("button", name="Share", exact=True)
    expect(share).to_be_visible()
    share.click()
    assert page.evaluate("window.__shared") == [
        {"title": f"Sudoku Showdown: room {room.code}", "text": "Join my Sudoku Showdown room:", "url": link}
    ]
    qr = page.get_by_role("img", name=f"QR code of the room link {link}")
    expect(qr).to_be_hidden()
    page.get_by_text("QR code: a friend beside you points their camera at it").click()
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box["width"] >= 150 and abs(box["width"] - box["height"]) < 2  # square, a camera reads it at arm's length
    # Dark modules on a light ground in both schemes (cameras need the contrast that way round).
    assert qr.locator("path").first.get_attribute("fill") == "#fff"
    page.context.close()

    # A browser without a share sheet: no Share button, Copy and the QR code remain.
    page = new_page(browser, live_server.url, player, width=1280, height=800)
    page.add_init_script("delete Navigator.prototype.share;")
    page.goto(f"/r/{room.code}/")
    expect(page.get_by_role("button", name="Copy")).to_be_visible()
    expect(page.locator("[data-share-link]")).to_be_hidden()
    page.context.close()
