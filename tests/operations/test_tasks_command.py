"""`manage.py tasks`: a task that really failed under the worker is listed (its id, path, times
and the error's last line), retried with the same arguments (and succeeds once its cause is
gone, and is not listed again), or dropped after a confirmation; a stuck task (held past
TASKS_MAX_RUN_SECONDS, /healthz's "degraded") is listed and retried too; a wrong id is refused
with a clear message."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from club.clubs.models import Club
from club.operations.queries import health
from tests.kits.flaky_task_kit import name_of_club
from tests.kits.worker_kit import a_worker, claimed_by_a_worker_that_dies

# django-tasks-db's worker closes the connection between rounds: only committed rows survive.
pytestmark = pytest.mark.django_db(transaction=True)
QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def queue(settings):
    settings.TASKS = QUEUE
    settings.TASKS_MAX_RUN_SECONDS = 600


def tasks(*args: str) -> str:
    out = io.StringIO()
    call_command("tasks", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def work() -> None:
    """A worker's rounds until the queue is empty."""
    a_worker().run()


def failed_task():
    from django_tasks_db.models import DBTaskResult

    queued = name_of_club.enqueue("lion", shout=True)
    work()
    row = DBTaskResult.objects.get(pk=queued.id)
    assert row.status == "FAILED"
    return row


def test_a_failed_task_is_listed_with_its_path_times_and_the_errors_last_line(queue):
    row = failed_task()
    listed = tasks("list")
    assert "1 failed or stuck task(s)" in listed
    assert f"{row.id}  FAILED  tests.kits.flaky_task_kit.name_of_club" in listed
    assert "error: tests.kits.flaky_task_kit.NoSuchClub: no club 'lion' yet" in listed
    assert f"queued {row.enqueued_at:%Y-%m-%d %H:%M}" in listed
    assert f"finished {row.finished_at:%Y-%m-%d %H:%M}" in listed


def test_a_retried_task_runs_again_with_its_arguments_and_leaves_the_list(queue):
    from django_tasks_db.models import DBTaskResult

    row = failed_task()
    Club.objects.create(name="Red Lion Solo", slug="lion")  # the cause is gone
    said = tasks("retry", str(row.id))
    new_id = said.split(" as ")[-1].strip()
    assert new_id != str(row.id)
    again = DBTaskResult.objects.get(pk=new_id)
    assert again.status == "READY"
    assert again.args_kwargs == {"args": ["lion"], "kwargs": {"shout": True}}
    assert again.task_path == row.task_path
    work()
    again.refresh_from_db()
    assert again.status == "SUCCESSFUL" and again.return_value == "RED LION SOLO"
    old = DBTaskResult.objects.get(pk=row.pk)
    assert old.status == "FAILED"  # kept, as it was, and marked
    assert old.return_value == {"retried_as": new_id}
    assert tasks("list") == "No failed or stuck tasks.\n"
    with pytest.raises(CommandError, match=f"retried already, as {new_id}"):
        tasks("retry", str(row.id))


def test_a_task_that_fails_again_after_a_retry_is_listed_again_under_its_new_id(queue):
    row = failed_task()
    new_id = tasks("retry", str(row.id)).split(" as ")[-1].strip()
    work()  # the club is still missing
    listed = tasks("list")
    assert new_id in listed and str(row.id) not in listed


def test_drop_asks_first_and_deletes_the_row_only_on_yes(queue, monkeypatch):
    from django_tasks_db.models import DBTaskResult

    row = failed_task()
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with pytest.raises(CommandError, match="Not dropped"):
        tasks("drop", str(row.id))
    assert DBTaskResult.objects.filter(pk=row.pk).exists()
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "yes")
    assert "dropped" in tasks("drop", str(row.id))
    assert "Drop the failed task" in asked[0] and "name_of_club" in asked[0]
    assert not DBTaskResult.objects.filter(pk=row.pk).exists()
    assert tasks("list") == "No failed or stuck tasks.\n"


def test_drop_with_yes_does_not_ask(queue, monkeypatch):
    from django_tasks_db.models import DBTaskResult

    row = failed_task()
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("asked"))
    tasks("drop", str(row.id), "--yes")
    assert not DBTaskResult.objects.filter(pk=row.pk).exists()


def test_a_stuck_task_is_listed_as_healthz_sees_it_and_a_retry_is_not_taken_up_twice(queue):
    from django_tasks_db.models import DBTaskResult

    queued = name_of_club.enqueue("lion")
    row = claimed_by_a_worker_that_dies("dead-worker")
    assert str(row.pk) == queued.id
    assert tasks("list") == "No failed or stuck tasks.\n"  # two seconds: still its worker's
    with pytest.raises(CommandError, match=r"running .* only a failed or stuck task"):
        tasks("retry", str(row.id))
    DBTaskResult.objects.filter(pk=row.pk).update(
        started_at=timezone.now() - dt.timedelta(minutes=11)
    )
    assert not health.task_queue().ok  # /healthz: degraded
    listed = tasks("list")
    assert f"{row.id}  STUCK  tests.kits.flaky_task_kit.name_of_club" in listed
    Club.objects.create(name="Red Lion Solo", slug="lion")
    new_id = tasks("retry", str(row.id)).split(" as ")[-1].strip()
    old = DBTaskResult.objects.get(pk=row.pk)
    assert old.status == "FAILED" and "given up" in old.traceback
    assert a_worker().take_up_abandoned() == 0  # not run a second time by the worker
    work()
    assert DBTaskResult.objects.get(pk=new_id).status == "SUCCESSFUL"
    assert health.task_queue().ok
    assert tasks("list") == "No failed or stuck tasks.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("retry", "5b1f2d7e-0000-4000-8000-000000000000"), "No task has the id 5b1f2d7e-"),
        (("drop", "5b1f2d7e-0000-4000-8000-000000000000", "--yes"), "No task has the id"),
        (("retry", "not-an-id"), "'not-an-id' is not a task id"),
        (("retry",), "Give the id of the task to retry"),
        (("list", "5b1f2d7e"), "takes no id"),
    ],
)
def test_a_wrong_id_is_refused_with_a_clear_message(queue, args, message):
    with pytest.raises(CommandError, match=message):
        tasks(*args)


def test_a_task_that_succeeded_is_neither_retried_nor_dropped(queue):
    Club.objects.create(name="Red Lion Solo", slug="lion")
    queued = name_of_club.enqueue("lion")
    work()
    with pytest.raises(CommandError, match="finished successfully: only a failed or stuck"):
        tasks("retry", str(queued.id))
    with pytest.raises(CommandError, match="finished successfully"):
        tasks("drop", str(queued.id), "--yes")
