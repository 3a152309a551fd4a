"""The operator closes a club: hidden at once, deleted for good by `purge_clubs` after 14 days
(or at once with --now). `reopen_club` undoes it before then."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from club.clubs.models import Club
from club.clubs.services import clubs_lifecycle


class Command(BaseCommand):
    help = "Close a club (hidden at once), to be deleted for good after 14 days or --now."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--now", action="store_true", help="Delete it for good now: no undo, no 14 days."
        )
        parser.add_argument(
            "--days",
            type=int,
            default=clubs_lifecycle.KEEP_CLOSED_DAYS,
            help="Days before the purge deletes it (default 14).",
        )

    def handle(self, *args, **options) -> None:
        club = Club.all_objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club at /c/{options['slug']}/.")
        if options["days"] < 0:
            raise CommandError("--days cannot be negative.")
        if club.closed_at is None:
            days = 0 if options["now"] else options["days"]
            # Deleted at once (--now): no email saying it will be deleted in so many days.
            club = clubs_lifecycle.close_club(
                club, None, Club.Closure.OPERATOR, days=days, tell_members=not options["now"]
            )
        if options["now"]:
            purged = clubs_lifecycle.purge_club(club)
            self.stdout.write(
                f"Deleted {purged.slug} for good: {purged.rows} rows, {purged.accounts} "
                "accounts that belonged to no other club."
            )
            return
        self.stdout.write(
            f"Closed {club.name} (/c/{club.slug}/): hidden now, deleted for good by purge_clubs "
            f"after {club.delete_after:%Y-%m-%d %H:%M} UTC. Undo: manage.py reopen_club "
            f"{club.slug}"
        )
