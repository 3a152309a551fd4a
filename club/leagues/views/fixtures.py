"""A league's fixtures: the list (generating them and moving a date, for the organiser; each
club's calendar feed address, for its secretaries), a match's page (opening its night, its tables'
links and QR codes, closing it) and the calendar feed itself, read by a calendar with no login."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.clubs.models import Role
from club.leagues.forms.fixtures import MoveForm, OpenNightForm
from club.leagues.models import Fixture, League, LeagueClub
from club.leagues.queries.access import entries_of, organised_league, readable_league
from club.leagues.services import calendar, match_night
from club.leagues.services import fixtures as fixture_service
from club.leagues.services.fixtures import FixtureError
from club.leagues.services.match_night import MatchNightError
from club.leagues.views import cards
from club.play.models import Night
from club.play.queries.night import night_tables
from club.play.services import table_links
from club.play.views.table_links import qr_svg


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _feeds(request: HttpRequest, found: League) -> list[dict[str, Any]]:
    """The calendar feed of each playing club the reader is a secretary of."""
    rows = []
    for entry in entries_of(request.user, found, Role.SECRETARY).filter(
        status=LeagueClub.Status.ACCEPTED
    ):
        entry.league = found
        feed = calendar.feed_of(entry, _user(request))
        url = reverse("league_calendar", args=[found.slug, feed.token])
        rows.append({"entry": entry, "url": request.build_absolute_uri(url)})
    return rows


@never_cache
@require_GET
def fixtures(request: HttpRequest, league: str) -> HttpResponse:
    found = readable_league(request.user, league)
    is_organiser = found.organiser_id == request.user.pk
    rows = list(
        Fixture.objects.filter(league=found).select_related("home__club", "away__club", "night")
    )
    context = {
        "league": found,
        "fixtures": rows,
        "is_organiser": is_organiser,
        "feeds": _feeds(request, found),
        "move_form": MoveForm(league=found) if is_organiser and rows else None,
        "playing": len(fixture_service.playing(found)),
        "played": fixture_service.played(found) if rows else 0,
    }
    return render(request, "leagues/fixtures.html", context)


@require_POST
def generate(request: HttpRequest, league: str) -> HttpResponse:
    found = organised_league(request.user, league)
    if Fixture.objects.filter(league=found).exists() and not request.POST.get("again"):
        messages.error(request, 'Tick "Replace every fixture" to make the fixtures again.')
        return redirect("league_fixtures", league=found.slug)
    try:
        made = fixture_service.generate(found, _user(request))
    except FixtureError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"{len(made)} fixtures made.")
    return redirect("league_fixtures", league=found.slug)


@require_POST
def move(request: HttpRequest, league: str) -> HttpResponse:
    found = organised_league(request.user, league)
    form = MoveForm(request.POST, league=found)
    if not form.is_valid():
        messages.error(request, "Choose a fixture not yet opened and a date.")
        return redirect("league_fixtures", league=found.slug)
    fixture: Fixture = form.cleaned_data["fixture"]
    try:
        moved = fixture_service.move(fixture, form.cleaned_data["date"], _user(request))
    except FixtureError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"{moved.home.club} v {moved.away.club} is now on {moved.date}.")
    return redirect("league_fixtures", league=found.slug)


@require_POST
def calendar_reissue(request: HttpRequest, league: str, entry_id: int) -> HttpResponse:
    """A club's secretary gives its calendar feed a new address; the old one stops working."""
    found = readable_league(request.user, league)
    entry = entries_of(request.user, found, Role.SECRETARY).filter(pk=entry_id).first()
    if entry is None:
        raise Http404("No such club in this league")
    entry.league = found
    if not request.POST.get("sure"):
        messages.error(request, "Tick the box to give the calendar a new address.")
        return redirect("league_fixtures", league=found.slug)
    calendar.reissue(entry, _user(request))
    messages.success(request, f"{entry.club}'s calendar has a new address; the old one is gone.")
    return redirect("league_fixtures", league=found.slug)


@never_cache
@require_GET
def calendar_feed(request: HttpRequest, league: str, token: str) -> HttpResponse:
    feed = calendar.find(league, token)
    if feed is None:
        raise Http404("No such calendar")
    body = calendar.ics(feed.entry, request.get_host())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{feed.entry.league.slug}.ics"'
    return response


# --- a match ----------------------------------------------------------------------------------


