from django.db import models

from games.models import Level, Puzzle, SoloRun


class Daily(models.Model):
    """The day's puzzle of one level (docs/rules.md section 7), the same for everyone. Chosen
    ahead by games.daily.schedule; its puzzle is marked in the bank (Puzzle.for_daily) and
    is never given out anywhere else."""

    date = models.DateField()
    level = models.CharField(max_length=8, choices=Level.choices)
    puzzle = models.OneToOneField(Puzzle, on_delete=models.PROTECT, related_name="daily")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "level"]
        constraints = [models.UniqueConstraint(fields=["date", "level"], name="one_daily_per_date_and_level")]

    def __str__(self):
        return f"Daily {self.date.isoformat()} {self.get_level_display()}"


class ReviewedRun(SoloRun):
    """Ranked daily runs as the admin's review list sees them (games/daily/admin.py)."""

    class Meta:
        proxy = True
        verbose_name = "daily run under review"
        verbose_name_plural = "daily runs under review"
