"""Cardoku pages. Every move is judged on the server: 400 for malformed input, 409 for a
move the rules refuse (the board comes back unchanged, with the reason), 403 for
someone else's game. htmx requests get the game partial back."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.methods import page
from games.common.i18n import say
from games.common.limits import creation_limit
from games.common.responses import answer, flash, go, message_page
from games.engines import cardoku as ck
from players.middleware import player_token

from . import fragments, play, records, solo
from .models import CardokuGame
from .presenters import card_view, game_context, move_answer

SETUP_ROWS = (7, 8, 9)


def _placements(data) -> dict[int, tuple[int, int]]:
    """{digit: square} from the form's spade_N fields, for redrawing the editor
    (malformed fields are left in the tray)."""
    out: dict[int, tuple[int, int]] = {}
    taken = set()
    for digit in range(1, 10):
        try:
            square = play.parse_square(data.get(f"spade_{digit}"))
        except ck.BadMove:
            continue
        if square[0] in SETUP_ROWS and square not in taken:
            out[digit] = square
            taken.add(square)
    return out


def _editor(placements: dict[int, tuple[int, int]]) -> dict:
    by_square = {square: digit for digit, square in placements.items()}
    rows = []
    for r in SETUP_ROWS:
        row = []
        for c in range(1, 10):
            digit = by_square.get((r, c))
            card = ck.spade(digit) if digit else None
            label = _("Row %(row)s, column %(col)s") % {"row": r, "col": c} + (f", {say(card.name)}" if card else "")
            row.append(
                {
                    "row": r,
                    "col": c,
                    "box": ck.box_of(r, c),
                    "label": label,
                    "spade": card_view(card, True) if card else None,
                    "digit": digit,
                    "box_right": c in (3, 6),
                }
            )
        rows.append(row)
    tray = [{"digit": d, "spade": card_view(ck.spade(d), True)} for d in range(1, 10) if d not in placements]
    return {
        "editor_rows": rows,
        "tray": tray,
        "placements": placements,
        "spade_fields": [(d, "{},{}".format(*placements[d]) if d in placements else "") for d in range(1, 10)],
    }


LAYOUT_HELP = {
    "default": gettext_lazy("A-2-3, 4-5-6, 7-8-9 down a staircase."),
    "random": gettext_lazy("The staircase squares, spades shuffled. The deal code fixes it."),
    "custom": gettext_lazy("Put the nine spades where you like in the bottom three boxes."),
}
LAYOUT_LABELS = {
    "default": gettext_lazy("Default staircase"),
    "random": gettext_lazy("Random"),
    "custom": gettext_lazy("Custom"),
}
# A sample custom layout for the picture: three in one column is fine.
_CUSTOM_SAMPLE = {(7 + i % 3, 2 + 3 * (i // 3)): i + 1 for i in range(9)}
_RANK = "A23456789"


def _layout_pictures() -> list[dict]:
    staircase = {sq: i + 1 for i, sq in enumerate(ck.STAIRCASE)}
    pictures = []
    for kind, _label in play.LAYOUT_CHOICES:
        marks = _CUSTOM_SAMPLE if kind == "custom" else staircase
        rows = [
            [(_RANK[marks[(r, c)] - 1] if kind != "random" else "?") if (r, c) in marks else "" for c in range(1, 10)]
            for r in SETUP_ROWS
        ]
        pictures.append({"kind": kind, "label": LAYOUT_LABELS[kind], "help": LAYOUT_HELP[kind], "rows": rows})
    return pictures


def _status(placed: dict[tuple[int, int], str], problem: str | None) -> dict:
    return {
        "layout_problem": problem,
        "layout_placed": len(placed),
        "layout_incomplete": bool(problem) and play.custom_incomplete(placed),
    }


def _setup_context(request, data, error=None, error_field=None) -> dict:
    layout = data.get("layout") if data.get("layout") in play.LAYOUT_KINDS else "default"
    placements = _placements(data)
    placed = {sq: ck.spade(d).code for d, sq in placements.items()}
    problem = play.custom_problem(placed)  # the editor's status, whichever layout is chosen
    return {
        "layout_choices": _layout_pictures(),
        "layout": layout,
        "code": str(data.get("code") or "")[:40],
        "error": error,
        "error_field": error_field,
        "current_game": solo.current_game(request.player),
        "staircase": ";".join(f"{i + 1}:{r},{c}" for i, (r, c) in enumerate(ck.STAIRCASE)),
        **_editor(placements),
        **_status(placed, problem),
    }


@page
def setup(request):
    return render(request, "cardoku/setup.html", _setup_context(request, request.GET))


@require_POST
@creation_limit("game")  # games/common/limits.py: per profile and per IP
def new_game(request):
    """ "Shuffle & Deal": start a game from the setup form."""
    try:
        game = solo.start_game(request.player, request.POST)
    except ck.BadDealCode as error:
        return render(
            request, "cardoku/setup.html", _setup_context(request, request.POST, str(error), "code"), status=400
        )
    except (ck.InvalidInput, ck.LayoutError) as error:
        return render(
            request, "cardoku/setup.html", _setup_context(request, request.POST, str(error), "layout"), status=400
        )
    return go(request, reverse("cardoku_game", args=[game.pk]))


@require_POST
def check_layout(request):
    """The engine's verdict on a custom layout while the player arranges it."""
    try:
        placed = play.parse_spades(request.POST)
        problem = play.custom_problem(placed)
    except ck.LayoutError as error:
        placed, problem = {}, str(error)
    return render(request, "cardoku/setup.html#layout-status", _status(placed, problem))


