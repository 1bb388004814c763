"""Sudoku Domino duel (docs/rules.md sections 4 and 5): 10 minutes from the end of the
countdown on the server's clock; a player whose own game ends (grid full, out of lives,
no move left) is done and keeps their score. See duel.py for what duels share."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from games.bank import take_puzzle
from games.domino import play as dm_play
from games.domino import presenters as dm_view
from games.engines import domino as dm
from games.engines.text import _

from .. import actions as A
from ..models import Seat
from .duel import DuelGame, DuelOutcome, DuelSettings, MoveRefused, refuse_unless_playing


@dataclass(frozen=True)
class JokerMode:
    """View-only: show (kind) or hide (None) the empty cells a joker can go on."""

    kind: str | None


DOMINO_ENDS = {
    dm.END_FULL: gettext_lazy("grid full"),
    dm.END_LIVES: gettext_lazy("out of lives"),
    dm.END_STUCK: gettext_lazy("no move left"),
    dm.END_TIME: gettext_lazy("time up"),
}


class DominoDuel(DuelGame):
    key = "domino"
    label = menu_label = gettext_noop("Sudoku Domino duel")
    short_label = gettext_noop("Domino duel")
    totals_label = gettext_noop("Sudoku Domino duels")
    template = "rooms/domino.html"
    styles = ("css/domino.css", "css/duels.css")
    scripts = ("js/board-events.js", "js/board.js", "js/domino.js", "js/duels.js")  # board.js: the room clock ticks
    has_level = True
    time_limit = timedelta(seconds=dm.TIME_LIMIT)
    progress_unit = gettext_noop("stones placed")
    moves = (dm_play.Push, dm_play.Joker, JokerMode)

    def rules(self, room) -> DuelSettings:
        return DuelSettings()

    def summary(self, room, seats=()) -> list[str]:
        return [
            gettext("10 minutes on the server's clock"),
            gettext("%(n)s lives") % {"n": dm.LIVES},
            gettext("%(grey)s grey and %(gold)s gold jokers") % {"grey": dm.JOKERS["grey"], "gold": dm.JOKERS["gold"]},
            gettext("same position and stones for everyone"),
            gettext("highest score wins"),
        ]

    def badges(self, room) -> list[tuple[str, str]]:
        return super().badges(room) + [("", gettext("10 minutes"))]

    def parse_settings(self, data) -> A.SetRules:
        return A.SetRules(A.parse_level(data), DuelSettings())

    def parse(self, data):
        """Socket fields as the solo page posts them: ``push=<edge>-<line>``, or
        ``joker=<kind>`` with ``cell=<row>-<col>``; a ``joker`` without a cell only
        switches joker mode (``joker=""`` leaves it)."""
        joker = data.get("joker")
        if (
            joker is not None
            and data.get("cell") in (None, "")
            and data.get("row") in (None, "")
            and data.get("push") in (None, "")
        ):
            if joker not in ("", *dm.JOKERS):
                raise A.MalformedMessage(_("The joker must be grey or gold."))
            return A.GameMove(JokerMode(joker or None))
        try:
            return A.GameMove(dm_play.parse_action(data))
        except dm.DominoError as error:
            raise A.MalformedMessage(error.message) from None

    def start(self, room, seats) -> None:
        room.puzzle = take_puzzle(room.level, wait=0)  # never wait on the sockets' sync thread
        room.seed = self.new_seed()
        data = dm_play.start_state(
            room.puzzle.givens_tuple, room.puzzle.solution_tuple, room.seed, room.starts_at.timestamp()
        )
        stones = dm_play.summary(data)["stones_left"]
        for seat in seats:
            seat.finish_seconds, seat.place = None, None
            self.store(seat, dict(data))
            seat.to_fill = stones

    def new_seed(self) -> int:
        return secrets.randbits(62)

    def seat_numbers(self, data: dict) -> tuple[int, int, int, bool]:
        numbers = dm_play.summary(data)
        return numbers["score"], numbers["stones_placed"], dm.LIVES - numbers["lives"], numbers["finished"]

    def apply(self, room, seat, action, now) -> DuelOutcome:
        move = action.move
        refuse_unless_playing(seat, _("Your game is over: watch the others finish in the standings."))
        if isinstance(move, JokerMode):
            return self._joker_mode(seat, move.kind)
        try:
            data, outcome = dm_play.apply_action(seat.state, move, now.timestamp())
        except dm.IllegalMove as error:
            raise MoveRefused(dm_view.refusal_message(error, move)) from None
        except dm.DominoError as error:
            raise A.MalformedMessage(error.message) from None
        self.store(seat, data)
        return DuelOutcome(
            outcome.kind, dm_view.outcome_message(outcome), finished=outcome.finished, engine=outcome, move=move
        )

    def _joker_mode(self, seat, kind) -> DuelOutcome:
        if kind is None:
            return DuelOutcome("view", _("Joker put away: push your stone in from an orange marker."), changed=False)
        if dm_play.load(seat.state).jokers_left[kind] <= 0:
            raise MoveRefused(_("No grey jokers left.") if kind == "grey" else _("No gold jokers left."))
        return DuelOutcome(
            "view",
            _("Pick any empty cell for the grey joker (Cancel joker or Esc puts it away).")
            if kind == "grey"
            else _("Pick any empty cell for the gold joker (Cancel joker or Esc puts it away)."),
            changed=False,
            view={"joker_mode": kind},
        )

    def close(self, room, seats, now) -> None:
        """Time is up: end every game still running at the 10-minute mark."""
        for seat in seats:
            if seat.status == Seat.Status.PLAYING and seat.state:
                self.store(seat, dm_play.tick(seat.state, now.timestamp()))
                if seat.status == Seat.Status.FINISHED and seat.finish_seconds is None:
                    seat.finish_seconds = min((now - room.starts_at).total_seconds(), dm.TIME_LIMIT)

    def result_summary(self, room, seat) -> dict:
        return {**super().result_summary(room, seat), "mistakes": seat.mistakes}  # each one cost a life

    def standing_line(self, seat) -> str:
        lives = dm.LIVES - seat.mistakes
        return " · ".join(
            [
                gettext("%(n)s pts") % {"n": seat.score},
                ngettext("%(n)s life", "%(n)s lives", lives) % {"n": lives},
                ngettext("%(n)s stone placed", "%(n)s stones placed", seat.progress) % {"n": seat.progress},
            ]
        )

    def status_note(self, seat) -> str | None:
        if seat.status == Seat.Status.FINISHED and seat.state:
            end = DOMINO_ENDS.get(seat.state.get("end_reason") or "")
            return str(end) if end is not None else gettext("done")
        return super().status_note(seat)

    def silhouette(self, seat) -> list[str]:
        """Which cells are filled (stones and jokers alike), never the digits."""
        if not seat.state:
            return []
        return [
            "g" if given else ("f" if code else "")
            for given, code in zip(seat.state["puzzle"], seat.state["board"], strict=True)
        ]

    def board_context(self, room, seat, outcome=None, selected=None, mode=None, now=None, playing=True) -> dict:
        state = dm_play.load(seat.state)
        duel = outcome if isinstance(outcome, DuelOutcome) else None
        locked = not playing or seat.status != Seat.Status.PLAYING
        joker_mode = None if locked or duel is None else duel.view.get("joker_mode")
        # A finished room's clock stops at its end: the game of a player who left never ended
        # on its own, and its time left went on falling (and counting down on the page).
        over = room.state == room.State.FINISHED and room.finished_at is not None
        at = min(now, room.finished_at) if over else now
        view = dm_view.game_view(
            state, at.timestamp(), duel.engine if duel else None, duel.move if duel else None, joker_mode
        )
        if over:
            view["finished"] = True
        if locked:  # a finished or left seat: no entry points to press
            view["markers"] = {edge: [{"valid": False}] * 9 for edge in dm.EDGES}
        view["dm_version"] = view.pop("version")
        view.pop("outcome")  # the room's outcome (kind, message) serves the same templates
        view.pop("message")
        view.update(
            locked=locked,
            seconds_left_ms=int(view["seconds_left"] * 1000) + 300,
            current_stone=view["current"],
            board_class="is-domino",
            jokers_used=dm_play.summary(state)["jokers_used"],
        )
        return view
