"""Friends (docs/rules.md 11): handles, follows (a mutual follow is a friendship), blocks,
nudges, the in-site notifications, and who is online doing what."""

from django.conf import settings
from django.db import models

from .handles import MAX_LENGTH

User = settings.AUTH_USER_MODEL


class Member(models.Model):
    """An account's public side: its handle, chosen once, and its choices."""

    account = models.OneToOneField(User, primary_key=True, on_delete=models.CASCADE, related_name="member")
    handle = models.CharField(max_length=MAX_LENGTH, unique=True, help_text="Folded (friends/handles.py)")
    findable = models.BooleanField(default=True, help_text="Found by a search for the handle")
    notify_push = models.BooleanField(default=True, help_text="Invites and nudges by Web Push too")
    notify_email = models.BooleanField(default=False, help_text="Invites and nudges by email too")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"@{self.handle}"


class Follow(models.Model):
    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following")
    followee = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followee")), name="follow_not_self"),
        ]
        # the reverse lookup (who follows me) that makes a friendship a join of two indexes
        indexes = [models.Index(fields=["followee", "follower"])]


class Block(models.Model):
    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")]


class Nudge(models.Model):
    """One a day per friend (UTC day): the unique row is the limit."""

    sender = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    receiver = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sender", "receiver", "day"], name="nudge_once_a_day")]


class Notification(models.Model):
    class Kind(models.TextChoices):
        INVITE = "invite", "invite"
        NUDGE = "nudge", "nudge"
        FOLLOW = "follow", "follow"

    account = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    actor = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    room_code = models.CharField(max_length=12, blank=True, default="")
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["account", "read_at"])]


class Presence(models.Model):
    """One open page of a signed-in player (its socket): what they do there. Rows of a process
    that died stop being refreshed and are ignored after PRESENCE_STALE_SECONDS."""

    channel = models.CharField(max_length=100, primary_key=True)
    account = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+", db_index=True)
    what = models.CharField(max_length=8, help_text="online, room, pool, daily, solo")
    where = models.CharField(max_length=12, blank=True, default="", help_text="The room's code, the daily's level")
    seen_at = models.DateTimeField()
