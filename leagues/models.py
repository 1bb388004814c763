"""Weekly leagues (docs/rules.md 11): each week every signed-in player who played is placed in
a league of up to LEAGUE_SIZE of their tier; the week's close moves the top up, the bottom down."""

from django.conf import settings
from django.db import models


class Tier(models.Model):
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    tier = models.PositiveSmallIntegerField(default=1)


class League(models.Model):
    week = models.DateField(help_text="The Monday (UTC) the week starts")
    tier = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField(help_text="1, 2, ... among the week's leagues of this tier")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["week", "tier", "number"], name="one_league_number")]


class Member(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    week = models.DateField()
    # Written by the week's close; the live table computes them (leagues/points.py).
    points = models.PositiveIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=4, blank=True, default="", help_text="up, down, stay")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "week"], name="one_league_a_week")]


class ClosedWeek(models.Model):
    """A week whose close ran: the unique row makes a second run (or a redelivered task) a no-op."""

    week = models.DateField(unique=True)
    closed_at = models.DateTimeField(auto_now_add=True)
    players = models.PositiveIntegerField(default=0)
