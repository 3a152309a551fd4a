"""The cache in tests: emptying only this test process's keys, and a real Redis when a test needs
one.

The suite may run with CACHE_URL set (CI's second run does), on a Redis other test processes
use at the same time (xdist workers, another engineer's run): each test process has its own key
prefix (club/settings_test.py) and clears only that. Tests of what only a shared cache can do
(the write limit across processes, two web nodes) use CACHE_URL's Redis, else the one at
SOLO_TEST_REDIS_URL (default redis://127.0.0.1:6379/4), each under a prefix of its own. Where no
Redis answers they are skipped, saying so, unless SOLO_TESTS_NEED_REDIS is set (CI sets it), when
they fail instead: CI must never pass them by skipping.
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit

import pytest
from django.core.cache import caches
from django_redis.cache import RedisCache

from club.settings import cache_settings


def clear_own_keys(alias: str = "default") -> None:
    """Empty the cache, or on Redis only the keys under its prefix: clear() would empty the
    whole Redis database, under other test processes' feet."""
    cache = caches[alias]
    if not isinstance(cache, RedisCache):
        cache.clear()
        return
    cache.delete_pattern("*")  # django-redis: the keys under the cache's prefix


def redis_url() -> str:
    """A Redis the test may use (see above), or the test is skipped (or fails in CI)."""
    import redis

    url = os.environ.get("CACHE_URL") or os.environ.get(
        "SOLO_TEST_REDIS_URL", "redis://127.0.0.1:6379/4"
    )
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError as error:
        parts = urlsplit(url)
        where = f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}{parts.path}"
        reason = f"needs a Redis server and none answers at {where} ({type(error).__name__})"
        if os.environ.get("SOLO_TESTS_NEED_REDIS"):
            pytest.fail(reason + ": CI starts one (.ci/run)")
        pytest.skip(reason + ": start one (redis-server) to run it; CI does (.ci/run)")
    return url


def unique_prefix(name: str) -> str:
    return f"solo-test-{name}-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def redis_cache(settings):
    """Django's cache is a real Redis for this test, under a prefix nobody else uses."""
    settings.CACHES = cache_settings(redis_url(), unique_prefix("cache"))  # as CACHE_URL makes it
    yield caches["default"]
    clear_own_keys()
