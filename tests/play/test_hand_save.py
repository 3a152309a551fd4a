"""Saving hands from the table: the client-made id that makes a resent save harmless, what the
scorer is told when the table moved on (another device saved first, a hand went missing), and a
stale correction that shows the other version beside this one."""

from __future__ import annotations

import html as html_lib
import json
import re
import uuid

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from club.lib import live_marks
from club.play.models import Hand, ScoreLine
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import HandConflict, record_hand
from tests.play.test_table_page import chosen


def solo(dealer, declarer, tricks=5) -> HandEntry:
    return HandEntry(dealer=dealer, contract="solo", declarer=declarer, tricks=tricks)


# --- the message when the previous hand is missing ----------------------------------


def test_a_missing_previous_hand_is_named_not_hand_0(table4, players, secretary):
    """The form showed hand 2 (hand 1 was on the sheet then), but hand 1 is not there now (it was
    deleted, or its save never arrived): the message says so and what to do, not 'Hand 0 was
    saved by someone else'."""
    ann, bob = players[:2]
    with pytest.raises(HandConflict) as refused:
        record_hand(table4, solo(ann, bob), secretary, expected_number=2)
    message = str(refused.value)
    assert "Hand 0" not in message and "someone else" not in message
    assert "Hand 1 is not on the sheet" in message
    assert "this hand would be hand 1, not hand 2" in message
    assert not Hand.objects.exists()


def test_hands_saved_elsewhere_are_named_from_the_one_this_form_showed(
    table4, players, secretary, scorer
):
    ann, bob, cat, dan = players[:4]
    record_hand(table4, solo(ann, bob), scorer, expected_number=1)
    record_hand(table4, solo(bob, cat), scorer, expected_number=2)
    with pytest.raises(HandConflict) as refused:
        record_hand(table4, solo(ann, dan), secretary, expected_number=1)
    message = str(refused.value)
    assert "Hands 1 and 2 were saved by someone else while you were entering this one" in message
    assert "hand 3" in message
    assert refused.value.next_number == 3


# --- the client-made id: a save sent twice is recorded once -------------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}


def create_url(table) -> str:
    return reverse("hand_create", args=["crown", table.pk])


def form_data(dealer, declarer, tricks, number, client_id=None, **extra) -> dict[str, object]:
    data = {
        "dealer": dealer.pk,
        "contract": "solo",
        "declarer": declarer.pk,
        "tricks": tricks,
        "expected_number": number,
        "client_id": str(client_id or uuid.uuid4()),
    }
    return data | extra


def page_text(response) -> str:
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.content.decode(), flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def test_each_fresh_form_carries_its_own_client_id(scorer_client, table4):
    ids = set()
    for _ in range(2):
        html = scorer_client.get(reverse("table_detail", args=["crown", table4.pk])).content
        ids |= set(re.findall(rb'name="client_id" value="([0-9a-f-]{36})"', html))
    assert len(ids) == 2


def test_a_resent_save_says_already_saved_and_records_once(scorer_client, table4, players):
    ann, bob = players[:2]
    data = form_data(ann, bob, 6, 1)
    first = scorer_client.post(create_url(table4), data, **HTMX)
    assert first.status_code == 200 and first["X-Hand-Outcome"] == "saved"
    # The reply was lost; the phone sends the very same save again.
    again = scorer_client.post(create_url(table4), data, **HTMX)
    assert again.status_code == 200 and again["X-Hand-Outcome"] == "resent"
    text = page_text(again)
    assert "Hand 1 was already saved: this was the same entry sent again." in text
    assert "someone else" not in text
    assert Hand.objects.count() == 1 and ScoreLine.objects.count() == 4
    hand = Hand.objects.get()
    assert str(hand.client_id) == data["client_id"] and hand.tricks == 6
    # Without htmx: the same, through a redirect and a message.
    plain = scorer_client.post(create_url(table4), data, follow=True)
    assert "Hand 1 was already saved" in page_text(plain) and Hand.objects.count() == 1


