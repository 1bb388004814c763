"""Delayed feedback keeps every entry's judgement secret until the room is over (issue 25;
docs/rules.md 1, "Delayed feedback": standings show filling, never whether an entry is right).

A Tournament showdown is played through the real stack (HTTP pages through the test client,
sockets through the ASGI application): two players and a spectator, with notes, wrong and
right entries, erasures and overwrites, a wrong submission, reloads, a reconnect, a player
out after the last submission, and the finish. Every page and socket frame each of them
receives before the room is over is checked:

- no cell shows a digit its viewer did not type (a spectator and an opponent see none);
- nothing marks an entry right or wrong (no fresh/wrong cell, no "is correct", "not right");
- no score but 0 and no points anywhere (a score would count right cells), standings lines
  are "n/m filled" (a finished seat's "+60 s") and their bars count filled cells;
- "n cells are wrong" reaches only the player who submitted, once per wrong submission;
- no run of 9+ digits (a row, a serialized grid).
Once the room is over the review shows every board, right digits included.
"""

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async

from games.models import Puzzle
from rooms.models import Room
from tests.conftest import EMPTY, PUZZLE, SOLUTION
from tests.resilience.test_leaks import ARIA, GIVEN, LONG_DIGITS, VALUE, Viewer, race_of_two_and_a_watcher

pytestmark = pytest.mark.django_db(transaction=True)

JUDGED = re.compile(r'class="cell[^"]*\b(?:fresh|wrong)\b|data-wrong="\d"|is correct|not right|Puzzle complete')
POINTS = re.compile(r"\d+ pts|cells right|\d+ right\b")
SCORE = re.compile(r"data-score>\s*(\d+)")
TOLD_WRONG = re.compile(r"(\d+) cells? (?:is|are) wrong")
ROW = re.compile(
    r'<strong class="name">([^<]+)</strong><span class="line">(.*?)</span><progress max="(\d+)" value="(\d+)"'
)
LINE = re.compile(r'^(?:<span class="state">[^<]*</span> · )?(\d+)/(\d+) filled(?: · \+\d+ s)?$')


def right(cell):
    return int(SOLUTION[cell])


def wrong(cell):
    return right(cell) % 9 + 1


def leaks(viewer: Viewer, typed: set, submissions: int = 0) -> list[str]:
    """What `viewer` received before the room was over that says more than filling."""
    problems: list[str] = []
    told_wrong = 0
    for kind, text in viewer.received:
        where = f"{viewer.name} {kind}"
        for run in LONG_DIGITS.findall(text):
            problems.append(f"{where}: a run of digits {run}")
        shown = {((int(r) - 1) * 9 + int(c) - 1, int(d)) for r, c, d in ARIA.findall(text)}
        shown |= {(int(i), int(d)) for i, d in VALUE.findall(text)}
        for cell, digit in sorted(shown):
            if cell not in GIVEN and (cell, digit) not in typed:
                problems.append(f"{where}: cell {cell} shows {digit}, which this viewer never typed")
        for found in JUDGED.findall(text) + POINTS.findall(text):
            problems.append(f"{where}: {found!r} judges an entry")
        for score in SCORE.findall(text):
            if score != "0":
                problems.append(f"{where}: a score of {score}")
        told_wrong += len(TOLD_WRONG.findall(text))
        for name, line, total, value in ROW.findall(text):
            match = LINE.match(line)
            if not match or match.groups() != (value, total):
                problems.append(f"{where}: {name}'s standing says {line!r} (bar {value}/{total})")
    if told_wrong > submissions:
        problems.append(f"{viewer.name} was told a count of wrong cells {told_wrong} times ({submissions} submitted)")
    return problems


