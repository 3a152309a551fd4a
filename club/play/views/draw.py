"""The draw: tables for the players who have arrived (a proposal carried in the page's address
as signed data, so that a reload, Back and Forward show the same tables), swapping two players,
drawing again, and confirming, which creates the night, its tables and their links at once. Late
arrivals on an open night: a seat at a table with room, a new table of their own, or a new table
of three with players moved from the tables of 5; the page offers only the ways that can seat
tonight's late arrivals."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods

import scoring.draw
from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.clubs.services.setup import SetupError
from club.lib.posted import posted_id, posted_ids
from club.lib.words import count
from club.play.models import Night, Table
from club.play.queries import night_access
from club.play.services import arrivals as arrival_service
from club.play.services import draw as draw_service
from club.play.services import nights as night_service
from club.play.views.arrivals import what_the_draw_makes


def _show(club: Club, proposal: draw_service.Proposal) -> HttpResponse:
    """A redirect to the proposal's own address: reloaded, or reached by Back and Forward, it
    shows the same tables, and Confirm posts the draw on the screen."""
    address = reverse("draw", args=[club.slug])
    return redirect(f"{address}?{urlencode({'proposal': proposal.sign(club)})}")


def _proposal_page(request: HttpRequest, club: Club, date: dt.date) -> HttpResponse:
    """The proposal of the address (SetupError when it is not one the app made, or not of
    today); once confirmed, the night's links."""
    proposal = draw_service.Proposal.read(club, request.GET.get("proposal", ""))
    if proposal.date != date:
        raise SetupError(
            f"This draw was for {proposal.date:%d %b %Y}: draw tonight's tables again."
        )
    night = draw_service.confirmed_night(club, proposal)
    if night is not None:
        messages.info(request, f"{night} was already drawn: these are its tables.")
        return redirect("night_links", slug=club.slug, night_id=night.pk)
    return render(request, "play/draw/proposal.html", _proposal_context(club, proposal))


def _proposal_context(club: Club, proposal: draw_service.Proposal) -> dict:
    tables = draw_service.proposal_players(club, proposal)
    return {
        "club": club,
        "proposal": proposal,
        "signed": proposal.sign(club),
        # "Draw again" keeps the odd table size of this draw (the club's, or tonight's other).
        "odd": next((len(t) for t in proposal.tables if len(t) != 4), ""),
        "tables": [
            {"number": n, "players": players, "size": len(players)}
            for n, players in enumerate(
                tables, start=draw_service.first_new_number(club, proposal.date)
            )
        ],
    }


