"""An entry is sent once, and a different entry is never taken for a resend: the server compares a
save arriving under a used client id with what it stored under that id (the same hand is "already
saved"; another hand is refused with both shown and offered as the next hand, nothing dropped),
and every page holding an entry form tells the browser not to keep it (`no-store`), so Back and
Forward bring a fresh form rather than one holding a used id."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent
from club.play.models import Hand, ScoreLine
from club.play.services import table_links as link_service
from club.play.services import tokens as token_service
from club.play.services.hand_entry import HandEntry, entry_digest
from club.play.services.hands import EntryReused, record_hand, save_hand, update_hand
from tests.play.test_hand_save import HTMX, create_url, form_data, page_text
from tests.play.test_table_page import chosen


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def test_the_same_entry_sent_again_is_already_saved(scorer_client, table4, players):
    ann, bob = players[:2]
    data = form_data(ann, bob, 6, 1, notes="first")
    scorer_client.post(create_url(table4), data, **HTMX)
    again = scorer_client.post(create_url(table4), data, **HTMX)
    assert again.status_code == 200 and again["X-Hand-Outcome"] == "resent"
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [
        {"tricks": 7},
        {"declarer": "cat"},
        {"notes": "another"},
        {"contract": "misere", "tricks": 0},
        {"revoke_by": "dan"},
    ],
)
def test_a_different_hand_under_a_used_id_is_refused_with_both_shown(
    scorer_client, table4, players, change
):
    """Back then Forward brought back a page holding hand 1's id: a different hand sent under it
    is not "already saved" (and dropped): it is refused, both are shown, and it is offered as hand
    2 with hand 2's dealer and a new id."""
    ann, bob, cat, dan = players[:4]
    who = {"cat": cat.pk, "dan": dan.pk}
    first = form_data(ann, bob, 6, 1)
    assert scorer_client.post(create_url(table4), first, **HTMX)["X-Hand-Outcome"] == "saved"
    other = first | {k: who.get(v, v) if isinstance(v, str) else v for k, v in change.items()}
    answer = scorer_client.post(create_url(table4), other, **HTMX)
    assert answer.status_code == 409 and answer["X-Hand-Outcome"] == "moved-on"
    assert answer["X-Next-Number"] == "2" and answer["X-Next-Dealer"] == str(bob.pk)
    text, html = page_text(answer), answer.content.decode()
    assert "the same entry sent again" not in text
    assert "Hand 1 was already saved from this form, and this is a different hand" in text
    assert "save it as hand 2" in text
    # Both versions: hand 1 as saved, and this one in the form as hand 2.
    assert "Saved as hand 1: Solo by Bob, 6 tricks" in text
    assert 'name="expected_number" value="2"' in html and "Save hand 2" in text
    assert chosen(html, "contract") == other["contract"]
    new_id = re.search(r'name="client_id" value="([0-9a-f-]{36})"', html).group(1)
    assert new_id != first["client_id"]
    assert Hand.objects.count() == 1 and Hand.objects.get().tricks == 6
    # Saved as hand 2 when asked, under its new id.
    moved = other | {"expected_number": 2, "dealer": bob.pk, "client_id": new_id}
    saved = scorer_client.post(create_url(table4), moved, **HTMX)
    assert saved["X-Hand-Outcome"] == "saved"
    assert Hand.objects.count() == 2 and ScoreLine.objects.count() == 8


def test_without_htmx_a_different_hand_under_a_used_id_is_refused_too(
    scorer_client, table4, players
):
    ann, bob, cat = players[:3]
    first = form_data(ann, bob, 6, 1)
    scorer_client.post(create_url(table4), first)
    answer = scorer_client.post(create_url(table4), first | {"declarer": cat.pk})
    assert answer.status_code == 409
    text = page_text(answer)
    assert "this is a different hand, so it was not saved" in text
    assert "Saved as hand 1: Solo by Bob" in text
    assert Hand.objects.count() == 1


def test_through_a_tables_link_a_different_hand_under_a_used_id_is_refused(
    client, table4, players, secretary
):
    ann, bob, cat = players[:3]
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    url = reverse("link_create", args=[link.token])
    first = form_data(ann, bob, 6, 1)
    assert client.post(url, first, **HTMX)["X-Hand-Outcome"] == "saved"
    assert client.post(url, first, **HTMX)["X-Hand-Outcome"] == "resent"
    answer = client.post(url, first | {"declarer": cat.pk, "tricks": 8}, **HTMX)
    assert answer.status_code == 409 and answer["X-Hand-Outcome"] == "moved-on"
    assert "Saved as hand 1: Solo by Bob" in page_text(answer)
    assert Hand.objects.count() == 1


