"""The background queue's failed and stuck tasks, for an operator
(club/operations/services/task_queue.py).

    python manage.py tasks list          # failed and stuck tasks: id, task, times, the error
    python manage.py tasks retry ID      # queue it again with the same arguments
    python manage.py tasks drop ID       # delete it (asks first; --yes does not)

Stuck is /healthz's definition: "running" longer than TASKS_MAX_RUN_SECONDS (its worker died).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.operations.services import task_queue


def _when(moment: dt.datetime | None) -> str:
    if moment is None:
        return "-"
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


class Command(BaseCommand):
    help = "List the failed and stuck background tasks; retry or drop one by its id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["list", "retry", "drop"])
        parser.add_argument("id", nargs="?", help="the task's id (retry, drop), as listed")
        parser.add_argument(
            "--yes",
            "--no-input",
            "--noinput",
            action="store_false",
            dest="interactive",
            help="drop without asking",
        )

    def handle(self, *args: object, **options: Any) -> None:
        action, task_id = options["action"], options["id"]
        if action == "list":
            if task_id:
                raise CommandError("`tasks list` takes no id")
            self.show_list()
            return
        if not task_id:
            raise CommandError(f"Give the id of the task to {action} (`tasks list` shows them)")
        try:
            if action == "retry":
                new_id = task_queue.retry(str(task_id))
                self.stdout.write(f"Task {task_id} queued again as {new_id}")
            else:
                self.drop(str(task_id), interactive=bool(options["interactive"]))
        except task_queue.TaskQueueRefused as refused:
            raise CommandError(str(refused)) from None

    def show_list(self) -> None:
        found = task_queue.troubles()
        if not found:
            self.stdout.write("No failed or stuck tasks.")
            return
        self.stdout.write(f"{len(found)} failed or stuck task(s), oldest first:")
        for t in found:
            self.stdout.write(f"{t.id}  {t.status.upper()}  {t.task_path}")
            self.stdout.write(
                f"    queued {_when(t.enqueued_at)}, started {_when(t.started_at)}, "
                f"finished {_when(t.finished_at)}"
            )
            if t.error:
                self.stdout.write(f"    error: {t.error}")

    def drop(self, task_id: str, *, interactive: bool) -> None:
        trouble = task_queue.show(task_id)
        if interactive:
            answer = input(
                f"Drop the {trouble.status} task {trouble.id} ({trouble.task_path})? "
                "It will not run. Type 'yes' to drop it: "
            )
            if answer.strip().lower() != "yes":
                raise CommandError("Not dropped")
        task_queue.drop(task_id)
        self.stdout.write(f"Task {trouble.id} ({trouble.task_path}) dropped")
