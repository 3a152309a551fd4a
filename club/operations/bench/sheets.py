"""How long the printed sheets take, against WeasyPrint alone on the same HTML.

`bench_sheets()` builds (once; later runs reuse it) a club `bench-sheets` with 200 players who
have all played in one season, plus a night of 6 tables x 24 hands entered through the hand
service. For the night settlement sheet and the season standings sheet it times, as the median of
several runs, the whole download through Django's test client (access checks, queries, template,
WeasyPrint) and `weasyprint.HTML(string=html, base_url=...).write_pdf()` for the very HTML string
the view rendered: the ratio of the two is our overhead. `python manage.py bench` prints them.

Then the same night closed (and reopened afterwards, so the next run finds it as before): its
final sheet's first download (rendered and kept), later downloads (the kept PDF), and a browser's
revalidation with the ETag (304), each against the fresh render above.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import weasyprint
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from pypdf import PdfReader

from club.clubs.models import Club, Membership, Role, Season
from club.demo.services import demo
from club.lib import pdf as render
from club.play.models import Night
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night, reopen_night

BENCH_USER = "bench-sheets"


@dataclass(frozen=True)
class BenchData:
    """What the benchmark club holds: by default 200 players who all play in the season (about
    42 tables a night, 5,000 hands), and a night of 6 tables x 24 hands."""

    slug: str = "bench-sheets"
    players: int = 200
    season_hands: int = 5_000
    night_tables: int = 6
    hands_per_table: int = 24


@dataclass(frozen=True)
class SheetTiming:
    sheet: str
    size: str  # what the sheet holds, e.g. "6 tables x 24 hands"
    ours_ms: float  # the view, end to end (median wall-clock time)
    weasyprint_ms: float  # WeasyPrint alone on the same HTML
    ours_cpu_ms: float
    weasyprint_cpu_ms: float
    view_only_ms: float  # the view with WeasyPrint left out: queries, template, response
    pages: int
    kilobytes: float

    @property
    def ratio(self) -> float:
        return self.ours_ms / self.weasyprint_ms if self.weasyprint_ms else float("inf")

    @property
    def cpu_ratio(self) -> float:
        return self.ours_cpu_ms / self.weasyprint_cpu_ms if self.weasyprint_cpu_ms else float("inf")


@dataclass(frozen=True)
class Medians:
    wall_ms: float
    cpu_ms: float  # this process's CPU time: less swayed by other work on the machine


def paired_medians(
    first: Callable[[], object], second: Callable[[], object], runs: int, warmup: int = 1
) -> tuple[Medians, Medians]:
    """Median times of two functions, run alternately (and in turn first) so that both see the
    same machine load and neither always follows the other."""
    for _ in range(warmup):
        first()
        second()
    wall: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for run in range(runs):
        order = (0, 1) if run % 2 == 0 else (1, 0)
        for i in order:
            start, start_cpu = time.perf_counter(), time.process_time()
            (first, second)[i]()
            wall[i].append((time.perf_counter() - start) * 1000)
            cpu[i].append((time.process_time() - start_cpu) * 1000)
    # Two medians, one per way of printing: a tuple of exactly two.
    return tuple(  # type: ignore[return-value]
        Medians(statistics.median(wall[i]), statistics.median(cpu[i])) for i in (0, 1)
    )


def _bench_night(club: Club, season: Season, user, data: BenchData) -> Night:
    """The benchmark night: tables of 4, every hand through record_hand like a real night."""
    night = season.nights.filter(title="Benchmark night").first()
    if night is not None:
        return night
    players = list(club.players.order_by("pk")[: data.night_tables * 4])
    tables = [(players[i * 4 : i * 4 + 4], 0) for i in range(data.night_tables)]
    night = create_night(season, season.end, tables, title="Benchmark night")
    rng = random.Random(1)
    rules = season.rule_set.rules
    for table in night.tables.all():
        seats = [s.player for s in table.seats.select_related("player")]
        for _ in range(data.hands_per_table):
            upcoming = next_hand(table)
            playing = [p for p in seats if p != upcoming["sitting_out"]]
            record_hand(table, demo.random_entry(rng, upcoming["dealer"], playing, rules), user)
    return night


def bench_club(data: BenchData) -> tuple[Club, Season, Night]:
    """The benchmark club, season and night, created the first time."""
    user, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
    club = Club.objects.filter(slug=data.slug).first()
    if club is None:
        club = demo.seed(
            slug=data.slug,
            name="Benchmark club (printed sheets)",
            hands=data.season_hands,
            players=data.players,
            hands_per_table=data.hands_per_table,
            seed=1,
            today=dt.date(2026, 11, 20),
            with_users=False,
        ).club
    Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.SECRETARY})
    season = Season.objects.filter(club=club).order_by("-start").first()
    assert season is not None
    return club, season, _bench_night(club, season, user, data)


@contextlib.contextmanager
def without_weasyprint() -> Iterator[None]:
    """The views' own work only: WeasyPrint is replaced by a stub."""
    original = render.html_to_pdf
    render.html_to_pdf = lambda html: b"%PDF-"
    try:
        yield
    finally:
        render.html_to_pdf = original


@contextlib.contextmanager
def captured_html() -> Iterator[list[str]]:
    """Record the HTML strings the views hand to WeasyPrint."""
    seen: list[str] = []
    original = render.html_to_pdf

    def recording(html: str) -> bytes:
        seen.append(html)
        return original(html)

    render.html_to_pdf = recording
    try:
        yield seen
    finally:
        render.html_to_pdf = original


