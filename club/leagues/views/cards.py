"""The league table (page, PDF, CSV), the away side's card page opened by its link, and the card
section of a match: the home secretary submits, the organiser settles, corrects or records a
forfeit.

Every page fetches the league through club.leagues.queries.access, so a private league is a 404
to whoever may not read it; the card's link is a 404 when wrong or revoked.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from club.clubs.models import Membership, Role
from club.leagues.display.tables import LeagueTable
from club.leagues.forms.cards import DecisionForm, DisputeForm, ForfeitForm
from club.leagues.models import Fixture, League, MatchCard
from club.leagues.queries.access import readable_league
from club.leagues.queries.table import table_of
from club.leagues.services import cards
from club.lib import csv_safety, zones
from club.lib.pdf import file_name, sheet_response

# --- the league table ----------------------------------------------------------------------------


def table_context(found: League) -> dict[str, Any]:
    """What leagues/_table.html needs (the table page, and the league's home page)."""
    return {
        "league": found,
        "table": LeagueTable(table_of(found), found.host_club),
        "tie_breaks": found.tie_break_keys,
    }


@require_http_methods(["GET", "HEAD"])
def table_page(request: HttpRequest, league: str) -> HttpResponse:
    found = readable_league(request.user, league)
    return render(request, "leagues/table.html", table_context(found))


@require_http_methods(["GET", "HEAD"])
def table_pdf(request: HttpRequest, league: str) -> HttpResponse:
    found = readable_league(request.user, league)
    with zones.club_time(found.host_club):
        context = {**table_context(found), "club": found, "printed_at": timezone.now()}
        name = file_name(found.slug, "table", found.host_club.today())
        return sheet_response("leagues/pdf/table.html", context, name, request)


@require_http_methods(["GET", "HEAD"])
def table_csv(request: HttpRequest, league: str) -> HttpResponse:
    found = readable_league(request.user, league)
    table = LeagueTable(table_of(found), found.host_club, numbers=True)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{found.slug}-table.csv"'
    writer = csv_safety.writer(response)
    for row in table.as_values():
        writer.writerow(row)
    return response


# --- the away side's link ------------------------------------------------------------------------


def card_figures(card: MatchCard | None) -> dict[str, Any]:
    """The card's scores as written, and each side's players with their results (none for a
    forfeit or a card without a night)."""
    if card is None:
        return {"sides": []}
    fixture = card.fixture
    club = fixture.league.host_club
    try:
        scores: cards.SideScores | None = cards.side_scores(fixture)
    except cards.CardError:
        scores = None
    sides = []
    for entry, score in ((fixture.home, card.home_score), (fixture.away, card.away_score)):
        players = scores.of(entry.pk) if scores is not None else []
        sides.append(
            {
                "name": entry.club.name,
                "score": club.format_amount(score, signed=True),
                "players": [(p.name, club.format_amount(p.net, signed=True)) for p in players],
            }
        )
    return {"sides": sides}


@require_http_methods(["GET", "HEAD", "POST"])
def away_card(request: HttpRequest, league: str, token: str) -> HttpResponse:
    link = cards.live_link(token)
    if link is None or link.card.fixture.league.slug != league:
        raise Http404("No such card")
    card = link.card
    form = DisputeForm()
    if request.method == "POST":
        try:
            if request.POST.get("action") == "confirm":
                changed = cards.confirm(card, link)
                messages.success(
                    request,
                    "The card is confirmed: it counts in the league table."
                    if changed
                    else "The card was confirmed already: nothing changed.",
                )
                return redirect(request.path)
            form = DisputeForm(request.POST)
            if form.is_valid():
                changed = cards.dispute(card, link, form.cleaned_data["note"])
                messages.success(
                    request,
                    "The card is disputed: the organiser will decide."
                    if changed
                    else "The card was disputed already: nothing changed.",
                )
                return redirect(request.path)
        except cards.CardError as error:
            messages.error(request, str(error))
            return redirect(request.path)
    context = {
        "league": card.fixture.league,
        "card": card,
        "fixture": card.fixture,
        "form": form,
        **card_figures(card),
    }
    return render(request, "leagues/away_card.html", context)


# --- the match's card section --------------------------------------------------------------------


def fixture_of(found: League, fixture_id: int) -> Fixture:
    """The league's fixture; a 404 for another league's."""
    fixture = (
        Fixture.objects.select_related("home__club", "away__club", "night", "league__host_club")
        .filter(pk=fixture_id, league=found)
        .first()
    )
    if fixture is None:
        raise Http404("No such match")
    return fixture


def card_context(request: HttpRequest, found: League, fixture: Fixture) -> dict[str, Any]:
    """What leagues/_card.html needs: the card (or None), who may do what, and the forms."""
    card = MatchCard.objects.filter(fixture=fixture).select_related("forfeited_by__club").first()
    if card is not None:
        card.fixture = fixture
    user = request.user
    is_organiser = user.is_authenticated and found.organiser_id == user.pk
    home_secretary = (
        user.is_authenticated
        and Membership.objects.filter(
            user=user, club_id=fixture.home.club_id, role=Role.SECRETARY
        ).exists()
    )
    night = fixture.night
    club = found.host_club
    return {
        "league": found,
        "fixture": fixture,
        "card": card,
        **card_figures(card),
        "may_submit": home_secretary and card is None and night is not None and night.is_closed,
        "waits_for_night": card is None and (night is None or not night.is_closed),
        "is_organiser": is_organiser,
        "decision_form": DecisionForm(club=club),
        "forfeit_form": ForfeitForm(fixture=fixture),
    }


def _act(request: HttpRequest, found: League, fixture: Fixture) -> str:
    """Do the POSTed action; the message to show."""
    user = request.user
    if not user.is_authenticated:
        raise cards.CardError("Log in to change a card.")
    action = request.POST.get("action")
    if action == "submit":
        cards.submit(fixture, user)
        return "The card is submitted: the away club's secretaries have its link."
    if action == "forfeit":
        forfeit = ForfeitForm(request.POST, fixture=fixture)
        if not forfeit.is_valid():
            raise cards.CardError("Choose the club that did not turn up, and tick to confirm.")
        entry = (
            fixture.home if forfeit.cleaned_data["forfeits"] == fixture.home_id else fixture.away
        )
        cards.record_forfeit(fixture, entry, user)
        return f"The forfeit by {entry.club} is recorded."
    card = MatchCard.objects.filter(fixture=fixture).first()
    if card is None or action not in ("settle", "correct"):
        raise cards.CardError("There is no card to change so.")
    form = DecisionForm(request.POST, club=found.host_club)
    if not form.is_valid():
        raise cards.CardError(" ".join(str(e) for errors in form.errors.values() for e in errors))
    decide = cards.settle if action == "settle" else cards.correct
    decide(card, form.cleaned_data["home_score"], user, form.cleaned_data["note"])
    return "The card is settled." if action == "settle" else "The card is corrected."


@require_http_methods(["GET", "HEAD", "POST"])
def fixture_card(request: HttpRequest, league: str, fixture_id: int) -> HttpResponse:
    found = readable_league(request.user, league)
    fixture = fixture_of(found, fixture_id)
    if request.method == "POST":
        try:
            messages.success(request, _act(request, found, fixture))
        except cards.CardError as error:
            messages.error(request, str(error))
        return redirect(request.path)
    return render(request, "leagues/fixture_card.html", card_context(request, found, fixture))


urlpatterns = [
    path("leagues/<slug:league>/table/", table_page, name="league_table"),
    path("leagues/<slug:league>/table.pdf", table_pdf, name="league_table_pdf"),
    path("leagues/<slug:league>/table.csv", table_csv, name="league_table_csv"),
    path("leagues/<slug:league>/cards/<str:token>/", away_card, name="league_card"),
    path(
        "leagues/<slug:league>/fixtures/<int:fixture_id>/card/",
        fixture_card,
        name="league_fixture_card",
    ),
]
