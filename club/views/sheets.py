"""Printable sheets (PDF downloads): the night's settlement sheet, blank score cards, the season
standings and a player's statement. Each is fetched through club.access like the page it belongs
to, built from that page's queries (club.pdf.sheets) and rendered by club.pdf.render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils import timezone

from club import access
from club.access import login_if_hidden
from club.pdf import sheets
from club.pdf.render import file_name, sheet_response


@login_if_hidden
def night_sheet(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = access.get_night(request, club, night_id)
    context = {
        "club": club,
        "night": night,
        "sheet": sheets.night_sheet(night),
        "sheet_title": f"Settlement sheet · {night}",
        "printed_at": timezone.localtime(),
    }
    return sheet_response(
        "club/pdf/night_sheet.html", context, file_name("club-night", night.date), request
    )


@login_if_hidden
def score_cards(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = access.get_night(request, club, night_id)
    rule_set = night.season.rule_set
    context = {
        "club": club,
        "night": night,
        "rule_set": rule_set,
        "stakes": sheets.stakes(rule_set.name, rule_set.rules),
        "cards": sheets.score_cards(night, sheets.card_hands(request.GET.get("hands"))),
        "sheet_title": f"Score cards · {night}",
        "printed_at": timezone.localtime(),
    }
    return sheet_response(
        "club/pdf/score_cards.html", context, file_name("score-cards", night.date), request
    )


urlpatterns = [
    path("nights/<int:night_id>/sheet.pdf", night_sheet, name="night_sheet"),
    path("nights/<int:night_id>/score-cards.pdf", score_cards, name="score_cards"),
]
