"""Who races whom in an arena (docs/rules.md 12), from the arena's waiting players alone. Pure.

Everyone waiting is paired at once: sorted by arena points, then rating (nearest first), and
cut into consecutive groups of 2 to 5, as even as possible (7 waiting: 4 and 3). One player
alone waits. A group made of exactly the players of its members' last room is broken up by
swapping a player with the next group; when there is no other group, we decided that the
same players race again only after REMATCH_SECONDS of waiting (better than no race).
"""

from dataclasses import dataclass

MAX_SEATS = 5
REMATCH_SECONDS = 20.0


@dataclass(frozen=True)
class Waiting:
    entry: int
    points: int
    rating: float
    since: float  # seconds, the same clock as `now`
    last: frozenset[int]  # the entries of their last room (themselves included)


def sizes(n: int) -> list[int]:
    if n < 2:
        return []
    count = -(-n // MAX_SEATS)
    base, extra = divmod(n, count)
    return [base + 1] * extra + [base] * (count - extra)


def _repeat(group: list[Waiting]) -> bool:
    ids = frozenset(w.entry for w in group)
    return all(w.last == ids for w in group)


def pair(waiting: list[Waiting], now: float, rematch: float = REMATCH_SECONDS) -> list[list[Waiting]]:
    ordered = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.entry))
    groups, at = [], 0
    for size in sizes(len(ordered)):
        groups.append(ordered[at : at + size])
        at += size
    for i, group in enumerate(groups):
        if _repeat(group) and len(groups) > 1:
            other = groups[i + 1] if i + 1 < len(groups) else groups[i - 1]
            group[-1], other[0] = other[0], group[-1]
    return [g for g in groups if not _repeat(g) or now - min(w.since for w in g) >= rematch]
