from django.db import models

from players.models import Profile


class ShowdownResult(models.Model):
    """One player's summary of one room's final results (RULES.md "After the showdown")."""

    player = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="showdown_results")
    room_code = models.CharField(max_length=6)
    game = models.CharField(max_length=12, default="showdown")
    placement = models.PositiveSmallIntegerField()
    player_count = models.PositiveSmallIntegerField()
    difficulty = models.CharField(max_length=8)
    preset = models.CharField(max_length=10)
    status = models.CharField(max_length=10)
    seconds = models.FloatField(null=True, blank=True)
    score = models.IntegerField()
    mistakes = models.PositiveIntegerField()
    hints = models.PositiveIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at"]
        constraints = [models.UniqueConstraint(fields=["player", "room_code"], name="one_result_per_room")]

    @property
    def is_custom(self) -> bool:
        return self.preset == "custom"
