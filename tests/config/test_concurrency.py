"""config/asgi.py ConcurrencyLimit: a request holds its place until its work is done, not until
its client leaves. Django abandons a view whose client disconnected (its thread runs on, with
its database connection) and daphne cancels the application 10 s after a disconnect; each let
the next request in beside the running thread, and at 2,000 arena players (bench/arena.py) a
hundred such threads took every pooled connection."""

import asyncio
import threading

from config.asgi import ConcurrencyLimit

SCOPE = {"type": "http", "method": "GET", "headers": []}


def client(*messages):
    """A client's `receive`: the body, then whatever it does next (a disconnect)."""
    queue = asyncio.Queue()
    for message in messages:
        queue.put_nowait(message)
    return queue.get


async def replies(message):
    pass


def django_like(started: list, gate: threading.Event):
    """What Django's handler does with a sync view: the view in a thread; a disconnect heard
    meanwhile abandons the view (the thread runs on) and the handler returns."""

    async def app(scope, receive, send):
        started.append(scope["path"])
        await receive()  # the body
        listening = asyncio.ensure_future(receive())
        view = asyncio.ensure_future(asyncio.to_thread(gate.wait, 10))
        await asyncio.wait({listening, view}, return_when=asyncio.FIRST_COMPLETED)
        listening.cancel()
        if not view.done():
            return  # the client left: the view is abandoned, its thread is not
        await send({"type": "http.response.start", "status": 200, "headers": []})

    return app


def test_a_request_whose_client_left_holds_its_place_until_its_thread_is_done():
    async def scenario():
        started, gate = [], threading.Event()
        limit = ConcurrencyLimit(django_like(started, gate), 1)
        body, gone = {"type": "http.request", "body": b""}, {"type": "http.disconnect"}
        first = asyncio.ensure_future(limit({**SCOPE, "path": "/a"}, client(body, gone), replies))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(limit({**SCOPE, "path": "/b"}, client(body), replies))
        await asyncio.sleep(0.3)
        assert started == ["/a"]  # the old limit let /b in beside /a's thread here
        first.cancel()  # daphne gives up on the gone client's application
        await asyncio.sleep(0.3)
        assert started == ["/a"]
        gate.set()  # /a's view (its thread) is done: only now /b gets its place
        await asyncio.wait_for(second, 5)
        assert started == ["/a", "/b"]

    asyncio.run(scenario())


def test_a_request_whose_client_waits_gets_its_answer():
    async def scenario():
        started, gate, sent = [], threading.Event(), []
        gate.set()

        async def send(message):
            sent.append(message["type"])

        limit = ConcurrencyLimit(django_like(started, gate), 1)
        await limit({**SCOPE, "path": "/a"}, client({"type": "http.request", "body": b""}), send)
        await limit({**SCOPE, "path": "/b"}, client({"type": "http.request", "body": b""}), send)
        assert started == ["/a", "/b"] and sent == ["http.response.start"] * 2

    asyncio.run(scenario())
