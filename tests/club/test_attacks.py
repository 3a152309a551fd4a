"""The attacks that found holes, replayed as the attacker made them. Each test fails on the code
as it was and holds now.

1. Another club's secretary "adds" a victim's account to their own club and lifts its lock-out,
   again and again, for unlimited password guesses.
2. Whoever holds a table's link (a photo of its QR code) marks debts paid, the payer's own
   included, for ever after the night.
"""

from __future__ import annotations

import html
import re

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Invitation, Membership, Role
from club.money.models import Debt, Settlement
from club.money.services import ledger, results_mail
from club.money.services import publish as publish_service
from club.play.services import table_links as link_service
from club.play.services.nights import close_night
from tests.kits.ledger_kit import play

LIMIT = 5


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _guess(client: Client, username: str, password: str, ip: str) -> int:
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    ).status_code


# --- 1. a lock any secretary could lift ---------------------------------------------------------


def test_another_clubs_secretary_cannot_lift_the_lock_on_our_secretary(
    secretary, outsider, other_club
):
    """The attack: guess 5 times, "add" the victim to your own club, unlock, guess again; 15
    guesses got in where the limit is 5."""
    attacker = Client()
    attacker.force_login(outsider)
    guesser = Client()
    for _ in range(LIMIT):
        _guess(guesser, "sec", "guess", "203.0.113.50")
    assert _guess(guesser, "sec", "pw-sec", "203.0.113.51") == 429  # locked, right password too
    # "Add" the victim: now an invitation the victim never accepts, not a membership.
    attacker.post(
        reverse("member_add", args=[other_club.slug]), {"username": "sec", "role": "viewer"}
    )
    assert not Membership.objects.filter(user=secretary, club=other_club).exists()
    assert Invitation.objects.filter(user=secretary, club=other_club).exists()
    page = attacker.get(reverse("member_list", args=[other_club.slug])).content.decode()
    assert "Unlock" not in page.split("Invited, not answered yet")[0].split("<tbody>")[-1]
    # The unlock URL takes only the club's own memberships: the victim has none here.
    for membership in Membership.objects.filter(user=secretary):
        url = reverse("member_unlock", args=[other_club.slug, membership.pk])
        assert attacker.post(url).status_code == 404
    assert _guess(guesser, "sec", "pw-sec", "203.0.113.52") == 429  # still locked
    assert AccessAttempt.objects.filter(username="sec").exists()


def test_a_shared_account_is_unlocked_only_by_the_operator(
    client, secretary, outsider, other_club, club
):
    """Even when the victim did accept (a member of both clubs), neither club can lift the lock
    on the account: that is the site operator's (manage.py axes_reset...)."""
    Membership.objects.create(user=secretary, club=other_club, role=Role.VIEWER)
    for _ in range(LIMIT):
        _guess(Client(), "sec", "guess", "203.0.113.60")
    attacker = Client()
    attacker.force_login(outsider)
    membership = Membership.objects.get(user=secretary, club=other_club)
    page = _text(attacker.get(reverse("member_list", args=[other_club.slug])))
    assert "only the site's operator can unlock it" in page
    response = attacker.post(
        reverse("member_unlock", args=[other_club.slug, membership.pk]), follow=True
    )
    assert "only the site's operator can lift its lock" in _text(response)
    assert _guess(Client(), "sec", "pw-sec", "203.0.113.61") == 429
    call_command("axes_reset_username", "sec", verbosity=0)
    assert _guess(Client(), "sec", "pw-sec", "203.0.113.62") == 302


def test_a_staff_account_is_never_unlocked_by_a_club(client, secretary, club, django_user_model):
    admin = django_user_model.objects.create_user(username="admin", password="pw", is_staff=True)
    membership = Membership.objects.create(user=admin, club=club, role=Role.VIEWER)
    for _ in range(LIMIT):
        _guess(Client(), "admin", "guess", "203.0.113.70")
    client.force_login(secretary)
    client.post(reverse("member_unlock", args=[club.slug, membership.pk]))
    assert _guess(Client(), "admin", "pw", "203.0.113.71") == 429


@pytest.mark.parametrize("who", ["outsider", "viewer", "anonymous"])
def test_only_the_invited_account_answers_its_invitation(
    who, request, secretary, club, django_user_model
):
    newbie = django_user_model.objects.create_user(username="newbie", password="x")
    invitation = Invitation.objects.create(club=club, user=newbie, role=Role.SECRETARY)
    client = Client()
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert response.status_code in (302, 404)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
    assert not Membership.objects.filter(user=newbie).exists()
    invitation.refresh_from_db()
    assert invitation.is_open


# --- 2. a table link that moved money for ever --------------------------------------------------


