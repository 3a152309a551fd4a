"""A task worker as the tests drive it: rounds until one finds nothing to do (batch), no waiting
between rounds; and a claim by a worker that then dies."""

from __future__ import annotations

from club.operations.services.worker import Worker


def a_worker(worker_id: str = "second-worker") -> Worker:
    return Worker(interval=0, batch=True, startup_delay=False, worker_id=worker_id, verbosity=0)


def claimed_by_a_worker_that_dies(worker_id: str = "dead-worker"):
    """The next task due, claimed as django-tasks-db's worker claims it, and never run."""
    from django.db import transaction
    from django_tasks_db.models import DBTaskResult

    with transaction.atomic():
        row = DBTaskResult.objects.ready().get_locked()
        assert row is not None
        row.claim(worker_id)
    return row