def _fixture(request: HttpRequest, league: str, fixture_id: int) -> Fixture:
    """The league's fixture for a reader of the league; a 404 for another league's."""
    found = readable_league(request.user, league)
    fixture = (
        Fixture.objects.filter(league=found, pk=fixture_id)
        .select_related("home__club", "away__club", "night__season__club")
        .first()
    )
    if fixture is None:
        raise Http404("No such fixture")
    fixture.league = found
    return fixture


def _run_fixture(request: HttpRequest, league: str, fixture_id: int) -> Fixture:
    fixture = _fixture(request, league, fixture_id)
    if not match_night.runs_match(request.user, fixture):
        raise Http404("No such fixture")
    return fixture


def _links(request: HttpRequest, night: Night, user: User) -> list[dict[str, Any]]:
    links = table_links.night_links(night, user)
    rows = []
    for summary in night_tables(night):
        link = links.get(summary.table.pk)
        row: dict[str, Any] = {"summary": summary, "link": link}
        if link is not None:
            row["url"] = request.build_absolute_uri(reverse("link_table", args=[link.token]))
            row["qr"] = qr_svg(row["url"], f"Table {summary.table.number}'s link")
        rows.append(row)
    return rows


def _open_form(fixture: Fixture, data: Any = None) -> OpenNightForm:
    return OpenNightForm(
        data,
        home=match_night.live_register(fixture.home),
        away=match_night.live_register(fixture.away),
        wanted=fixture.league.players_a_side,
    )


@never_cache
@require_GET
def fixture_page(request: HttpRequest, league: str, fixture_id: int) -> HttpResponse:
    fixture = _fixture(request, league, fixture_id)
    runs = match_night.runs_match(request.user, fixture)
    # The card's section (its state, and what this reader may do with it) on the match's page.
    context: dict[str, Any] = {
        **cards.card_context(request, fixture.league, fixture),
        "runs": runs,
    }
    if runs and fixture.night is None:
        context["form"] = _open_form(fixture)
    if runs and fixture.night is not None:
        context["links"] = _links(request, fixture.night, _user(request))
    return render(request, "leagues/fixture.html", context)


@require_POST
def open_night(request: HttpRequest, league: str, fixture_id: int) -> HttpResponse:
    fixture = _run_fixture(request, league, fixture_id)
    form = _open_form(fixture, request.POST)
    if form.is_valid():
        try:
            match_night.open_match_night(
                fixture,
                _user(request),
                form.cleaned_data["home"],
                form.cleaned_data["away"],
                form.cleaned_data["form_token"],
            )
        except MatchNightError as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, "The match night is open: give each table its link.")
            return redirect("league_fixture", league=league, fixture_id=fixture.pk)
    context = {"league": fixture.league, "fixture": fixture, "runs": True, "form": form}
    return render(request, "leagues/fixture.html", context, status=422)


@require_http_methods(["GET", "POST"])
def close_night(request: HttpRequest, league: str, fixture_id: int) -> HttpResponse:
    """GET: what closing means; POST: close the match night."""
    fixture = _run_fixture(request, league, fixture_id)
    if fixture.night is None:
        raise Http404("This match has no night")
    if request.method == "POST":
        try:
            match_night.close_match_night(fixture, _user(request))
        except MatchNightError as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, "The match night is closed.")
        return redirect("league_fixture", league=league, fixture_id=fixture.pk)
    context = {"league": fixture.league, "fixture": fixture}
    return render(request, "leagues/fixture_close.html", context)


urlpatterns = [
    path("leagues/<slug:league>/fixtures/", fixtures, name="league_fixtures"),
    path("leagues/<slug:league>/fixtures/generate/", generate, name="league_fixtures_generate"),
    path("leagues/<slug:league>/fixtures/move/", move, name="league_fixture_move"),
    path("leagues/<slug:league>/fixtures/<int:fixture_id>/", fixture_page, name="league_fixture"),
    path(
        "leagues/<slug:league>/fixtures/<int:fixture_id>/open/",
        open_night,
        name="league_fixture_open",
    ),
    path(
        "leagues/<slug:league>/fixtures/<int:fixture_id>/close/",
        close_night,
        name="league_fixture_close",
    ),
    path(
        "leagues/<slug:league>/feeds/<int:entry_id>/new/",
        calendar_reissue,
        name="league_calendar_reissue",
    ),
    path("leagues/<slug:league>/calendar/<str:token>.ics", calendar_feed, name="league_calendar"),
]
