"""Publishing says who gets no results email: the players with no address (named, with the way to
the Players page where addresses are added) and, apart, those who unsubscribed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club.money.services import publish as publish_service
from club.play.services.nights import close_night
from tests.kits.ledger_kit import give_emails, play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


@pytest.fixture
def closed(night, table4, table5, players, secretary):
    """Both tables played a hand. Ann, Eve and Fay have no address, Cat unsubscribed; Ivy has
    none either but sat out table 2's only hand: she has no result, so nothing is said of her."""
    play(table4, secretary, players[1], "solo", 6)
    play(table5, secretary, players[4], "misere", 0)
    give_emails(players, opted_out=("Cat",))
    for p in (players[0], players[4], players[5], players[8]):
        p.email = ""
        p.save()
    close_night(night, secretary)
    return night


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def test_the_publish_page_names_who_has_no_address_and_who_unsubscribed(
    closed, client, secretary, club, players, django_assert_max_num_queries
):
    client.force_login(secretary)
    url = reverse("night_publish", args=[club.slug, closed.pk])
    with django_assert_max_num_queries(12):
        html = client.get(url).content.decode()
    page = _text(html)
    assert "3 players have no address and get no email: Ann, Eve and Fay." in page
    assert "1 player unsubscribed from the results emails and gets none: Cat." in page
    assert f'href="{reverse("player_list", args=[club.slug])}"' in html
    assert f'href="{reverse("player_edit", args=[club.slug, players[0].pk])}"' in html
    assert "Ivy" not in page


def test_the_success_message_says_it_too(closed, client, secretary, club):
    client.force_login(secretary)
    response = client.post(reverse("night_publish", args=[club.slug, closed.pk]), follow=True)
    html = response.content.decode()
    page = _text(html)
    assert "results are published: final. 4 players will be emailed their result." in page
    assert "3 players have no address and get no email: Ann, Eve and Fay" in page
    assert "1 player unsubscribed and gets none: Cat." in page
    assert f'<a href="{reverse("player_list", args=[club.slug])}">the Players page</a>' in html


def test_nobody_left_out_says_nothing_of_it(night, table4, players, secretary, client, club):
    play(table4, secretary, players[1], "solo", 6)
    give_emails(players)
    close_night(night, secretary)
    client.force_login(secretary)
    page = _text(client.get(reverse("night_publish", args=[club.slug, night.pk])).content.decode())
    assert "4 players with an email address will be sent" in page
    assert "no address" not in page and "unsubscribed" not in page
    response = client.post(reverse("night_publish", args=[club.slug, night.pk]), follow=True)
    page = _text(response.content.decode())
    assert "4 players will be emailed their result." in page and "no address" not in page


def test_a_name_is_escaped_in_the_message(closed, client, secretary, club, players):
    ann = players[0]
    ann.name = "Ann <b>"
    ann.save()
    client.force_login(secretary)
    response = client.post(reverse("night_publish", args=[club.slug, closed.pk]), follow=True)
    assert "Ann &lt;b&gt;" in response.content.decode()
    assert "Ann <b>" not in response.content.decode()
