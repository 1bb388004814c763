"""Make every account's best Solo Runs (games.models.SoloBest, the boards across accounts)
again from the runs (games.bests.rebuild): a check that the rows kept at each write are
what the runs give (it says how many differed), or a repair after runs were changed
outside the app."""

from django.core.management.base import BaseCommand

from games.bests import rebuild
from games.models import SoloBest


def _rows() -> set:
    return set(SoloBest.objects.values_list("account_id", "level", "assisted", "run_id"))


class Command(BaseCommand):
    help = "Rebuild every account's best Solo Run per board (the all-time rankings across accounts) from the runs."

    def handle(self, *args, **options):
        kept = _rows()
        made = rebuild()
        differing = len(kept ^ _rows())
        self.stdout.write(f"Solo Run bests rebuilt: {made} rows; {differing} differed from the kept rows.")
