"""Undo a club's closing (by its secretary or by `delete_club`) before the purge deletes it."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from club.clubs.services import clubs_lifecycle


class Command(BaseCommand):
    help = "Reopen a closed club before purge_clubs deletes it; every row of it is kept."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, **options) -> None:
        club = clubs_lifecycle.closed_club(options["slug"])
        if club is None:
            raise CommandError(
                f"No closed club at /c/{options['slug']}/ (open already, or deleted for good)."
            )
        clubs_lifecycle.reopen_club(club)
        self.stdout.write(f"Reopened {club.name} at /c/{club.slug}/.")
