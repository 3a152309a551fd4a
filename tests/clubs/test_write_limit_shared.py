"""The table links' write limit kept in Redis, as several web nodes share it: the window slides
as it does in one process, writes counted at the same moment never pass the limit; without Redis,
or with a Redis that stops answering, the window is kept in the database every process shares:
still enforced, never "no limit", and the save is never an error.

(Two real web nodes counting one link's writes together: tests/play/test_two_nodes.py.)
"""

from __future__ import annotations

import datetime as dt
import logging
import socket
import threading

import pytest
from django.core.cache import caches
from django.utils import timezone
from django_redis import get_redis_connection

from club.clubs.services import ratelimit
from club.settings import cache_settings


def test_the_window_slides_in_redis(redis_cache, monkeypatch):
    from tests.play import test_table_links

    test_table_links.test_the_window_slides(monkeypatch)  # the one-process test, on Redis
    # The count is Redis's, not this process's: a sorted set under the cache's own prefix.
    client = get_redis_connection("default")
    key = redis_cache.make_key("ratelimit:k")
    assert client.zcard(key) == 1 and 0 < client.pttl(key) <= 60_000


def test_another_key_has_its_own_count(redis_cache):
    assert [ratelimit.hit("table-a", 1, 60).allowed for _ in range(2)] == [True, False]
    assert ratelimit.hit("table-b", 1, 60).allowed


def _many_at_once(threads: int, each: int, limit: int) -> list[bool]:
    barrier = threading.Barrier(threads)
    verdicts: list[bool] = []
    lock = threading.Lock()

    def phone() -> None:
        barrier.wait(10)
        for _ in range(each):
            allowed = ratelimit.hit("busy-link", limit, 60).allowed
            with lock:
                verdicts.append(allowed)

    workers = [threading.Thread(target=phone) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    return verdicts


def test_writes_counted_at_the_same_moment_never_pass_the_limit_in_redis(redis_cache):
    # 16 connections at once, 80 writes against a limit of 30: a read-then-write count would
    # let two writers take the same last place; the script lets exactly 30 through.
    verdicts = _many_at_once(threads=16, each=5, limit=30)
    assert len(verdicts) == 80 and verdicts.count(True) == 30


@pytest.fixture(params=["one statement", "read then write"])
def sqlite_way(request, monkeypatch):
    """SQLite counts a window in one statement (3.35 and later, RETURNING); an older SQLite
    reads the row and writes it back, under the same write lock. Both are tried here (on
    PostgreSQL both are its own one statement)."""
    if request.param == "read then write":
        from django.db import connection

        monkeypatch.setattr(type(connection.features), "can_return_columns_from_insert", False)
    return request.param


@pytest.mark.django_db(transaction=True)
def test_without_redis_threads_on_their_own_connections_never_pass_the_limit_either(
    settings, sqlite_way
):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    verdicts = _many_at_once(threads=8, each=5, limit=30)
    assert len(verdicts) == 40 and verdicts.count(True) == 30


@pytest.mark.django_db
def test_without_redis_the_count_is_shared_by_every_process(settings, sqlite_way):
    """Each gunicorn worker has a local-memory cache of its own: emptying it between writes is
    what another worker sees. The database's count holds all the same."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    verdicts = []
    for _ in range(5):
        verdicts.append(ratelimit.hit("club-door:1", 3, 60).allowed)
        caches["default"].clear()  # the next write reaches another process
    assert verdicts == [True, True, True, False, False]


@pytest.mark.django_db
def test_a_redis_that_does_not_answer_still_limits_in_the_database_and_says_so(settings, caplog):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = cache_settings(f"redis://127.0.0.1:{port}/0", "solo")
    ratelimit._last_said = 0.0
    with caplog.at_level(logging.WARNING, logger="club.clubs.services.ratelimit"):
        verdicts = [ratelimit.hit("k", 2, 60) for _ in range(3)]
    # Counted, not waved through: the limit holds while Redis is away.
    assert [v.allowed for v in verdicts] == [True, True, False]
    assert 1 <= verdicts[2].retry_after <= 61
    said = [r for r in caplog.records if r.name == "club.clubs.services.ratelimit"]
    assert len(said) == 1 and "counted in the database" in said[0].getMessage()
    assert not any(r.exc_info for r in said)  # a line, not a traceback per request
    assert caches["default"].get("anything", "missed") == "missed"  # a miss, not an error
    with pytest.raises(Exception, match="onnect"):
        get_redis_connection("default").ping()  # the cache really was unreachable


@pytest.mark.django_db(transaction=True)
def test_the_limits_quick_commit_never_reaches_a_callers_transaction(settings):
    """On PostgreSQL a window's own commit does not wait for the disk (a lost window costs
    nothing); inside a caller's transaction (a hand's save) that must never apply: the hand's
    commit waits for the disk as every other."""
    from django.db import connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's synchronous_commit")
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert ratelimit.hit("alone", 5, 60).allowed
    with transaction.atomic(), connection.cursor() as cursor:
        assert ratelimit.hit("in-a-save", 5, 60).allowed
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"


@pytest.mark.django_db
def test_windows_long_over_are_swept_away_outside_any_request(settings):
    from club.clubs.models import RateWindow

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert ratelimit.hit("old", 5, 60).allowed and ratelimit.hit("new", 5, 60).allowed
    RateWindow.objects.filter(key="ratelimit:old").update(
        expires_at=timezone.now() - dt.timedelta(minutes=5)
    )
    assert ratelimit.sweep() == 1
    assert list(RateWindow.objects.values_list("key", flat=True)) == ["ratelimit:new"]