def test_a_resend_is_recognised_even_after_the_table_moved_on_or_closed(
    scorer_client, scorer, secretary, night, table4, players
):
    ann, bob, cat = players[:3]
    data = form_data(ann, bob, 6, 1)
    scorer_client.post(create_url(table4), data, **HTMX)
    record_hand(table4, solo(bob, cat), secretary, expected_number=2)
    from club.play.services.nights import close_night

    close_night(night, secretary)
    again = scorer_client.post(create_url(table4), data, **HTMX)
    # The night is closed, but this save was recorded before: say so, not "closed".
    assert again["X-Hand-Outcome"] == "resent"
    assert Hand.objects.count() == 2


def test_a_client_id_used_at_another_table_is_refused(table4, table5, players, secretary):
    ann, bob = players[:2]
    eve, fay = players[4:6]
    same = uuid.uuid4()
    record_hand(table4, solo(ann, bob), secretary, client_id=same)
    with pytest.raises(HandConflict, match="already saved at another table"):
        record_hand(table5, solo(eve, fay), secretary, client_id=same)
    assert Hand.objects.count() == 1


def test_the_client_id_is_unique_in_the_database(table4, players, secretary):
    ann, bob = players[:2]
    hand = record_hand(table4, solo(ann, bob), secretary, client_id=uuid.uuid4())
    copy = Hand.objects.get(pk=hand.pk)
    copy.pk, copy.number = None, 2
    with pytest.raises(IntegrityError), transaction.atomic():
        copy.save()


def test_a_malformed_client_id_is_a_clear_error(scorer_client, table4, players):
    ann, bob = players[:2]
    response = scorer_client.post(
        create_url(table4), form_data(ann, bob, 6, 1, client_id="not-a-uuid"), **HTMX
    )
    assert response.status_code == 422 and response["X-Hand-Outcome"] == "invalid"
    assert "This form is out of date: reload the page." in page_text(response)
    assert not Hand.objects.exists()


# --- two devices at one table --------------------------------------------------------------------


def test_when_another_device_saved_first_what_was_typed_is_kept_as_the_next_hand(
    client, scorer, secretary, table4, players
):
    ann, bob, cat, dan = players[:4]
    record_hand(table4, solo(ann, bob), secretary, expected_number=1)
    client.force_login(scorer)
    mine = form_data(ann, cat, 8, 1, trump="", notes="Cat's big one")
    response = client.post(create_url(table4), mine, **HTMX)
    assert response.status_code == 409 and response["X-Hand-Outcome"] == "moved-on"
    assert response["X-Next-Number"] == "2" and response["X-Next-Dealer"] == str(bob.pk)
    html = response.content.decode()
    text = page_text(response)
    assert "Hand 1 was saved by someone else while you were entering this one" in text
    assert "save it as hand 2" in text and "Discard mine" in text
    # What this scorer typed is still there, now as hand 2 with hand 2's dealer.
    assert chosen(html, "declarer") == str(cat.pk)
    assert 'name="tricks" value="8"' in html and "Cat&#x27;s big one" in html
    assert 'name="expected_number" value="2"' in html and "Save hand 2" in text
    # Saved as hand 2 it is a new entry, under a new client id.
    kept_id = re.search(r'name="client_id" value="([0-9a-f-]{36})"', html).group(1)
    assert kept_id != mine["client_id"]
    assert re.search(r"Dealer\s*<strong>Bob</strong>", html)
    # The message is beside the Save button, not above the sheet.
    save_area = html[html.index('id="save-hand"') :]
    assert "saved by someone else" in save_area[: save_area.index("</form>")]
    # Saving it as hand 2 then works.
    again = client.post(create_url(table4), mine | {"expected_number": 2, "dealer": bob.pk}, **HTMX)
    assert again.status_code == 200 and again["X-Hand-Outcome"] == "saved"
    assert list(Hand.objects.order_by("number").values_list("declarer__name", "number")) == [
        ("Bob", 1),
        ("Cat", 2),
    ]


