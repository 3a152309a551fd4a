"""The sessions' store: Django's database sessions (any node reads any session), with the read
that every signed-in request starts with compiled once a process (club.core.prepared).

The session is read by its key alone and its expiry checked here, which is what Django's own
read asks of the database (`session_key = %s AND expire_date > now`)."""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from club.core.prepared import PreparedRead

_SESSION = PreparedRead(lambda key: Session.objects.filter(session_key=key), [str])


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        found = _SESSION.rows(key) if isinstance(key, str) else []
        if found and found[0].expire_date > timezone.now():
            return found[0]
        self._session_key = None  # as Django's store does: a missing or expired session is none
        return None
