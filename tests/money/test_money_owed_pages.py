"""Through the views: who sees and changes money owed, the members' own
view, claiming a record, unsubscribing. Every role: secretary, scorer, viewer, the player
themself, another player, an outsider (secretary of another club) and an anonymous visitor."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.urls import reverse

from club.clubs.models import Membership, Player, PlayerClaim, Role
from club.money.models import Debt, Settlement
from club.money.services import publish as publish_service
from club.money.services.results_mail import unsubscribe_token
from club.play.models import Night
from club.play.services.nights import close_night
from tests.kits.ledger_kit import play


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


def u(name, *args):
    return reverse(name, args=["crown", *args])


@pytest.fixture
def closed(night, table4, players, secretary):
    """Bob makes a solo at table 1: Ann, Cat and Dan each owe him 6p."""
    play(table4, secretary, players[1], "solo", 5)
    close_night(night, secretary)
    return night


@pytest.fixture
def bob_user(django_user_model, players):
    """Bob's own account (no club role), linked to his player record: he is owed 18p."""
    user = django_user_model.objects.create_user(username="bob", password="pw-bob")
    players[1].user = user
    players[1].save()
    return user


@pytest.fixture
def ann_user(django_user_model, players, club):
    """Ann's own account, a viewer of the club too: she owes Bob 6p."""
    user = django_user_model.objects.create_user(username="ann", password="pw-ann")
    Membership.objects.create(user=user, club=club, role=Role.VIEWER)
    players[0].user = user
    players[0].save()
    return user


def as_(client, user):
    client.force_login(user)
    return client


def test_night_page_money_owed_per_role(
    client, closed, secretary, scorer, viewer, outsider, bob_user, ann_user
):
    url = u("night_detail", closed.pk)
    page = as_(client, secretary).get(url).content.decode()
    assert "Money owed from this night" in page and page.count("Mark paid") == 3
    assert "Results emails" in page
    for user in (scorer, viewer):
        page = as_(client, user).get(url).content.decode()
        assert "Money owed from this night" not in page and "Mark paid" not in page
        assert "Cat pays Bob £0.06" in page  # the settle-up itself is the night's, for readers
    # Bob, the payee, sees his three debts and may mark them paid (he has no club role, so the
    # private club's night page is not his: he uses "my results").
    assert as_(client, bob_user).get(url).status_code == 404
    page = as_(client, bob_user).get(u("me")).content.decode()
    assert page.count("Mark paid") == 3 and "you are owed £0.18" in page
    # Ann, a viewer who owes: only her own debt, and no form (the payee marks it).
    page = as_(client, ann_user).get(url).content.decode()
    assert "Money owed from this night" in page
    assert "Ann</strong> pays <strong>Bob" in page and "Cat</strong> pays" not in page
    assert "Mark paid" not in page and "Results emails" not in page
    assert as_(client, outsider).get(url).status_code == 404
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_marking_paid_per_role(
    client, closed, players, secretary, scorer, viewer, outsider, bob_user, ann_user
):
    ann, bob, cat, dan = players[:4]
    debt_of = {d.payer.name: d for d in Debt.objects.filter(night=closed)}
    url = u("debt_pay", debt_of["Ann"].pk)
    for user in (scorer, viewer, ann_user):  # not the secretary, not the payee
        assert as_(client, user).post(url, {"amount": "0.06"}).status_code == 404
    response = as_(client, outsider).post(
        reverse("debt_pay", args=["redlion", debt_of["Ann"].pk]), {"amount": "0.06"}
    )
    assert response.status_code == 404
    client.logout()
    assert client.post(url, {"amount": "0.06"}).status_code == 302
    assert not Settlement.objects.exists()
    # The payee marks a part-payment, then the secretary the rest.
    response = as_(client, bob_user).post(url, {"amount": "0.04"}, follow=True)
    assert "Ann paid Bob £0.04; £0.02 still owed." in response.content.decode()
    response = as_(client, secretary).post(url, {"amount": "£0.03"}, follow=True)
    assert "only £0.02: £0.03 is more than is owed" in response.content.decode()
    response = as_(client, secretary).post(url, {"amount": "0.015"}, follow=True)
    assert "Write an amount like £2.50" in response.content.decode()
    response = as_(client, secretary).post(url, {"amount": ""}, follow=True)
    assert "Ann paid Bob £0.02." in response.content.decode()
    assert sorted(Settlement.objects.values_list("amount", "by__username")) == [
        (2, "sec"),
        (4, "bob"),
    ]


