"""Pages say things in the club's words: a preset's rule set by its title ("Hoyle", not the
key "hoyle"), a revoke hand's line with the tricks the revoke moved, the live board's
"refreshes every second", "1 table" and "2 tables"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.clubs.services.setup import rule_set_from_preset
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def sec_client(client, secretary):
    client.force_login(secretary)
    return client


def test_a_preset_rule_set_is_named_by_its_title_on_the_table_page(
    sec_client, club, season, table4
):
    season.rule_set = rule_set_from_preset(club, "hoyle")
    season.save()
    assert season.rule_set.name == "hoyle"
    page = sec_client.get(reverse("table_detail", args=[club.slug, table4.pk])).content.decode()
    assert " · Hoyle" in page and " · hoyle" not in page


def test_a_revoke_hands_line_says_the_tricks_came_from_the_revoke(
    sec_client, club, table4, players, secretary
):
    ann, bob = players[:2]
    dealer = next_hand(table4)["dealer"]
    entry = HandEntry(dealer=dealer, contract="solo", declarer=ann, tricks=5, revoke_by=bob)
    record_hand(table4, entry, secretary)
    page = sec_client.get(reverse("table_detail", args=[club.slug, table4.pk])).content.decode()
    assert "Made, 3 over (3 tricks from the revoke)" in page
    # The declarer's own revoke costs them tricks, and says so.
    dealer = next_hand(table4)["dealer"]
    entry = HandEntry(dealer=dealer, contract="solo", declarer=ann, tricks=7, revoke_by=ann)
    record_hand(table4, entry, secretary)
    page = sec_client.get(reverse("table_detail", args=[club.slug, table4.pk])).content.decode()
    assert "(3 tricks lost for the revoke)" in page


def test_the_live_board_refreshes_every_second_not_every_1_second(
    sec_client, club, night, monkeypatch
):
    from club.play.views import live

    monkeypatch.setattr(live, "POLL_SECONDS", 1)
    page = sec_client.get(reverse("live_night", args=[club.slug, night.pk])).content.decode()
    assert "refreshes every second" in page and "every 1 second" not in page
    monkeypatch.setattr(live, "POLL_SECONDS", 5)
    page = sec_client.get(reverse("live_night", args=[club.slug, night.pk])).content.decode()
    assert "refreshes every 5 seconds" in page


@pytest.mark.parametrize(
    ("items", "sentence"),
    [([], ""), (["Ann"], "Ann"), (["Ann", "Bob"], "Ann and Bob"), (["A", "B", "C"], "A, B and C")],
)
def test_a_list_is_written_as_a_sentence_writes_it(items, sentence):
    from club.lib.words import listed

    assert listed(items) == sentence
