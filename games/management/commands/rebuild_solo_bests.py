"""Make every account's best Solo Runs (games.models.SoloBest, the boards across accounts)
again from the runs (games.sudoku.bests.rebuild): a check that the rows kept at each write are
what the runs give (it says how many differed), or a repair after runs were changed
outside the app. Their bands' counts (games.models.SoloBand) are made again too."""

from django.core.management.base import BaseCommand

from games.models import SoloBand, SoloBest
from games.sudoku.bests import BAND, rebuild


def _rows() -> set:
    return set(SoloBest.objects.values_list("account_id", "level", "assisted", "run_id"))


def _bands() -> dict:
    return {tuple(key): runs for *key, runs in SoloBand.objects.filter(runs__gt=0).values_list(*BAND, "runs")}


class Command(BaseCommand):
    help = "Rebuild every account's best Solo Run per board (the all-time rankings across accounts) from the runs."

    def handle(self, *args, **options):
        kept, bands = _rows(), _bands()
        made = rebuild()
        differing = len(kept ^ _rows())
        self.stdout.write(f"Solo Run bests rebuilt: {made} rows; {differing} differed from the kept rows.")
        counted = _bands()
        miscounted = sum(bands.get(key) != counted.get(key) for key in bands.keys() | counted.keys())
        self.stdout.write(f"Their bands counted again: {len(counted)}; {miscounted} differed from the kept counts.")
