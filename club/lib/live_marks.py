"""The live board's change marks: each open night's revision, kept in the cache so that a board
polling every second is told "nothing changed" without touching the database.

A board asks with the revision it shows; the answer is an empty 204 when the cache holds the
same revision. Every change to a night writes an audit event, and the event forgets the night's
mark once its transaction commits, so the next poll reads the database and sees the change. The
mark also lives only `LIVE_MARK_SECONDS` (1 s): a cache each process keeps for itself (several
gunicorn workers without `CACHE_URL`) then lags by a second at most, and a mark written by a board
that raced a save cannot outlive it. With a shared cache (Redis) the forgetting reaches every node.
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

POLL_SECONDS = 1  # how often a live board asks (the page's interval, and the benchmark's)


def _key(night_id: int) -> str:
    return f"live-night:{night_id}"


def current(night_id: int) -> str | None:
    """The revision the cache holds for the night, or None: then ask the database."""
    return cache.get(_key(night_id))


def remember(night_id: int, revision: str) -> None:
    cache.set(_key(night_id), revision, getattr(settings, "LIVE_MARK_SECONDS", 1))


def forget(night_id: int) -> None:
    cache.delete(_key(night_id))


def forget_on_commit(night_id: int) -> None:
    transaction.on_commit(partial(forget, night_id))
