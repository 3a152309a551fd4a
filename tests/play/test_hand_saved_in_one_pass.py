"""A save does its work once: walking one save of a new hand, through a table's link and on the
secretary's table page, the hand is scored once (under the night's lock, by the hand service)
and the hand form is built once (to read the fields); the answer draws no second form."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

import scoring
from club.play.forms.hands import HandForm
from club.play.models import Hand
from club.play.services import table_links as link_service

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def counted(monkeypatch):
    """Counts of the scoring core's score_hand and of hand forms built, while the test runs."""
    counts = {"scored": 0, "forms": 0}
    score_hand = scoring.score_hand
    form_init = HandForm.__init__

    def scoring_once(*args, **kwargs):
        counts["scored"] += 1
        return score_hand(*args, **kwargs)

    def building(self, *args, **kwargs):
        counts["forms"] += 1
        form_init(self, *args, **kwargs)

    monkeypatch.setattr(scoring, "score_hand", scoring_once)
    monkeypatch.setattr(HandForm, "__init__", building)
    return counts


def entry(seats, number: int) -> dict[str, object]:
    return {
        "dealer": seats[(number - 1) % 4].pk,
        "contract": "prop_cop",
        "declarer": seats[number % 4].pk,
        "partner": seats[(number + 1) % 4].pk,
        "tricks": 8,
        "expected_number": number,
        "client_id": str(uuid.uuid4()),
    }


def _walk(client, url, seats, counted) -> None:
    for number in (1, 2, 3):
        counted.update(scored=0, forms=0)
        response = client.post(url, entry(seats, number), **HTMX)
        assert response["X-Hand-Outcome"] == "saved", response.content[:300]
        assert counted == {"scored": 1, "forms": 1}, f"hand {number}: {counted}"
    assert Hand.objects.count() == 3


def test_a_save_through_a_tables_link_scores_once_and_builds_one_form(
    client, table4, players, secretary, counted
):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    _walk(client, reverse("link_create", args=[link.token]), players[:4], counted)


def test_a_save_on_the_secretarys_page_scores_once_and_builds_one_form(
    client, table4, players, secretary, counted
):
    client.force_login(secretary)
    _walk(client, reverse("hand_create", args=["crown", table4.pk]), players[:4], counted)


def test_a_refused_entry_is_scored_once_and_says_why(client, table4, players, secretary, counted):
    """The scoring core refuses the entry (checked once, by the hand service): the page says why
    beside the form, and nothing is written."""
    client.force_login(secretary)
    ann, bob, cat, dan = players[:4]
    bad = entry(players[:4], 1) | {"contract": "misere", "tricks": "", "partner": ""}
    bad["penalty"] = next(iter(scoring.Penalty)).value
    bad["penalty_by"] = bob.pk  # the declarer: a penalty is a defender's
    response = client.post(reverse("hand_create", args=["crown", table4.pk]), bad, **HTMX)
    assert response.status_code == 422 and response["X-Hand-Outcome"] == "invalid"
    assert counted == {"scored": 1, "forms": 1}
    assert "Not saved" in response.content.decode()
    assert not Hand.objects.exists()
