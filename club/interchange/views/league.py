"""The league file in the app: the organiser's export, and an import that makes the league here.

Export is the organiser's alone: anyone else (a playing club's secretary included) gets a 404, as
every league page gives. Any signed-in account may import a league file, and becomes the new
league's organiser; the import is all or nothing, and a refused file is shown with every problem.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

from club.clubs.queries import access
from club.interchange.format import league_read
from club.interchange.format.reading import ImportRefused
from club.interchange.forms.interchange import LeagueImportForm
from club.interchange.services.export import dumps
from club.interchange.services.league_export import export_league
from club.interchange.services.league_import import import_league
from club.leagues.queries.access import organised_league


@login_required
def league_export(request: HttpRequest, league: str) -> HttpResponse:
    found = organised_league(request.user, league)
    text = dumps(export_league(found))
    today = found.host_club.today().isoformat()
    response = HttpResponse(text.encode("utf-8"), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{found.slug}-{today}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
def league_import(request: HttpRequest) -> HttpResponse:
    form = LeagueImportForm(request.POST or None, request.FILES or None)
    if request.method != "POST" or not form.is_valid():
        return render(request, "interchange/league_import.html", {"form": form})
    upload = form.cleaned_data["file"]
    try:
        league = import_league(
            league_read.read(upload.read()), access.signed_in(request), source=upload.name
        )
    except ImportRefused as refused:
        return render(
            request,
            "interchange/league_import.html",
            {"form": LeagueImportForm(), "problems": refused.problems, "filename": upload.name},
        )
    messages.success(request, f"Imported {league.name} from {upload.name}: you are its organiser.")
    return redirect("league_home", league=league.slug)


urlpatterns = [
    # "new/" is a fixed word of the leagues' addresses, never a league's slug.
    path("leagues/new/import/", league_import, name="league_import"),
    path("leagues/<slug:league>/export/", league_export, name="league_export"),
]
