"""A task worker as the tests drive it: one round at a time (batch), no waiting between rounds."""

from __future__ import annotations

from club.operations.services.worker import Worker


def a_worker(worker_id: str = "second-worker") -> Worker:
    return Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )
