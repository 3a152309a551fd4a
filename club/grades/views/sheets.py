"""The season standings printed (a PDF download), with the standings page's season and dates."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path

from club.clubs.models import Club
from club.clubs.queries.access import club_reader
from club.grades.pdf import sheets
from club.grades.views.standings import standings_for
from club.lib.pdf import file_name, sheet_response


@club_reader
def standings_sheet(request: HttpRequest, club: Club) -> HttpResponse:
    """The standings page's season and date range (?season=, ?from=, ?to=), printed."""
    ladder = standings_for(request, club).ladder
    if ladder is None:
        raise Http404("This club has no seasons yet")
    context = {
        "club": club,
        "season": ladder.season,
        "sheet": sheets.standings_sheet(club, ladder),
        "sheet_title": f"Standings · {ladder.season}",
        "printed_at": club.local_now(),
    }
    name = file_name(
        "standings",
        ladder.season.name,
        ladder.date_from and f"from {ladder.date_from}",
        ladder.date_to and f"to {ladder.date_to}",
    )
    return sheet_response("grades/pdf/standings_sheet.html", context, name, request)


urlpatterns = [
    path("standings/sheet.pdf", standings_sheet, name="standings_sheet"),
]
