"""Cardoku duel (docs/rules.md sections 3 and 5): no time limit beyond the rooms' 2-hour
safety limit, and no undo: a duel shares one deal, and undoing would let a player look
further down the deck. See duel.py for what duels share."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from games.cardoku import duels
from games.cardoku import play as ck_play
from games.cardoku import presenters as ck_view
from games.engines import cardoku as ck
from games.engines.text import _

from .. import actions as A
from ..models import Seat
from .duel import DuelGame, DuelOutcome, DuelSettings, MoveRefused, refuse_unless_playing


@dataclass(frozen=True)
class Helper:
    """View-only: switch "Show possible moves" / "Show placement restrictions"."""

    option: str  # "moves" or "restrictions"
    on: bool


CARDOKU_LAYOUTS = {
    "default": gettext_lazy("Default staircase layout"),
    "random": gettext_lazy("Random (the same for everyone) layout"),
}
DECK_SIZE = len(ck.DEAL_CARDS)


class SeatGame:
    """What games/cardoku/presenters.game_context and the play area (templates/cardoku/play.html)
    read from a solo game, for a seat."""

    def __init__(self, data: dict):
        helpers = data.get("helpers", {})
        self.show_moves = bool(helpers.get("moves"))
        self.show_restrictions = bool(helpers.get("restrictions"))
        self.step = data.get("step", 0)


class CardokuDuel(DuelGame):
    key = "cardoku"
    label = menu_label = short_label = gettext_noop("Cardoku duel")
    totals_label = gettext_noop("Cardoku duels")
    template = "rooms/cardoku.html"
    styles = ("css/cardoku.css", "css/duels.css")
    scripts = ("js/board-events.js", "js/board.js", "js/cardoku.js")  # board.js: the room clock ticks
    progress_unit = gettext_noop("cards played")
    moves = (ck_play.Action, Helper)

    def rules(self, room) -> DuelSettings:
        return DuelSettings(layout=self.layout(room))

    def layout(self, room) -> str:
        layout = (room.rules or {}).get("layout")
        return layout if layout in CARDOKU_LAYOUTS else "default"

    def result_summary(self, room, seat) -> dict:
        return {"layout": self.layout(room)}

    def summary(self, room, seats=()) -> list[str]:
        layout = self.layout(room)
        return [
            str(CARDOKU_LAYOUTS[layout]),
            gettext("the same deal for everyone"),
            gettext("no undo: every move is final"),
            gettext("−%(points)s per discard") % {"points": ck.DISCARD_PENALTY},
            gettext("highest score when every deck is done wins"),
        ]

    def badges(self, room) -> list[tuple[str, str]]:
        return [("", gettext("Default layout") if self.rules(room).layout == "default" else gettext("Random layout"))]

    def parse_settings(self, data) -> A.SetRules:
        layout = data.get("layout")
        if layout not in CARDOKU_LAYOUTS:
            raise A.MalformedMessage(_("The layout must be default or random."))
        return A.SetRules(None, DuelSettings(layout=layout))

    def parse(self, data):
        """``action=place`` with ``row`` and ``col`` (or ``square``), ``action=discard``,
        or ``action=helper`` with ``option`` (moves, restrictions) and ``on`` (1/0)."""
        if data.get("action") == "helper":
            option = data.get("option")
            if option not in ("moves", "restrictions"):
                raise A.MalformedMessage(_("The helper must be moves or restrictions."))
            return A.GameMove(Helper(option, str(data.get("on", "")) in ("1", "true", "on")))
        try:
            return A.GameMove(ck_play.parse_action(data))
        except ck.CardokuError as error:
            raise A.MalformedMessage(str(error)) from None

    def start(self, room, seats) -> None:
        room.puzzle = None
        code, seed = self.new_deal()
        # The deck lives only in the seats' server-side state: Room.seed (64 bits) cannot
        # hold a long seed, and nothing else needs it. Its code is shown after the finish.
        room.seed = None
        layout = ck.random_layout(seed) if self.layout(room) == "random" else ck.default_layout()
        data = ck_play.start_state(layout, seed)
        if code:
            data["duel_code"] = code  # the 8 characters shown after the finish (the seed's own code has 26)
        for seat in seats:
            seat.finish_seconds, seat.place = None, None
            self.store(seat, dict(data, helpers={"moves": False, "restrictions": False}))
            seat.to_fill = DECK_SIZE

    def new_deal(self) -> tuple[str | None, int]:
        """(code, seed): a long seed (nine visible cards of a 40-bit random.Random deal
        singled out its seed, and so every card to come, in seconds) that an 8-character code
        names through the server's key (games/cardoku/duels.py). None: the seed's own code."""
        return duels.new_deal()

    def seat_numbers(self, data: dict) -> tuple[int, int, int, bool]:
        numbers = ck_play.summary(data)
        return numbers["score"], DECK_SIZE - numbers["cards_left"], 0, numbers["finished"]

    def apply(self, room, seat, action, now) -> DuelOutcome:
        move = action.move
        refuse_unless_playing(seat, _("Your deck is done: watch the others finish in the standings."))
        if isinstance(move, Helper):
            helpers = dict(seat.state.get("helpers", {}), **{move.option: move.on})
            seat.state = dict(seat.state, helpers=helpers)
            said = {
                ("moves", True): _("Possible moves shown."),
                ("moves", False): _("Possible moves hidden."),
                ("restrictions", True): _("Placement restrictions shown."),
                ("restrictions", False): _("Placement restrictions hidden."),
            }[move.option, bool(move.on)]
            return DuelOutcome("view", said, changed=False)
        if move.kind == "undo":
            raise MoveRefused(_("There is no undo in a duel: every move is final."))
        try:
            data, outcome = ck_play.apply_action(seat.state, move)
        except ck.IllegalMove as error:
            raise MoveRefused(str(error)) from None
        except ck.CardokuError as error:
            raise A.MalformedMessage(str(error)) from None
        kept = {key: seat.state[key] for key in ("helpers", "duel_code") if key in seat.state}
        self.store(seat, dict(data, **kept))
        return DuelOutcome(outcome.kind, outcome.message, finished=outcome.finished, engine=outcome, move=move)

    def standing_line(self, seat) -> str:
        left = DECK_SIZE - seat.progress
        return " · ".join(
            [
                gettext("%(n)s pts") % {"n": seat.score},
                ngettext("%(n)s card left", "%(n)s cards left", left) % {"n": left},
            ]
        )

    def status_note(self, seat) -> str | None:
        if seat.status == Seat.Status.FINISHED:
            return gettext("deck done")
        return super().status_note(seat)

    def silhouette(self, seat) -> list[str]:
        """Which squares hold a card, never which card."""
        if not seat.state:
            return []
        start = {(r - 1) * 9 + c - 1 for r, c, _card in seat.state["layout"]["squares"]}
        return ["g" if i in start else ("f" if code else "") for i, code in enumerate(seat.state["board"])]

    def board_context(self, room, seat, outcome=None, selected=None, mode=None, now=None, playing=True) -> dict:
        state = ck_play.load(seat.state)
        duel = outcome if isinstance(outcome, DuelOutcome) else None
        engine_outcome = duel.engine if duel is not None and duel.engine is not None else None
        view = ck_view.game_context(SeatGame(seat.state), state, engine_outcome)
        locked = not playing or seat.status != Seat.Status.PLAYING
        # The room's own outcome and error (its message line) keep their names.
        view.pop("error")
        view.pop("outcome")
        view["playing"] = view["playing"] and not locked
        view.update(
            locked=locked,
            board_class="is-cardoku",
            deal_code=(seat.state.get("duel_code") or state.deal_code) if room.state == "finished" else None,
            deal_layout=self.layout(room),
        )
        return view
