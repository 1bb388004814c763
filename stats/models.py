"""The Showdown rating (docs/rules.md section 8; stats/ratings.py computes it): each account's
current rating, one row per finished Showdown room saying whether it was rated (and why
not), and one RatingChange per rated room and account, so a rating's history is a query
and a recomputation from scratch (manage.py recompute_ratings) replays the same rows."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """An account's current Showdown rating (the last RatingChange's `after`)."""

    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="showdown_rating"
    )
    # The profile that played the last rated room: the rankings show its display name
    # (one name per account) without a second query.
    profile = models.ForeignKey("players.Profile", null=True, on_delete=models.SET_NULL, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField(help_text="1500 + scale x (mu - 3 sigma) after the last rated room")
    rooms = models.PositiveIntegerField(default=0)
    last_room_at = models.DateTimeField()
    # The established players (not provisional, RANKING_MIN_ROOMS rated rooms) this account
    # has met in rated rooms: the top list needs RANKING_MIN_RIVALS of them (issue 45 item 4:
    # two extra addresses farmed a #1 in a day). `rivals` is their count, for the index.
    rival_ids = models.JSONField(default=list, blank=True)
    rivals = models.PositiveIntegerField(default=0)

    class Meta:
        # The rankings read the top in rating order and count the ranked players above one
        # rating: the gates' columns are in the index, so both read the index alone.
        indexes = [models.Index(fields=["-shown", "account", "rooms", "sigma", "last_room_at"], name="rating_rank_idx")]

    def __str__(self):
        return f"{self.account_id}: {self.shown}"


class RoomRating(models.Model):
    """Whether a finished Showdown room was rated, decided once in its final write."""

    class Reason(models.TextChoices):
        RATED = "", _("Rated")
        ANONYMOUS = "anonymous", _("Unrated: not every player was signed in.")
        CUSTOM = "custom", _("Unrated: custom rules are never rated.")
        HOST_OFF = "host_off", _("Unrated: the host turned rating off.")
        FEW = "few", _("Unrated: a rated room needs at least 2 signed-in players.")
        SAME_ACCOUNT = "same_account", _("Unrated: one account held two seats.")
        GROUP_LIMIT = "group_limit", _("Unrated: these players already had 5 rated rooms together today.")
        EARLY_FORFEIT = "early_forfeit", _("Unrated: a player forfeited in the first 30 seconds.")

    room = models.OneToOneField("rooms.Room", on_delete=models.CASCADE, related_name="rating")
    rated = models.BooleanField()
    reason = models.CharField(max_length=16, choices=Reason.choices, blank=True, default="")
    group = models.CharField(max_length=64, help_text="The seated accounts' ids, sorted, hashed")
    day = models.DateField(help_text="UTC date of the finish: the group's daily limit counts per day")
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["group", "day"], name="roomrating_group_day_idx")]

    def __str__(self):
        return f"room {self.room_id}: {'rated' if self.rated else self.reason}"


class RatingChange(models.Model):
    """One account's rating before and after one rated room. Unique per (room, account):
    rating a room twice (a retried final write) adds nothing."""

    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="rating_changes")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    profile = models.ForeignKey("players.Profile", null=True, on_delete=models.SET_NULL, related_name="+")
    rank = models.PositiveSmallIntegerField(help_text="The rating's rank: the room's place, leavers last")
    mu_before = models.FloatField()
    sigma_before = models.FloatField(help_text="After the idle growth, before the room")
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    before = models.IntegerField(help_text="The shown number before (idle growth applied)")
    after = models.IntegerField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["room", "account"], name="one_rating_change_per_room_player")]
        indexes = [models.Index(fields=["account", "at"], name="ratingchange_account_at_idx")]

    @property
    def delta(self) -> int:
        return self.after - self.before

    def __str__(self):
        return f"{self.account_id} in room {self.room_id}: {self.before} -> {self.after}"
