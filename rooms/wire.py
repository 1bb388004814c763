"""Every message between processes, typed: one dataclass per kind (lila's actorApi).

A process's hub (rooms/hub.py) sends these over the channel layer to another process's
channel (or a room's process group) and reads them back with `parse`, in one `match`.
On the wire each is the plain dict channels carries (its fields plus "type").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import ClassVar

from . import actions as A


@dataclass(frozen=True)
class Act:
    """A socket's message for a room owned elsewhere, as the consumer parsed it (an
    A.Incoming: `action` as `action_to` writes it, `mid` and the view hints `mode` and
    `cell`; the owner rebuilds it with `incoming`, never from the client's raw message).
    The owner answers with an Answer carrying `token`: to `via` (the sender's process
    channel, in order with the room's pushes and batched with them) or, from a sender
    without one, to `reply` (the socket's own channel)."""

    code: str
    player: int
    token: str
    action: dict
    mid: str
    reply: str
    language: str | None = None
    via: str = ""
    mode: str = "enter"
    cell: int | None = None
    type: ClassVar[str] = "live.act"

    def incoming(self, game) -> A.Incoming:
        """The typed message the sender's consumer parsed, for a room of `game`."""
        return A.Incoming(action_from(self.action, game), self.mid, self.mode, self.cell)


@dataclass(frozen=True)
class Call:
    """An action of another process's locked path (a view, a task): `action` as `action_to`
    writes it. The owner replies to `reply` with a Replied or a Refused."""

    code: str
    player: int | None
    action: dict
    mid: str
    reply: str
    type: ClassVar[str] = "live.call"


@dataclass(frozen=True)
class Watch:
    """The process `channel` has sockets of `code`, in `languages`: the owner pushes to it
    too, its standings in those languages (None: every language the site speaks)."""

    code: str
    channel: str
    languages: list[str] | None = None
    type: ClassVar[str] = "live.watch"


@dataclass(frozen=True)
class Unwatch:
    code: str
    channel: str
    type: ClassVar[str] = "live.unwatch"


@dataclass(frozen=True)
class Push:
    """A change of `code` for the process's sockets: `event` as rooms/push.py builds it."""

    code: str
    event: dict
    type: ClassVar[str] = "live.push"


@dataclass(frozen=True)
class Hello:
    """A new owner of `code` announces its channel to the room's process group."""

    code: str
    channel: str
    type: ClassVar[str] = "live.hello"


@dataclass(frozen=True)
class Batch:
    """Several messages for one process channel, in the order they were queued: one
    channel-layer message (four Redis round trips to send, four to receive) instead of
    one each."""

    messages: list
    type: ClassVar[str] = "live.batch"


@dataclass(frozen=True)
class Answer:
    """The owner's answer to an Act, for the socket that sent it (its consumer's live_answer)."""

    html: str
    token: str | None
    type: ClassVar[str] = "live.answer"


Message = Act | Call | Watch | Unwatch | Push | Hello | Answer | Batch
_KINDS: dict[str, type] = {kind.type: kind for kind in (Act, Call, Watch, Unwatch, Push, Hello, Answer, Batch)}
# Each kind's field names, once: a forwarded move is encoded and parsed several times.
_NAMES: dict[type, tuple[str, ...]] = {kind: tuple(field.name for field in fields(kind)) for kind in _KINDS.values()}


def encode(message: Message) -> dict:
    # Shallow, not dataclasses.asdict: that deep-copies every push's rendered standings,
    # and the layer serializes the dict right away anyway.
    return {"type": message.type, **{name: getattr(message, name) for name in _NAMES[type(message)]}}


def parse(message: dict) -> Message | None:
    """The typed message a plain dict from the channel layer is (None: not one of ours)."""
    kind = _KINDS.get(message.get("type", ""))
    if kind is None:
        return None
    return kind(**{name: message[name] for name in _NAMES[kind] if name in message})


# The reply to a Call is read straight off its reply channel (no "type"): these two dicts.
def replied(changed: bool, duplicate: bool) -> dict:
    return {"changed": changed, "duplicate": duplicate}


def refused(error: str, kind: str) -> dict:
    return {"error": error, "kind": kind}


NOT_OWNER = "NotOwner"


# Every action that reaches a room's owner from another process, by class name: a socket's
# message forwarded to it (Act) and a locked path's call (Call: a view, a task) carry it as
# plain values (what channels-redis carries): its class name and its fields apart (Coming has
# a `name`). A board move is A.GameMove of one of the game type's own moves (GameType.moves);
# host settings are their `to_dict`.
_ACTIONS = {
    cls.__name__: cls
    for cls in (
        A.Join,
        A.Leave,
        A.Forfeit,
        A.SetReady,
        A.SetRules,
        A.Kick,
        A.Start,
        A.Sync,
        A.Expire,
        A.Coming,
        A.Remind,
        A.Reschedule,
        A.Cancel,
        A.GameMove,
    )
}


def action_to(action) -> dict:
    """A typed action as plain values (TypeError for one no owner elsewhere can be sent)."""
    name = type(action).__name__
    if _ACTIONS.get(name) is not type(action):
        raise TypeError(f"{name} cannot be sent to a live owner")
    if isinstance(action, A.GameMove):
        if not is_dataclass(action.move) or isinstance(action.move, type):
            raise TypeError(f"{type(action.move).__name__} is not a game type's typed move")
        return {"name": name, "move": type(action.move).__name__, "fields": asdict(action.move)}
    values = asdict(action)
    if isinstance(action, A.SetRules):
        values["rules"] = action.rules.to_dict()
    if isinstance(action, A.Reschedule):
        values["scheduled_for"] = action.scheduled_for.isoformat()
    return {"name": name, "fields": values}


def action_from(data: dict, game):
    """`action_to`'s dict -> the typed action again, for a room of `game` (its moves and
    settings): a name it does not know is a KeyError."""
    kind, values = _ACTIONS[data["name"]], dict(data["fields"])
    if kind is A.GameMove:
        moves = {cls.__name__: cls for cls in game.moves}
        return A.GameMove(moves[data["move"]](**values))
    if kind is A.SetRules:
        values["rules"] = game.settings_from(values["rules"])
    if kind is A.Reschedule:
        values["scheduled_for"] = dt.datetime.fromisoformat(values["scheduled_for"])
    return kind(**values)
