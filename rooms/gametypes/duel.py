"""What the duel game types (Sudoku Domino, Cardoku; docs/rules.md sections 3-5) share.

Every seat plays its own board from the same start: the same puzzle and stone order
(Domino) or the same layout and deal (Cardoku), both fixed by one seed per room. The pure
layers games/domino/play.py and games/cardoku/play.py judge every move; the duel modules
(domino.py, cardoku.py) only adapt them to the room's game-type interface (base.py) and
copy their numbers onto the seat.

A seat's ``state`` holds the whole game, solution and stone order / deck included:
it is never rendered for anyone. The player's own board is built by the solo
presenters (what that player may see); opponents and spectators get the standings
line (score, lives, counts) and, once the room has finished, a silhouette (which squares
are filled): while a duel runs nothing shows where another seat placed a piece.

Decisions (written into How to Play): highest score wins; equal scores share a place. A
player who leaves or forfeits keeps their score but is ranked after everyone who stayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop, pgettext

from games.engines.errors import Illegal
from games.engines.ranking import places
from games.engines.text import _

from ..models import Seat
from .base import GameType


class MoveRefused(Illegal):
    """A well-formed duel move that the rules refuse; str() is the message for the player."""


@dataclass(frozen=True)
class DuelOutcome:
    """What one duel action did, in the shape the room templates read (kind, message,
    finished). ``changed`` is False for view-only actions (joker mode, helper toggles):
    nothing changes for anyone else, so the room is not saved or pushed."""

    kind: str
    message: str
    finished: bool = False
    changed: bool = True
    engine: Any = None  # the engine's own outcome, for highlights (each game type knows its engine's)
    move: Any = None
    view: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.kind in ("placed", "joker")


@dataclass(frozen=True)
class DuelSettings:
    """A duel's host settings (stored in Room.rules)."""

    preset: str = "duel"
    layout: str | None = None  # Cardoku only

    def to_dict(self) -> dict:
        return {"layout": self.layout} if self.layout else {}


def rank_by_score(seats) -> list[tuple[int, Seat]]:
    """Highest score first; equal scores share a place (1, 1, 3). Seats that left come
    after everyone who stayed."""

    def key(seat):
        return (seat.status == Seat.Status.LEFT, -seat.score)

    return places(sorted(seats, key=key), key)


def refuse_unless_playing(seat, done_message: str) -> None:
    if seat.status == Seat.Status.LEFT:
        raise MoveRefused(_("You left this game."))
    if seat.status != Seat.Status.PLAYING:
        raise MoveRefused(done_message)


class DuelGame(GameType):
    """What both duels share: settings, ranking by score, leaving."""

    start_label = gettext_noop("Start duel")
    has_level = False

    def settings_from(self, data: dict) -> DuelSettings:
        return DuelSettings(layout=data.get("layout"))

    def rank(self, room, seats):
        return rank_by_score(seats)

    def leave(self, seat) -> None:
        seat.status = Seat.Status.LEFT

    def store(self, seat, data: dict) -> None:
        """A board into the seat's state, and its numbers into the seat's columns."""
        seat.state = data
        seat.score, seat.progress, seat.mistakes, finished = self.seat_numbers(data)
        if finished and seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.FINISHED

    def seat_numbers(self, data: dict) -> tuple[int, int, int, bool]:
        """(score, progress, mistakes, finished) of a board: each duel's engine knows its own."""
        raise NotImplementedError

    def changed(self, outcome) -> bool:
        return outcome.changed

    def message_kind(self, outcome, error=None) -> str | None:
        kind = super().message_kind(outcome, error)
        return "good" if kind is None and outcome is not None and outcome.ok else kind

    def status_note(self, seat) -> str | None:
        return pgettext("standings", "left") if seat.status == Seat.Status.LEFT else None

    def shown_silhouette(self, room, seat) -> list[str]:
        """Only the shared start squares until the room finishes: every seat gets the same
        stones (cards) in the same order, so where a leader put piece k tells a follower
        where piece k goes (6 of 6 digits recovered in an Easy Domino duel)."""
        classes = self.silhouette(seat)
        if room.state == "finished":
            return classes
        return [kind if kind == "g" else "" for kind in classes]
