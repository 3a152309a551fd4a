"""The organiser invites clubs of this server by address or link; a club's secretaries accept or
decline (a scorer cannot, another club's secretary gets a 404), and the organiser withdraws an
invitation not yet accepted. Each step is logged."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from club.clubs.models import AuditEvent, Membership, Role
from club.leagues.models import LeagueClub
from tests.leagues.conftest import make_club


@pytest.fixture
def crown(db):
    club = make_club("Crown")
    scorer = User.objects.create_user("scorer-crown", "scorer@crown.example", "pw-scorer-1")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    return club


def test_invited_by_link_a_secretary_accepts_and_the_club_plays(client, league, organiser, crown):
    client.force_login(organiser)
    url = reverse("league_clubs", args=[league.slug])
    response = client.post(url, {"club": "https://solo.example.org/c/crown/nights/"})
    assert response.url == url
    entry = LeagueClub.objects.get(league=league, club=crown)
    assert entry.status == LeagueClub.Status.INVITED
    (message,) = mail.outbox
    assert message.to == ["sec@crown.example"]  # the secretaries, not the scorer
    assert "/c/crown/leagues/" in message.body
    # Secretary of the club: sees it and accepts.
    client.force_login(User.objects.get(username="sec-crown"))
    page = client.get(reverse("club_leagues", args=["crown"]))
    assert "Granite City Whist League" in page.content.decode()
    accept = reverse("league_invitation_accept", args=["crown", league.slug])
    assert client.post(accept).url == reverse("club_leagues", args=["crown"])
    entry.refresh_from_db()
    assert entry.status == LeagueClub.Status.ACCEPTED
    assert entry.answered_by.username == "sec-crown"
    assert AuditEvent.objects.filter(
        club=league.host_club, subject="Crown accepted the invitation"
    ).exists()
    # Now the club's members read the league; the organiser is still in no club.
    assert client.get(reverse("league_home", args=[league.slug])).status_code == 200
    assert not Membership.objects.filter(user=organiser).exists()


def test_a_scorer_cannot_answer_and_another_clubs_secretary_gets_a_404(client, league, crown):
    entry = LeagueClub.objects.create(league=league, club=crown)
    accept = reverse("league_invitation_accept", args=["crown", league.slug])
    client.force_login(User.objects.get(username="scorer-crown"))
    assert client.get(reverse("club_leagues", args=["crown"])).status_code == 403
    assert client.post(accept).status_code == 403
    make_club("Dyce")
    client.force_login(User.objects.get(username="sec-dyce"))
    assert client.post(accept).status_code == 404
    assert client.get(reverse("club_leagues", args=["crown"])).status_code == 404
    # ... nor through its own club's address, where the league never invited it.
    assert (
        client.post(reverse("league_invitation_accept", args=["dyce", league.slug])).status_code
        == 404
    )
    entry.refresh_from_db()
    assert entry.status == LeagueClub.Status.INVITED


def test_declining_asks_first_and_then_the_club_does_not_play(client, league, crown):
    entry = LeagueClub.objects.create(league=league, club=crown)
    client.force_login(User.objects.get(username="sec-crown"))
    decline = reverse("league_invitation_decline", args=["crown", league.slug])
    page = client.get(decline)
    assert "Decline the invitation" in page.content.decode()
    entry.refresh_from_db()
    assert entry.status == LeagueClub.Status.INVITED  # asking wrote nothing
    client.post(decline)
    entry.refresh_from_db()
    assert entry.status == LeagueClub.Status.DECLINED
    # Answered once: accepting afterwards is refused with the reason, and nothing changes.
    response = client.post(
        reverse("league_invitation_accept", args=["crown", league.slug]), follow=True
    )
    assert "has answered this invitation already: declined" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == LeagueClub.Status.DECLINED
    assert client.get(reverse("league_home", args=[league.slug])).status_code == 404


def test_the_organisers_refusals_and_withdrawing(client, league, organiser, crown):
    client.force_login(organiser)
    url = reverse("league_clubs", args=[league.slug])
    response = client.post(url, {"club": "nowhere"})
    assert "No club on this server has the address nowhere" in response.content.decode()
    response = client.post(url, {"club": league.host_club.slug})  # the league's own club
    assert response.status_code == 422
    client.post(url, {"club": "crown"})
    response = client.post(url, {"club": "/c/crown/"})
    assert "Crown is invited already" in response.content.decode()
    entry = LeagueClub.objects.get(league=league, club=crown)
    withdraw = reverse("league_invitation_withdraw", args=[league.slug, entry.pk])
    assert "Withdraw the invitation" in client.get(withdraw).content.decode()
    assert client.post(withdraw).url == url
    assert not LeagueClub.objects.filter(pk=entry.pk).exists()
    assert AuditEvent.objects.filter(
        club=league.host_club, subject="Invitation of Crown withdrawn"
    ).exists()
    # An accepted club stays: withdrawing is refused.
    client.post(url, {"club": "crown"})
    entry = LeagueClub.objects.get(league=league, club=crown)
    entry.status, entry.answered_at = LeagueClub.Status.ACCEPTED, entry.invited_at
    entry.save()
    client.post(reverse("league_invitation_withdraw", args=[league.slug, entry.pk]))
    assert LeagueClub.objects.filter(pk=entry.pk, status="accepted").exists()


def test_another_organiser_cannot_invite_or_withdraw(client, league, crown):
    entry = LeagueClub.objects.create(league=league, club=crown)
    other = User.objects.create_user("other-organiser", "o@example.org", "pw-other-1")
    client.force_login(other)
    assert (
        client.post(reverse("league_clubs", args=[league.slug]), {"club": "crown"}).status_code
        == 404
    )
    withdraw = reverse("league_invitation_withdraw", args=[league.slug, entry.pk])
    assert client.post(withdraw).status_code == 404
    assert LeagueClub.objects.filter(pk=entry.pk).exists()
