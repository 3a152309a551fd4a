"""A league's fixtures: generated for the clubs that accepted, weekly in the season, made again
only while none is played, and moved by the organiser with clashes refused by name."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict

import pytest

from club.clubs.models import AuditEvent
from club.leagues.models import Fixture, LeagueClub, MatchCard
from club.leagues.services import fixtures as fixture_service
from club.leagues.services.fixtures import FixtureError
from tests.leagues.conftest import make_club


def test_five_clubs_meeting_twice_make_twenty_weekly_fixtures(league, five_clubs, organiser):
    LeagueClub.objects.create(league=league, club=make_club("Invited Only"))  # not accepted
    made = fixture_service.generate(league, organiser)
    assert len(made) == 20 == Fixture.objects.filter(league=league).count()
    fixtures = list(Fixture.objects.filter(league=league).select_related("home", "away"))
    # Each pair once at each home.
    assert Counter((f.home_id, f.away_id) for f in fixtures) == Counter(
        {(a.pk, b.pk): 1 for a in five_clubs for b in five_clubs if a != b}
    )
    # Ten rounds, a week apart on the season's first weekday; no club twice on a date.
    dates = sorted({f.date for f in fixtures})
    assert dates == [dt.date(2027, 1, 8) + dt.timedelta(weeks=w) for w in range(10)]
    by_date: dict[dt.date, list[int]] = defaultdict(list)
    for f in fixtures:
        by_date[f.date] += [f.home_id, f.away_id]
    assert all(len(clubs) == len(set(clubs)) == 4 for clubs in by_date.values())
    # Each club sits out one date of each cycle.
    for cycle in (1, 2):
        cycle_dates = {f.date for f in fixtures if f.cycle == cycle}
        for entry in five_clubs:
            plays = {
                f.date for f in fixtures if f.cycle == cycle and entry.pk in (f.home_id, f.away_id)
            }
            assert len(cycle_dates - plays) == 1
    event = AuditEvent.objects.get(club=league.host_club, subject="Fixtures made")
    assert event.user == organiser and event.after is not None
    assert event.after["fixtures"] == 20


def test_fixtures_are_made_again_only_while_none_is_played(league, five_clubs, organiser):
    fixture_service.generate(league, organiser)
    first_ids = set(Fixture.objects.values_list("pk", flat=True))
    fixture_service.generate(league, organiser)
    assert len(set(Fixture.objects.values_list("pk", flat=True)) - first_ids) == 20
    assert AuditEvent.objects.filter(subject="Fixtures made again").count() == 1
    MatchCard.objects.create(fixture=Fixture.objects.all()[0])
    with pytest.raises(FixtureError, match="1 fixture\\(s\\) have been played"):
        fixture_service.generate(league, organiser)
    assert Fixture.objects.count() == 20


def test_a_season_too_short_for_its_rounds_is_refused(league, five_clubs, organiser):
    league.season_end = dt.date(2027, 2, 1)
    league.save()
    with pytest.raises(
        FixtureError, match="10 weekly rounds from Fri 8 Jan 2027 end on Fri 12 Mar"
    ):
        fixture_service.generate(league, organiser)
    assert not Fixture.objects.exists()


def test_a_move_onto_a_clubs_other_fixture_is_refused_naming_the_clash(
    league, five_clubs, organiser
):
    fixture_service.generate(league, organiser)
    fixture = Fixture.objects.select_related("home__club", "away__club").first()
    assert fixture is not None
    other = (
        Fixture.objects.exclude(date=fixture.date)
        .filter(home=fixture.home)
        .exclude(away=fixture.away)
        .select_related("home__club", "away__club")
        .first()
    )
    assert other is not None
    with pytest.raises(FixtureError) as refused:
        fixture_service.move(fixture, other.date, organiser)
    assert str(refused.value).startswith(f"{fixture.home.club} already plays on ")
    assert f"{other.home.club} v {other.away.club}" in str(refused.value)
    with pytest.raises(FixtureError, match="outside the season"):
        fixture_service.move(fixture, dt.date(2027, 7, 1), organiser)
    free = dt.date(2027, 6, 1)
    fixture_service.move(fixture, free, organiser)
    fixture.refresh_from_db()
    assert fixture.date == free
    event = AuditEvent.objects.get(subject=f"Fixture {fixture.home.club} v {fixture.away.club}")
    assert event.before == {"date": "2027-01-08"} and event.after == {"date": "2027-06-01"}
