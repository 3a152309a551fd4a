"""Many tables saving hands at once, over HTTP: `manage.py bench --entry [--tables 15]`.

A club night as it happens: one phone per table, every table saving its hands one after another,
all tables at the same moment. The command starts a real server on 127.0.0.1 (gunicorn on
PostgreSQL, Django's development server on SQLite, as people run them), sets up a fresh night of
N tables of four with a logged-in scorer per table (sessions made directly, so logging in is not
timed), then each table's thread posts its hands to the table's save URL exactly as the page
does (htmx headers, CSRF token, client-made id, expected hand number) and times each answer.

It reports saves per second (all saves over the wall-clock time) and the latency of one save
(p50, p99, max), counts every answer that is not "saved", and checks afterwards that every table
has its hands once, numbered in order, and zero-sum.
"""

from __future__ import annotations

import datetime as dt
import http.client
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.models import Sum
from django.urls import reverse

from club.clubs.models import Club, Membership, Player, Role, Season
from club.operations.bench.nights import fresh_statistics
from club.play.models import Hand, Night, ScoreLine, Table

SLUG = "bench-entry"
BASE_DIR = Path(settings.BASE_DIR)


@dataclass
class Save:
    table: int
    ms: float
    status: int
    outcome: str


@dataclass
class Result:
    server: str
    database: str
    tables: int
    hands: int
    wall_s: float
    saves: list[Save] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    server_cpu_s: float = 0.0  # CPU time the server's processes spent during the run

    @property
    def ok(self) -> list[Save]:
        return [s for s in self.saves if s.status == 200 and s.outcome == "saved"]

    def percentile(self, q: float) -> float:
        times = sorted(s.ms for s in self.saves)
        if not times:
            return float("nan")
        return times[min(len(times) - 1, max(0, round(q * len(times)) - 1))]

    def lines(self) -> list[str]:
        errors = len(self.saves) - len(self.ok)
        return [
            f"Concurrent entry: {self.tables} tables x {self.hands} hands at once over HTTP, "
            f"{self.server} on {self.database}",
            f"{'tables':>6} {'hands':>5} {'saves':>5} {'errors':>6} {'wall s':>7} "
            f"{'saves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'server CPU ms/save':>18}",
            f"{self.tables:>6} {self.hands:>5} {len(self.saves):>5} {errors:>6} "
            f"{self.wall_s:7.2f} {len(self.saves) / self.wall_s:8.1f} "
            f"{statistics.median(s.ms for s in self.saves):7.1f} {self.percentile(0.99):7.1f} "
            f"{max(s.ms for s in self.saves):7.1f} "
            f"{self.server_cpu_s * 1000 / max(1, len(self.saves)):18.1f}",
            *(f"  problem: {p}" for p in self.problems[:20]),
        ]


def hand_fields(seats: list[Player], number: int, table_no: int) -> dict[str, object]:
    """A plausible hand: solos, misères and Prop & Cops in turn, made and failed."""
    step = table_no + number
    data: dict[str, object] = {
        "dealer": seats[(number - 1) % 4].pk,
        "expected_number": number,
        "client_id": str(uuid.uuid4()),
    }
    kind = step % 3
    if kind == 0:
        data |= {"contract": "solo", "declarer": seats[step % 4].pk, "tricks": 3 + step % 6}
    elif kind == 1:
        data |= {"contract": "misere", "declarer": seats[(step + 1) % 4].pk, "tricks": step % 2}
    else:
        data |= {
            "contract": "prop_cop",
            "declarer": seats[step % 4].pk,
            "partner": seats[(step + 2) % 4].pk,
            "tricks": 6 + step % 5,
        }
    return data


def _club() -> tuple[Club, Season]:
    from club.clubs.services.setup import rule_set_from_preset

    club, _ = Club.objects.get_or_create(slug=SLUG, defaults={"name": "Entry benchmark"})
    season = Season.objects.filter(club=club).first()
    if season is None:
        rule_set = rule_set_from_preset(club, "hoyle", "Hoyle")
        season = Season.objects.create(
            club=club,
            name="Benchmark",
            start=dt.date(2026, 1, 1),
            end=dt.date(2026, 12, 31),
            rule_set=rule_set,
        )
    return club, season


def set_up(tables: int) -> tuple[Night, list[tuple[Table, list[Player], str | None]]]:
    """A fresh night of `tables` tables of four, and a scorer's session cookie for each."""
    from club.play.services.night_setup import create_night

    club, season = _club()
    players = list(club.players.order_by("pk")[: tables * 4])
    for i in range(len(players), tables * 4):
        players.append(Player.objects.create(club=club, name=f"Bench player {i + 1:03d}"))
    nights = Night.objects.filter(season=season).count()
    night = create_night(
        season,
        season.start + dt.timedelta(days=nights % 365),
        [(players[t * 4 : t * 4 + 4], 0) for t in range(tables)],
        title=f"Benchmark {nights + 1}",
    )
    users = get_user_model().objects
    out = []
    for table in night.tables.order_by("number"):
        user, _ = users.get_or_create(username=f"bench-table-{table.number}")
        Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.SCORER})
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        seats = [s.player for s in table.seats.order_by("position").select_related("player")]
        out.append((table, seats, session.session_key))
    fresh_statistics()
    return night, out


def refuse_a_taken_port(port: int) -> None:
    """Stop before starting a server on a port another process holds (a server left over from
    an interrupted run): the saves would go to it, and its CPU would not be counted."""
    with socket.socket() as probe:
        # As the servers bind: the connections a stopped server left closing (TIME_WAIT) do not
        # hold the port, only a server still listening on it does.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise RuntimeError(
                f"Port {port} is in use (a server left from an earlier run?): stop it, or pass "
                "another --port."
            ) from None