def test_a_missing_hand_is_explained_on_the_page_and_offered_as_that_number(
    scorer_client, table4, players
):
    ann, bob = players[:2]
    response = scorer_client.post(create_url(table4), form_data(ann, bob, 6, 2), **HTMX)
    assert response.status_code == 409 and response["X-Next-Number"] == "1"
    text = page_text(response)
    assert "Hand 1 is not on the sheet" in text and "Hand 0" not in text
    assert "Save hand 1" in text


def test_a_stale_correction_shows_the_other_version_and_can_then_replace_it(
    client, scorer, secretary, table4, players
):
    ann, bob, cat, dan = players[:4]
    hand = record_hand(table4, solo(ann, bob), secretary)
    edit = reverse("hand_edit", args=["crown", hand.pk])
    # The secretary corrects it first (Cat declared, 7 tricks)...
    other = Client()
    other.force_login(secretary)
    theirs = {"dealer": ann.pk, "contract": "solo", "declarer": cat.pk, "tricks": 7, "version": 1}
    assert other.post(edit, theirs, **HTMX).status_code == 200
    # ...then the scorer, from the form opened before, says Dan declared with 4.
    client.force_login(scorer)
    mine = theirs | {"declarer": dan.pk, "tricks": 4}
    response = client.post(edit, mine, **HTMX)
    assert response.status_code == 409
    text = page_text(response)
    assert "Their version (saved): Solo by Cat, 7 tricks, dealt by Ann." in text
    assert "Save mine instead" in text and "Keep theirs" in text
    html = response.content.decode()
    assert chosen(html, "declarer") == str(dan.pk)
    assert 'name="version" value="2"' in html
    assert 'id="sheet" class="sheet" hx-swap-oob="true"' in html  # the sheet as it is now
    # Saving again replaces theirs knowingly instead of failing the same way.
    response = client.post(edit, mine | {"version": 2}, **HTMX)
    assert response.status_code == 200
    hand.refresh_from_db()
    assert (hand.declarer, hand.tricks, hand.version) == (dan, 4, 3)


# --- the sheet refreshes itself: a cheap "nothing changed" -------------------------------------


def test_the_sheet_poll_answers_not_modified_until_a_hand_changes(
    client, viewer, secretary, table4, players, django_assert_max_num_queries
):
    ann, bob, cat = players[:3]
    record_hand(table4, solo(ann, bob), secretary)
    client.force_login(viewer)
    url = reverse("table_detail", args=["crown", table4.pk])
    page = client.get(url)
    etag = re.search(r'data-sheet-etag="([^"]+)"', page.content.decode()).group(1)
    etag = html_lib.unescape(etag)
    # Club, session, user, membership, table, seats and the one aggregate.
    with django_assert_max_num_queries(7):
        same = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert same.status_code == 304 and same["ETag"] == etag and not same.content
    hand = record_hand(table4, solo(bob, cat), secretary)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "Totals after 2 hands" in page_text(changed)
    # A correction elsewhere changes it too, and so does closing the night.
    etag = changed["ETag"]
    from club.play.services.hands import update_hand
    from club.play.services.nights import close_night

    update_hand(hand, solo(bob, cat, 8), secretary, version=1)
    corrected = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert corrected.status_code == 200
    close_night(table4.night, secretary)
    assert client.get(url, HTTP_IF_NONE_MATCH=corrected["ETag"], **HTMX).status_code == 200


