"""Cardoku markup built with format strings: cards, board squares, the hand, the deck, the
score panel and the message line, each element with a stable id.

The game page renders these (templates/cardoku/game.html calls them through its tags
and the presenter), and a move's answer sends only the ones that changed, as htmx
out-of-band swaps (`move_answer`), so the page and an answer cannot drift apart.
Every value goes through `_e` (html.escape).
"""

from __future__ import annotations

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.common.i18n import say
from games.common.responses import escaped as _e
from games.common.responses import fragment as _done


def square_id(row: int, col: int) -> str:
    return f"ck-sq-{row}-{col}"


# --- cards ---------------------------------------------------------------------------------


def card(cv: dict | None, size: str | None = None, named: bool = False) -> SafeString:
    """A playing card (games/cardoku/presenters.card_view). The rank is drawn by CSS from
    data-rank: a card face is a picture named by its square or button. `named`: the card
    names itself to screen readers."""
    if not cv:
        return mark_safe("")
    css = "ck-card"
    if cv["red"]:
        css += " is-red"
    if cv["joker"]:
        css += " is-joker"
    elif cv["wild"]:
        css += " is-wild"
    if cv["start"]:
        css += " is-start"
    if size:
        css += f" ck-card--{_e(size)}"
    name = f' role="img" aria-label="{_e(cv["name"])}"' if named else ' aria-hidden="true"'
    suit = "Joker" if cv["joker"] else _e(cv["symbol"])
    if cv["joker"]:
        pip = "★"
    elif cv["wild"]:
        pip = f'{_e(cv["rank"])}<small>{_e(cv["symbol"])}</small>'
    else:
        pip = _e(cv["symbol"])
    index = f'<span class="ck-rank" data-rank="{_e(cv["rank"])}"></span><span class="ck-suit">{suit}</span>'
    return mark_safe(
        f'<span class="{css}" data-card="{_e(cv["code"])}"{name}><span class="ck-idx">{index}</span>'
        f'<span class="ck-pip">{pip}</span><span class="ck-idx ck-idx--b">{index}</span></span>'
    )


def back(size: str | None = None) -> SafeString:
    """The back of a card (the deck)."""
    extra = f" ck-card--{_e(size)}" if size else ""
    return mark_safe(f'<span class="ck-back{extra}" aria-hidden="true"></span>')


# --- the board -----------------------------------------------------------------------------

SQUARE_MARKS = (
    ("legal", "is-legal"),
    ("blocker", "is-blocker"),
    ("hit", "is-hit"),
    ("tried", "is-tried"),
    ("fresh", "is-fresh"),
    ("scored", "is-scored"),
    ("flash", "is-flash"),
    ("box_right", "box-right"),
    ("box_bottom", "box-bottom"),
)


def square(sq: dict, playing: bool, *, oob: bool = False) -> SafeString:
    """One square of the ARIA grid, from a games/cardoku/presenters.board_rows dict."""
    r, c = sq["row"], sq["col"]
    css = "ck-sq has-card" if sq["card"] else "ck-sq is-empty"
    for key, name in SQUARE_MARKS:
        if sq[key]:
            css += " " + name
    if r >= 7:
        css += " is-start-band"
    said = _("possible move") if sq["legal"] else _("blocks your card") if sq["blocker"] else ""
    describe = f' aria-description="{_e(said)}"' if said else ""
    drop = " data-drop" if playing and not sq["card"] else ""
    tab = "0" if (r, c) == (5, 5) else "-1"
    return _done(
        f'<div id="{square_id(r, c)}" role="gridcell" class="{css}" aria-label="{_e(sq["label"])}"{describe} '
        f'data-row="{r}" data-col="{c}"{drop} tabindex="{tab}">{card(sq["card"])}</div>',
        oob,
    )


# --- the hand and the deck ------------------------------------------------------------------


def current(cv: dict | None, *, oob: bool = False) -> SafeString:
    """The card to play, big, draggable."""
    # (Texts are translated outside the f-strings: xgettext does not look inside them.)
    label, grab = _e(_("Your card")), _e(_("Drag onto the board, or tap a square"))
    return _done(
        f'<div id="ck-current" class="ck-current"><span class="ck-label">{label}</span>'
        f'<div class="ck-grab" data-drag="current" title="{grab}">'
        f'{card(cv, "big", True)}</div></div>',
        oob,
    )


def deck(cards_left: int, deck_after: int, last_discard: dict | None, *, oob: bool = False) -> SafeString:
    """The face-down stack, how many cards are left and the last discarded card."""
    stack = "".join(back() for n in (2, 1, 0) if deck_after > n)
    empty = " is-empty" if deck_after == 0 else ""
    discard = ""
    if last_discard:
        title, said = _e(_("Last discarded card")), _e(_("Last discarded: %(card)s") % {"card": last_discard["name"]})
        discard = (
            f'<span class="ck-last-discard" title="{title}">{card(last_discard, "mini")}'
            f'<span class="ck-vh">{said}</span></span>'
        )
    left = _e(ngettext("card left", "cards left", cards_left))
    return _done(
        f'<div id="ck-deck" class="ck-deck"><span class="ck-stack{empty}" aria-hidden="true">{stack}</span>'
        f'<span class="ck-left"><strong data-cards-left>{_e(cards_left)}</strong> '
        f'<span>{left}</span></span>{discard}</div>',
        oob,
    )


