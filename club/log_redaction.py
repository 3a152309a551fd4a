"""No token reaches the logs: every log line (the app's, Django's own "Not Found: /t/<token>/"
and "Internal Server Error: ...", runserver's and gunicorn's access lines) has the secret part
of a token URL replaced by `<token>` before it is written, its traceback included.

The token URLs: a table's link `/t/…/`, a table's card `/k/…/`, the club's door
`/c/<club>/door/…/`, the payee's link `/c/<club>/owed/…/`, the unsubscribe link, a claim link
`/c/<club>/claim/…/`, an invitation's, and the password reset link `/accounts/reset/<uid>/<token>/`;
also when they are quoted in a query string (`?next=%2Ft%2F…`).
"""

from __future__ import annotations

import logging
import re

_SEGMENT = r"[^/\s\"'?#<>&%]+"
# A slash-separated path: the head stays, the token after it goes.
_PATHS = re.compile(
    r"(?P<head>/(?:t|k|door|owed|unsubscribe|claim|invite|join)/"
    r"|/invitations/(?=\d*[^\d/\s])"  # an invitation's token, not its number
    r"|/accounts/reset/" + _SEGMENT + "/)" + _SEGMENT
)
# The same quoted in a query string (next=%2Ft%2F<token>%2F), either case of %2f.
_QUOTED = re.compile(
    r"(?P<head>%2[Ff](?:t|k|door|owed|unsubscribe|claim|invite|join|invitations)%2[Ff]"
    r"|%2[Ff]accounts%2[Ff]reset%2[Ff][^%\s&\"']+%2[Ff])[^%\s&\"'#]+"
)


def redact(text: str) -> str:
    text = _PATHS.sub(lambda m: m["head"] + "<token>", text)
    return _QUOTED.sub(lambda m: m["head"] + "<token>", text)


class RedactTokens(logging.Filter):
    """On a handler (every record it writes) or a logger (every record made there)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record is the logging module's to report
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
        route = getattr(record, "route", None)  # the request line's own field (JSON logs)
        if isinstance(route, str):
            record.route = redact(route)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


# Loggers that write through handlers of their own rather than the root's (runserver's request
# lines, gunicorn's access and error logs): the filter goes on the logger itself.
OWN_HANDLERS = ("django.server", "gunicorn.access", "gunicorn.error")


def install() -> None:
    for name in OWN_HANDLERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
