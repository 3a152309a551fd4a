"""The attacks that found holes, replayed as the attacker made them. Each test fails on the code
as it was and holds now.

1. Another club's secretary "adds" a victim's account to their own club and lifts its lock-out,
   again and again, for unlimited password guesses.
2. Whoever holds a table's link (a photo of its QR code) marks debts paid, the payer's own
   included, for ever after the night.
"""

from __future__ import annotations

import html

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from club.models import Invitation, Membership, Role

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
