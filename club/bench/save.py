"""One save in-process: `manage.py bench --save`.

What one hand costs the server where the night is busiest, without HTTP or other tables: a phone's
save through its table's link (Django's test client, htmx headers, as the page posts it) on a
sheet of 10 hands and on one of 40. For each size it builds (once; later runs reuse them) tables
of four with that many hands already entered, then saves the next hand at each table once and
reports the medians and the 90th percentile of the wall clock and of this process's CPU, the
queries the save ran and the bytes of its answer (which must not grow with the sheet).
"""

from __future__ import annotations

import datetime as dt
import statistics
import time
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.bench.live import _served
from club.bench.nights import played_night
from club.models import Hand, Night, Table
from club.services import table_links as link_service
from club.services.hands import delete_hand, next_hand

SLUG = "bench-save"
SIZES = (10, 40)
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


@dataclass(frozen=True)
class SaveTiming:
    hands_before: int
    saves: int
    wall_ms: float
    wall_p90_ms: float
    cpu_ms: float
    queries: int
    answer_bytes: int


def _night(size: int, tables: int) -> Night:
    day = dt.date(2026, 11, 1) + dt.timedelta(days=SIZES.index(size))
    return played_night(SLUG, "Save bench", f"{size} hands a table", day, tables, size, seed=size)


def _form(table: Table) -> dict[str, object]:
    upcoming = next_hand(table)
    seats = [s.player for s in table.seats.order_by("position").select_related("player")]
    playing = [p for p in seats if p != upcoming["sitting_out"]]
    return {
        "dealer": upcoming["dealer"].pk,
        "contract": "solo",
        "declarer": playing[1].pk,
        "tricks": 7,
        "expected_number": upcoming["number"],
        "client_id": str(uuid.uuid4()),
    }


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def bench_save(tables: int = 30) -> list[SaveTiming]:
    results = []
    with _served():
        for size in SIZES:
            night = _night(size, tables)
            links = link_service.night_links(night, None)
            walls: list[float] = []
            cpus: list[float] = []
            queries: list[int] = []
            sizes: list[int] = []
            for table in night.tables.order_by("number"):
                if table.hands.count() != size:  # saved at by an earlier run: build afresh
                    continue
                link = links[table.pk]
                assert link is not None  # just issued
                url = reverse("link_create", args=[link.token])
                client = Client()
                client.get(url.replace("hands/", ""))  # the phone opened its page first
                data = _form(table)
                with CaptureQueriesContext(connection) as captured:
                    cpu, wall = time.process_time(), time.perf_counter()
                    response = client.post(url, data, **HTMX)
                    walls.append((time.perf_counter() - wall) * 1000)
                    cpus.append((time.process_time() - cpu) * 1000)
                if response["X-Hand-Outcome"] != "saved":
                    raise RuntimeError(f"table {table.number}: not saved: {response}")
                queries.append(len(captured.captured_queries))
                sizes.append(len(response.content))
            if not walls:
                raise RuntimeError(f"every table of {night} was saved at: run seed again")
            results.append(
                SaveTiming(
                    hands_before=size,
                    saves=len(walls),
                    wall_ms=statistics.median(walls),
                    wall_p90_ms=_p90(walls),
                    cpu_ms=statistics.median(cpus),
                    queries=max(queries),
                    answer_bytes=max(sizes),
                )
            )
            # Undo the saves (as a secretary's delete would) so the next run times the same sheets.
            for hand in Hand.objects.filter(table__night=night, number=size + 1):
                delete_hand(hand, None)
    return results


def report(results: list[SaveTiming]) -> list[str]:
    lines = [
        f"Database: {connection.vendor}. One save through a table's link, in-process:",
        f"{'hands before':>12} {'saves':>5} {'ms p50':>7} {'ms p90':>7} {'CPU ms':>7} "
        f"{'queries':>7} {'answer bytes':>12}",
    ]
    for r in results:
        lines.append(
            f"{r.hands_before:>12} {r.saves:>5} {r.wall_ms:7.1f} {r.wall_p90_ms:7.1f} "
            f"{r.cpu_ms:7.1f} {r.queries:>7} {r.answer_bytes:>12}"
        )
    return lines