def start_server(
    port: int, workers: int, threads: int, request_log: bool = True
) -> tuple[subprocess.Popen, str]:
    refuse_a_taken_port(port)
    env = {
        **os.environ,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DJANGO_SETTINGS_MODULE": "club.settings",
        # A line a request, as docs/operators.md runs a node, unless --no-request-log asks to
        # measure what the line costs.
        "REQUEST_LOG": "true" if request_log else "false",
        # The pages' static files by their plain names: a fresh clone has run no collectstatic,
        # and the saves' cost does not depend on how static files are named.
        "SOLO_PLAIN_STATIC": "true",
    }
    if connection.vendor == "postgresql":
        command = [
            str(Path(sys.executable).with_name("gunicorn")),
            "club.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ]
        name = f"gunicorn ({workers} workers x {threads} threads)"
    else:
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        name = "Django's development server (a thread per request)"
    # The server's log goes to a file: a pipe nobody reads fills with error reports and stalls
    # every thread of the server that writes to it.
    log = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the server runs
    server = subprocess.Popen(
        command,
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    # The server's process keeps its log file, to read back on failure.
    server.log = log  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            probe.request("GET", "/sw.js")
            probe.getresponse().read()
            return server, name
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.2)
    stop_server(server)
    raise RuntimeError(f"The server on port {port} did not start: {server_log(server)}")


def server_log(server: subprocess.Popen) -> str:
    """The end of what the server wrote to its log."""
    # The server's process keeps its log file, to read back on failure.
    log = server.log  # type: ignore[attr-defined]
    log.seek(0)
    return log.read()[-2000:].decode("utf-8", "replace")


def session_cpu_seconds(session: int) -> float:
    """User + system CPU time of every process in this session (the server and its workers):
    unlike the latencies, it hardly depends on how busy the machine is with other work."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command name: state, ppid, pgrp, session, ... utime is the 12th, stime 13th.
        if int(fields[3]) == session:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def run(
    tables: int, hands: int, port: int, workers: int, threads: int, request_log: bool = True
) -> Result:
    night, setup = set_up(tables)
    server, name = start_server(port, workers, threads, request_log)
    if not request_log:
        name += ", request log off"
    result = Result(
        name, f"{connection.vendor} ({connection.settings_dict['NAME']})", tables, hands, 0
    )
    lock = threading.Lock()
    cpu_before: list[float] = []
    # The server's CPU is read when every scorer has opened its page (the workers' warm-up is
    # not a save's cost) and before any save starts: the barrier's action runs in between.
    barrier = threading.Barrier(
        tables + 1, action=lambda: cpu_before.append(session_cpu_seconds(server.pid))
    )

    def scorer(table: Table, seats: list[Player], session_key: str) -> None:
        csrf = secrets.token_hex(16)  # 32 characters, as Django's cookie
        headers = {
            "Cookie": f"sessionid={session_key}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        url = reverse("hand_create", args=[SLUG, table.pk])
        # Each scorer opens the table page first, as at the venue, so the server's workers have
        # loaded their code and compiled the templates before the saves are timed: enough opens
        # that every worker likely had some (a cold worker's first request takes over a second).
        page = reverse("table_detail", args=[SLUG, table.pk])
        for _ in range(max(2, -(-4 * workers // tables))):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", page, headers={"Cookie": headers["Cookie"]})
                opened = conn.getresponse()
                opened.read()
                conn.close()
                if opened.status != 200:
                    with lock:
                        result.problems.append(f"table {table.number}: page {opened.status}")
            except OSError as error:
                with lock:
                    result.problems.append(f"table {table.number}: page {error}")
        barrier.wait()
        for number in range(1, hands + 1):
            body = urlencode(hand_fields(seats, number, table.number))
            start = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("POST", url, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status, outcome = response.status, response.getheader("X-Hand-Outcome") or ""
                conn.close()
            except OSError as error:
                status, outcome = 0, f"{type(error).__name__}: {error}"
            ms = (time.perf_counter() - start) * 1000
            with lock:
                result.saves.append(Save(table.number, ms, status, outcome))

    workers_ = [threading.Thread(target=scorer, args=item) for item in setup]
    try:
        for thread in workers_:
            thread.start()
        barrier.wait()
        began = time.perf_counter()
        for thread in workers_:
            thread.join()
        result.wall_s = time.perf_counter() - began
        result.server_cpu_s = session_cpu_seconds(server.pid) - cpu_before[0]
    finally:
        stop_server(server)
    for save in result.saves:
        if save.status != 200 or save.outcome != "saved":
            result.problems.append(f"table {save.table}: {save.status} {save.outcome}")
    if result.problems:
        result.problems.append(f"the server's log ends: {server_log(server)[-600:]}")
    check(night, hands, result)
    return result


def check(night: Night, hands: int, result: Result) -> None:
    """Every table's hands once, numbered 1..hands, and every hand zero-sum."""
    for table in night.tables.order_by("number"):
        numbers = list(Hand.objects.filter(table=table).values_list("number", flat=True))
        if sorted(numbers) != list(range(1, hands + 1)):
            result.problems.append(f"table {table.number} has hands {sorted(numbers)}")
    unbalanced = (
        ScoreLine.objects.filter(night=night)
        .values("hand_id")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .count()
    )
    if unbalanced:
        result.problems.append(f"{unbalanced} hands are not zero-sum")
