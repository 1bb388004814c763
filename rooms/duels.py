"""Duel game types for rooms: Sudoku Domino and Cardoku (RULES.md sections 3-5).

Every seat plays its own board from the same start: the same puzzle and stone order
(Domino) or the same layout and deal (Cardoku), both fixed by one seed per room
(``Room.seed``). The pure layers games/domino/play.py and games/cardoku/play.py judge
every move; this module only adapts them to the room's game-type interface (see
``ShowdownGame`` in rooms/gametypes.py) and copies their numbers onto the seat.

A seat's ``state`` holds the whole game, solution and stone order / deck included:
it is never rendered for anyone. The player's own board is built by the solo
presenters (what that player may see); opponents and spectators get the standings
line (score, lives, counts) and, once the room has finished, a silhouette (which squares
are filled): while a duel runs nothing shows where another seat placed a piece.

Decisions (written into How to Play):
- Highest score wins; equal scores share a place. A player who leaves or forfeits keeps
  their score but is ranked after everyone who stayed.
- Domino: 10 minutes from the end of the countdown on the server's clock; a player whose
  own game ends (grid full, out of lives, no move left) is done and keeps their score.
- Cardoku: no time limit beyond the rooms' 2-hour safety limit, and no undo: a duel
  shares one deal, and undoing would let a player look further down the deck.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from games.bank import take_puzzle
from games.cardoku import play as ck_play
from games.cardoku import presenters as ck_view
from games.domino import play as dm_play
from games.domino import presenters as dm_view
from games.engines import cardoku as ck
from games.engines import domino as dm
from games.engines import race

from . import actions as A
from .gametypes.base import GameType
from .models import Seat

LEVEL_LABELS = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}


class MoveRefused(race.IllegalMove):
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
    engine: object = None  # the engine's own outcome, for highlights
    move: object = None
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

    ranked, place, previous = [], 0, None
    for position, seat in enumerate(sorted(seats, key=key), start=1):
        if key(seat) != previous:
            place, previous = position, key(seat)
        ranked.append((place, seat))
    return ranked


def _level(data) -> str:
    level = data.get("level")
    if level not in A.LEVELS:
        raise A.MalformedMessage("Difficulty must be easy, medium, hard or expert.")
    return level


def _playing(seat, done_message: str) -> None:
    if seat.status == Seat.Status.LEFT:
        raise MoveRefused("You left this game.")
    if seat.status != Seat.Status.PLAYING:
        raise MoveRefused(done_message)


class DuelGame(GameType):
    """What both duels share: settings, ranking by score, leaving."""

    start_label = "Start duel"
    has_level = False

    def rank(self, room, seats):
        return rank_by_score(seats)

    def preset(self, room) -> str:
        return self.rules(room).preset

    def leave(self, seat) -> None:
        seat.status = Seat.Status.LEFT

    def status_note(self, seat) -> str | None:
        return "left" if seat.status == Seat.Status.LEFT else None

    def shown_silhouette(self, room, seat) -> list[str]:
        """Only the shared start squares until the room finishes: every seat gets the same
        stones (cards) in the same order, so where a leader put piece k tells a follower
        where piece k goes (6 of 6 digits recovered in an Easy Domino duel)."""
        classes = self.silhouette(seat)
        if room.state == "finished":
            return classes
        return [kind if kind == "g" else "" for kind in classes]


# --------------------------------------------------------------------------- Domino


@dataclass(frozen=True)
class JokerMode:
    """View-only: show (kind) or hide (None) the empty cells a joker can go on."""

    kind: str | None


DOMINO_ENDS = {dm.END_FULL: "grid full", dm.END_LIVES: "out of lives", dm.END_STUCK: "no move left",
               dm.END_TIME: "time up"}


class DominoDuel(DuelGame):
    key = "domino"
    label = "Sudoku Domino duel"
    template = "rooms/domino.html"
    styles = ("css/domino.css", "css/duels.css")
    scripts = ("js/domino.js", "js/duels.js")
    has_level = True
    time_limit = timedelta(seconds=dm.TIME_LIMIT)
    progress_unit = "stones placed"

    def rules(self, room) -> DuelSettings:
        return DuelSettings()

    def summary(self, room) -> list[str]:
        return ["10 minutes on the server's clock", f"{dm.LIVES} lives",
                f"{dm.JOKERS['grey']} grey and {dm.JOKERS['gold']} gold jokers",
                "same position and stones for everyone", "highest score wins"]

    def badges(self, room) -> list[tuple[str, str]]:
        return [(f"level-{room.level}", LEVEL_LABELS.get(room.level, room.level)), ("", "10 minutes")]

    def parse_settings(self, data) -> A.SetRules:
        return A.SetRules(_level(data), DuelSettings())

    def parse(self, data):
        """Socket fields as the solo page posts them: ``push=<edge>-<line>``, or
        ``joker=<kind>`` with ``cell=<row>-<col>``; a ``joker`` without a cell only
        switches joker mode (``joker=""`` leaves it)."""
        joker = data.get("joker")
        if joker is not None and data.get("cell") in (None, "") and data.get("row") in (None, "") \
                and data.get("push") in (None, ""):
            if joker not in ("", *dm.JOKERS):
                raise A.MalformedMessage("The joker must be grey or gold.")
            return A.GameMove(JokerMode(joker or None))
        try:
            return A.GameMove(dm_play.parse_action(data))
        except dm.DominoError as error:
            raise A.MalformedMessage(error.message) from None

    def start(self, room, seats) -> None:
        room.puzzle = take_puzzle(room.level, wait=0)  # never wait on the sockets' sync thread
        room.seed = self.new_seed()
        data = dm_play.start_state(room.puzzle.givens_tuple, room.puzzle.solution_tuple, room.seed,
                                   room.starts_at.timestamp())
        stones = dm_play.summary(data)["stones_left"]
        for seat in seats:
            seat.finish_seconds, seat.place = None, None
            self.store(seat, dict(data))
            seat.to_fill = stones

    def new_seed(self) -> int:
        return secrets.randbits(62)

    def store(self, seat, data: dict) -> None:
        numbers = dm_play.summary(data)
        seat.state = data
        seat.score = numbers["score"]
        seat.mistakes = dm.LIVES - numbers["lives"]
        seat.progress = numbers["stones_placed"]
        if numbers["finished"] and seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.FINISHED

    def apply(self, room, seat, action, now) -> DuelOutcome:
        move = action.move
        _playing(seat, "Your game is over: watch the others finish in the standings.")
        if isinstance(move, JokerMode):
            return self._joker_mode(seat, move.kind)
        try:
            data, outcome = dm_play.apply_action(seat.state, move, now.timestamp())
        except dm.IllegalMove as error:
            raise MoveRefused(_domino_refusal(error, move)) from None
        except dm.DominoError as error:
            raise A.MalformedMessage(error.message) from None
        self.store(seat, data)
        return DuelOutcome(outcome.kind, dm_view.outcome_message(outcome), finished=outcome.finished,
                           engine=outcome, move=move)

    def _joker_mode(self, seat, kind) -> DuelOutcome:
        if kind is None:
            return DuelOutcome("view", "Joker put away: push your stone in from an orange marker.", changed=False)
        if dm_play.load(seat.state).jokers_left[kind] <= 0:
            raise MoveRefused(f"No {kind} jokers left.")
        return DuelOutcome("view", f"Pick any empty cell for the {kind} joker (Cancel joker or Esc puts it away).", changed=False,
                           view={"joker_mode": kind})

    def close(self, room, seats, now) -> None:
        """Time is up: end every game still running at the 10-minute mark."""
        for seat in seats:
            if seat.status == Seat.Status.PLAYING and seat.state:
                self.store(seat, dm_play.tick(seat.state, now.timestamp()))
                if seat.status == Seat.Status.FINISHED and seat.finish_seconds is None:
                    seat.finish_seconds = min((now - room.starts_at).total_seconds(), dm.TIME_LIMIT)

    def standing_line(self, seat) -> str:
        lives = dm.LIVES - seat.mistakes
        return (f"{seat.score} pts · {lives} li{'fe' if lives == 1 else 'ves'} · "
                f"{seat.progress} stone{'' if seat.progress == 1 else 's'} placed")

    def status_note(self, seat) -> str | None:
        if seat.status == Seat.Status.FINISHED and seat.state:
            return DOMINO_ENDS.get(seat.state.get("end_reason") or "", "done")
        return super().status_note(seat)

    def silhouette(self, seat) -> list[str]:
        """Which cells are filled (stones and jokers alike), never the digits."""
        if not seat.state:
            return []
        return ["g" if given else ("f" if code else "")
                for given, code in zip(seat.state["puzzle"], seat.state["board"])]

    def board_context(self, room, seat, outcome=None, selected=None, mode=None, now=None, playing=True) -> dict:
        state = dm_play.load(seat.state)
        duel = outcome if isinstance(outcome, DuelOutcome) else None
        locked = not playing or seat.status != Seat.Status.PLAYING
        joker_mode = None if locked or duel is None else duel.view.get("joker_mode")
        view = dm_view.game_view(state, now.timestamp(), duel.engine if duel else None,
                                 duel.move if duel else None, joker_mode)
        if locked:  # a finished or left seat: no entry points to press
            view["markers"] = {edge: [{"valid": False}] * 9 for edge in dm.EDGES}
        view["dm_version"] = view.pop("version")
        view.pop("outcome")  # the room's outcome (kind, message) serves the same templates
        view.pop("message")
        view.update(locked=locked, seconds_left_ms=int(view["seconds_left"] * 1000) + 300, current_stone=view["current"],
                    board_class="is-domino", jokers_used=dm_play.summary(state)["jokers_used"])
        return view


def _domino_refusal(error, move) -> str:
    if isinstance(error, dm.InvalidEntry) and isinstance(move, dm_play.Push):
        why = ("there is no stone on that line to stop it" if error.reason == "no_stone"
               else "the first cell of that line is taken")
        return f"{move.describe()} is not possible: {why}."
    text = error.message
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# --------------------------------------------------------------------------- Cardoku


@dataclass(frozen=True)
class Helper:
    """View-only: switch "Show possible moves" / "Show placement restrictions"."""

    option: str  # "moves" or "restrictions"
    on: bool


CARDOKU_LAYOUTS = {"default": "Default staircase", "random": "Random (the same for everyone)"}
DECK_SIZE = len(ck.DEAL_CARDS)


class SeatGame:
    """What games/cardoku/presenters.game_context reads from a solo game, for a seat."""

    def __init__(self, data: dict):
        helpers = data.get("helpers", {})
        self.show_moves = bool(helpers.get("moves"))
        self.show_restrictions = bool(helpers.get("restrictions"))
        self.step = data.get("step", 0)


class CardokuDuel(DuelGame):
    key = "cardoku"
    label = "Cardoku duel"
    template = "rooms/cardoku.html"
    styles = ("css/cardoku.css", "css/duels.css")
    scripts = ("js/cardoku.js", "js/duels.js")
    progress_unit = "cards played"

    def rules(self, room) -> DuelSettings:
        layout = (room.rules or {}).get("layout")
        return DuelSettings(layout=layout if layout in CARDOKU_LAYOUTS else "default")

    def preset(self, room) -> str:
        return self.rules(room).layout

    def summary(self, room) -> list[str]:
        layout = self.rules(room).layout
        return [f"{CARDOKU_LAYOUTS[layout]} layout", "the same deal for everyone", "no undo: every move is final",
                f"−{ck.DISCARD_PENALTY} per discard", "highest score when every deck is done wins"]

    def badges(self, room) -> list[tuple[str, str]]:
        return [("", "Default layout" if self.rules(room).layout == "default" else "Random layout")]

    def parse_settings(self, data) -> A.SetRules:
        layout = data.get("layout")
        if layout not in CARDOKU_LAYOUTS:
            raise A.MalformedMessage("The layout must be default or random.")
        return A.SetRules(None, DuelSettings(layout=layout))

    def parse(self, data):
        """``action=place`` with ``row`` and ``col`` (or ``square``), ``action=discard``,
        or ``action=helper`` with ``option`` (moves, restrictions) and ``on`` (1/0)."""
        if data.get("action") == "helper":
            option = data.get("option")
            if option not in ("moves", "restrictions"):
                raise A.MalformedMessage("The helper must be moves or restrictions.")
            return A.GameMove(Helper(option, str(data.get("on", "")) in ("1", "true", "on")))
        try:
            return A.GameMove(ck_play.parse_action(data))
        except ck.CardokuError as error:
            raise A.MalformedMessage(str(error)) from None

    def start(self, room, seats) -> None:
        room.puzzle = None
        seed = self.new_seed()
        # The deck lives only in the seats' server-side state: Room.seed (64 bits) cannot
        # hold a long seed, and nothing else needs it. Its code is shown after the finish.
        room.seed = None
        layout = ck.random_layout(seed) if self.rules(room).layout == "random" else ck.default_layout()
        data = ck_play.start_state(layout, seed)
        for seat in seats:
            seat.finish_seconds, seat.place = None, None
            self.store(seat, dict(data, helpers={"moves": False, "restrictions": False}))
            seat.to_fill = DECK_SIZE

    def new_seed(self) -> int:
        """128 bits from the OS: nine visible cards of a 40-bit random.Random deal singled
        out its seed (and so every card to come) in seconds."""
        return ck.long_seed(secrets.randbits(128))

    def store(self, seat, data: dict) -> None:
        numbers = ck_play.summary(data)
        seat.state = data
        seat.score = numbers["score"]
        seat.progress = DECK_SIZE - numbers["cards_left"]
        seat.mistakes = 0
        if numbers["finished"] and seat.status == Seat.Status.PLAYING:
            seat.status = Seat.Status.FINISHED

    def apply(self, room, seat, action, now) -> DuelOutcome:
        move = action.move
        _playing(seat, "Your deck is done: watch the others finish in the standings.")
        if isinstance(move, Helper):
            helpers = dict(seat.state.get("helpers", {}), **{move.option: move.on})
            seat.state = dict(seat.state, helpers=helpers)
            name = "Possible moves" if move.option == "moves" else "Placement restrictions"
            return DuelOutcome("view", f"{name} {'shown' if move.on else 'hidden'}.", changed=False)
        if move.kind == "undo":
            raise MoveRefused("There is no undo in a duel: every move is final.")
        try:
            data, outcome = ck_play.apply_action(seat.state, move)
        except ck.IllegalMove as error:
            raise MoveRefused(str(error)) from None
        except ck.CardokuError as error:
            raise A.MalformedMessage(str(error)) from None
        self.store(seat, dict(data, helpers=seat.state.get("helpers", {})))
        return DuelOutcome(outcome.kind, outcome.message, finished=outcome.finished, engine=outcome, move=move)

    def standing_line(self, seat) -> str:
        left = DECK_SIZE - seat.progress
        return f"{seat.score} pts · {left} card{'' if left == 1 else 's'} left"

    def status_note(self, seat) -> str | None:
        if seat.status == Seat.Status.FINISHED:
            return "deck done"
        return super().status_note(seat)

    def silhouette(self, seat) -> list[str]:
        """Which squares hold a card, never which card."""
        if not seat.state:
            return []
        start = {(r - 1) * 9 + c - 1 for r, c, _ in seat.state["layout"]["squares"]}
        return ["g" if i in start else ("f" if code else "") for i, code in enumerate(seat.state["board"])]

    def board_context(self, room, seat, outcome=None, selected=None, mode=None, now=None, playing=True) -> dict:
        state = ck_play.load(seat.state)
        duel = outcome if isinstance(outcome, DuelOutcome) else None
        engine_outcome = duel.engine if duel is not None and duel.engine is not None else None
        view = ck_view.game_context(SeatGame(seat.state), state, engine_outcome)
        locked = not playing or seat.status != Seat.Status.PLAYING
        view.pop("game")
        view.pop("error")
        view.pop("outcome")
        view["ck_playing"] = view.pop("playing") and not locked
        view.update(locked=locked, board_class="is-cardoku", helpers=SeatGame(seat.state),
                    deal_code=state.deal_code if room.state == "finished" else None,
                    deal_layout=self.rules(room).layout)
        return view
