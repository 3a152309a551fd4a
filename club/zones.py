"""The club's own clock. The server runs in UTC; every date and time a club sees ("tonight", "closed
at 23:41", the emails, the sheets) is on its own zone (`Club.time_zone`).

A request about a club switches its zone on when the club is loaded (club/access.py and the
views of table links, cards and the door); a task, an email or a sheet made outside a request
wraps its work in `club_time(club)`. The middleware switches it off again around every request,
so a worker thread never carries one club's zone into the next club's page.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, wraps
from typing import Any, Protocol, TypeVar

from django import forms
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

# The IANA areas a place belongs to; the other names of the database (GB, US/Pacific, EST5EDT,
# Etc/GMT+5) are old aliases, still accepted when typed but not offered in the list.
AREAS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)

F = TypeVar("F", bound=Callable[..., Any])

ZoneChoices = list[tuple[str, str] | tuple[str, list[tuple[str, str]]]]


class HasZone(Protocol):
    @property
    def zone(self) -> zoneinfo.ZoneInfo: ...


@cache
def _zones_by_area() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    found: dict[str, list[tuple[str, str]]] = {area: [] for area in AREAS}
    for name in _known():
        area, _, place = name.partition("/")
        if area in found and place:
            # "America/Argentina/Buenos_Aires" -> "Argentina / Buenos Aires"
            found[area].append((name, place.replace("_", " ").replace("/", " / ")))
    return tuple(
        (area, tuple(sorted(places, key=lambda p: p[1])))
        for area, places in found.items()
        if places
    )


def zone_choices(current: str = "") -> ZoneChoices:
    """The zones to choose from, grouped by area for a <select> (UTC first). A club's current
    zone that is an old alias stays in the list, so that saving the form does not change it."""
    choices: ZoneChoices = [("UTC", "UTC")]
    choices += [(area, list(places)) for area, places in _zones_by_area()]
    offered = {"UTC"} | {name for _, places in _zones_by_area() for name, _ in places}
    if current and current not in offered:
        choices.insert(0, (current, current))
    return choices


@cache
def _known() -> frozenset[str]:
    # The time zone database is read from disk on each call (tens of milliseconds): once here.
    return frozenset(zoneinfo.available_timezones())


def is_known(name: str) -> bool:
    return name in _known()


class TimeZoneField(forms.ChoiceField):
    """A select of the IANA zones; a name not in the time zone database is refused in words a
    secretary understands (a typed-in or old alias that the database knows is kept)."""

    default_error_messages = {
        "invalid_choice": "%(value)s is not a time zone this server knows: choose the club's "
        "zone from the list, by its IANA name (e.g. Europe/London, America/Los_Angeles).",
    }

    def __init__(self, *, current: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("label", "Time zone")
        super().__init__(choices=zone_choices(current), **kwargs)

    def valid_value(self, value: Any) -> bool:
        return isinstance(value, str) and is_known(value)


def activate(club: HasZone) -> None:
    """From here to the end of the request, dates and times are the club's."""
    timezone.activate(club.zone)


@contextmanager
def club_time(club: HasZone) -> Iterator[None]:
    """Dates and times on the club's clock for a task, an email or a sheet made outside a page."""
    with timezone.override(club.zone):
        yield


def on_club_clock(club_of: Callable[..., HasZone]) -> Callable[[F], F]:
    """Run the decorated function on the club that `club_of(*args, **kwargs)` names: for work a
    task does for one club (an email, the sheet attached to it)."""

    def decorate(function: F) -> F:
        @wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with club_time(club_of(*args, **kwargs)):
                return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


class ClubTimeZoneMiddleware:
    """Each request starts on the server's zone (UTC) and leaves none behind: a thread that
    served Auckland's page must not show Los Angeles the next one on Auckland's clock."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
