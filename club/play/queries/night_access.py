"""A club's nights and tables, fetched through the club (another club's id is a 404), with the
role checked as club/clubs/queries/access.py checks it for the club itself."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from club.clubs.models import Club
from club.clubs.queries.access import READ, require
from club.core.prepared import PreparedRead
from club.play.models import Night, Seat, Table
from club.play.queries.table_sheet import attach_seats, prefetch_seats


def get_night(request: HttpRequest, club: Club, night_id: int, power: str = READ) -> Night:
    night = get_object_or_404(
        Night.objects.select_related("season", "season__rule_set", "season__club", "tournament"),
        pk=night_id,
        season__club=club,
    )
    require(request, club, power)
    return night


def get_table(request: HttpRequest, club: Club, table_id: int, power: str = READ) -> Table:
    table = get_object_or_404(
        Table.objects.select_related(
            "night", "night__season", "night__season__rule_set", "night__tournament"
        ),
        pk=table_id,
        night__season__club=club,
    )
    require(request, club, power)
    return table


def _seats_of_table(table_id: int, club_id: int) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(table_id=table_id, table__night__season__club_id=club_id)
        .select_related("player", "table__night__season__rule_set", "table__night__tournament")
        .order_by("position")
    )


# The table page's every request starts here: compiled once (club.core.prepared).
_TABLE_SEATS = PreparedRead(_seats_of_table, [int, int], shared=["table"])


def get_table_with_seats(
    request: HttpRequest, club: Club, table_id: int, power: str = READ
) -> Table:
    """get_table, with the table's seats and their players read in the same query."""
    seats = _TABLE_SEATS.rows(table_id, club.pk)
    if not seats:  # no such table in this club (a 404), or a table nobody sits at
        return prefetch_seats(get_table(request, club, table_id, power))
    require(request, club, power)
    table = seats[0].table
    table.night.season.club = club
    return attach_seats(table, seats)
