"""`manage.py worker` is the club's, and runs django-tasks-db's own `db_worker` in rounds
(whatever the order of INSTALLED_APPS): a stop asked for during a task lets that task finish and
ends the worker after it, the next task left queued; a task the database's outage cut short is
queued again when the database answers, a few times at most, then left to the stuck tasks'
check."""

from __future__ import annotations

import pytest
from django.core.management import get_commands
from django.db import OperationalError

from club.operations.services import worker as worker_module
from tests.kits import stopping_task_kit as kit
from tests.kits.worker_kit import a_worker

pytestmark = pytest.mark.django_db(transaction=True)  # the worker closes its connection
QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def test_the_worker_command_is_the_clubs_and_db_worker_is_django_tasks_dbs():
    commands = get_commands()
    assert commands["worker"] == "club.operations"
    assert commands["db_worker"] == "django_tasks_db"  # the club's rounds run this one


def test_a_stop_during_a_task_lets_it_finish_and_ends_the_worker(settings, monkeypatch):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = QUEUE
    kit.ran.clear()
    first = kit.stop_the_worker.enqueue("first")
    second = kit.noted.enqueue("second")
    worker = a_worker()
    worker.batch = False  # it would go round for ever but for the stop

    def idle(seconds: float) -> None:
        raise AssertionError("the worker went on after the stop")

    monkeypatch.setattr(worker, "_pause", idle)
    worker.run()
    assert worker.stopping and kit.ran == ["first"]
    assert DBTaskResult.objects.get(pk=first.id).status == "SUCCESSFUL"
    assert DBTaskResult.objects.get(pk=second.id).status == "READY"  # for the next worker


def test_a_task_cut_short_by_the_database_is_queued_again_a_few_times(settings, monkeypatch):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = QUEUE
    queued = kit.noted.enqueue("cut short")
    worker = a_worker()
    waited = []
    monkeypatch.setattr(worker, "wait_for_database", waited.append)

    def database_gone(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    # The task runs; writing its result finds the database gone.
    monkeypatch.setattr(DBTaskResult, "set_successful", database_gone)
    monkeypatch.setattr(DBTaskResult, "set_failed", database_gone)
    for attempt in range(1, worker_module.RETRIES_OF_A_TASK_CUT_SHORT + 1):
        assert worker.round() == 1  # round again at once
        assert len(waited) == attempt
        row = DBTaskResult.objects.get(pk=queued.id)
        assert row.status == "READY"  # queued again
    assert worker.round() == 1
    row = DBTaskResult.objects.get(pk=queued.id)
    assert row.status == "RUNNING"  # left for the stuck tasks' check (take_up_abandoned)
    # Claimed four times by the one worker: still one worker's to take up, not "left twice".
    assert set(row.worker_ids) == {"second-worker"} and len(row.worker_ids) == 4


def test_db_worker_still_takes_every_option_the_rounds_pass_it(settings):
    """The worker passes its options to django-tasks-db's command by name, and call_command
    refuses one it does not know: an upgrade that renames one fails here, not in production."""
    settings.TASKS = QUEUE
    assert a_worker().run_tasks() == 0  # an empty queue: one batch, nothing to run


def test_a_stop_while_the_database_is_away_ends_the_round_without_touching_it(
    settings, monkeypatch
):
    settings.TASKS = QUEUE
    worker = a_worker()

    def database_gone(*args, **kwargs):
        raise OperationalError("could not connect to server")

    def stopped_while_waiting(error):
        worker.stopping = True

    monkeypatch.setattr(worker, "take_up_abandoned", database_gone)
    monkeypatch.setattr(worker, "wait_for_database", stopped_while_waiting)
    monkeypatch.setattr(worker, "queue_again_cut_short", database_gone)  # would raise again
    assert worker.round() == 0
