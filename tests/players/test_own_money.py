"""Money by a player's own link: the payee marks a debt owed to him paid (a settlement row saying
it came through his own link); a debtor's link marks nothing; a reopened night's debts wait; the
statement by his link carries what he owes and is owed, and to whom. Read back with pdftotext."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.money.models import Debt, Settlement
from club.money.services import publish as publish_service
from club.play.services import player_links
from club.play.services.nights import close_night, reopen_night
from tests.kits.ledger_kit import play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


@pytest.fixture
def closed(night, table4, players, secretary):
    """Bob makes a solo at table 1: Ann, Cat and Dan each owe him 6p."""
    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    night.refresh_from_db()
    return night


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()


def pay_url(player, debt):
    token = player_links.token_for(player)
    return reverse("player_own_pay", args=[player.club.slug, token, debt.pk])


def page_url(player):
    return reverse("player_own", args=[player.club.slug, player_links.token_for(player)])


def test_the_payee_marks_a_debt_paid_through_his_page(closed, players):
    ann, bob = players[0], players[1]
    debt = Debt.objects.get(payer=ann, payee=bob)
    client = Client()
    response = client.post(pay_url(bob, debt), {"amount": ""}, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ann paid you £0.06." in html
    paid = Settlement.objects.get(debt=debt)
    assert paid.amount == 6 and paid.kind == "paid" and paid.by is None
    assert paid.via == "Bob's own link"
    assert AuditEvent.objects.filter(subject__contains="Ann paid Bob").exists()
    # Now Ann owes nothing: her page says so, and his lists the payment marked without a login.
    assert "Marked paid to you without your login" in html
    assert "Ann <strong>£0.06</strong>" not in html
    assert html.count("Mark paid") == 2


def test_a_part_payment_leaves_the_rest_owed(closed, players):
    ann, bob = players[0], players[1]
    debt = Debt.objects.get(payer=ann, payee=bob)
    response = Client().post(pay_url(bob, debt), {"amount": "0.04"}, follow=True)
    assert "Ann paid you £0.04; £0.02 still owed." in response.content.decode()
    assert Settlement.objects.get(debt=debt).amount == 4


def test_too_much_is_refused_with_a_message(closed, players):
    ann, bob = players[0], players[1]
    debt = Debt.objects.get(payer=ann, payee=bob)
    response = Client().post(pay_url(bob, debt), {"amount": "1.00"}, follow=True)
    assert "more than is owed" in response.content.decode()
    assert not Settlement.objects.exists()


def test_a_debtors_link_marks_nothing(closed, players):
    ann, bob = players[0], players[1]
    debt = Debt.objects.get(payer=ann, payee=bob)
    response = Client().post(pay_url(ann, debt), {"amount": ""}, follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "You owe Bob that one" in html
    assert not Settlement.objects.exists()
    # Another player's debt (Cat owes Bob) through Ann's link: nothing either.
    other = Debt.objects.get(payer=players[2], payee=bob)
    response = Client().post(pay_url(ann, other), {"amount": ""}, follow=True)
    assert "Nothing more is owed to you on that one." in response.content.decode()
    assert not Settlement.objects.exists()


def test_a_reopened_nights_debt_waits_for_its_close(closed, players, secretary):
    ann, bob = players[0], players[1]
    debt = Debt.objects.get(payer=ann, payee=bob)
    reopen_night(closed, secretary)
    assert Debt.objects.filter(pk=debt.pk).exists()  # kept while the night is corrected
    html = Client().get(page_url(bob)).content.decode()
    assert "has been reopened for correction" in html and "Mark paid" not in html
    response = Client().post(pay_url(bob, debt), {"amount": ""}, follow=True)
    assert "has been reopened for correction" in response.content.decode()
    assert not Settlement.objects.exists()


def test_a_get_does_not_pay(closed, players):
    debt = Debt.objects.get(payer=players[0], payee=players[1])
    assert Client().get(pay_url(players[1], debt)).status_code == 405
    assert not Settlement.objects.exists()


def test_the_statement_by_his_link_carries_what_he_owes_and_to_whom(closed, players, season):
    ann, bob = players[0], players[1]
    url = reverse("player_own_statement", args=["crown", player_links.token_for(ann)])
    response = Client().get(url + f"?season={season.pk}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Referrer-Policy"] == "no-referrer"
    text = pdf_text(response.content)
    assert "Ann owes £0.06" in text
    assert "Ann pays: Bob £0.06." in text
    url = reverse("player_own_statement", args=["crown", player_links.token_for(bob)])
    text = pdf_text(Client().get(url).content)  # the current season by default
    assert "Bob owed £0.18" in text
    assert "Bob is paid by: Ann £0.06; Cat £0.06; Dan £0.06." in text


def test_a_points_club_has_no_money_on_the_page(closed, players, club):
    club.unit_kind = club.UnitKind.POINTS
    club.save()
    html = Client().get(page_url(players[1])).content.decode()
    assert "Money owed" not in html and "Mark paid" not in html
    debt = Debt.objects.get(payer=players[0], payee=players[1])
    assert Client().post(pay_url(players[1], debt)).status_code == 404
