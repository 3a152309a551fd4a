"""CACHE_URL picks django-redis' cache, which a Redis that stops answering does not break;
without it each process keeps its own (so the demo and the tests need no Redis); anything else is
refused without echoing the URL's password."""

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
def test_a_redis_url_selects_django_redis_under_the_prefix(url):
    cache = cache_settings(url, "county")["default"]
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["LOCATION"] == url and cache["KEY_PREFIX"] == "county"
    assert cache["OPTIONS"]["SOCKET_TIMEOUT"] <= 5  # a silent Redis fails a request, not hangs it
    assert cache["OPTIONS"]["IGNORE_EXCEPTIONS"] is True


@pytest.mark.parametrize("url", ["memcached://u:s3cret@host:11211", "127.0.0.1:6379"])
def test_anything_else_is_refused_without_echoing_the_url(url):
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL must be a redis://") as refused:
        cache_settings(url, "solo")
    assert "s3cret" not in str(refused.value) and "11211" not in str(refused.value)


def test_a_redis_that_does_not_answer_is_a_cache_that_forgets_not_an_error(settings, caplog):
    """A read is a miss, a write is dropped, and the log says so once, not per call."""
    import logging
    import socket

    from django.core.cache import caches

    from club.operations.logs.cache_log import OncePerMinute

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = cache_settings(f"redis://127.0.0.1:{port}/0", "solo")
    cache = caches["default"]
    (once,) = [
        f
        for f in logging.getLogger("club.operations.logs.cache_log").filters
        if isinstance(f, OncePerMinute)
    ]
    once._last_said = None
    with caplog.at_level(logging.WARNING, logger="club.operations.logs.cache_log"):
        assert cache.get("card", "missing") == "missing"
        cache.set("card", b"pdf", 60)
        assert cache.add("card", b"pdf") is None  # django-redis' answer for an ignored failure
        assert cache.get_many(["a", "b"]) == {}
        cache.delete("card")
    said = [r for r in caplog.records if r.name == "club.operations.logs.cache_log"]
    assert len(said) == 1 and "serving without it" in said[0].getMessage()
    assert said[0].levelno == logging.WARNING and not said[0].exc_info  # a line, not a traceback
    assert "ConnectionError" in said[0].getMessage()
