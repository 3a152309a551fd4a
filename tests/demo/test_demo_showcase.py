"""The demo shows every feature on its first start: players with example addresses and the
results emails sent to them, the last club night closed, published and its money owed partly
paid, a finished tournament, grades, the viewer's own results, and nothing left open on today's
date (a night open today greets the first "New club night" with "Already playing tonight?")."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from club.clubs.models import Club, Player
from club.demo.services.demo_showcase import example_address
from club.grades.models import Grade
from club.money.models import Debt, Delivery
from club.money.services import ledger
from club.play.models import Night, Seat
from club.tournaments.models import Tournament


@pytest.fixture
def demo(db):
    call_command("seed_demo", "--hands", "200")
    return Club.objects.get(slug="demo")


def test_every_player_has_an_example_address(demo):
    addresses = list(demo.players.values_list("email", flat=True))
    assert len(addresses) == 16 and all(a.endswith("@example.org") for a in addresses)
    assert len(set(addresses)) == 16
    assert example_address("Renée O'Dubois") == "renee.odubois@example.org"


def test_nothing_is_open_and_nothing_is_on_todays_date(demo, client):
    today = demo.today()
    assert not Night.objects.filter(season__club=demo, status=Night.Status.OPEN).exists()
    assert not Night.objects.filter(season__club=demo, date=today).exists()
    # So the first night set up tonight goes straight through, its season found by the date.
    client.login(username="secretary", password="solo-demo")
    page = client.get(reverse("night_create", args=["demo"])).content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f-]+)"', page).group(1)
    seats = {f"tables-0-seat_{n}": p.pk for n, p in enumerate(demo.players.all()[:4], start=1)}
    response = client.post(
        reverse("night_create", args=["demo"]),
        {
            "form_token": token,
            "date": today.isoformat(),
            "tables-TOTAL_FORMS": "1",
            "tables-INITIAL_FORMS": "0",
            "tables-0-first_dealer": "1",
            "action": "create",
            **seats,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Night.objects.get(season__club=demo, date=today).status == Night.Status.OPEN


def test_the_last_club_night_is_published_and_its_players_were_emailed(demo):
    last = Night.objects.filter(season__club=demo, tournament=None).latest("date")
    assert last.is_published and last.publications.count() == 1
    sent = Delivery.objects.filter(publication__night=last, status=Delivery.Status.SENT)
    played = set(Seat.objects.filter(table__night=last).values_list("player__email", flat=True))
    assert len(played) >= 12  # whole tables: the budget of hands ends on the earliest night
    assert set(sent.values_list("email", flat=True)) == played
    assert played <= {m.to[0] for m in mail.outbox}


def test_the_last_nights_money_owed_is_partly_paid(demo):
    last = Night.objects.filter(season__club=demo, tournament=None).latest("date")
    debts = list(ledger.with_outstanding(Debt.objects.filter(night=last)))
    assert len(debts) >= 3
    assert len([d for d in debts if d.outstanding == 0]) == 1  # paid in full
    assert len([d for d in debts if 0 < d.outstanding < d.amount]) == 1  # paid in part
    assert len([d for d in debts if d.outstanding == d.amount]) == len(debts) - 2  # still owed
    assert ledger.open_debts(demo)  # the ledger page has rows


def test_a_tournament_is_finished_and_grades_are_rated(demo):
    tournament = Tournament.objects.get(club=demo)
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.night.is_closed and tournament.night.is_published
    tables = tournament.night.tables.count()
    assert tables == 9  # three rounds of three tables
    assert all(t.hands.count() == tournament.hands_per_round for t in tournament.night.tables.all())
    assert Grade.objects.filter(club=demo).count() == demo.players.count()


def test_the_viewer_is_a_players_own_account(demo, client):
    player = Player.objects.get(club=demo, user__username="viewer")
    client.login(username="viewer", password="solo-demo")
    page = client.get(reverse("me", args=["demo"])).content.decode()
    assert player.name in page


def test_tonight_can_start_from_the_table_cards_or_the_door(demo, client):
    from club.play.models import TableCard

    cards = TableCard.objects.filter(club=demo, revoked_at__isnull=True).order_by("number")
    assert [c.number for c in cards] == [1, 2, 3, 4]
    assert demo.door_check_in
    # A card scanned before any night is open asks for the secretary, not a 404.
    page = client.get(reverse("card_page", args=[cards[0].token]))
    assert page.status_code == 200 and "No club night is open" in page.content.decode()
