"""Personal Solo Run boards (Classic and Assisted per difficulty), ranked per docs/rules.md."""

from dataclasses import dataclass

from django.db.models import Count, F
from django.utils.translation import gettext

from games.engines.ranking import places
from games.models import Level, SoloRun
from players.identity import record_filter

RECENT = 10
TOP = 10


def _classic_key(run):
    return (run.elapsed, run.mistakes, -run.score)


def _assisted_key(run):
    return (run.hints, run.mistakes, run.elapsed, -run.score)


@dataclass
class SoloBoard:
    level: str
    level_label: str
    kind: str  # "Classic" or "Assisted"
    entries: list  # (place, run)
    best: SoloRun | None
    recent_average: float | None
    completions: int
    url: str = ""  # the tab that shows this board (the stats page sets it)
    current: bool = False

    @property
    def kind_label(self) -> str:
        return gettext("Assisted") if self.kind == "Assisted" else gettext("Classic")


def solo_board(player, level: str, assisted: bool) -> SoloBoard:
    finished = SoloRun.objects.filter(  # practice runs of past dailies are replays: never a record
        record_filter(player), practice=False, level=level, state=SoloRun.State.FINISHED, assisted=assisted
    )
    key = _assisted_key if assisted else _classic_key
    # Equal results share a place; the earlier finish is listed first.
    ranked = sorted(finished, key=lambda run: (*key(run), run.finished_at, run.pk))
    entries = places(ranked[:TOP], key)
    recent = list(finished.order_by(F("finished_at").desc())[:RECENT])
    times = [r.elapsed for r in recent if r.elapsed is not None]
    average = sum(times) / len(times) if times else None
    return SoloBoard(
        level,
        Level(level).label,
        "Assisted" if assisted else "Classic",
        entries,
        ranked[0] if ranked else None,
        average,
        len(ranked),
    )


def solo_boards(player) -> list[tuple[str, list[SoloBoard]]]:
    return [
        (label, [solo_board(player, level, False), solo_board(player, level, True)]) for level, label in Level.choices
    ]


CHART_RUNS = 20


def board_counts(player) -> dict[tuple[str, bool], int]:
    """Finished runs per (level, assisted), for the level and board filters."""
    rows = (
        SoloRun.objects.filter(record_filter(player), practice=False, state=SoloRun.State.FINISHED)
        .values("level", "assisted")
        .annotate(n=Count("id"))
    )
    return {(row["level"], row["assisted"]): row["n"] for row in rows}


def recent_times(player, level: str, assisted: bool, count=CHART_RUNS) -> list[float]:
    """The latest finishes' times on one board, oldest first (for the chart)."""
    times = (
        SoloRun.objects.filter(
            record_filter(player), practice=False, level=level, state=SoloRun.State.FINISHED, assisted=assisted
        )
        .order_by("-finished_at")
        .values_list("elapsed", flat=True)[:count]
    )
    return [t for t in reversed(list(times)) if t is not None]


def latest_solo(player) -> SoloRun | None:
    return (
        SoloRun.objects.filter(
            record_filter(player), practice=False, state=SoloRun.State.FINISHED, finished_at__isnull=False
        )
        .order_by("-finished_at")
        .only("level", "assisted", "finished_at")
        .first()
    )
