"""Clubs invited to a league: the organiser's page of them (invite by address, withdraw), and a
club's page of its leagues, where its secretaries accept or decline (a scorer or viewer is
refused as on the club's other set-up pages; another club's secretary gets a 404)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from club.clubs.queries import access as club_access
from club.clubs.queries.access import MANAGE, login_if_hidden
from club.leagues.forms.leagues import InviteForm
from club.leagues.models import LeagueClub
from club.leagues.queries import access
from club.leagues.services import invitations as service
from club.leagues.services.leagues import LeagueError
from club.leagues.views.leagues import organised


@require_http_methods(["GET", "POST"])
def league_clubs(request: HttpRequest, league: str) -> HttpResponse:
    found = organised(request, league)
    if isinstance(found, HttpResponse):
        return found
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = service.club_named(form.cleaned_data["club"])
            service.invite(
                found,
                club,
                club_access.signed_in(request),
                request.build_absolute_uri("/").rstrip("/"),
            )
        except LeagueError as error:
            form.add_error("club", str(error))
        else:
            messages.success(request, f"{club.name} is invited: its secretaries are emailed.")
            return redirect("league_clubs", league=found.slug)
    return render(
        request,
        "leagues/clubs.html",
        {"league": found, "form": form, "entries": found.entries.select_related("club")},
        status=422 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def league_invitation_withdraw(request: HttpRequest, league: str, entry_id: int) -> HttpResponse:
    found = organised(request, league)
    if isinstance(found, HttpResponse):
        return found
    entry = get_object_or_404(LeagueClub.objects.select_related("club"), pk=entry_id, league=found)
    if request.method == "POST":
        try:
            service.withdraw(entry, club_access.signed_in(request))
        except LeagueError as error:
            messages.error(request, str(error))
        else:
            messages.info(request, f"The invitation of {entry.club.name} is withdrawn.")
        return redirect("league_clubs", league=found.slug)
    return render(request, "leagues/withdraw.html", {"league": found, "entry": entry})


@login_if_hidden
def club_leagues(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's leagues: invitations to answer, the leagues it plays in."""
    club = club_access.get_club(request, slug, MANAGE)
    entries = (
        LeagueClub.objects.filter(club=club)
        .select_related("league", "league__organiser")
        .order_by("-invited_at")
    )
    return render(request, "leagues/club_leagues.html", {"club": club, "entries": entries})


@login_if_hidden
@require_POST
def league_invitation_accept(request: HttpRequest, slug: str, league: str) -> HttpResponse:
    club = club_access.get_club(request, slug, MANAGE)
    entry = access.secretary_entry(request.user, league, club.slug)
    try:
        service.answer(entry, True, club_access.signed_in(request))
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{club.name} plays in {entry.league.name}.")
    return redirect("club_leagues", slug=club.slug)


@login_if_hidden
@require_http_methods(["GET", "POST"])
def league_invitation_decline(request: HttpRequest, slug: str, league: str) -> HttpResponse:
    """Declining asks first: the organiser must invite the club again to undo it."""
    club = club_access.get_club(request, slug, MANAGE)
    entry = access.secretary_entry(request.user, league, club.slug)
    if request.method == "POST":
        try:
            service.answer(entry, False, club_access.signed_in(request))
        except LeagueError as error:
            messages.error(request, str(error))
        else:
            messages.info(request, f"{club.name} declined {entry.league.name}.")
        return redirect("club_leagues", slug=club.slug)
    return render(request, "leagues/decline.html", {"club": club, "entry": entry})
