from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.clubs.models import Club
from club.demo.services import demo
from club.interchange.services import db_stats


class Command(BaseCommand):
    help = (
        "Load a demo club: players, a season of weekly nights and their hands under a preset. "
        "--hands N makes a large data set (about 4 score lines a hand) for benchmarks."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=600, help="hands to create (default 600)")
        parser.add_argument("--club", default="demo", help="the club's slug (default demo)")
        parser.add_argument("--preset", default="hoyle", help="rule-set preset (default hoyle)")
        parser.add_argument("--players", type=int, default=None, help="players in the club")
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        parser.add_argument(
            "--reset", action="store_true", help="delete the club first if it exists"
        )
        parser.add_argument(
            "--no-grades", action="store_true", help="do not rate the hands (rebuild_grades later)"
        )
        parser.add_argument(
            "--if-missing", action="store_true", help="do nothing when the club already exists"
        )

    def handle(self, *args: object, **options: Any) -> None:
        slug = str(options["club"])
        hands = int(options["hands"])
        if hands < 1:
            raise CommandError("--hands must be at least 1")
        existing = Club.objects.filter(slug=slug)
        if existing.exists():
            if options["if_missing"]:
                self.stdout.write(f"Club {slug!r} already exists; nothing to do.")
                return
            if not options["reset"]:
                raise CommandError(f"Club {slug!r} exists already: add --reset to replace it.")
            from club.clubs.services.clubs_lifecycle import delete_club

            delete_club(existing.get())
        players = options["players"] or (16 if hands <= 5000 else 40)
        summary = demo.seed(
            slug=slug,
            hands=hands,
            preset=str(options["preset"]),
            players=int(players),
            seed=int(options["seed"]),
            name="Crown & Anchor Solo School" if slug == "demo" else f"Benchmark club {slug}",
        )
        showcase = None
        if slug == "demo":
            # The demo shows every feature: addresses, a published night partly paid, a
            # finished tournament (club/demo/services/demo_showcase.py).
            from club.demo.services.demo_showcase import showcase as add_showcase

            showcase = add_showcase(summary.club, seed=int(options["seed"]))
        if not options["no_grades"]:
            from club.grades.services.grades import rebuild

            rebuild(summary.club)
        analysed = db_stats.analyze()  # a bulk load: fresh statistics for PostgreSQL's planner
        if analysed:
            self.stdout.write(f"Analysed {len(analysed)} tables for the query planner.")
        self.stdout.write(
            self.style.SUCCESS(
                f"Club {summary.club.name!r} (/c/{slug}/): {summary.nights} nights, "
                f"{summary.hands} hands, {summary.score_lines} score lines."
            )
        )
        if showcase is not None:
            self.stdout.write(
                f"{showcase.published}: closed and published, {showcase.emails} results emails "
                f"sent, {showcase.debts} debts ({showcase.paid_in_full} paid, "
                f"{showcase.paid_in_part} paid in part); {showcase.tournament.name}: finished; "
                f"{showcase.cards} table cards to print (Set-up, Table cards)."
            )
        self.stdout.write(
            f"Demo logins: secretary, scorer, viewer; password {demo.DEMO_PASSWORD!r}"
        )
