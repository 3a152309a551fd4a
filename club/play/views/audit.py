"""The club's audit page (secretaries): every change to the club's data, newest first, with the
nights that were deleted and their kept history."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.play.queries import club_audit


@login_if_hidden
def club_audit_trail(request: HttpRequest, slug: str) -> HttpResponse:
    club = access.get_club(request, slug, access.MANAGE)
    deleted_night = request.GET.get("night", "")
    return render(
        request,
        "play/audit.html",
        {
            "club": club,
            "deleted_nights": club_audit.deleted_nights(club),
            "deleted_night": deleted_night,
            "page": club_audit.club_trail(club, request.GET.get("page"), deleted_night),
        },
    )


urlpatterns = [path("audit/", club_audit_trail, name="club_audit")]