def test_club_ledger_page_per_role(client, closed, secretary, scorer, viewer, outsider, bob_user):
    url = u("club_ledger")
    page = as_(client, secretary).get(url).content.decode()
    assert "Still owed" in page and page.count("Mark paid") == 3
    assert re.search(r"Bob</a></td><td class=\"num\">[^<]*<[^>]*>\+£0\.18", page)
    for user in (scorer, viewer):
        assert as_(client, user).get(url).status_code == 403
    assert as_(client, bob_user).get(url).status_code == 404
    assert as_(client, outsider).get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302


def test_netting_from_the_ledger_page(client, season, players, secretary, club, monkeypatch):
    from club.money.services import ledger

    ann, bob = players[:2]
    week1 = Night.objects.create(season=season, date=dt.date(2026, 11, 13), status="closed")
    week2 = Night.objects.create(season=season, date=dt.date(2026, 11, 20), status="closed")
    figures = {week1.pk: {ann.pk: -40, bob.pk: 40}, week2.pk: {ann.pk: 25, bob.pk: -25}}
    monkeypatch.setattr(ledger, "_night_nets", lambda night: figures[night.pk])
    ledger.sync_night(week1)
    ledger.sync_night(week2)
    page = as_(client, secretary).get(u("club_ledger")).content.decode()
    assert "Net £0.25 off" in page
    response = client.post(u("ledger_net"), {"first": ann.pk, "second": bob.pk}, follow=True)
    assert "£0.25 netted off: one payment is left: Ann pays Bob £0.15." in response.content.decode()
    assert ledger.balances(club, [ann.pk, bob.pk]) == {ann.pk: -15, bob.pk: 15}


def test_player_page_money_owed_only_for_the_secretary_and_the_player(
    client, closed, players, secretary, viewer, ann_user, club
):
    bob = players[1]
    club.is_public = True
    club.save()
    url = u("player_detail", bob.pk)
    assert "Bob is owed £0.18" in as_(client, secretary).get(url).content.decode()
    bob_page_for_ann = as_(client, ann_user).get(url).content.decode()
    assert "Money owed" not in bob_page_for_ann
    ann_page = client.get(u("player_detail", players[0].pk)).content.decode()
    assert "Ann owes £0.06" in ann_page
    for user in (viewer,):
        assert "Money owed" not in as_(client, user).get(url).content.decode()
    client.logout()
    assert "Money owed" not in client.get(url).content.decode()


def test_me_page_nights_money_and_email_preferences(client, closed, players, bob_user, viewer):
    page = as_(client, bob_user).get(u("me")).content.decode()
    assert "My nights" in page and "Club night 20 Nov 2026" in page and "+£0.18" in page
    response = client.post(u("me"), {"email": "bob@example.org", "email_results": ""})
    assert response.status_code == 302
    bob = Player.objects.get(pk=players[1].pk)
    assert (bob.email, bob.email_results) == ("bob@example.org", False)
    response = client.post(u("me"), {"email": "not an address", "email_results": "on"})
    assert (
        response.status_code == 200 and "Enter a valid email address" in response.content.decode()
    )
    assert Player.objects.get(pk=bob.pk).email == "bob@example.org"
    # A user with no player record of this club.
    assert as_(client, viewer).get(u("me")).status_code == 404
    client.logout()
    assert client.get(u("me")).status_code == 302


def test_unsubscribe_link_works_without_login_and_only_for_its_own_club(
    client, players, other_club
):
    ann = players[0]
    url = u("unsubscribe", unsubscribe_token(ann.pk))
    assert "Stop the emails" in client.get(url).content.decode()
    assert Player.objects.get(pk=ann.pk).email_results  # a GET changes nothing
    client.post(url)
    assert not Player.objects.get(pk=ann.pk).email_results
    assert client.get(u("unsubscribe", "forged-token")).status_code == 404
    other = reverse("unsubscribe", args=["redlion", unsubscribe_token(ann.pk)])
    assert client.post(other).status_code == 404


def test_claiming_a_record_with_a_one_time_link(client, club, players, django_user_model):
    cat = players[2]
    cat.email = "cat@example.org"
    cat.save()
    club.is_public = True  # a private club's claim page is its members' alone
    club.save()
    assert client.get(u("claim")).status_code == 404  # the club has not switched it on
    club.players_may_claim = True
    club.save()
    response = client.post(u("claim"), {"email": "nobody@example.org"})
    assert "a one-time link is on its way" in response.content.decode() and mail.outbox == []
    response = client.post(u("claim"), {"email": "CAT@example.org"})
    assert "a one-time link is on its way" in response.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["cat@example.org"]
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    assert "You are Cat" in client.get(link).content.decode()
    response = client.post(
        link, {"username": "cat", "password1": "a-long-pass-5821", "password2": "a-long-pass-5821"}
    )
    assert response.status_code == 302 and response["Location"] == u("me")
    user = django_user_model.objects.get(username="cat")
    assert Player.objects.get(pk=cat.pk).user == user
    assert "Cat: my results" in client.get(u("me")).content.decode()
    # Single use.
    client.logout()
    assert client.get(link).status_code == 410


