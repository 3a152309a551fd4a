from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

from club import access
from club.models import Night


def home(request: HttpRequest) -> HttpResponse:
    """The clubs this person belongs to (or the public ones); straight in when there is one."""
    clubs = access.user_clubs(request.user)
    if request.user.is_authenticated and len(clubs) == 1:
        return redirect("club", slug=clubs[0].slug)
    return render(request, "club/home.html", {"clubs": clubs})


def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug)
    nights = (
        Night.objects.filter(season__club=club)
        .select_related("season")
        .order_by("-date", "-id")[:20]
    )
    return render(
        request,
        "club/club.html",
        {
            "club": club,
            "nights": nights,
            "seasons": club.seasons.select_related("rule_set"),
            "member": access.membership(request.user, club),
            "can_score": access.can(request.user, club, access.SCORE),
            "can_manage": access.can(request.user, club, access.MANAGE),
        },
    )


urlpatterns = [path("", club_home, name="club")]
