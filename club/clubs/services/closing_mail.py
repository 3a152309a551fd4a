"""The email each member of a club gets when the club is closed: that it closed, by whom, when it
will be deleted for good, and how its data file may still be had. Queued when the closing
commits (club/clubs/services/clubs_lifecycle.py `close_club`) and sent by the task worker, as the
other
emails are; one message to each member's address, so that no member sees another's."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.template.loader import render_to_string
from django_tasks import task

from club.clubs.models import Club
from club.clubs.queries import closing_clubs
from club.lib import zones

log = logging.getLogger(__name__)


def host_contact() -> str:
    """The address the operator gives for reaching the host (HOST_CONTACT_EMAIL; empty: none)."""
    return str(getattr(settings, "HOST_CONTACT_EMAIL", "") or "").strip()


def _still_closing(club_id: int) -> Club | None:
    """The club, if it is still closed and not yet deleted (reopened meanwhile: nothing)."""
    return (
        Club.all_objects.filter(pk=club_id, closed_at__isnull=False)
        .exclude(closed_because=Club.Closure.SIGNUP)
        .first()
    )


@task()
def send_closing_notice(club_id: int) -> int:
    """Tell every member with an address that the club closed. Returns how many were sent."""
    club = _still_closing(club_id)
    if club is None:
        return 0
    closing = closing_clubs.describe(club)
    messages = []
    with zones.club_time(club):
        for email, is_secretary in closing_clubs.members_to_tell(club):
            context = {
                "closing": closing,
                "club": club,
                "is_secretary": is_secretary,
                "host_contact": host_contact(),
            }
            subject, _, body = render_to_string("clubs/email/club_closed.txt", context).partition(
                "\n"
            )
            messages.append(EmailMessage(subject.strip(), body.lstrip("\n"), to=[email]))
    sent = 0
    connection = get_connection()
    for message in messages:
        # One refused address (or a mail server that drops out) leaves the others sent; the
        # members not reached still find the club closing on their home page.
        try:
            sent += connection.send_messages([message]) or 0
        except Exception:
            log.exception("Club %s (id %s): the closing notice was not sent", club.slug, club.pk)
    log.warning(
        "Club %s (id %s) closed: %s of %s members told by email",
        club.slug,
        club.pk,
        sent,
        len(messages),
    )
    return sent
