"""The score cards anonymous visitors read: made once per count of hands, never hiding a new table,
always fresh for members, and a rows count int() cannot read still gives cards."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- score cards for anonymous visitors ----------------------------------------------------------


@pytest.fixture
def renders(monkeypatch):
    """Count the score cards actually laid out (the slow part)."""
    from club.play.views import sheets

    calls = []
    real = sheets.render_pdf

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets, "render_pdf", counting)
    return calls


def test_anonymous_score_cards_are_made_once_per_hands_count(client, club, night, renders):
    club.is_public = True
    club.save()
    url = reverse("score_cards", args=[club.slug, night.pk])
    first = client.get(url + "?hands=60")
    for _ in range(5):
        again = client.get(url + "?hands=60")
        assert again.content == first.content
        assert again["Content-Disposition"] == first["Content-Disposition"]
    assert len(renders) == 1
    client.get(url + "?hands=999")  # capped at 60: the same cards
    assert len(renders) == 1
    client.get(url + "?hands=12")
    assert len(renders) == 2


def test_new_tables_are_not_hidden_by_cached_cards(client, club, night, players, renders):
    from club.play.services.night_setup import edit_tables

    club.is_public = True
    club.save()
    url = reverse("score_cards", args=[club.slug, night.pk])
    client.get(url)
    table1, table2 = night.tables.order_by("number")
    edit_tables(night, [(table1, players[:4], 0), (table2, players[4:7], 0)])
    client.get(url)
    assert len(renders) == 2


def test_members_always_get_fresh_cards(client, club, night, viewer, renders):
    client.force_login(viewer)
    url = reverse("score_cards", args=[club.slug, night.pk])
    client.get(url)
    client.get(url)
    assert len(renders) == 2


# -- numbers in a query string that int() cannot read --------------------------------------------

# "²" is a digit to str.isdigit() but not to int(); 5,000 digits are more than int() reads.
ODD_NUMBERS = ("²", "9" * 5000, "99999999999999999999999")


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_an_odd_hand_number_on_the_form_draws_the_new_hand_form(client, secretary, table4, value):
    client.force_login(secretary)
    url = reverse("hand_form", args=[table4.night.season.club.slug, table4.pk])
    response = client.get(f"{url}?hand={value}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Hand 1" in response.content.decode()


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_an_odd_rows_count_on_the_score_cards_gives_cards(client, club, night, value, renders):
    club.is_public = True
    club.save()
    url = reverse("score_cards", args=[club.slug, night.pk])
    response = client.get(f"{url}?hands={value}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