def test_the_comparison_is_with_the_entry_as_first_sent_not_as_corrected(
    table4, players, secretary
):
    """Hand 1 corrected on another device after it was saved; its phone's offline queue then
    sends the original entry again (the reply was lost): that is still the same entry, sent
    again, not a different hand."""
    ann, bob, cat = players[:3]
    key = uuid.uuid4()
    entry = HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6)
    hand = record_hand(table4, entry, secretary, 1, client_id=key)
    update_hand(hand, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=4), secretary, 1)
    again = save_hand(table4, entry, secretary, 1, client_id=key)
    assert again.hand.pk == hand.pk and again.outcome == "resent"
    with pytest.raises(EntryReused) as refused:
        record_hand(
            table4,
            HandEntry(dealer=ann, contract="solo", declarer=cat, tricks=6),
            secretary,
            1,
            client_id=key,
        )
    assert refused.value.earlier.pk == hand.pk and refused.value.next_number == 2
    assert Hand.objects.count() == 1
    assert AuditEvent.objects.filter(action=AuditEvent.Action.CREATE).count() == 1


def test_a_hand_saved_before_entries_kept_a_fingerprint_is_compared_by_its_fields(
    table4, players, secretary
):
    ann, bob, cat, dan = players[:4]
    key = uuid.uuid4()
    entry = HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6, revoke_by=dan)
    hand = record_hand(table4, entry, secretary, 1, client_id=key)
    Hand.objects.filter(pk=hand.pk).update(entry_digest="")
    assert save_hand(table4, entry, secretary, client_id=key).outcome == "resent"
    with pytest.raises(EntryReused):
        record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6),
                    secretary, client_id=key)  # fmt: skip


def test_the_fingerprint_reads_every_field_and_no_more(players):
    ann, bob, cat, dan = players[:4]
    base = HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=cat, tricks=8)
    same = HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=cat, tricks=8)
    assert entry_digest(base) == entry_digest(same)
    # One revoke given either way is the same entry.
    one = HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5, revoke_by=dan)
    listed = HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5, revokes=(dan,))
    assert entry_digest(one) == entry_digest(listed)
    for changed in (
        HandEntry(dealer=bob, contract="prop_cop", declarer=bob, partner=cat, tricks=8),
        HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=dan, tricks=8),
        HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=cat, tricks=9),
        HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=cat, tricks=8, notes="x"),
        HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=cat, tricks=8, trump="h"),
    ):
        assert entry_digest(changed) != entry_digest(base)


# --- pages holding an entry form are not kept by the browser ------------------------------------


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_every_page_holding_an_entry_form_is_no_store(
    client, club, secretary, night, table4, players
):
    ann, bob = players[:2]
    hand = record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6),
                       secretary)  # fmt: skip
    link = link_service.night_links(night, secretary)[table4.pk]
    club.door_check_in = True
    club.save()
    door = token_service.door_token(club)
    phone = Client()
    for url in (
        reverse("link_table", args=[link.token]),
        reverse("link_edit", args=[link.token, hand.pk]),
        reverse("link_delete", args=[link.token, hand.pk]),
        reverse("club_door", args=[club.slug, door]),
    ):
        response = phone.get(url)
        assert response.status_code == 200 and _no_store(response), url
    client.force_login(secretary)
    for url in (
        reverse("table_detail", args=[club.slug, table4.pk]),
        reverse("hand_edit", args=[club.slug, hand.pk]),
        reverse("hand_delete", args=[club.slug, hand.pk]),
        reverse("arrivals", args=[club.slug]),
        reverse("door_qr", args=[club.slug]),
        reverse("club_ledger", args=[club.slug]),
        reverse("night_detail", args=[club.slug, night.pk]),
        reverse("night_create", args=[club.slug]),
        reverse("player_detail", args=[club.slug, bob.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200 and _no_store(response), url
    # The sheet's poll keeps its ETag (one aggregate query, 304 when nothing changed).
    poll = client.get(reverse("table_detail", args=[club.slug, table4.pk]), **HTMX)
    again = client.get(
        reverse("table_detail", args=[club.slug, table4.pk]),
        HTTP_IF_NONE_MATCH=poll["ETag"],
        **HTMX,
    )
    assert again.status_code == 304
