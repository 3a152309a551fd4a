"""/healthz, a load balancer's check of one web node: the database, the cache and the task
queue, as JSON, with no login, and nothing in it about any club."""

from __future__ import annotations

import datetime as dt
import json
import socket

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.utils import timezone
from django_redis import get_redis_connection

from club.settings import cache_settings

pytestmark = pytest.mark.django_db

DB_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthz(client) -> tuple[int, dict]:
    response = client.get("/healthz")
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]  # a balancer must never see a stale answer
    return response.status_code, json.loads(response.content)


def test_a_healthy_node_answers_200_without_a_login_and_says_nothing_of_clubs(
    client, night, settings
):
    # A node's own memory cache: healthy, but not shared (the suite may run on Redis).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    status, body = healthz(client)
    assert status == 200 and body["status"] == "ok"
    assert body["database"]["ok"] and body["database"]["ms"] >= 0
    assert body["cache"] == {"ok": True, "ms": body["cache"]["ms"], "error": "", "shared": False}
    assert body["tasks"] is None  # the tests run tasks at once: there is no queue to wait in
    assert set(body) == {"status", "database", "cache", "tasks"}
    text = json.dumps(body).lower()
    assert not any(word in text for word in ("crown", "anchor", "winter", "hoyle", "night"))


def test_on_redis_the_cache_is_shared_and_checked_by_a_write_and_a_read(client, redis_cache):
    status, body = healthz(client)
    assert status == 200 and body["cache"]["ok"] and body["cache"]["shared"]
    # The probe's key is removed again: a balancer polling every second fills nothing.
    client_ = get_redis_connection("default")
    assert list(client_.scan_iter(match=redis_cache.make_key("healthz:*"))) == []


def test_a_cache_that_does_not_answer_leaves_the_node_in_degraded(client, settings):
    # As CACHE_URL sets it: the cache's own calls let a failure through as a miss.
    settings.CACHES = cache_settings(f"redis://127.0.0.1:{_closed_port()}/0", "solo")
    status, body = healthz(client)
    # The pages go on without Redis (limits are counted in the database): the balancer keeps it.
    assert status == 200 and body["status"] == "degraded"
    assert body["cache"]["ok"] is False and body["cache"]["error"] == "ConnectionError"
    assert body["database"]["ok"] is True


def test_a_database_that_does_not_answer_takes_the_node_out(client, settings, monkeypatch):
    settings.TASKS = DB_QUEUE

    def refused(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refused)
    status, body = healthz(client)
    assert status == 503 and body["status"] == "down"
    assert body["database"]["ok"] is False and body["database"]["error"] == "OperationalError"
    assert "refused" not in json.dumps(body)  # the kind of failure, not its text
    assert body["tasks"]["ok"] is False and body["tasks"]["waiting"] is None


def _task(**fields):
    from django_tasks_db.models import DBTaskResult, get_date_max

    return DBTaskResult.objects.create(
        args_kwargs={"args": [1], "kwargs": {}},
        task_path="club.money.services.publish.publish_when_due",
        backend_name="default",
        run_after=fields.pop("run_after", get_date_max()),
        **fields,
    )


def test_the_age_of_the_oldest_waiting_task(client, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DB_QUEUE
    settings.TASKS_MAX_WAIT_SECONDS = 300
    status, body = healthz(client)
    assert body["tasks"] == {
        "ok": True,
        "waiting": 0,
        "oldest_seconds": 0,
        "running": 0,
        "longest_running_seconds": 0,
        "grades_waiting_seconds": 0,
    }

    now = timezone.now()
    queued = _task()  # queued "now" and waiting since it was queued
    DBTaskResult.objects.filter(pk=queued.pk).update(enqueued_at=now - dt.timedelta(seconds=90))
    _task(run_after=now - dt.timedelta(seconds=200))  # deferred: waiting since it fell due
    _task(run_after=now + dt.timedelta(hours=1))  # not due yet: not waiting
    done = _task(run_after=now - dt.timedelta(days=1))
    DBTaskResult.objects.filter(pk=done.pk).update(status="SUCCESSFUL")  # finished long ago
    status, body = healthz(client)
    assert status == 200 and body["status"] == "ok"
    assert body["tasks"]["waiting"] == 2
    assert 200 <= body["tasks"]["oldest_seconds"] < 260

    # A worker that stopped: the node is still up (200), the queue is behind ("degraded").
    _task(run_after=now - dt.timedelta(minutes=10))
    status, body = healthz(client)
    assert status == 200 and body["status"] == "degraded"
    assert body["tasks"]["ok"] is False and body["tasks"]["oldest_seconds"] >= 600


def test_grades_waiting_too_long_for_a_worker_leave_the_node_degraded(client, settings, club):
    """A save queues no task for its grades (the worker finds the backlog): a stopped worker
    shows in the backlog's age."""
    from club.grades.models import GradeBacklog

    settings.TASKS = DB_QUEUE
    settings.TASKS_MAX_WAIT_SECONDS = 300
    change = GradeBacklog.objects.create(club=club, from_key="2026-11-20|1|1|1")
    GradeBacklog.objects.filter(pk=change.pk).update(at=timezone.now() - dt.timedelta(seconds=90))
    status, body = healthz(client)
    assert body["status"] == "ok" and 90 <= body["tasks"]["grades_waiting_seconds"] < 150
    GradeBacklog.objects.filter(pk=change.pk).update(at=timezone.now() - dt.timedelta(minutes=10))
    status, body = healthz(client)
    assert status == 200 and body["status"] == "degraded"
    assert body["tasks"]["ok"] is False and body["tasks"]["grades_waiting_seconds"] >= 600


def test_a_task_held_too_long_by_a_worker_that_died_is_reported(client, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DB_QUEUE
    settings.TASKS_MAX_RUN_SECONDS = 600
    now = timezone.now()
    held = _task()
    DBTaskResult.objects.filter(pk=held.pk).update(
        status="RUNNING", started_at=now - dt.timedelta(seconds=30), worker_ids=["w1"]
    )
    status, body = healthz(client)
    assert status == 200 and body["status"] == "ok"
    assert body["tasks"]["running"] == 1 and 30 <= body["tasks"]["longest_running_seconds"] < 90
    DBTaskResult.objects.filter(pk=held.pk).update(started_at=now - dt.timedelta(minutes=11))
    status, body = healthz(client)
    assert status == 200 and body["status"] == "degraded" and body["tasks"]["ok"] is False
    assert body["tasks"]["longest_running_seconds"] >= 660


def test_a_balancer_probing_over_plain_http_is_answered_not_redirected(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 301  # every other page still goes to HTTPS
    assert client.post("/healthz").status_code == 405
