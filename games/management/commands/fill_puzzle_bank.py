from django.core.management.base import BaseCommand

from games.bank import fill_bank


class Command(BaseCommand):
    help = "Top up the puzzle bank to --target unused puzzles per level."

    def add_arguments(self, parser):
        parser.add_argument("--target", type=int, default=None)

    def handle(self, *args, target=None, **options):
        made = fill_bank(target)
        for level, count in made.items():
            self.stdout.write(f"{level}: generated {count}")
