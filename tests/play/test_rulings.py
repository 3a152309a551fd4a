"""The rulings a club makes at the table, through the app: several revokes, a void deal, a
penalty against a misère, cards wrongly dealt, the suit turned up. Each is entered on the table
page as a scorer would, stored, described in words on the sheet, the printed sheet and the results
email, and carried through the club data file (version 2) and back."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core import mail

import scoring
from club.clubs.models import RuleSet, Season
from club.clubs.services.clubs_lifecycle import delete_club
from club.clubs.services.setup import rule_set_from_preset
from club.interchange.format.document import read
from club.interchange.services.export import export_text
from club.interchange.services.importer import import_document
from club.money.services import publish as publish_service
from club.play.models import Hand
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from tests.kits.interchange_kit import check_schema, figures
from tests.play.test_table_page import (
    HTMX,
    core_amounts,
    create_url,
    db_amounts,
    field_errors,
    fields,
    table_url,
    text,
)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def save(client, table, data, number=1):
    response = client.post(create_url(table), data | {"expected_number": number}, **HTMX)
    assert response.status_code == 200
    return Hand.objects.get(table=table, number=number)


def test_two_defenders_revoke_and_each_pays_for_his_own(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "solo", declarer=ann, tricks=4, revoke_by=bob, second_revoke_by=cat)
    hand = save(scorer_client, table4, data)
    # 001: each revoke moves three tricks; "the actual offender pays the stakes".
    assert db_amounts(hand) == core_amounts(
        players[:4], contract="solo", declarer="Ann", tricks=4, revokes=("Bob", "Cat")
    )
    assert db_amounts(hand) == {"Ann": 33, "Bob": -17, "Cat": -16, "Dan": 0}
    assert [r.player.name for r in hand.revokes.order_by("position")] == ["Bob", "Cat"]
    page = text(scorer_client.get(table_url(table4)))
    assert "Made, 5 over (6 tricks from the revokes) Revokes: Bob and Cat" in page


def test_revokes_on_both_sides_void_the_deal_and_the_dealer_deals_again(
    scorer_client, table4, players
):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "solo", declarer=bob, tricks=7, revoke_by=bob, second_revoke_by=dan)
    hand = save(scorer_client, table4, data)
    assert hand.outcome == "void" and hand.made is None
    assert set(db_amounts(hand).values()) == {0}
    page = text(scorer_client.get(table_url(table4)))
    assert "Void: revokes on both sides Revokes: Bob and Dan" in page
    # Hoyle: "This new deal is by the same player".
    assert next_hand(table4)["dealer"] == ann
    assert "Dealer Ann" in page


def test_a_penalty_against_a_misere_is_recorded_with_its_offender(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "misere", declarer=bob, penalty="exposed_card", penalty_by=cat)
    hand = save(scorer_client, table4, data)
    # 001: "the misère-caller can immediately claim the stakes ... paid by the offender for
    # himself and his partners": 1s. from each of three, all from Cat.
    assert db_amounts(hand) == {"Ann": 0, "Bob": 36, "Cat": -36, "Dan": 0}
    assert (hand.penalty, hand.penalty_by, hand.tricks) == ("exposed_card", cat, None)
    assert "Cat exposed a card: the stakes are claimed" in text(
        scorer_client.get(table_url(table4))
    )


def test_a_penalty_needs_its_offender_and_only_a_misere_takes_one(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "misere", declarer=bob, penalty="exposed_card", expected_number=1)
    response = scorer_client.post(create_url(table4), data, **HTMX)
    assert "Who exposed the card" in field_errors(response, "penalty_by")
    data = fields(ann, "misere", declarer=bob, penalty="exposed_card", penalty_by=bob)
    response = scorer_client.post(create_url(table4), data | {"expected_number": 1}, **HTMX)
    assert "own disadvantage" in text(response)
    assert not Hand.objects.exists()


def test_cards_wrongly_dealt_cost_nothing_and_are_dealt_again(scorer_client, table4, players):
    ann = players[0]
    hand = save(scorer_client, table4, fields(ann, "misdeal"))
    assert (hand.contract, hand.outcome, hand.declarer, hand.tricks) == (
        "misdeal",
        "misdeal",
        None,
        None,
    )
    assert set(db_amounts(hand).values()) == {0}
    assert "Cards wrongly dealt: redeal" in text(scorer_client.get(table_url(table4)))
    assert next_hand(table4)["dealer"] == ann


@pytest.fixture
def standard_season(club, season):
    """The season under the standard preset (000): the hand records the turned suit."""
    rules = rule_set_from_preset(club, "standard", "Standard")
    season.rule_set = rules
    season.save()
    return season


def test_an_abundance_in_the_turned_suit_is_refused_where_the_rules_follow_000(
    standard_season, scorer_client, table4, players
):
    ann, bob = players[:2]
    data = fields(ann, "abundance", declarer=bob, tricks=9, trump="hearts", turned_suit="hearts")
    response = scorer_client.post(create_url(table4), data | {"expected_number": 1}, **HTMX)
    assert "enter it as Royal Abundance" in text(response)
    assert not Hand.objects.exists()
    data = fields(ann, "royal_abundance", declarer=bob, tricks=9, turned_suit="hearts")
    hand = save(scorer_client, table4, data)
    assert hand.turned_suit == "hearts" and db_amounts(hand)["Bob"] == 9
    # 000: after a misdeal "the deal will rotate clockwise to the next dealer".
    save(scorer_client, table4, fields(players[1], "misdeal"), number=2)
    assert next_hand(table4)["dealer"] == players[2]


def test_stakes_in_units_of_five_pence(club, season, players, secretary):
    rules = scoring.preset("standard").copy(name="Fives", unit="pence", stake_unit=5)
    rule_set = RuleSet.objects.create(club=club, name="Fives", data=rules.to_dict())
    fives = Season.objects.create(
        club=club,
        name="Fives",
        start=dt.date(2027, 4, 1),
        end=dt.date(2027, 6, 30),
        rule_set=rule_set,
    )
    night = create_night(fives, dt.date(2027, 4, 2), [(players[:4], 0)])
    table = night.tables.get()
    hand = record_hand(
        table,
        HandEntry(
            dealer=players[0], contract="abundance", declarer=players[1], tricks=9, trump="spades"
        ),
        secretary,
    )
    # 000: abundance is 3 points: in units of 5p, 15p from each.
    assert db_amounts(hand) == {"Ann": -15, "Bob": 45, "Cat": -15, "Dan": -15}


# --- in words: the printed sheet and the results email ---------------------------------------


@pytest.fixture
def ruled_night(night, table4, table5, players, secretary):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    record_hand(
        table4,
        HandEntry(dealer=ann, contract="solo", declarer=ann, tricks=4, revokes=(bob, cat)),
        secretary,
    )
    record_hand(
        table4,
        HandEntry(
            dealer=bob, contract="misere", declarer=cat, penalty="lead_out_of_turn", penalty_by=dan
        ),
        secretary,
    )
    record_hand(table4, HandEntry(dealer=cat, contract="misdeal"), secretary)
    record_hand(
        table5,
        HandEntry(dealer=eve, contract="solo", declarer=fay, tricks=6, revokes=(fay, gus)),
        secretary,
    )
    return night


def test_the_printed_sheet_writes_the_rulings_in_words(client, secretary, ruled_night):
    from tests.play.test_sheets import pages

    client.force_login(secretary)
    response = client.get(f"/c/crown/nights/{ruled_night.pk}/sheet.pdf")
    printed = " ".join(" ".join(page.split()) for page in pages(response))
    assert "(Revokes: Bob and Cat)" in printed
    assert "(Dan led out of turn: the stakes are claimed)" in printed
    assert "Cards wrongly dealt: redeal" in printed
    assert "Void: revokes on both sides (Revokes: Fay and Gus)" in printed


def test_the_results_email_names_the_rulings_in_each_players_hands(
    ruled_night, players, secretary, monkeypatch
):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())
    for p in players:
        p.email, p.email_results = f"{p.name.lower()}@example.org", True
        p.save()
    close_night(ruled_night, secretary)
    mail.outbox.clear()
    publish_service.publish(ruled_night, secretary)
    by_name = {m.to[0].split("@")[0]: m.body for m in mail.outbox}
    assert (
        "Table 1, hand 1: Made, 5 over (6 tricks from the revokes); Revokes: Bob and Cat"
        in (by_name["dan"])
    )
    assert "Table 1, hand 2: Made; Dan led out of turn: the stakes are claimed" in by_name["dan"]
    assert "Table 2, hand 1: Void: revokes on both sides; Revokes: Fay and Gus" in by_name["eve"]
    assert "ivy" not in by_name  # Ivy sat out table 2's only hand: she played none, no email


# --- the club data file ----------------------------------------------------------------------


def test_every_ruling_round_trips_through_the_club_data_file(club, ruled_night, secretary):
    before = figures(club)
    text_before = export_text(club)
    document = json.loads(text_before)
    check_schema(document)
    assert document["version"] == 3
    hands = document["nights"][0]["tables"][0]["hands"]
    assert hands[0]["revokes"] == ["Bob", "Cat"]
    assert (hands[1]["penalty"], hands[1]["penalty_by"]) == ("lead_out_of_turn", "Dan")
    assert hands[2]["contract"] == "misdeal"
    delete_club(club)
    restored, _ = import_document(read(text_before), user=secretary)
    assert figures(restored) == before
    assert export_text(restored).splitlines()[4:] == text_before.splitlines()[4:]


def test_a_version_1_file_still_means_what_it_meant(db):
    """Version 1 let a rule set carry a misère under-trick the core ignored (a cents rule set
    with a misère under-trick of 5 still paid 25): it imports, and pays 25."""
    from tests.interchange.test_bad_input import SEATS, sample

    document = sample()
    rules = scoring.preset("cents").to_dict()
    for key in ("stake_unit", "redeal_by", "record_turned_suit", "abundance_in_turned_suit"):
        rules.pop(key)  # a version-1 file holds none of them
    rules["stakes"]["misere"]["under"] = 5
    document["rule_sets"] = [{"name": "Six, twelve and eighteen", "rules": rules}]
    document["club"]["unit"] = "cents"  # the club counts in the rule set's unit
    hands = document["nights"][0]["tables"][0]["hands"]
    hands[0].pop("amounts")
    hands[1].update(revoke_by="Dan Whitaker")  # a revoke against Cat's misère: she wins it
    club, summary = import_document(read(json.dumps(document)))
    misere = Hand.objects.get(table__night__date="2026-11-20", number=2)
    assert db_amounts(misere) == {SEATS[2]: 75, SEATS[3]: -75, SEATS[0]: 0, SEATS[1]: 0}
    assert [r.player.name for r in misere.revokes.all()] == ["Dan Whitaker"]
    assert RuleSet.objects.get(club=club).rules.stake(scoring.Contract.MISERE).under == 0