@pytest.fixture
def owed(night, table4, players, secretary, monkeypatch):
    """Bob makes a solo at table 1: Ann, Cat and Dan each owe him 6p. The night is closed (its
    results provisional), and Bob has an email address for his results."""
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())
    play(table4, secretary, players[1], "solo", 5)
    bob = players[1]
    bob.email, bob.email_results = "bob@example.org", True
    bob.save()
    close_night(night, secretary)
    return night


def _link_of(table) -> str:
    return link_service.night_links(table.night, None)[table.pk].token


def test_a_link_holder_cannot_mark_debts_paid_once_the_night_is_published(
    owed, table4, players, secretary
):
    """The attack: weeks after the night, the payer (holding a photo of the table's QR code)
    marks his own debt paid. Once the results are published the link writes nothing more."""
    token = _link_of(table4)
    ann, bob = players[:2]
    publish_service.publish(owed, secretary)
    debt = Debt.objects.get(night=owed, payer=ann)
    holder = Client()
    page = holder.get(reverse("link_table", args=[token])).content.decode()
    assert "final sheet" in page and "Mark paid" not in page
    response = holder.post(reverse("link_pay", args=[token, debt.pk]), {"amount": ""})
    assert response.status_code == 403
    assert "This night is over" in response.content.decode()
    assert not Settlement.objects.exists()
    assert ledger.balance(bob) == 18


def test_a_payment_marked_through_a_link_is_audited_shown_to_the_payee_and_undone(
    owed, table4, players, secretary, django_user_model
):
    token = _link_of(table4)
    ann, bob = players[:2]
    debt = Debt.objects.get(night=owed, payer=ann)
    phone = Client()
    phone.post(reverse("link_device", args=[token]), {"device": "Ann's phone"})
    phone.post(reverse("link_pay", args=[token, debt.pk]), {"amount": ""})
    marked = Settlement.objects.get(debt=debt)
    assert marked.via == "Table 1's link (Ann's phone)" and marked.by is None
    event = AuditEvent.objects.get(subject__startswith="Payment: Ann paid Bob")
    assert event.link is not None and event.after["via"] == "Table 1's link (Ann's phone)"
    # Bob is told: in his results email when the night is published, with his own link.
    mail.outbox.clear()
    publish_service.publish(owed, secretary)
    message = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    assert "Ann, £0.06, through Table 1's link (Ann's phone)" in message.body
    marking = re.search(r"mark it paid on your own page:\n(http://\S+/own/\S+/)\n", message.body)
    own_link = marking[1]
    # ... and on his own page from that link, with no login.
    page = _text(Client().get(own_link.split("http://127.0.0.1:8000")[-1]))
    assert "Marked paid to you without your login" in page
    assert "Ann, £0.06 (Club night 20 Nov 2026), through Table 1's link (Ann's phone)" in page
    # The secretary undoes it: Ann owes Bob 6p again, and the trail says so.
    sec = Client()
    sec.force_login(secretary)
    night_page = _text(sec.get(reverse("night_detail", args=["crown", owed.pk])))
    undo = reverse("payment_undo", args=["crown", marked.pk])
    assert "marked paid through Table 1's link (Ann's phone)" in night_page
    assert "Undo this payment?" in _text(sec.get(undo))
    assert Settlement.objects.get(pk=marked.pk).undone_at is None  # asking is not doing
    sec.post(undo)
    assert Debt.objects.filter(pk=debt.pk).get().pk == debt.pk
    assert ledger.balance(bob) == 18
    assert AuditEvent.objects.filter(subject="Payment undone: Ann paid Bob £0.06").exists()
    # Only a secretary of this club undoes: Bob's own link cannot, nor can another club.
    assert Client().post(undo).status_code == 302  # to the log-in page


def test_the_payees_own_link_marks_only_what_is_owed_to_them(owed, players, secretary):
    ann, bob, cat = players[:3]
    token = results_mail.payee_token(bob.pk)
    own = Client()
    page = _text(own.get(reverse("payee_owed", args=["crown", token])))
    assert page.count("Mark paid") == 3
    debt = Debt.objects.get(night=owed, payer=cat)
    own.post(reverse("payee_pay", args=["crown", token, debt.pk]), {"amount": "0.02"})
    marked = Settlement.objects.get(debt=debt)
    assert (marked.amount, marked.via) == (2, "Bob's own link")
    # Ann's own link cannot mark a payment owed to Bob; a forged token is a 404.
    anns = results_mail.payee_token(ann.pk)
    other = Debt.objects.get(night=owed, payer=ann)
    Client().post(reverse("payee_pay", args=["crown", anns, other.pk]), {"amount": ""})
    assert not Settlement.objects.filter(debt=other).exists()
    assert Client().get(reverse("payee_owed", args=["crown", token + "x"])).status_code == 404
    assert Client().get(reverse("payee_owed", args=["redlion", token])).status_code == 404