def test_the_offline_plan_names_each_next_hands_dealer_and_who_sits_out(
    scorer_client, table5, players
):
    eve, fay, gus, hal, ivy = players[4:9]
    html = scorer_client.get(reverse("table_detail", args=["crown", table5.pk])).content.decode()
    plan = json.loads(re.search(r'id="entry-plan"[^>]*>(.*?)</script>', html, re.S).group(1))
    names, deals = plan["players"], plan["deals"]
    # The deal passes to the left; Hoyle: the player on the dealer's right sits out; cards
    # wrongly dealt are dealt again by the same player.
    assert names[deals[str(eve.pk)]["next"]] == "Fay"
    assert names[deals[str(eve.pk)]["afterMisdeal"]] == "Eve"
    assert [names[deals[str(p.pk)]["out"]] for p in (eve, fay, gus)] == ["Ivy", "Eve", "Fay"]
    assert names[deals[str(ivy.pk)]["next"]] == "Eve"


# --- the service worker ------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root_with_the_shell_files(client, db):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    for name in ("css/app.css", "js/table.js", "js/offline-queue.js", "js/vendor/idb-keyval"):
        assert name in script
    assert r"tables\/\d+" in script  # the table pages it keeps
    assert "&quot;" not in script and "&#x27;" not in script  # not HTML-escaped


def test_the_night_page_check_answers_not_modified_until_a_table_changes(
    client,
    viewer,
    secretary,
    night,
    table4,
    table5,
    players,
    django_assert_max_num_queries,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    ann, bob, cat = players[:3]
    client.force_login(viewer)
    url = reverse("night_detail", args=["crown", night.pk])
    page = client.get(url)
    etag = page["ETag"]
    assert f'data-live-etag="{html_lib.escape(etag)}"' in page.content.decode()
    live = {"HTTP_X_LIVE_CHECK": "1", "HTTP_IF_NONE_MATCH": etag}
    # The page's ETag is its mark in the cache: neither the session nor the database is read.
    with django_assert_num_queries(0):
        same = client.get(url, **live)
    assert same.status_code == 304 and not same.content and "Cookie" not in same.get("Vary", "")
    # Without the mark (another process's cache): club, session, user, membership, night and
    # the one aggregate.
    live_marks.forget(night.pk)
    with django_assert_max_num_queries(6):
        assert client.get(url, **live).status_code == 304
    # A browser's own revalidation (no X-Live-Check) always gets the page.
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        record_hand(table4, solo(ann, bob), secretary)
    changed = client.get(url, **live)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "1 hand" in page_text(changed)


def test_a_refused_save_says_why_beside_the_save_button(scorer_client, table4, players):
    ann, bob = players[:2]
    data = form_data(ann, bob, 6, 1)
    del data["tricks"]
    response = scorer_client.post(create_url(table4), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    beside_save = html[html.index('id="save-status"') :]
    beside_save = html_lib.unescape(
        re.sub(r"<[^>]+>", " ", beside_save[: beside_save.index("</form>")])
    )
    assert "Not saved: Tricks won: Enter the tricks the declaring side won (0 to 13)." in re.sub(
        r"\s+", " ", beside_save
    )
    assert not Hand.objects.exists()


def test_each_reason_a_save_was_refused_names_its_field_for_the_page(
    scorer_client, table4, players
):
    """The page drops a reason once its field is changed: each names the input it is about, and
    a reason about the form itself (out of date) names none and stays."""
    ann, bob = players[:2]
    data = form_data(ann, bob, 6, 1, contract="prop_cop")
    del data["tricks"]
    response = scorer_client.post(create_url(table4), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    named = re.findall(r'<span class="problem" data-problem-for="(\w+)">([^<]*)</span>', html)
    assert [(name, html_lib.unescape(text).split(":")[0]) for name, text in named] == [
        ("tricks", "Tricks won"),
        ("partner", "Partner"),
    ]

    stale = form_data(ann, bob, 6, 1, expected_number="x")
    html = scorer_client.post(create_url(table4), stale, **HTMX).content.decode()
    assert re.findall(r'<span class="problem">', html) and "data-problem-for" not in html
