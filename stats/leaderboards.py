"""Personal Solo Run boards (Classic and Assisted per difficulty), ranked per RULES.md."""

from dataclasses import dataclass

from django.db.models import F

from games.models import Level, SoloRun

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


def solo_board(player, level: str, assisted: bool) -> SoloBoard:
    finished = SoloRun.objects.filter(player=player, level=level, state=SoloRun.State.FINISHED,
                                      assisted=assisted)
    key = _assisted_key if assisted else _classic_key
    # Equal results share a place; the earlier finish is listed first.
    ranked = sorted(finished, key=lambda run: (*key(run), run.finished_at, run.pk))
    entries, previous = [], None
    for position, run in enumerate(ranked[:TOP], start=1):
        place = entries[-1][0] if previous is not None and key(run) == previous else position
        entries.append((place, run))
        previous = key(run)
    recent = list(finished.order_by(F("finished_at").desc())[:RECENT])
    average = sum(r.elapsed for r in recent) / len(recent) if recent else None
    return SoloBoard(level, Level(level).label, "Assisted" if assisted else "Classic", entries,
                     ranked[0] if ranked else None, average, len(ranked))


def solo_boards(player) -> list[tuple[str, list[SoloBoard]]]:
    return [(label, [solo_board(player, level, False), solo_board(player, level, True)])
            for level, label in Level.choices]
