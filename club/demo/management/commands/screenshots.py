"""The guides' pictures (docs/images/), taken in headless Chromium from the demo club.

    bin/screenshots        # a throwaway demo database and server, then this command

Run by bin/screenshots against a demo server it starts on a database of its own: the command
opens a club night for today in that database (the demo leaves none open), with a few hands at
its first table, so that the pictures show a night in play as well as a published one. It needs
Playwright and Debian's chromium (`bin/setup --test`).
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils import timezone

from club.clubs.models import Club
from club.demo.services.demo import random_entry
from club.play.models import Night
from club.play.services import table_links
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.tournaments.models import Tournament

if TYPE_CHECKING:  # Playwright is a test extra, imported when the command runs
    from playwright.sync_api import Page, ViewportSize

DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "solo-demo"


class Command(BaseCommand):
    help = "Take the guides' screenshots (docs/images/) from a running demo server."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base", required=True, help="the demo server, http://host:port")
        parser.add_argument("--out", default="docs/images", help="where the pictures go")

    def handle(self, *args: object, **options: Any) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise CommandError("Playwright is missing: run bin/setup --test") from None
        chromium = shutil.which("chromium")
        if chromium is None:
            raise CommandError("Chromium is missing: apt-get install chromium")
        club = Club.objects.filter(slug="demo").first()
        if club is None:
            raise CommandError("No demo club: run manage.py seed_demo first")
        base = str(options["base"]).rstrip("/")
        out = Path(str(options["out"]))
        out.mkdir(parents=True, exist_ok=True)
        tonight = _night_in_play(club)
        table = tonight.tables.order_by("number")[0]
        link = table_links.night_links(tonight, None)[table.pk]
        assert link is not None  # the night in play has its links
        published = Night.objects.filter(season__club=club, published_at__isnull=False).order_by(
            "-date"
        )[0]
        tournament = Tournament.objects.filter(club=club).order_by("-created_at").first()
        slug = club.slug
        desktop_pages = [
            ("new-night.png", reverse("night_create", args=[slug]), None),
            ("table.png", reverse("table_detail", args=[slug, table.pk]), "#entry"),
            ("night.png", reverse("night_detail", args=[slug, published.pk]), None),
            ("ledger.png", reverse("club_ledger", args=[slug]), None),
            ("standings.png", reverse("standings", args=[slug]), None),
        ]
        if tournament is not None:
            desktop_pages.append(
                ("tournament.png", reverse("leaderboard", args=[slug, tournament.pk]), None)
            )
        # bin/screenshots runs this command at a fixed instant (libfaketime): the browser gets
        # the same instant on its own clock, and neither it nor Playwright's driver inherits the
        # faked system clock (they keep their own timers).
        shot_time = timezone.now()
        for name in ("LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC"):
            os.environ.pop(name, None)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium)
            try:
                desktop = browser.new_page(viewport=DESKTOP)
                desktop.clock.set_fixed_time(shot_time)
                _log_in(desktop, base)
                for name, path, scroll_to in desktop_pages:
                    desktop.goto(base + path)
                    desktop.wait_for_load_state("networkidle")
                    if scroll_to:
                        desktop.locator(scroll_to).scroll_into_view_if_needed()
                    desktop.screenshot(path=str(out / name))
                    self.stdout.write(f"{out / name}")
                phone = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
                phone.clock.set_fixed_time(shot_time)
                phone.goto(base + reverse("link_table", args=[link.token]))
                phone.wait_for_load_state("networkidle")
                phone.screenshot(path=str(out / "table-phone.png"))
                self.stdout.write(f"{out / 'table-phone.png'}")
            finally:
                browser.close()


def _log_in(page: Page, base: str) -> None:
    page.goto(base + reverse("login"))
    page.fill("#id_username", "secretary")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def _night_in_play(club: Club) -> Night:
    """Tonight's night: two tables of the demo's regulars, six hands played at the first."""
    today = club.today()
    existing = Night.objects.filter(season__club=club, date=today).first()
    if existing is not None:
        return existing
    season = club.seasons.filter(start__lte=today, end__gte=today).first() or club.seasons.latest(
        "start"
    )
    if not season.start <= today <= season.end:
        season.end = max(season.end, today)
        season.save(update_fields=["end"])
    players = list(club.players.order_by("name")[:9])
    night = create_night(season, today, [(players[:4], 0), (players[4:9], 1)])
    rng = random.Random(7)
    table = night.tables.order_by("number")[0]
    rules = season.rule_set.rules
    seats = [seat.player for seat in table.seats.order_by("position")]
    for _ in range(6):
        upcoming = next_hand(table)
        playing = [p for p in seats if p != upcoming["sitting_out"]]
        record_hand(table, random_entry(rng, upcoming["dealer"], playing, rules), None)
    return night
