"""Closed nights imported from a club data file without `debts`: the Import page offers (ticked)
to carry each one's settle-up as money owed, made by the ledger exactly as closing the night
makes it, and says what it did; unticked they owe nothing; a night the file gives debts keeps
exactly those. Statements are read back with pdftotext."""

from __future__ import annotations

import io
import json
import re
import subprocess
from collections import defaultdict

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

import scoring
from club.clubs.models import Club, Player
from club.interchange.format.document import read
from club.interchange.services.export import export_text
from club.interchange.services.importer import import_document
from club.money.models import Debt
from club.play.models import Night, ScoreLine
from club.play.services.nights import close_night
from tests.interchange.test_bad_input import hand, sample
from tests.kits.ledger_kit import play

pytestmark = pytest.mark.django_db


def three_nights() -> dict:
    """The hand-written version 1 file (no `debts` anywhere) with both its nights closed and a
    third night left open."""
    document = sample()
    document["nights"][1]["closed"] = True
    document["nights"].append(
        {
            "season": "Winter 2026",
            "date": "2026-12-04",
            "tables": [
                {
                    "number": 1,
                    "seats": ["Ann Baxter", "Bob Mortimer", "Cat O'Neill", "Eve Lambert"],
                    "hands": [hand(1, declarer="Eve Lambert")],
                }
            ],
        }
    )
    return document


def upload(document: dict, name: str = "winter.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(document).encode(), content_type="application/json")


def settle_ups(club: Club) -> dict[int, list[tuple[str, str, int]]]:
    """Each closed night's settle-up, by the scoring core over the score lines' nets."""
    result = {}
    for night in Night.objects.filter(season__club=club, status=Night.Status.CLOSED):
        rows = (
            ScoreLine.objects.filter(night=night)
            .values("player__name")
            .annotate(net=Sum("amount"))
            .order_by()
        )
        result[night.pk] = scoring.settle_up({r["player__name"]: r["net"] for r in rows})
    return result


def debts_by_night(club: Club) -> dict[int, list[tuple[str, str, int]]]:
    found: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for debt in Debt.objects.filter(club=club).select_related("payer", "payee"):
        found[debt.night_id].append((debt.payer.name, debt.payee.name, debt.amount))
    return {pk: sorted(rows) for pk, rows in found.items()}


def statement_text(client: Client, club: Club, player: Player) -> str:
    response = client.get(reverse("player_statement", args=[club.slug, player.pk]))
    assert response.status_code == 200
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    )
    return " ".join(done.stdout.decode().split())


def owed_line(club: Club, player: Player, balance: int) -> str:
    if balance > 0:
        what = f"owed {club.format_amount(balance)}"
    elif balance < 0:
        what = f"owes {club.format_amount(-balance)}"
    else:
        what = "square"
    return f"Money owed, everything not yet marked paid: {player.name} {what}"


def preview(client: Client, club: Club, document: dict):
    response = client.post(reverse("club_import", args=[club.slug]), {"file": upload(document)})
    assert response.status_code == 200
    return response


def test_ticked_the_closed_nights_settle_ups_become_the_statements_money_owed(
    client, secretary, club
):
    client.force_login(secretary)
    response = preview(client, club, three_nights())
    body = response.content.decode()
    assert "Carry each closed night&#x27;s settle-up as money owed" in body
    (box,) = re.findall(r'<input[^>]*name="carry_settle_ups"[^>]*>', body)
    assert 'type="checkbox"' in box and "checked" in box  # ticked by default
    token = response.context["confirm"].initial["token"]
    response = client.post(
        reverse("club_import_confirm", args=[club.slug]),
        {"token": token, "carry_settle_ups": "on"},
        follow=True,
    )
    expected = settle_ups(club)
    assert len(expected) == 2 and all(expected.values())  # both closed nights have payments
    payments = sum(len(p) for p in expected.values())
    assert (
        f"2 closed nights&#x27; settle-ups were carried as money owed: {payments} payments."
        in response.content.decode()
    )
    # The debts are exactly each closed night's settle-up; the open night has none.
    assert debts_by_night(club) == {pk: sorted(p) for pk, p in expected.items()}
    # Each statement's money owed is the sum over the settle-ups' payments.
    balance: dict[str, int] = defaultdict(int)
    for payer, payee, amount in (p for ps in expected.values() for p in ps):
        balance[payee] += amount
        balance[payer] -= amount
    assert any(balance.values())
    for player in club.players.all():
        line = owed_line(club, player, balance[player.name])
        assert line in statement_text(client, club, player), line


def test_unticked_the_closed_nights_owe_nothing(client, secretary, club):
    client.force_login(secretary)
    response = preview(client, club, three_nights())
    token = response.context["confirm"].initial["token"]
    response = client.post(
        reverse("club_import_confirm", args=[club.slug]), {"token": token}, follow=True
    )
    assert Night.objects.filter(season__club=club).count() == 3
    assert not Debt.objects.filter(club=club).exists()
    assert "2 closed nights&#x27; settle-ups were not carried" in response.content.decode()
    ann = club.players.get(name="Ann Baxter")
    assert owed_line(club, ann, 0) in statement_text(client, club, ann)


def test_a_file_without_closed_nights_lacking_debts_offers_no_checkbox(client, secretary, club):
    client.force_login(secretary)
    document = sample()
    document["nights"][0]["closed"] = False
    body = preview(client, club, document).content.decode()
    assert "carry_settle_ups" not in body


def test_a_file_with_debts_keeps_exactly_those(
    club, other_club, season, table4, players, secretary
):
    """A night closed in the app carries its debts in its export: imported with the box ticked
    it gets those, once; a second closed night the file gives no debts gets its settle-up."""
    ann, bob, cat, dan = players[:4]
    play(table4, secretary, bob, "solo", 7)
    play(table4, secretary, cat, "misere", 1)
    close_night(table4.night, secretary)
    original = sorted(
        (d.payer.name, d.payee.name, d.amount) for d in Debt.objects.filter(club=club)
    )
    assert original
    document = json.loads(export_text(club, nights=Night.objects.filter(pk=table4.night_id)))
    (night,) = document["nights"]
    assert night["debts"]
    bare = json.loads(json.dumps(night))
    bare.update(date="2026-11-21", debts=[], settlements=[], publications=[], published_at=None)
    document["nights"].append(bare)
    _, summary = import_document(read(json.dumps(document)), into=other_club, carry_settle_ups=True)
    assert (summary.bare_settle_ups, summary.settle_ups_carried) == (1, True)
    carried = debts_by_night(other_club)
    with_debts = Night.objects.get(season__club=other_club, date="2026-11-20")
    without = Night.objects.get(season__club=other_club, date="2026-11-21")
    assert carried[with_debts.pk] == original  # no double counting
    assert carried[without.pk] == original  # the same hands: the same settle-up
    assert summary.bare_payments == len(original)


def test_import_club_command_carries_the_settle_ups_with_its_flag(tmp_path, db):
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(three_nights()))
    out = io.StringIO()
    call_command("import_club", str(path), "--carry-settle-ups", stdout=out)
    club = Club.objects.get(slug="crown2")
    expected = settle_ups(club)
    payments = sum(len(p) for p in expected.values())
    assert f"2 closed nights' settle-ups were carried as money owed: {payments} payments." in (
        out.getvalue()
    )
    assert debts_by_night(club) == {pk: sorted(p) for pk, p in expected.items()}
    path.write_text(json.dumps(three_nights() | {"club": {**sample()["club"], "slug": "crown3"}}))
    call_command("import_club", str(path), stdout=io.StringIO())
    assert not Debt.objects.filter(club__slug="crown3").exists()
