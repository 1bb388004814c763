"""Sudoku Showdown: every seat races on the same puzzle under the host's rules."""

import dataclasses
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext, gettext_noop, ngettext

from games.bank import take_puzzle
from games.common import i18n
from games.engines import race
from games.sudoku import fragments, play
from games.sudoku.presenters import board_rows, digit_pad

from .. import actions as A
from ..models import Seat
from .base import GameType

# Boards parsed from seat states, by the state dict's identity (the entry holds the dict, so
# the id is not reused while it is here): a state is replaced on every move, never changed
# in place, so one parse serves the move, the mover's answer (before and after) and the
# next move. Three parses a move were 5% of a move's CPU under bench/realtime.py.
_PARSED: dict[int, tuple[dict, race.Board]] = {}
_PARSED_MAX = 512  # a few moves' worth for every seat of a busy process; a page's render adds none


def board_of(state: dict, keep: bool = True) -> race.Board:
    """The race.Board a seat's state holds. `keep`: remember it (the move paths; a page's or
    a refresh's render only reads: with 4,096 kept, the connects' renders filled the cache and
    a socket cost 103 KiB of resident memory against 92 before, bench/realtime.py)."""
    found = _PARSED.get(id(state))
    if found is not None and found[0] is state:
        return found[1]
    board = race.Board.from_dict(state)
    if keep:
        _remember(state, board)
    return board


def _remember(state: dict, board: race.Board) -> None:
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[id(state)] = (state, board)


def host_rates(room) -> bool:
    """The host's Rated/Unrated lobby choice, kept in the room's rules (absent: rated)."""
    return (room.rules or {}).get("rated", True) is not False


def hints(seat) -> int:
    """Hints are the race's own count: kept in the seat's board (race.Board), not on Seat."""
    return seat.state.get("hints", 0) if seat.state else 0