def undo_button(can_undo: bool, *, oob: bool = False) -> SafeString:
    disabled = "" if can_undo else " disabled"
    label = _e(_("Undo"))
    return _done(
        f'<button id="ck-undo" type="submit" class="button ck-undo" name="action" value="undo" '
        f'data-key="u"{disabled}>{label}</button>',
        oob,
    )


def step_input(step: int, element_id: str, *, oob: bool = False) -> SafeString:
    """The board version a move was made on (both move forms carry one)."""
    return _done(f'<input id="{_e(element_id)}" type="hidden" name="step" value="{_e(step)}">', oob)


def toggle_note(show_moves: bool, legal_count: int, *, oob: bool = False) -> SafeString:
    """How many squares take the current card, while "Show possible moves" is on."""
    if not show_moves:
        return _done('<p id="ck-toggle-note" class="ck-toggle-note" hidden></p>', oob)
    text = _e(
        ngettext("%(n)s square can take this card.", "%(n)s squares can take this card.", legal_count)
        % {"n": legal_count}
        if legal_count
        else _("No square can take this card.")
    )
    return _done(f'<p id="ck-toggle-note" class="ck-toggle-note">{text}</p>', oob)


# --- the score panel and the message --------------------------------------------------------


def chips(unit: dict) -> str:
    return "".join(
        f'<span class="ck-chip ck-chip--{_e(b["name"].lower())}" title="{_e(b["help"])}">{_e(b["label"])}</span>'
        for b in unit["bonuses"]
    )


def score_panel(score: dict, *, final: bool = False, note: str | None = None, oob: bool = False) -> SafeString:
    """The running score: total, units, discards, penalty and each completed unit. `final`:
    the deck is done (a duel keeps the panel, titled so); `note`: a hint line under the
    units (escaped unless marked safe)."""
    empty = _e(_("Fill all nine squares of a row, column or box to score it."))
    words = {
        key: _e(text)
        for key, text in (
            ("score", _("Final score") if final else _("Score")),
            ("pts", _("pts")),
            ("units", _("Units")),
            ("discards", _("Discards")),
            ("penalty", _("Penalty")),
            ("completed", _("Completed units")),
        )
    }
    units = (
        "".join(
            f'<li data-unit="{_e(u["kind"])}-{_e(u["number"])}" data-points="{_e(u["points"])}">'
            f'<span class="ck-unit-name">{_e(u["title"])}</span><span class="ck-chips">{chips(u)}</span>'
            f'<span class="ck-calc">{_e(u["base"])}&nbsp;×&nbsp;{_e(u["multiplier"])}</span>'
            f'<strong class="ck-points">{_e(u["points"])}</strong></li>'
            for u in score["units"]
        )
        or f'<li class="empty">{empty}</li>'
    )
    hint = f'<p class="hint-text">{conditional_escape(note)}</p>' if note else ""
    return _done(
        '<section id="ck-score" class="ck-score panel" aria-labelledby="ck-score-h" data-score-panel>'
        f'<div class="ck-score-head"><h2 id="ck-score-h">{words["score"]}</h2>'
        f'<p class="ck-total"><strong data-score-total>{_e(score["total"])}</strong> '
        f'<span>{words["pts"]}</span></p></div>'
        '<dl class="ck-score-stats">'
        f'<div><dt>{words["units"]}</dt><dd data-units>{len(score["units"])}</dd></div>'
        f'<div><dt>{words["discards"]}</dt><dd data-discards>{_e(score["discards"])}</dd></div>'
        f'<div><dt>{words["penalty"]}</dt><dd data-penalty>{_e(score["discard_penalty"])}</dd></div></dl>'
        f'<ul class="ck-units" aria-label="{words["completed"]}">{units}</ul>{hint}</section>',
        oob,
    )


def message_text(context: dict) -> str:
    """What the message line says for a game context (games/cardoku/presenters.game_context)."""
    if context.get("error"):
        return say(context["error"])
    outcome, playing, current_card = context.get("outcome"), context["playing"], context["current"]
    if outcome:
        return say(outcome.message) + (
            " " + _("Your card: the %(card)s.") % {"card": current_card["name"]} if playing else ""
        )
    if playing:
        if context["no_moves"]:
            return _("The %(card)s fits on no square: discard it.") % {"card": current_card["name"]}
        return _("Place the %(card)s next to a card, or discard it.") % {"card": current_card["name"]}
    return _("Final score: %(score)s.") % {"score": context["game"].score}


def message(context: dict, *, oob: bool = False) -> SafeString:
    outcome = context.get("outcome")
    kind = " is-error" if context.get("error") else " is-good" if outcome and outcome.completed else ""
    return _done(f'<p id="ck-message" class="message ck-message{kind}">{_e(message_text(context))}</p>', oob)
