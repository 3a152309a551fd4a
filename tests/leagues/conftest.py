"""A league of clubs for the league tests: an organiser with no club, clubs each with a
secretary and players, and an outsider."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from club.clubs.models import Club, Membership, Player, Role
from club.leagues.models import League, LeagueClub
from club.leagues.services.leagues import NewLeague, create_league


@pytest.fixture
def organiser(db) -> User:
    return User.objects.create_user("organiser", "org@example.com", "pw-organiser-1")


def make_club(name: str, players: int = 6) -> Club:
    """A club with a secretary `sec-<slug>` and `players` players named '<Name> player N'."""
    club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    secretary = User.objects.create_user(f"sec-{club.slug}", f"sec@{club.slug}.example", "pw-sec-1")
    Membership.objects.create(club=club, user=secretary, role=Role.SECRETARY)
    Player.objects.bulk_create(
        Player(club=club, name=f"{name} player {n}") for n in range(1, players + 1)
    )
    return club


@pytest.fixture
def league(organiser) -> League:
    return create_league(
        NewLeague(
            name="Granite City Whist League",
            season_start=dt.date(2027, 1, 8),
            season_end=dt.date(2027, 6, 25),
        ),
        organiser,
    )


@pytest.fixture
def five_clubs(league) -> list[LeagueClub]:
    """Five clubs that accepted the league's invitation."""
    entries = []
    for name in ["Aberdeen Athenaeum", "Bucksburn Crown", "Cults Arms", "Dyce Station", "Ellon"]:
        entries.append(
            LeagueClub.objects.create(
                league=league,
                club=make_club(name),
                status=LeagueClub.Status.ACCEPTED,
                answered_at=league.created_at,
            )
        )
    return entries
