"""Database work off the sync thread: channels runs every sync call of a process (each request,
each socket's database_sync_to_async) on one thread, so a socket's work queued there waits for
every request ahead of it. Work that may run beside them goes to a pool thread instead."""

from channels.db import database_sync_to_async
from django.db import connection


def off_sync_thread(fn):
    """`fn` as a coroutine function run on a pool thread, its connection closed after (a pool
    thread's connection is not reused: it would stay open for as long as the thread lives)."""

    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    return database_sync_to_async(run, thread_sensitive=False)
