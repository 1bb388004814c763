"""The duels' finished-seat notes go through the catalog like every other line."""

from django.utils import translation

from rooms.gametypes.cardoku import CardokuDuel
from rooms.gametypes.domino import DominoDuel
from rooms.models import Seat


def finished(state=None) -> Seat:
    return Seat(status=Seat.Status.FINISHED, state=state)


def test_cardoku_deck_done_is_translated():
    with translation.override("en"):
        assert CardokuDuel().status_note(finished()) == "deck done"
    with translation.override("nl"):
        assert CardokuDuel().status_note(finished()) == "stapel op"


def test_domino_done_without_a_known_end_is_translated():
    seat = finished({"end_reason": "something new"})
    with translation.override("en"):
        assert DominoDuel().status_note(seat) == "done"
    with translation.override("nl"):
        assert DominoDuel().status_note(seat) == "klaar"
        assert DominoDuel().status_note(finished({"end_reason": "full"})) != "klaar"