class ShowdownGame(GameType):
    key = "showdown"
    label = "Sudoku Showdown"
    menu_label = gettext_noop("Sudoku Showdown (race)")
    short_label = gettext_noop("Showdown")
    totals_label = gettext_noop("Showdowns")
    template = "rooms/showdown.html"
    scripts = ("js/board-events.js", "js/board.js")
    start_label = gettext_noop("Start showdown")
    has_level = True

    moves = (play.Enter, play.Note, play.SetNotes, play.Hint, play.Erase, play.Submit)

    def parse_settings(self, data):
        return A.parse_rules(data)

    def settings_from(self, data: dict) -> race.Rules:
        return race.Rules.from_dict(data)

    def parse(self, data):
        """A digit (entry or note), a cell's notes or a hint, read as Solo Run's are; the
        delayed mode's own erase and submit."""
        try:
            delayed = play.parse_delayed_move(data)
            return A.GameMove(delayed if delayed is not None else play.parse_move(data))
        except race.MalformedMove as error:
            raise A.MalformedMessage(str(error)) from None

    def logged(self, move) -> tuple[str, dict]:
        """Entries, notes and hints by their own names and fields (replays/record.py reads
        them back, loadtest/checks.py counts them); erase and submit as the duels' moves."""
        if isinstance(move, (play.Erase, play.Submit)):
            return super().logged(move)
        return type(move).__name__.lower(), dataclasses.asdict(move)

    def rank(self, room, seats):
        rules = self.rules(room)
        # Delayed feedback while the room plays: the unfinished are ordered by filled cells
        # alone (their wrong submissions and scores would tell who has wrong cells). A
        # finished seat's time has its 60 s per wrong submission in it already (apply).
        secret = rules.delayed and room.state != "finished"
        rows = [
            race.Standing(
                seat.pk,
                race.Status(seat.status),
                seat.progress,  # delayed: filled cells while the room plays, right cells once closed
                0 if secret and seat.status != "finished" else seat.mistakes,
                hints(seat),
                0 if secret and seat.status != "finished" else seat.score,
                seat.finish_seconds,
            )
            for seat in seats
        ]
        by_id = {seat.pk: seat for seat in seats}
        ranked = race.rank(rows, settings.NEAR_TIE_SECONDS, rules.feedback)
        return [(place, by_id[s.key]) for place, s in ranked]

    def private(self, outcome) -> bool:
        return outcome.kind == "note"  # pencil marks are the player's own

    def changed(self, outcome) -> bool:
        """A pencil mark is kept out of the move log (issue 28, item 8: a toggling player wrote
        18 rows a second for the room's life): it scores nothing, so it is saved with the seat's
        row (written behind, at most FLUSH_SECONDS later, rooms/timers.py) and in every later
        logged move's seat summary, like a duel's helper toggle."""
        return outcome.kind != "note"

    def silhouette(self, seat) -> list[str]:
        """Which cells are filled, never the digits."""
        if not seat.state:
            return []
        givens, cells = seat.state["givens"], seat.state["cells"]
        return ["g" if g != "0" else ("f" if c != "0" else "") for g, c in zip(givens, cells, strict=True)]

    def shown_line(self, room, seat) -> str:
        """With delayed feedback, until the room is over: how many cells are filled, never
        a score or a count of wrong submissions (they would say whether entries are right);
        a finished seat's wrong submissions show as the seconds they added."""
        rules = self.rules(room)
        if not rules.delayed:
            return self.standing_line(seat)
        if room.state == "finished":
            parts = [
                gettext("%(n)s pts") % {"n": seat.score},
                ngettext("%(n)s wrong submission", "%(n)s wrong submissions", seat.mistakes) % {"n": seat.mistakes},
            ]
        else:
            parts = [gettext("%(filled)s/%(total)s filled") % {"filled": seat.progress, "total": seat.to_fill}]
            if seat.status == "finished" and seat.mistakes:
                parts.append(gettext("+%(s)s s") % {"s": race.SUBMISSION_PENALTY_SECONDS * seat.mistakes})
        if rules.hint_limit:
            parts.append(ngettext("%(n)s hint", "%(n)s hints", hints(seat)) % {"n": hints(seat)})
        return " · ".join(parts)

    def shown_unit(self, room) -> str:
        if room.state == "finished" and self.rules(room).delayed:
            return gettext_noop("cells right")  # close() made progress the right cells
        return self.progress_unit

    def review(self, room, seats) -> list[dict]:
        """Delayed feedback's boards at the end, in place order: each cell's kind (given,
        hint, right, wrong, empty), the digit the player left there and, in a wrong or
        empty cell, the right one (the room is over: nothing is secret any more)."""
        if not self.rules(room).delayed or room.puzzle is None or room.state != "finished":
            return []
        solution = room.puzzle.solution_tuple
        boards = []
        for seat in sorted((s for s in seats if s.state), key=lambda s: (s.place or len(seats) + 1, s.pk)):
            board = race.Board.from_dict(seat.state)
            kinds = race.review(board, solution)
            cells = [
                {
                    "kind": str(kind),
                    "digit": board.cells[i] or "",
                    "right": solution[i] if kind in (race.Review.WRONG, race.Review.EMPTY) else "",
                }
                for i, kind in enumerate(kinds)
            ]
            boards.append(
                {
                    "seat": seat,
                    "cells": cells,
                    "right": race.right_cells(board, solution),
                    "wrong": kinds.count(race.Review.WRONG),
                    "empty": kinds.count(race.Review.EMPTY),
                    "wrong_cells": [
                        (race.cell_name(i), board.cells[i], solution[i])
                        for i, kind in enumerate(kinds)
                        if kind is race.Review.WRONG
                    ],
                }
            )
        return boards

    def standing_line(self, seat) -> str:
        parts = [
            gettext("%(n)s pts") % {"n": seat.score},
            ngettext("%(n)s mistake", "%(n)s mistakes", seat.mistakes) % {"n": seat.mistakes},
            ngettext("%(n)s hint", "%(n)s hints", hints(seat)) % {"n": hints(seat)},
        ]
        return " · ".join(parts)

    def rules(self, room) -> race.Rules:
        return race.Rules.from_dict(room.rules) if room.rules else race.STANDARD

    def initial_rules(self, preset: str) -> dict:
        return race.PRESETS.get(preset, race.STANDARD).to_dict()

    def summary(self, room, seats=()) -> list[str]:
        # Rated: rating left on and a preset, and nobody seated without an account, which the
        # lobby says at once rather than only at the finish (stats.ratings judges it there, with
        # the group's daily limit, and the finish screen says why a room was not rated).
        rated = host_rates(room) and self.preset(room) != "custom"
        if rated and any(seat.player.account_id is None for seat in seats):
            line = gettext_noop("Unrated unless every player signs in")
        else:
            line = gettext_noop("Rated") if rated else gettext_noop("Unrated")
        return [*self.rules(room).summary(), line]

    def badges(self, room) -> list[tuple[str, str]]:
        preset = self.preset(room)
        return super().badges(room) + [("", str(i18n.PRESETS.get(preset, preset)))]

    def result_summary(self, room, seat) -> dict:
        return {
            **super().result_summary(room, seat),
            "preset": self.preset(room),
            "mistakes": seat.mistakes,
            "hints": hints(seat),
        }

    def in_totals(self, room) -> bool:
        # Custom rules make results incomparable across rooms; a race with ghosts was not
        # raced against people (docs/rules.md 10): both stay in the history only.
        return self.preset(room) != "custom" and not room.ghosts

    def settings_context(self, room) -> dict:
        return {
            "presets": race.PRESETS,
            "hint_limits": race.HINT_LIMITS,
            "caps": race.MISTAKE_CAPS,
            "submission_limits": race.SUBMISSION_LIMITS,
            "penalties": [str(p) for p in race.Penalty],
            "rating_on": host_rates(room),
        }

    def start(self, room, seats) -> None:
        if not (room.ghosts and room.puzzle_id):  # a race with ghosts is on their puzzle (docs/rules.md 10)
            room.puzzle = take_puzzle(room.level, wait=0)  # never wait on the sockets' sync thread
        board = race.Board.new(room.puzzle.givens_tuple)
        for seat in seats:
            seat.state = board.to_dict()
            seat.to_fill = board.to_fill

    def apply(self, room, seat, action, now) -> race.Outcome | race.Submission:
        board, rules, solution = board_of(seat.state), self.rules(room), room.puzzle.solution_tuple
        if seat.player_id in room.berserk:  # an arena's berserk: no notes for this player (docs/rules.md 12)
            rules = dataclasses.replace(rules, notes=False)
        outcome: race.Outcome | race.Submission
        move = action.move
        if isinstance(move, (play.Erase, play.Submit)):
            board, outcome = play.apply_delayed(board, rules, solution, move)  # delayed feedback
            if outcome.finished and room.starts_at is not None:
                # docs/rules.md: each wrong submission adds 60 s to the player's time; the time
                # every page, the ranking and the result show has them in it.
                seat.finish_seconds = (now - room.starts_at).total_seconds() + race.penalty_seconds(board)
        else:
            board, outcome = play.apply(board, rules, solution, move)
        self.store(seat, board)
        if outcome.finished and room.ends_at is not None:  # an arena's room ends 60 s after its first finish
            room.ends_at = min(room.ends_at, now + timedelta(seconds=settings.ARENA_FINISH_GRACE_SECONDS))
        return outcome

    def close(self, room, seats, now) -> None:
        """Delayed feedback scores and ranks nothing before the room ends: now every
        board's right cells become its progress and its score is settled."""
        rules = self.rules(room)
        if not rules.delayed or room.puzzle is None:
            return
        for seat in seats:
            if seat.state:
                board = race.settle(board_of(seat.state), rules, room.puzzle.solution_tuple)
                self.store(seat, board)
                seat.progress = race.right_cells(board, room.puzzle.solution_tuple)

    def leave(self, seat) -> None:
        self.store(seat, race.leave(board_of(seat.state)))

    def store(self, seat, board: race.Board) -> None:
        seat.state = board.to_dict()
        _remember(seat.state, board)  # the answer reads it next: no parse
        seat.score, seat.mistakes, seat.progress = board.score, board.mistakes, board.progress
        seat.status = str(board.status)

    def board_context(self, room, seat, outcome=None, selected=None, mode="enter", now=None, playing=True) -> dict:
        rules = self.rules(room)
        board = board_of(seat.state, keep=False)
        if selected is None and outcome is not None:
            selected = outcome.cell
        return {
            "board": board,
            "selected": selected,
            "rows": [] if room.state == "countdown" and not playing else board_rows(board, selected, outcome),
            "pad": digit_pad(board),
            "hints_left": rules.hint_limit - board.hints,
            "locked": seat.status != Seat.Status.PLAYING or not playing,
        }

    def move_answer(self, room, seat, before_state, outcome, selected):
        if seat.status != "playing" or before_state is None:
            return None  # finished or locked: the own board changes its whole look
        rules = self.rules(room)
        if isinstance(outcome, race.Submission):  # a wrong submission: the board stays as it is
            before, after = board_of(before_state), board_of(seat.state)
            return fragments.submission_answer(
                before,
                after,
                outcome,
                submissions=rules.submissions,
                message_id="room-message",
                version=room.version,
                version_id="room-version",
            )
        return fragments.move_answer(
            board_of(before_state),
            board_of(seat.state),
            outcome,
            selected=selected if selected is not None else outcome.cell,
            hint_limit=rules.hint_limit,
            mistake_cap=rules.mistake_cap,
            delayed=rules.delayed,
            message_id="room-message",
            version=room.version,
            version_id="room-version",
        )
