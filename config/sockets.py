"""daphne's WebSocket protocol with a bound on what it holds for one client (issue 28, 1).

twisted's transport keeps every frame the application sends until the kernel takes it, and
the kernel takes nothing more from a client that stops reading: 20 such clients syncing at
9/s grew daphne from 155 to over 400 MB in a minute. Here a socket may hold at most
settings.SOCKET_SEND_BUFFER bytes its client has not taken; past that the connection is
aborted (its buffer freed at once, the application told 1006 like any lost connection). The
answer to a client's own resync request (a frame sent with "resync": "answer") is dropped
while a full state sent before it (any frame with "resync" set) is still waiting for the
client: that one, and the pushes after it, already bring the client up to date (a push's
full state is never dropped: it may be the only frame that carries its change). A frame
sent after the client began closing is dropped (autobahn raised "Attempt to
send on a closed protocol" into the consumer: a traceback for every client that closes
before its answer).

A frame is also handed to the kernel at once when nothing is queued before it (`write_now`):
twisted's transport only queues it and asks the event loop to be told when the socket is
writable, which costs a registration, a loop turn and a deregistration per frame (about a
third of the I/O CPU of a live room; issue 21).

Installed by config/asgi.py (daphne builds its protocol from WebSocketFactory.protocol when
the server starts, after importing the application)."""

import logging

from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.conf import settings
from twisted.internet import tcp

logger = logging.getLogger(__name__)


def unsent_bytes(transport) -> int:
    """Bytes handed to `transport` that the kernel has not taken yet (twisted's FileDescriptor
    buffers; behind a TLS wrapper, the TCP transport under it)."""
    while not hasattr(transport, "dataBuffer") and hasattr(transport, "transport"):
        transport = transport.transport
    buffered = len(getattr(transport, "dataBuffer", b"")) - getattr(transport, "offset", 0)
    return buffered + getattr(transport, "_tempDataLen", 0)


def write_now(transport, data: bytes) -> None:
    """`transport.write(data)`, but sent right away when the socket has nothing queued
    before it (what asyncio's own transports do); what the kernel does not take now is
    queued as usual (and pauses the producer, daphne's HTTP channel, as usual). Only a
    plain TCP transport: anything else (TLS, a closing connection) goes the usual way."""
    if (
        type(transport) is tcp.Server
        and transport.connected
        and not transport.disconnecting
        and not transport._writeDisconnected
        and not transport.TLS
        and not transport._tempDataLen
        and len(transport.dataBuffer) == transport.offset
    ):
        sent = transport.writeSomeData(data)
        if isinstance(sent, int):  # else the connection is lost: the usual path finds out
            if sent == len(data):
                return
            data = data[sent:]
    transport.write(data)


class BoundedWebSocketProtocol(WebSocketProtocol):
    handed = 0  # bytes given to the transport (frames, pings, the handshake)
    resync_end = 0  # `handed` just after the latest full state (answer or push)
    cut = False

    def sendData(self, data, sync=False, chopsize=None):
        self.handed += len(data)
        if sync or chopsize or self.send_queue or self.logOctets or self.state != self.STATE_OPEN:
            super().sendData(data, sync, chopsize)
            return
        # autobahn's own path, less its per-frame debug line (built even when not logged)
        write_now(self.transport, data)
        self.trafficStats.outgoingOctetsWireLevel += len(data)

    def taken(self) -> int:
        """Bytes the kernel has taken off the transport so far."""
        return self.handed - unsent_bytes(self.transport)

    def handle_reply(self, message):
        if message.get("type") != "websocket.send":
            super().handle_reply(message)
            return
        if self.cut or self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
            return  # the client is going or gone: nothing to send it
        if message.get("resync") == "answer" and self.taken() < self.resync_end:
            return  # a full state is still waiting for this client, and pushes since then
        super().handle_reply(message)
        if message.get("resync"):
            self.resync_end = self.handed
        if unsent_bytes(self.transport) > settings.SOCKET_SEND_BUFFER:
            self.cut = True
            logger.warning(
                "socket of %s cut off: %d bytes its client has not read", self.client_addr, unsent_bytes(self.transport)
            )
            self.dropConnection(abort=True)


def install() -> None:
    WebSocketFactory.protocol = BoundedWebSocketProtocol
