"""`bin/manage bench --save` runs as the README shows it, and what it times is a real save: the
request goes through the WSGI application with the CSRF check on (as behind gunicorn), the hand
is stored, its answer is small and its queries are the save's fixed count, the same at 10 and at
40 hands on the sheet; and the benchmark undoes its saves, so the next run times the same sheets."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django_redis.cache import RedisCache

from club.operations.bench import save
from club.play.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)
# The link's write limit is one statement in the database, or none with Redis (CACHE_URL).
QUERIES = {"sqlite": 10, "postgresql": 14}


def expected_queries() -> int:
    limit_in_redis = isinstance(caches["default"], RedisCache)
    return QUERIES[connection.vendor] - (1 if limit_in_redis else 0)


def test_the_save_benchmark_times_real_saves_and_leaves_the_sheets_as_they_were(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # as a server
    results = save.bench_save(tables=3)  # the first counted, two timed
    assert [r.hands_before for r in results] == [10, 40]
    for r in results:
        assert r.saves == 2
        assert r.queries == expected_queries()
        assert 2000 < r.answer_bytes < 4096
        assert r.cpu_ms > 0 and r.floor_ms > 0 and r.ratio > 1
    # Undone: every table has its sheet's hands again, none of the benchmark's saves.
    counts = sorted({h.table.hands.count() for h in Hand.objects.select_related("table")})
    assert counts == [10, 40]
    lines = save.report(results)
    assert lines[0].startswith(f"Database: {connection.vendor}.")
    assert len(lines) == 4
