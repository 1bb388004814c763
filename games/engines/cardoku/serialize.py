"""JSON-safe save and load.

``to_dict`` writes the layout, the seed and the move list (the truth) plus derived
fields (board, position, discards, finished) for convenience. ``from_dict`` rebuilds
the state by replaying the moves, so a tampered board can never be loaded: any derived
field present must match the replay, or :class:`BadState` is raised.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import parse_card
from .deal import deal, deal_code, parse_deal_code
from .errors import BadCard, BadState, CardokuError
from .game import DISCARD, PLACE, GameState, Move, _index, replay
from .layout import Layout

FORMAT_VERSION = 1


def to_dict(state: GameState) -> dict:
    """A JSON-safe dict (ints, strings, lists, None, bools) describing ``state``."""
    return {
        "version": FORMAT_VERSION,
        "layout": state.layout.to_dict(),
        "seed": state.seed,
        "deal_code": deal_code(state.seed),
        "moves": [list(m) for m in state.moves],
        "board": [c.code if c else None for c in state.board],
        "position": state.position,
        "discards": state.discards,
        "finished": state.finished,
    }


def from_dict(data: Mapping) -> GameState:
    """Inverse of :func:`to_dict`. Raises :class:`BadState` if the data is corrupt."""
    if not isinstance(data, Mapping):
        raise BadState("A saved game must be a dict.")
    if data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        raise BadState(f"Unknown saved game version {data.get('version')!r}.")
    try:
        layout = Layout.from_dict(data["layout"])
        seed = data["seed"] if "seed" in data else parse_deal_code(data["deal_code"])
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise BadState("The saved moves must be a list.")
        state = replay(layout, seed, moves)
    except KeyError as exc:
        raise BadState(f"The saved game is missing {exc.args[0]!r}.") from None
    except BadState:
        raise
    except CardokuError as exc:
        raise BadState(f"The saved game does not replay: {exc}") from None
    if "deal_code" in data and "seed" in data:
        try:
            if parse_deal_code(data["deal_code"]) != seed:
                raise BadState("The saved deal code does not match the seed.")
        except CardokuError:
            raise BadState("The saved deal code does not match the seed.") from None
    if "board" in data:
        try:
            board = tuple(parse_card(c) if c is not None else None for c in data["board"])
        except (BadCard, TypeError):
            raise BadState("The saved board holds something that is not a card.") from None
        if board != state.board:
            raise BadState("The saved board does not match the moves.")
    for key in ("position", "discards", "finished"):
        if key in data and data[key] != getattr(state, key):
            raise BadState(f"The saved {key} does not match the moves.")
    return state


def restore(data: Mapping) -> GameState:
    """Rebuild a state that :func:`to_dict` wrote, trusting it: the moves are walked, not
    checked against the rules again (a write path that saved the dict itself loads it once
    per move; :func:`from_dict` replays and checks everything, for data from elsewhere).
    Equal to ``from_dict(data)`` for every dict ``to_dict`` writes."""
    layout = Layout.from_dict(data["layout"])
    deck = deal(data["seed"])
    board: list = [None] * 81
    for (row, col), card in layout.placements:
        board[_index(row, col)] = card
    history: list[Move] = []
    discards = 0
    for move in data["moves"]:
        card = deck[len(history)]
        if move[0] == PLACE:
            board[_index(move[1], move[2])] = card
            history.append(Move(PLACE, card, move[1], move[2]))
        elif move[0] == DISCARD:
            history.append(Move(DISCARD, card))
            discards += 1
        else:
            return from_dict(data)  # not a dict to_dict wrote: replay and check
    position = len(history)
    return GameState(
        layout=layout,
        seed=data["seed"],
        deck=deck,
        board=tuple(board),
        position=position,
        history=tuple(history),
        discards=discards,
        finished=position >= len(deck),
    )
