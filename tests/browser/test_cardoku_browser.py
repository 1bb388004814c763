"""Cardoku in real Chromium: arrange a Custom layout by dragging (and by tapping), deal a
known code, play with both helpers on (dragging the card, tapping squares, the keyboard,
discarding and undoing), get an illegal drop refused, and check that the score panel says
what the engine says about the stored game."""

import random
import re

import pytest
from playwright.sync_api import expect

from games.cardoku.models import CardokuGame
from games.engines import cardoku as ck
from tests.games.test_cardoku_views import find_seed

pytestmark = pytest.mark.browser

# Three per row and per box; column 2 holds three (allowed).
LAYOUT = {1: (7, 2), 2: (7, 5), 3: (7, 8), 4: (8, 2), 5: (8, 4), 6: (8, 9), 7: (9, 2), 8: (9, 6), 9: (9, 7)}


def stored(player) -> CardokuGame:
    return CardokuGame.objects.get(player=player)


def square(page, row, col):
    return page.locator(f'#ck-board [data-row="{row}"][data-col="{col}"]')


def expect_panel_matches_engine(page, player):
    game = stored(player)
    state = game.engine_state()
    breakdown = ck.score(state)
    expect(page.locator("#ck-game")).to_have_attribute("data-step", str(game.step))
    expect(page.locator("[data-score-total]")).to_have_text(str(breakdown.total))
    expect(page.locator("[data-discards]")).to_have_text(str(state.discards))
    expect(page.locator("[data-penalty]")).to_have_text(str(breakdown.discard_penalty))
    expect(page.locator("[data-units]")).to_have_text(str(len(breakdown.units)))
    expect(page.locator(".ck-units li[data-unit]")).to_have_count(len(breakdown.units))
    for unit in breakdown.units:
        expect(page.locator(f'.ck-units li[data-unit="{unit.kind}-{unit.number}"]')).to_have_attribute(
            "data-points", str(unit.points)
        )
    expect(page.locator("[data-cards-left]")).to_have_text(str(state.cards_left))
    expect(page.get_by_role("img", name=state.current_card.name)).to_be_visible()
    return game, state


def expect_helpers_match_engine(page, state):
    expect(page.locator("#ck-board .is-legal")).to_have_count(len(ck.legal_squares(state)))
    expect(page.locator("#ck-board .is-blocker")).to_have_count(len(ck.blocking_cards(state)))


