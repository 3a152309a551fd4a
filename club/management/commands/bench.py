"""Time the standings page and a player page against the bare SQL they need.

    python manage.py bench [--sizes 10k,100k,1m] [--runs 15]
    python manage.py bench --entry [--tables 15] [--hands 20] [--port 8120]

With --entry it times tables saving hands at once over HTTP instead (club/bench_entry.py).

For each size it seeds (once; later runs reuse it) a club of that many score lines with
`seed_demo --hands N/4 --club bench-<size>`, then prints, for the standings page and the page of
the player with the most hands, medians of:

- page: the response time through Django's test client (logged in as a member);
- sql: every statement the page ran, replayed through a bare cursor (the database's share);
  the ratio is page / sql;
- aggregate: the page's aggregate queries alone, through the ORM (standings: the per-player
  GROUP BY over the night totals; player: the summary, history, best and worst night, contracts
  and partners);
- from lines: the standings aggregate computed straight from the score lines instead, which is
  what the page would cost without the night totals.

The figures are for the configured database (`DATABASE_URL`). Run it with DEBUG off (set
SECRET_KEY), as DEBUG keeps every query in memory.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.models import Count, Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from club.models import Club, Membership, NightTotal, Role, ScoreLine, Season
from club.queries import player as pq
from club.queries import standings as sq

SIZES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}
LINES_PER_HAND = 4
BENCH_USER = "bench-viewer"


@dataclass(frozen=True)
class Timing:
    page: str
    page_ms: float
    sql_ms: float
    aggregate_ms: float
    queries: int
    lines_ms: float | None = None

    @property
    def ratio(self) -> float:
        return self.page_ms / self.sql_ms if self.sql_ms else float("inf")


def median_ms(fn: Callable[[], object], runs: int, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


class Command(BaseCommand):
    help = "Median page times against their bare SQL aggregates at 10k, 100k and 1M score lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sizes", default="10k,100k,1m", help="comma-separated: 10k,100k,1m")
        parser.add_argument("--runs", type=int, default=15, help="timed runs per figure")
        # Concurrent hand entry over HTTP (club/bench_entry.py) instead of the page timings.
        parser.add_argument(
            "--entry", action="store_true", help="time N tables saving M hands at once over HTTP"
        )
        parser.add_argument("--tables", type=int, default=15, help="--entry: tables at once")
        parser.add_argument("--hands", type=int, default=20, help="--entry: hands per table")
        parser.add_argument("--port", type=int, default=8120, help="--entry: the server's port")
        parser.add_argument("--workers", type=int, default=3, help="--entry: gunicorn workers")
        parser.add_argument("--threads", type=int, default=4, help="--entry: threads a worker")
        parser.add_argument(
            "--interchange",
            action="store_true",
            help="instead: export and import of the club data file (club/interchange/bench.py)",
        )
        parser.add_argument(
            "--grades", metavar="SLUG", help="only the grade figures, for this club (see below)"
        )
        parser.add_argument(
            "--ledger",
            action="store_true",
            help="only the after-the-night figures (club/ledger_bench.py): publishing, the ledger",
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["entry"]:
            from club.bench_entry import run

            result = run(
                tables=int(options["tables"]),  # type: ignore[arg-type]
                hands=int(options["hands"]),  # type: ignore[arg-type]
                port=int(options["port"]),  # type: ignore[arg-type]
                workers=int(options["workers"]),  # type: ignore[arg-type]
                threads=int(options["threads"]),  # type: ignore[arg-type]
            )
            for line in result.lines():
                self.stdout.write(line)
            return
        sizes = [s.strip().lower() for s in str(options["sizes"]).split(",") if s.strip()]
        unknown = [s for s in sizes if s not in SIZES]
        if unknown:
            raise CommandError(f"Unknown size {unknown[0]!r}: choose from {', '.join(SIZES)}")
        runs = int(options["runs"])  # type: ignore[arg-type]
        if options["grades"]:
            return self._grades(Club.objects.get(slug=options["grades"]), runs)
        if options["ledger"]:
            from club.ledger_bench import run

            self.stdout.write(f"Database: {connection.vendor}")
            run(self.stdout.write, runs)
            return
        vendor = connection.vendor
        if options["interchange"]:
            from club.interchange.bench import bench_interchange, report

            self.stdout.write(f"Database: {vendor} ({connection.settings_dict['NAME']})")
            for size in sizes if options["sizes"] != "10k,100k,1m" else ["100k"]:
                club = self._seed(size)
                for line in report(club, bench_interchange(club)):
                    self.stdout.write(line)
            return
        self.stdout.write(f"Database: {vendor} ({connection.settings_dict['NAME']})")
        header = (
            f"{'size':>6} {'lines':>9} {'page':<10} {'page ms':>8} {'sql ms':>7} {'ratio':>6} "
            f"{'aggregate ms':>12} {'queries':>7} {'from lines ms':>13}"
        )
        self.stdout.write(header)
        for size in sizes:
            club = self._seed(size)
            lines = ScoreLine.objects.filter(season__club=club).count()
            for t in self._measure(club, runs):
                lines_ms = f"{t.lines_ms:13.1f}" if t.lines_ms is not None else " " * 13
                self.stdout.write(
                    f"{size:>6} {lines:>9} {t.page:<10} {t.page_ms:8.1f} {t.sql_ms:7.1f} "
                    f"{t.ratio:6.2f} {t.aggregate_ms:12.1f} {t.queries:>7} {lines_ms}"
                )
        # Printed sheets (club/pdf/bench.py): our PDF views against WeasyPrint on the same HTML.
        from club.pdf.bench import bench_sheets, report

        timings, final = bench_sheets(runs=max(3, runs // 3))
        for line in report(timings, final):
            self.stdout.write(line)
        self._grades(self._seed(sizes[-1]), runs)

    def _grades(self, club: Club, runs: int) -> None:
        """The Solo grade: a rebuild, and what it adds to a hand save (club/grades_bench.py)."""
        from club.grades_bench import bench_grades
        from club.grades_bench import report as grades_report

        for line in grades_report(bench_grades(club, runs=max(runs, 10))):
            self.stdout.write(line)
        # The live night board and a table's link page (club/management/live_bench.py).
        from club.management import live_bench

        for line in live_bench.report(live_bench.bench_live(runs=runs)):
            self.stdout.write(line)

    def _seed(self, size: str) -> Club:
        slug = f"bench-{size}"
        hands = SIZES[size] // LINES_PER_HAND
        if not Club.objects.filter(slug=slug).exists():
            self.stderr.write(f"Seeding {slug}: {hands} hands (about {SIZES[size]} score lines)")
        call_command("seed_demo", hands=hands, club=slug, if_missing=True, stdout=self.stderr)
        return Club.objects.get(slug=slug)

    def _client(self, club: Club) -> Client:
        user, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
        Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.VIEWER})
        client = Client()
        client.force_login(user)
        return client

    def _measure(self, club: Club, runs: int) -> list[Timing]:
        season = Season.objects.filter(club=club).order_by("-start").first()
        if season is None:
            raise CommandError(f"{club.slug} has no season")
        player_id = (
            NightTotal.objects.filter(season=season)
            .values("player_id")
            .annotate(h=Sum("hands"))
            .order_by("-h")
            .values_list("player_id", flat=True)
            .first()
        )
        player = club.players.get(pk=player_id)
        client = self._client(club)
        standings_url = reverse("standings", args=[club.slug]) + f"?season={season.pk}"
        player_url = reverse("player_detail", args=[club.slug, player.pk]) + f"?season={season.pk}"
        plain_static = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        # The test client's host, plain HTTP and no collected manifest: the page's own work only.
        with override_settings(
            ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False, STORAGES=plain_static
        ):

            def get(url: str) -> Callable[[], object]:
                def fetch() -> object:
                    response = client.get(url)
                    if response.status_code != 200:
                        raise CommandError(f"{url} answered {response.status_code}")
                    return response

                return fetch

            def page_sql(url: str) -> list[str]:
                with CaptureQueriesContext(connection) as queries:
                    get(url)()
                return [q["sql"] for q in queries.captured_queries]

            def replay(statements: list[str]) -> Callable[[], object]:
                def run() -> object:
                    with connection.cursor() as cursor:
                        for sql in statements:
                            cursor.execute(sql)
                            cursor.fetchall()

                return run

            last = sq.season_nights(season)[-1].id

            def standings_bare() -> object:
                return list(sq.player_totals(season, last_night_id=last))

            def standings_from_lines() -> object:
                return list(
                    ScoreLine.objects.filter(season=season)
                    .values("player_id")
                    .annotate(n=Count("night_id", distinct=True), h=Count("id"), net=Sum("amount"))
                    .order_by()
                )

            def player_bare() -> object:
                pq.summary(season, player)
                list(pq.night_history(season, player).object_list)
                pq.best_and_worst(season, player)
                pq.contracts(season, player)
                return pq.partnerships(season, player)

            standings_sql = page_sql(standings_url)
            player_sql = page_sql(player_url)
            return [
                Timing(
                    "standings",
                    median_ms(get(standings_url), runs),
                    median_ms(replay(standings_sql), runs),
                    median_ms(standings_bare, runs),
                    len(standings_sql),
                    median_ms(standings_from_lines, runs),
                ),
                Timing(
                    "player",
                    median_ms(get(player_url), runs),
                    median_ms(replay(player_sql), runs),
                    median_ms(player_bare, runs),
                    len(player_sql),
                ),
            ]
