"""The periodic jobs without Celery beat (the embedded default has no Redis broker):
`make run` starts this beside the web server. With REDIS_URL, run Celery beat instead."""

import time

from django.core.management.base import BaseCommand

from games.bank import fill_bank
from games.daily.tasks import choose_daily_puzzles
from games.domino.tasks import sweep_overdue_domino_games
from notify.tasks import send_reminders
from pool.tasks import tick_pools
from rooms.tasks import sweep_rooms


class Command(BaseCommand):
    help = (
        "Run the room lifecycle sweeps, the reminders, the Race now pools, the puzzle bank top-up and the daily"
        " puzzles' choice"
        " every --every seconds."
    )

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=15.0)
        parser.add_argument("--once", action="store_true", help="run each job once and exit")

    def handle(self, *args, every=15.0, once=False, **options):
        last_fill = 0.0
        while True:
            rooms = sweep_rooms()
            domino = sweep_overdue_domino_games()
            reminders = send_reminders()  # scheduled showdowns: each reminder once
            tick_pools()  # Race now: pair who waits, refresh the home page's counts
            if time.monotonic() - last_fill > 60 or once:
                fill_bank()
                dailies = choose_daily_puzzles()  # idempotent: only dates still without their dailies
                if dailies:
                    self.stdout.write(f"daily puzzles chosen: {dailies}")
                last_fill = time.monotonic()
            if rooms or domino or reminders:
                self.stdout.write(f"rooms changed: {rooms}, domino games ended: {domino}, reminders sent: {reminders}")
            if once:
                return
            time.sleep(every)
