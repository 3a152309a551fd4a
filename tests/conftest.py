"""Shared fixtures: a club with a secretary, a scorer and a viewer; an outsider who is secretary of
another club; a season under the Hoyle preset; an open night with a table of 4 and one of 5."""

from __future__ import annotations

import datetime as dt

import pytest

from club.clubs.models import Club, Membership, Player, Role


@pytest.fixture
def club(db):
    return Club.objects.create(name="Crown & Anchor Solo School", slug="crown")


@pytest.fixture
def other_club(db):
    return Club.objects.create(name="Red Lion Solo", slug="redlion")


def _user(django_user_model, username, club=None, role=None):
    # Every account has an email, as sign-up and invitations make them (a backup restores an
    # account only with one: its owner sets a password through the reset email).
    user = django_user_model.objects.create_user(
        username=username, email=f"{username}@example.org", password="pw-" + username
    )
    if club is not None:
        Membership.objects.create(user=user, club=club, role=role)
    return user


@pytest.fixture
def secretary(django_user_model, club):
    return _user(django_user_model, "sec", club, Role.SECRETARY)


@pytest.fixture
def scorer(django_user_model, club):
    return _user(django_user_model, "scorer", club, Role.SCORER)


@pytest.fixture
def viewer(django_user_model, club):
    return _user(django_user_model, "viewer", club, Role.VIEWER)


@pytest.fixture
def outsider(django_user_model, other_club):
    """Secretary of another club: must never see or change this club's private data."""
    return _user(django_user_model, "outsider", other_club, Role.SECRETARY)


@pytest.fixture
def players(club):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    return [Player.objects.create(club=club, name=n) for n in names]


@pytest.fixture
def hoyle(club):
    from club.clubs.services.setup import rule_set_from_preset

    return rule_set_from_preset(club, "hoyle", "Hoyle sixpences")


@pytest.fixture
def season_now(club, hoyle):
    """A season whose dates contain today, whatever day the tests run (tonight's night)."""

    from club.clubs.models import Season

    today = club.today()
    return Season.objects.create(
        club=club,
        name="This season",
        start=today - dt.timedelta(days=30),
        end=today + dt.timedelta(days=30),
        rule_set=hoyle,
    )


@pytest.fixture
def season(club, hoyle):
    from club.clubs.models import Season

    return Season.objects.create(
        club=club,
        name="Winter 2026",
        start=dt.date(2026, 9, 1),
        end=dt.date(2027, 3, 31),
        rule_set=hoyle,
    )


@pytest.fixture
def night(season, players):
    """Table 1: Ann, Bob, Cat, Dan (Ann deals first). Table 2: Eve..Ivy, five players."""
    from club.play.services.night_setup import create_night

    return create_night(season, dt.date(2026, 11, 20), [(players[:4], 0), (players[4:9], 0)])


@pytest.fixture
def table4(night):
    return night.tables.get(number=1)


@pytest.fixture
def table5(night):
    return night.tables.get(number=2)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache (club/views/sheets caches anonymous score cards)."""
    from tests.kits.cache_kit import clear_own_keys

    clear_own_keys()
    yield


# A real Redis as Django's cache for one test (tests/kits/cache_kit.py).
from tests.kits.cache_kit import redis_cache  # noqa: E402, F401
