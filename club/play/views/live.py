"""The live night board, /c/<slug>/nights/<id>/live/: every table's progress, each player's
running net and the settle-up as it stands, for a phone or a projector. Public when the club is
public, else for its members.

The board asks again with htmx, sending the revision it shows (`?since=`): every second, or, with
push (club.lib.live_push), when the night's channel says something changed and every 30 s in
case a message was lost. When the cache holds that revision as the board's mark
(club.lib.live_marks), nothing changed: the answer is an empty 204 (or a 304 for If-None-Match)
before the session, the club or the database is read. Otherwise the board is read as any page
is, after the access checks, and its revision becomes the mark.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods

from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.lib import live_marks, live_push
from club.lib.htmx import htmx
from club.play.queries import night_access
from club.play.queries.live_night import live_board, revision

POLL_SECONDS = live_marks.POLL_SECONDS


def _shows(request: HttpRequest, rev: str | None) -> bool:
    """Whether the asker already shows this revision."""
    if not rev:
        return False
    return request.GET.get("since") == rev or f'"{rev}"' in request.headers.get("If-None-Match", "")


def _unchanged(request: HttpRequest, rev: str | None, private: bool) -> HttpResponse:
    # htmx leaves the board as it is on a 204; a browser or proxy revalidating gets a 304.
    response = HttpResponse(status=204 if htmx(request) else 304)
    response["ETag"] = f'"{rev}"'
    patch_cache_control(response, no_cache=True, private=private)
    return response


@require_http_methods(["GET", "HEAD"])
def live_night(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    mark = live_marks.current(live_marks.board(night_id))
    if _shows(request, mark):
        # Only someone who was shown the board knows its revision (a hash), so answering before
        # the access checks tells an outsider nothing. Private: the club's setting is not read.
        return _unchanged(request, mark, private=True)
    return _live_board(request, slug=slug, night_id=night_id)


@login_if_hidden
def _live_board(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    club = access.get_club(request, slug)
    night = night_access.get_night(request, club, night_id)
    stamp = live_marks.stamp(night.pk)  # before the read: a save committing now makes it stale
    rev = revision(night)
    if not night.is_closed:
        live_marks.remember(live_marks.board(night.pk), night.pk, stamp, rev)
    if _shows(request, rev):
        return _unchanged(request, rev, private=not club.is_public)
    template = "play/nights/live.html"
    if htmx(request) and not htmx(request).boosted:
        template += "#board"
    context = {
        "club": club,
        "night": night,
        "board": live_board(night, rev),
        "tournament": getattr(night, "tournament", None),
        "poll_seconds": POLL_SECONDS,
        "live_url": live_push.subscriber_url(live_push.night_channel(night.pk)),
    }
    response = render(request, template, context)
    response["ETag"] = f'"{rev}"'
    # Always ask again: the board is live, never served stale from a cache.
    patch_cache_control(response, no_cache=True, private=not club.is_public)
    return response


urlpatterns = [
    path("nights/<int:night_id>/live/", live_night, name="live_night"),
]
