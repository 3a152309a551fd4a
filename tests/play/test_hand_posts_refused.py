"""A hand posted without its number, or with a partner for a solo, is refused with a message,
never saved with a field dropped."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from club.play.models import Hand


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


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
