"""Optional error tracking (Sentry): on only when SENTRY_DSN is set (club/settings.py).

What leaves the server is scrubbed first, in `before_send` (errors), `before_send_transaction`
and `before_breadcrumb`:
- every string of the event (the URL, the query string, exception messages, log messages and
  their arguments, breadcrumbs, the source lines) goes through
  club.operations.logs.log_redaction.redact, so a
  token URL's secret is `<token>` whatever its spelling, and email addresses become `<email>`;
- the request keeps its method, URL, query string and a few harmless headers (Host, User-Agent,
  Content-Type, Referer, ...): no cookies, no Authorization, no body, no WSGI environment (the
  visitor's address);
- no user (the SDK sends none without `send_default_pii`, and any added later is dropped), no
  local variables in the stack frames (they hold tokens, names and addresses), no SQL parameters.
Each event is tagged with the request id the logs and the error page show.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from typing import TYPE_CHECKING, Any

from club.operations.logs.log_redaction import redact

if TYPE_CHECKING:
    from sentry_sdk.types import Breadcrumb, BreadcrumbHint, Event, Hint

# An address, its @ percent-encoded too (a query string's `email=cat%40example.org`).
EMAIL = re.compile(r"[\w.+%-]+(?:@|%(?:25)*40)[\w-]+(?:\.[\w-]+)+", re.IGNORECASE)
KEPT_HEADERS = frozenset(
    {
        "host",
        "user-agent",
        "accept",
        "accept-language",
        "content-type",
        "content-length",
        "referer",
        "x-request-id",
        "hx-request",
    }
)
_PLAIN = (int, float, bool, type(None), dt.date)  # a breadcrumb's time is a datetime


def scrub(value: Any) -> Any:
    """The value with every string in it (keys too) free of tokens and email addresses; any
    other object as its scrubbed repr."""
    if isinstance(value, str):
        return EMAIL.sub("<email>", redact(value))
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    return scrub(repr(value))


def before_send(event: Event, hint: Hint) -> Event:
    from club.operations.logs.request_log import current_request_id

    event.pop("user", None)
    request = event.get("request")
    if isinstance(request, dict):
        for personal in ("cookies", "data", "env"):
            request.pop(personal, None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {
                name: value for name, value in headers.items() if name.lower() in KEPT_HEADERS
            }
    if current_request_id.get() != "-":
        event.setdefault("tags", {})["request_id"] = current_request_id.get()
    return scrub(event)


def before_breadcrumb(crumb: Breadcrumb, hint: BreadcrumbHint) -> Breadcrumb:
    if crumb.get("category") == "query":
        crumb.pop("data", None)  # a statement's parameters: names, addresses, tokens
    return scrub(crumb)


def start(dsn: str, environment: str, **extra: Any) -> None:
    """sentry_sdk.init with the scrubbers (`extra`: the tests' transport, keeping what is sent)."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    with warnings.catch_warnings():
        # Newer SDKs prefer `data_collection`; an explicit False holds whatever they default to.
        warnings.filterwarnings("ignore", "The send_default_pii option", DeprecationWarning)
        sentry_sdk.init(
            dsn=dsn,
            environment=environment,
            integrations=[DjangoIntegration(transaction_style="url")],
            send_default_pii=False,
            include_local_variables=False,
            max_request_body_size="never",
            before_send=before_send,
            before_send_transaction=before_send,
            before_breadcrumb=before_breadcrumb,
            **extra,
        )
