"""Solo Run: the one write path. Views call `act`; it applies the move through
games/sudoku/play.py (the race engine, with the fixed Standard rules) and saves the result."""

from dataclasses import dataclass

from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.bank import take_puzzle
from games.common import rowwriter, uptime
from games.common.numbers import ascii_int
from games.engines import race
from games.engines.errors import Refusal
from games.engines.text import _
from games.models import Level, SoloRun
from games.signals import run_finished
from players.identity import record_filter
from players.models import Profile

from . import play
from .bests import refresh_best


class NotYourRun(Refusal):
    """The run belongs to another player (or does not exist)."""


@dataclass(frozen=True)
class SoloAction:
    kind: str  # enter, note, notes, hint, fill, pause, resume
    cell: int | None = None
    digit: int | None = None
    notes: int | None = None  # for "notes": the cell's marks, as a bitmask
    version: int | None = None  # the run's version the page showed (its move count); None: unknown

    @property
    def move(self) -> play.Move:
        """The board move (for enter, note and hint)."""
        if self.kind == "hint":
            return play.Hint(self.cell)
        if self.kind == "fill":
            return play.FillNotes()
        if self.kind == "notes" and self.cell is not None and self.notes is not None:
            return play.SetNotes(self.cell, self.notes)
        if self.cell is None or self.digit is None:
            raise ValueError(f"a {self.kind} needs a cell and a digit")
        return (play.Note if self.kind == "note" else play.Enter)(self.cell, self.digit)


@dataclass(frozen=True)
class Played:
    """What `act` did: the saved run, the board before and after, the engine's outcome
    (None for pause and resume) and whether the page that sent it was behind."""

    run: SoloRun
    before: race.Board | None
    board: race.Board | None
    outcome: race.Outcome | None
    stale: bool
    newly_assisted: bool = False  # this action moved the run to the Assisted board


# The Solo Run clock (How to Play, "Solo Run"): it runs from the run's start (its board
# appears at once) to the finish. A pause before the run's first entry (a digit placed,
# right or wrong, or a hint) does not stop it: reading the givens, pausing at once and
# solving on paper gave a 0:03 Classic best for a 23.7 s run. A later pause counts its first
# PAUSE_GRACE seconds (a stray P costs nothing more) and then stops the clock, but a longer
# pause makes a ranked run Assisted: with the board known, the time away can be spent solving
# it elsewhere (one entry, 20 s away, the solution typed: 0.4 s for 20.4 s as a Classic time).
# Only Pause pauses (issue 43): a closed page or the run opened on another device is no
# pause, its clock runs on, so the time away is play time and buys nothing. A practice run
# (ranked nowhere) keeps the stopped clock without the Assisted drop.
# More than CLASSIC_MISTAKES mistakes make a run Assisted too (trying 1-9 in every cell gave
# a 2.4 s Classic time with 250 mistakes). Each request of a run whose clock runs moves the
# clock on; the time the server was down (games/common/uptime.py: from its last heartbeat before a
# restart to the new process's start) is not play time.
PAUSE_GRACE = SoloRun.PAUSE_GRACE
CLASSIC_MISTAKES = 5


def ranked(run: SoloRun) -> bool:
    """A run whose Classic time counts somewhere (the Solo Run boards, a daily's board)."""
    return not run.practice


def assist(run: SoloRun, why: str) -> None:
    """Make the run Assisted, for good, remembering its first cause (SoloRun.AssistedBy)."""
    if not run.assisted:
        run.assisted, run.assisted_by = True, why


# Fill notes (auto-candidates, docs/rules.md 2) is Assisted play: free there (no points, no
# hint: it writes only what the board already shows), refused in a Classic run.
FILL_CLASSIC = _("Fill notes is for Assisted runs only: in a Classic run the notes are yours to write.")

PAUSED_ASSISTED = _("Paused over 10 s: this run is now Assisted.")


