"""Paper sheets typed into a spreadsheet: one row a hand, imported through the same checks as a
club data file, with every problem named by its row (the header is row 1)."""

from __future__ import annotations

import datetime as dt

import pytest

import scoring
from club.clubs.models import Player
from club.interchange.format.document import ImportRefused
from club.interchange.services.csv_sheets import read_csv, template
from club.interchange.services.importer import import_document
from club.play.models import Hand, Night
from tests.interchange.test_bad_input import counts

pytestmark = pytest.mark.django_db

HEADER = (
    "Date,Table,Seats,Dealer,Contract,Declarer,Partner,Trump,Tricks,Revoke,Last trick,Amounts\n"
)


def refused(text: str, club) -> list[str]:
    before = counts()
    with pytest.raises(ImportRefused) as error:
        import_document(read_csv(text.encode(), club), into=club)
    assert counts() == before
    return [str(p) for p in error.value.problems]


def test_a_typed_sheet_imports_with_names_aliases_and_checked_amounts(club, season, players):
    sheet = HEADER + (
        "20/11/2026,1,ann; bob; cat; dan,Ann,Prop & Cop,Ann,Cat,,9,,,7;-7;7;-7\n"
        "20/11/2026,1,,,Abondance,Bob,,♠,10,,,-20;60;-20;-20\n"
        "20/11/2026,1,,,Misère Ouverte,Dan,,,0,,,Ann: -24; Bob: -24; Cat: -24; Dan: 72\n"
        "20/11/2026,1,,,all passed,,,,,,,\n"
        "20/11/2026,1,,,solo,Ann,,,7,Ann,,\n"
        "2026-11-20,2,Eve;Fay;Gus;Hal;Ivy,Eve,solo,Fay,,,5,,,\n"
        "2026-11-20,2,,,misere,Gus,,,0,,,;-12;36;-12;-12\n"
    )
    _, summary = import_document(read_csv(sheet.encode(), club), into=club)
    assert (summary.hands, summary.tables, summary.players_added) == (7, 2, [])
    night = Night.objects.get(season=season, date=dt.date(2026, 11, 20))
    assert night.is_closed  # a paper sheet is a night that is over
    abundance = Hand.objects.get(table__night=night, table__number=1, number=2)
    assert (abundance.contract, abundance.trump, abundance.over_tricks) == (
        "abundance",
        "spades",
        1,
    )
    # The revoke by the declarer: checked against the scoring core directly.
    revoked = Hand.objects.get(table__night=night, table__number=1, number=5)
    expected = scoring.score_hand(
        scoring.Hand(
            ("Ann", "Bob", "Cat", "Dan"), "solo", declarer="Ann", tricks=7, revoke_by="Ann"
        ),
        scoring.preset("hoyle"),
    ).amounts
    assert {line.player.name: line.amount for line in revoked.score_lines.all()} == expected
    # At the table of five, Ivy (on the dealer Eve's right) sat out the first hand.
    first = Hand.objects.get(table__night=night, table__number=2, number=1)
    assert first.sitting_out.name == "Ivy"
    assert Player.objects.filter(club=club).count() == 9  # matched ignoring case, none added


def test_new_names_are_added_as_players(club, season, players):
    sheet = HEADER + "2026-11-20,1,Ann;Bob;Cat;Zoë New,,solo,Zoë New,,,5,,,\n"
    _, summary = import_document(read_csv(sheet.encode(), club), into=club)
    assert summary.players_added == ["Zoë New"]