def test_custom_layout_by_dragging_then_play_with_both_helpers(page, player):
    # A deal whose first card is an Ace, 2 or 3: its spade is in row 7, with room above it.
    seed = find_seed(lambda deck: deck[0].digit in (1, 2, 3))
    page.goto("/cardoku/")
    page.get_by_role("radio", name=re.compile("Custom")).check()
    expect(page.locator("#ck-custom")).to_be_visible()

    # Drag eight spades from the tray onto their squares...
    for digit, (row, col) in LAYOUT.items():
        if digit == 9:
            continue
        page.locator(f'.ck-tray .ck-spade[data-spade="{digit}"]').drag_to(
            page.locator(f'[data-setup-square][data-row="{row}"][data-col="{col}"]')
        )
        expect(page.locator(f'[data-spade-field="{digit}"]')).to_have_value(f"{row},{col}")
    expect(page.locator("#ck-layout-status")).to_contain_text("8 of 9 placed")
    # ...a fourth spade in row 7 is reported by the engine's check, then fixed by tapping.
    page.locator('.ck-tray .ck-spade[data-spade="9"]').drag_to(
        page.locator('[data-setup-square][data-row="7"][data-col="9"]')
    )
    expect(page.locator("#ck-layout-status")).to_contain_text("Row 7 has 4 spades; at most three per row.")
    page.locator('[data-setup-square] .ck-spade[data-spade="9"]').click()
    page.locator('[data-setup-square][data-row="9"][data-col="7"]').click()
    expect(page.locator('[data-spade-field="9"]')).to_have_value("9,7")
    expect(page.locator("#ck-layout-status")).to_contain_text("ready to deal")
    expect(page.get_by_role("gridcell", name="Row 9, column 7, 9 of spades")).to_be_visible()

    page.get_by_label(re.compile("Replay a deal")).fill(ck.deal_code(seed).lower())
    page.get_by_role("button", name="Shuffle & Deal").click()
    expect(page).to_have_url(re.compile(r"/cardoku/\d+/$"))
    game = stored(player)
    assert game.layout_kind == "custom" and game.deal_code == ck.deal_code(seed)
    assert game.engine_state().layout.as_mapping() == {sq: ck.spade(d) for d, sq in LAYOUT.items()}
    expect(page.get_by_role("grid", name="Cardoku board")).to_be_visible()
    expect(page.locator("[data-deal-code]")).to_have_text(game.deal_code)

    # Both helpers on.
    page.get_by_role("switch", name="Show possible moves").click()
    expect(page.get_by_role("switch", name="Show possible moves")).to_have_attribute("aria-checked", "true")
    page.get_by_role("switch", name="Show placement restrictions").click()
    expect(page.get_by_role("switch", name="Show placement restrictions")).to_have_attribute("aria-checked", "true")
    game, state = expect_panel_matches_engine(page, player)
    expect_helpers_match_engine(page, state)

    # An illegal drop: the current digit next to its own spade's column. Refused, nothing changes.
    row, col = LAYOUT[state.current_card.digit]
    target = (row - 1, col)
    page.locator("[data-drag=current]").drag_to(square(page, *target))
    expect(page.locator("#ck-message")).to_contain_text(f"the {ck.spade(state.current_card.digit).name}")
    expect(page.locator("#ck-message")).to_have_class(re.compile("is-error"))
    expect(page.locator("#ck-board .is-hit")).to_have_count(len(ck.blockers(state, target)))
    assert stored(player).step == 0

    # Play: drag, tap and keyboard placements, discards and undos.
    plan = [
        "drag",
        "tap",
        "key",
        "discard",
        "tap",
        "undo",
        "drag",
        "tap",
        "discard",
        "key",
        "tap",
        "undo",
        "tap",
        "drag",
        "discard",
        "tap",
    ]
    moves = 0
    for how in plan:
        game, state = expect_panel_matches_engine(page, player)
        expect_helpers_match_engine(page, state)
        legal = sorted(ck.legal_squares(state))
        step = game.step
        if how == "undo":
            page.get_by_role("button", name="Undo").click()
        elif how == "discard" or not legal:
            page.get_by_role("button", name=re.compile("^Discard")).click()
            moves += 1
        else:
            target = legal[len(legal) // 2]
            if how == "drag":
                page.locator("[data-drag=current]").drag_to(square(page, *target))
            elif how == "tap":
                square(page, *target).click()
            else:  # keyboard: focus a square, walk to the target with arrows, Enter
                square(page, 5, 5).focus()
                for _ in range(abs(target[0] - 5)):
                    page.keyboard.press("ArrowDown" if target[0] > 5 else "ArrowUp")
                for _ in range(abs(target[1] - 5)):
                    page.keyboard.press("ArrowRight" if target[1] > 5 else "ArrowLeft")
                expect(square(page, *target)).to_be_focused()
                page.keyboard.press("Enter")
            moves += 1
            expect(page.locator("#ck-announce")).to_contain_text(f"Placed the {state.current_card.name}")
            expect(square(page, *target)).to_have_attribute(
                "aria-label", f"Row {target[0]}, column {target[1]}, {state.current_card.name}"
            )
            if how == "key":  # keyboard focus stays on the board, on the square just filled
                expect(square(page, *target)).to_be_focused()
        expect(page.locator("#ck-game")).to_have_attribute("data-step", str(step + 1))
    assert moves >= 12

    # Keyboard shortcuts: D discards, U undoes.
    step = stored(player).step
    page.locator("body").press("d")
    expect(page.locator("#ck-game")).to_have_attribute("data-step", str(step + 1))
    page.locator("body").press("u")
    expect(page.locator("#ck-game")).to_have_attribute("data-step", str(step + 2))

    game, state = expect_panel_matches_engine(page, player)
    expect_helpers_match_engine(page, state)
    assert state.position >= 10 and game.score == ck.score(state).total

    # A reload keeps everything.
    page.reload()
    expect_panel_matches_engine(page, player)
    expect(page.get_by_role("switch", name="Show possible moves")).to_have_attribute("aria-checked", "true")


def test_custom_layout_with_the_keyboard(page, player):
    page.goto("/cardoku/?layout=custom")
    expect(page.locator("#ck-custom")).to_be_visible()
    for digit, (row, col) in LAYOUT.items():
        page.locator(f'.ck-tray .ck-spade[data-spade="{digit}"]').focus()
        page.keyboard.press("Enter")  # pick up: focus jumps to the squares
        expect(page.locator(f'.ck-spade[data-spade="{digit}"]')).to_have_attribute("aria-pressed", "true")
        focused = page.locator("[data-setup-square]:focus")
        expect(focused).to_have_count(1)
        r, c = int(focused.get_attribute("data-row")), int(focused.get_attribute("data-col"))
        for _ in range(abs(row - r)):
            page.keyboard.press("ArrowDown" if row > r else "ArrowUp")
        for _ in range(abs(col - c)):
            page.keyboard.press("ArrowRight" if col > c else "ArrowLeft")
        page.keyboard.press("Enter")  # drop
        expect(page.locator(f'[data-spade-field="{digit}"]')).to_have_value(f"{row},{col}")
    expect(page.locator("#ck-layout-status")).to_contain_text("ready to deal")
    # Delete sends a spade back to the tray; Enter on a square picks its spade up again.
    page.locator('[data-setup-square][data-row="9"][data-col="7"]').focus()
    page.keyboard.press("Delete")
    expect(page.locator('.ck-tray .ck-spade[data-spade="9"]')).to_have_count(1)
    expect(page.locator("#ck-layout-status")).to_contain_text("8 of 9 placed")
    page.locator('[data-setup-square][data-row="7"][data-col="2"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # the Ace goes to (9,3)
    expect(page.locator('[data-spade-field="1"]')).to_have_value("9,3")
    expect(page.get_by_role("gridcell", name="Row 9, column 3, Ace of spades")).to_be_visible()
    page.get_by_role("button", name="Shuffle & Deal").click()
    expect(page.locator("#ck-setup-error")).to_contain_text("missing: 9 of spades")
    # The refused form comes back as it was: eight spades on the board, the 9 in the tray.
    expect(page.locator('.ck-tray .ck-spade[data-spade="9"]')).to_have_count(1)
    expect(page.locator('[data-spade-field="1"]')).to_have_value("9,3")
    assert not CardokuGame.objects.exists()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_phone_width_fits_without_sideways_scrolling(browser, live_server, player, scheme):
    from tests.browser.conftest import new_page

    page = new_page(browser, live_server.url, player, width=375, height=740)
    page.emulate_media(color_scheme=scheme)
    page.goto("/cardoku/")
    page.get_by_role("radio", name=re.compile("Custom")).check()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.get_by_role("button", name="Shuffle & Deal").click()
    expect(page.locator("#ck-setup-error")).to_be_visible()
    page.get_by_role("radio", name=re.compile("Default")).check()
    page.get_by_role("button", name="Shuffle & Deal").click()
    expect(page).to_have_url(re.compile(r"/cardoku/\d+/$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # The current card and both buttons are on screen without scrolling, with the board.
    for locator in (
        page.locator("[data-drag=current]"),
        page.get_by_role("button", name="Undo"),
        page.get_by_role("button", name=re.compile("^Discard")),
    ):
        box = locator.bounding_box()
        assert box["y"] + box["height"] <= 740
    cell = square(page, 1, 1).bounding_box()
    assert cell["width"] >= 36  # readable squares on a 375 px phone
    square(page, 6, 1).click()
    expect(page.locator("#ck-game")).to_have_attribute("data-step", re.compile("[01]"))
    page.context.close()


def test_tap_to_swapped_square_latency(page, player):
    """Measures tap -> the placed card's square from the server, over a whole deal played by
    tapping (issue 15's target: p95 <= 50 ms on a quiet machine; the bound here is generous)."""
    from games.cardoku import solo
    from tests.browser import latency

    # A fixed deal that lasts 22 taps this way: a random one ended after 3 in a CI run.
    game = solo.start_game(player, {"layout": "default"}, rng=random.Random(0))
    page.goto(f"/cardoku/{game.pk}/")
    latency.install(page)
    waits = []
    for _ in range(40):
        state = stored(player).engine_state()
        legal = sorted(ck.legal_squares(state))
        if state.cards_left <= 1 or not legal:
            break
        row, col = legal[len(legal) // 2]
        index = latency.clicks(page)
        square(page, row, col).click()
        expect(square(page, row, col)).to_have_attribute(
            "aria-label", f"Row {row}, column {col}, {state.current_card.name}"
        )
        waits.append((index, f"ck-sq-{row}-{col}"))
    assert len(waits) >= 10
    _, p95 = latency.summary("Cardoku", latency.delays(page, waits))
    assert p95 < 500