@login_if_hidden
@require_http_methods(["GET", "POST"])
def draw(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: who is here and a "Draw tables" button; with `proposal` (signed), that draw, to swap
    or confirm. POST `action`: draw (or again), swap (the two ticked players of the posted
    proposal), each answered by a redirect to the proposal's address; confirm (creates the
    night; goes to its links)."""
    club = access.get_club(request, slug, access.MANAGE)
    date = arrival_service.today(club)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    try:
        if action in ("draw", "again"):
            odd = request.POST.get("odd")
            odd_size = int(odd) if odd in ("3", "5") else None
            return _show(club, draw_service.propose_draw(club, date, odd_size=odd_size))
        if action in ("swap", "confirm"):
            proposal = draw_service.Proposal.read(club, request.POST.get("proposal", ""))
            if action == "swap":
                picked = posted_ids(request.POST.getlist("swap"))
                if len(picked) != 2:
                    messages.error(request, "Tick exactly two players to swap.")
                    return _show(club, proposal)
                try:
                    return _show(club, draw_service.swap(proposal, *picked))
                except SetupError as refused:  # the draw stays on the screen, unchanged
                    messages.error(request, str(refused))
                    return _show(club, proposal)
            night, created = night_service.confirm_draw(
                club, date, proposal, access.acting_user(request)
            )
            if created:
                messages.success(
                    request,
                    f"{night} is drawn: {count(night.tables.count(), 'table')}. "
                    "Each table scans its QR code to score.",
                )
            else:
                messages.info(request, f"{night} was already drawn: these are its tables.")
            return redirect("night_links", slug=club.slug, night_id=night.pk)
        if request.method == "GET" and "proposal" in request.GET:
            return _proposal_page(request, club, date)
    except SetupError as refused:
        messages.error(request, str(refused))
        return redirect("draw", slug=club.slug)
    now = draw_service.evening(club, date)
    here = len(now.waiting)
    other = 8 - int(club.odd_tables)
    try:
        scoring.draw.draw_sizes(here, int(club.odd_tables))
        instead = None
    except ValueError:
        # The club's odd size cannot split tonight's number: offer the other, for tonight only.
        instead = other if here >= 3 else None
    context = {
        "club": club,
        "date": date,
        "instead": instead,
        "summary": what_the_draw_makes(club, here),
        "evening": now,
    }
    return render(request, "play/draw/start.html", context)


@login_if_hidden
@require_http_methods(["GET", "POST"])
def night_late(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    """Late arrivals: POST `action` seat (`player` or `name`, `table` or automatic), three (a new
    table of the 3 to 5 `players` ticked), fives (everyone waiting, `movers` as shown, when
    every table is a five) or arrive (tick in a typed `name` without a seat yet)."""
    club = access.get_club(request, slug, access.MANAGE)
    night = night_access.get_night(request, club, night_id, access.MANAGE)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "seat":
                player, table = _seat_late(request, club, night)
                messages.success(request, f"{player} sits at table {table.number}.")
                return redirect("night_detail", slug=club.slug, night_id=night.pk)
            if action == "three":
                ids = posted_ids(request.POST.getlist("players"))
                players = [access.club_player(club, pk) for pk in ids[:6]]
                table = night_service.seat_late_table(night, players, access.acting_user(request))
                messages.success(
                    request, f"Table {table.number}: {', '.join(p.name for p in players)}."
                )
                return redirect("night_links", slug=club.slug, night_id=night.pk)
            if action == "fives":
                return _seat_from_fives(request, club, night)
            if action == "arrive":
                if not access.may_add_players(request.user, club):
                    raise SetupError("Only a secretary may add new players in this club.")
                player = arrival_service.arrive_by_name(
                    club, request.POST.get("name", ""), night.date
                )
                messages.success(request, f"{player} is ticked in: choose where they sit.")
        except SetupError as refused:
            messages.error(request, str(refused))
        return redirect("night_late", slug=club.slug, night_id=night.pk)
    return render(request, "play/draw/late.html", late_context(request, club, night))


def late_context(request: HttpRequest, club: Club, night: Night) -> dict:
    """What the late arrivals page offers: only the ways that can seat who is waiting."""
    waiting = draw_service.unseated_arrivals(night)
    may_seat = (
        not night.is_closed
        and not Night.objects.filter(pk=night.pk, tournament__isnull=False).exists()
    )
    room = draw_service.tables_with_room(night) if may_seat else []
    plan, no_plan = None, ""
    if may_seat and not room and 1 <= len(waiting) <= 2:
        try:
            plan = draw_service.plan_from_fives(night, waiting)
        except SetupError as refused:
            no_plan = str(refused)
    return {
        "club": club,
        "night": night,
        "may_seat": may_seat,
        "waiting": waiting,
        "room": room,
        "plan": plan,
        "no_plan": no_plan,
        "may_add": access.may_add_players(request.user, club),
    }


def _seat_from_fives(request: HttpRequest, club: Club, night: Night) -> HttpResponse:
    """Everyone waiting (one or two) at a new table of three with the movers the page showed:
    if a hand saved since changes who would move, the page shows the new plan to confirm."""
    waiting = draw_service.unseated_arrivals(night)
    shown = posted_ids(request.POST.getlist("waiting"))
    if sorted(p.pk for p in waiting) != sorted(shown):
        raise SetupError("Who waits for a seat changed since: check and confirm again.")
    movers = posted_ids(request.POST.getlist("movers"))
    table, plan = night_service.seat_late_from_fives(
        night, waiting, access.acting_user(request), movers
    )
    moved = "; ".join(
        f"{', '.join(p.name for p in movers)} from table {t.number}" for t, movers in plan.moves
    )
    messages.success(
        request,
        f"Table {table.number}: {', '.join(p.name for p in plan.players)}. At the end of their "
        f"current hand: {moved}.",
    )
    return redirect("night_links", slug=club.slug, night_id=night.pk)


def _seat_late(request: HttpRequest, club: Club, night: Night) -> tuple[Player, Table]:
    """Seat the late arrival posted: a new name (added with their seat, or not at all), or a
    player chosen; at the table chosen, or Automatic."""
    name = request.POST.get("name", "").strip()
    if name:
        if not access.may_add_players(request.user, club):
            raise SetupError("Only a secretary may add new players in this club.")
        table = _late_table(request, night)
        return night_service.seat_late_newcomer(night, name, table, access.acting_user(request))
    pk = posted_id(request.POST.get("player"))
    if pk is None:
        raise SetupError("Choose who has arrived, or type a new name.")
    player = access.club_player(club, pk)
    table = _late_table(request, night)
    return player, night_service.seat_late_arrival(
        night, player, table, access.acting_user(request)
    )


def _late_table(request: HttpRequest, night: Night) -> Table | None:
    """The table chosen for a late arrival; None for Automatic (the select's empty value)."""
    value = request.POST.get("table", "")
    if not value:
        return None
    pk = posted_id(value)
    if pk is None:
        raise SetupError("Choose a table with room, or Automatic.")
    return get_object_or_404(Table, pk=pk, night=night)


urlpatterns = [
    path("draw/", draw, name="draw"),
    path("nights/<int:night_id>/late/", night_late, name="night_late"),
]
