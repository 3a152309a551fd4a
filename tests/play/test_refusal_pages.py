"""Every refusal is a page of the app that says why (not Django's bare "403 Forbidden"), and
nothing is changed behind it."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from club.play.models import Hand
from club.play.services.nights import close_night
from tests.kits.ledger_kit import play

APP_PAGE = "Skip to main content"  # the app's own layout, which Django's bare pages lack


def test_a_viewers_post_to_a_closed_night_says_why(
    client, night, table4, players, secretary, viewer
):
    play(table4, secretary, players[1], "solo", 6)
    close_night(night, secretary)
    client.force_login(viewer)
    url = reverse("hand_create", args=[night.season.club.slug, table4.pk])
    response = client.post(url, {"contract": "solo"})
    page = response.content.decode()
    assert response.status_code == 403
    assert APP_PAGE in page and "<h1" in page
    assert "You are a viewer of Crown &amp; Anchor Solo School" in page
    assert "that is for its table scorers and secretaries" in page
    assert "Nothing was changed" in page
    assert Hand.objects.filter(table=table4).count() == 1


def test_a_scorer_at_a_secretarys_page_is_told_who_may(client, night, scorer):
    client.force_login(scorer)
    response = client.post(reverse("night_close", args=[night.season.club.slug, night.pk]))
    assert response.status_code == 403
    assert "You are a table scorer of" in response.content.decode()
    assert "that is for its secretaries" in response.content.decode()


def test_a_form_out_of_date_is_a_page_that_says_reload(night, secretary):
    """The CSRF check failing (a form kept open across a log-out) says what to do."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    response = client.post(reverse("night_close", args=[night.season.club.slug, night.pk]))
    page = response.content.decode()
    assert response.status_code == 403
    assert APP_PAGE in page and "reload the page" in page
    assert night.status == "open"


def test_a_page_that_is_not_there_is_a_page_of_the_app(client, secretary, club):
    client.force_login(secretary)
    response = client.get(reverse("night_detail", args=[club.slug, 999999]))
    assert response.status_code == 404
    assert APP_PAGE in response.content.decode()
    assert "There is nothing at /c/crown/nights/999999/" in response.content.decode()
