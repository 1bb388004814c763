"""Friend streaks and the bests a public profile shows (docs/rules.md 11)."""

import datetime as dt

from games.daily.days import streaks
from games.models import Level, SoloBest, SoloRun


def daily_dates(account_ids, since: dt.date) -> dict[int, set[dt.date]]:
    """Each account's dates with a ranked daily finished (not voided), from `since` on."""
    found: dict[int, set[dt.date]] = {i: set() for i in account_ids}
    rows = (
        SoloRun.objects.filter(
            player__account_id__in=list(account_ids),
            daily__isnull=False,
            daily__date__gte=since,
            practice=False,
            state=SoloRun.State.FINISHED,
        )
        .exclude(review=SoloRun.Review.VOIDED)
        .values_list("player__account_id", "daily__date")
        .distinct()
    )
    for account_id, date in rows:
        found[account_id].add(date)
    return found


def friend_streaks(me: int, friends: list[int], today: dt.date) -> dict[int, int]:
    """Each friend's shared streak with `me`: consecutive dates on which both finished a daily
    (each date is the player's own local day: a daily's date), ending today or yesterday."""
    if not friends:
        return {}
    dates = daily_dates([me, *friends], today - dt.timedelta(days=400))
    mine = dates[me]
    return {friend: streaks(mine & dates[friend], today)[0] for friend in friends}


def solo_bests(account_id: int) -> list[dict]:
    """The account's best Classic Solo Run per level (its rows on the all-time boards)."""
    labels = dict(Level.choices)
    rows = SoloBest.objects.filter(account_id=account_id, assisted=False).values("level", "elapsed", "mistakes")
    order = list(labels)
    return sorted(
        ({"level": labels.get(r["level"], r["level"]), "key": r["level"], **r} for r in rows),
        key=lambda r: order.index(r["key"]) if r["key"] in order else 99,
    )
