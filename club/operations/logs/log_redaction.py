"""No token reaches the logs: every log line (the app's, Django's own "Not Found: /t/<token>/"
and "Internal Server Error: ...", runserver's and gunicorn's access lines) has the secret part
of a token URL replaced by `<token>` before it is written, its traceback included.

The token URLs are named once, in TOKEN_HEADS: the path segments before a secret, and how many
secret segments follow (tests/operations/test_log_redaction.py checks the list against every URL the
app serves). A URL can reach a log line in many spellings (gunicorn writes the request line as
sent: `/t/%41bc/`, `/%74/abc/`, `/t%2Fabc/`, `?next=%252Ft%252Fabc`, `/T/abc/`), so the filter
does not match spellings: it cuts a line into words (between spaces and quotes), reads each word
as the server would, percent-decoded until nothing changes, and matches the heads there on whole
path segments, in any case, after any run of slashes or backslashes. A word with a secret is
written decoded, its secrets as `<token>`; any other word is left as it was.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import quote, unquote

# The path before each token URL's secret (lower case, "/" between segments): how many secret
# segments follow it.
TOKEN_HEADS: dict[str, int] = {
    "t": 1,  # a table's link, /t/<token>/
    "k": 1,  # a table's permanent card, /k/<token>/
    "door": 1,  # the club's door, /c/<club>/door/<token>/
    "owed": 1,  # the payee's link, /c/<club>/owed/<token>/
    "own": 1,  # a player's own link, /c/<club>/own/<token>/
    "unsubscribe": 1,  # /c/<club>/unsubscribe/<token>/
    "claim": 1,  # a member's claim on a player, /c/<club>/claim/<token>/
    "calendar": 1,  # a league club's calendar feed, /leagues/<league>/calendar/<token>.ics
    "signup/confirm": 1,  # the sign-up email's link: it signs the new secretary in
    "accounts/reset": 2,  # the password reset link, /accounts/reset/<uidb64>/<token>/
    "cards": 1,  # a league card's away link, /leagues/<league>/cards/<token>/
}
_HEADS = [(tuple(head.split("/")), count) for head, count in TOKEN_HEADS.items()]
# Pages under a head that are no secret: Django's /accounts/reset/done/ and .../set-password/,
# the tables' cards' sheet /c/<club>/setup/cards/print.pdf.
_PAGES = {"done", "set-password", "print.pdf"}

_WORD = re.compile(r"[^\s\"']+")
# Between segments: slashes (a backslash too, as some clients read it) or a query's punctuation;
# no token the app makes holds one of these (URL-safe base64, Django's signing adds `:` and `.`).
_SEPARATOR = re.compile(r"([/\\?#&=]+)")
_SLASHES = re.compile(r"[/\\]+")
_PLACEHOLDER = re.compile(r"<[\w:]*>")  # a route's `<str:token>`, or a `<token>` already
# Written percent-encoded in a decoded word, so that a line stays one line and its quotes hold.
_UNSAFE = re.compile(r"[\s\"'\x00-\x1f\x7f]")


def decoded(word: str) -> str:
    """The word percent-decoded until nothing changes (each pass shortens it, so it ends)."""
    while "%" in word and (once := unquote(word)) != word:
        word = once
    return word


def _redact_word(word: str) -> str:
    # [segment, separator, segment, separator, ..., segment]
    parts = _SEPARATOR.split(decoded(word))
    segments = [part.lower() for part in parts[::2]]
    found = False
    for i in range(len(segments)):
        for head, count in _HEADS:
            end = i + len(head)
            if tuple(segments[i:end]) != head:
                continue
            if not all(_SLASHES.fullmatch(parts[2 * j - 1]) for j in range(i + 1, end)):
                continue
            for j in range(end, min(end + count, len(segments))):
                secret = parts[2 * j]
                if not (_SLASHES.fullmatch(parts[2 * j - 1]) and secret):
                    break
                if secret.lower() not in _PAGES and not _PLACEHOLDER.fullmatch(secret):
                    parts[2 * j] = "<token>"
                    found = True
    if not found:
        return word
    return _UNSAFE.sub(lambda m: quote(m[0], safe=""), "".join(parts))


def redact(text: str) -> str:
    return _WORD.sub(lambda m: _redact_word(m[0]), text)


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
