"""Many clubs' nights at once on several web nodes: `manage.py bench --many-clubs`.

A county evening on the hosted service: 40 clubs with 6 tables each, every table a phone saving
its hands through the table's link, all at the same moment. Every save goes to the next node in
turn, as a balancer without sticky sessions sends them, so one table's saves land on both nodes
and its write limit is counted in Redis by both. The same load runs first on one node, then on
two, each time on a fresh night per club; a node is gunicorn (`--workers` x `--threads`) on the
same PostgreSQL and Redis (`DATABASE_URL`, `CACHE_URL`), with its request log on, written to a
file as a node's would be. By default the phones save back to back, the heaviest load there can
be; `--pace S` makes each phone wait 0 to 2S seconds between saves, as hands take time to play.

Per run it reports saves, errors (any answer but "saved"), lost hands (a save answered "saved"
whose hand is not stored, or a table whose hands are not 1..N), hands that are not zero-sum,
saves per second, the latency of one save (p50, p99, max) and the nodes' CPU time per save.
"""

from __future__ import annotations

import datetime as dt
import http.client
import itertools
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.db import connection
from django.db.models import Count, Sum
from django.urls import reverse

from club.clubs.models import Club, Player, Season
from club.clubs.services.setup import rule_set_from_preset
from club.operations.bench.entry import (
    hand_fields,
    refuse_a_taken_port,
    session_cpu_seconds,
    stop_server,
)
from club.play.models import Hand, Night, ScoreLine, Table
from club.play.services import table_links as link_service
from club.play.services.night_setup import create_night

PREFIX = "bench-clubs"
BASE_DIR = Path(settings.BASE_DIR)


# --- web nodes -------------------------------------------------------------------------------


def node_env(**extra: str) -> dict[str, str]:
    """A node's environment: this one's (DATABASE_URL, CACHE_URL, SECRET_KEY), production
    settings, plain HTTP on 127.0.0.1."""
    env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    env.update(
        DJANGO_SETTINGS_MODULE="club.settings",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SOLO_PLAIN_STATIC="true",
    )
    env.update(extra)
    return env


def start_node(
    port: int, env: dict[str, str], log: Path, workers: int = 2, threads: int = 4
) -> subprocess.Popen:
    """gunicorn on 127.0.0.1:port, in a session of its own (stopped with stop_server); its log
    (the request lines included) goes to `log`."""
    refuse_a_taken_port(port)
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
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_until_up(nodes: dict[int, subprocess.Popen], log: Path, seconds: float = 60) -> None:
    """Until every node answers /healthz with 200 (the database and the cache reachable)."""
    waiting = set(nodes)
    deadline = time.monotonic() + seconds
    while waiting and time.monotonic() < deadline:
        for port in list(waiting):
            if nodes[port].poll() is not None:
                raise RuntimeError(f"The node on port {port} stopped: {log.read_text()[-3000:]}")
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                probe.request("GET", "/healthz")
                if probe.getresponse().status == 200:
                    waiting.discard(port)
                probe.close()
            except OSError:
                pass
        time.sleep(0.2)
    if waiting:
        raise RuntimeError(f"Nodes {sorted(waiting)} did not start: {log.read_text()[-3000:]}")


# --- the load ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phone:
    club: str
    table: Table
    seats: list[Player]
    token: str


@dataclass
class Save:
    ms: float
    status: int
    outcome: str


@dataclass
class Run:
    label: str
    clubs: int
    tables: int
    hands: int
    wall_s: float = 0.0
    cpu_s: float = 0.0
    saves: list[Save] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    lost: int = 0
    unbalanced: int = 0

    @property
    def errors(self) -> int:
        return sum(1 for s in self.saves if s.status != 200 or s.outcome != "saved")

    def percentile(self, q: float) -> float:
        times = sorted(s.ms for s in self.saves)
        return times[min(len(times) - 1, max(0, round(q * len(times)) - 1))]

    def line(self) -> str:
        n = len(self.saves)
        return (
            f"{self.label:<8} {n:>6} {self.errors:>6} {self.lost:>5} {self.unbalanced:>9} "
            f"{self.wall_s:7.1f} {n / self.wall_s:8.1f} "
            f"{statistics.median(s.ms for s in self.saves):7.1f} {self.percentile(0.99):7.1f} "
            f"{max(s.ms for s in self.saves):7.1f} {self.cpu_s * 1000 / max(1, n):13.1f}"
        )


HEADER = (
    f"{'nodes':<8} {'saves':>6} {'errors':>6} {'lost':>5} {'not zero':>9} {'wall s':>7} "
    f"{'saves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'CPU ms/save':>13}"
)


def _club(number: int, tables: int) -> tuple[Club, Season, list[Player]]:
    slug = f"{PREFIX}-{number:02d}"
    club, _ = Club.objects.get_or_create(slug=slug, defaults={"name": f"Bench club {number:02d}"})
    season = Season.objects.filter(club=club).first()
    if season is None:
        season = Season.objects.create(
            club=club,
            name="Benchmark",
            start=dt.date(2026, 1, 1),
            end=dt.date(2026, 12, 31),
            rule_set=rule_set_from_preset(club, "hoyle", "Hoyle"),
        )
    players = list(club.players.order_by("pk")[: tables * 4])
    for i in range(len(players), tables * 4):
        players.append(Player.objects.create(club=club, name=f"Player {number:02d}-{i + 1:02d}"))
    return club, season, players


