"""Reminders for scheduled showdowns (docs/rules.md 1): the browsers that accepted Web Push, the
server's VAPID key pair, and one Reminder row per message sent, which is what makes each
reminder go out at most once per guest, channel, kind and schedule."""

from django.db import models


class VapidKey(models.Model):
    """The embedded default's VAPID key pair, made once (notify/keys.py); VAPID_PRIVATE_KEY
    in the environment takes its place in production."""

    private_key = models.CharField(max_length=64, help_text="base64url of the raw P-256 private key")
    public_key = models.CharField(max_length=100, help_text="base64url of the uncompressed public point")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"VAPID key {self.public_key[:12]}…"


class PushSubscription(models.Model):
    """One browser's push endpoint (PushManager.subscribe), for the profile of that browser."""

    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveSmallIntegerField(
        default=0, help_text="failed sends in a row; at notify.webpush.MAX_FAILURES it is dropped"
    )

    def __str__(self):
        return f"{self.player} at {self.endpoint[:40]}…"

    def info(self) -> dict:
        """What pywebpush calls subscription_info (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Reminder(models.Model):
    """A message to one guest through one channel: claimed (this row written) before it is
    sent, so a second beat, a redelivered task or a racing worker finds the row and sends
    nothing. `sequence` is the room's schedule_sequence it was due for: a moved showdown's
    reminders for the old time are never claimed."""

    class Kind(models.TextChoices):
        READY = "ready", "ready room opens"
        START = "start", "host started"
        MOVED = "moved", "moved"
        CANCELLED = "cancelled", "cancelled"

    class Channel(models.TextChoices):
        PUSH = "push", "Web Push"
        EMAIL = "email", "email"

    class Status(models.TextChoices):
        CLAIMED = "claimed", "claimed"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"
        NOWHERE = "nowhere", "nowhere to send"

    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="reminders")
    guest = models.ForeignKey("rooms.Guest", on_delete=models.CASCADE, related_name="reminders")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    sequence = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CLAIMED)
    detail = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "guest", "channel", "kind", "sequence"], name="one_reminder_per_guest_channel_kind"
            )
        ]

    def __str__(self):
        return f"{self.room_id} {self.kind}#{self.sequence} {self.channel} to guest {self.guest_id}: {self.status}"
