"""Live pages' change marks: what each live page last showed of an open night (the board's
revision, the night page's ETag, a table's sheet ETag), kept in the cache so that a page asking
"changed?" is told "nothing changed" without touching the database or the session.

A mark is written by the page that read the database, with the night's generation as it was
*before* that read (`stamp`). Every change to a night writes an audit event, and the event gives
the night a new generation once its transaction commits (`forget_on_commit`): every mark of the
night, the tables' too, is then stale, and the next ask reads the database. A page that read the
database while a save committed wrote the old generation beside its value, so its mark is stale
too and cannot hide the save.

Marks live `LIVE_MARK_SECONDS`: 1 s with each process's own cache (several gunicorn workers without
`CACHE_URL`: a new generation reaches only its own process, so another lags by a second at most);
with a shared cache (Redis) the new generation reaches every node, and marks live for minutes.
"""

from __future__ import annotations

import secrets
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

POLL_SECONDS = 1  # how often a live board asks without push (the page's interval, the benchmark's)

_NEVER = None  # a generation is kept until the cache evicts it (then every mark is stale)


def _generation_key(night_id: int) -> str:
    return f"live-gen:{night_id}"


def _mark_key(what: str) -> str:
    return f"live-mark:{what}"


def board(night_id: int) -> str:
    """The name of the board's mark."""
    return f"board:{night_id}"


def night_page(night_id: int) -> str:
    return f"page:{night_id}"


def sheet(channel: str) -> str:
    """A table's sheet, by its channel: the poll names it before anyone knows the table."""
    return f"sheet:{channel}"


def stamp(night_id: int) -> str:
    """The night's generation now: read it before reading the database, give it to `remember`."""
    key = _generation_key(night_id)
    cache.add(key, secrets.token_hex(8), _NEVER)
    return str(cache.get(key) or "")


def current(what: str) -> str | None:
    """The value the mark holds while its night has not changed since, or None: ask the
    database. Two cache reads, no query."""
    mark = cache.get(_mark_key(what))
    if not mark:
        return None
    night_id, generation, value = mark
    if not generation or cache.get(_generation_key(night_id)) != generation:
        return None
    return str(value)


def remember(what: str, night_id: int, generation: str, value: str) -> None:
    seconds = getattr(settings, "LIVE_MARK_SECONDS", 1)
    cache.set(_mark_key(what), (night_id, generation, value), seconds)


def forget(night_id: int) -> None:
    """Every mark of the night goes stale: a new generation."""
    cache.set(_generation_key(night_id), secrets.token_hex(8), _NEVER)


def forget_on_commit(night_id: int) -> None:
    transaction.on_commit(partial(forget, night_id))
