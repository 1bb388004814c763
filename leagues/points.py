"""A league's points (docs/rules.md 11). For each daily finished in the week: 1 + the number of
the league's players behind on that daily's board, at most 10. For each public race (or arena
room): the opponents beaten. The rules are pure (score); the reads feed them in bulk, one query
for the dailies and one for the races however many leagues are scored."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable

DAILY_CAP = 10


def week_of(day: dt.date) -> dt.date:
    """The Monday starting `day`'s week (weeks run Monday 00:00 UTC to the next)."""
    return day - dt.timedelta(days=day.weekday())


def score(
    league_of: dict[int, int],
    daily_finishes: Iterable[tuple[int, int, tuple]],
    race_results: Iterable[tuple[str, int, int | None]],
) -> dict[int, int]:
    """Each account's points. `league_of`: account -> league. `daily_finishes`: (daily, account,
    board key) where a smaller key is a better place. `race_results`: (room, place, account or
    None for a player without an account), every result of each room."""
    points = dict.fromkeys(league_of, 0)
    boards: dict[tuple[int, int], dict[int, tuple]] = defaultdict(dict)
    for daily, account, key in daily_finishes:
        league = league_of.get(account)
        if league is None:
            continue
        best = boards[(league, daily)].get(account)
        if best is None or key < best:
            boards[(league, daily)][account] = key
    for board in boards.values():
        for account, key in board.items():
            behind = sum(1 for other in board.values() if other > key)
            points[account] += min(DAILY_CAP, 1 + behind)
    rooms: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
    for room, place, racer in race_results:
        rooms[room].append((place, racer))
    for seats in rooms.values():
        for place, racer in seats:
            if racer is not None and racer in points:
                points[racer] += sum(1 for other, _a in seats if other > place)
    return points


def board_key(elapsed: float, mistakes: int, hints: int, assisted: bool) -> tuple:
    """A daily board's order (games/daily/boards.py) as a key: Classic by time then mistakes,
    Assisted after them by hints, mistakes, time."""
    return (1, hints, mistakes, elapsed) if assisted else (0, elapsed, mistakes, 0)


def week_points(week: dt.date, league_of: dict[int, int], everyone: bool = False) -> dict[int, int]:
    """score() over the week's finishes of these accounts (`everyone`: the week's close, which
    scores every league at once, reads the whole week and filters here, not by 100,000 ids)."""
    from games.daily.boards import LISTED
    from games.models import SoloRun
    from rooms.models import Room, RoomResult

    if not league_of:
        return {}
    start = dt.datetime.combine(week, dt.time(), tzinfo=dt.UTC)
    end = start + dt.timedelta(days=7)
    mine = {} if everyone else {"player__account_id__in": list(league_of)}
    dailies = (
        SoloRun.objects.filter(LISTED, daily__date__gte=week, daily__date__lt=week + dt.timedelta(days=7))
        .filter(**mine)
        .values_list("daily_id", "player__account_id", "elapsed", "mistakes", "hints", "assisted")
    )
    public = Room.objects.filter(public=True, finished_at__gte=start, finished_at__lt=end).values("code")
    races = RoomResult.objects.filter(
        room_code__in=RoomResult.objects.filter(room_code__in=public, in_totals=True, **mine).values("room_code"),
        in_totals=True,
    ).values_list("room_code", "placement", "player__account_id")
    finishes = ((d, a, board_key(e or 0.0, m, h, s)) for d, a, e, m, h, s in dailies)  # LISTED: finished, timed
    return score(league_of, finishes, races)