def test_an_expired_claim_link_is_refused(client, club, players):
    club.players_may_claim = club.is_public = True
    club.save()
    cat = players[2]
    cat.email = "cat@example.org"
    cat.save()
    client.post(u("claim"), {"email": "cat@example.org"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    PlayerClaim.objects.update(created_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    response = client.get(link)
    assert response.status_code == 410 and "expired" in response.content.decode()
    assert Player.objects.get(pk=cat.pk).user is None


def test_a_signed_in_user_links_their_account(client, club, players, viewer):
    club.players_may_claim = club.is_public = True
    club.save()
    dan = players[3]
    dan.email = "dan@example.org"
    dan.save()
    client.post(u("claim"), {"email": "dan@example.org"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    client.force_login(viewer)
    assert "Link your account, viewer, to Dan?" in client.get(link).content.decode()
    client.post(link)
    assert Player.objects.get(pk=dan.pk).user == viewer


@pytest.mark.parametrize("nights", [1, 6])
def test_money_pages_queries_do_not_grow(
    client, season, players, secretary, bob_user, django_assert_max_num_queries, nights
):
    """The night page, the club's ledger and "my results" read a fixed number of queries
    whatever the number of debts, payments and emails."""
    from club.money.services.ledger import mark_paid
    from club.money.services.publish import publish
    from club.play.services.night_setup import create_night

    for p in players:
        p.email = f"{p.name.lower()}@example.org"
        p.save()
    last = None
    for week in range(nights):
        night = create_night(
            season, dt.date(2026, 10, 1) + dt.timedelta(days=7 * week), [(players[:4], 0)]
        )
        table = night.tables.get()
        play(table, secretary, players[week % 4], "solo", 5)
        play(table, secretary, players[(week + 1) % 4], "misere", 0)
        close_night(night, secretary)
        publish(night, secretary)
        for debt in Debt.objects.filter(night=night)[:2]:
            mark_paid(debt, 1, secretary, club=season.club)
        last = night
    client.force_login(secretary)
    # 14: the payments marked without a login, shown with an Undo, are one query more.
    with django_assert_max_num_queries(14):
        page = client.get(u("night_detail", last.pk)).content.decode()
    assert "Money owed from this night" in page and "Results emails" in page
    with django_assert_max_num_queries(8):
        page = client.get(u("club_ledger")).content.decode()
    assert "Still owed" in page
    client.force_login(bob_user)
    with django_assert_max_num_queries(8):  # and one for the payee's marked payments
        page = client.get(u("me")).content.decode()
    assert "My money owed" in page


def test_the_payee_marks_payments_paid_through_the_table_link(
    client, night, table4, table5, players, secretary
):
    from club.play.services import table_links as link_service

    ann, bob, cat, dan, eve = players[:5]
    play(table4, secretary, bob, "solo", 5)  # Ann, Cat and Dan each owe Bob 6p
    links = link_service.night_links(night, secretary)
    link, other = links[table4.pk], links[table5.pk]
    assert not Debt.objects.exists()  # nothing is owed while the night is open
    page = client.get(reverse("link_table", args=[link.token])).content.decode()
    assert "Money owed to this table" not in page
    close_night(night, secretary)
    debt = Debt.objects.get(night=night, payer=ann)
    page = client.get(reverse("link_table", args=[link.token])).content.decode()
    assert "Money owed to this table" in page and page.count("Mark paid") == 3
    pay = reverse("link_pay", args=[link.token, debt.pk])
    assert f'action="{pay}"' in page
    # Table 2's link cannot mark table 1's payments, nor can a made-up token.
    assert client.post(reverse("link_pay", args=[other.token, debt.pk])).status_code == 404
    assert client.post(reverse("link_pay", args=["made-up", debt.pk])).status_code == 404
    response = client.post(pay, {"amount": "0.07"}, follow=True)
    assert "only £0.06: £0.07 is more than is owed" in response.content.decode()
    response = client.post(pay, {"amount": "0.06"}, follow=True)
    assert "Ann paid Bob £0.06." in response.content.decode()
    settlement = Settlement.objects.get(debt=debt)
    assert (settlement.amount, settlement.by, settlement.via) == (6, None, "Table 1's link")
    assert settlement.link == link
    assert client.post(pay, {"amount": ""}, follow=True).status_code == 200
    assert Settlement.objects.filter(debt=debt).count() == 1  # nothing more was owed
    # A revoked link stops working.
    link_service.revoke(table4, secretary)
    assert client.post(pay, {"amount": ""}).status_code == 404
