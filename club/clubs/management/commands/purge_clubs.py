"""Delete for good the clubs closed more than 14 days ago (and sign-ups never confirmed within 7):
run by the publish timer. Each leaves one log line and no row."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from club.clubs.services import clubs_lifecycle


class Command(BaseCommand):
    help = "Delete for good the closed clubs whose time is up."

    def handle(self, *args, **options) -> None:
        purged = clubs_lifecycle.purge_due()
        for club in purged:
            self.stdout.write(f"Deleted {club.slug} (id {club.club_id}) for good.")
        self.stdout.write(f"{len(purged)} club(s) deleted.")
