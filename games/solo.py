"""Solo Run: the one write path. Views call `act`; it locks the run, applies the race
engine with the fixed Standard rules and saves the result."""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.engines import race

from .bank import take_puzzle
from .models import Level, SoloRun


class NotYourRun(race.MoveError):
    pass


@dataclass(frozen=True)
class SoloAction:
    kind: str  # enter, note, hint, pause, resume
    cell: int | None = None
    digit: int | None = None


COMMANDS = {"hint", "pause", "resume"}


def _int_or_none(value: str | None, name: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise race.MalformedMove(f"The {name} must be a number.") from None


def parse_action(data) -> SoloAction:
    """Turn POST data into a typed action, or raise MalformedMove with a clear message."""
    command = data.get("command")
    cell = _int_or_none(data.get("cell"), "cell")
    if command:
        if command not in COMMANDS:
            raise race.MalformedMove(f"Unknown command {command[:20]!r}.")
        if cell is not None and not 0 <= cell < 81:
            raise race.MalformedMove("Pick a cell on the board first.")
        return SoloAction(command, cell=cell)
    digit = _int_or_none(data.get("digit"), "digit")
    if digit is None:
        raise race.MalformedMove("Choose a digit from 1 to 9.")
    if cell is None:
        raise race.MalformedMove("Pick a cell on the board first.")
    mode = data.get("mode", "enter")
    if mode not in ("enter", "note"):
        raise race.MalformedMove("Mode must be enter or note.")
    return SoloAction("note" if mode == "note" else "enter", cell=cell, digit=digit)


def start_run(player, level: str) -> SoloRun:
    if level not in Level.values:
        raise race.MalformedMove("Pick Easy, Medium, Hard or Expert.")
    puzzle = take_puzzle(level)
    board = race.Board.new(puzzle.givens_tuple)
    now = timezone.now()
    return SoloRun.objects.create(player=player, puzzle=puzzle, level=level, board=board.to_dict(),
                                  started_at=now, active_since=now)


def act(run_id: int, player, action: SoloAction, now=None) -> tuple[SoloRun, race.Outcome | None]:
    now = now or timezone.now()
    with transaction.atomic():
        run = SoloRun.objects.select_for_update().select_related("puzzle").filter(pk=run_id).first()
        if run is None or run.player_id != player.pk:
            raise NotYourRun("That run is not yours.")
        if run.state == SoloRun.State.FINISHED:
            raise race.IllegalMove("This run is finished. Start a new one from the home page.")
        if action.kind == "pause":
            if run.state == SoloRun.State.PLAYING:
                run.elapsed_before = run.play_seconds(now)
                run.active_since = None
                run.state = SoloRun.State.PAUSED
                run.save()
            return run, None
        if action.kind == "resume":
            if run.state == SoloRun.State.PAUSED:
                run.active_since = now
                run.state = SoloRun.State.PLAYING
                run.save()
            return run, None
        if run.state == SoloRun.State.PAUSED:
            raise race.IllegalMove("The run is paused: resume to play.")

        board, solution = run.get_board(), run.puzzle.solution_tuple
        if action.kind == "enter":
            board, outcome = race.enter(board, run.rules, solution, action.cell, action.digit)
        elif action.kind == "note":
            board, outcome = race.toggle_note(board, run.rules, action.cell, action.digit)
        else:
            board, outcome = race.hint(board, run.rules, solution, action.cell)
            run.assisted = True
        run.board = board.to_dict()
        run.score, run.mistakes, run.hints = board.score, board.mistakes, board.hints
        run.moves += 1
        if board.status is race.Status.FINISHED:
            run.elapsed = run.play_seconds(now)
            run.state = SoloRun.State.FINISHED
            run.finished_at = now
            run.active_since = None
        run.save()
        return run, outcome


def current_run(player) -> SoloRun | None:
    return player.solo_runs.exclude(state=SoloRun.State.FINISHED).order_by("-started_at").first()
