"""The task worker that keeps working: `manage.py worker` runs django-tasks-db's own `db_worker`
in rounds (its `--batch` mode, a few tasks at most a round), through `call_command` and its
documented options, and does the club's work between them:

- The database going away (PostgreSQL restarting, a failover) does not end it: it says so once,
  waits, tries again (every second at first, then every ten), and goes on where it was; a task
  it was running when the database went (known by django-tasks' task_started and task_finished
  signals) is queued again once the database answers, a few times at most (the tasks are written
  to be run twice: publishing moves a night once, each email is sent once).
- When a round found no task it catches up the clubs' grades: each hand's save leaves its key in
  the grades' backlog, in the save's own transaction, and queues no task
  (club/grades/services/grades.py).
- A task left "running" by a worker that died (killed, its machine lost) is taken up again once
  it has run for longer than TASKS_MAX_RUN_SECONDS, once; left so a second time, it is marked
  failed, with a line in the log, rather than tried forever. /healthz reports it meanwhile.
- Every few minutes it deletes the rate limits' windows long over.

A stop (SIGTERM, SIGINT) lets the task under way finish, as django-tasks-db's worker does: the
signal's number reaches a socket of the worker's own (`signal.set_wakeup_fd`), whichever handler
the round had installed, and the worker stops after the round.
"""

from __future__ import annotations

import logging
import random
import select
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.core.management import call_command
from django.db import DatabaseError, close_old_connections, connections, transaction
from django.db.utils import InterfaceError, OperationalError
from django.utils.crypto import get_random_string
from django_tasks import TaskResultStatus
from django_tasks.signals import task_finished, task_started
from django_tasks_db.models import DBTaskResult

from club.clubs.services import ratelimit
from club.grades.services import grades
from club.operations.queries import health

log = logging.getLogger("club.operations.services.worker")

UNREACHABLE = (OperationalError, InterfaceError)
RETRIES_OF_A_TASK_CUT_SHORT = 3
TASKS_A_ROUND = 20  # then the club's work between rounds has its turn, however long the queue
SWEEP_EVERY = 600  # seconds
STOPS = (signal.SIGINT, signal.SIGTERM)


class TaskAbandoned(Exception):
    """A task left running twice by a worker that stopped."""


def _unreachable(error: BaseException) -> bool:
    if isinstance(error, OperationalError) and "locked" in str(error):
        return False  # SQLite busy ("database is locked"): the database is there, only taken
    return isinstance(error, UNREACHABLE)


def _quiet_rounds(record: logging.LogRecord) -> bool:
    """django-tasks-db's worker says "Starting worker" and "No more tasks to run" at each start
    and end: once a round, every second. Its warnings and errors pass."""
    return record.levelno >= logging.WARNING


