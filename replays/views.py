"""Replays of finished races and ghost races (docs/rules.md 10)."""

from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.methods import page
from games.common.limits import creation_limit
from games.common.responses import message_page
from games.common.times import format_seconds
from games.models import SoloRun
from games.sudoku import solo
from rooms.api import normalize_code
from rooms.models import Room

from . import access, presenters, record
from .models import Track


def _refused(request, title, message, status):
    return message_page(request, title, message, status, error=True)


def _daily_refused(request):
    return _refused(
        request,
        _("Not yet"),
        _("This daily's replays and ghosts open once you have finished it, or when it has closed everywhere."),
        403,
    )


@page
def room_replay(request, code: str):
    room = Room.objects.filter(code=normalize_code(code)).select_related("puzzle").first()
    if room is None:
        return _refused(request, _("Replay not found"), _("No room has that code."), 404)
    if room.state != Room.State.FINISHED:
        return _refused(request, _("No replay yet"), _("A race has a replay once it is over."), 404)
    found = record.record_room(room)  # recorded at its finish; a room finished before replays is recorded now
    if not found:
        return _refused(request, _("No replay"), _("Only a finished Sudoku Showdown has a replay."), 404)
    return _replay(request, found, room=room)


@page
def run_replay(request, run_id: int):
    run = SoloRun.objects.filter(pk=run_id).select_related("puzzle", "player", "daily").first()
    if run is None or run.state != SoloRun.State.FINISHED:
        return _refused(request, _("Replay not found"), _("A Solo Run has a replay once it is finished."), 404)
    track = Track.objects.filter(run=run).select_related("puzzle").first() or record.record_run(run)
    if track is None:
        return _refused(request, _("No replay"), _("This run finished before runs were recorded."), 404)
    if access.daily_locked(request.player, run.daily):
        return _daily_refused(request)
    return _replay(request, [track], run=run)


def _replay(request, found: list[Track], room=None, run=None):
    lanes, length = presenters.lanes(found)
    puzzle = found[0].puzzle
    context = {
        "room": room,
        "run": run,
        "lanes": lanes,
        "length": length,
        "board": presenters.board_html(puzzle.givens),
        "to_fill": puzzle.givens.count("0"),
        "speeds": ("1", "4", "16"),
        "length_text": format_seconds(length / 1000),
        "level": puzzle.get_level_display(),
        "data": {"length": length, "givens": puzzle.givens, "lanes": [lane.data for lane in lanes]},
    }
    return render(request, "replays/replay.html", context)


@require_POST
@creation_limit("game")
def race_ghost(request, track_id: int):
    """A Solo Run on the ghost's puzzle, with the ghost as its rival: practice on a daily
    (never a second ranked attempt), an ordinary Solo Run otherwise."""
    track = Track.objects.filter(pk=track_id).select_related("puzzle", "daily").first()
    if track is None:
        return _refused(request, _("Ghost not found"), _("That ghost is not here any more."), 404)
    if access.daily_locked(request.player, track.daily):
        return _daily_refused(request)
    run = solo.new_run(
        request.player, track.puzzle, ghost=track, daily=track.daily, practice=track.daily_id is not None
    )
    return redirect("solo_run", run_id=run.pk)
