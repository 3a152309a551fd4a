"""While the database cannot be reached (PostgreSQL restarting, a failover), every page answers
503 with `Retry-After` and a short page that says the club's record is safe, instead of a 500
with a traceback in the log: phones, browsers and balancers know to wait and ask again.

The middleware asks for the database before the request goes on (a connection that died while
idle is found by Django's health check and opened again, or is not there); a view that loses
it half-way ends the same way. A database error while the database does answer (a bug, a
locked SQLite file) is still a 500 with its traceback: only an unreachable database is an
outage. /healthz answers for itself ("down", 503).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.template import loader

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5
EXEMPT = ("/healthz", "/metrics")
_last_said = 0.0


def database_reachable() -> bool:
    """Can this process use the database now? Opens a connection again if the old one died."""
    try:
        connection.close_if_health_check_failed()
        connection.ensure_connection()
    except DatabaseError:
        _drop_connection()
        return False
    return True


def _drop_connection() -> None:
    with contextlib.suppress(DatabaseError):  # it was broken; Django opens a new one next time
        connection.close()


def is_outage(error: BaseException) -> bool:
    """An error of the database's connection, and the database does not answer now."""
    if not isinstance(error, (OperationalError, InterfaceError)):
        return False
    if connection.in_atomic_block:
        return False  # the caller's transaction is still open; leave it to the caller
    _drop_connection()
    return not database_reachable()


def unavailable(request: HttpRequest, error: BaseException | None = None) -> HttpResponse:
    global _last_said
    now = time.monotonic()
    if now - _last_said >= 10 or _last_said == 0.0:  # a line, not one per request
        _last_said = now
        log.warning(
            "The database does not answer (%s): pages answer 503 until it does",
            type(error).__name__ if error else "no connection",
        )
    try:
        body = loader.get_template("503.html").render({"path": request.path})
    except Exception:
        body = "<h1>Back in a moment</h1><p>The club's record is safe. Try again in a moment.</p>"
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(EXEMPT) and not database_reachable():
            return unavailable(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_outage(exception):
            return unavailable(request, exception)
        return None
