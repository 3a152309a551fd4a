"""A restore an operator can trust: a bad backup is refused with a message naming the place and
nothing is written; `import_club` into an existing club either refuses (the nights are there)
or adds the file's nights with their money owed, in one transaction."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from club.clubs.models import AuditEvent, Club, Membership
from club.clubs.services.clubs_lifecycle import delete_club
from club.interchange.format.document import ImportRefused, read
from club.interchange.services.export import export_document, export_text
from club.interchange.services.importer import import_document
from club.money.models import Debt, Settlement
from club.money.services import ledger
from club.play.models import Hand, Night, TableCard
from club.play.services import table_cards
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.nights import close_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def backed_up(night, table4, players, secretary):
    """A closed night with money owed, one debt half paid; a card; the secretary has an email."""
    secretary.email = "sec@example.org"
    secretary.save()
    ann, bob, cat, dan = players[:4]
    for declarer, tricks in ((bob, 5), (cat, 3), (dan, 8)):
        record_hand(
            table4,
            HandEntry(dealer=ann, contract="solo", declarer=declarer, tricks=tricks),
            secretary,
        )
    close_night(night, secretary)
    debt = ledger.night_debts(night)[0]
    ledger.mark_paid(debt, debt.amount // 2 or None, secretary, club=night.season.club)
    table_cards.issue_cards(night.season.club, secretary, count=2)
    return export_document(night.season.club)


def rows() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Club, Night, Hand, Debt, Settlement, Membership, TableCard, AuditEvent)
    }


def refused(document: dict) -> list[str]:
    before = rows()
    with pytest.raises(ImportRefused) as caught:
        import_document(read(json.dumps(document)), slug="restored")
    assert rows() == before, "a refused file writes nothing"
    return [str(p) for p in caught.value.problems]


def test_a_payment_for_an_unknown_debt_is_refused(backed_up):
    night = next(n for n in backed_up["nights"] if n["debts"])
    night["settlements"][0]["debt"] = 7
    assert refused(backed_up) == [
        "night 2026-11-20, settlement 1: 'debt' 7 is not one of this night's debts"
    ]


def test_a_debt_between_players_of_another_club_is_refused(backed_up):
    night = next(n for n in backed_up["nights"] if n["debts"])
    night["debts"][0]["payer"] = "Zed of the Red Lion"
    problems = refused(backed_up)
    assert problems == [
        "night 2026-11-20, debt 1: 'payer' 'Zed of the Red Lion' is not one of the file's players"
    ]


def test_a_member_with_no_email_is_refused(backed_up):
    member = next(a for a in backed_up["accounts"] if a["role"])
    member["email"] = ""
    assert refused(backed_up) == [
        f"account {member['username']!r}: a member needs an email: a restored member sets a "
        "password through the reset email"
    ]


def test_a_payment_of_more_than_was_owed_is_refused(backed_up):
    night = next(n for n in backed_up["nights"] if n["debts"])
    night["settlements"][0]["amount"] = night["debts"][0]["amount"] + 1
    assert refused(backed_up) == [
        "night 2026-11-20, settlement 1: debt 1 is settled for more than it was"
    ]


def test_a_backup_into_the_club_it_came_from_is_refused_whole(backed_up, club):
    before = rows()
    with pytest.raises(ImportRefused) as caught:
        import_document(read(json.dumps(backed_up)), into=club)
    assert "the club already has this night" in str(caught.value)
    assert rows() == before


def test_a_second_copy_of_a_club_on_one_server_is_refused_for_its_cards(backed_up):
    """The cards' printed codes can open one club only: a copy beside the original is refused,
    and says why, rather than taking the original's cards."""
    before = rows()
    with pytest.raises(ImportRefused) as caught:
        import_document(read(json.dumps(backed_up)), slug="copy")
    assert "its token is already a card on this server" in str(caught.value)
    assert rows() == before


def test_a_backup_merges_its_nights_and_money_owed_into_an_empty_club(
    backed_up, club, django_user_model
):
    original = export_text(club)
    delete_club(club)
    empty = Club.objects.create(name="Crown again", slug="crown2")
    into, summary = import_document(read(original), into=empty)
    assert into == empty and summary.hands == 3
    assert Debt.objects.filter(club=empty).count() == len(backed_up["nights"][0]["debts"])
    assert Settlement.objects.filter(debt__club=empty).count() == 1
    # A merge changes no club settings and makes no members or cards: those stay the club's.
    assert not Membership.objects.filter(club=empty).exists()
    assert not TableCard.objects.filter(club=empty).exists()


def test_import_club_says_every_problem_and_writes_nothing(backed_up, tmp_path):
    night = next(n for n in backed_up["nights"] if n["debts"])
    night["settlements"][0]["debt"] = 7
    night["debts"][0]["payee"] = "Nobody"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(backed_up))
    before = rows()
    with pytest.raises(CommandError) as caught:
        call_command("import_club", str(path), "--slug", "restored", stdout=io.StringIO())
    message = str(caught.value)
    assert "problem(s); nothing was written" in message
    assert "'payee' 'Nobody' is not one of the file's players" in message
    assert "'debt' 7 is not one of this night's debts" in message
    assert rows() == before
