"""A sliding-window limit on how often one key (a table link's token) may write, kept in Django's
cache. With the default local-memory cache each server process counts on its own, so behind N
processes a phone may get up to N times the limit: still a bound, which is what stops a stuck
phone resending in a loop from flooding the server."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int  # seconds until the oldest write in the window drops out; 0 when allowed


def hit(key: str, limit: int, window: int) -> Verdict:
    """Count one write for `key` if fewer than `limit` happened in the last `window` seconds."""
    now = time.time()
    cache_key = f"ratelimit:{key}"
    stamps = [t for t in cache.get(cache_key, []) if t > now - window]
    if len(stamps) >= limit:
        return Verdict(False, max(1, int(stamps[0] + window - now) + 1))
    stamps.append(now)
    cache.set(cache_key, stamps, window)
    return Verdict(True, 0)
