"""A cheap answer to "has this table's sheet changed?": an ETag from one aggregate over the
table's hands, so a page polling every few seconds costs one small query when nothing changed.

Adding or deleting a hand changes the count and the sum of ids (a delete renumbers the later
hands but keeps their ids); a correction raises the hand's version; closing or reopening the night
changes its status.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, Sum

from club.play.models import Hand, Night, Table


def _etag(status: str, count: int, ids: int, versions: int) -> str:
    return f'"{status}-{count}-{ids}-{versions}"'


def sheet_etag(table: Table) -> str:
    """One query: the ETag of the table's sheet as it is now."""
    figures = Hand.objects.filter(table=table).aggregate(
        count=Count("id"), ids=Sum("id"), versions=Sum("version")
    )
    return _etag(
        table.night.status, figures["count"], figures["ids"] or 0, figures["versions"] or 0
    )


def etag_of_hands(table: Table, hands: Iterable[Hand]) -> str:
    """The same ETag from hands already loaded (the page's own sheet): no query."""
    hands = list(hands)
    return _etag(
        table.night.status,
        len(hands),
        sum(h.pk for h in hands),
        sum(h.version for h in hands),
    )


def night_etag(night: Night) -> str:
    """One query: the ETag of a night's page (its tables, their seats and hands, its status)."""
    # (The names must not be the relations' own: an alias "seats" would hide Table.seats.)
    names = ("n_tables", "seat_ids", "n_hands", "hand_ids", "versions")
    figures = Table.objects.filter(night=night).aggregate(
        n_tables=Count("id", distinct=True),
        seat_ids=Sum("seats__id"),
        n_hands=Count("hands__id", distinct=True),
        hand_ids=Sum("hands__id"),
        versions=Sum("hands__version"),
    )
    values = "-".join(str(figures[name] or 0) for name in names)
    return f'"{night.status}-{values}"'
