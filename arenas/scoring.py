"""An arena room's points (docs/rules.md 12). Pure: the room's places in, each player's points
and new fire state out.

- Points: the opponents the player ranks ahead of (placed strictly behind), by the room's
  normal ranking; a player who left scores 0.
- Fire: two first places in a row put a player on fire; from the next room on their points
  count double, until a room they do not win (that room is still doubled: the fire was lit
  before it).
- Berserk (notes off, chosen before the room): +1 on a first place, added after the doubling.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    entry: int
    place: int
    left: bool
    berserk: bool
    firsts: int  # first places in a row before this room
    seconds: float | None  # the finish time, for the tie-break


@dataclass(frozen=True)
class Scored:
    entry: int
    points: int
    firsts: int  # after this room
    fire: bool  # the points were doubled
    berserk: bool
    first: bool
    left: bool


def score(seats: list[Seat]) -> list[Scored]:
    scored = []
    for seat in seats:
        if seat.left:
            scored.append(Scored(seat.entry, 0, 0, False, seat.berserk, False, True))
            continue
        beaten = sum(1 for other in seats if other.place > seat.place)
        first = seat.place == 1 and len(seats) > 1
        fire = seat.firsts >= 2
        points = beaten * (2 if fire else 1) + (1 if first and seat.berserk else 0)
        scored.append(Scored(seat.entry, points, seat.firsts + 1 if first else 0, fire, seat.berserk, first, False))
    return scored