class Worker:
    def __init__(
        self,
        *,
        queue_name: str = "default",
        exclude_queues: str = "",
        backend_name: str = "default",
        interval: float = 1.0,
        batch: bool = False,
        startup_delay: bool = True,
        worker_id: str | None = None,
        verbosity: int = 1,
    ) -> None:
        self.queue_name = queue_name
        self.exclude_queues = exclude_queues
        self.backend_name = backend_name
        self.interval = interval
        self.batch = batch  # stop after the first round that found no task
        self.startup_delay = startup_delay
        self.worker_id = worker_id or get_random_string(32)
        self.verbosity = verbosity
        self.tasks_run = 0
        self.stopping = False
        self._running: str | None = None  # the id of the task under way
        self._cut_short: dict[str, int] = {}
        self._swept_at = float("-inf")
        self._wakeup: socket.socket | None = None

    def run(self) -> None:
        log.info("Starting worker worker_id=%s queues=%s", self.worker_id, self.queue_name)
        quiet = logging.getLogger("django_tasks_db")
        quiet.addFilter(_quiet_rounds)
        try:
            with self._stoppable():
                if self.startup_delay and self.interval:
                    self._pause(random.random())  # a thundering herd of workers started at once
                while not self.stopping:
                    ran = self.round()
                    if self.batch and not ran:
                        return
                    if not ran:
                        self._pause(self.interval)
        finally:
            quiet.removeFilter(_quiet_rounds)

    def round(self) -> int:
        """Take up abandoned tasks, run the tasks due, catch the grades up when there were none;
        how many tasks ran."""
        try:
            close_old_connections()
            self.take_up_abandoned()
            if time.monotonic() - self._swept_at > SWEEP_EVERY:
                ratelimit.sweep()  # the limits' windows long over
                self._swept_at = time.monotonic()
            ran = self.run_tasks()
            if not ran and not self.stopping:
                self.catch_up_grades()
        except DatabaseError as error:
            if not _unreachable(error):
                raise
            self.wait_for_database(error)
            if self.stopping:  # stopped while the database was away: the task stays running,
                return 0  # for the stuck tasks' check
            self.queue_again_cut_short()
            return 1  # round again at once: a task may be waiting
        finally:
            with suppress(DatabaseError):
                close_old_connections()
        return ran

    def run_tasks(self) -> int:
        """django-tasks-db's worker in batch mode: the tasks due, TASKS_A_ROUND at most."""
        before = self.tasks_run
        task_started.connect(self._started)
        task_finished.connect(self._finished)
        try:
            call_command(
                "db_worker",
                batch=True,
                max_tasks=TASKS_A_ROUND,
                queue_name=self.queue_name,
                exclude_queues=self.exclude_queues,
                backend_name=self.backend_name,
                interval=self.interval,
                startup_delay=False,
                reload=False,
                worker_id=self.worker_id,
                verbosity=self.verbosity,
            )
        finally:
            task_started.disconnect(self._started)
            task_finished.disconnect(self._finished)
            self._listen_again()
        return self.tasks_run - before

    def _started(self, sender: Any, task_result: Any, **kwargs: Any) -> None:
        if task_result.backend == self.backend_name:
            self._running = str(task_result.id)

    def _finished(self, sender: Any, task_result: Any, **kwargs: Any) -> None:
        if task_result.backend == self.backend_name:
            self._running = None
            self.tasks_run += 1

    def queue_again_cut_short(self) -> None:
        """The task the database's outage cut short (its result could not be written): back in
        the queue, a few times at most; then left running, for take_up_abandoned."""
        task_id, self._running = self._running, None
        if task_id is None:
            return
        tries = self._cut_short[task_id] = self._cut_short.get(task_id, 0) + 1
        if tries > RETRIES_OF_A_TASK_CUT_SHORT:
            log.warning("Task id=%s was cut short again: left for the stuck tasks' check", task_id)
            return
        DBTaskResult.objects.filter(pk=task_id, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.READY
        )
        log.warning("Task id=%s was cut short by the database (attempt %s)", task_id, tries)

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

    def take_up_abandoned(self) -> int:
        """Queue again, once, each task a dead worker left running too long."""
        stale = health.stuck_tasks().filter(backend_name=self.backend_name)
        if not stale.exists():  # the usual answer, without a write transaction
            return 0
        taken = 0
        with transaction.atomic(using=stale.db):
            for task_result in stale.select_for_update(skip_locked=True).order_by("started_at")[
                :20
            ]:
                # One worker's id once a claim: a task this worker queued again after an outage
                # (queue_again_cut_short) has its id twice, and was still left by one worker.
                holders = list(dict.fromkeys(task_result.worker_ids))
                named = ", ".join(holders) or "?"
                if len(holders) <= 1:
                    # Back in the queue as it was: a worker claims it and adds its own id.
                    DBTaskResult.objects.filter(
                        pk=task_result.pk, status=TaskResultStatus.RUNNING
                    ).update(status=TaskResultStatus.READY)
                    log.warning(
                        "Task id=%s (%s) was left running by worker %s, which stopped: "
                        "queued again",
                        task_result.id,
                        task_result.task_path,
                        named,
                    )
                    taken += 1
                else:
                    task_result.set_failed(
                        TaskAbandoned(f"left running by workers {named}, which stopped")
                    )
                    log.error(
                        "Task id=%s (%s) was left running twice (workers %s): marked failed",
                        task_result.id,
                        task_result.task_path,
                        named,
                    )
        return taken

    def wait_for_database(self, error: BaseException) -> None:
        log.warning(
            "The database does not answer (%s): the worker waits for it", type(error).__name__
        )
        delay = 1.0
        while not self.stopping:
            for connection in connections.all():
                with suppress(DatabaseError):
                    connection.close()
            self._pause(delay)
            try:
                connections["default"].ensure_connection()
            except DatabaseError:
                delay = min(delay * 2, 10.0)
                continue
            log.warning("The database answers again: the worker goes on")
            return

    # -- stopping ------------------------------------------------------------------------------

    @contextmanager
    def _stoppable(self) -> Iterator[None]:
        """SIGTERM and SIGINT stop the worker after its round. django-tasks-db's worker installs
        its own handlers for its round (which let the task under way finish, or exit at once
        when there is none): a signal's number also reaches this socket, so a stop asked for
        during a task is seen when the round returns."""
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only
            return
        self._wakeup, writer = socket.socketpair()
        self._wakeup.setblocking(False)
        writer.setblocking(False)
        old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        old = {number: signal.getsignal(number) for number in STOPS}
        try:
            self._listen_again()
            yield
        finally:
            for number, handler in old.items():
                signal.signal(number, handler)
            signal.set_wakeup_fd(old_fd)
            self._wakeup.close()
            writer.close()
            self._wakeup = None

    def _listen_again(self) -> None:
        """After a round: this worker's own handlers again, and any stop asked for meanwhile."""
        if self._wakeup is None:
            return
        for number in STOPS:
            signal.signal(number, self._stop)
        self._stop_if_asked()

    def _stop(self, number: int, frame: object) -> None:
        if self.stopping:
            raise SystemExit(1)  # asked twice: at once
        log.warning("Received %s: the worker stops", signal.strsignal(number))
        self.stopping = True

    def _stop_if_asked(self) -> None:
        assert self._wakeup is not None
        with suppress(BlockingIOError):
            received = self._wakeup.recv(256)
            if any(number in received for number in STOPS) and not self.stopping:
                self.stopping = True

    def _pause(self, seconds: float) -> None:
        """Sleep, but wake at once to a stop."""
        if self._wakeup is None:
            time.sleep(seconds)
            return
        select.select([self._wakeup], [], [], seconds)
        self._stop_if_asked()
