from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

from club.clubs.models import Club
from club.clubs.queries import access, closing_clubs
from club.clubs.queries.access import club_reader
from club.clubs.services import invitations as invitation_service
from club.clubs.services.closing_mail import host_contact
from club.grades.display.tables import format_average, format_measure
from club.grades.queries import club_home as q
from club.grades.queries import standings as sq

LEADERS = 5


def home(request: HttpRequest) -> HttpResponse:
    """The clubs this person belongs to (or the public ones); straight in when there is one.
    Clubs of theirs that are closed and waiting to be deleted are listed as closing, with the
    date; a secretary of one is given the host's address (HOST_CONTACT_EMAIL)."""
    clubs = access.user_clubs(request.user)
    invitations = invitation_service.open_invitations(request.user)
    closing = closing_clubs.closing_clubs(request.user)
    if request.user.is_authenticated and len(clubs) == 1 and not invitations and not closing:
        return redirect("club", slug=clubs[0].slug)
    return render(
        request,
        "grades/home.html",
        {
            "clubs": clubs,
            "invitations": invitations,
            "closing": closing,
            "host_contact": host_contact(),
        },
    )


def _leaders(club: Club, ladder: sq.Ladder | None) -> list[dict]:
    """The top of the ladder, each with the figure it ranks by, as the standings write it."""
    if ladder is None:
        return []
    rows = []
    for row in ladder.rows[:LEADERS]:
        if ladder.method == "average":
            text = format_average(club, row.average)
        else:
            text = format_measure(club, row.counted, ladder.uses_points)
        rows.append({"row": row, "value": text, "sign": row.value})
    return rows


@club_reader
def club_home(request: HttpRequest, club: Club) -> HttpResponse:
    """The latest night's results, the current season's leaders and its biggest hands."""
    latest = q.latest_night(club)
    season = sq.pick_season(sq.club_seasons(club), None, club.today())
    ladder = sq.ladder(season) if season else None
    return render(
        request,
        "grades/club.html",
        {
            "club": club,
            "season": season,
            "latest": latest,
            "latest_results": q.night_results(latest) if latest else [],
            "ladder": ladder,
            "leaders": _leaders(club, ladder),
            "biggest": q.biggest_hands(season) if season else [],
            "nights": q.recent_nights(club),
            "member": access.membership(request.user, club),
            "can_score": access.can(request.user, club, access.SCORE),
            "can_manage": access.can(request.user, club, access.MANAGE),
        },
    )


urlpatterns = [path("", club_home, name="club")]
