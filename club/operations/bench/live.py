"""How much the live night board and a table's link page cost, and how little the board's
"nothing changed" answer costs beside a full board.

`bench_live()` builds (once; later runs reuse it) a club `bench-live` with one open night of
15 tables x 24 hands (60 players), every hand entered through the hand service, and a table link
for each table. Through Django's test client it times, as medians: the full live board (a member),
the poll that finds nothing changed (htmx, `?since=`: 204, answered from the night's mark in the
cache), the same with `If-None-Match` (304), the poll when the mark has expired (the access checks
and the revision query), and a table's link page on a phone (anonymous). Then how soon a board
polling every second shows a hand saved at a table (`seen_after_save`): a thread polls as the page
does while hands are saved through the hand service. `python manage.py bench` prints them.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from club.clubs.models import Membership, Role
from club.demo.services import demo
from club.lib import live_marks
from club.lib.live_marks import POLL_SECONDS
from club.operations.bench.nights import played_night
from club.play.models import Night
from club.play.services import table_links as link_service
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand

SLUG = "bench-live"
TABLES, HANDS = 15, 24
BENCH_USER = "bench-live"


@dataclass(frozen=True)
class LiveTiming:
    what: str
    status: int
    median_ms: float
    queries: int
    size: int  # bytes of the answer


def _night() -> Night:
    return played_night(
        SLUG, "Live board bench", "Live bench night", dt.date(2026, 11, 20), TABLES, HANDS, seed=9
    )


def _time(fetch: Callable[[], object], runs: int) -> float:
    for _ in range(2):
        fetch()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fetch()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _served() -> override_settings:
    """The pages as served in production (DEBUG off, set in the environment), reached over plain
    HTTP by the test client; static files by their plain names (no manifest needed)."""
    plain_static = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    return override_settings(
        ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False, STORAGES=plain_static
    )


def bench_live(runs: int = 30) -> list[LiveTiming]:
    with _served():
        return _bench(runs)


def _bench(runs: int) -> list[LiveTiming]:
    night = _night()
    club = night.season.club
    user, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
    Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.VIEWER})
    member = Client()
    member.force_login(user)
    phone = Client()
    live = reverse("live_night", args=[club.slug, night.pk])
    first_table = night.tables.order_by("number")[0]
    first_link = link_service.night_links(night, None)[first_table.pk]
    assert first_link is not None  # just issued
    link = reverse("link_table", args=[first_link.token])
    etag = member.get(live)["ETag"]
    since = f"{live}?since={etag.strip(chr(34))}"
    # Each fetch answers with the test client's response.
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("live board, full", lambda: member.get(live)),
        ("live board, poll unchanged (204)", lambda: member.get(since, HTTP_HX_REQUEST="true")),
        ("live board, ETag unchanged (304)", lambda: member.get(live, HTTP_IF_NONE_MATCH=etag)),
        ("poll unchanged, mark expired (204)", lambda: _expired(night, member, since)),
        (f"table link page ({HANDS} hands)", lambda: phone.get(link)),
    ]
    results = []
    for what, fetch in cases:
        statements: list[str] = []

        def count(
            execute: Any,
            sql: str,
            params: Any,
            many: bool,
            context: Any,
            seen: list[str] = statements,
        ) -> Any:
            seen.append(sql)
            return execute(sql, params, many, context)

        # Counted as they run: the connection is opened anew for each request, which empties
        # Django's own query log.
        with connection.execute_wrapper(count):
            response = fetch()
        timing = LiveTiming(
            what, response.status_code, _time(fetch, runs), len(statements), len(response.content)
        )
        results.append(timing)
    return results


def _expired(night: Night, member: Client, since: str) -> Any:  # the test client's response
    live_marks.forget(night.pk)
    return member.get(since, HTTP_HX_REQUEST="true")


def seen_after_save(saves: int = 10) -> list[float]:
    """Seconds from a hand's commit to the first poll that brings the new board, for a board
    polling every POLL_SECONDS as the page does."""
    with _served():
        night = _night()
        club = night.season.club
        user, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
        member = Client()
        member.force_login(user)
        live = reverse("live_night", args=[club.slug, night.pk])
        table = night.tables.order_by("number")[0]
        seats = [s.player for s in table.seats.select_related("player")]
        rules = night.season.rule_set.rules
        rng = random.Random(5)
        delays = []
        for _ in range(saves):
            rev = member.get(live)["ETag"].strip('"')
            found = threading.Event()
            committed: list[float] = []

            def poll(rev: str = rev, found: threading.Event = found) -> None:
                while not found.is_set():
                    response = member.get(f"{live}?since={rev}", HTTP_HX_REQUEST="true")
                    if response.status_code == 200:
                        found.set()
                        break
                    time.sleep(POLL_SECONDS)
                connection.close()

            poller = threading.Thread(target=poll)
            poller.start()
            time.sleep(rng.uniform(0, POLL_SECONDS))  # the save lands anywhere in the interval
            upcoming = next_hand(table)
            playing = [p for p in seats if p != upcoming["sitting_out"]]
            entry = demo.random_entry(rng, upcoming["dealer"], playing, rules)
            record_hand(table, entry, None)
            committed.append(time.perf_counter())
            found.wait(30)
            delays.append(time.perf_counter() - committed[0])
            poller.join()
        return delays


def report(timings: list[LiveTiming]) -> list[str]:
    full = timings[0].median_ms
    lines = [
        f"Live board and table link: a night of {TABLES} tables x {HANDS} hands "
        f"({connection.vendor})",
        f"{'what':<36} {'status':>6} {'ms':>7} {'vs full':>7} {'queries':>7} {'bytes':>7}",
    ]
    for t in timings:
        lines.append(
            f"{t.what:<36} {t.status:>6} {t.median_ms:7.2f} {t.median_ms / full:7.2f} "
            f"{t.queries:>7} {t.size:>7}"
        )
    return lines
