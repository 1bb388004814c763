"""The interface every room game type implements, with a default for every optional hook
(as python-chess's variants and scalachess's do): the room, its owner and its templates
call these and never probe a game type with hasattr/getattr.

The room owns lobby, ready flags, countdown, spectating and history; a game type owns
the players' boards: how they start, how a move is parsed and judged, how seats rank,
how a seat is shown to others (a standings line and a silhouette, never its pieces) and
what a player's result records of the game (rooms.models.RoomResult.summary).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import timedelta

from django.utils.translation import gettext_noop

from games.common.i18n import level_label
from games.sudoku import fragments as sudoku
from games.sudoku.play import parse_cell, parse_mode


class GameType(ABC):
    key: str = ""
    label: str = ""  # the room's game (Room.game's choice)
    menu_label: str = ""  # in the home page's game list
    short_label: str = ""  # a result's game in the history and recent results
    totals_label: str = ""  # the leaderboards' totals of this game
    # The game's own template, with the partials the pages include: settings (the lobby's
    # host settings), board (the player's own board), watching (a spectator's line) and
    # result (a finished room's cells in the leaderboards' history row).
    template: str = ""
    start_label = gettext_noop("Start")
    has_level = True  # the room's difficulty applies
    time_limit: timedelta | None = None  # from the countdown's end (None: the rooms' safety limit only)
    styles: tuple[str, ...] = ()  # static css files the room page links
    scripts: tuple[str, ...] = ()  # static scripts the room page loads before room.js
    progress_unit = gettext_noop("cells filled")
    # The typed moves `parse` wraps in A.GameMove, by class: the ones a message forwarded to
    # the room's owner in another process is rebuilt as (rooms/wire.py action_from).
    moves: tuple[type, ...] = ()

    @property
    def settings_template(self) -> str:
        return f"{self.template}#settings"

    @property
    def board_template(self) -> str:
        return f"{self.template}#board"

    @property
    def watching_template(self) -> str:
        return f"{self.template}#watching"

    @property
    def result_template(self) -> str:
        return f"{self.template}#result"

    @property
    def review_template(self) -> str:
        return f"{self.template}#review"

    # --- settings -------------------------------------------------------------------
    @abstractmethod
    def rules(self, room): ...

    @abstractmethod
    def summary(self, room, seats=()) -> list[str]:
        """The rule lines a room page shows; `seats` (when the page has them) are who sits in
        it now, for lines that depend on them (a Showdown lobby says whether it will be rated)."""

    def initial_rules(self, preset: str) -> dict:
        """A new room's Room.rules, from the home page's preset (most games have none)."""
        return {}

    def preset(self, room) -> str:
        return self.rules(room).preset

    def badges(self, room) -> list[tuple[str, str]]:
        """[(css class, text)] beside the game's name: the difficulty where it applies."""
        return [(f"level-{room.level}", level_label(room.level))] if self.has_level else []

    def settings_context(self, room) -> dict:
        """What the lobby's settings partial needs beyond the room's context."""
        return {}

    @abstractmethod
    def parse_settings(self, data):
        """The lobby's host settings form -> SetRules (or MalformedMessage)."""

    @abstractmethod
    def settings_from(self, data: dict):
        """Host settings as their `to_dict` wrote them -> the typed settings again (a SetRules
        forwarded to the room's owner in another process, rooms/wire.py)."""

    # --- play -----------------------------------------------------------------------
    @abstractmethod
    def start(self, room, seats) -> None:
        """Give every seat its starting board (the same for all)."""

    @abstractmethod
    def parse(self, data):
        """A socket message -> A.GameMove of a typed board move (or MalformedMessage)."""

    def view_hints(self, data) -> tuple[str, int | None]:
        """The pad's mode and the selected cell a socket message was sent with, for drawing
        the mover's board in its answer as the page had it (the default: Sudoku's reading,
        games/sudoku/play.py, the one every room board's pad and selection share)."""
        return parse_mode(data), parse_cell(data)

    def logged(self, move) -> tuple[str, dict]:
        """A board move as its move-log entry records it: (kind, fields). The default: every
        move is a "gamemove" without fields (its outcome says what it did)."""
        return "gamemove", {}

    @abstractmethod
    def apply(self, room, seat, action, now):
        """Judge one board move in memory -> an outcome with .kind and .message."""

    @abstractmethod
    def leave(self, seat) -> None:
        """A player leaves or forfeits a running game."""

    def close(self, room, seats, now) -> None:  # noqa: B027 - an optional hook: nothing to settle by default
        """The room is finishing: settle what time has ended (nothing by default)."""

    # --- presentation ---------------------------------------------------------------
    @abstractmethod
    def rank(self, room, seats) -> list[tuple[int, object]]:
        """[(place, seat)], ties share a place."""

    @abstractmethod
    def standing_line(self, seat) -> str: ...

    @abstractmethod
    def silhouette(self, seat) -> list[str]:
        """81 classes: 'g' start position, 'f' filled by the player, '' empty."""

    def shown_silhouette(self, room, seat) -> list[str]:
        """The silhouette every socket of the room gets now (the default: all of it; a duel
        hides where each seat placed its pieces until the room finishes)."""
        return self.silhouette(seat)

    def changed(self, outcome) -> bool:
        """Whether a move changed the game (saved, logged, others told): False for a
        view-only action such as a duel's helper toggle."""
        return True

    def private(self, outcome) -> bool:
        """A change only the mover sees (a pencil mark): saved, but pushed to nobody."""
        return False

    def message_kind(self, outcome, error=None) -> str | None:
        """How the room's message line shows a move: "error", "good" or None."""
        return sudoku.message_kind(outcome, error)

    def status_note(self, seat) -> str | None:
        """A word for the standings instead of "finished 3:20" (None: the default)."""
        return None

    def shown_line(self, room, seat) -> str:
        """The standings line every socket of the room gets now (the default: the game's
        standing_line; delayed feedback shows only filling until the room is over)."""
        return self.standing_line(seat)

    def shown_unit(self, room) -> str:
        """What a seat's progress counts, untranslated (the default: progress_unit)."""
        return self.progress_unit

    def review(self, room, seats) -> list:
        """What a finished room shows of every seat's board beyond the standings (rendered
        by the game template's `review` partial); nothing by default."""
        return []

    def move_answer(self, room, seat, before_state: dict, outcome, selected: int | None) -> str | None:
        """Only what a board move changed on the mover's own board, as out-of-band
        fragments; None: the own board is re-rendered whole (the default)."""
        return None

    # --- results --------------------------------------------------------------------
    def result_summary(self, room, seat) -> dict:
        """What a finished seat's RoomResult records of this game beyond what every game has
        (place, status, time, score); the game template's `result` partial shows it."""
        return {"difficulty": room.level} if self.has_level else {}

    def in_totals(self, room) -> bool:
        """Whether the room's results count in the leaderboards' totals (the history keeps all)."""
        return True

    @abstractmethod
    def board_context(self, room, seat, outcome=None, selected=None, mode="enter", now=None, playing=True) -> dict:
        """The own board's template context."""
