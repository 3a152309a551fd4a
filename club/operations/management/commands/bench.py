"""Benchmarks: what a page, a save, a sheet or an import costs against the bare work it needs.

    python manage.py bench [--sizes 10k,100k,1m] [--runs 15]   pages, sheets, grades, live board
    python manage.py bench --entry [--tables 15] [--hands 20]     tables saving hands over HTTP
    python manage.py bench --many-clubs [--clubs 40]   40 clubs x 6 tables over one node, then two
    python manage.py bench --peak --clubs 100 [--seconds 120] [--find-max] [--push] [--compare]
        an evening, every club's pages live at once (polling, or push through nginx + nchan)
    python manage.py bench --interchange | --ledger | --live | --save | --draw | --grades SLUG
    python manage.py bench --statements SLUG     the results emails' statement PDFs

Each figure's module is in club/bench/. The figures are for the configured database
(`DATABASE_URL`). Run it with DEBUG off (set SECRET_KEY), as DEBUG keeps every query in memory.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test.utils import override_settings

from club.clubs.models import Club
from club.operations.bench.pages import SIZES, measure, seed
from club.play.models import ScoreLine


def plain_static_storages() -> dict[str, dict[str, str]]:
    """The configured storages, static files by plain names if the manifest the configured
    storage needs has not been made."""
    storages = dict(settings.STORAGES)
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if "Manifest" in storages["staticfiles"]["BACKEND"] and not manifest.exists():
        storages["staticfiles"] = {
            "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        }
    return storages


class Command(BaseCommand):
    help = "Median page times against their bare SQL aggregates at 10k, 100k and 1M score lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sizes", default="10k,100k,1m", help="comma-separated: 10k,100k,1m")
        parser.add_argument("--runs", type=int, default=15, help="timed runs per figure")
        # Concurrent hand entry over HTTP (club/operations/bench/entry.py) instead of the page
        # timings.
        parser.add_argument(
            "--entry", action="store_true", help="time N tables saving M hands at once over HTTP"
        )
        parser.add_argument("--tables", type=int, default=15, help="--entry: tables at once")
        parser.add_argument("--hands", type=int, default=20, help="--entry: hands per table")
        parser.add_argument("--port", type=int, default=8120, help="--entry: the server's port")
        # As docs/operators.md runs a node on two cores: 2 x cores + 1 workers of one thread.
        parser.add_argument("--workers", type=int, default=5, help="--entry: gunicorn workers")
        parser.add_argument("--threads", type=int, default=1, help="--entry: threads a worker")
        parser.add_argument(
            "--request-log",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="--entry: the server logs a line a request, as docs/operators.md runs it "
            "(--no-request-log to measure without)",
        )
        # Many clubs at once over two web nodes on PostgreSQL and Redis
        # (club/operations/bench/many_clubs.py).
        parser.add_argument(
            "--many-clubs",
            action="store_true",
            help="clubs x tables saving through their links at once, on one node then two",
        )
        parser.add_argument("--clubs", type=int, default=40, help="--many-clubs: clubs at once")
        parser.add_argument("--club-tables", type=int, default=6, help="--many-clubs: tables each")
        parser.add_argument("--club-hands", type=int, default=6, help="--many-clubs: hands each")
        parser.add_argument(
            "--pace", type=float, default=0.0, help="--many-clubs: mean seconds between saves"
        )
        # An evening of N clubs of 10 tables, every page live (club/operations/bench/peak.py).
        parser.add_argument(
            "--peak",
            action="store_true",
            help="an evening of --clubs clubs x 10 tables, phones, boards and night pages live",
        )
        parser.add_argument("--seconds", type=float, default=120, help="--peak: measured window")
        parser.add_argument("--warmup", type=float, default=30, help="--peak: seconds before it")
        parser.add_argument(
            "--find-max",
            action="store_true",
            help="--peak: evenings at growing N (--steps), the largest that holds",
        )
        parser.add_argument(
            "--steps", default="25,50,100,200,400,700,1000", help="--peak --find-max: the N to try"
        )
        parser.add_argument(
            "--push",
            action="store_true",
            help="--peak: the pages subscribe through nginx + nchan (started by the bench with "
            "deploy/nginx-live*.conf, LIVE_PUSH_URL set on the node) instead of polling",
        )
        parser.add_argument(
            "--compare",
            action="store_true",
            help="--peak --find-max: today's polling, then push, in one run",
        )
        parser.add_argument(
            "--publisher-port",
            type=int,
            default=8090,
            help="--peak --push: the engine's publisher port (deploy/nginx-live.conf: 8090)",
        )
        parser.add_argument(
            "--secretary-rate", type=float, default=1.0, help="--peak: secretaries' pages a second"
        )
        parser.add_argument(
            "--nice", type=int, default=0, help="--peak: run the load generator under nice -n"
        )
        parser.add_argument(
            "--interchange",
            action="store_true",
            help="instead: export and import of the club data file",
        )
        parser.add_argument(
            "--grades", metavar="SLUG", help="only the grade figures, for this club (see below)"
        )
        parser.add_argument(
            "--statements",
            metavar="SLUG",
            help="only the statement each results email attaches: size and time, every player",
        )
        parser.add_argument(
            "--draw",
            action="store_true",
            help="only the draw's quality: repeats against a random draw",
        )
        parser.add_argument(
            "--save",
            action="store_true",
            help="only one save in-process: time, CPU, queries, answer size",
        )
        parser.add_argument(
            "--live",
            action="store_true",
            help="only the live board: its polls, and how soon a save shows",
        )
        parser.add_argument(
            "--ledger",
            action="store_true",
            help="only the after-the-night figures: publishing, the ledger",
        )

    def handle(self, *args: object, **options: Any) -> None:
        # The pages' static files by their plain names when no collectstatic has run (a fresh
        # clone): the figures are of our views, which do not depend on how static files are named.
        with override_settings(STORAGES=plain_static_storages()):
            self._handle(**options)

    def _handle(self, **options: Any) -> None:
        if options["peak"]:
            return self._peak(options)
        if options["many_clubs"]:
            from club.operations.bench import many_clubs

            try:
                lines = many_clubs.run(
                    clubs=int(options["clubs"]),
                    tables=int(options["club_tables"]),
                    hands=int(options["club_hands"]),
                    port=int(options["port"]),
                    workers=int(options["workers"]),
                    threads=int(options["threads"]),
                    pace=float(options["pace"]),
                )
            except RuntimeError as error:
                raise CommandError(str(error)) from error
            for line in lines:
                self.stdout.write(line)
            return
        if options["entry"]:
            from club.operations.bench.entry import run

            result = run(
                tables=int(options["tables"]),
                hands=int(options["hands"]),
                port=int(options["port"]),
                workers=int(options["workers"]),
                threads=int(options["threads"]),
                request_log=bool(options["request_log"]),
            )
            for line in result.lines():
                self.stdout.write(line)
            return
        sizes = [s.strip().lower() for s in str(options["sizes"]).split(",") if s.strip()]
        unknown = [s for s in sizes if s not in SIZES]
        if unknown:
            raise CommandError(f"Unknown size {unknown[0]!r}: choose from {', '.join(SIZES)}")
        runs = int(options["runs"])
        if options["grades"]:
            return self._grades(Club.objects.get(slug=options["grades"]), runs)
        if options["statements"]:
            from club.operations.bench.statements import bench_statements

            for line in bench_statements(Club.objects.get(slug=options["statements"])):
                self.stdout.write(line)
            return
        if options["draw"]:
            from club.operations.bench import draw

            for line in draw.report(draw.bench_draw()):
                self.stdout.write(line)
            return
        if options["save"]:
            from club.operations.bench import save

            for line in save.report(save.bench_save()):
                self.stdout.write(line)
            return
        if options["live"]:
            self.stdout.write(f"Database: {connection.vendor}")
            return self._live(runs)
        if options["ledger"]:
            from club.operations.bench import ledger

            self.stdout.write(f"Database: {connection.vendor}")
            ledger.run(self.stdout.write, runs)
            return
        vendor = connection.vendor
        if options["interchange"]:
            from club.operations.bench import interchange

            self.stdout.write(f"Database: {vendor} ({connection.settings_dict['NAME']})")
            for size in sizes if options["sizes"] != "10k,100k,1m" else ["100k"]:
                club = self._seed(size)
                for line in interchange.report(club, interchange.bench_interchange(club)):
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
            count = ScoreLine.objects.filter(season__club=club).count()
            for t in measure(club, runs):
                lines_ms = f"{t.lines_ms:13.1f}" if t.lines_ms is not None else " " * 13
                self.stdout.write(
                    f"{size:>6} {count:>9} {t.page:<10} {t.page_ms:8.1f} {t.sql_ms:7.1f} "
                    f"{t.ratio:6.2f} {t.aggregate_ms:12.1f} {t.queries:>7} {lines_ms}"
                )
        # Printed sheets (club/operations/bench/sheets.py): our PDF views against WeasyPrint on the
        # same HTML.
        from club.operations.bench import sheets

        timings, final = sheets.bench_sheets(runs=max(3, runs // 3))
        for line in sheets.report(timings, final):
            self.stdout.write(line)
        self._grades(self._seed(sizes[-1]), runs)

    def _peak(self, options: dict[str, Any]) -> None:
        from club.operations.bench import peak, peak_report

        if not settings.CACHE_URL:
            raise CommandError(
                "--peak runs the node as a host does, with Redis as its cache: set CACHE_URL="
                "redis://127.0.0.1:6379/<n> (and DATABASE_URL=postgres://...)"
            )
        settings_: dict[str, Any] = {
            "seconds": float(options["seconds"]),
            "warmup": float(options["warmup"]),
            "port": int(options["port"]),
            "workers": int(options["workers"]),
            "push": bool(options["push"]),
            "publisher_port": int(options["publisher_port"]),
            "nice": int(options["nice"]),
            "secretary_rate": float(options["secretary_rate"]),
        }
        try:
            steps = [int(s) for s in str(options["steps"]).split(",") if s.strip()]
            # Stopped (kill, systemd): the node, the engine and the generator are stopped too,
            # by the evening's `finally`.
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
            if options["compare"]:
                peak.compare(steps, say=self.stdout.write, **settings_)
                return
            if options["find_max"]:
                peak.find_max(steps, say=self.stdout.write, **settings_)
                return
            clubs = int(options["clubs"])
            self.stdout.write(peak.header(clubs, settings_))
            result = peak.evening(clubs, say=self.stdout.write, **settings_)
        except RuntimeError as error:
            raise CommandError(str(error)) from error
        for line in peak_report.lines(result):
            self.stdout.write(line)

    def _grades(self, club: Club, runs: int) -> None:
        """The Solo grade: a rebuild, and what it adds to a hand save
        (club/operations/bench/grades.py)."""
        from club.operations.bench.grades import bench_grades
        from club.operations.bench.grades import report as grades_report

        for line in grades_report(bench_grades(club, runs=max(runs, 10))):
            self.stdout.write(line)
        self._live(runs)

    def _live(self, runs: int) -> None:
        """The live night board and a table's link page (club/operations/bench/live.py)."""
        from club.operations.bench import live as live_bench

        for line in live_bench.report(live_bench.bench_live(runs=runs)):
            self.stdout.write(line)
        delays = sorted(live_bench.seen_after_save())
        self.stdout.write(
            f"a save seen on a board polling every {live_bench.POLL_SECONDS} s: "
            f"median {statistics.median(delays):.2f} s, slowest {delays[-1]:.2f} s "
            f"({len(delays)} saves)"
        )

    def _seed(self, size: str) -> Club:
        return seed(size, self.stderr)
