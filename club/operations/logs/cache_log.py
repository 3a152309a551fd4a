"""A Redis that does not answer is a cache that forgets, not an error page: django-redis does it
(`IGNORE_EXCEPTIONS`, club/settings.py), and logs each call it let through. While Redis is away
that is every cache call of every request: this filter lets one such line a minute through per
process, so the log says it without drowning in it.

Everything the app keeps in the cache can be made again (cached cards, the live board's marks);
the rate limits count in the database meanwhile (club/clubs/services/ratelimit.py), and
/healthz says
"degraded".
"""

from __future__ import annotations

import logging
import time

EVERY = 60.0  # seconds between two lines


class OncePerMinute(logging.Filter):
    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._last_said: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if self._last_said is not None and now - self._last_said < EVERY:
            return False
        self._last_said = now
        # The kind of failure, not the traceback, which is the same each time (django-redis's
        # ConnectionInterrupted, caused by redis-py's error: refused, timed out...).
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            cause = error.__cause__ or error
            record.msg = "The cache does not answer (%s): serving without it"
            record.args = (type(cause).__name__,)
            record.exc_info = None
            record.exc_text = None
        # A warning, as before django-redis: the site goes on, and error tracking (which takes
        # errors as events) is not sent one a minute for as long as Redis is away.
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
