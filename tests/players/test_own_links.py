"""The secretary's side of a player's own link: show it with its QR code, re-issue or revoke it,
each change confirmed first and audited. Every role: the secretary may; a scorer and a viewer are
refused (403); an anonymous visitor is sent to log in; another club's secretary gets the 404 of
a club that does not exist. A refused request writes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.play.models import PlayerLink
from club.play.services import player_links

NAMES = ["player_own_link", "player_own_link_reissue", "player_own_link_revoke"]


def u(name, player):
    return reverse(name, args=[player.club.slug, player.pk])


def client_as(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_secretary_sees_the_link_and_its_qr_code(players, secretary):
    bob = players[1]
    token = player_links.token_for(bob)
    response = client_as(secretary).get(u("player_own_link", bob))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("player_own", args=["crown", token]) in html
    assert '<svg role="img"' in html and "<title>Bob's own link</title>" in html
    assert response["Referrer-Policy"] == "no-referrer"
    assert u("player_own_link_reissue", bob) in html and u("player_own_link_revoke", bob) in html


def test_showing_writes_nothing_and_a_player_without_a_link_gets_one_on_request(players, secretary):
    bob = players[1]
    client = client_as(secretary)
    html = client.get(u("player_own_link", bob)).content.decode()
    assert "has no live own link" in html and not PlayerLink.objects.exists()
    response = client.post(u("player_own_link_reissue", bob), follow=True)
    assert "Bob has an own link now" in response.content.decode()
    link = PlayerLink.objects.get(player=bob, revoked_at=None)
    assert reverse("player_own", args=["crown", link.token]) in response.content.decode()


def test_reissue_asks_first_then_the_old_link_stops_working(players, secretary):
    bob = players[1]
    old = player_links.token_for(bob)
    client = client_as(secretary)
    confirm = client.get(u("player_own_link_reissue", bob)).content.decode()
    assert "stops working at once" in confirm and "Issue a new own link" in confirm
    assert player_links.find(bob.club, old) == bob  # asking changed nothing
    response = client.post(u("player_own_link_reissue", bob), follow=True)
    assert "Bob has a new own link: the old one no longer works." in response.content.decode()
    assert player_links.find(bob.club, old) is None
    assert Client().get(reverse("player_own", args=["crown", old])).status_code == 404
    new = PlayerLink.objects.get(player=bob, revoked_at=None).token
    assert Client().get(reverse("player_own", args=["crown", new])).status_code == 200
    assert AuditEvent.objects.filter(action="revoke", subject="Bob's own link").count() == 1


def test_revoke_asks_first_then_nothing_opens_until_a_new_one(players, secretary):
    bob = players[1]
    token = player_links.token_for(bob)
    client = client_as(secretary)
    confirm = client.get(u("player_own_link_revoke", bob)).content.decode()
    assert "Revoke Bob" in confirm and "Revoke the own link" in confirm
    response = client.post(u("player_own_link_revoke", bob), follow=True)
    html = response.content.decode()
    assert "Bob&#x27;s own link is revoked" in html or "Bob's own link is revoked" in html
    assert "has no live own link" in html  # the page after it issues nothing by itself
    assert Client().get(reverse("player_own", args=["crown", token])).status_code == 404
    again = client.post(u("player_own_link_revoke", bob), follow=True).content.decode()
    assert "Bob had no live own link." in again


def test_the_players_page_for_the_secretary_links_to_it(players, secretary, scorer):
    bob = players[1]
    html = client_as(secretary).get(reverse("player_edit", args=["crown", bob.pk])).content
    assert u("player_own_link", bob).encode() in html
    # The players' list and a player's page show scorers no such link.
    pages = [
        reverse("player_list", args=["crown"]),
        reverse("player_detail", args=["crown", bob.pk]),
    ]
    for url in pages:
        assert u("player_own_link", bob).encode() not in client_as(scorer).get(url).content


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("role", ["scorer", "viewer", "anonymous", "outsider"])
def test_nobody_else_sees_or_changes_it(players, request, name, method, role):
    bob = players[1]
    token = player_links.token_for(bob)
    user = None if role == "anonymous" else request.getfixturevalue(role)
    before = list(PlayerLink.objects.values_list("pk", "revoked_at"))
    audited = AuditEvent.objects.count()
    response = getattr(client_as(user), method)(u(name, bob))
    if role in ("scorer", "viewer"):
        expected = 405 if (name == "player_own_link" and method == "post") else 403
        assert response.status_code == expected
    elif role == "anonymous":
        if name == "player_own_link" and method == "post":
            assert response.status_code == 405
        else:
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code in (404, 405)
    assert token not in response.content.decode()
    assert list(PlayerLink.objects.values_list("pk", "revoked_at")) == before
    assert AuditEvent.objects.count() == audited


def test_another_clubs_player_is_a_404_for_this_clubs_secretary(secretary, other_club):
    from club.clubs.models import Player

    zed = Player.objects.create(club=other_club, name="Zed")
    for name in NAMES:
        url = reverse(name, args=["crown", zed.pk])
        assert client_as(secretary).get(url).status_code == 404
    assert not PlayerLink.objects.exists()
