"""A league's fixtures: generated as a round robin for its playing clubs (scoring.league_fixtures),
one round a week from the season's first day (so on its weekday), and moved one at a time by the
organiser. No club plays twice on one date and every fixture falls in the season. Each change is
in the league's log.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from club.clubs.models import AuditEvent
from club.leagues.models import Fixture, League, LeagueClub
from club.leagues.services.leagues import log
from scoring.league_fixtures import round_robin, rounds_a_cycle

WEEK = dt.timedelta(days=7)


class FixtureError(Exception):
    """The fixtures cannot be made or moved so; the message says why."""


def playing(league: League) -> list[LeagueClub]:
    """The clubs that accepted, by name: the order the round robin numbers them in."""
    return list(
        league.entries.filter(status=LeagueClub.Status.ACCEPTED)
        .select_related("club")
        .order_by("club__name", "pk")
    )


def played(league: League) -> int:
    """How many fixtures have a night opened or a card: they cannot be generated again."""
    return league.fixtures.filter(Q(night__isnull=False) | Q(card__isnull=False)).distinct().count()


def _fmt(date: dt.date) -> str:
    return f"{date:%a} {date.day} {date:%b %Y}"


def generate(league: League, by: User | None) -> list[Fixture]:
    """Every fixture of the season, for the clubs playing now. Fixtures made before are replaced
    only while none of them has been played (a night opened or a card); otherwise refused."""
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()
        entries = playing(league)
        if len(entries) < 2:
            raise FixtureError("A league needs at least two clubs that accepted to make fixtures.")
        before = league.fixtures.count()
        if before:
            started = played(league)
            if started:
                raise FixtureError(
                    f"{started} fixture(s) have been played, so the fixtures cannot be made "
                    "again: move a fixture's date instead."
                )
        per_cycle = rounds_a_cycle(len(entries))
        meetings = round_robin(len(entries), league.meetings)
        last = league.season_start + WEEK * (league.meetings * per_cycle - 1)
        if last > league.season_end:
            raise FixtureError(
                f"{league.meetings * per_cycle} weekly rounds from {_fmt(league.season_start)} "
                f"end on {_fmt(last)}, after the season ends on {_fmt(league.season_end)}: "
                "lengthen the season or meet fewer times."
            )
        league.fixtures.all().delete()
        made = Fixture.objects.bulk_create(
            Fixture(
                league=league,
                cycle=m.cycle,
                round=m.round,
                date=league.season_start + WEEK * ((m.cycle - 1) * per_cycle + m.round - 1),
                home=entries[m.home],
                away=entries[m.away],
            )
            for m in meetings
        )
        log(
            league,
            by,
            AuditEvent.Action.UPDATE if before else AuditEvent.Action.CREATE,
            "Fixtures made again" if before else "Fixtures made",
            before={"fixtures": before} if before else None,
            after={
                "fixtures": len(made),
                "clubs": [e.club.name for e in entries],
                "first": league.season_start.isoformat(),
                "last": last.isoformat(),
            },
        )
    return made


def clash(fixture: Fixture, date: dt.date) -> Fixture | None:
    """Another fixture of the league on `date` for either club of this one."""
    clubs = [fixture.home_id, fixture.away_id]
    return (
        Fixture.objects.filter(league_id=fixture.league_id, date=date)
        .exclude(pk=fixture.pk)
        .filter(Q(home_id__in=clubs) | Q(away_id__in=clubs))
        .select_related("home__club", "away__club")
        .first()
    )


def move(fixture: Fixture, date: dt.date, by: User | None) -> Fixture:
    """The fixture on another date in the season, unless either club already plays then or its
    night has been opened."""
    with transaction.atomic():
        locked = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("league", "home__club", "away__club")
            .get(pk=fixture.pk)
        )
        league = locked.league
        if locked.night_id is not None:
            raise FixtureError(f"{locked.home.club} v {locked.away.club} has been opened.")
        if not league.season_start <= date <= league.season_end:
            raise FixtureError(
                f"{_fmt(date)} is outside the season ({_fmt(league.season_start)} to "
                f"{_fmt(league.season_end)})."
            )
        other = clash(locked, date)
        if other is not None:
            both = {locked.home_id, locked.away_id} & {other.home_id, other.away_id}
            who = " and ".join(
                sorted(str(e.club) for e in (other.home, other.away) if e.pk in both)
            )
            raise FixtureError(
                f"{who} already {'play' if len(both) > 1 else 'plays'} on {_fmt(date)}: "
                f"{other.home.club} v {other.away.club}."
            )
        was = locked.date
        if was == date:
            return locked
        locked.date = date
        locked.save(update_fields=["date"])
        log(
            league,
            by,
            AuditEvent.Action.UPDATE,
            f"Fixture {locked.home.club} v {locked.away.club}",
            before={"date": was.isoformat()},
            after={"date": date.isoformat()},
        )
    return locked
