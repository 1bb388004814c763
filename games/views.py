from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from config.methods import page
from games import responses
from games.engines import race
from games.responses import busy, flash
from players.middleware import player_token

from . import guide, i18n, solo
from .bank import BankEmpty
from .limits import creation_limit
from .models import Level, SoloRun
from .presenters import board_rows, digit_pad
from .sudoku import fragments, play
from .zones import time_zones


def _home_context(player, **extra):
    # The home page shows the rooms' games and the stats' panels: apps built on this one,
    # imported here only (games/ imports neither at its top).
    from pool import counts
    from rooms.gametypes import GAME_TYPES
    from stats.panels import home_panels

    room_games = [(key, _(game.menu_label)) for key, game in GAME_TYPES.items()]
    waiting, racing = counts.read()
    return {
        "levels": Level.choices,
        "pool_waiting": waiting,
        "pool_racing": racing,
        "time_zones": time_zones(),
        "room_games": room_games,
        **home_panels(player),
        **extra,
    }


@page
def home(request):
    from .daily.views import player_zone, today_context

    tz, name, _error = player_zone(request)  # the browser's zone (static/js/daily.js), UTC until it says
    daily = today_context(request.player, tz)
    account_id = getattr(request.player, "account_id", None)
    friends = {}
    if account_id is not None:  # the panel arrives on the player's own socket (friends/consumers.py)
        friends = {"friends_panel": True, "friends_today": friends_today(account_id, daily["daily_states"])}
    return render(request, "home.html", _home_context(request.player, daily_zone=name, **daily, **friends))


def friends_today(account_id: int, states) -> list[dict]:
    """Today's dailies the player finished (or gave up), each with the friends' results on it:
    never before, so nobody's time spoils the puzzle (docs/rules.md 11)."""
    from friends.graph import circle

    from .daily.boards import among

    shown = []
    for s in states:
        if s.state in ("finished", "dnf"):
            rows = among(s.daily.pk, circle(account_id, "player__account_id"))
            if any(r.account_id != account_id for r in rows):
                shown.append({"daily": s.daily, "rows": rows})
    return shown


@page
def how_to_play(request):
    guides = {"sudoku": guide.sudoku_picture(), "cardoku": guide.cardoku_picture(), "domino": guide.domino_picture()}
    presets = [(i18n.PRESETS[key], rules) for key, rules in race.PRESETS.items()]
    return render(request, "how_to_play.html", {"presets": presets, "guide": guides})


@require_POST
@creation_limit("game")  # games/limits.py: per profile and per IP
def solo_new(request):
    try:
        run = solo.start_run(request.player, request.POST.get("level", ""))
    except race.MalformedMove as error:
        return render(request, "home.html", _home_context(request.player, error=str(error)), status=400)
    except BankEmpty as error:
        return busy(render(request, "home.html", _home_context(request.player, error=str(error)), status=503))
    if request.htmx:
        return HttpResponseClientRedirect(reverse("solo_run", args=[run.pk]))
    return redirect("solo_run", run_id=run.pk)


def _game_context(run: SoloRun, outcome=None, selected=None, mode="enter", error=None, board=None, notice=None):
    board = board or run.get_board()
    if selected is None and outcome is not None:
        selected = outcome.cell
    return {
        "run": run,
        "board": board,
        "rows": board_rows(board, selected, outcome),
        "outcome": outcome,
        "error": error,
        "notice": notice,  # a rule that just applied (a pause over 10 s: Assisted)
        "selected": selected,
        "mode": mode,
        "rules": run.rules,
        "hints_left": run.rules.hint_limit - board.hints,
        "fillable": run.assisted,  # Fill notes, Assisted runs only (games/solo.py)
        "pad": digit_pad(board),
        "version": run.moves,
        # The finish screen's comparisons and chart; `outcome` set: it was just reached (celebrate).
        "finish": solo.finish_summary(run) if run.state == SoloRun.State.FINISHED else None,
        "daily": run_daily_context(run) if run.daily_id else None,
        "ghosts": [run.ghost] if run.ghost_id else [],
        **_pause_rule(run),
    }


def _pause_rule(run: SoloRun) -> dict:
    """A paused ranked run's seconds left before the pause makes it Assisted (0: it will, at
    the resume), for the paused screen to say so as it happens; None when no rule applies."""
    if run.state != SoloRun.State.PAUSED or run.paused_at is None or run.assisted or not solo.ranked(run):
        return {"pause_left": None}
    away = (timezone.now() - run.paused_at).total_seconds()
    return {"pause_left": max(0.0, solo.PAUSE_GRACE - away), "paused_assisted": i18n.say(solo.PAUSED_ASSISTED)}


def run_daily_context(run: SoloRun) -> dict:
    """What a daily run's page shows beside Solo Run's: the daily, practice or ranked, and after
    a ranked finish the place, the streak, the share line, or the review hold."""
    from .daily import boards, days, play, review

    daily = run.daily
    context: dict = {"daily": daily, "practice": run.practice, "closes_at": run.closes_at}
    if run.state == SoloRun.State.FINISHED and not run.practice and daily is not None:
        current, longest = play.streak(run.player, daily.date)
        context.update(streak=current, longest_streak=longest, share=play.share_line(run, current))
        if run.review == SoloRun.Review.HELD:
            context["held"] = review.reason_text(run.review_reason)
        else:
            context["place"] = boards.own(run.player, daily.pk, boards.top(daily.pk))
    elif run.closes_at is not None and run.state != SoloRun.State.FINISHED:
        context["closed"] = days.closes_at(daily.date) <= timezone.now() if daily else False
    return context


@page
def solo_run(request, run_id: int):
    run = get_object_or_404(SoloRun.objects.select_related("puzzle", "player", "daily", "ghost__puzzle"), pk=run_id)
    account = request.player.account_id
    ours = account is not None and run.player.account_id == account
    if run.daily_id and ours:
        from .daily.play import take_over

        run = take_over(run, request.player)  # a daily continues on the account's other devices
    if run.player_id != request.player.pk and not (ours and run.state == SoloRun.State.FINISHED):
        return render(
            request,
            "message.html",
            {"title": _("Not your run"), "message": _("That Solo Run belongs to another player.")},
            status=403,
        )
    if run.daily is not None and run.state != SoloRun.State.FINISHED:
        request.presence = ("daily", run.daily.level)  # what friends see (friends/presence.py)
    return render(request, "games/solo.html", _game_context(run))


@require_POST
def solo_act(request, run_id: int):
    """Every move on a run comes here: digits, notes, hints, pause and resume.

    An htmx move answers with only what changed (games/sudoku/fragments.move_answer, swapped out
    of band; the form's own target is left alone). The whole game comes back on pause,
    resume and the finish, after a refusal the rules made, and when the page was behind
    (its version is not the run's: another tab moved, or an answer was lost)."""
    mode = play.parse_mode(request.POST)
    selected = play.parse_cell(request.POST)
    try:
        action = solo.parse_action(request.POST)
        played = solo.act(run_id, player_token(request), action)
    except solo.NotYourRun as error:
        return flash(request, str(error), 403)
    except race.MalformedMove as error:
        if request.htmx:  # nothing changed: the message alone
            return responses.answer(fragments.outcome_message(error=str(error), oob=True), 400)
        return _refused_game(request, run_id, str(error), 400, selected, mode)
    except race.IllegalMove as error:
        return _refused_game(request, run_id, str(error), 409, selected, mode)
    run, outcome = played.run, played.outcome
    if not request.htmx:
        return redirect("solo_run", run_id=run.pk)
    if (
        outcome is None
        or played.before is None
        or played.board is None
        or played.stale
        or run.state != SoloRun.State.PLAYING
    ):
        notice = solo.PAUSED_ASSISTED if played.newly_assisted and action.kind == "resume" else None
        context = _game_context(
            run, outcome, selected if outcome is None else None, mode, board=played.board, notice=notice
        )
        return render(request, "games/solo.html#game", context)
    answer = fragments.move_answer(
        played.before, played.board, outcome, selected=selected, hint_limit=run.rules.hint_limit, version=run.moves
    )
    if played.newly_assisted:  # the first hint, or one mistake too many: Fill notes appears with it
        answer += fragments.run_badge(True, oob=True) + fragments.fill_notes_button(True, oob=True)
    return responses.answer(answer)


def _refused_game(request, run_id, message, status, selected, mode):
    run = SoloRun.objects.filter(pk=run_id, player=request.player).first()
    if run is None:
        return flash(request, _("That run is not yours."), 403)
    if not request.htmx:
        return render(request, "games/solo.html", _game_context(run, None, selected, mode, message), status=status)
    return render(request, "games/solo.html#game", _game_context(run, None, selected, mode, message), status=status)
