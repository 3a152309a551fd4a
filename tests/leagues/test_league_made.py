"""A league is made with its own club, which nobody belongs to, holding its rule set and season."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from club.clubs.models import AuditEvent, Membership
from club.leagues.models import League
from club.leagues.services.leagues import LeagueError, NewLeague, create_league


def test_a_league_has_its_own_club_season_and_rule_set_and_logs_its_making(league, organiser):
    host = league.host_club
    assert not Membership.objects.filter(club=host).exists()
    assert not host.is_public
    season = host.seasons.get()
    assert (season.start, season.end) == (league.season_start, league.season_end)
    assert season.rule_set.club == host
    assert AuditEvent.objects.filter(club=host, user=organiser, subject="League made").exists()
    assert league.tie_break_keys == ["aggregate", "won"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players_a_side": 5}, "even"),
        ({"season_end": dt.date(2026, 1, 1)}, "season must end"),
        ({"points_tie": 4}, "win must be worth"),
        ({"tie_breaks": ["coin"]}, "Unknown tie-break"),
    ],
)
def test_a_league_with_impossible_rules_is_refused_with_the_reason(organiser, change, message):
    fields = {
        "name": "Odd League",
        "season_start": dt.date(2027, 1, 1),
        "season_end": dt.date(2027, 6, 1),
    }
    with pytest.raises(LeagueError, match=message):
        create_league(NewLeague(**(fields | change)), organiser)
    assert not League.objects.exists()


def test_the_database_refuses_an_odd_side(league):
    with pytest.raises(IntegrityError), transaction.atomic():
        League.objects.filter(pk=league.pk).update(players_a_side=7)
