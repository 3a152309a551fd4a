"""A sliding-window limit on how often one key (a table link's token, a club's door, an address
asking for a claim link) may act, counted in a store every web process and node shares.

With Redis (`CACHE_URL`) the window is a sorted set of the writes' times, and one Lua script drops
the old ones, counts, and records the new write: Redis runs a script alone, so two nodes counting
the same link at the same moment can never both take the last place. Without Redis, or while it
does not answer (said once a minute in the log), the window is a row of the database
(`RateWindow`), locked while it is counted and written: the database is shared by every worker
and node, so a limit is never per process, and never "no limit".

The times are the web node's clock: keep the nodes' clocks in step (NTP), as the correction
windows and sessions need anyway.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches
from django.db import connection, transaction
from django_redis import get_redis_connection
from django_redis.cache import RedisCache

from club.clubs.models import RateWindow

log = logging.getLogger(__name__)

# KEYS[1] the window; ARGV: now, window (seconds), limit, this write's unique member.
# Returns {1, 0} when counted, {0, seconds until the oldest write drops out} when refused.
SLIDING_WINDOW = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then
  local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
  return {0, math.max(1, math.floor(oldest + window - now) + 1)}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return {1, 0}
"""

_script = (
    None  # the Lua script registered once (redis-py runs it by its SHA, loading it if need be)
)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int  # seconds until the oldest write in the window drops out; 0 when allowed


def hit(key: str, limit: int, window: int) -> Verdict:
    """Count one write for `key` if fewer than `limit` happened in the last `window` seconds."""
    now = time.time()
    cache_key = f"ratelimit:{key}"
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        verdict = _hit_redis(cache, cache_key, limit, window, now)
        if verdict is not None:
            return verdict
    return _hit_database(cache_key, limit, window, now)


def _hit_redis(
    cache: RedisCache, cache_key: str, limit: int, window: int, now: float
) -> Verdict | None:
    global _script
    key = cache.make_and_validate_key(cache_key)
    try:
        # The cache has no call for a script: django-redis hands out the redis-py client it uses.
        client = get_redis_connection("default")
        if _script is None:
            _script = client.register_script(SLIDING_WINDOW)
        member = f"{now!r}:{uuid.uuid4().hex}"  # two writes in one microsecond are two writes
        allowed, retry_after = _script(
            keys=[key], args=[repr(now), window, limit, member], client=client
        )
    except Exception as error:
        _say_redis_is_down(error, now)
        return None  # counted in the database instead
    return Verdict(bool(allowed), int(retry_after))


_last_said = 0.0


def _say_redis_is_down(error: Exception, now: float) -> None:
    """One warning a minute per process, not one per request, while Redis is away."""
    global _last_said
    if now - _last_said >= 60:
        _last_said = now
        log.warning(
            "Rate limits are counted in the database: the cache does not answer (%s)",
            type(error).__name__,
        )


# PostgreSQL: one statement. A new key's row is made with this write; an existing row (locked by
# ON CONFLICT until the statement ends) keeps the writes still in the window, plus this one if
# there is room. RETURNING gives the window as it now is: this write is in it or it was refused.
UPSERT = """
INSERT INTO club_ratewindow (key, stamps, expires_at, last_allowed)
SELECT %(key)s, jsonb_build_array(%(now)s::float8), %(expires)s, true {quick}
ON CONFLICT (key) DO UPDATE SET
  last_allowed = (SELECT count(*) FROM jsonb_array_elements(club_ratewindow.stamps) AS s(t)
                  WHERE (s.t #>> '{}')::float8 > %(cut)s) < %(limit)s,
  stamps = CASE
    WHEN (SELECT count(*) FROM jsonb_array_elements(club_ratewindow.stamps) AS s(t)
          WHERE (s.t #>> '{}')::float8 > %(cut)s) >= %(limit)s
    THEN club_ratewindow.stamps
    ELSE (SELECT coalesce(jsonb_agg(s.t), '[]'::jsonb)
          FROM jsonb_array_elements(club_ratewindow.stamps) AS s(t)
          WHERE (s.t #>> '{}')::float8 > %(cut)s) || jsonb_build_array(%(now)s::float8)
  END,
  expires_at = GREATEST(club_ratewindow.expires_at, EXCLUDED.expires_at)
RETURNING stamps, last_allowed
"""


