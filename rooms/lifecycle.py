"""When a room moves on by itself: the room timing constants, and the six rules that
expire unstarted scheduled rooms, idle lobbies and old results, end games at the safety
limit or at a game type's time limit, and start play when the countdown ends.

Pure (no ORM, no Django): the write path asks `overdue_state` of one room in memory, the
periodic sweep (rooms/tasks.py `due_rooms`) builds its one query from the same `RULES`,
and a live owner's clock (rooms/owner.py) wakes at their `moments`, so the three cannot
disagree about when a room is due.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from games.engines.text import _

LOBBY_IDLE = timedelta(minutes=30)
READY_ROOM_OPENS = timedelta(minutes=15)  # before a scheduled start
SCHEDULED_GRACE = timedelta(minutes=30)  # after it, an unstarted scheduled room expires
SCHEDULE_AHEAD = timedelta(days=30)
SAFETY_LIMIT = timedelta(hours=2)
RESULTS_KEPT = timedelta(hours=24)

RUNNING = ("countdown", "playing")


@dataclass(frozen=True)
class Rule:
    """A room in one of `states` is due for `outcome` once `after` has passed since its
    `since` moment: strictly later when `strict`, else from that moment on."""

    outcome: str  # "play", "finish" or "expired:<the reason players read>"
    states: tuple[str, ...]
    since: str  # a Room datetime field; a room without that moment is never due by this rule
    after: timedelta | None  # None: the game type's time limit (a game without one: never)
    strict: bool = True
    unscheduled: bool = False  # only rooms without a scheduled start


# In order: the first rule a room meets says what happens to it.
RULES = (
    Rule(
        "expired:" + _("The host did not start the scheduled showdown within 30 minutes of its time."),
        ("lobby",),
        "scheduled_for",
        SCHEDULED_GRACE,
    ),
    Rule(
        "expired:" + _("The lobby was idle for 30 minutes."), ("lobby",), "last_activity", LOBBY_IDLE, unscheduled=True
    ),
    Rule("expired:" + _("Final results are kept for 24 hours."), ("finished",), "finished_at", RESULTS_KEPT),
    Rule("finish", RUNNING, "starts_at", SAFETY_LIMIT),
    Rule("finish", RUNNING, "starts_at", None, strict=False),  # a timed game, even with nobody connected
    Rule("finish", ("playing",), "ends_at", timedelta(0), strict=False),  # an arena's room (docs/rules.md 12)
    Rule("play", ("countdown",), "starts_at", timedelta(0), strict=False),
)


def due_at(rule: Rule, room, time_limit: timedelta | None) -> datetime | None:
    """The moment `rule` makes `room` due, or None if it never does."""
    since = getattr(room, rule.since)
    after = time_limit if rule.after is None else rule.after
    if room.state not in rule.states or since is None or after is None:
        return None
    if rule.unscheduled and room.scheduled_for is not None:
        return None
    return since + after


def overdue_state(room, now: datetime, time_limit: timedelta | None) -> str | None:
    """Why a room should already have moved on ("play", "finish", "expired:<reason>"), or
    None; `time_limit` is its game type's. Pages treat overdue rooms the same way."""
    for rule in RULES:
        moment = due_at(rule, room, time_limit)
        if moment is not None and (now > moment if rule.strict else now >= moment):
            return rule.outcome
    return None


def moments(room, time_limit: timedelta | None) -> list[datetime]:
    """Every moment at which a rule will make the room due (some may have passed)."""
    return [moment for rule in RULES if (moment := due_at(rule, room, time_limit)) is not None]


def ready_room_opens(room) -> datetime | None:
    return room.scheduled_for - READY_ROOM_OPENS if room.scheduled_for else None
