"""A backup is the club's whole record: export it, import it into an empty database, export
again, and the file is the same apart from `exported_at`; the restored club's money owed, each
player's balance, the nights' publications and emails, members, invitations, table cards, the
door's code, arrivals, settings and audit trail are what they were, and its pages read the same."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db.models import Sum
from django.urls import reverse

from club.clubs.models import AuditEvent, Club, Invitation, Membership
from club.clubs.services.clubs_lifecycle import delete_club
from club.demo.services import demo, demo_showcase
from club.grades.services import grades
from club.interchange import SHAREABLE
from club.interchange.format.document import read
from club.interchange.services.export import export_document, export_text
from club.interchange.services.importer import import_document
from club.money.models import Debt, Delivery, Publication, Settlement
from club.money.services import ledger
from club.play.models import Arrival, Night, TableCard
from club.play.services import arrivals
from club.play.services import tokens as token_service
from club.play.services.table_cards import find_card
from tests.kits.interchange_kit import check_schema, figures, without_moment

pytestmark = pytest.mark.django_db


def empty_the_database(club: Club) -> None:
    """What a fresh machine has: no club, no accounts."""
    delete_club(club)
    get_user_model().objects.all().delete()
    assert not Club.objects.exists()


def restore(text: str) -> Club:
    club, _ = import_document(read(text), source="backup.json")
    assert club is not None
    return club


def ledger_state(club: Club) -> dict:
    names = dict(club.players.values_list("pk", "name"))
    return {
        "balances": {names[pk]: v for pk, v in ledger.balances(club).items()},
        "open": sorted(
            (d.night.date, names[d.payer_id], names[d.payee_id], d.outstanding)
            for d in ledger.open_debts(club)
        ),
        "settled": sorted(
            (s.debt.night.date, s.kind, s.amount, s.note, s.undone_at is not None)
            for s in Settlement.objects.filter(debt__club=club).select_related("debt__night")
        ),
        "publications": sorted(
            (p.night.date, p.number, p.at, p.by.username if p.by else None)
            for p in Publication.objects.filter(night__season__club=club).select_related(
                "night", "by"
            )
        ),
        "deliveries": sorted(
            (names[d.player_id], d.email, d.status, d.sent_at)
            for d in Delivery.objects.filter(publication__night__season__club=club)
        ),
        "nights": sorted(
            (n.date, n.title, n.status, n.closed_at, n.publish_after, n.published_at)
            for n in Night.objects.filter(season__club=club)
        ),
        "members": sorted(
            (m.user.username, m.user.email, m.role)
            for m in Membership.objects.filter(club=club).select_related("user")
        ),
        "cards": sorted(
            (c.number, c.token_hash, c.revoked_at) for c in TableCard.objects.filter(club=club)
        ),
        "audit": AuditEvent.objects.filter(club=club).count(),
    }


def numbers(html: str) -> list[str]:
    """The figures a page shows, in order (money, counts, grades), without its markup."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.findall(r"[-\u2212+]?£?\d[\d,]*(?:\.\d+)?", text)


def pages(client, club: Club) -> dict[str, list[str]]:
    """The rendered figures of the night, money owed, a player's statement, the standings and
    the grades, read as the secretary."""
    client.force_login(
        Membership.objects.filter(club=club, role="secretary").select_related("user").get().user
    )
    latest = Night.objects.filter(season__club=club).order_by("-date").first()
    ann = club.players.get(name=demo_showcase.VIEWER_PLAYER)
    urls = {
        "night": reverse("night_detail", args=[club.slug, latest.pk]),
        "money owed": reverse("club_ledger", args=[club.slug]),
        "statement": reverse("player_detail", args=[club.slug, ann.pk]),
        "standings": reverse("standings", args=[club.slug]),
    }
    # Every hand rated from scratch (the demo's seeding leaves its early nights unrated; a
    # restore rates them all), so the two clubs' grades compare.
    grades.rebuild(club)
    found = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        found[name] = numbers(response.content.decode())
        if name == "statement":
            assert "Solo grade" in response.content.decode()  # the grade's figures compared
    client.logout()
    return found


