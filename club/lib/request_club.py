"""The club a request turned out to be about, for its log line
(club/operations/logs/request_log.py)."""

from __future__ import annotations

from django.http import HttpRequest


def note_club(request: HttpRequest, slug: str) -> None:
    """For URLs that do not name the club (a table link): the club the request turned out to be
    about, for its log line."""
    # The request carries its club and id to the log line.
    request.club_slug = slug  # type: ignore[attr-defined]
