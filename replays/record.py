"""Tracks from what the server logged (docs/rules.md 10): a finished Showdown room's move log,
a finished Solo Run's log. Each is recorded once (idempotent), when the room or run
finishes, and by the periodic job for any finished room still without its tracks."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from games.engines import race
from games.models import SoloRun
from rooms.gametypes import game_for
from rooms.models import Room, RoomEvent

from . import tracks
from .models import Track

RECORDED_GAMES = ("showdown",)  # the duels' boards are not Sudoku's: no replay of them yet


def record_room(room: Room) -> list[Track]:
    """Every seat's track of a finished Showdown room (none for a room still running)."""
    if room.game not in RECORDED_GAMES or room.state != Room.State.FINISHED or room.starts_at is None:
        return []
    found = list(Track.objects.filter(room_code=room.code).select_related("puzzle"))
    if found or room.puzzle_id is None:
        return found
    rules = game_for(room).rules(room)
    puzzle = room.puzzle
    assert puzzle is not None
    moves: dict[int, list] = defaultdict(list)
    logged = (
        RoomEvent.objects.filter(room=room, seat__isnull=False, created_at__gte=room.starts_at)
        .order_by("version")
        .values_list("seat_id", "kind", "data", "created_at")
    )
    for seat_id, kind, data, at in logged:
        detail = data.get("notes") if kind == "setnotes" else data.get("digit")
        moves[seat_id].append((round((at - room.starts_at).total_seconds() * 1000), kind, data.get("cell"), detail))
    made = []
    for seat in room.seats.select_related("player"):
        recorded = tracks.record(puzzle.givens, puzzle.solution, rules, moves[seat.pk])
        finish_ms = round(seat.finish_seconds * 1000) if seat.status == "finished" and seat.finish_seconds else None
        made.append(
            _track(
                recorded,
                puzzle=puzzle,
                player=seat.player,
                room_code=room.code,
                delayed=rules.delayed,
                place=seat.place,
                status=seat.status,
                finish_ms=finish_ms,
                finished_at=room.finished_at or timezone.now(),
            )
        )
    with transaction.atomic():
        Track.objects.bulk_create(made, ignore_conflicts=True)
    return list(Track.objects.filter(room_code=room.code).select_related("puzzle"))


def record_run(run: SoloRun) -> Track | None:
    """A finished Solo Run's track (a daily's too), from its log; None for a run without one
    (runs finished before every run kept its log)."""
    if run.state != SoloRun.State.FINISHED or run.log is None:
        return None
    puzzle = run.puzzle
    recorded = tracks.record(puzzle.givens, puzzle.solution, race.STANDARD, run.log)
    track = _track(
        recorded,
        puzzle=puzzle,
        player=run.player,
        run=run,
        daily_id=run.daily_id,
        ranked=run.daily_id is not None and not run.practice,
        place=None,
        status="finished",
        finish_ms=round((run.elapsed or 0) * 1000),
        finished_at=run.finished_at or timezone.now(),
    )
    Track.objects.bulk_create([track], ignore_conflicts=True)
    return Track.objects.filter(run=run).first()


def _track(recorded: tracks.Recorded, *, puzzle, player, finish_ms, **fields) -> Track:
    last = recorded.events[-1][0] if recorded.events else 0
    return Track(
        puzzle=puzzle,
        level=puzzle.level,
        player=player,
        name=player.display_name,
        finish_ms=finish_ms,
        length_ms=max(last, finish_ms or 0),
        mistakes=recorded.mistakes,
        hints=recorded.hints,
        splits=recorded.splits,
        events=tracks.pack(recorded.events),
        **fields,
    )


def record_finished_rooms(limit: int = 200) -> int:
    """The periodic job's turn: finished Showdown rooms that have no tracks yet (their
    finish was recorded by a process that went away first, or before replays existed)."""
    recorded = Track.objects.exclude(room_code="").values("room_code")
    due = (
        Room.objects.filter(game__in=RECORDED_GAMES, state=Room.State.FINISHED, starts_at__isnull=False)
        .exclude(code__in=recorded)
        .select_related("puzzle")
        .order_by("-finished_at")[:limit]
    )
    return sum(1 for room in due if record_room(room))