def set_up(clubs: int, tables: int) -> tuple[list[Night], list[Phone]]:
    """A fresh night of `tables` tables of four in each club, and each table's link."""
    nights, phones = [], []
    for number in range(1, clubs + 1):
        club, season, players = _club(number, tables)
        held = Night.objects.filter(season=season).count()
        night = create_night(
            season,
            season.start + dt.timedelta(days=held % 365),
            [(players[t * 4 : t * 4 + 4], 0) for t in range(tables)],
            title=f"Benchmark {held + 1}",
        )
        links = link_service.night_links(night, None)
        for table in night.tables.order_by("number"):
            seats = [s.player for s in table.seats.order_by("position").select_related("player")]
            link = links[table.pk]
            assert link is not None  # just issued
            phones.append(Phone(club.slug, table, seats, link.token))
        nights.append(night)
    return nights, phones


def _post(port: int, url: str, body: str, headers: dict[str, str]) -> Save:
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("POST", url, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        status, outcome = response.status, response.getheader("X-Hand-Outcome") or ""
        conn.close()
    except OSError as error:
        status, outcome = 0, f"{type(error).__name__}: {error}"
    return Save((time.perf_counter() - started) * 1000, status, outcome)


def load(
    label: str,
    nodes: dict[int, subprocess.Popen],
    clubs: int,
    tables: int,
    hands: int,
    pace: float = 0.0,
) -> Run:
    """Every table of every club saves `hands` hands at once; save n of phone p goes to node
    (p + n) mod len(nodes). With `pace`, a phone waits between 0 and 2 x pace seconds after each
    save (the hand being played), so the saves are spread as at a real venue."""
    ports = list(nodes)
    nights, phones = set_up(clubs, tables)
    run = Run(label, clubs, tables, hands)
    lock = threading.Lock()
    cpu_before: list[float] = []
    # Once every phone has opened its page: the nodes' CPU so far, then everyone saves at once.
    barrier = threading.Barrier(len(phones) + 1, action=lambda: cpu_before.append(_cpu(nodes)))

    def phone(index: int, p: Phone) -> None:
        csrf = secrets.token_hex(16)
        headers = {
            "Cookie": f"csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        # The phone opens the table's page first, as at the venue (not timed).
        try:
            conn = http.client.HTTPConnection("127.0.0.1", ports[index % len(ports)], timeout=120)
            conn.request("GET", reverse("link_table", args=[p.token]))
            conn.getresponse().read()
            conn.close()
        except OSError:
            pass  # a page that fails to open shows in the timed saves
        url = reverse("link_create", args=[p.token])
        barrier.wait()
        for number in range(1, hands + 1):
            body = urlencode(hand_fields(p.seats, number, p.table.number))
            if pace and number > 1:
                time.sleep(random.uniform(0, 2 * pace))
            save = _post(ports[(index + number) % len(ports)], url, body, headers)
            with lock:
                run.saves.append(save)
                if save.status != 200 or save.outcome != "saved":
                    run.problems.append(
                        f"{p.club} table {p.table.number} hand {number}: "
                        f"{save.status} {save.outcome[:120]}"
                    )

    threads = [threading.Thread(target=phone, args=item) for item in enumerate(phones)]
    for thread in threads:
        thread.start()
    barrier.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    run.wall_s = time.perf_counter() - began
    run.cpu_s = _cpu(nodes) - cpu_before[0]
    check(nights, hands, run)
    return run


def _cpu(nodes: dict[int, subprocess.Popen]) -> float:
    """The CPU time of every process of every node (each node is a session of its own)."""
    return sum(session_cpu_seconds(proc.pid) for proc in nodes.values())


def check(nights: list[Night], hands: int, run: Run) -> None:
    """Every table's hands 1..N once (anything missing is lost) and every hand zero-sum."""
    counts = dict(
        Hand.objects.filter(table__night__in=nights)
        .values("table")
        .annotate(n=Count("id"))
        .values_list("table", "n")
    )
    tables = Table.objects.filter(night__in=nights)
    for table in tables:
        numbers = sorted(Hand.objects.filter(table=table).values_list("number", flat=True))
        if numbers != list(range(1, hands + 1)):
            run.problems.append(f"table {table.pk} has hands {numbers}")
    run.lost = sum(max(0, hands - counts.get(t.pk, 0)) for t in tables)
    run.unbalanced = (
        ScoreLine.objects.filter(night__in=nights)
        .values("hand_id")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .count()
    )


def run(
    clubs: int, tables: int, hands: int, port: int, workers: int, threads: int, pace: float = 0.0
) -> list[str]:
    """One node, then two, under the same load; the report's lines."""
    if connection.vendor != "postgresql" or not settings.CACHE_URL:
        raise RuntimeError(
            "--many-clubs runs nodes over one PostgreSQL and one Redis: set DATABASE_URL=postgres:"
            "//... and CACHE_URL=redis://... (see docs/operators.md)"
        )
    if hands > 30:
        raise RuntimeError("--club-hands above 30 would meet the links' write limit (30 a minute)")
    ports = [port, port + 1]
    lines = [
        f"Many clubs at once: {clubs} clubs x {tables} tables x {hands} hands through the tables' "
        f"links, every save to the next node in turn"
        + (f", a phone waiting 0 to {2 * pace:g} s between saves" if pace else ", back to back")
        + f"; each node gunicorn {workers} workers x {threads} threads; "
        f"PostgreSQL {connection.settings_dict['NAME']}, Redis cache",
        HEADER,
    ]
    with tempfile.TemporaryDirectory(prefix="bench-clubs-") as folder:
        log = Path(folder) / "nodes.log"
        for count in (1, 2):
            nodes = {p: start_node(p, node_env(), log, workers, threads) for p in ports[:count]}
            try:
                wait_until_up(nodes, log)
                label = f"{count} node{'s' if count > 1 else ''}"
                result = load(label, nodes, clubs, tables, hands, pace)
            finally:
                for proc in nodes.values():
                    stop_server(proc)
            lines.append(result.line())
            lines += [f"  problem: {p}" for p in itertools.islice(result.problems, 10)]
    return lines
