"""Cards improperly divided, found after the first call (Hoyle's Games Modernized, Solo Whist, A
Digest of the Laws), through the app: ticked at the table, scored by the core's ruling, written in
words on the sheet and in the results email, corrected, and carried through the club data file."""

from __future__ import annotations

import json
import re

import pytest
from django.core import mail

from club.clubs.services.clubs_lifecycle import delete_club
from club.interchange.format.document import read
from club.interchange.services.export import export_text
from club.interchange.services.importer import import_document
from club.money.services import publish as publish_service
from club.play.models import Hand
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.nights import close_night
from tests.kits.interchange_kit import check_schema, figures
from tests.play.test_table_page import (
    HTMX,
    core_amounts,
    create_url,
    db_amounts,
    fields,
    table_url,
    text,
)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def post(client, table, data, number=1):
    return client.post(create_url(table), data | {"expected_number": number}, **HTMX)


def test_a_declarer_with_the_right_cards_wins_whatever_his_tricks(scorer_client, table4, players):
    """Ann's solo took 2 tricks, but Bob held 14 cards and Cat 12: Ann wins 6d. from each of the
    three, Bob and Cat paying it between them; no tricks are needed."""
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "solo", declarer=ann, tricks=2) | {"wrong_cards": [bob.pk, cat.pk]}
    assert post(scorer_client, table4, data).status_code == 200
    hand = Hand.objects.get(table=table4, number=1)
    assert hand.wrong_cards == [bob.pk, cat.pk]
    assert db_amounts(hand) == core_amounts(
        players[:4], contract="solo", declarer="Ann", tricks=2, wrong_cards=("Bob", "Cat")
    )
    assert db_amounts(hand) == {"Ann": 18, "Bob": -9, "Cat": -9, "Dan": 0}
    sheet = text(scorer_client.get(table_url(table4)))
    assert "Won: cards wrongly divided Wrong number of cards: Bob and Cat" in sheet


def test_a_declarer_with_the_wrong_number_loses_with_no_tricks_entered(
    scorer_client, table4, players
):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "misere", declarer=cat) | {"wrong_cards": [cat.pk]}
    assert post(scorer_client, table4, data).status_code == 200
    hand = Hand.objects.get(table=table4, number=1)
    assert hand.tricks is None
    assert db_amounts(hand) == {"Ann": 12, "Bob": 12, "Cat": -36, "Dan": 12}


def test_wrong_cards_with_a_fresh_deal_or_a_stranger_are_refused_and_nothing_saved(
    scorer_client, table4, players
):
    ann, bob = players[:2]
    response = post(scorer_client, table4, fields(ann, "misdeal") | {"wrong_cards": [bob.pk]})
    assert "before the first call" in text(response)
    stranger = players[6]
    data = fields(ann, "solo", declarer=ann, tricks=5) | {"wrong_cards": [stranger.pk]}
    assert "Tick only players taking part" in text(post(scorer_client, table4, data))
    assert not Hand.objects.exists()


def test_a_correction_shows_and_keeps_who_was_ticked(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    hand = record_hand(
        table4,
        HandEntry(dealer=ann, contract="solo", declarer=ann, tricks=7, wrong_cards=(dan,)),
        None,
    )
    from club.play.forms.hand_factories import edit_hand_form

    boxes = re.findall(r"<input[^>]*>", str(edit_hand_form(hand)["wrong_cards"]))
    ticked = [b for b in boxes if " checked" in b]
    assert len(boxes) == 4 and len(ticked) == 1 and f'value="{dan.pk}"' in ticked[0]


@pytest.fixture
def divided_night(night, table4, players, secretary):
    ann, bob, cat, dan = players[:4]
    record_hand(
        table4,
        HandEntry(dealer=ann, contract="solo", declarer=ann, tricks=3, wrong_cards=(bob, cat)),
        secretary,
    )
    record_hand(
        table4,
        HandEntry(dealer=bob, contract="prop_cop", declarer=cat, partner=dan, wrong_cards=(dan,)),
        secretary,
    )
    return night


def test_the_results_email_names_who_held_the_wrong_number(
    divided_night, players, secretary, monkeypatch
):
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())
    for p in players:
        p.email, p.email_results = f"{p.name.lower()}@example.org", True
        p.save()
    close_night(divided_night, secretary)
    mail.outbox.clear()
    publish_service.publish(divided_night, secretary)
    body = next(m.body for m in mail.outbox if m.to[0].startswith("ann@"))
    assert "Table 1, hand 1: Won: cards wrongly divided; Wrong number of cards: Bob and Cat" in body
    assert "Table 1, hand 2: Lost: cards wrongly divided; Wrong number of cards: Dan" in body


def test_who_held_the_wrong_number_round_trips_through_the_club_data_file(
    club, divided_night, secretary
):
    before = figures(club)
    exported = export_text(club)
    document = json.loads(exported)
    check_schema(document)
    hands = document["nights"][0]["tables"][0]["hands"]
    assert hands[0]["wrong_cards"] == ["Bob", "Cat"]
    assert hands[1]["wrong_cards"] == ["Dan"] and hands[1]["tricks"] is None
    delete_club(club)
    restored, _ = import_document(read(exported), user=secretary)
    assert figures(restored) == before
    assert export_text(restored).splitlines()[4:] == exported.splitlines()[4:]


def test_a_file_naming_a_stranger_as_holding_the_wrong_cards_is_refused(
    club, divided_night, secretary
):
    from club.interchange.format.document import ImportRefused

    document = json.loads(export_text(club))
    document["nights"][0]["tables"][0]["hands"][0]["wrong_cards"] = ["Bob", "Zed"]
    delete_club(club)
    with pytest.raises(
        ImportRefused, match="'wrong_cards' names \"Zed\", who is not at this table"
    ):
        import_document(read(json.dumps(document)), user=secretary)


def test_a_correction_that_clears_the_wrong_cards_scores_the_play_again(table4, players, secretary):
    """Entered as cards wrongly divided by mistake: cleared, the hand pays on its tricks."""
    from club.play.services.hands import update_hand

    ann, bob, cat, dan = players[:4]
    hand = record_hand(
        table4,
        HandEntry(dealer=ann, contract="solo", declarer=ann, tricks=3, wrong_cards=(bob,)),
        secretary,
    )
    assert db_amounts(hand) == {"Ann": 18, "Bob": -18, "Cat": 0, "Dan": 0}
    fixed = update_hand(
        hand,
        HandEntry(dealer=ann, contract="solo", declarer=ann, tricks=3),
        secretary,
        hand.version,
    )
    assert fixed.wrong_cards == []
    assert db_amounts(fixed) == {"Ann": -24, "Bob": 8, "Cat": 8, "Dan": 8}  # 6d. + 2 under at 1d.
