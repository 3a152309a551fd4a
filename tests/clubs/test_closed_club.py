"""A closed club, in the days before the purge deletes it: each member is emailed once (closed, by
whom, deleted after when, the data file); a member opening any of its pages is told the same, with
the date, where an outsider gets the 404 of a club that never was; a member's home lists it as
closing, and its secretary's home gives the host's address (HOST_CONTACT_EMAIL) when there is one.
Reopening brings every page back."""

from __future__ import annotations

import datetime as dt
import re
from smtplib import SMTPRecipientsRefused

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from club.clubs.models import Club, Membership, Player, Role
from club.clubs.services import clubs_lifecycle

CLOSED_AT = dt.datetime(2026, 11, 20, 22, 30, tzinfo=dt.UTC)  # 21 Nov 11:30 in Auckland
DELETE_DATE = "5 Dec 2026"  # 14 days on, on the club's clock


def without_token(response) -> str:
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "", response.content.decode())
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def members(club, secretary, scorer, viewer, outsider, django_user_model):
    """The club's members with an address, and those who must not be emailed: a member with no
    address, an inactive account, another club's secretary, a player with no account."""
    club.time_zone = "Pacific/Auckland"
    club.save(update_fields=["time_zone"])
    secretary.first_name, secretary.last_name = "Sally", "Secker"
    secretary.save(update_fields=["first_name", "last_name"])
    nobody = django_user_model.objects.create_user("no-address", "", "pw")
    gone = django_user_model.objects.create_user("gone", "gone@example.org", "pw", is_active=False)
    Membership.objects.create(club=club, user=nobody, role=Role.VIEWER)
    Membership.objects.create(club=club, user=gone, role=Role.VIEWER)
    Player.objects.create(club=club, name="Pat", email="pat@example.org")
    return {"secretary": secretary, "scorer": scorer, "viewer": viewer, "outsider": outsider}


