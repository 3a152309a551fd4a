"""Django's SQLite backend with writers served in turn within a process.

SQLite lets one writer in at a time. A transaction that finds the write lock taken waits in
SQLite's busy handler, which sleeps and tries again (1 ms, then 2, 5, ... up to 100 ms between
tries): whoever happens to try at the right moment goes next, so with fifteen tables saving at
once a save may lose the race again and again and wait seconds while later ones go through.
Here every transaction of this process first queues on one lock per database file, handed on in
the order the transactions came, and SQLite's lock is then nearly always free when it begins. The
busy handler still orders writers of other processes (the task worker, a management command).

Waiting on the queue is bounded by the same timeout as SQLite's own; past it the transaction
begins anyway and SQLite's busy handler decides, as without this backend.
"""

from __future__ import annotations

import threading
from collections import deque

from django.db.backends.sqlite3 import base


class WriterQueue:
    """A lock handed to its waiters in the order they came (threading.Lock wakes any of them)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._waiting: deque[threading.Event] = deque()

    def acquire(self, timeout: float) -> bool:
        with self._mutex:
            if not self._held:
                self._held = True
                return True
            turn = threading.Event()
            self._waiting.append(turn)
        if turn.wait(timeout):
            return True
        with self._mutex:
            if turn in self._waiting:  # gave up before its turn came
                self._waiting.remove(turn)
                return False
        return True  # handed over just as the wait ended

    def release(self) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().set()  # the lock passes straight to the next in line
            else:
                self._held = False


_queues: dict[str, WriterQueue] = {}
_queues_lock = threading.Lock()


def _queue(name: str) -> WriterQueue:
    with _queues_lock:
        return _queues.setdefault(name, WriterQueue())


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_queue = False

    def _start_transaction_under_autocommit(self) -> None:
        if self.is_in_memory_db():  # one connection per thread, nothing shared to queue for
            # Django's private SQLite method, which the stubs leave out.
            return super()._start_transaction_under_autocommit()  # type: ignore[misc]
        queue = _queue(str(self.settings_dict["NAME"]))
        timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        self._holds_queue = queue.acquire(timeout=timeout)
        try:
            # Django's private SQLite method, which the stubs leave out.
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._leave_queue()
            raise

    def _leave_queue(self) -> None:
        if self._holds_queue:
            self._holds_queue = False
            _queue(str(self.settings_dict["NAME"])).release()

    def _commit(self) -> None:
        try:
            # Django's private SQLite method, which the stubs leave out.
            super()._commit()  # type: ignore[misc]
        finally:
            self._leave_queue()

    def _rollback(self) -> None:
        try:
            # Django's private SQLite method, which the stubs leave out.
            super()._rollback()  # type: ignore[misc]
        finally:
            self._leave_queue()

    def _close(self) -> None:
        try:
            # Django's private SQLite method, which the stubs leave out.
            super()._close()  # type: ignore[misc]
        finally:
            self._leave_queue()
