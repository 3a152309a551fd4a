"""`manage.py worker`: the task worker to run beside the web server. django-tasks-db's own
`db_worker` does the tasks; this runs it in rounds, outlives a database restart, takes up the
tasks a dead worker left running and catches the grades up between rounds
(club/operations/services/worker.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from club.operations.services.worker import Worker


class Command(BaseCommand):
    help = "Run the task worker (survives database restarts; takes up abandoned tasks; grades)"

    def add_arguments(self, parser: CommandParser) -> None:
        # The options of django-tasks-db's db_worker that a club's worker needs, passed on to it.
        parser.add_argument("--queue-name", default="default", help="queues, comma-separated; *")
        parser.add_argument("--exclude-queues", default="", help="with --queue-name=*")
        parser.add_argument("--backend", default="default", dest="backend_name")
        parser.add_argument(
            "--interval", type=float, default=1.0, help="seconds between empty rounds"
        )
        parser.add_argument(
            "--batch", action="store_true", help="stop after the first round with nothing to do"
        )
        parser.add_argument("--no-startup-delay", action="store_false", dest="startup_delay")
        parser.add_argument("--worker-id", default=None, help="unique in the pool (default random)")

    def handle(
        self,
        *args: object,
        queue_name: str,
        exclude_queues: str,
        backend_name: str,
        interval: float,
        batch: bool,
        startup_delay: bool,
        worker_id: str | None,
        verbosity: int,
        **options: object,
    ) -> None:
        Worker(
            queue_name=queue_name,
            exclude_queues=exclude_queues,
            backend_name=backend_name,
            interval=max(0.0, interval),
            batch=batch,
            startup_delay=startup_delay,
            worker_id=worker_id,
            verbosity=verbosity,
        ).run()
