"""The live night board, /c/<slug>/nights/<id>/live/: every table's progress, each player's
running net and the settle-up as it stands, for a phone or a projector. Public when the club is
public, else for its members.

The page polls itself with htmx every few seconds, sending the revision it shows (`?since=`);
when nothing changed the answer is an empty 204 after one cheap query (club.queries.live_night
.revision), and any client may also use the ETag and If-None-Match for a 304.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods

from club import access
from club.access import login_if_hidden
from club.queries.live_night import live_board, revision

POLL_SECONDS = 10


@login_if_hidden
@require_http_methods(["GET", "HEAD"])
def live_night(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = access.get_night(request, club, night_id)
    rev = revision(night)
    etag = f'"{rev}"'
    unchanged = request.GET.get("since") == rev or etag in request.headers.get("If-None-Match", "")
    if unchanged:
        # htmx leaves the board as it is on a 204; a browser or proxy revalidating gets a 304.
        response = HttpResponse(status=204 if request.htmx else 304)
    else:
        board = live_board(night, rev)
        template = "club/nights/live.html"
        if request.htmx and not request.htmx.boosted:
            template += "#board"
        context = {
            "club": club,
            "night": night,
            "board": board,
            "tournament": getattr(night, "tournament", None),
            "poll_seconds": POLL_SECONDS,
        }
        response = render(request, template, context)
    response["ETag"] = etag
    # Always ask again: the board is live, never served stale from a cache.
    patch_cache_control(response, no_cache=True, private=not club.is_public)
    return response


urlpatterns = [
    path("nights/<int:night_id>/live/", live_night, name="live_night"),
]
