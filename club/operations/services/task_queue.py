"""The operator's hand on the background queue (`manage.py tasks`): the tasks that failed and
the ones stuck "running" (club/operations/queries/health.py's definition, the one /healthz and the
worker
use), a failed or stuck task queued again, or dropped.

A retried task is queued afresh through django-tasks (the task found by its path, `.using()` its
queue, priority and backend, `.enqueue()` with the same arguments); the old row stays, marked
with the new task's id in its (otherwise empty) return value, so it is not listed again. A stuck
task retried is marked failed first, so no worker takes it up a second time.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from club.operations.queries import health

if TYPE_CHECKING:
    from django_tasks_db.models import DBTaskResult

RETRIED_AS = "retried_as"  # the key of a retried row's return value


class TaskQueueRefused(Exception):
    """An id that names no task, or a task that is not failed or stuck."""


class GivenUp(Exception):
    """What a stuck task retried by the operator is marked failed with."""


@dataclass(frozen=True)
class Trouble:
    id: str
    task_path: str
    status: str  # "failed" or "stuck"
    enqueued_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    error: str  # the traceback's last line: the exception and its message
    retried_as: str | None = None


def _rows() -> Any:
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects


def _failed_status() -> str:
    from django_tasks_db.compat import TaskResultStatus

    return str(TaskResultStatus.FAILED)


def _last_line(traceback: str) -> str:
    lines = [line.strip() for line in traceback.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _retried_as(row: DBTaskResult[..., Any]) -> str | None:
    value = row.return_value
    if isinstance(value, dict) and value.get(RETRIED_AS):
        return str(value[RETRIED_AS])
    return None


def _trouble(row: DBTaskResult[..., Any], now: dt.datetime) -> Trouble | None:
    if row.status == _failed_status():
        status = "failed"
    elif health.stuck_tasks(now).filter(pk=row.pk).exists():
        status = "stuck"
    else:
        return None
    return Trouble(
        id=str(row.id),
        task_path=row.task_path,
        status=status,
        enqueued_at=row.enqueued_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        error=_last_line(row.traceback),
        retried_as=_retried_as(row),
    )


def troubles(now: dt.datetime | None = None) -> list[Trouble]:
    """The failed tasks not yet retried and the stuck ones, oldest queued first."""
    now = now or timezone.now()
    failed = _rows().filter(status=_failed_status()).exclude(return_value__has_key=RETRIED_AS)
    found = []
    for row in (failed | health.stuck_tasks(now)).order_by("enqueued_at", "id"):
        trouble = _trouble(row, now)
        if trouble is not None:
            found.append(trouble)
    return found


def _find(task_id: str, *, for_update: bool = False) -> DBTaskResult[..., Any]:
    try:
        key = uuid.UUID(task_id.strip())
    except ValueError:
        raise TaskQueueRefused(
            f"{task_id!r} is not a task id (ids look like 3f0c9a1e-…; `tasks list` shows them)"
        ) from None
    rows = _rows().select_for_update() if for_update else _rows()
    row = rows.filter(pk=key).first()
    if row is None:
        raise TaskQueueRefused(f"No task has the id {task_id} (`tasks list` shows them)")
    return row  # type: ignore[no-any-return]


def _refuse_unless_in_trouble(row: DBTaskResult[..., Any], now: dt.datetime, doing: str) -> Trouble:
    trouble = _trouble(row, now)
    if trouble is None:
        state = {
            "READY": "waiting for a worker",
            "RUNNING": "running (its worker is still within TASKS_MAX_RUN_SECONDS)",
            "SUCCESSFUL": "finished successfully",
        }.get(row.status, row.status.lower())
        raise TaskQueueRefused(
            f"Task {row.id} ({row.task_path}) is {state}: only a failed or stuck task "
            f"can be {doing}"
        )
    return trouble


def show(task_id: str) -> Trouble:
    """The failed or stuck task with this id (refused with the reason otherwise)."""
    return _refuse_unless_in_trouble(_find(task_id), timezone.now(), "shown")


@transaction.atomic
def retry(task_id: str) -> str:
    """Queue the task again with the same arguments; the new task's id."""
    from django_tasks_db.compat import Task

    now = timezone.now()
    row = _find(task_id, for_update=True)
    trouble = _refuse_unless_in_trouble(row, now, "retried")
    if trouble.retried_as:
        raise TaskQueueRefused(f"Task {row.id} was retried already, as {trouble.retried_as}")
    try:
        task = import_string(row.task_path)
    except ImportError:
        raise TaskQueueRefused(
            f"Task {row.id} names {row.task_path}, which this release does not have: "
            "drop it instead"
        ) from None
    if not isinstance(task, Task):
        raise TaskQueueRefused(f"Task {row.id} names {row.task_path}, which is not a task")
    arguments = row.args_kwargs
    queued = task.using(
        priority=row.priority, queue_name=row.queue_name, backend=row.backend_name
    ).enqueue(*arguments["args"], **arguments["kwargs"])
    if trouble.status == "stuck":
        row.set_failed(GivenUp("stuck: given up and queued again by the operator"))
    _rows().filter(pk=row.pk).update(return_value={RETRIED_AS: str(queued.id)})
    return str(queued.id)


@transaction.atomic
def drop(task_id: str) -> Trouble:
    """Delete a failed or stuck task's row; what it was."""
    row = _find(task_id, for_update=True)
    trouble = _refuse_unless_in_trouble(row, timezone.now(), "dropped")
    _rows().filter(pk=row.pk).delete()
    return trouble
