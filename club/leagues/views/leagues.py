"""A league's home (its rules, its clubs, the table) and its settings, which only the organiser
changes. A league its reader may not see is a 404 (club.leagues.queries.access); an anonymous
visitor is asked to log in instead, whether or not the league exists."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from club.clubs.queries import access as club_access
from club.leagues.forms.leagues import LeagueSettingsForm
from club.leagues.models import League, LeagueClub
from club.leagues.models.leagues import TIE_BREAKS
from club.leagues.queries import access
from club.leagues.services import league_settings
from club.leagues.services.leagues import LeagueError
from club.leagues.views import cards


def league_home(request: HttpRequest, league: str) -> HttpResponse:
    try:
        found = access.readable_league(request.user, league)
    except Http404:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise
    is_organiser = found.organiser_id == request.user.pk
    entries = found.entries.select_related("club")
    if not is_organiser:
        entries = entries.filter(status=LeagueClub.Status.ACCEPTED)
    # The registers name people: the organiser and the playing clubs' members read them.
    reads_registers = is_organiser or (
        access.entries_of(request.user, found).filter(status=LeagueClub.Status.ACCEPTED).exists()
    )
    host = found.host_club
    season = host.seasons.select_related("rule_set").order_by("pk").first()
    return render(
        request,
        "leagues/home.html",
        {
            **cards.table_context(found),
            "league": found,
            "entries": list(entries),
            "is_organiser": is_organiser,
            "reads_registers": reads_registers,
            "rule_set": season.rule_set if season is not None else None,
            "host": host,
            "tie_break_names": [TIE_BREAKS[key] for key in found.tie_break_keys],
        },
    )


def organised(request: HttpRequest, league: str) -> League | HttpResponse:
    """The league for its organiser; the log-in page for an anonymous visitor, a 404 for anyone
    else."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return access.organised_league(request.user, league)


@require_http_methods(["GET", "POST"])
def league_settings_view(request: HttpRequest, league: str) -> HttpResponse:
    found = organised(request, league)
    if isinstance(found, HttpResponse):
        return found
    fixed = league_settings.sides_fixed(found)
    form = LeagueSettingsForm(request.POST or None, league=found, sides_fixed=fixed)
    if request.method == "POST" and form.is_valid():
        try:
            changed = league_settings.change_league(
                found, form.changes(), club_access.signed_in(request)
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, "The league's settings are saved." if changed else "Nothing changed."
            )
            return redirect("league_home", league=found.slug)
    return render(
        request,
        "leagues/settings.html",
        {"league": found, "form": form},
        status=422 if form.errors else 200,
    )
