"""Who plays for whom, as pages: a club's secretary names the club's players for the league and
takes a name off; the organiser sees every club's register, matches two names that are one
person and grants transfers; the members of the league's clubs read the registers."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_POST

from club.clubs.queries.access import signed_in
from club.leagues.forms.registers import NamePlayersForm, TransferForm
from club.leagues.models import League, LeagueClub
from club.leagues.queries import access
from club.leagues.queries import registers as queries
from club.leagues.services import registers as services


def _club_page(
    request: HttpRequest, entry: LeagueClub, form: NamePlayersForm, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "leagues/club_players.html",
        {
            "entry": entry,
            "league": entry.league,
            "names": queries.club_register(entry),
            "form": form,
        },
        status=status,
    )


def club_players(request: HttpRequest, slug: str, league: str) -> HttpResponse:
    """GET: the club's register and its players to tick. POST: name the ticked players; a person
    another club named is refused, and the message names that club."""
    entry = access.secretary_entry(request.user, league, slug)
    players = queries.unnamed_players(entry)
    if request.method != "POST":
        return _club_page(request, entry, NamePlayersForm(players=players))
    form = NamePlayersForm(request.POST, players=players)
    if form.is_valid():
        try:
            made = services.register(entry, form.cleaned_data["players"], signed_in(request))
        except services.RegisterError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{len(made)} named for {entry.league.name}.")
            return redirect("league_club_players", slug=slug, league=league)
    return _club_page(request, entry, form, status=422)


def club_withdraw(
    request: HttpRequest, slug: str, league: str, registration_id: int
) -> HttpResponse:
    """GET: are you sure? POST: the name comes off the club's register (before he has played)."""
    entry = access.secretary_entry(request.user, league, slug)
    registration = queries.live_registration(entry, registration_id)
    if request.method == "POST":
        try:
            services.withdraw(registration, signed_in(request))
        except services.RegisterError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"{registration.person.name} is off the register.")
        return redirect("league_club_players", slug=slug, league=league)
    return render(
        request,
        "leagues/club_withdraw.html",
        {"entry": entry, "league": entry.league, "registration": registration},
    )


def _register_reader(request: HttpRequest, slug: str) -> tuple[League, bool]:
    """The league and whether the visitor organises it. The registers name people, so a public
    league's readers do not see them: only its organiser and its clubs' members do."""
    league = access.readable_league(request.user, slug)
    organiser = league.organiser_id == request.user.pk
    if not organiser and not (
        access.entries_of(request.user, league).filter(status=LeagueClub.Status.ACCEPTED).exists()
    ):
        raise Http404("No such league")
    return league, organiser


def _league_page(
    request: HttpRequest, league: League, organiser: bool, transfer_form: TransferForm | None
) -> HttpResponse:
    return render(
        request,
        "leagues/players.html",
        {
            "league": league,
            "organiser": organiser,
            "registers": queries.registers(league),
            "duplicates": services.likely_duplicates(league) if organiser else [],
            "transfers": queries.transfers(league),
            "transfer_form": transfer_form,
        },
        status=422 if transfer_form is not None and transfer_form.errors else 200,
    )


def league_players(request: HttpRequest, league: str) -> HttpResponse:
    """Every club's register; for the organiser also the likely duplicates and transfers."""
    found, organiser = _register_reader(request, league)
    form = TransferForm(league=found) if organiser else None
    return _league_page(request, found, organiser, form)


@require_POST
def league_transfer(request: HttpRequest, league: str) -> HttpResponse:
    """The organiser grants a transfer: the person plays for the club of the record chosen."""
    found = access.organised_league(request.user, league)
    form = TransferForm(request.POST, league=found)
    if form.is_valid():
        person, player = form.cleaned_data["person"], form.cleaned_data["player"]
        try:
            services.grant_transfer(person, player, form.cleaned_data["note"], signed_in(request))
        except services.RegisterError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{person.name} now plays for {player.club.name}.")
            return redirect("league_players", league=league)
    return _league_page(request, found, True, form)


def league_same_person(
    request: HttpRequest, league: str, keep_id: int, duplicate_id: int
) -> HttpResponse:
    """GET: are these two one person? POST: the organiser says yes; the second becomes the
    first."""
    found = access.organised_league(request.user, league)
    keep = queries.league_person(found, keep_id)
    duplicate = queries.league_person(found, duplicate_id)
    if request.method == "POST":
        try:
            services.match_people(keep, duplicate, signed_in(request))
        except services.RegisterError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"{duplicate.name} and {keep.name} are one person now.")
        return redirect("league_players", league=league)
    return render(
        request,
        "leagues/same_person.html",
        {
            "league": found,
            "keep": keep,
            "duplicate": duplicate,
            "keep_names": keep.registrations.select_related("entry__club"),
            "duplicate_names": duplicate.registrations.select_related("entry__club"),
        },
    )


urlpatterns = [
    path("leagues/<slug:league>/players/", league_players, name="league_players"),
    path("leagues/<slug:league>/players/transfer/", league_transfer, name="league_transfer"),
    path(
        "leagues/<slug:league>/players/same/<int:keep_id>/<int:duplicate_id>/",
        league_same_person,
        name="league_same_person",
    ),
]

# Under /c/<slug>/: the club's own side.
club_urlpatterns = [
    path("leagues/<slug:league>/players/", club_players, name="league_club_players"),
    path(
        "leagues/<slug:league>/players/<int:registration_id>/withdraw/",
        club_withdraw,
        name="league_club_withdraw",
    ),
]
