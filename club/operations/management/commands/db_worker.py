"""`manage.py db_worker`: django-tasks-db's worker, with the same options, that outlives a
database restart and takes up the tasks a dead worker left running
(club/operations/services/worker.py)."""

from __future__ import annotations

import os

from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from club.operations.services.worker import Worker


class Command(db_worker.Command):
    help = "Run the task worker (survives database restarts; takes up abandoned tasks)"

    def handle(
        self,
        *,
        verbosity: int,
        queue_name: str,
        interval: float,
        batch: bool,
        backend_name: str,
        startup_delay: bool,
        reload: bool,
        max_tasks: int | None,
        worker_id: str,
        exclude_queues: str,
        **options: object,
    ) -> None:
        self.configure_logging(verbosity)
        if reload and batch:
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise db_worker.CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            interval=interval,
            batch=batch,
            backend_name=backend_name,
            startup_delay=startup_delay,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=excluded,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
