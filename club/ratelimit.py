"""A sliding-window limit on how often one key (a table link's token) may write, kept in Django's
cache, so that every web process counts the same writes.

With Redis (`CACHE_URL`) the window is a sorted set of the writes' times, and one Lua script drops
the old ones, counts, and records the new write: Redis runs a script alone, so two nodes counting
the same link at the same moment can never both take the last place. With the local-memory cache
(one process's own) a lock makes the same read-then-write atomic among the process's threads; each
process then counts on its own, so N processes allow up to N times the limit: still a bound,
which is what stops a stuck phone resending in a loop from flooding the server.

The times are the web node's clock: keep the nodes' clocks in step (NTP), as the correction
windows and sessions need anyway.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

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

_local_lock = threading.Lock()
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
        return _hit_redis(cache, cache_key, limit, window, now)
    with _local_lock:
        stamps = [t for t in cache.get(cache_key, []) if t > now - window]
        if len(stamps) >= limit:
            return Verdict(False, max(1, int(stamps[0] + window - now) + 1))
        stamps.append(now)
        cache.set(cache_key, stamps, window)
    return Verdict(True, 0)


def _hit_redis(cache: RedisCache, cache_key: str, limit: int, window: int, now: float) -> Verdict:
    global _script
    key = cache.make_and_validate_key(cache_key)
    try:
        # Django's Redis cache has no public call for a script: its client is the way to Redis.
        # The redis-py client behind Django's Redis cache (private: the stubs do not list it).
        client = cache._cache.get_client(key, write=True)  # type: ignore[attr-defined]
        if _script is None:
            _script = client.register_script(SLIDING_WINDOW)
        member = f"{now!r}:{uuid.uuid4().hex}"  # two writes in one microsecond are two writes
        allowed, retry_after = _script(
            keys=[key], args=[repr(now), window, limit, member], client=client
        )
    except Exception:
        # Redis unreachable: the write goes ahead uncounted rather than a table losing its hand;
        # /healthz reports the cache down and the balancer stops sending this node work.
        log.exception("The write limit could not be counted (cache unreachable); allowed")
        return Verdict(True, 0)
    return Verdict(bool(allowed), int(retry_after))
