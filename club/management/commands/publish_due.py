"""Publish the nights whose correction window has ended and retry the emails that are due.

The task queue does both on time when `db_worker` runs; run this from cron (every few minutes)
as well, or instead, so that nothing waits if the worker was down."""

from django.core.management.base import BaseCommand

from club.services.publish import publish_due


class Command(BaseCommand):
    help = "Publish nights whose correction window has ended; send the results emails due."

    def handle(self, *args, **options) -> None:
        published, sent = publish_due()
        self.stdout.write(f"{published} night(s) published, {sent} email(s) sent.")
