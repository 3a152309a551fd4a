"""Publish the nights whose correction window has ended, retry the emails that are due, and
catch up any club's grades still waiting.

The task queue does all three on time when `manage.py worker` runs; run this from cron (every few
minutes) as well, or instead, so that nothing waits if the worker was down."""

from django.core.management.base import BaseCommand

from club.clubs.services import ratelimit
from club.grades.services.grades import drain_all
from club.money.services.publish import publish_due


class Command(BaseCommand):
    help = "Publish nights whose correction window has ended; send the results emails due."

    def handle(self, *args, **options) -> None:
        published, sent = publish_due()
        rated = drain_all()
        ratelimit.sweep()  # the limits' windows long over, where no worker runs
        self.stdout.write(
            f"{published} night(s) published, {sent} email(s) sent, {rated} hand(s) graded."
        )
