"""One save in-process: `manage.py bench --save`.

What one hand costs the server where the night is busiest, without HTTP or other tables: a phone's
save through its table's link, handed to the WSGI application as gunicorn hands it a request
(https, the phone's cookies and CSRF token, htmx's headers and its url-encoded body, as the page
posts it; the test client's own bookkeeping left out) on a
sheet of 10 hands and on one of 40. For each size it builds (once; later runs reuse them) tables
of four with that many hands already entered, then saves the next hand at each table once and
reports the medians and the 90th percentile of the wall clock and of this process's CPU, the
queries the save ran (counted at the first table, whose save is not timed) and the bytes of its
answer (which must not grow with the sheet).

Beside it, the floor: the same writes (the hand, its score lines; the database's triggers add them
to the night's totals) done by bare SQL in one transaction, rolled back, with no Django between;
and the ratio of the save to it.
"""

from __future__ import annotations

import datetime as dt
import io
import statistics
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlencode

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection, transaction
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.crypto import get_random_string

from club.operations.bench.live import _served
from club.operations.bench.nights import fresh_statistics, played_night
from club.play.models import Hand, Night, ScoreLine, Table
from club.play.services import table_links as link_service
from club.play.services.hand_entry import next_hand
from club.play.services.hands import delete_hand

SLUG = "bench-save"
SIZES = (10, 40)
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"  # as htmx posts a form (the test client's is multipart)


@dataclass(frozen=True)
class SaveTiming:
    hands_before: int
    saves: int
    wall_ms: float
    wall_p90_ms: float
    cpu_ms: float
    queries: int
    answer_bytes: int
    floor_ms: float = 0.0  # the same writes by bare SQL

    @property
    def ratio(self) -> float:
        return self.wall_ms / self.floor_ms if self.floor_ms else 0.0


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


def _posted(client: Client, url: str, data: dict[str, object]) -> dict[str, Any]:
    """The WSGI environ of the phone's save, as gunicorn builds it from the request."""
    body = urlencode(data).encode()
    csrf = get_random_string(32)  # the phone's CSRF cookie and the page's token, as htmx sends it
    cookies = [f"{name}={morsel.value}" for name, morsel in client.cookies.items()]
    return {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": url,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "443",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": FORM,
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_HOST": "testserver",
        "HTTP_COOKIE": "; ".join([*cookies, f"{settings.CSRF_COOKIE_NAME}={csrf}"]),
        "HTTP_X_CSRFTOKEN": csrf,
        "HTTP_ORIGIN": "https://testserver",
        "HTTP_REFERER": "https://testserver" + url.replace("hands/", ""),
        **HTMX,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


_APPLICATION = WSGIHandler()


def _call(environ: dict[str, Any]) -> tuple[str, dict[str, str], bytes]:
    """Call the WSGI application as a server does: (status, headers, body)."""
    started: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        started.update(status=status, headers=dict(headers))

    chunks = _APPLICATION(environ, cast(Any, start_response))
    try:
        body = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    return started["status"], started["headers"], body


def _insert(model: type[Model], rows: Sequence[Model], returning: bool = False) -> list[int]:
    """INSERT the rows by bare SQL (their columns' values as Django would store them)."""
    fields = [f for f in model._meta.local_concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {model._meta.db_table} ({columns}) VALUES ({marks})"
    if returning:
        sql += " RETURNING id"
    ids = []
    with connection.cursor() as cursor:
        for row in rows:
            values = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
            cursor.execute(sql, values)
            if returning:
                ids.append(cursor.fetchone()[0])
    return ids


def _floor(table: Table, saved: Hand) -> float:
    """The save's writes by bare SQL: a copy of the hand just saved as the next one, and its
    score lines, in a transaction rolled back. Milliseconds."""
    lines = list(saved.score_lines.all())
    hand = Hand.objects.get(pk=saved.pk)
    hand.pk, hand.number, hand.client_id = None, saved.number + 1, uuid.uuid4()
    wall = time.perf_counter()
    with transaction.atomic():
        (hand_id,) = _insert(Hand, [hand], returning=True)
        for line in lines:
            line.pk, line.hand_id = None, hand_id
        _insert(ScoreLine, lines)
        elapsed = (time.perf_counter() - wall) * 1000
        transaction.set_rollback(True)
    return elapsed


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def bench_save(tables: int = 30) -> list[SaveTiming]:
    results = []
    with _served():
        for size in SIZES:
            night = _night(size, tables)
            fresh_statistics()
            links = link_service.night_links(night, None)
            walls: list[float] = []
            cpus: list[float] = []
            queries: list[int] = []
            sizes: list[int] = []
            floors: list[float] = []
            for table in night.tables.order_by("number"):
                if table.hands.count() != size:  # saved at by an earlier run: build afresh
                    continue
                link = links[table.pk]
                assert link is not None  # just issued
                url = reverse("link_create", args=[link.token])
                client = Client()
                client.get(url.replace("hands/", ""))  # the phone opened its page first
                environ = _posted(client, url, _form(table))
                if not queries:
                    # The first table's save is counted, statement by statement (the COMMIT
                    # too), and not timed: Django's debug cursor, which counts them, formats
                    # each statement's text, work a real save does not do.
                    with CaptureQueriesContext(connection) as captured:
                        status, headers, body = _call(environ)
                    queries.append(len(captured.captured_queries))
                else:
                    cpu, wall = time.process_time(), time.perf_counter()
                    status, headers, body = _call(environ)
                    walls.append((time.perf_counter() - wall) * 1000)
                    cpus.append((time.process_time() - cpu) * 1000)
                if headers.get("X-Hand-Outcome") != "saved":
                    raise RuntimeError(f"table {table.number}: not saved: {status} {body[:300]!r}")
                sizes.append(len(body))
                floors.append(_floor(table, Hand.objects.get(table=table, number=size + 1)))
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
                    floor_ms=statistics.median(floors),
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
        f"{'queries':>7} {'answer bytes':>12} {'SQL floor ms':>12} {'ratio':>6}",
    ]
    for r in results:
        lines.append(
            f"{r.hands_before:>12} {r.saves:>5} {r.wall_ms:7.1f} {r.wall_p90_ms:7.1f} "
            f"{r.cpu_ms:7.1f} {r.queries:>7} {r.answer_bytes:>12} {r.floor_ms:12.2f} "
            f"{r.ratio:6.1f}"
        )
    return lines
