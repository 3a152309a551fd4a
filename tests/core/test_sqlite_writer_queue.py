"""SQLite's writers of one process take turns in the order they came, not whoever wakes first
from SQLite's busy handler: with fifteen tables saving at once, no save waits behind many later
ones (club/core/sqlite_backend/base.py)."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import connection

from club.core.sqlite_backend.base import WriterQueue


def test_waiters_get_the_lock_in_the_order_they_came():
    queue = WriterQueue()
    assert queue.acquire(timeout=1)
    order: list[int] = []
    served = threading.Semaphore(0)

    def wait_turn(n: int) -> None:
        if queue.acquire(5):
            order.append(n)
            served.release()

    threads = []
    for n in range(8):
        thread = threading.Thread(target=wait_turn, args=(n,))
        thread.start()
        threads.append(thread)
        # Each is in the line before the next comes (however slow the machine), not after a
        # guessed sleep.
        deadline = time.monotonic() + 5
        while len(queue._waiting) < n + 1 and time.monotonic() < deadline:
            time.sleep(0.001)
    for _ in range(8):
        queue.release()
        assert served.acquire(timeout=5)  # the one served has written its number
    for thread in threads:
        thread.join(2)
    assert order == list(range(8))
    queue.release()
    assert queue.acquire(timeout=0.1), "free again once the last has gone"


def test_a_waiter_that_gives_up_is_skipped_and_the_next_is_served():
    queue = WriterQueue()
    assert queue.acquire(timeout=1)
    assert not queue.acquire(timeout=0.05)  # gave up: not left in the line
    got = threading.Event()
    thread = threading.Thread(target=lambda: queue.acquire(5) and got.set())
    thread.start()
    time.sleep(0.05)
    queue.release()
    assert got.wait(2)
    thread.join(2)


def test_the_app_uses_it_on_sqlite():
    engine = settings.DATABASES["default"]["ENGINE"]
    if connection.vendor == "sqlite":
        assert engine == "club.core.sqlite_backend"
    else:
        assert engine.endswith("postgresql")
