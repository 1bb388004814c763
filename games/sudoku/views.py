"""Solo Run's pages: a new run, its page, and every move on it (games/sudoku/solo.py writes)."""

from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.methods import page
from games.bank import BankEmpty
from games.common import i18n, responses
from games.common.limits import creation_limit
from games.common.responses import flash, go, message_page, start_again
from games.engines import race
from games.models import SoloRun
from players.middleware import player_token

from . import fragments, play, solo
from .presenters import board_rows, digit_pad


@require_POST
@creation_limit("game")  # games/common/limits.py: per profile and per IP
def solo_new(request):
    # The start form is on the home page: a refused start shows that page again with its
    # message (the one import of games/ from pages/, pyproject.toml's contract ignores it).
    from pages.views import home_context

    try:
        run = solo.start_run(request.player, request.POST.get("level", ""))
    except (race.MalformedMove, BankEmpty) as error:
        return start_again(request, "home.html", home_context(request.player, error=str(error)), error)
    return go(request, reverse("solo_run", args=[run.pk]))


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
        "fillable": run.assisted,  # Fill notes, Assisted runs only (games/sudoku/solo.py)
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
    from games.daily import boards, days, play, review

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
        from games.daily.play import take_over

        run = take_over(run, request.player)  # a daily continues on the account's other devices
    if run.player_id != request.player.pk and not (ours and run.state == SoloRun.State.FINISHED):
        return message_page(request, _("Not your run"), _("That Solo Run belongs to another player."), 403)
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