def assisted_why(run: SoloRun) -> str:
    """Why the run is Assisted, in a sentence (the finish screen); "" for a Classic run."""
    if not run.assisted:
        return ""
    if run.assisted_by == SoloRun.AssistedBy.PAUSE:
        return gettext("Assisted because the run was paused for more than 10 seconds.")
    if run.assisted_by == SoloRun.AssistedBy.MISTAKES:
        return gettext("Assisted because of more than %(n)s mistakes.") % {"n": CLASSIC_MISTAKES}
    return gettext("Assisted because a hint was used.")


def has_entry(run: SoloRun, board: race.Board | None = None) -> bool:
    """True once a pause may stop the clock: a digit was placed (right or wrong) or hinted."""
    return run.mistakes > 0 or run.hints > 0 or (board or run.get_board()).progress > 0


def advance_clock(run: SoloRun, now) -> None:
    """Fold the time since the clock's last mark into `elapsed_before` (the clock keeps
    running from `now`), less any time the server was down meanwhile."""
    if run.active_since is None:
        return
    gap = (now - run.active_since).total_seconds() - uptime.downtime_after(run.active_since)
    run.elapsed_before += max(0.0, gap)
    run.active_since = now


def _int_or_none(value: str | None, name: str) -> int | None:
    if value in (None, ""):
        return None
    number = ascii_int(value)
    if number is None:
        raise race.MalformedMove(f"The {name} must be a number.")
    return number


def parse_action(data) -> SoloAction:
    """Turn POST data into a typed action (a board move as games/sudoku/play.py reads it,
    or pause or resume), or raise MalformedMove with a clear message."""
    version = _int_or_none(data.get("version"), "version")
    if data.get("command") in ("pause", "resume"):
        return SoloAction(data["command"], version=version)
    move = play.parse_move(data, fill=True)
    if isinstance(move, play.SetNotes):
        return SoloAction(move.kind, cell=move.cell, notes=move.notes, version=version)
    return SoloAction(move.kind, cell=move.cell, digit=move.digit, version=version)


def start_run(player, level: str) -> SoloRun:
    if level not in Level.values:
        raise race.MalformedMove("Pick Easy, Medium, Hard or Expert.")
    return new_run(player, take_puzzle(level))


def new_run(player, puzzle, **daily) -> SoloRun:
    """A run of `puzzle` whose clock starts now; `daily`: the daily's fields (games/daily/play.py)."""
    board = race.Board.new(puzzle.givens_tuple)
    now = timezone.now()
    return SoloRun.objects.create(
        player=player,
        puzzle=puzzle,
        level=puzzle.level,
        board=board.to_dict(),
        started_at=now,
        active_since=now,
        log=[],
        **daily,
    )


def act(run_id: int, player, action: SoloAction, now=None) -> Played:
    """Apply one action to `player`'s run (a Profile or the request's player token) through
    games.common.rowwriter.write: one write of the changed columns, to the run this process kept from its
    last move or read (with its puzzle's solution) by one SELECT. A ranked daily run's finish
    is judged for fair play (games/daily/review.py) once written; a Solo Run's finish updates
    its account's best on the boards across accounts (games/sudoku/bests.py)."""
    now = now or timezone.now()
    played = rowwriter.write(
        SoloRun,
        run_id,
        player,
        lambda run: _apply(run, action, now),
        NotYourRun("That run is not yours."),
        "puzzle",
        ("solution",),
    )
    run = played.run
    if played.outcome is not None and run.state == SoloRun.State.FINISHED:  # this move finished it
        if run.daily_id is not None and not run.practice:
            from games.daily.boards import forget
            from games.daily.review import judge

            judge(run)
            forget(run.daily_id)
        if run.daily_id is None:  # a Solo Run: its account's best on the board across accounts
            account_id = Profile.objects.filter(pk=run.player_id).values_list("account_id", flat=True).first()
            refresh_best(account_id, run.level, run.assisted)
        run_finished.send(SoloRun, run=run)  # its replay (replays/)
    return played


LOG_KINDS = {"enter": "e", "note": "n", "notes": "N", "hint": "h", "fill": "f", "pause": "p", "resume": "r"}