# SQLite (3.35 and later, for RETURNING): the same one statement, with its JSON functions.
UPSERT_SQLITE = """
INSERT INTO club_ratewindow (key, stamps, expires_at, last_allowed)
VALUES (%(key)s, json_array(%(now)s), %(expires)s, 1)
ON CONFLICT (key) DO UPDATE SET
  last_allowed = (SELECT count(*) FROM json_each(club_ratewindow.stamps)
                  WHERE value > %(cut)s) < %(limit)s,
  stamps = CASE
    WHEN (SELECT count(*) FROM json_each(club_ratewindow.stamps) WHERE value > %(cut)s)
         >= %(limit)s
    THEN club_ratewindow.stamps
    ELSE (SELECT json_group_array(value) FROM (
            SELECT value FROM json_each(club_ratewindow.stamps) WHERE value > %(cut)s
            UNION ALL SELECT %(now)s))
  END,
  expires_at = max(club_ratewindow.expires_at, excluded.expires_at)
RETURNING stamps, last_allowed
"""


QUICK = "FROM (SELECT set_config('synchronous_commit', 'off', true)) AS quick"


def _hit_database(cache_key: str, limit: int, window: int, now: float) -> Verdict:
    key = cache_key if len(cache_key) <= 190 else "sha256:" + _digest(cache_key)
    expires = dt.datetime.fromtimestamp(now + window, dt.UTC)
    if connection.vendor == "postgresql":
        return _hit_postgresql(key, limit, window, now, expires)
    if connection.features.can_return_columns_from_insert:
        return _hit_sqlite(key, limit, window, now, expires)
    # No savepoint inside a caller's transaction: nothing here raises on a race (the insert
    # ignores a conflict), and the window's row stays locked until that transaction ends.
    with transaction.atomic(savepoint=False):
        row = RateWindow.objects.select_for_update().filter(key=key).first()
        if row is None:
            # The key's first write: an empty window, made once whoever races to make it (the
            # loser's insert does nothing), then locked and counted like every other.
            RateWindow.objects.bulk_create(
                [RateWindow(key=key, stamps=[], expires_at=expires)], ignore_conflicts=True
            )
            row = RateWindow.objects.select_for_update().get(key=key)
        stamps = sorted(t for t in row.stamps if t > now - window)
        if len(stamps) >= limit:
            RateWindow.objects.filter(pk=row.pk).update(last_allowed=False)
            return Verdict(False, max(1, int(stamps[0] + window - now) + 1))
        row.stamps = [*stamps, now]
        row.expires_at = expires
        row.last_allowed = True
        row.save(update_fields=["stamps", "expires_at", "last_allowed"])
    return Verdict(True, 0)


def _hit_postgresql(key: str, limit: int, window: int, now: float, expires: dt.datetime) -> Verdict:
    params: dict[str, Any] = {
        "key": key,
        "now": now,
        "expires": expires,
        "cut": now - window,
        "limit": limit,
    }
    # A window lost in a crash costs nothing, so its own commit need not wait for the disk;
    # inside a caller's transaction (a hand's save) the caller's commit must, and does.
    quick = "" if connection.in_atomic_block else QUICK
    with connection.cursor() as cursor:
        cursor.execute(UPSERT.replace("{quick}", quick), params)
        stamps, allowed = cursor.fetchone()
    if isinstance(stamps, str):  # a driver that does not decode jsonb
        stamps = json.loads(stamps)
    return _verdict(stamps, allowed, now, window)


def _hit_sqlite(key: str, limit: int, window: int, now: float, expires: dt.datetime) -> Verdict:
    """One statement, as on PostgreSQL: SQLite runs it under its one write lock."""
    params: dict[str, Any] = {
        "key": key,
        "now": now,
        "expires": connection.ops.adapt_datetimefield_value(expires),
        "cut": now - window,
        "limit": limit,
    }
    with connection.cursor() as cursor:
        cursor.execute(UPSERT_SQLITE, params)
        stamps, allowed = cursor.fetchone()
    return _verdict(json.loads(stamps) if isinstance(stamps, str) else stamps, allowed, now, window)


def _verdict(stamps: list[Any], allowed: bool, now: float, window: int) -> Verdict:
    if allowed:
        return Verdict(True, 0)
    live = sorted(float(t) for t in stamps if float(t) > now - window)
    oldest = live[0] if live else now
    return Verdict(False, max(1, int(oldest + window - now) + 1))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def sweep(now: float | None = None) -> int:
    """Delete the windows long over (the worker does, every few minutes; so does
    `manage.py publish_due`): never in a request, which keeps to its queries."""
    now = time.time() if now is None else now
    cut = dt.datetime.fromtimestamp(now - 60, dt.UTC)
    return RateWindow.objects.filter(expires_at__lt=cut).delete()[0]
