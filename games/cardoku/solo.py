"""Solo Cardoku: the one write path. Views call ``start_game``, ``act`` and
``set_option``; each applies the action to the stored state with the pure layer
(play.py) and writes the row through games/common/rowwriter.py (one compare-and-set UPDATE of the
copy this process kept; under a lock only when the row changed meanwhile). The result is
recorded when the deck runs out (a finished game is final)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils import timezone

from games.common import rowwriter
from games.engines import cardoku as ck
from games.engines.text import _

from . import duels, play
from .models import CardokuGame

# What a move changes (CardokuGame.store); updated_at (auto_now) is written too.
MOVE_FIELDS = ["state", "score", "units", "discards", "cards_placed", "cards_left", "step", "status", "finished_at"]
OPTIONS = {"moves": "show_moves", "restrictions": "show_restrictions"}


class NotYourGame(ck.CardokuError):
    """The game belongs to another player (or does not exist)."""


def start_game(player, data: Mapping, rng: random.Random | None = None, now=None) -> CardokuGame:
    """A new game from the setup form: ``layout`` (default/random/custom, custom with
    ``spade_1``..``spade_9``) and an optional deal ``code``. Raises ``BadDealCode``,
    ``BadMove`` or ``LayoutError`` with a message for the player; nothing is saved then."""
    duel = duels.seed_of(data.get("code"))  # a duel's 8-character code replays its deck
    seed = duel[1] if duel is not None else play.parse_deal(data, rng)
    layout = play.parse_layout(data, seed)
    state = play.start_state(layout, seed)
    last = player.cardoku_games.order_by("-started_at", "-pk").first()
    game = CardokuGame(
        player=player,
        layout_kind=layout.kind,
        deal_code=duel[0] if duel is not None else ck.deal_code(seed),
        started_at=now or timezone.now(),
        show_moves=bool(last and last.show_moves),
        show_restrictions=bool(last and last.show_restrictions),
    )
    game.store(state, game.started_at)
    game.save()
    return game


@dataclass(frozen=True)
class Played:
    """One applied move: the saved game, the engine state before and after, what happened."""

    game: CardokuGame
    before: ck.GameState
    after: ck.GameState
    outcome: play.Outcome


def play_move(game_id: int, player, action: play.Action, now=None) -> Played:
    """Apply one move (place, discard, undo) to the player's game (`player`: a Profile or a
    player token) through games.common.rowwriter.write: one write, of the game this process kept from its
    last move or read by one SELECT. Raises ``NotYourGame`` or the pure layer's errors (the
    error carries the game as ``error.game`` then); then nothing is saved."""
    now = now or timezone.now()

    def change(game: CardokuGame) -> tuple[Played, list[str]]:
        before = game.engine_state()
        try:
            after, outcome = play.apply(before, game.step, action)
        except ck.CardokuError as error:
            error.game = game  # the refusal's answer shows this game as it stands
            raise
        game.store_state(after, game.step + 1, now)
        return Played(game, before, after, outcome), MOVE_FIELDS

    return rowwriter.write(CardokuGame, game_id, player, change, _not_yours())


def act(game_id: int, player, action: play.Action, now=None) -> tuple[CardokuGame, play.Outcome]:
    """``play_move`` for callers that need only the saved game and the outcome."""
    played = play_move(game_id, player, action, now)
    return played.game, played.outcome


def parse_option(data: Mapping) -> tuple[str, bool]:
    """``option=moves|restrictions`` and ``on=1|0`` (setting, not flipping, so a repeated
    request is harmless). Raises ``BadMove``."""
    option = data.get("option")
    if option not in OPTIONS:
        raise ck.BadMove(_("The option must be moves or restrictions."))
    on = data.get("on")
    if on not in ("0", "1"):
        raise ck.BadMove(_("Say on=1 or on=0 for the option."))
    return option, on == "1"


def set_option(game_id: int, player, option: str, on: bool) -> CardokuGame:
    """Turn "Show possible moves" or "Show placement restrictions" on or off."""

    def change(game: CardokuGame) -> tuple[CardokuGame, list[str]]:
        setattr(game, OPTIONS[option], on)
        return game, [OPTIONS[option]]  # and updated_at (auto_now)

    return rowwriter.write(CardokuGame, game_id, player, change, _not_yours())


def _not_yours() -> NotYourGame:
    return NotYourGame(_("That Cardoku game is not yours."))


def current_game(player) -> CardokuGame | None:
    """The player's latest game still in progress."""
    if player is None:
        return None
    return player.cardoku_games.filter(status=CardokuGame.Status.PLAYING).order_by("-started_at", "-pk").first()