def _logged(run: SoloRun, action: SoloAction, now, fields: list[str]) -> list[str]:
    """Every run keeps each action with the server's time: its replay and ghost (replays/),
    and for a ranked daily run, fair play (games/daily/review.py)."""
    if run.log is None:
        return fields
    ms = round((now - run.started_at).total_seconds() * 1000)
    detail = action.notes if action.kind == "notes" else action.digit  # a notes move logs its marks
    run.log = [*run.log, [ms, LOG_KINDS[action.kind], action.cell, detail]]
    return [*fields, "log"]


def _apply(run: SoloRun, action: SoloAction, now) -> tuple[Played, list[str]]:
    if run.state == SoloRun.State.FINISHED:
        raise race.IllegalMove("This run is finished. Start a new one from the home page.")
    if run.closes_at is not None and now >= run.closes_at:  # a ranked daily's run left unfinished
        raise race.IllegalMove(
            _("This daily has closed: the run did not finish. Play it again as practice from the archive.")
        )
    stale = action.version is not None and action.version != run.moves
    advance_clock(run, now)
    was_assisted = run.assisted
    if action.kind == "pause":
        if run.state == SoloRun.State.PLAYING:
            if has_entry(run):  # the clock stops after PAUSE_GRACE; before an entry it runs on
                run.active_since, run.paused_at = None, now
            run.state = SoloRun.State.PAUSED
        return Played(run, None, None, None, stale), _logged(run, action, now, CLOCK_FIELDS)
    if action.kind == "resume":
        if run.state == SoloRun.State.PAUSED:
            if run.paused_at is not None:
                away = (now - run.paused_at).total_seconds()
                run.elapsed_before += min(away, PAUSE_GRACE)
                if away > PAUSE_GRACE and ranked(run):
                    assist(run, SoloRun.AssistedBy.PAUSE)
                run.paused_at = None
            run.active_since = run.active_since or now
            run.state = SoloRun.State.PLAYING
        return Played(run, None, None, None, stale, run.assisted and not was_assisted), _logged(
            run, action, now, CLOCK_FIELDS
        )
    if run.state == SoloRun.State.PAUSED:
        raise race.IllegalMove("The run is paused: resume to play.")
    if action.kind == "fill" and not run.assisted:  # auto-candidates never make a Classic time
        raise race.IllegalMove(FILL_CLASSIC)

    before, solution = run.get_board(), run.puzzle.solution_tuple
    board, outcome = play.apply(before, run.rules, solution, action.move)
    if action.kind == "hint":
        assist(run, SoloRun.AssistedBy.HINT)
    elif board.mistakes > CLASSIC_MISTAKES:
        assist(run, SoloRun.AssistedBy.MISTAKES)
    run.board = board.to_dict()
    run.score, run.mistakes, run.hints = board.score, board.mistakes, board.hints
    run.moves += 1
    if board.status is race.Status.FINISHED:
        run.elapsed = run.play_seconds(now)
        run.state = SoloRun.State.FINISHED
        run.finished_at = now
        run.active_since = None
    return Played(run, before, board, outcome, stale, run.assisted and not was_assisted), _logged(
        run, action, now, MOVE_FIELDS
    )


MOVE_FIELDS = [
    "board",
    "score",
    "mistakes",
    "hints",
    "moves",
    "assisted",
    "assisted_by",
    "elapsed",
    "state",
    "finished_at",
    "active_since",
    "elapsed_before",
]
CLOCK_FIELDS = ["elapsed_before", "active_since", "paused_at", "assisted", "assisted_by", "state"]


def current_run(player) -> SoloRun | None:
    return player.solo_runs.exclude(state=SoloRun.State.FINISHED).order_by("-started_at").first()


# --- the finish screen ---------------------------------------------------------------------

RECENT_FINISHES = 10  # the "recent average" the finish compares with (the leaderboards' too)


