"""Who may see a replay or race a ghost (docs/rules.md 10, "Secrecy"): a replay shows the
solution, so a daily's opens to a player only once that player finished that daily, or
once the daily closed everywhere (games.daily.play.runs_hidden). A running room has no
tracks, so no replay at all."""

from games.daily.play import runs_hidden as daily_locked

__all__ = ["daily_locked"]
