"""A closed club's page, for its members only, while it waits out its days before the purge.

Every page of a closed club raises the 404 of a club that does not exist
(club/clubs/queries/access.py finds
only open clubs). This middleware sees that 404 on the way out: when the visitor is a member of
the closed club the address names, it answers instead with a page saying the club closed, by
whom, and when it will be deleted for good, as 410 Gone (the club was there and has been taken
away on purpose; a 404 would say the address was wrong). To anyone else, the plain 404: an
outsider learns nothing about which addresses were clubs. A member not logged in is asked to log
in first, as for any private club, and then sees it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from club.clubs.queries import closing_clubs
from club.clubs.services.closing_mail import host_contact
from club.lib import zones


class ClosedClubMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Http404) or not request.path.startswith("/c/"):
            return None
        match = request.resolver_match
        slug = match.kwargs.get("slug") if match else None
        if not slug or not request.user.is_authenticated:
            return None
        closing = closing_clubs.closing_club(request.user, slug)
        if closing is None:
            return None
        zones.activate(closing.club)
        return render(
            request,
            "clubs/closed.html",
            {"closing": closing, "host_contact": host_contact()},
            status=410,
        )
