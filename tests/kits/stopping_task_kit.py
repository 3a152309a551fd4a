"""Tasks for the worker's own tests: one that asks the worker's process to stop while it runs,
and one that only notes it ran."""

from __future__ import annotations

import os
import signal

from django_tasks import task

ran: list[str] = []


@task()
def stop_the_worker(name: str) -> str:
    os.kill(os.getpid(), signal.SIGTERM)  # as systemd stops the service
    ran.append(name)
    return name


@task()
def noted(name: str) -> str:
    ran.append(name)
    return name
