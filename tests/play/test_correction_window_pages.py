"""A closed night inside its correction window: the secretary corrects a hand, deletes one and
adds a missed one from the pages themselves (the table page said so and linked "Edit hand N",
but those pages showed no form). Closing a night with a table that has no hands warns first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club.play.models import Hand, Night
from club.play.services.nights import close_night
from tests.kits.ledger_kit import play


@pytest.fixture
def provisional(night, table4, players, secretary):
    """Table 1 has two hands; the night is closed and still in its 30-minute window."""
    ann, bob, cat, dan = players[:4]
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "misere", 0)
    close_night(night, secretary)
    night.refresh_from_db()
    assert night.is_provisional
    return night


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _csrf_free_fields(html: str) -> dict[str, str]:
    """The hidden fields of the page's hand form (version, expected number, client id)."""
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', html))


def test_the_edit_page_shows_the_secretary_a_form_that_saves(client, provisional, secretary):
    client.force_login(secretary)
    hand = Hand.objects.get(table__night=provisional, number=1)
    url = reverse("hand_edit", args=[provisional.season.club.slug, hand.pk])
    page = client.get(url).content.decode()
    assert 'id="hand-form"' in page and "Save correction" in page
    assert "Night closed" not in page
    # The page says why the secretary may still change a closed night.
    assert "as secretary you may still correct it" in page
    fields = _csrf_free_fields(page)
    response = client.post(
        url,
        {
            **fields,
            "dealer": hand.dealer_id,
            "contract": "solo",
            "declarer": hand.declarer_id,
            "tricks": 4,
        },
    )
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.tricks == 4 and not hand.made


def test_the_delete_page_asks_and_deletes(client, provisional, secretary):
    client.force_login(secretary)
    hand = Hand.objects.get(table__night=provisional, number=1)
    url = reverse("hand_delete", args=[provisional.season.club.slug, hand.pk])
    page = client.get(url).content.decode()
    assert "Delete hand 1?" in page and ">Delete hand 1</button>" in page
    response = client.post(url, _csrf_free_fields(page))
    assert response.status_code == 302
    assert list(Hand.objects.filter(table__night=provisional).values_list("number", flat=True)) == [
        1
    ]


def test_the_table_page_offers_the_missed_hand(client, provisional, table4, secretary, players):
    client.force_login(secretary)
    url = reverse("table_detail", args=[provisional.season.club.slug, table4.pk])
    page = client.get(url).content.decode()
    assert 'id="hand-form"' in page and "Save hand 3" in page
    response = client.post(
        reverse("hand_create", args=[provisional.season.club.slug, table4.pk]),
        {
            **_csrf_free_fields(page),
            "dealer": players[2].pk,
            "contract": "solo",
            "declarer": players[3].pk,
            "tricks": 5,
        },
    )
    assert response.status_code == 302
    assert Hand.objects.filter(table=table4).count() == 3


def test_a_scorer_still_sees_the_closed_notice_and_no_form(client, provisional, table4, scorer):
    client.force_login(scorer)
    hand = Hand.objects.get(table__night=provisional, number=1)
    page = client.get(reverse("hand_edit", args=[provisional.season.club.slug, hand.pk]))
    assert page.status_code == 409
    assert 'id="hand-form"' not in page.content.decode()
    assert "A secretary must reopen it" in page.content.decode()


def test_closing_a_night_with_a_table_of_no_hands_warns_first(
    client, night, table4, players, secretary
):
    """Table 2 (five players) has no hands: the confirmation names it before anything closes."""
    play(table4, secretary, players[1], "solo", 6)
    client.force_login(secretary)
    url = reverse("night_close", args=[night.season.club.slug, night.pk])
    page = _text(client.get(url).content.decode())
    assert "Table 2 has no hands (Eve, Fay, Gus, Hal, Ivy)" in page
    assert Night.objects.get(pk=night.pk).status == Night.Status.OPEN


def test_closing_a_night_whose_tables_all_have_hands_does_not_warn(
    client, night, table4, table5, players, secretary
):
    play(table4, secretary, players[1], "solo", 6)
    play(table5, secretary, players[5], "solo", 6)
    client.force_login(secretary)
    page = client.get(reverse("night_close", args=[night.season.club.slug, night.pk]))
    assert "no hands" not in page.content.decode()
