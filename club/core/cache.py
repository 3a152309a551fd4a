"""Django's Redis cache, but a Redis that does not answer is a cache that forgets, not an error
page: a read is a miss, a write is dropped, and the log says so once a minute (per process).
Everything the app keeps there can be made again (cached cards, the live board's marks); the
rate limits count in the database meanwhile (club/clubs/services/ratelimit.py), and /healthz says
"degraded".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
_last_said = 0.0


def _forgiving(name: str, fallback: Callable[..., Any]) -> Callable[..., Any]:
    strict = getattr(RedisCache, name)

    def method(self: RedisCache, *args: Any, **kwargs: Any) -> Any:
        try:
            return strict(self, *args, **kwargs)
        except (RedisError, OSError) as error:
            _say(name, error)
            return fallback(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = strict.__doc__
    return method


def _say(operation: str, error: Exception) -> None:
    global _last_said
    now = time.monotonic()
    if now - _last_said >= 60 or _last_said == 0.0:
        _last_said = now
        log.warning(
            "The cache does not answer (%s on %s): serving without it",
            type(error).__name__,
            operation,
        )


def _default(key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


class ForgivingRedisCache(RedisCache):
    get = _forgiving("get", _default)
    get_many = _forgiving("get_many", lambda *a, **k: {})
    has_key = _forgiving("has_key", lambda *a, **k: False)
    set = _forgiving("set", lambda *a, **k: None)
    add = _forgiving("add", lambda *a, **k: False)
    touch = _forgiving("touch", lambda *a, **k: False)
    set_many = _forgiving("set_many", lambda data, *a, **k: list(data))
    delete = _forgiving("delete", lambda *a, **k: False)
    delete_many = _forgiving("delete_many", lambda *a, **k: None)
