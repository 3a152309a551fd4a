"""What the club's audit page reads: every audit event of the club, newest first, a page at a time,
and the nights that were deleted (whose events are kept with no night, named by night_label).
A fixed number of queries whatever the number of events: the deleted nights (one aggregate), the
count and the page of events (two)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Max

from club.clubs.models import AuditEvent, Club
from club.play.queries.night import Change, audit_who, describe_changes

PER_PAGE = 50


@dataclass(frozen=True)
class DeletedNight:
    label: str
    events: int
    last: dt.datetime


@dataclass(frozen=True)
class ClubAuditRow:
    at: dt.datetime
    who: str
    action: str
    subject: str
    night_label: str
    night_id: int | None  # None once the night is deleted
    changes: list[Change]


def deleted_nights(club: Club) -> list[DeletedNight]:
    rows = (
        AuditEvent.objects.filter(club=club, night__isnull=True)
        .exclude(night_label="")
        .values("night_label")
        .annotate(events=Count("id"), last=Max("at"))
        .order_by("-last")
    )
    return [DeletedNight(r["night_label"], r["events"], r["last"]) for r in rows]


def club_trail(club: Club, page: str | int | None, deleted_night: str = "") -> Page[Any]:
    """A page of the club's events (only the deleted night called `deleted_night`, if given)."""
    events = AuditEvent.objects.filter(club=club).select_related("user").order_by("-at", "-id")
    if deleted_night:
        events = events.filter(night__isnull=True, night_label=deleted_night)
    paged: Page[Any] = Paginator(events, PER_PAGE).get_page(page)
    paged.object_list = [
        ClubAuditRow(
            at=e.at,
            who=audit_who(e),
            action=e.get_action_display(),
            subject=e.subject,
            night_label=e.night_label,
            night_id=e.night_id,
            changes=describe_changes(club, e.before, e.after),
        )
        for e in paged.object_list
    ]
    return paged
