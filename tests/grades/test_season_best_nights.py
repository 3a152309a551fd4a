"""A season's "best N nights" is at least one: the form says so, and the database refuses it too."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from club.clubs.models import Season
from tests.clubs.test_setup import season_data


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- best N nights -------------------------------------------------------------------------------


def test_best_zero_nights_is_refused_with_a_message(club, hoyle, secretary):
    url = reverse("season_create", args=[club.slug])
    response = client_for(secretary).post(url, season_data(hoyle, best_nights=0))
    assert response.status_code == 200
    assert "Count at least the best 1 night" in response.content.decode()
    assert not Season.objects.filter(name="Summer 2027").exists()
    # Blank still means every night counts.
    response = client_for(secretary).post(url, season_data(hoyle, best_nights=""))
    assert Season.objects.get(name="Summer 2027").best_nights is None


def test_the_database_refuses_best_zero_nights_too(club, hoyle):
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=club,
            name="Zero",
            start=dt.date(2027, 1, 1),
            end=dt.date(2027, 2, 1),
            rule_set=hoyle,
            best_nights=0,
        )
