"""What a results email says of money: whom a debtor owes and how much over all seasons, who owes
a payee, the marking of payments only for a player owed something, nothing of money in a points
club; and every link through the player's own link, the unsubscribe link apart."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail

from club.money.models import Debt
from club.money.services import ledger
from club.money.services import publish as publish_service
from club.money.services.publish import publish
from club.play.models import PlayerLink
from club.play.services import player_links
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from tests.kits.ledger_kit import give_emails, nets, play

MARKING = "When someone pays you, mark it paid on your own page:"


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


@pytest.fixture
def published(request, night, table4, players, secretary, season, club):
    """Bob makes a solo at table 1: Ann, Cat and Dan each owe him. From a night before, Ann still
    owes Cat 15p; Dan has paid Bob already. In a points club, the same hands and no ledger."""
    ann, bob, cat, dan = players[:4]
    points = request.param == "points"
    if points:
        club.unit_kind = "points"
        club.save()
    else:
        before = create_night(season, dt.date(2026, 11, 13), [(players[:4], 0)])
        Debt.objects.create(club=club, night=before, payer=ann, payee=cat, amount=15)
    play(table4, secretary, bob, "solo", 6)
    give_emails(players[:4])
    close_night(night, secretary)
    if not points:
        (dans,) = Debt.objects.filter(night=night, payer=dan)
        ledger.mark_paid(dans, None, secretary, club=club)
    publish(night, secretary)
    return {m.to[0].split("@")[0].capitalize(): m for m in mail.outbox}


def _money(club, amount):
    return club.format_amount(amount)


@pytest.mark.parametrize(
    ("published", "who"),
    [("money", "Ann"), ("money", "Bob"), ("money", "Dan"), ("points", "Ann")],
    indirect=["published"],
    ids=["debtor", "payee", "square", "points club"],
)
def test_what_the_email_says_of_money(published, who, night, club, players):
    body = published[who].body
    stake = nets(night)["Bob"] // 3  # what each of Ann, Cat and Dan lost to Bob's solo
    if club.unit_kind == "points":
        assert "£" not in body and "owe" not in body and "ledger" not in body
        assert "Settling up" not in body and "mark it paid" not in body
        assert "money owed" not in body.lower() and "pays" not in body
        return
    if who == "Ann":  # she owes Bob tonight's stake and Cat 15p from the night before
        owes = sorted([("Bob", stake), ("Cat", 15)], key=lambda p: (-p[1], p[0]))
        (first, a), (second, b) = owes
        assert (
            f"You owe {first} {_money(club, a)} and {second} {_money(club, b)} in all." in body
        ), body
        assert f"you owe {_money(club, stake + 15)}." in body
        assert "owes you" not in body and MARKING not in body
    elif who == "Bob":  # Ann and Cat owe him; Dan has paid
        assert (
            f"Ann owes you {_money(club, stake)} and Cat {_money(club, stake)} in all." in body
        ), body
        assert "You owe" not in body
        assert MARKING in body
    else:  # Dan paid Bob: square on the ledger
        assert "(everything not yet marked paid, all seasons): square." in body
        assert "You owe" not in body and "owes you" not in body and MARKING not in body


@pytest.mark.parametrize("published", ["money"], indirect=True)
def test_a_player_both_owing_and_owed_is_told_both_and_how_to_mark(published, club, night):
    body = published["Cat"].body
    stake = nets(night)["Bob"] // 3
    assert f"You owe Bob {_money(club, stake)} in all." in body
    assert f"Ann owes you {_money(club, 15)} in all." in body
    assert MARKING in body


@pytest.mark.parametrize("published", ["money", "points"], indirect=True)
def test_every_link_goes_through_the_players_own_link(published, players, club, night):
    for name, message in published.items():
        player = next(p for p in players if p.name == name)
        token = player_links.token_for(player)
        links = re.findall(r"https?://\S+", message.body)
        unsubscribe = [u for u in links if "/unsubscribe/" in u]
        assert len(unsubscribe) == 1  # its own link, unchanged (RFC 8058)
        assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe[0]}>"
        own = [u for u in links if u not in unsubscribe]
        assert own and all(f"/c/{club.slug}/own/{token}/" in u for u in own), own
        assert any(u.endswith(f"/own/{token}/nights/{night.pk}/") for u in own), own
        assert any(f"/own/{token}/statement.pdf?season={night.season_id}" in u for u in own)
        assert "/players/" not in message.body and "/owed/" not in message.body


def test_links_are_issued_when_publishing_and_only_for_those_emailed(
    night, table4, players, secretary, settings
):
    """Ann and Bob take their results by email; Cat has no address and Dan unsubscribed: they
    are issued no link. The links exist once the night is published, before any email is sent,
    so the worker composing them only reads them."""
    ann, bob, cat, dan = players[:4]
    play(table4, secretary, bob, "solo", 6)
    give_emails([ann, bob, dan], opted_out=("Dan",))
    close_night(night, secretary)
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    publication = publish(night, secretary)  # the sending is queued, not run
    assert mail.outbox == []
    issued = set(PlayerLink.objects.values_list("player__name", flat=True))
    assert issued == {"Ann", "Bob"}
    from club.money.services import results_mail

    assert results_mail.send_publication(publication.pk).sent == 2
    assert PlayerLink.objects.count() == 2  # sending issued none
    for message in mail.outbox:
        player = ann if message.to == ["ann@example.org"] else bob
        assert f"/own/{player_links.token_for(player)}/" in message.body
