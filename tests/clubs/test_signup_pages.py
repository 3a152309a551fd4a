"""What the sign-up, log-in and home pages say: a wrong confirmation link is a 404 as any wrong
token is; the form shows every error on its first answer; the log-in names what it takes (the
email address a club was started with, or a user name); the home page's title fits who sees it;
the currency starts as the default zone's country's."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import Club
from tests.clubs.test_signup import FORM, sign_up

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _title(response) -> str:
    found = re.search(r"<title>(.*?)</title>", _text(response), re.S)
    return " ".join(found.group(1).split()) if found else ""


FORGED = "eyJ1IjoxLCJjIjoxfQ:1tqzZz:abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.mark.parametrize("token", ["garbage", FORGED, "x" * 300])
def test_a_wrong_confirmation_link_is_a_404_saying_what_to_do(client, token):
    response = client.get(reverse("signup_confirm", args=[token]))
    assert response.status_code == 404
    assert "copy the whole of it from the email, or sign up again" in _text(response)


def test_a_confirmation_link_of_a_sign_up_since_deleted_is_a_404(client, db):
    from django.core import mail

    sign_up(client)
    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    Club.all_objects.get().delete()
    response = Client().get(link.removeprefix("http://testserver"))
    assert response.status_code == 404 and "This sign-up is gone" in _text(response)


def test_the_sign_up_form_reports_every_error_on_its_first_answer(client, club):
    response = sign_up(
        client, email="not an address", password="1234", name=" ", slug="crown", currency_symbol=""
    )
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert set(errors) == {"email", "password", "name", "slug", "currency_symbol"}
    page = _text(response)
    assert "Enter a valid email address." in page
    assert "This password is too short" in page and "This password is entirely numeric" in page
    # With the address left out altogether, the password is still checked.
    response = sign_up(Client(), email="", password="1234")
    assert {"email", "password"} <= set(response.context["form"].errors)
    assert Club.all_objects.count() == 1


def test_the_password_is_still_compared_with_a_wrong_address_as_typed(client, db):
    response = sign_up(client, email="jo.plough@", password="jo.plough@")
    assert "The password is too similar to the" in _text(response)


def test_the_log_in_page_asks_for_the_email_address_or_the_user_name(client, db):
    page = _text(client.get(reverse("login")))
    label = re.search(r'<label for="id_username">(.*?)</label>', page).group(1)
    assert label == "Email address or user name"
    assert "Username" not in page


def test_an_account_made_by_sign_up_logs_in_with_its_email_address(client, db):
    from django.core import mail

    sign_up(client)
    client.get(re.search(r"https?://\S+", mail.outbox[0].body).group(0))
    browser = Client()
    answer = browser.post(
        reverse("login"), {"username": "jo@example.org", "password": FORM["password"]}
    )
    assert answer.status_code == 302


def test_the_home_page_is_titled_for_a_visitor_and_your_clubs_for_a_member(
    client, viewer, other_club, django_user_model
):
    visitor = client.get(reverse("home"))
    assert "Your clubs" not in _title(visitor) and "Your clubs" not in _text(visitor)
    assert _title(visitor) == "Solo Whist: score your club's nights"
    # A member of two clubs (one club goes straight to it) sees their clubs, so titled.
    from club.clubs.models import Membership, Role

    Membership.objects.create(user=viewer, club=other_club, role=Role.VIEWER)
    member = Client()
    member.force_login(viewer)
    page = member.get(reverse("home"))
    assert page.status_code == 200 and _title(page) == "Your clubs"
    assert other_club.name in _text(page)


def test_the_sign_up_form_starts_with_the_currency_of_its_default_zones_country(client, db):
    form = client.get(reverse("signup")).context["form"]
    assert form["time_zone"].value() == "Europe/London"
    assert (form["currency_symbol"].value(), form["minor_units"].value()) == ("£", 100)


def test_the_sign_up_page_gives_its_script_each_zones_currency_and_the_aliases(client, db):
    page = _text(client.get(reverse("signup")))
    data = re.search(r'<script id="zone-data" type="application/json">(.*?)</script>', page, re.S)
    import json

    table = json.loads(data.group(1))
    assert table["currency"]["Australia/Sydney"] == ["$", 100]
    assert table["currency"]["Europe/Paris"] == ["€", 100]
    assert table["currency"]["Asia/Tokyo"] == ["¥", 1]
    assert "UTC" not in table["currency"]
    assert table["aliases"]["Asia/Calcutta"] == "Asia/Kolkata"
