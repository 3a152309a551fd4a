from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.clubs.models import Club
from club.grades.services import grades


class Command(BaseCommand):
    help = (
        "Rate every hand again from scratch and store the Solo grades (of one club, or of every "
        "club). The hand service keeps them current; this is for after an import or a repair."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="the club's slug (default: every club)")

    def handle(self, *args: object, slug: str | None = None, **options: Any) -> None:
        clubs = Club.objects.order_by("slug")
        if slug:
            clubs = clubs.filter(slug=slug)
            if not clubs.exists():
                raise CommandError(f"No club {slug!r}.")
        for club in clubs:
            started = time.perf_counter()
            timings: dict[str, float] = {}
            rated = grades.rebuild(club, timings)
            seconds = time.perf_counter() - started
            parts = ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
            self.stdout.write(f"{club.slug}: {rated} hands rated in {seconds:.1f} s ({parts})")