@dataclass(frozen=True)
class Finish:
    """What the finish screen shows beside the time and score: where the points came from,
    how the time compares with the player's earlier finishes on the same board (level and
    Classic/Assisted), and a chart of the latest times there (this one last)."""

    parts: list  # (label, points), summing to the score
    elapsed: float
    best_before: float | None  # the personal best before this run; None: the first finish
    average_before: float | None  # of the latest RECENT_FINISHES before this run
    chart: object  # stats.charts.Chart or None (fewer than two finishes)
    ghost: object = None  # the replays.Track this run raced (docs/rules.md 10), or None
    assisted_why: str = ""  # why the run is Assisted (assisted_why), "" for Classic

    @property
    def new_best(self) -> bool:
        return self.best_before is None or self.elapsed < self.best_before

    @staticmethod
    def _versus(elapsed, other):
        if other is None:
            return None
        # In whole seconds, as the times are shown: 4:58 against 4:46 reads as 0:12 faster.
        delta = int(other) - int(elapsed)
        return {"value": other, "delta": abs(delta), "faster": delta > 0, "same": delta == 0}

    @property
    def versus_best(self):
        return self._versus(self.elapsed, self.best_before)

    @property
    def versus_average(self):
        return self._versus(self.elapsed, self.average_before)

    @property
    def versus_ghost(self):
        """Against the ghost raced: beaten (faster), or not; a ghost that never finished is beaten."""
        if self.ghost is None:
            return None
        finish = self.ghost.finish_ms / 1000 if self.ghost.finish_ms is not None else None
        versus = self._versus(self.elapsed, finish) or {"value": None, "delta": 0, "faster": True, "same": False}
        return {**versus, "name": self.ghost.name}


def score_parts(board: race.Board, rules: race.Rules) -> list[tuple[str, int]]:
    """The score as the sum of its parts. The score never drops below 0, so a penalty taken
    at 0 cost nothing: that shows as its own line, keeping the sum honest."""
    entries = board.to_fill - len(board.hinted)
    parts = [
        (
            ngettext("%(n)s correct entry × %(points)s", "%(n)s correct entries × %(points)s", entries)
            % {"n": entries, "points": race.CORRECT_POINTS},
            entries * race.CORRECT_POINTS,
        )
    ]
    if board.hints:
        parts.append(
            (
                ngettext("%(n)s hint × −%(points)s", "%(n)s hints × −%(points)s", board.hints)
                % {"n": board.hints, "points": race.HINT_COST},
                -board.hints * race.HINT_COST,
            )
        )
    if board.mistakes:
        penalty = sum(rules.penalty_for(n) for n in range(1, board.mistakes + 1))
        parts.append((ngettext("%(n)s mistake", "%(n)s mistakes", board.mistakes) % {"n": board.mistakes}, -penalty))
    parts.append((gettext("Finish bonus"), race.FINISH_BONUS))
    # What a penalty taken at 0 points did not cost comes off its own line (mistakes first,
    # then hints), said there: no positive "penalty" line that reads as a reward.
    floor = board.score - sum(points for _, points in parts)
    for i, (label, points) in reversed(list(enumerate(parts))):
        if floor <= 0:
            break
        if points < 0:
            waived = min(floor, -points)
            free = gettext("what came at 0 points cost nothing")
            parts[i] = (f"{label} ({free})", points + waived)
            floor -= waived
    return parts


def finish_summary(run: SoloRun) -> Finish:
    from games.common.times import format_seconds
    from stats.charts import line_chart
    from stats.leaderboards import recent_times

    if run.elapsed is None:
        raise ValueError(f"run {run.pk} has not finished")
    earlier = SoloRun.objects.filter(
        record_filter(run.player),
        practice=False,
        level=run.level,
        assisted=run.assisted,
        state=SoloRun.State.FINISHED,
        elapsed__isnull=False,
        finished_at__lte=run.finished_at,
    ).exclude(pk=run.pk)
    best_before = earlier.aggregate(best=Min("elapsed"))["best"]
    recent = [
        t for t in earlier.order_by("-finished_at").values_list("elapsed", flat=True)[:RECENT_FINISHES] if t is not None
    ]
    times = recent_times(run.player, run.level, run.assisted)
    what = (gettext("Assisted %(level)s times") if run.assisted else gettext("Classic %(level)s times")) % {
        "level": run.get_level_display()
    }
    chart = line_chart(times, format_seconds, what=what, mark_last=True) if len(times) > 1 else None
    return Finish(
        score_parts(run.get_board(), run.rules),
        run.elapsed,
        best_before,
        sum(recent) / len(recent) if recent else None,
        chart,
        run.ghost,
        assisted_why(run),
    )
