"""The reminder job: Celery beat runs it (config/settings.py), `manage.py run_jobs` in the
embedded default. Run twice, or at once on two workers, it sends each reminder once."""

from celery import shared_task

from arenas.reminders import send_all as send_arena_reminders

from .reminders import send_all


@shared_task
def send_reminders() -> int:
    """Every reminder due now (ready room open, host started, moved, cancelled; an arena about
    to start, or started)."""
    return send_all() + send_arena_reminders()
