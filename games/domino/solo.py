"""Solo Sudoku Domino: the one write path. Views, the home and leaderboards panels
(games/domino/panels.py) and the periodic sweep all change a game through `act` or `settle`,
which apply the pure functions of games/domino/play.py to the stored state and save the result: a
move through games/common/rowwriter.py (one compare-and-set UPDATE, locked only when the row changed
meanwhile), the clock's `settle` under the row's lock."""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.bank import take_puzzle
from games.common import rowwriter
from games.engines.domino import BadMove, DominoError, IllegalMove, Outcome, State
from games.engines.text import _
from games.models import Level
from players.identity import record_filter

from . import play
from .models import TIME_LIMIT, DominoGame

# What a move changes (DominoGame.store).
MOVE_FIELDS = [
    "state",
    "score",
    "lives",
    "stones_placed",
    "jokers_used",
    "moves",
    "end_reason",
    "status",
    "finished_at",
]


class NotYourGame(IllegalMove):
    """The game does not exist or belongs to another player (403)."""


# A player's first Domino game gets the walkthrough (templates/domino/tour_steps.html), and its
# clock waits for it: it starts at the walkthrough's end, at the first move, or WALKTHROUGH_WAIT
# after the game opened, whichever comes first. The cap keeps the wait from being gamed (a
# board studied for as long as one likes), and only a first game has it (docs/rules.md 4).
WALKTHROUGH_WAIT = timedelta(minutes=2)
CLOCK_FIELDS = ["state", "started_at", "deadline"]


def start_game(player, level: str, now=None, seed: int | None = None) -> DominoGame:
    """Take a puzzle of ``level`` from the bank and start its 10-minute clock (a first game's
    clock waits for the walkthrough: WALKTHROUGH_WAIT). The seed (random unless given) fixes
    the stone order."""
    if level not in Level.values:
        raise BadMove(_("Pick Easy, Medium, Hard or Expert."))
    now = now or timezone.now()
    first = not DominoGame.objects.filter(record_filter(player)).exists()
    puzzle = take_puzzle(level)
    seed = secrets.randbits(62) if seed is None else seed
    start = now + WALKTHROUGH_WAIT if first else now
    data = play.start_state(puzzle.givens_tuple, puzzle.solution_tuple, seed, start.timestamp())
    game = DominoGame(
        player=player, puzzle=puzzle, level=level, seed=seed, started_at=start, deadline=start + TIME_LIMIT
    )
    game.store(data, now)
    game.save()
    return game


@dataclass(frozen=True)
class Played:
    """One applied move: the saved game, the engine state before and after, what happened."""

    game: DominoGame
    before: State
    after: State
    outcome: Outcome


def play_move(game_id: int, player, action: play.Action, now=None) -> Played:
    """Apply one action for ``player`` (a Profile or a player token) through
    games.common.rowwriter.write: one write, of the game this process kept from its last move or read by
    one SELECT. An outcome of kind "time_up" means the clock had run out: the game was ended
    and saved, and the move was not played. Raises NotYourGame, BadMove or an IllegalMove
    (carrying the game as ``error.game`` once it was read); then nothing is saved."""
    now = now or timezone.now()

    def change(game: DominoGame) -> tuple[Played, list[str]]:
        started = _start_clock(game, now)  # a first game's first move starts its waiting clock
        before = game.engine_state()
        try:
            after, outcome = play.apply(before, action, now.timestamp())
        except DominoError as error:
            error.game = game  # the refusal's answer shows this game as it stands
            raise
        game.store_state(after, now)
        return Played(game, before, after, outcome), MOVE_FIELDS + (CLOCK_FIELDS if started else [])

    return rowwriter.write(DominoGame, game_id, player, change, NotYourGame(_("That game is not yours.")))


def _start_clock(game: DominoGame, now) -> bool:
    """Start a waiting clock now (the row's and the engine's start); False if it runs already."""
    if game.finished or now >= game.started_at:
        return False
    game.started_at, game.deadline = now, now + TIME_LIMIT
    game.store_state(dataclasses.replace(game.engine_state(), started_at=now.timestamp()), now)
    return True


def start_clock(game_id: int, player, now=None) -> DominoGame:
    """The walkthrough is over (done or skipped): a waiting clock starts now. Idempotent: a
    running clock is left as it is, so this can only ever make the game's time shorter."""
    now = now or timezone.now()

    def change(game: DominoGame) -> tuple[DominoGame, list[str]]:
        _start_clock(game, now)
        return game, CLOCK_FIELDS  # unchanged values when it ran already (one write, once a game)

    return rowwriter.write(DominoGame, game_id, player, change, NotYourGame(_("That game is not yours.")))


def act(game_id: int, player, action: play.Action, now=None) -> tuple[DominoGame, Outcome]:
    """``play_move`` for callers that need only the saved game and the outcome."""
    played = play_move(game_id, player, action, now)
    return played.game, played.outcome


def settle(game_id: int, now=None) -> DominoGame | None:
    """Finish the game if its 10 minutes are up (idempotent). Any request that meets an
    overdue game calls this, and so does the periodic sweep."""
    now = now or timezone.now()
    with transaction.atomic():
        game = DominoGame.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not game.is_overdue(now):
            return game
        game.store(play.tick(game.state, now.timestamp()), now)
        game.save()
        return game


def settle_overdue(now=None, player=None) -> int:
    """Finish every overdue game (of one player, or all). Returns how many ended."""
    now = now or timezone.now()
    overdue = DominoGame.objects.filter(status=DominoGame.Status.PLAYING, deadline__lte=now)
    if player is not None:
        overdue = overdue.filter(player=player)
    count = 0
    for pk in overdue.values_list("pk", flat=True):
        game = settle(pk, now)
        count += bool(game and game.finished)
    return count


def current_game(player, now=None) -> DominoGame | None:
    """The player's latest game still running on the clock."""
    now = now or timezone.now()
    return (
        player.domino_games.filter(status=DominoGame.Status.PLAYING, deadline__gt=now).order_by("-started_at").first()
    )
