"""Password guessing is locked out per user name and per address (django-axes), the
page says when to try again, and a secretary unlocks their own club's members (audited)."""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from club.clubs.models import AuditEvent

LIMIT = 5


def _try(client, username, password, ip="203.0.113.7"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_five_wrong_passwords_lock_the_user_name_even_for_the_right_one(client, scorer):
    for _ in range(LIMIT - 1):
        response = _try(client, "scorer", "wrong")
        assert response.status_code == 200  # the form again, with its error
        assert b"Please enter a correct username and password" in response.content
    assert _try(client, "scorer", "wrong").status_code == 429
    before = timezone.localtime()
    response = _try(client, "scorer", "pw-scorer", ip="198.51.100.9")  # right password, new address
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many wrong passwords" in text
    retry = before + dt.timedelta(minutes=15)
    assert f"Try again after {retry:%H:%M}" in text or (
        f"Try again after {retry + dt.timedelta(minutes=1):%H:%M}" in text
    )
    assert "in 15 minutes" in text
    assert " UTC</strong>" in text  # before the log-in, no club's clock is known: the server's
    assert "_auth_user_id" not in client.session


def test_one_address_guessing_many_names_is_locked_out(client, scorer, viewer):
    for n in range(LIMIT):
        _try(client, f"nobody{n}", "guess")
    # A name never tried before, with its right password, from the same address: refused.
    assert _try(client, "viewer", "pw-viewer").status_code == 429
    # The same account from another address logs in.
    response = _try(client, "viewer", "pw-viewer", ip="198.51.100.9")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(viewer.pk)


def test_a_right_password_before_the_limit_clears_the_count(client, scorer):
    for _ in range(LIMIT - 1):
        _try(client, "scorer", "wrong")
    assert _try(client, "scorer", "pw-scorer").status_code == 302
    client.logout()
    for _ in range(LIMIT - 1):
        _try(client, "scorer", "wrong")
    assert _try(client, "scorer", "pw-scorer").status_code == 302


def _lock(client, username):
    for _ in range(LIMIT):
        _try(client, username, "wrong")


def test_secretary_sees_and_unlocks_a_locked_member(client, secretary, scorer, club):
    _lock(client, "scorer")
    client.force_login(secretary)
    page = client.get(reverse("member_list", args=[club.slug])).content.decode()
    assert page.count("Locked out until") == 1
    unlock = reverse("member_unlock", args=[club.slug, scorer.memberships.get().pk])
    assert unlock in page
    response = client.post(unlock, follow=True)
    assert "scorer can log in again." in response.content.decode()
    assert "Locked out until" not in response.content.decode()
    event = AuditEvent.objects.get(club=club, subject="Log-in of scorer unlocked")
    assert event.user == secretary
    assert event.before["locked_until"]
    client.logout()
    assert _try(client, "scorer", "pw-scorer").status_code == 302


def test_unlocking_someone_not_locked_says_so_and_records_nothing(client, secretary, viewer, club):
    client.force_login(secretary)
    unlock = reverse("member_unlock", args=[club.slug, viewer.memberships.get().pk])
    response = client.post(unlock, follow=True)
    assert "viewer was not locked out." in response.content.decode()
    assert not AuditEvent.objects.filter(subject__startswith="Log-in of").exists()


@pytest.mark.parametrize("who", ["scorer", "viewer"])
def test_only_a_secretary_unlocks(client, request, club, who, secretary):
    user = request.getfixturevalue(who)
    _lock(client, "sec")
    client.force_login(user)
    unlock = reverse("member_unlock", args=[club.slug, secretary.memberships.get().pk])
    assert client.post(unlock).status_code in (403, 404)
    assert AccessAttempt.objects.filter(username="sec").exists()


def test_another_clubs_secretary_cannot_unlock_our_members(client, outsider, scorer, club):
    _lock(client, "scorer")
    client.force_login(outsider)
    unlock = reverse("member_unlock", args=[club.slug, scorer.memberships.get().pk])
    assert client.post(unlock).status_code in (403, 404)
    # Nor through their own club's address with our member's id.
    their = reverse("member_unlock", args=["redlion", scorer.memberships.get().pk])
    assert client.post(their).status_code == 404
    assert AccessAttempt.objects.filter(username="scorer").exists()


def test_unlock_is_post_only(client, secretary, scorer, club):
    client.force_login(secretary)
    unlock = reverse("member_unlock", args=[club.slug, scorer.memberships.get().pk])
    assert client.get(unlock).status_code == 405


def test_operators_reset_every_lock_with_axes_reset(client, scorer):
    _lock(client, "scorer")
    call_command("axes_reset")
    assert _try(client, "scorer", "pw-scorer").status_code == 302


def test_forged_forwarded_for_does_not_dodge_the_address_lock(client, scorer, viewer):
    """Without a trusted proxy in front, X-Forwarded-For is the client's own word: ignored."""
    for n in range(LIMIT):
        client.post(
            reverse("login"),
            {"username": f"nobody{n}", "password": "guess"},
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    response = client.post(
        reverse("login"),
        {"username": "viewer", "password": "pw-viewer"},
        REMOTE_ADDR="203.0.113.7",
        HTTP_X_FORWARDED_FOR="192.0.2.200",
    )
    assert response.status_code == 429
