from celery import shared_task

from . import close, placement


@shared_task
def place_room(room_id: int) -> None:
    placement.place_room(room_id)


@shared_task
def close_weeks() -> int | None:
    return close.close_ended()
