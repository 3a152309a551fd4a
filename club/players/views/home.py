"""A person's home across clubs (/me/): every club whose player record their account claimed,
their latest nights in each, and one grade over all those clubs' hands; and taking a club off
it (undoing that club's claim, after a confirmation page).

Only for the signed-in person, about their own records: a club sees nothing of another club,
and no club page changes. Anonymous visitors are sent to log in."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.cache import never_cache

from club.clubs.queries import access
from club.players.queries import home as q
from club.players.services import home_grade, home_unlink


@never_cache
@login_required
def player_home(request: HttpRequest) -> HttpResponse:
    """Each club of the person's with its latest nights, and their grade across the clubs."""
    user = access.signed_in(request)
    records = q.claimed_records(user)
    nights = q.recent_nights(records)
    rows = []
    grade = home_grade.home_grade(user.pk, [r.club_id for r in records]) if records else None
    for record in records:
        club = record.club
        rows.append(
            {
                "record": record,
                "club": club,
                "nights": nights.get(record.pk, []),
                # The club's player page is the club's members' (or everyone's, if public): only
                # linked where this person may read the club.
                "may_read": access.can(user, club, access.READ),
                "rated_hands": grade.hands_by_club.get(club.pk, 0) if grade else 0,
            }
        )
    return render(request, "players/home/home.html", {"rows": rows, "grade": grade})


@never_cache
@login_required
def player_home_unlink(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: what taking this club off the home means; POST: undo the claim there."""
    user = access.signed_in(request)
    record = q.own_record(user, slug)
    if request.method == "POST":
        try:
            home_unlink.unlink(user, record)
        except home_unlink.AlreadyUnlinked:
            messages.error(request, f"Your account is no longer linked to {record.club.name}.")
        else:
            messages.success(
                request,
                f"{record.club.name} is off your home: your account is no longer linked to "
                f"{record.name} there.",
            )
        return redirect("player_home")
    return render(
        request,
        "players/home/unlink.html",
        {"record": record, "linked_club": record.club, "may_claim": record.club.players_may_claim},
    )


urlpatterns = [
    path("me/", player_home, name="player_home"),
    path("me/<slug:slug>/unlink/", player_home_unlink, name="player_home_unlink"),
]
