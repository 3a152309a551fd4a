"""Who is here: the arrivals page (a big tick box per player, ticked by htmx one at a time, or
the whole form posted without JavaScript), a new name as someone walks in, the door page where
players tick themselves in through the club's door QR code, and the page that shows that code."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

import scoring.draw
from club import access, zones
from club.access import login_if_hidden
from club.core import ratelimit
from club.htmx import htmx
from club.models import Arrival, Club
from club.services import arrivals as arrival_service
from club.services import tokens as token_service
from club.services.setup import SetupError
from club.views.posted import posted_id, posted_ids
from club.views.table_links import qr_svg

# Ticks at one club's door a minute: a crowd arriving at once stays well under it.
DOOR_LIMIT = (60, 60)


def what_the_draw_makes(club: Club, count: int) -> str:
    """ "14 players: 2 tables of 4 and 2 of 3", or why they cannot be drawn yet."""
    players = f"{count} player{'s' if count != 1 else ''}"
    try:
        sizes = scoring.draw.draw_sizes(count, int(club.odd_tables))
    except ValueError as refused:
        if count < 3:
            return f"{players}: a draw needs at least 3."
        return f"{players}: {refused}"
    return f"{players}: {scoring.draw.describe_sizes(sizes)}"


def _context(request: HttpRequest, club: Club) -> dict:
    date = arrival_service.today(club)
    here = arrival_service.arrived_ids(club, date)
    return {
        "club": club,
        "date": date,
        "players": arrival_service.members_recent_first(club),
        "here": here,
        "summary": what_the_draw_makes(club, len(here)),
        "can_manage": access.can(request.user, club, access.MANAGE),
        "may_add": access.may_add_players(request.user, club),
    }


def _player(club: Club, value: str | None):
    pk = posted_id(value)
    if pk is None:
        return None
    try:
        return access.club_player(club, pk)
    except Http404:
        return None


@never_cache
@login_if_hidden
@require_http_methods(["GET", "POST"])
def arrivals_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player as a tick box. POST (without JavaScript): the ticked boxes are who is here."""
    club = access.get_club(request, slug, access.SCORE)
    if request.method == "POST":
        date = arrival_service.today(club)
        wanted = {p.pk for p in club.players.filter(pk__in=_ids(request.POST.getlist("here")))}
        had = arrival_service.arrived_ids(club, date)
        for player in club.players.filter(pk__in=wanted - had):
            arrival_service.tick_in(club, player, date)
        for player in club.players.filter(pk__in=had - wanted):
            arrival_service.tick_out(club, player, date)
        messages.success(request, f"{len(wanted)} here.")
        return redirect("arrivals", slug=club.slug)
    return render(request, "club/arrivals/page.html", _context(request, club))


def _ids(values: list[str]) -> list[int]:
    return posted_ids(values)[:500]


@login_if_hidden
@require_POST
def arrival_tick(request: HttpRequest, slug: str) -> HttpResponse:
    """One tick box changed (htmx): `player`, and `here` when it is ticked. Answers the count
    and what the draw will make."""
    club = access.get_club(request, slug, access.SCORE)
    player = _player(club, request.POST.get("player"))
    if player is not None:
        if request.POST.get("here"):
            arrival_service.tick_in(club, player)
        else:
            arrival_service.tick_out(club, player)
    if htmx(request):
        return render(request, "club/arrivals/_summary.html", _context(request, club))
    return redirect("arrivals", slug=club.slug)


@login_if_hidden
@require_POST
def arrival_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A new name, ticked in at once (a player of that name already in the club is ticked)."""
    club = access.get_club(request, slug, access.SCORE)
    if not access.may_add_players(request.user, club):
        messages.error(request, "Only a secretary may add new players in this club.")
        return redirect("arrivals", slug=club.slug)
    try:
        player = arrival_service.arrive_by_name(club, request.POST.get("name", ""))
    except SetupError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"{player} is here.")
    return redirect("arrivals", slug=club.slug)


# The door ------------------------------------------------------------------------------------


@never_cache
@login_if_hidden
@require_http_methods(["GET", "POST"])
def door_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The door QR code to print or show; POST makes a new one (the old stops working)."""
    club = access.get_club(request, slug, access.MANAGE)
    if request.method == "POST":
        token_service.new_door_token(club)
        messages.success(request, "A new door code: the old one no longer works.")
        return redirect("door_qr", slug=club.slug)
    url = request.build_absolute_uri(
        reverse("club_door", args=[club.slug, token_service.door_token(club)])
    )
    context = {"club": club, "url": url, "qr": qr_svg(url, f"{club.name}'s door code")}
    return render(request, "club/arrivals/door_qr.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
def club_door(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Anyone holding the door code: find your name, tap "I'm here". A 404 when the club's door
    check-in is off, or the code is not (or no longer) the club's."""
    club = token_service.door_club(slug, token)
    if club is None:
        return render(request, "club/arrivals/door_closed.html", {}, status=404)
    zones.activate(club)
    date = arrival_service.today(club)
    if request.method == "POST":
        verdict = ratelimit.hit(f"club-door:{club.pk}", *DOOR_LIMIT)
        if not verdict.allowed:
            # Whoever holds the code could tick the whole club in, again and again, from a
            # script; a crowd at the door ticks in far slower than this.
            messages.error(
                request,
                f"Too many ticks at the door in the last minute: wait {verdict.retry_after} "
                "seconds, then tap your name again.",
            )
            response = _door_page(request, club, date, status=429)
            response["Retry-After"] = str(verdict.retry_after)
            return response
        player = _player(club, request.POST.get("player"))
        if player is not None and player.active:
            arrival_service.tick_in(club, player, date, via=Arrival.Via.DOOR)
            messages.success(request, f"Welcome, {player}: you are on tonight's list.")
        else:
            # Marked inactive since the page was shown, or a posted id of no one of the club.
            messages.error(request, "That name is not on this club's list: tell the secretary.")
        return redirect("club_door", slug=club.slug, token=token)
    return _door_page(request, club, date)


def _door_page(request: HttpRequest, club: Club, date: dt.date, status: int = 200) -> HttpResponse:
    context = {
        "door_club": club,
        "players": arrival_service.members_recent_first(club),
        "here": arrival_service.arrived_ids(club, date),
        "date": date,
    }
    return render(request, "club/arrivals/door.html", context, status=status)


urlpatterns = [
    path("arrivals/", arrivals_page, name="arrivals"),
    path("arrivals/tick/", arrival_tick, name="arrival_tick"),
    path("arrivals/new/", arrival_new, name="arrival_new"),
    path("arrivals/door/", door_qr, name="door_qr"),
    path("door/<str:token>/", club_door, name="club_door"),
]
