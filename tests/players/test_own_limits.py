"""A player's own link against a flood, and in the logs: lookups that find nothing are limited per
client (a 429 page past the limit), payments marked through one link per link, as a table's link
writes are; and no log line carries the token."""

from __future__ import annotations

import io
import logging

import pytest
from django.test import Client
from django.urls import reverse

from club.money.models import Debt, Settlement
from club.money.services import publish as publish_service
from club.play.services import player_links
from club.play.services.nights import close_night
from club.players.views import own as own_views
from club.players.views import own_money
from tests.kits.ledger_kit import play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


def test_a_flood_of_wrong_tokens_gets_a_429_page(players, monkeypatch):
    monkeypatch.setattr(own_views, "MISS_LIMIT", (3, 60))
    client = Client()
    for i in range(3):
        url = reverse("player_own", args=["crown", f"guess-{i:020d}"])
        assert client.get(url).status_code == 404
    refused = client.get(reverse("player_own", args=["crown", "guess-again-0000000000"]))
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    html = refused.content.decode()
    assert "Too many tries from here" in html and "ask the club's secretary" in html
    assert refused["Referrer-Policy"] == "no-referrer"
    # Another player's night counts as a miss too; the real page still opens for its holder.
    bob = players[1]
    good = reverse("player_own", args=["crown", player_links.token_for(bob)])
    assert client.get(good).status_code == 200


def test_a_players_page_opened_often_is_not_limited(players, monkeypatch):
    monkeypatch.setattr(own_views, "MISS_LIMIT", (3, 60))
    url = reverse("player_own", args=["crown", player_links.token_for(players[1])])
    client = Client()
    assert all(client.get(url).status_code == 200 for _ in range(6))


def test_payments_through_one_link_are_limited(night, table4, players, secretary, monkeypatch):
    monkeypatch.setattr(own_money, "WRITE_LIMIT", (2, 60))
    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    bob = players[1]
    token = player_links.token_for(bob)
    debts = list(Debt.objects.filter(payee=bob).order_by("pk"))
    client = Client()
    for debt in debts[:2]:
        url = reverse("player_own_pay", args=["crown", token, debt.pk])
        assert client.post(url, {"amount": "0.01"}).status_code == 302
    url = reverse("player_own_pay", args=["crown", token, debts[2].pk])
    refused = client.post(url, {"amount": "0.01"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert Settlement.objects.count() == 2


@pytest.fixture
def console():
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    written = io.StringIO()
    old = handler.setStream(written)
    yield written
    handler.setStream(old)


def test_no_log_line_carries_the_token(night, table4, players, secretary, console):
    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    bob = players[1]
    token = player_links.token_for(bob)
    client = Client()
    debt = Debt.objects.filter(payee=bob).first()
    assert client.get(reverse("player_own", args=["crown", token])).status_code == 200
    night_url = reverse("player_own_night", args=["crown", token, night.pk])
    assert client.get(night_url).status_code == 200
    assert client.get(reverse("player_own", args=["crown", token + "x"])).status_code == 404
    pay = reverse("player_own_pay", args=["crown", token, debt.pk])
    assert client.post(pay, {"amount": ""}).status_code == 302
    written = console.getvalue()
    assert "/own/" in written and "<token>" in written
    assert token not in written
