"""Every message between processes, typed: one dataclass per kind (lila's actorApi).

A process's hub (rooms/hub.py) sends these over the channel layer to another process's
channel (or a room's process group) and reads them back with `parse`, in one `match`.
On the wire each is the plain dict channels carries (its fields plus "type").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import ClassVar

from . import actions as A


@dataclass(frozen=True)
class Act:
    """A socket's message for a room owned elsewhere; the owner answers with an Answer
    carrying `token`: to `via` (the sender's process channel, in order with the room's
    pushes and batched with them) or, from a sender without one, to `reply` (the socket's
    own channel)."""

    code: str
    player: int
    token: str
    data: dict
    mid: str
    reply: str
    language: str | None = None
    via: str = ""
    type: ClassVar[str] = "live.act"


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


# Actions the locked path of another process (a view, a task) hands to a room's owner:
# those made of plain values. The duels' board moves arrive over the sockets only.
_ACTIONS = {
    cls.__name__: cls
    for cls in (
        A.Join,
        A.Leave,
        A.Forfeit,
        A.SetReady,
        A.Kick,
        A.Start,
        A.Sync,
        A.Expire,
        A.Enter,
        A.Note,
        A.SetNotes,
        A.Hint,
    )
}


def action_to(action) -> dict:
    if type(action).__name__ not in _ACTIONS:
        raise TypeError(f"{type(action).__name__} cannot be sent to a live owner")
    return {"name": type(action).__name__, **asdict(action)}


def action_from(data: dict):
    values = dict(data)
    return _ACTIONS[values.pop("name")](**values)
