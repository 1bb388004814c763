"""Who races whom in a public race (docs/rules.md 9): decided from a level's waiting list
alone. Pure (no Django): pool/service.py reads the list, calls `pair`, and seats the groups.

- Two bands: players with an established rating, and everyone else (anonymous and
  provisional players, keyed by their recent results). Each band is paired on its own;
  whoever is left over after MERGE_SECONDS of waiting is paired across bands (better a race
  against a stranger of another band than no race).
- Nearest keys first: a band sorted by key is cut into consecutive groups of 3 to 5, as even
  as possible (11 waiting: 4, 4 and 3). A group of 3 or more starts at once.
- Two left over race as a pair PAIR_SECONDS after the second one asked (a third arriving
  meanwhile makes a group of 3 that starts at once); one alone waits.
- Ghosts (docs/rules.md 10): a level where fewer than MIN_START wait, the first of them for
  GHOST_SECONDS, races them now with ghosts filling the room to MIN_START (`ghosted`; the
  service seats them only when it has ghosts of that level: otherwise they wait on).
- Never the same two players twice in a row while others wait: a candidate who raced a
  member of the group last time is passed over for the next nearest one (within LOOKAHEAD
  places), and taken only when nobody else is left.

Cost: a sort and one pass, O(n log n) for n waiting (bench/pool.py measures it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MIN_START = 3  # a group this large starts at once
MAX_SEATS = 5
PAIR_SECONDS = 20.0
MERGE_SECONDS = 10.0
GHOST_SECONDS = 15.0
LOOKAHEAD = 8  # how far past a repeat opponent the pass looks for someone new

RATED, OPEN = "rated", "open"


@dataclass(frozen=True)
class Waiting:
    entry: int  # the pool entry's id
    player: int  # who: the account when signed in, else the profile (what "the same two" means)
    key: float  # rating, or the recent-results key (same scale)
    band: str  # RATED or OPEN
    asked: float  # seconds (any clock, the same for every entry and `now`)
    last: frozenset[int] = field(default_factory=frozenset)  # the players of their last public race


@dataclass
class Pairing:
    groups: list[list[Waiting]]  # each one room, to start now
    starts: dict[int, float]  # entry -> when its pair starts (if nobody else comes)
    alone: list[Waiting]  # still waiting, with no start in sight
    ghosted: list[Waiting] = field(default_factory=list)  # to race with ghosts now, if there are any


def met(a: Waiting, b: Waiting) -> bool:
    return b.player in a.last or a.player in b.last


def sizes(n: int) -> list[int]:
    """n >= MIN_START players in groups of MIN_START..MAX_SEATS, as even as possible."""
    count = -(-n // MAX_SEATS)
    return [n // count + (1 if i < n % count else 0) for i in range(count)]


def groups_of(people: list[Waiting]) -> list[list[Waiting]]:
    """Cut `people` (sorted by key) into groups (sizes()), skipping repeat opponents."""
    if len(people) < MIN_START:
        return []
    taken = [False] * len(people)
    first = 0  # the nearest player not yet seated
    out = []
    for size in sizes(len(people)):
        group: list[Waiting] = []
        while len(group) < size:
            while taken[first]:
                first += 1
            pick, looked, i = first, 0, first
            while i < len(people) and looked < LOOKAHEAD:
                if not taken[i]:
                    if not any(met(people[i], member) for member in group):
                        pick = i
                        break
                    looked += 1
                i += 1
            taken[pick] = True
            group.append(people[pick])
        out.append(group)
    return out


def pair(waiting: list[Waiting], now: float) -> Pairing:
    """The groups to seat now, and when the others will start."""
    if 0 < len(waiting) < MIN_START and now - min(w.asked for w in waiting) >= GHOST_SECONDS:
        ghosted = sorted(waiting, key=lambda w: (w.asked, w.entry))
        fallback = _pair(waiting, now)  # what happens if there are no ghosts to race
        if not fallback.groups:
            fallback.ghosted = ghosted
        return fallback
    return _pair(waiting, now)


def _pair(waiting: list[Waiting], now: float) -> Pairing:
    result = Pairing([], {}, [])
    leftovers: list[Waiting] = []
    for band in (RATED, OPEN):
        people = sorted((w for w in waiting if w.band == band), key=lambda w: (w.key, w.asked, w.entry))
        if len(people) >= MIN_START:
            result.groups.extend(groups_of(people))
        else:
            leftovers.extend(people)
    # Across bands: those who waited long enough, with everyone else left over.
    if len({w.band for w in leftovers}) > 1 and any(now - w.asked >= MERGE_SECONDS for w in leftovers):
        merged = sorted(leftovers, key=lambda w: (w.key, w.asked, w.entry))
        if len(merged) >= MIN_START:
            result.groups.extend(groups_of(merged))
            return result
        leftovers = merged
        rest = [leftovers]
    else:
        rest = [[w for w in leftovers if w.band == band] for band in (RATED, OPEN)]
    for people in rest:
        if len(people) == 2:
            start = max(w.asked for w in people) + PAIR_SECONDS
            if now >= start:
                result.groups.append(people)
            else:
                result.starts.update({w.entry: start for w in people})
        else:
            result.alone.extend(people)
    return result
