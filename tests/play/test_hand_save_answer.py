"""A save answers with what changed, in one pass and a fixed number of queries: the new row, the
totals and the next deal (the form stays on the page), whatever the length of the sheet; a
correction or a deletion the rows from the changed hand on. A hand deleted at the table and then
sent again from a phone's offline queue is not recorded again."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse

from club.play.models import Hand
from club.play.services import table_links as link_service
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand

HTMX = {"HTTP_HX_REQUEST": "true"}
# The link with its table's seats (one read), the link's write limit (one statement: without
# Redis it is counted in the database); in the save's transaction the night (SQLite: BEGIN
# IMMEDIATE has taken its one write lock; PostgreSQL: share locks on the night, season and rule
# sets, then the table's row), the table's state, the hand, its score lines, its grade backlog
# and its audit event; and the savepoint around them (the test's own transaction). No task is
# queued: the worker finds the grades' backlog itself.
LINK_SAVE_QUERIES = {"sqlite": 10, "postgresql": 14}
# A member's route reads the session, the user, the club, the membership, and the table with its
# seats (one read) instead, and counts no write limit.
MEMBER_SAVE_QUERIES = {"sqlite": 13, "postgresql": 17}


def solo(seats, n: int, **extra) -> dict[str, object]:
    return {
        "dealer": seats[(n - 1) % 4].pk,
        "contract": "solo",
        "declarer": seats[n % 4].pk,
        "tricks": 4 + n % 5,
        "expected_number": n,
        "client_id": str(uuid.uuid4()),
        **extra,
    }


def row_ids(html: str) -> list[str]:
    return re.findall(r'<tr id="hand-(\d+)"', html)


@pytest.fixture
def link_url(table4, secretary):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    return reverse("link_create", args=[link.token])


@pytest.mark.parametrize("earlier_hands", [1, 39])
def test_a_saves_answer_is_the_new_row_the_totals_and_the_next_deal_in_fixed_queries(
    earlier_hands, link_url, table4, players, secretary, django_assert_max_num_queries
):
    seats = players[:4]
    for n in range(1, earlier_hands + 1):
        record_hand(
            table4,
            HandEntry(dealer=seats[(n - 1) % 4], contract="solo", declarer=seats[n % 4], tricks=6),
            secretary,
        )
    number = earlier_hands + 1
    client = Client()
    with django_assert_max_num_queries(LINK_SAVE_QUERIES[connection.vendor]):
        response = client.post(link_url, solo(seats, number), **HTMX)
    assert response["X-Hand-Outcome"] == "saved"
    html = response.content.decode()
    assert row_ids(html) == [str(number)]  # the new row alone, not the sheet
    assert 'hx-swap-oob="beforeend:#sheet-rows"' in html
    assert f"Totals after {number} hands" in html
    # The form stays on the page: not drawn again; the next deal comes in headers.
    assert 'id="hand-form"' not in html and response["HX-Reswap"] == "none"
    assert response["X-Next-Number"] == str(number + 1)
    assert response["X-Next-Dealer"] == str(seats[number % 4].pk)
    assert response["X-Next-Out"] == ""  # a table of four: nobody sits out
    assert f"Hand {number} saved: Solo by" in html
    assert len(response.content) < 4096
    # The ETag the answer gives is the sheet's own, so the next poll answers 304.
    etag = response["X-Sheet-ETag"]
    cache.clear()
    poll = client.get(link_url.replace("hands/", ""), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert poll.status_code == 304


def test_the_answer_does_not_grow_with_the_sheet(link_url, table4, players):
    client = Client()
    seats = players[:4]
    sizes = {}
    for n in range(1, 31):
        cache.clear()  # the link's write limit
        response = client.post(link_url, solo(seats, n), **HTMX)
        assert response.status_code == 200, response.content[:300]
        sizes[n] = len(response.content)
    # Hand 1 brings the whole (one-row) sheet; from hand 2 on the answer is one row: its size
    # moves only with the text of that hand.
    assert max(sizes[n] for n in range(2, 31)) - min(sizes[n] for n in range(2, 31)) < 400
    assert Hand.objects.filter(table=table4).count() == 30


def test_a_members_save_also_issues_fixed_queries(
    client, scorer, table4, players, django_assert_max_num_queries
):
    client.force_login(scorer)
    url = reverse("hand_create", args=["crown", table4.pk])
    client.post(url, solo(players[:4], 1), **HTMX)
    with django_assert_max_num_queries(MEMBER_SAVE_QUERIES[connection.vendor]):
        response = client.post(url, solo(players[:4], 2), **HTMX)
    assert response["X-Hand-Outcome"] == "saved"


def test_a_correction_sends_the_rows_from_the_corrected_hand_on(
    client, scorer, table4, players, secretary
):
    seats = players[:4]
    for n in range(1, 7):
        record_hand(
            table4,
            HandEntry(dealer=seats[(n - 1) % 4], contract="solo", declarer=seats[n % 4], tricks=6),
            secretary,
        )
    client.force_login(scorer)
    hand = Hand.objects.get(table=table4, number=4)
    data = solo(seats, 4, tricks=2, version=hand.version)
    response = client.post(reverse("hand_edit", args=["crown", hand.pk]), data, **HTMX)
    html = response.content.decode()
    assert row_ids(html) == ["4", "5", "6"]  # their running totals moved; 1 to 3 did not
    assert "Totals after 6 hands" in html
    response = client.post(
        reverse("hand_delete", args=["crown", Hand.objects.get(table=table4, number=5).pk]),
        {"version": 1},
        **HTMX,
    )
    html = response.content.decode()
    assert row_ids(html) == ["5", "6"]  # hand 6 is now hand 5; the old last row goes
    assert '<tr id="hand-6" hx-swap-oob="delete">' in html


def test_a_hand_deleted_at_the_table_is_not_recorded_again_when_resent(
    link_url, table4, players, client, scorer
):
    seats = players[:4]
    phone = Client()
    entry = solo(seats, 1)
    assert phone.post(link_url, entry, **HTMX)["X-Hand-Outcome"] == "saved"
    hand = Hand.objects.get(table=table4)
    client.force_login(scorer)
    client.post(reverse("hand_delete", args=["crown", hand.pk]), {"version": 1}, **HTMX)
    assert not Hand.objects.exists()
    cache.clear()
    # The phone's offline queue sends the same entry again (its reply was lost, say).
    response = phone.post(link_url, entry, **HTMX)
    assert response.status_code == 409
    assert response["X-Hand-Outcome"] == "deleted"
    assert "was saved from this entry and then deleted at the table" in response.content.decode()
    assert not Hand.objects.exists()
