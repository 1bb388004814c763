"""Replay every rated room from the starting rating (stats.ratings.recompute): after a change
of the model's constants, or to check that the stored numbers are what the model gives."""

from django.core.management.base import BaseCommand

from stats import ratings


class Command(BaseCommand):
    help = "Recompute every Showdown rating from the rated rooms, in the order they were rated."

    def handle(self, *args, **options):
        differing = ratings.recompute()
        self.stdout.write(f"Ratings recomputed: {differing} rating changes differed from the stored numbers.")
