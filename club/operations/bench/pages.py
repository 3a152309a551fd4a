"""The standings page and a player page against the bare SQL they need (`manage.py bench`).

For each size a club of that many score lines is seeded once (`seed_demo --hands N/4 --club
bench-<size>`), then, for the standings page and the page of the player with the most hands,
medians of:

- page: the response time through Django's test client (logged in as a member);
- sql: every statement the page ran, replayed through a bare cursor (the database's share);
  the ratio is page / sql;
- aggregate: the page's aggregate queries alone, through the ORM (standings: the per-player
  GROUP BY over the night totals; player: the summary, history, best and worst night, contracts
  and partners);
- from lines: the standings aggregate computed straight from the score lines instead, which is
  what the page would cost without the night totals.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError, OutputWrapper
from django.db import connection
from django.db.models import Count, Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from club.clubs.models import Club, Membership, Role, Season
from club.grades.queries import player as pq
from club.grades.queries import standings as sq
from club.play.models import NightTotal, ScoreLine

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


def seed(size: str, stderr: OutputWrapper) -> Club:
    slug = f"bench-{size}"
    hands = SIZES[size] // LINES_PER_HAND
    if not Club.objects.filter(slug=slug).exists():
        stderr.write(f"Seeding {slug}: {hands} hands (about {SIZES[size]} score lines)")
    call_command("seed_demo", hands=hands, club=slug, if_missing=True, stdout=stderr)
    return Club.objects.get(slug=slug)


def member_client(club: Club) -> Client:
    # With an address, as every member of a club has one: `bench --interchange` exports and
    # imports the same clubs, and a member with none is refused.
    user, _ = get_user_model().objects.update_or_create(
        username=BENCH_USER, defaults={"email": f"{BENCH_USER}@example.org"}
    )
    Membership.objects.get_or_create(user=user, club=club, defaults={"role": Role.VIEWER})
    client = Client()
    client.force_login(user)
    return client


def measure(club: Club, runs: int) -> list[Timing]:
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
    assert player_id is not None  # the bench club has played hands
    player = club.players.get(pk=player_id)
    client = member_client(club)
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

        def replay(statements: list[str]) -> Callable[[], None]:
            def run() -> None:
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
