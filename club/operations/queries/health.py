"""What /healthz reports about this web node: can it reach the database and the cache, how long
has the oldest background task (or the oldest change to the grades) been waiting for a worker,
and has a task been running for longer than any should (its worker died holding it). Nothing
about any club.

Each check catches its own failure, so a node whose database is down still answers, saying so.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.db.models import Count, Min, Q
from django.utils import timezone
from django_redis import get_redis_connection
from django_redis.cache import RedisCache

from club.grades.models import GradeBacklog

if TYPE_CHECKING:
    from django.db.models import QuerySet
    from django_tasks_db.models import DBTaskResult


@dataclass(frozen=True)
class Check:
    ok: bool
    ms: float
    error: str = ""  # the kind of failure (an exception's class name), never its text


@dataclass(frozen=True)
class Queue:
    # False when the oldest waiting task waited longer than TASKS_MAX_WAIT_SECONDS, or a task
    # has been running longer than TASKS_MAX_RUN_SECONDS
    ok: bool
    waiting: int | None  # tasks due and not started; None when the queue cannot be read
    oldest_seconds: int | None  # how long the oldest of them has been due
    running: int | None = None  # tasks a worker holds
    longest_running_seconds: int | None = None  # how long the longest of them has been held
    # How long the oldest change has waited for the worker to catch the grades up (a save
    # leaves it in the database and queues no task: a worker that stopped shows here too).
    grades_waiting_seconds: int | None = None


def _timed(probe: Callable[[], object]) -> Check:
    started = time.perf_counter()
    try:
        probe()
    except Exception as error:
        return Check(False, _ms(started), type(error).__name__)
    return Check(True, _ms(started))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def database() -> Check:
    def probe() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    return _timed(probe)


def cache_check() -> Check:
    """Writes a short-lived key and reads it back: a cache that only accepts connections is not
    enough."""

    def probe() -> None:
        cache = caches["default"]
        key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
        if isinstance(cache, RedisCache):
            # Redis itself, which raises: the cache's own calls let a failure through as a miss.
            redis, key = get_redis_connection("default"), cache.make_and_validate_key(key)
            redis.set(key, value, ex=10)
            if redis.get(key) != value.encode():
                raise LookupError("the cache did not keep a value")
            redis.delete(key)
            return
        cache.set(key, value, 10)
        if cache.get(key) != value:
            raise LookupError("the cache did not keep a value")
        cache.delete(key)

    return _timed(probe)


def cache_is_shared() -> bool:
    return isinstance(caches["default"], RedisCache)


def stuck_horizon(now: dt.datetime) -> dt.datetime:
    """A task a worker started before this is stuck: held longer than TASKS_MAX_RUN_SECONDS,
    so its worker died holding it. /healthz says "degraded" while one is, the worker takes each
    up again once (club/operations/services/worker.py), and `manage.py tasks list` names them."""
    return now - dt.timedelta(seconds=settings.TASKS_MAX_RUN_SECONDS)


def stuck_tasks(now: dt.datetime | None = None) -> QuerySet[DBTaskResult[..., Any]]:
    """The tasks still "running" since before the stuck horizon (any backend's rows)."""
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=stuck_horizon(now or timezone.now())
    )


def task_queue(reachable: bool = True, now: dt.datetime | None = None) -> Queue | None:
    """The database queue's due tasks (None when tasks run another way, e.g. at once);
    `reachable` False (the database check failed) reports the queue unknown without trying."""
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult, get_date_max

    backend = settings.TASKS.get("default", {}).get("BACKEND", "")
    if not backend.startswith("django_tasks_db."):
        return None
    if not reachable:
        return Queue(False, None, None)
    now = now or timezone.now()
    try:
        # A deferred task waits from its run_after; one queued for "now" (run_after the
        # backend's far future marker) from when it was queued.
        due = DBTaskResult.objects.filter(status=TaskResultStatus.READY).filter(
            Q(run_after=get_date_max()) | Q(run_after__lte=now)
        )
        row = due.aggregate(
            n=Count("id"),
            queued=Min("enqueued_at", filter=Q(run_after=get_date_max())),
            deferred=Min("run_after", filter=~Q(run_after=get_date_max())),
        )
        held = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).aggregate(
            n=Count("id"), since=Min("started_at")
        )
        grades_since = GradeBacklog.objects.aggregate(since=Min("at"))["since"]
    except Exception:
        return Queue(False, None, None)
    since = [t for t in (row["queued"], row["deferred"]) if t is not None]
    oldest = int((now - min(since)).total_seconds()) if since else 0
    longest = int((now - held["since"]).total_seconds()) if held["since"] else 0
    grades = max(0, int((now - grades_since).total_seconds())) if grades_since else 0
    stuck = held["since"] is not None and held["since"] < stuck_horizon(now)
    ok = max(oldest, grades) <= settings.TASKS_MAX_WAIT_SECONDS and not stuck
    return Queue(ok, row["n"], oldest, held["n"], longest, grades)