def test_problems_are_named_by_row(club, season, players):
    sheet = HEADER + (
        "2026-11-20,1,Ann;Bob;Cat;Dan,,solo,Bob,,,5,,,\n"  # row 2: fine
        "2026-13-40,1,,,solo,Bob,,,5,,,\n"  # row 3: no such date
        "2026-11-20,1,,,solo,Bob,,,14,,,\n"  # row 4: 14 tricks
        "2026-11-20,1,,,solo,Eve,,,5,,,\n"  # row 5: Eve is not at table 1
        "2026-11-20,1,,,royal,Bob,,,9,,,\n"  # row 6: no such contract
    )
    assert refused(sheet, club) == [
        "row 3: 'date' '2026-13-40' is not a date (write 2026-11-20 or 20/11/2026)",
        "row 6: 'contract' 'royal' is not a Solo Whist contract",
    ]
    sheet = HEADER + (
        "2026-11-20,1,Ann;Bob;Cat;Dan,,solo,Bob,,,5,,,\n"
        "2026-11-20,1,,,solo,Bob,,,14,,,\n"
        "2026-11-20,1,,,solo,Eve,,,5,,,\n"
        "2026-11-20,1,,,solo,Bob,,,5,Eve,,\n"
    )
    assert refused(sheet, club) == [
        "row 3 (night 2026-11-20, table 1, hand 2): 'tricks' is 14: a hand has 13 tricks (0 to 13)",
        "row 4 (night 2026-11-20, table 1, hand 3): 'declarer' 'Eve' is not at this table "
        "(seats: Ann, Bob, Cat, Dan)",
        "row 5 (night 2026-11-20, table 1, hand 4): 'revoke_by' 'Eve' is not at this table "
        "(seats: Ann, Bob, Cat, Dan)",
    ]


def test_a_sheets_arithmetic_mistake_is_found_by_row(club, season, players):
    sheet = HEADER + (
        "2026-11-20,1,Ann;Bob;Cat;Dan,,solo,Bob,,,5,,,-6;18;-6;-6\n"
        "2026-11-20,1,,,solo,Cat,,,4,,,7;7;-21;6\n"
    )
    assert refused(sheet, club) == [
        "row 3 (night 2026-11-20, table 1, hand 2): the amounts differ from the app's under the "
        "rule set 'Hoyle sixpences': Dan: the file says 6, the app scores 7"
    ]


def test_seats_that_change_within_a_table(club, season, players):
    sheet = HEADER + (
        "2026-11-20,1,Ann;Bob;Cat;Dan,,solo,Bob,,,5,,,\n"
        "2026-11-20,1,Ann;Bob;Cat;Eve,,solo,Bob,,,5,,,\n"
    )
    assert refused(sheet, club) == [
        "row 3: 'seats' differ from row 2's for table 1: start another table or night for a "
        "change of seats"
    ]


def test_a_date_no_season_contains(club, season, players):
    sheet = HEADER + "2025-01-10,1,Ann;Bob;Cat;Dan,,solo,Bob,,,5,,,\n"
    assert refused(sheet, club) == [
        "row 2: no season of Crown & Anchor Solo School runs on 2025-01-10: add the season first"
    ]


def test_unknown_and_missing_columns(club, season):
    assert refused("Date,Tabel,Contract,Colour\n2026-11-20,1,solo,red\n", club) == [
        "row 1: unknown column(s) tabel, colour: the columns are date, title, season, table, "
        "seats, dealer, contract, declarer, partner, trump, tricks, revoke, last_trick, amounts, "
        "notes, penalty, penalty_by, turned_suit",
        "row 1: the column(s) table are missing",
    ]


def test_the_template_is_a_valid_sheet(club, hoyle):
    from club.clubs.models import Season

    Season.objects.create(
        club=club, name="Winter 2026", start=dt.date(2026, 9, 1), end=dt.date(2027, 3, 31),
        rule_set=hoyle,
    )  # fmt: skip
    _, summary = import_document(read_csv(template(), club), into=club)
    assert summary.hands == 4


def test_a_paper_sheet_records_several_revokes_a_penalty_and_a_misdeal(club, season, players):
    """The paper sheet's `revoke` column takes several names (";"), and the optional `penalty`
    and `penalty_by` columns a misère's penalty; "misdeal" is cards wrongly dealt."""
    raw = (
        b"date,table,seats,contract,declarer,tricks,revoke,penalty,penalty_by\n"
        b"2026-11-20,1,Ann; Bob; Cat; Dan,solo,Ann,4,Bob; Cat,,\n"
        b"2026-11-20,1,,misere,Cat,,,exposed card,Dan\n"
        b"2026-11-20,1,,misdeal,,,,,\n"
    )
    document = read_csv(raw, club)
    hands = document.nights[0].tables[0].hands
    assert hands[0].revokes == ["Bob", "Cat"]
    assert (hands[1].penalty, hands[1].penalty_by) == ("exposed_card", "Dan")
    assert hands[2].contract == "misdeal"
    _club, summary = import_document(document, into=club)
    assert summary.hands == 3
