"""Logs a hosting operator can use: one line per request, and a request id on every line.

RequestLogMiddleware gives each request an id (the one the proxy in front sent as X-Request-ID
when TRUSTED_PROXY_COUNT says there is one, so nginx's and the app's lines match; else a new
one), returns it in the X-Request-ID response header and on the error page, and writes, once the
response is ready, one line to the `club.requests` logger: the id, the club's slug, the method,
the route, the status and the time taken. The route is the URL pattern
(`t/<str:token>/hands/`), never the path itself, so a table link's token or an unsubscribe token
does not end up in the logs.

RequestIdFilter stamps every log record made while a request is handled (Django's own error
reports with their tracebacks, the app's warnings) with the same id; JsonFormatter writes a
record as one JSON object per line (`LOG_FORMAT=json`).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from club.operations.logs.log_redaction import redact

log = logging.getLogger("club.requests")
current_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
INCOMING = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")
FIELDS = ("club", "method", "route", "status", "ms")


def request_id_of(request: HttpRequest) -> str:
    return getattr(request, "request_id", "") or current_request_id.get()


def _new_id(request: HttpRequest) -> str:
    if getattr(settings, "TRUSTED_PROXY_COUNT", 0):
        sent = request.headers.get("X-Request-ID", "")
        if INCOMING.match(sent):
            return sent
    return uuid.uuid4().hex


def _club(request: HttpRequest) -> str:
    slug = getattr(request, "club_slug", None)
    if slug is None and request.resolver_match is not None:
        slug = request.resolver_match.kwargs.get("slug")
    return str(slug or "-")


def route_of(request: HttpRequest) -> str:
    """The URL's pattern (`/t/<str:token>/hands/`), else the path cut short."""
    return _route(request)


def _route(request: HttpRequest) -> str:
    match = request.resolver_match
    if match is not None and match.route:
        return "/" + match.route.lstrip("^")
    # Unresolved (a 404, a redirect before routing): the path, cut short and without its query,
    # a token's secret already out of it for whatever reads the record (an error tracker too).
    return redact(request.path[:120])


class RequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = _new_id(request)
        # The request carries its club and id to the log line.
        request.request_id = request_id  # type: ignore[attr-defined]
        token = current_request_id.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            ms = round((time.perf_counter() - started) * 1000, 1)
            fields = {
                "club": _club(request),
                "method": request.method,
                "route": _route(request),
                "status": response.status_code,
                "ms": ms,
            }
            log.info(
                "%(method)s %(route)s %(status)s %(ms).1fms club=%(club)s", fields, extra=fields
            )
            return response
        finally:
            current_request_id.reset(token)


class RequestIdFilter(logging.Filter):
    """Every record gets `request_id`: the request's it was made in, else "-". Django reports a
    4xx answer ("Not Found: ...") once the middleware has finished, with the request attached:
    its id is taken from there."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            request = getattr(record, "request", None)
            record.request_id = getattr(request, "request_id", None) or current_request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, request_id, the request
    line's fields when it is one, and the traceback of an error."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", current_request_id.get()),
        }
        for name in FIELDS:
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        if record.exc_text:  # as club.operations.logs.log_redaction left it, without tokens
            entry["error"] = record.exc_text
        elif record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)
