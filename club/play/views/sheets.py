"""Printable sheets of a night (PDF downloads): its settlement sheet and its blank score cards.
Each checks access like the night page (club/play/queries/night_access.py), is built from the page's
own queries (club/play/pdf/sheets.py) and rendered by club/lib/pdf.py."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, Max
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import path
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags, quote_etag

from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.lib.pdf import file_name, pdf_response, render_pdf
from club.play.models import Seat
from club.play.pdf import sheets as play_sheets
from club.play.queries import night_access
from club.play.services import sheet_cache
from club.play.views.table_links import table_qr_codes


@login_if_hidden
def night_sheet(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A closed night's sheet is rendered once and kept (club.play.services.sheet_cache), with an
    ETag; an open night's is rendered each time, as its hands change."""
    club = access.get_club(request, slug)
    night = night_access.get_night(request, club, night_id)
    name = file_name("club-night", night.date)

    def render() -> bytes:
        context = {
            "club": club,
            "night": night,
            "sheet": play_sheets.night_sheet(night),
            "sheet_title": f"Settlement sheet · {night}",
            "printed_at": club.local_now(),
        }
        return render_pdf("play/pdf/night_sheet.html", context, request)

    if not night.is_closed:
        return pdf_response(render(), name)
    tag = quote_etag(sheet_cache.fingerprint(night))
    if tag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
        patch_cache_control(response, private=True, no_cache=True)
    else:
        response = pdf_response(sheet_cache.final_sheet(night, tag.strip('"'), render), name)
    response["ETag"] = tag
    return response


# Blank score cards take a second or more to lay out. A public club's cards are open to anyone,
# so for visitors who are not signed in each night's cards are made once per `?hands=` (1 to 60,
# club.grades.pdf.play_sheets.card_hands) and tables, and served from the cache for ten minutes.
ANONYMOUS_CARDS_SECONDS = 600


@login_if_hidden
def score_cards(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = night_access.get_night(request, club, night_id)
    hands = play_sheets.card_hands(request.GET.get("hands"))
    filename = file_name("score-cards", night.date)
    key = None
    if not request.user.is_authenticated:
        # The seats in the key: cards made before the tables changed are not served after.
        seats = Seat.objects.filter(table__night=night).aggregate(n=Count("id"), last=Max("id"))
        key = f"score-cards:{night.pk}:{hands}:{seats['n']}:{seats['last']}"
        pdf = cache.get(key)
        if pdf is not None:
            return pdf_response(pdf, filename)
    rule_set = night.season.rule_set
    context = {
        "club": club,
        "night": night,
        "rule_set": rule_set,
        "stakes": play_sheets.stakes(rule_set.name, rule_set.rules),
        "cards": play_sheets.score_cards(night, hands),
        # Each table's link as a QR code, when a secretary prints the cards of an open night.
        "qr_codes": table_qr_codes(request, club, night),
        "sheet_title": f"Score cards · {night}",
        "printed_at": club.local_now(),
    }
    pdf = render_pdf("play/pdf/score_cards.html", context, request)
    if key is not None:
        cache.set(key, pdf, ANONYMOUS_CARDS_SECONDS)
    return pdf_response(pdf, filename)


urlpatterns = [
    path("nights/<int:night_id>/sheet.pdf", night_sheet, name="night_sheet"),
    path("nights/<int:night_id>/score-cards.pdf", score_cards, name="score_cards"),
]
