"""The task worker that keeps working: django-tasks-db's `db_worker`, with two things added.

- The database going away (PostgreSQL restarting, a failover) does not end it: it says so once,
  waits, tries again (every second at first, then every ten), and goes on where it was; a task
  it was running when the database went is run again once the database answers (the tasks are
  written to be run twice: publishing moves a night once, each email is sent once).
- Between tasks it catches up the clubs' grades: each hand's save leaves its key in the grades'
  backlog, in the save's own transaction, and queues no task (club/grades/services/grades.py).
- A task left "running" by a worker that died (killed, its machine lost) is taken up again once
  it has run for longer than TASKS_MAX_RUN_SECONDS, once; left so a second time, it is marked
  failed, with a line in the log, rather than tried forever. /healthz reports it meanwhile.

`manage.py db_worker` is this worker (club/operations/management/commands/db_worker.py), with the
same
options as django-tasks-db's own.
"""

from __future__ import annotations

import logging
import random
import time
from contextlib import suppress
from typing import Any

from django.db import DatabaseError, close_old_connections, connections
from django.db.utils import InterfaceError, OperationalError
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker as BaseWorker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from club.clubs.services import ratelimit
from club.grades.services import grades
from club.operations.queries import health

log = logging.getLogger("club.operations.services.worker")

UNREACHABLE = (OperationalError, InterfaceError)
RETRIES_OF_A_TASK_CUT_SHORT = 3
SWEEP_EVERY = 600  # seconds


class TaskAbandoned(Exception):
    """A task left running twice by a worker that stopped."""


def _unreachable(error: BaseException) -> bool:
    if isinstance(error, OperationalError) and is_locked_database_exception(error):
        return False  # SQLite busy: the database is there, only taken
    return isinstance(error, UNREACHABLE)


class Worker(BaseWorker):
    def run(self) -> None:
        log.info("Starting worker worker_id=%s queues=%s", self.worker_id, self.queue_names)
        if self.startup_delay and self.interval:
            time.sleep(random.random())  # a thundering herd of workers started at once
        swept_at = 0.0
        while self.running:
            try:
                close_old_connections()
                self.take_up_abandoned()
                if time.monotonic() - swept_at > SWEEP_EVERY:
                    ratelimit.sweep()  # the limits' windows long over
                    swept_at = time.monotonic()
                task_result, looked = self.next_task()
                if task_result is None:
                    self.catch_up_grades()
            except DatabaseError as error:
                if not _unreachable(error):
                    raise
                self.wait_for_database(error)
                continue
            if task_result is not None:
                self.run_to_the_end(task_result)
            if self.batch and looked and task_result is None:
                return
            if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                return
            with suppress(DatabaseError):
                close_old_connections()
            if self.running and task_result is None:
                time.sleep(self.interval)

    def catch_up_grades(self) -> int:
        """Rate the hands saved or changed since the last catch-up; how many were rated. A
        failure is logged and tried again next round: it must not stop the emails' tasks."""
        try:
            return grades.drain_all() if grades.waiting() else 0
        except DatabaseError as error:
            if _unreachable(error):
                raise
            log.exception("Could not catch up the grades")
        except Exception:
            log.exception("Could not catch up the grades")
        return 0

    def next_task(self) -> tuple[DBTaskResult[Any, Any] | None, bool]:
        """(the task claimed for this worker or None, whether the queue could be read)."""
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        try:
            with exclusive_transaction(tasks.db):
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
        except OperationalError as error:
            if is_locked_database_exception(error):
                return None, False  # SQLite busy: try again next round
            raise
        return task_result, True

    def run_to_the_end(self, task_result: DBTaskResult[Any, Any]) -> None:
        """Run the task; when the database goes away under it (its result cannot even be
        written), wait for the database and run it again, a few times at most."""
        for attempt in range(1, RETRIES_OF_A_TASK_CUT_SHORT + 1):
            try:
                self.run_task(task_result)
                return
            except DatabaseError as error:
                if not _unreachable(error):
                    raise
                log.warning(
                    "Task id=%s was cut short by the database (attempt %s)", task_result.id, attempt
                )
                self.wait_for_database(error)
                if not self.running:
                    return
        # Still RUNNING in the queue: taken up again by a worker once its time is over.

    def take_up_abandoned(self) -> int:
        """Queue again, once, each task a dead worker left running too long."""
        stale = health.stuck_tasks().filter(backend_name=self.backend_name)
        if not stale.exists():  # the usual answer, without a write transaction
            return 0
        taken = 0
        with exclusive_transaction(stale.db):
            for task_result in stale.select_for_update(skip_locked=True).order_by("started_at")[
                :20
            ]:
                holders = ", ".join(task_result.worker_ids) or "?"
                if len(task_result.worker_ids) <= 1:
                    # Back in the queue as it was: a worker claims it and adds its own id.
                    DBTaskResult.objects.filter(
                        pk=task_result.pk, status=TaskResultStatus.RUNNING
                    ).update(status=TaskResultStatus.READY)
                    log.warning(
                        "Task id=%s (%s) was left running by worker %s, which stopped: "
                        "queued again",
                        task_result.id,
                        task_result.task_path,
                        holders,
                    )
                    taken += 1
                else:
                    task_result.set_failed(
                        TaskAbandoned(f"left running by workers {holders}, which stopped")
                    )
                    log.error(
                        "Task id=%s (%s) was left running twice (workers %s): marked failed",
                        task_result.id,
                        task_result.task_path,
                        holders,
                    )
        return taken

    def wait_for_database(self, error: BaseException) -> None:
        log.warning(
            "The database does not answer (%s): the worker waits for it", type(error).__name__
        )
        delay = 1.0
        while self.running:
            for connection in connections.all():
                with suppress(DatabaseError):
                    connection.close()
            time.sleep(delay)
            try:
                connections["default"].ensure_connection()
            except DatabaseError:
                delay = min(delay * 2, 10.0)
                continue
            log.warning("The database answers again: the worker goes on")
            return
