from celery import shared_task

from rooms.models import Room

from . import record


def run_finished(sender, run, **kwargs):
    record.record_run(run)


def room_finished(sender, room_id, **kwargs):
    record_room.delay(room_id)


@shared_task
def record_room(room_id: int) -> int:
    room = Room.objects.filter(pk=room_id).select_related("puzzle").first()
    return len(record.record_room(room)) if room is not None else 0


@shared_task
def record_finished_rooms() -> int:
    """Beat's sweep for rooms whose tracks were never recorded (a worker went away)."""
    return record.record_finished_rooms()