async def test_no_judgement_of_any_entry_reaches_anyone_before_the_delayed_room_is_over(settings):
    settings.COUNTDOWN_SECONDS = 0.3
    await sync_to_async(Puzzle.objects.create)(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    code, ada, grace, watcher = await race_of_two_and_a_watcher("tournament")
    typed: dict[str, set] = {"Ada": set(), "Grace": set(), "Watcher": set()}

    async def enter(v, cell, digit, mid):
        typed[v.name].add((cell, digit))
        await v.send(cell=str(cell), digit=str(digit), mode="enter", mid=mid)

    # Ada: a pencil mark, a wrong entry erased, another overwritten, then a full grid with
    # two wrong cells: submitted, told "2 cells are wrong".
    await ada.send(cell=str(EMPTY[0]), digit="1", mode="note", mid="n1")
    await enter(ada, EMPTY[0], wrong(EMPTY[0]), "a-w0")
    await ada.send(action="erase", cell=str(EMPTY[0]), mid="a-e0")
    await enter(ada, EMPTY[1], wrong(EMPTY[1]), "a-w1")
    for i, cell in enumerate(EMPTY):
        await enter(ada, cell, wrong(cell) if cell in EMPTY[2:4] else right(cell), f"a{i}")
    # Grace: most of the grid, one wrong, a reload and a reconnect mid-race.
    for i, cell in enumerate(EMPTY[:30]):
        await enter(grace, cell, wrong(cell) if i == 5 else right(cell), f"g{i}")
    for v in (ada, grace, watcher):
        await v.get(f"/r/{code}/")
    await ada.send(action="submit", mid="a-s1")
    assert "2 cells are wrong (2 submissions left, +60 s)" in ada.received[-1][1] + ada.received[-2][1]
    await grace.disconnect()
    await grace.connect(code)
    # Grace fills the rest and uses her three submissions (a cell changed, still wrong, between them): out.
    for i, cell in enumerate(EMPTY[30:]):
        await enter(grace, cell, right(cell), f"g{30 + i}")
    for n, cell in enumerate((EMPTY[6], EMPTY[7])):
        await grace.send(action="submit", mid=f"g-s{n}")
        await enter(grace, cell, wrong(cell), f"g-w{n}")
    await grace.send(action="submit", mid="g-s2")
    status = await sync_to_async(lambda: Room.objects.get(code=code).seats.get(player=grace.profile).status)()
    assert status == "eliminated"
    for v in (ada, grace, watcher):  # pages after Grace is out: her score still says nothing
        await v.get(f"/r/{code}/")
        await v.drain()
    # Ada fixes her two cells; everything up to here must be clean. Then her last submission ends the room.
    for i, cell in enumerate(EMPTY[2:4]):
        await enter(ada, cell, right(cell), f"a-fix{i}")
    for v in (ada, grace, watcher):
        await v.drain()
    before_the_end = {v.name: len(v.received) for v in (ada, grace, watcher)}
    await ada.send(action="submit", mid="a-s2")
    for _ in range(100):
        room = await sync_to_async(Room.objects.get)(code=code)
        if room.state == "finished":
            break
        await asyncio.sleep(0.1)
    assert room.state == "finished"
    for v in (ada, grace, watcher):
        await v.get(f"/r/{code}/")
        await v.disconnect()

    frames = sum(kind == "frame" for v in (ada, grace, watcher) for kind, _ in v.received[: before_the_end[v.name]])
    assert frames > 100
    during = {}
    for v in (ada, grace, watcher):
        during[v.name] = Viewer.__new__(Viewer)
        during[v.name].name, during[v.name].received = v.name, v.received[: before_the_end[v.name]]
    problems = (
        leaks(during["Ada"], typed["Ada"], submissions=1)
        + leaks(during["Grace"], typed["Grace"], submissions=3)
        + leaks(during["Watcher"], set())
    )
    assert not problems, "\n".join(problems[:20])
    # The check sees what it should: the opponents' boards filled up in the standings...
    assert any("51/51 filled" in text for _, text in during["Watcher"].received)
    # ...and once the room is over the review shows Grace's wrong cells with their right digits.
    end = watcher.received[-1][1]
    assert 'id="review"' in end and f"<small>{right(EMPTY[5])}</small>" in end


def test_the_delayed_leak_check_catches_a_leak():
    """The checker is not blind: a judged cell, a score, a count of right cells, an
    opponent's digit, a points line in the standings are each reported."""
    spy = Viewer.__new__(Viewer)
    spy.name = "spy"
    cell = EMPTY[0]
    r, c = divmod(cell, 9)
    for frame in (
        f'<div class="cell entered fresh" data-cell="{cell}" data-value="5"></div>',
        '<dd id="stat-score" data-score>60</dd>',
        "<p>48 right · 3 wrong</p>",
        f'<div aria-label="Row {r + 1}, column {c + 1}, {SOLUTION[cell]}"></div>',
        '<strong class="name">Ada</strong><span class="line">610 pts</span><progress max="51" value="51">',
        '<strong class="name">Ada</strong><span class="line">30/51 filled</span><progress max="51" value="28">',
        "<p>2 cells are wrong (2 submissions left, +60 s)</p>",
    ):
        spy.received = [("frame", frame)]
        assert leaks(spy, {(cell, 5)}), frame
    spy.received = [("frame", f'<div class="cell entered" data-cell="{cell}" data-value="5"></div>')]
    assert not leaks(spy, {(cell, 5)})  # its own typed digit (a wrong one), unjudged
