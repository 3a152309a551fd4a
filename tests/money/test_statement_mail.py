"""Each player's results email carries their statement for the season as a PDF, money owed
included, small enough for any mailbox: read back with pdftotext, as the player's mail program
would show it."""

from __future__ import annotations

import subprocess

import pytest
from django.core import mail

from club.clubs.models import Player
from club.money.services import publish as publish_service
from club.money.services.publish import publish
from club.play.models import NightTotal
from club.play.services.nights import close_night
from tests.kits.ledger_kit import give_emails, nets, play

# A season's statement measures about 25 KB with its fonts subset (docs/performance.md); a
# whole embedded DejaVu Sans alone would be over 700 KB.
MAX_BYTES = 60_000


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


@pytest.fixture
def played(night, table4, table5, players, secretary):
    ann, bob, cat, dan, eve = players[:5]
    play(table4, secretary, bob, "solo", 6)
    play(table4, secretary, cat, "abundance", 8)
    play(table5, secretary, eve, "misere", 0)
    return night


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return " ".join(done.stdout.decode().split())


def statement_of(message) -> tuple[str, bytes]:
    (attachment,) = message.attachments
    name, content, mime = attachment
    assert mime == "application/pdf"
    assert content.startswith(b"%PDF-")
    return name, content


def test_each_results_email_attaches_the_players_statement_with_their_balance(
    played, secretary, players, club
):
    give_emails(players)
    close_night(played, secretary)
    publish(played, secretary)
    owed = nets(played)
    # Each player who played a hand that night gets one (the others are not emailed).
    played_a_hand = set(
        NightTotal.objects.filter(night=played, hands__gt=0).values_list("player__email", flat=True)
    )
    assert sorted(m.to[0] for m in mail.outbox) == sorted(played_a_hand)
    for message in mail.outbox:
        player = Player.objects.get(email=message.to[0])
        name, pdf = statement_of(message)
        assert name == f"statement-{player.name.lower()}-winter-2026.pdf"
        assert len(pdf) < MAX_BYTES
        text = pdf_text(pdf)
        assert f"Statement · {player.name} · Winter 2026" in text
        net = owed.get(player.name, 0)
        if net > 0:
            words = f"{player.name} owed {club.format_amount(net)}"
        elif net < 0:
            words = f"{player.name} owes {club.format_amount(-net)}"
        else:
            words = f"{player.name} square"
        assert f"Money owed, everything not yet marked paid: {words}" in text
        assert "attached as a PDF" in message.body


def test_debts_marked_paid_leave_the_season_net_and_clear_the_money_owed(
    played, secretary, players, club
):
    """The statement's net is the season's play; its money owed is only what is still unpaid:
    once every debt of the night is marked paid, everyone reads square."""
    from club.money.models import Debt
    from club.money.services import ledger

    give_emails(players[:4])
    close_night(played, secretary)
    for debt in Debt.objects.filter(night=played):
        ledger.mark_paid(debt, None, secretary, club=club)
    publish(played, secretary)
    bob = next(m for m in mail.outbox if m.to[0].startswith("bob@"))
    text = pdf_text(statement_of(bob)[1])
    assert "Money owed, everything not yet marked paid: Bob square" in text
    assert club.format_amount(nets(played)["Bob"], signed=True) in text


def test_a_points_club_s_statement_has_no_money_owed(played, secretary, players, club):
    club.unit_kind = "points"
    club.save()
    give_emails(players[:4])
    close_night(played, secretary)
    publish(played, secretary)
    for message in mail.outbox:
        text = pdf_text(statement_of(message)[1])
        assert "Money owed" not in text and "Statement" in text


def test_the_printed_statement_shows_the_money_owed_too(client, secretary, played, players, club):
    close_night(played, secretary)
    client.force_login(secretary)
    bob = players[1]
    response = client.get(f"/c/{club.slug}/players/{bob.pk}/statement.pdf")
    assert response.status_code == 200
    owed = club.format_amount(nets(played)["Bob"])
    assert f"Money owed, everything not yet marked paid: Bob owed {owed}" in pdf_text(
        response.content
    )
