"""The small holes, each with the attack that found it."""

from __future__ import annotations

import datetime as dt
import smtplib

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from club.models import Hand, Season
from tests.club.test_setup_views import season_data


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- best N nights -------------------------------------------------------------------------------


def test_best_zero_nights_is_refused_with_a_message(club, hoyle, secretary):
    url = reverse("season_create", args=[club.slug])
    response = client_for(secretary).post(url, season_data(hoyle, best_nights=0))
    assert response.status_code == 200
    assert "Count at least the best 1 night" in response.content.decode()
    assert not Season.objects.filter(name="Summer 2027").exists()
    # Blank still means every night counts.
    response = client_for(secretary).post(url, season_data(hoyle, best_nights=""))
    assert Season.objects.get(name="Summer 2027").best_nights is None


def test_the_database_refuses_best_zero_nights_too(club, hoyle):
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=club,
            name="Zero",
            start=dt.date(2027, 1, 1),
            end=dt.date(2027, 2, 1),
            rule_set=hoyle,
            best_nights=0,
        )


# -- the hand form -------------------------------------------------------------------------------


def _hand_post(players, **extra):
    ann, bob = players[:2]
    return {"dealer": ann.pk, "contract": "solo", "declarer": bob.pk, "tricks": 5} | extra


def test_a_hand_posted_without_its_number_is_refused(table4, players, scorer):
    url = reverse("hand_create", args=["crown", table4.pk])
    response = client_for(scorer).post(url, _hand_post(players))
    assert response.status_code == 422
    assert "This form is out of date" in response.content.decode()
    assert not Hand.objects.exists()
    response = client_for(scorer).post(url, _hand_post(players, expected_number=1))
    assert response.status_code == 302 and Hand.objects.count() == 1


def test_a_partner_posted_with_a_solo_is_refused_not_dropped(table4, players, scorer):
    url = reverse("hand_create", args=["crown", table4.pk])
    data = _hand_post(players, expected_number=1, partner=players[2].pk)
    response = client_for(scorer).post(url, data)
    assert response.status_code == 422
    assert "Only Prop &amp; Cop has a partner" in response.content.decode()
    assert not Hand.objects.exists()


# -- password reset ------------------------------------------------------------------------------


class RefusingBackend:
    """An email backend whose mail server is down."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages):
        raise smtplib.SMTPConnectError(421, "mail server down")


def test_password_reset_answers_at_once_whatever_the_mail_server_does(
    client, secretary, settings, caplog
):
    """The email goes through the task queue (here run at once): a mail server that is down
    neither shows on the page (which would tell whether the address is known) nor fails it;
    the log says so."""
    secretary.email = "sec@example.org"
    secretary.save()
    settings.EMAIL_BACKEND = "tests.club.test_small_holes.RefusingBackend"
    response = client.post(reverse("password_reset"), {"email": "sec@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert "Failed to send password reset email" in caplog.text


def test_password_reset_still_sends_when_the_mail_server_answers(client, secretary, settings):
    secretary.email = "sec@example.org"
    secretary.save()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(reverse("password_reset"), {"email": "sec@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["sec@example.org"]


# -- score cards for anonymous visitors ----------------------------------------------------------


@pytest.fixture
def renders(monkeypatch):
    """Count the score cards actually laid out (the slow part)."""
    from club.views import sheets

    calls = []
    real = sheets.render_pdf

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets, "render_pdf", counting)
    return calls


def test_anonymous_score_cards_are_made_once_per_hands_count(client, club, night, renders):
    club.is_public = True
    club.save()
    url = reverse("score_cards", args=[club.slug, night.pk])
    first = client.get(url + "?hands=60")
    for _ in range(5):
        again = client.get(url + "?hands=60")
        assert again.content == first.content
        assert again["Content-Disposition"] == first["Content-Disposition"]
    assert len(renders) == 1
    client.get(url + "?hands=999")  # capped at 60: the same cards
    assert len(renders) == 1
    client.get(url + "?hands=12")
    assert len(renders) == 2


def test_new_tables_are_not_hidden_by_cached_cards(client, club, night, players, renders):
    from club.services.setup import edit_tables

    club.is_public = True
    club.save()
    url = reverse("score_cards", args=[club.slug, night.pk])
    client.get(url)
    table1, table2 = night.tables.order_by("number")
    edit_tables(night, [(table1, players[:4], 0), (table2, players[4:7], 0)])
    client.get(url)
    assert len(renders) == 2


def test_members_always_get_fresh_cards(client, club, night, viewer, renders):
    client.force_login(viewer)
    url = reverse("score_cards", args=[club.slug, night.pk])
    client.get(url)
    client.get(url)
    assert len(renders) == 2


# -- numbers in a query string that int() cannot read --------------------------------------------

# "²" is a digit to str.isdigit() but not to int(); 5,000 digits are more than int() reads.
ODD_NUMBERS = ("²", "9" * 5000, "99999999999999999999999")


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_an_odd_hand_number_on_the_form_draws_the_new_hand_form(client, secretary, table4, value):
    client.force_login(secretary)
    url = reverse("hand_form", args=[table4.night.season.club.slug, table4.pk])
    response = client.get(f"{url}?hand={value}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Hand 1" in response.content.decode()


@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_an_odd_rows_count_on_the_score_cards_gives_cards(client, club, night, value, renders):
    club.is_public = True
    club.save()
    url = reverse("score_cards", args=[club.slug, night.pk])
    response = client.get(f"{url}?hands={value}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
