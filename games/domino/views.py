"""Solo Sudoku Domino pages. Every move goes through solo.act (the one write path);
refusals come back as the game partial with a message: 400 malformed, 409 against the
rules (or the clock), 403 not yours."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.methods import page
from games.bank import BankEmpty
from games.common.limits import creation_limit
from games.common.responses import answer, flash, go, message_page, start_again
from games.engines import domino as engine
from games.models import Level
from players.middleware import player_token

from . import fragments, play, solo
from .models import DominoGame
from .panels import RECOMMENDED_LEVEL
from .presenters import game_view, move_answer, refusal_message
from .records import player_records


def _home_context(request, error=None):
    solo.settle_overdue(player=request.player)
    return {
        "levels": Level.choices,
        "recommended": RECOMMENDED_LEVEL,
        "error": error,
        "current_game": solo.current_game(request.player),
        "records": player_records(request.player),
    }


@page
def domino_home(request):
    return render(request, "domino/home.html", _home_context(request))


@require_POST
@creation_limit("game")  # games/common/limits.py: per profile and per IP
def domino_new(request):
    try:
        game = solo.start_game(request.player, request.POST.get("level", ""))
    except (engine.BadMove, BankEmpty) as error:
        return start_again(request, "domino/home.html", _home_context(request, str(error)), error)
    return go(request, reverse("domino_game", args=[game.pk]))


def _context(game: DominoGame, now, outcome=None, action=None, joker_mode=None, error=None, oob=False):
    context = game_view(game.engine_state(), now.timestamp(), outcome, action, joker_mode)
    context.update(game=game, error=error, oob=oob)
    if not game.finished and now < game.started_at:  # a first game's clock waits for the walkthrough
        context.update(clock_waiting=True, seconds_left_whole=int((game.started_at - now).total_seconds()))
    return context


def _not_yours(request) -> HttpResponse:
    if request.htmx:
        return flash(request, _("That game is not yours."), 403)
    return message_page(request, _("Not your game"), _("That Sudoku Domino game belongs to another player."), 403)


def _render_game(request, context, status=200) -> HttpResponse:
    template = "domino/game.html#game" if request.htmx else "domino/game.html"
    return render(request, template, context, status=status)


def _joker_mode(state: engine.State, raw) -> tuple[str | None, str | None, int]:
    """(mode, error, status) for the ?joker= choice."""
    if raw in (None, ""):
        return None, None, 200
    if raw not in engine.JOKERS:
        return None, _("The joker must be grey or gold."), 400
    if state.finished:
        return None, _("The game is over."), 409
    if state.jokers_left[raw] <= 0:
        return None, _("No grey jokers left.") if raw == "grey" else _("No gold jokers left."), 409
    return raw, None, 200


@page
def domino_game(request, game_id: int):
    game = get_object_or_404(DominoGame, pk=game_id)
    if game.player_id != request.player.pk:
        return _not_yours(request)
    now = timezone.now()
    if game.is_overdue(now):
        game = solo.settle(game.pk, now) or game  # None: deleted meanwhile; show what was read
    mode, error, status = _joker_mode(game.engine_state(), request.GET.get("joker"))
    return _render_game(request, _context(game, now, joker_mode=mode, error=error, oob=bool(request.htmx)), status)


@require_POST
def domino_act(request, game_id: int):
    """Every move of a game: a push at an entry point or a joker on an empty cell.

    An htmx push answers with only what changed (presenters.move_answer), and so does a
    refusal that changes nothing (the message). The whole game comes back for a joker
    (the board leaves joker mode), at the end of the game, for a move on an old board (a
    second tab, a lost answer: the page is behind) and when the page asks with ``full=1``."""
    now = timezone.now()
    if request.POST.get("clock") == "start":
        return _start_clock(request, game_id, now)
    full = request.POST.get("full") == "1"
    action = None
    try:
        action = play.parse_action(request.POST)
        played = solo.play_move(game_id, player_token(request), action, now)
    except solo.NotYourGame:
        return _not_yours(request)
    except engine.DominoError as error:
        status = 400 if isinstance(error, (engine.BadMove, engine.BadPosition)) else 409
        message = refusal_message(error, action)
        game = getattr(error, "game", None)  # play_move's read of the game, when it got that far
        plain = request.htmx and not full and not isinstance(action, play.Joker)
        if plain and not isinstance(error, (play.StaleBoard, engine.GameOver)):
            if game is None:  # malformed: nothing was read or changed
                return answer(fragments.message(message, "error", oob=True) + fragments.live(message, oob=True), status)
            state = game.engine_state()
            return answer(move_answer(state, state, now.timestamp(), error=message), status)
        game = game or DominoGame.objects.filter(pk=game_id, player=request.player).first()
        if game is None:
            return _not_yours(request)
        mode = None
        if isinstance(action, play.Joker) and isinstance(error, engine.CellOccupied):
            mode, _, _ = _joker_mode(game.engine_state(), action.kind)
        context = _context(game, now, joker_mode=mode, error=message, oob=bool(request.htmx))
        return _render_game(request, context, status)
    game, outcome = played.game, played.outcome
    status = 409 if outcome.kind == "time_up" else 200
    if not request.htmx and status == 200:
        return redirect("domino_game", game_id=game.pk)
    if full or game.finished or isinstance(action, play.Joker) or not request.htmx:
        return _render_game(request, _context(game, now, outcome, action, oob=bool(request.htmx)), status)
    return answer(move_answer(played.before, played.after, now.timestamp(), outcome, action), status)


def _start_clock(request, game_id: int, now):
    """The walkthrough is over (done or skipped): a first game's waiting clock starts."""
    try:
        game = solo.start_clock(game_id, player_token(request), now)
    except solo.NotYourGame:
        return _not_yours(request)
    if not request.htmx:
        return redirect("domino_game", game_id=game.pk)
    return _render_game(request, _context(game, now, oob=True))
