"""CACHE_URL picks Django's built-in Redis cache; without it each process keeps its own (so the
demo and the tests need no Redis); anything else is refused without echoing the URL's password."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from club.settings import cache_settings


def test_without_cache_url_each_process_has_a_local_memory_cache():
    assert cache_settings("", "solo") == {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    }


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/1", "rediss://:pw@cache.example.org:6380/0", "unix:///r.sock"]
)
def test_a_redis_url_selects_djangos_redis_cache_under_the_prefix(url):
    cache = cache_settings(url, "county")["default"]
    assert cache["BACKEND"] == "club.core.cache.ForgivingRedisCache"
    assert cache["LOCATION"] == url and cache["KEY_PREFIX"] == "county"
    assert cache["OPTIONS"]["socket_timeout"] <= 5  # a silent Redis fails a request, not hangs it


@pytest.mark.parametrize("url", ["memcached://u:s3cret@host:11211", "127.0.0.1:6379"])
def test_anything_else_is_refused_without_echoing_the_url(url):
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL must be a redis://") as refused:
        cache_settings(url, "solo")
    assert "s3cret" not in str(refused.value) and "11211" not in str(refused.value)


def test_a_redis_that_does_not_answer_is_a_cache_that_forgets_not_an_error(caplog):
    """A read is a miss, a write is dropped, and the log says so once, not per call."""
    import logging
    import socket

    from club.core import cache as forgiving
    from club.core.cache import ForgivingRedisCache

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cache = ForgivingRedisCache(
        f"redis://127.0.0.1:{port}/0", {"OPTIONS": {"socket_connect_timeout": 1}}
    )
    forgiving._last_said = 0.0
    with caplog.at_level(logging.WARNING, logger="club.core.cache"):
        assert cache.get("card", "missing") == "missing"
        cache.set("card", b"pdf", 60)
        assert cache.add("card", b"pdf") is False
        assert cache.get_many(["a", "b"]) == {}
        cache.delete("card")
    said = [r for r in caplog.records if r.name == "club.core.cache"]
    assert len(said) == 1 and "serving without it" in said[0].getMessage()
