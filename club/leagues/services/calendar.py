"""A club's calendar feed of its league fixtures: an unguessable address (a `CalendarFeed`, an
issued token as a table's link is: club.play.services.tokens), one live a club, issued the first
time its secretary asks for it and re-issued on request (the old address is then a 404). The feed
is iCalendar: one all-day event per fixture, whose UID stays the same when its date moves, so a
calendar that subscribed moves the event rather than adding another.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from icalendar import Calendar, Event

from club.leagues.models import CalendarFeed, Fixture, LeagueClub
from club.play.services import tokens


def holder(entry: LeagueClub) -> tokens.Holder[CalendarFeed]:
    league = entry.league
    return tokens.Holder(
        club_id=league.host_club_id,
        subject=f"Calendar feed of {entry.club}",
        live=CalendarFeed.objects.filter(entry=entry),
        fresh=lambda user: CalendarFeed(entry=entry, issued_by=user, **CalendarFeed.salted()),
        lock=LeagueClub.objects.filter(pk=entry.pk),
    )


def feed_of(entry: LeagueClub, user: User | None) -> CalendarFeed:
    """The club's live feed, issued now if it has none."""
    live = CalendarFeed.objects.filter(entry=entry, revoked_at=None).first()
    if live is not None:
        return live
    try:
        with transaction.atomic():
            return tokens.issue(holder(entry), user)
    except IntegrityError:
        # Another secretary's page issued it at the same moment.
        return CalendarFeed.objects.get(entry=entry, revoked_at=None)


def reissue(entry: LeagueClub, user: User | None) -> CalendarFeed:
    """A new address for the club's feed; the old one stops working."""
    return tokens.reissue(holder(entry), user)


def find(slug: str, token: str) -> CalendarFeed | None:
    """The live feed the token names in the league of `slug`; None for anything else."""
    live = CalendarFeed.objects.filter(entry__league__slug=slug).select_related(
        "entry__league", "entry__club"
    )
    return tokens.find(live, token)


def fixtures_of(entry: LeagueClub) -> QuerySet[Fixture]:
    """The club's fixtures, home and away, by date."""
    return (
        Fixture.objects.filter(Q(home=entry) | Q(away=entry))
        .select_related("home__club", "away__club")
        .order_by("date", "id")
    )


def ics(entry: LeagueClub, host: str) -> bytes:
    """The club's fixtures as an iCalendar file. `host` makes each event's UID unique to this
    server (RFC 5545 asks for a UID that is unique everywhere)."""
    league = entry.league
    fixtures = fixtures_of(entry)
    calendar = Calendar()
    calendar.add("prodid", "-//Solo Whist club//league fixtures//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{league.name}: {entry.club.name}")
    stamp = dt.datetime.now(dt.UTC).replace(microsecond=0)
    for fixture in fixtures:
        event = Event()
        event.add("uid", f"league-fixture-{fixture.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", fixture.date)
        event.add("summary", f"{fixture.home.club.name} v {fixture.away.club.name}")
        event.add("location", fixture.home.club.name)
        calendar.add_component(event)
    data: bytes = calendar.to_ical()
    return data