def _time_sheet(client: Client, sheet: str, size: str, url: str, runs: int) -> SheetTiming:
    with captured_html() as seen:
        response = client.get(url)
    if response.status_code != 200 or not seen:
        raise RuntimeError(f"{url} answered {response.status_code}")
    html = seen[-1]
    pdf = response.content

    def ours() -> object:
        answer = client.get(url)
        if answer.status_code != 200:
            raise RuntimeError(f"{url} answered {answer.status_code}")
        return answer

    def bare() -> object:
        return weasyprint.HTML(string=html, base_url=render.base_url()).write_pdf()

    mine, theirs = paired_medians(ours, bare, runs)
    with without_weasyprint():
        view_only, _ = paired_medians(ours, lambda: None, max(runs, 5))
    return SheetTiming(
        sheet=sheet,
        size=size,
        ours_ms=mine.wall_ms,
        weasyprint_ms=theirs.wall_ms,
        ours_cpu_ms=mine.cpu_ms,
        weasyprint_cpu_ms=theirs.cpu_ms,
        view_only_ms=view_only.wall_ms,
        pages=len(PdfReader(io.BytesIO(pdf)).pages),
        kilobytes=len(pdf) / 1024,
    )


@dataclass(frozen=True)
class FinalSheetTiming:
    size: str
    fresh_ms: float  # the open night's sheet, rendered on every download (median)
    first_ms: float  # the closed night's first download: rendered and kept (one run)
    kept_ms: float  # later downloads: the kept PDF (median)
    not_modified_ms: float  # a browser that has it, sending If-None-Match: 304 (median)

    @property
    def speed_up(self) -> float:
        return self.fresh_ms / self.kept_ms if self.kept_ms else float("inf")


def time_final_sheet(
    client: Client, night: Night, url: str, size: str, fresh_ms: float, runs: int
) -> FinalSheetTiming:
    """Close the night, time its final sheet, and reopen it (as the secretary would)."""
    user = get_user_model().objects.get(username=BENCH_USER)
    close_night(night, user)
    try:
        start = time.perf_counter()
        first = client.get(url)
        first_ms = (time.perf_counter() - start) * 1000
        if first.status_code != 200 or "ETag" not in first:
            raise RuntimeError(f"{url} answered {first.status_code} with no ETag")
        etag = first["ETag"]

        def kept() -> object:
            return client.get(url)

        def revalidate() -> object:
            answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
            if answer.status_code != 304:
                raise RuntimeError(f"{url} answered {answer.status_code}, not 304")
            return answer

        kept_m, not_modified = paired_medians(kept, revalidate, max(runs, 15))
    finally:
        reopen_night(night, user)
    return FinalSheetTiming(size, fresh_ms, first_ms, kept_m.wall_ms, not_modified.wall_ms)


def bench_sheets(
    runs: int = 5, data: BenchData | None = None
) -> tuple[list[SheetTiming], FinalSheetTiming]:
    """Median times of the night sheet (6 x 24 hands) and the standings sheet (200 players)."""
    data = data or BenchData()
    club, season, night = bench_club(data)
    client = Client()
    client.force_login(get_user_model().objects.get(username=BENCH_USER))
    plain_static = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    players = season.totals.values("player_id").distinct().count()
    night_url = reverse("night_sheet", args=[club.slug, night.pk])
    night_size = f"{data.night_tables} tables x {data.hands_per_table} hands"
    with override_settings(
        ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False, STORAGES=plain_static
    ):
        timings = [
            _time_sheet(client, "night sheet", night_size, night_url, runs),
            _time_sheet(
                client,
                "standings sheet",
                f"{players} players",
                reverse("standings_sheet", args=[club.slug]) + f"?season={season.pk}",
                runs,
            ),
        ]
        final = time_final_sheet(client, night, night_url, night_size, timings[0].ours_ms, runs)
    return timings, final


def report(timings: list[SheetTiming], final: FinalSheetTiming | None = None) -> list[str]:
    """The lines `manage.py bench` prints."""
    lines = [
        "Printed sheets: median of our view (end to end) and of WeasyPrint alone on the same HTML",
        f"{'sheet':<16} {'size':<20} {'ours ms':>8} {'weasy ms':>9} {'ratio':>6} "
        f"{'ours cpu':>9} {'weasy cpu':>10} {'ratio':>6} {'no-PDF ms':>9} {'pages':>5} "
        f"{'kB':>5}",
    ]
    for t in timings:
        lines.append(
            f"{t.sheet:<16} {t.size:<20} {t.ours_ms:8.0f} {t.weasyprint_ms:9.0f} "
            f"{t.ratio:6.2f} {t.ours_cpu_ms:9.0f} {t.weasyprint_cpu_ms:10.0f} "
            f"{t.cpu_ratio:6.2f} {t.view_only_ms:9.0f} {t.pages:>5} {t.kilobytes:5.0f}"
        )
    if final is not None:
        lines += [
            "Final sheet of the same night, closed: kept after its first download, with an ETag",
            f"{'size':<20} {'fresh ms':>8} {'first ms':>8} {'kept ms':>8} {'304 ms':>7} "
            f"{'fresh/kept':>10}",
            f"{final.size:<20} {final.fresh_ms:8.0f} {final.first_ms:8.0f} "
            f"{final.kept_ms:8.1f} {final.not_modified_ms:7.1f} {final.speed_up:10.0f}",
        ]
    return lines
