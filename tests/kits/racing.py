"""Running two changes at the same moment in real threads, each on its own database connection.

`race(a, b)` starts both behind a barrier so that they reach the database together, and returns
what each returned or raised. PostgreSQL runs them truly at once (row locks decide who waits);
SQLite lets one writer in at a time, which the tests check too when they run on a file database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection, connections


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None


def race(*calls: Callable[[], Any], timeout: float = 30) -> list[Outcome]:
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout)
            outcomes[index].value = call()
        except BaseException as error:  # reported to the test through the outcome
            outcomes[index].error = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a racing change never finished (deadlock?)"
    return outcomes


def needs_real_concurrency() -> None:
    """Skip on an in-memory SQLite database, which threads cannot share."""
    import pytest

    if connection.vendor == "sqlite" and connection.settings_dict["TEST"].get("NAME") in (
        None,
        "",
        ":memory:",
    ):
        pytest.skip("threads need a file database (SQLite) or PostgreSQL")