def close(club, by, django_capture_on_commit_callbacks, **kwargs) -> Club:
    with (
        time_machine.travel(CLOSED_AT, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        return clubs_lifecycle.close_club(club, by, **kwargs)


def test_closing_emails_each_member_with_an_address_once(
    club, members, django_capture_on_commit_callbacks, settings
):
    settings.HOST_CONTACT_EMAIL = "host@solo.example.org"
    close(club, members["secretary"], django_capture_on_commit_callbacks)

    assert all(len(m.to) == 1 and not m.cc and not m.bcc for m in mail.outbox)
    by_address = {m.to[0]: m for m in mail.outbox}
    assert len(by_address) == len(mail.outbox) == 3
    assert set(by_address) == {"sec@example.org", "scorer@example.org", "viewer@example.org"}
    for message in mail.outbox:
        assert message.subject == "Crown & Anchor Solo School has closed on Solo Whist"
        assert "closed on 21 November 2026 by its secretary, Sally Secker" in message.body
        assert "deleted for good after 5 December 2026, 11:30 (Pacific/Auckland)" in message.body
        assert "data file" in message.body
    viewer_mail = by_address["viewer@example.org"].body
    assert "ask them for a copy" in viewer_mail and "host@solo.example.org" not in viewer_mail
    secretary_mail = by_address["sec@example.org"].body
    assert "ask the server's operator to\nreopen the club" in secretary_mail
    assert "The operator's address: host@solo.example.org" in secretary_mail


def test_an_operators_closing_says_so_and_deleting_at_once_emails_nobody(
    club, members, other_club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("delete_club", club.slug, stdout=None)
    assert len(mail.outbox) == 3
    assert all("by the server's operator" in m.body for m in mail.outbox)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("delete_club", other_club.slug, "--now", stdout=None)
    assert mail.outbox == []


def test_a_club_reopened_before_the_worker_sends_emails_nobody(club, members):
    from club.clubs.services.closing_mail import send_closing_notice

    clubs_lifecycle.close_club(club, members["secretary"])  # its email queued on commit
    clubs_lifecycle.reopen_club(club)
    assert send_closing_notice.call(club.pk) == 0
    assert mail.outbox == []


def test_a_member_opening_the_closed_clubs_pages_is_told_it_closed_and_when_it_goes(
    club, members, django_capture_on_commit_callbacks
):
    close(club, members["secretary"], django_capture_on_commit_callbacks)
    viewer = logged_in(members["viewer"])
    for url in (
        reverse("club", args=[club.slug]),
        reverse("standings", args=[club.slug]),
        reverse("player_list", args=[club.slug]),
    ):
        page = viewer.get(url)
        text = page.content.decode()
        assert page.status_code == 410, url
        assert "Crown &amp; Anchor Solo School is closed" in text
        assert "closed on 21 Nov 2026 by its secretary, Sally Secker" in text
        assert f"deleted for good after <strong>{DELETE_DATE}, 11:30</strong>" in text
        assert "ask them for a copy" in text


def test_an_outsider_gets_the_plain_404_of_a_club_that_never_was(
    club, members, django_capture_on_commit_callbacks
):
    close(club, members["secretary"], django_capture_on_commit_callbacks)
    outsider = logged_in(members["outsider"])
    closed = outsider.get(reverse("club", args=[club.slug]))
    never = outsider.get(reverse("club", args=["never-was"]))
    assert closed.status_code == never.status_code == 404
    assert "Crown" not in closed.content.decode() and "closed" not in closed.content.decode()
    assert without_token(closed).replace(club.slug, "never-was") == without_token(never)
    anonymous = Client().get(reverse("club", args=[club.slug]))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))


def test_a_members_home_lists_the_club_as_closing_with_its_date(
    club, members, other_club, django_capture_on_commit_callbacks, settings
):
    settings.HOST_CONTACT_EMAIL = "host@solo.example.org"
    close(club, members["secretary"], django_capture_on_commit_callbacks)
    home = logged_in(members["viewer"]).get(reverse("home"))
    text = home.content.decode()
    assert home.status_code == 200
    assert "Crown &amp; Anchor Solo School was closed on 21 Nov 2026" in text
    assert f"deleted for good after {DELETE_DATE}, 11:30" in text
    assert "not a member of any club" not in text
    assert "host@solo.example.org" not in text  # for its secretaries


def test_the_former_secretarys_home_gives_the_hosts_address_only_when_set(
    club, members, django_capture_on_commit_callbacks, settings
):
    close(club, members["secretary"], django_capture_on_commit_callbacks)
    secretary = logged_in(members["secretary"])
    settings.HOST_CONTACT_EMAIL = "host@solo.example.org"
    text = secretary.get(reverse("home")).content.decode()
    assert 'write to the server\'s operator: <a href="mailto:host@solo.example.org">' in text
    settings.HOST_CONTACT_EMAIL = ""
    text = secretary.get(reverse("home")).content.decode()
    assert f"deleted for good after {DELETE_DATE}" in text
    assert "write to the server's operator" not in text


def test_reopening_brings_the_pages_back_and_the_home_goes_straight_in(
    club, members, django_capture_on_commit_callbacks
):
    close(club, members["secretary"], django_capture_on_commit_callbacks)
    call_command("reopen_club", club.slug, stdout=None)
    viewer = logged_in(members["viewer"])
    assert viewer.get(reverse("club", args=[club.slug])).status_code == 200
    assert viewer.get(reverse("home"))["Location"] == reverse("club", args=[club.slug])


def test_the_secretary_closing_the_club_is_given_the_hosts_address(client, club, members, settings):
    settings.HOST_CONTACT_EMAIL = "host@solo.example.org"
    client.force_login(members["secretary"])
    done = client.post(reverse("club_close", args=[club.slug]), {"confirm_name": club.name})
    assert done.status_code == 200
    assert '<a href="mailto:host@solo.example.org">' in done.content.decode()


class OneRefusedBackend:
    """A mail server that refuses one address and takes the others."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages):
        if any(m.to == ["scorer@example.org"] for m in messages):
            raise SMTPRecipientsRefused({"scorer@example.org": (550, b"no such user")})
        mail.outbox.extend(messages)
        return len(messages)


def test_a_refused_address_leaves_the_other_members_told(
    club, members, django_capture_on_commit_callbacks, settings, caplog
):
    settings.EMAIL_BACKEND = "tests.clubs.test_closed_club.OneRefusedBackend"
    close(club, members["secretary"], django_capture_on_commit_callbacks)
    assert sorted(m.to[0] for m in mail.outbox) == ["sec@example.org", "viewer@example.org"]
    assert "the closing notice was not sent" in caplog.text