def _not_yours(request) -> HttpResponse:
    return message_page(request, _("Not your game"), _("That Cardoku game belongs to another player."), 403)


@page
def game_page(request, game_id: int):
    game = get_object_or_404(CardokuGame, pk=game_id)
    if game.player_id != request.player.pk:
        return _not_yours(request)
    return render(request, "cardoku/game.html", _with_finish(game_context(game)))


def _with_finish(context: dict) -> dict:
    game = context["game"]
    if game.finished:
        best = records.previous_best(game)
        context["previous_best"] = best
        context["new_best"] = best is None or game.score > best
        layout = game.engine_state().layout
        context["replay_spades"] = [(card.digit, f"{r},{c}") for (r, c), card in layout.placements]
    return context


def _render_game(request, game, status=200, **extra) -> HttpResponse:
    context = _with_finish(game_context(game, **extra))
    template = "cardoku/game.html#game" if request.htmx else "cardoku/game.html"
    return render(request, template, context, status=status)


def _refused(request, game_id, message, status, refusal=None) -> HttpResponse:
    game = CardokuGame.objects.filter(pk=game_id, player=request.player).first()
    if game is None:
        if request.htmx:
            return flash(request, _("That Cardoku game is not yours."), 403)
        return _not_yours(request)
    return _render_game(request, game, status, error=message, refusal=refusal)


@require_POST
def act(request, game_id: int):
    """Every move comes here: place (row, col), discard, undo.

    An htmx move answers with only what changed (presenters.move_answer), and so does a
    refused placement (the square and the cards that block it) or a malformed move (the
    message). The whole game comes back at the finish, for a move made on an old board
    (a second tab, a lost answer: the page is behind), once the game is over, and when
    the page asks for it with ``full=1``."""
    full = request.POST.get("full") == "1"
    try:
        action = play.parse_action(request.POST)
        played = solo.play_move(game_id, player_token(request), action)
    except solo.NotYourGame as error:
        if request.htmx:
            return flash(request, str(error), 403)
        return _not_yours(request)
    except (ck.InvalidInput, ck.IllegalMove) as error:
        status = 400 if isinstance(error, ck.InvalidInput) else 409
        refusal = error if isinstance(error, ck.IllegalSquare) else None
        game = getattr(error, "game", None)  # play_move's read of the game, when it got that far
        if game is None and request.htmx and not full:  # malformed: nothing was read or changed
            return answer(fragments.message({"error": str(error)}, oob=True), status)
        if game is None:
            return _refused(request, game_id, str(error), status, refusal=refusal)
        if not request.htmx or full or isinstance(error, (play.StaleBoard, ck.GameOver)):
            return _render_game(request, game, status, error=str(error), refusal=refusal)
        state = game.engine_state()
        return answer(move_answer(game, state, state, error=str(error), refusal=refusal), status)
    game = played.game
    if not request.htmx:
        return redirect("cardoku_game", game_id=game.pk)
    if full or game.finished:
        return _render_game(request, game, outcome=played.outcome)
    return answer(move_answer(game, played.before, played.after, played.outcome))


@require_POST
def option(request, game_id: int):
    """The two toggles: "Show possible moves" and "Show placement restrictions"."""
    try:
        name, on = solo.parse_option(request.POST)
        game = solo.set_option(game_id, request.player, name, on)
    except solo.NotYourGame as error:
        if request.htmx:
            return flash(request, str(error), 403)
        return _not_yours(request)
    except ck.InvalidInput as error:
        return _refused(request, game_id, str(error), 400)
    if not request.htmx:
        return redirect("cardoku_game", game_id=game.pk)
    return _render_game(request, game)
