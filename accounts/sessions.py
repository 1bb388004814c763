"""Sessions (only signed-in players have one) read from the cache and written through to the
database, as Django's cached_db, so that a signed-in player's move pays no session query
(bench/moves.py). Unlike cached_db it outlives the cache: with Redis away a session is read
from and deleted in the database alone (a deletion the cache missed leaves its copy there until
it expires: only a copy of the old session cookie could use it, and signing out replaces the
browser's own)."""

import logging

from django.contrib.sessions.backends import cached_db, db

logger = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            return super().load()
        except Exception:  # the cache (Redis) is away: the database alone
            logger.warning("session cache unavailable: read from the database", exc_info=True)
            return db.SessionStore.load(self)

    def delete(self, session_key=None):
        try:
            super().delete(session_key)
        except Exception:  # the cache (Redis) is away: the row goes all the same
            logger.warning("session cache unavailable: deleted in the database only", exc_info=True)
            db.SessionStore.delete(self, session_key)
