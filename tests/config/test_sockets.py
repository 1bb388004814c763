"""Issue 28, item 1: daphne bounds what it holds for a client that does not read
(config/sockets.py). A transport whose client reads nothing keeps every byte written to it;
before, daphne wrote every frame into it for as long as the application sent them."""

import pytest
from daphne.ws_protocol import WebSocketFactory
from twisted.internet.address import IPv4Address

from config.sockets import BoundedWebSocketProtocol, unsent_bytes

PEER = IPv4Address("TCP", "198.51.100.7", 40000)


class NothingRead:
    """A TCP transport (twisted's FileDescriptor buffers) whose kernel takes nothing more."""

    dataBuffer, offset, disconnecting = b"", 0, False

    def __init__(self):
        self._tempDataBuffer, self._tempDataLen, self.aborted = [], 0, False

    def write(self, data):
        self._tempDataBuffer.append(data)
        self._tempDataLen += len(data)

    def writeSequence(self, data):
        for part in data:
            self.write(part)

    def take_all(self):  # the client read at last
        self._tempDataBuffer, self._tempDataLen = [], 0

    def abortConnection(self):
        self.aborted = True
        self.take_all()  # twisted drops the buffer with the connection

    def loseConnection(self):
        pass

    def getPeer(self):
        return PEER

    def getHost(self):
        return IPv4Address("TCP", "127.0.0.1", 8000)

    def setTcpNoDelay(self, enabled):
        pass

    def registerProducer(self, producer, streaming):
        pass

    def unregisterProducer(self):
        pass


class Server:
    """What daphne's factory needs of its server here: nothing."""


@pytest.fixture
def socket():
    """An open socket (the handshake done) on a transport nobody reads."""
    factory = WebSocketFactory(Server())
    factory.protocol = BoundedWebSocketProtocol
    protocol = factory.buildProtocol(PEER)
    transport = NothingRead()
    protocol.makeConnection(transport)
    protocol.state, protocol.websocket_version, protocol._perMessageCompress = protocol.STATE_OPEN, 18, None
    protocol.client_addr = ["198.51.100.7", 40000]
    return protocol, transport


def send(protocol, text, **extra):
    protocol.handle_reply({"type": "websocket.send", "text": text, **extra})


def test_the_site_runs_daphne_with_the_bounded_protocol():
    import config.asgi  # noqa: F401 - installs it

    assert WebSocketFactory.protocol is BoundedWebSocketProtocol


def test_a_resync_answer_is_not_queued_behind_a_full_state_the_client_has_not_read(socket):
    protocol, transport = socket
    send(protocol, "A" * 5000, resync="state")  # the connect's full state
    held = unsent_bytes(transport)
    assert held > 5000
    send(protocol, "push")  # a push after it still goes
    for _ in range(20):
        send(protocol, "B" * 5000, resync="answer")  # the client asks again and again
    assert unsent_bytes(transport) == held + len(b"push") + 2  # one frame header: nothing more
    send(protocol, "D" * 5000, resync="state")  # a push's full state carries a change: it goes
    assert unsent_bytes(transport) > held + 5000
    transport.take_all()
    send(protocol, "C" * 5000, resync="answer")  # read: the next answer goes
    assert unsent_bytes(transport) > 5000


def test_a_client_that_reads_nothing_is_cut_off_at_the_bound_and_its_buffer_freed(socket, settings):
    settings.SOCKET_SEND_BUFFER = 64 * 1024
    protocol, transport = socket
    for _ in range(12):
        send(protocol, "x" * 5000)
    assert not transport.aborted and unsent_bytes(transport) > 55_000
    for _ in range(2):
        send(protocol, "x" * 5000)
    assert transport.aborted and unsent_bytes(transport) == 0
    for _ in range(50):
        send(protocol, "x" * 5000)  # the application has not heard of it yet: nothing is kept
    assert unsent_bytes(transport) == 0


def test_a_frame_for_a_client_that_began_closing_is_dropped_without_an_error(socket):
    """autobahn raised "Attempt to send on a closed protocol" into the consumer: a traceback
    for every client that closed before its answer."""
    protocol, transport = socket
    protocol.state = protocol.STATE_CLOSING
    send(protocol, "an answer too late")
    protocol.state = protocol.STATE_CLOSED
    send(protocol, "another")
    assert unsent_bytes(transport) == 0


class Reactor:
    """The little of a reactor a TCP transport asks for: who wants to be told of writability."""

    def __init__(self):
        self.writers = []

    def addReader(self, reader):
        pass

    def removeReader(self, reader):
        pass

    def addWriter(self, writer):
        self.writers.append(writer)

    def removeWriter(self, writer):
        pass


def tcp_transport():
    import socket

    from twisted.internet import protocol, tcp

    ours, theirs = socket.socketpair()
    theirs.settimeout(2)  # a frame left queued fails the test instead of hanging it
    transport = tcp.Server(ours, protocol.Protocol(), ("198.51.100.7", 40000), None, 1, Reactor())
    transport.registerProducer(Producer(), True)  # as daphne's HTTP channel does, for life
    return transport, theirs


class Producer:
    paused = False

    def pauseProducing(self):
        self.paused = True

    def resumeProducing(self):
        self.paused = False

    def stopProducing(self):
        pass


def test_a_frame_goes_to_the_kernel_at_once_when_nothing_waits_before_it():
    """Issue 21: twisted queues every write and wakes up when the socket is writable (a
    registration, a loop turn and a deregistration per frame); with nothing queued, the
    frame is sent at once and the reactor is not asked."""
    from config.sockets import write_now

    transport, client = tcp_transport()
    write_now(transport, b"frame one")
    assert client.recv(100) == b"frame one"
    assert transport.reactor.writers == [] and unsent_bytes(transport) == 0


def test_what_the_kernel_does_not_take_is_queued_in_order_behind_it():
    from config.sockets import write_now

    transport, _client = tcp_transport()  # kept open: its kernel buffer fills
    big = b"x" * (8 << 20)  # more than a socket pair's kernel buffers take at once
    write_now(transport, big)
    assert transport.reactor.writers == [transport] and 0 < unsent_bytes(transport) < len(big)
    write_now(transport, b"after")  # something waits: queued behind it, never sent past it
    assert unsent_bytes(transport) > 5 and transport._tempDataBuffer[-1] == b"after"
