"""Database work off the sync thread: channels runs every sync call of a process (each socket's
database_sync_to_async) on one thread, so a socket's work queued there waits for every call
ahead of it, and one call that blocks (an action sent to a room's owner in another process,
rooms/forwarding.py call_elsewhere) holds up every socket of the process. Sockets' database
work runs on a pool of threads of its own instead (bench/README.md, Arenas)."""

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

_POOL: dict[int, ThreadPoolExecutor] = {}  # size -> the process's pool (one size in practice)
_POOL_LOCK = threading.Lock()


def _socket_pool(size: int) -> ThreadPoolExecutor:
    pool = _POOL.get(size)
    if pool is None:
        with _POOL_LOCK:
            pool = _POOL.setdefault(size, ThreadPoolExecutor(max_workers=size, thread_name_prefix="socket-db"))
    return pool


def socket_db(fn):
    """`fn` as a coroutine function for a socket's database work: on the process's pool of
    SOCKET_DB_THREADS threads (each borrows a pooled connection per call and gives it back);
    0 keeps channels' one sync thread (the design before, kept to be measured beside it).
    A socket's own messages stay in order: its consumer awaits each before the next."""

    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()  # back to the pool: a pool thread may not run again for long

    async def call(*args, **kwargs):
        size = settings.SOCKET_DB_THREADS
        if size <= 0:
            return await database_sync_to_async(fn)(*args, **kwargs)
        return await database_sync_to_async(run, thread_sensitive=False, executor=_socket_pool(size))(*args, **kwargs)

    return call


def off_sync_thread(fn):
    """`fn` as a coroutine function run on a pool thread, its connection closed after (a pool
    thread's connection is not reused: it would stay open for as long as the thread lives)."""

    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    return database_sync_to_async(run, thread_sensitive=False)