@pytest.fixture
def showcase_club():
    summary = demo.seed(slug="demo", hands=200, today=dt.date(2026, 11, 20))
    club = summary.club
    shown = demo_showcase.showcase(club)
    secretary = get_user_model().objects.get(username="secretary")
    # Tonight: two arrivals, one card revoked and re-issued, an invitation waiting.
    players = list(club.players.order_by("name"))
    arrivals.tick_in(club, players[0], dt.date(2026, 11, 20))
    arrivals.tick_in(club, players[1], dt.date(2026, 11, 20), via="door")
    token_service.door_token(club)
    card = TableCard.objects.filter(club=club).order_by("number").first()
    from club.clubs.services import invitations
    from club.play.services import table_cards

    table_cards.reissue_card(card, secretary)
    guest = get_user_model().objects.create_user("guest", email="guest@example.org")
    invitations.invite(club, guest, "scorer", secretary)
    assert shown.paid_in_part == 1 and shown.emails > 0
    club.refresh_from_db()
    return club


def test_the_demo_club_restores_its_whole_record(showcase_club, client):
    club = showcase_club
    before_state = ledger_state(club)
    before_figures = figures(club)
    before_pages = pages(client, club)
    tokens = [c.token for c in TableCard.objects.filter(club=club, revoked_at=None)]
    door = token_service.door_token(club)
    first = export_text(club)
    check_schema(json.loads(first))
    assert before_state["open"] and before_state["publications"] and before_state["cards"]

    empty_the_database(club)
    restored = restore(first)
    second = export_text(restored)
    assert without_moment(first) == without_moment(second)
    assert first.splitlines()[4:] == second.splitlines()[4:]

    assert ledger_state(restored) == before_state
    assert figures(restored) == before_figures
    assert pages(client, restored) == before_pages
    # The printed table cards and the door's QR code still open the restored club.
    assert tokens and all(find_card(t).club == restored for t in tokens)
    assert token_service.door_club(restored.slug, door) == restored
    assert Arrival.objects.filter(club=restored).count() == 2
    invitation = Invitation.objects.get(club=restored)
    assert (invitation.user.username, invitation.role, invitation.is_open) == (
        "guest",
        "scorer",
        True,
    )
    assert_the_secretary_sets_a_password_by_email(client)


def assert_the_secretary_sets_a_password_by_email(client) -> None:
    """Restored people know no password: the reset email lets them set one, and log in."""
    secretary = get_user_model().objects.get(username="secretary")
    assert not client.login(username="secretary", password=demo.DEMO_PASSWORD)
    mail.outbox.clear()
    response = client.post(reverse("password_reset"), {"email": "secretary@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [secretary.email]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a long new password 42", "new_password2": "a long new password 42"},
    )
    assert response.status_code == 302
    assert client.login(username="secretary", password="a long new password 42")


def test_the_money_owed_comes_back_to_the_penny(showcase_club):
    club = showcase_club
    owed = ledger.open_debts(club)
    total = sum(d.outstanding for d in owed)
    text = export_text(club)
    empty_the_database(club)
    restored = restore(text)
    assert sum(d.outstanding for d in ledger.open_debts(restored)) == total > 0
    in_file = sum(d["amount"] for n in json.loads(text)["nights"] for d in n["debts"])
    assert Debt.objects.filter(club=restored).aggregate(s=Sum("amount"))["s"] == in_file


def test_a_shareable_file_holds_no_emails_hashes_or_audit_trail(showcase_club):
    club = showcase_club
    document = export_document(club, kind=SHAREABLE)
    check_schema(document)
    text = json.dumps(document)
    assert document["kind"] == "shareable"
    assert "@example.org" not in text
    for card in TableCard.objects.filter(club=club):
        assert card.token_hash not in text and card.salt not in text
    assert club.door_salt not in text
    assert not {"accounts", "invitations", "table_cards", "audit"} & set(document)
    assert all("email" not in p and "account" not in p for p in document["players"])
    assert all(
        p["by"] is None and "deliveries" not in p
        for n in document["nights"]
        for p in n["publications"]
    )
    # It still carries the hands and the money owed, and reads into a new club.
    assert any(n["debts"] for n in document["nights"])
    copy, _ = import_document(read(document), slug="copy")
    assert ledger.balances(copy) == {
        copy.players.get(name=p.name).pk: v
        for p in club.players.all()
        for pk, v in ledger.balances(club).items()
        if pk == p.pk
    }
    assert not Membership.objects.filter(club=copy).exists()
