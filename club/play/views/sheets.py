"""Printable sheets (PDF downloads): the night's settlement sheet, blank score cards, the season
standings and a player's statement. Each checks access like the page it belongs to (club.clubs.queries.access
helpers; the standings page's club_reader), is built from that page's queries (club.play.pdf.sheets)
and rendered by club.lib.pdf."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, Max
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import path
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags, quote_etag

from club.clubs.models import Club
from club.clubs.queries import access
from club.clubs.queries.access import club_reader, login_if_hidden
from club.grades.queries import standings as sq
from club.grades.views.standings import standings_for
from club.lib.pdf import file_name, pdf_response, render_pdf, sheet_response
from club.money.services import ledger
from club.play.models import Seat
from club.play.pdf import sheets
from club.play.services import sheet_cache
from club.play.views.table_links import table_qr_codes


@login_if_hidden
def night_sheet(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """A closed night's sheet is rendered once and kept (club.play.services.sheet_cache), with an
    ETag; an open night's is rendered each time, as its hands change."""
    club = access.get_club(request, slug)
    night = access.get_night(request, club, night_id)
    name = file_name("club-night", night.date)

    def render() -> bytes:
        context = {
            "club": club,
            "night": night,
            "sheet": sheets.night_sheet(night),
            "sheet_title": f"Settlement sheet · {night}",
            "printed_at": club.local_now(),
        }
        return render_pdf("club/pdf/night_sheet.html", context, request)

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
# club.play.pdf.sheets.card_hands) and tables, and served from the cache for ten minutes.
ANONYMOUS_CARDS_SECONDS = 600


@login_if_hidden
def score_cards(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = access.get_night(request, club, night_id)
    hands = sheets.card_hands(request.GET.get("hands"))
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
        "stakes": sheets.stakes(rule_set.name, rule_set.rules),
        "cards": sheets.score_cards(night, hands),
        # Each table's link as a QR code, when a secretary prints the cards of an open night.
        "qr_codes": table_qr_codes(request, club, night),
        "sheet_title": f"Score cards · {night}",
        "printed_at": club.local_now(),
    }
    pdf = render_pdf("club/pdf/score_cards.html", context, request)
    if key is not None:
        cache.set(key, pdf, ANONYMOUS_CARDS_SECONDS)
    return pdf_response(pdf, filename)


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
    return sheet_response("club/pdf/standings_sheet.html", context, name, request)


@club_reader
def player_statement(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    """The player page's season (?season=) for one player, to hand to them."""
    player = access.club_player(club, player_id)
    season = sq.pick_season(sq.club_seasons(club), request.GET.get("season"), club.today())
    if season is None:
        raise Http404("This club has no seasons yet")
    context = {
        "club": club,
        "season": season,
        "statement": sheets.player_statement(
            club, season, player, ledger.balance(player) if ledger.keeps_ledger(club) else None
        ),
        "sheet_title": f"Statement · {player.name} · {season}",
        "printed_at": club.local_now(),
    }
    name = file_name("statement", player.name, season.name)
    return sheet_response("club/pdf/player_statement.html", context, name, request)


urlpatterns = [
    path("nights/<int:night_id>/sheet.pdf", night_sheet, name="night_sheet"),
    path("nights/<int:night_id>/score-cards.pdf", score_cards, name="score_cards"),
    path("standings/sheet.pdf", standings_sheet, name="standings_sheet"),
    path("players/<int:player_id>/statement.pdf", player_statement, name="player_statement"),
]
