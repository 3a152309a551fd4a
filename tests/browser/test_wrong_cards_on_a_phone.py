"""Cards improperly divided, found after the first call, entered on a phone: the scorer opens
More, ticks who held the wrong number, sees the ruling in the preview and saves; a fresh deal
(found before the first call) offers no such boxes."""

from __future__ import annotations

import pytest
from entry_kit import more, tap
from playwright.sync_api import Page, expect

from club.play.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_scorer_ticks_who_held_the_wrong_number_of_cards(
    logged_in: Page, live_server, club, table4, players
):
    page = logged_in
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/c/{club.slug}/tables/{table4.pk}/")
    more(page)
    page.locator("#hand-form label.chip.misdeal").click()
    boxes = page.locator("#hand-form .field-wrong_cards")
    expect(boxes).to_be_hidden()  # before the first call: a fresh deal, nobody pays

    tap(page, "contract", "Solo")
    tap(page, "declarer", "Ann")
    tap(page, "tricks", "2")
    expect(boxes).to_be_visible()
    boxes.get_by_label("Bob").check()
    boxes.get_by_label("Cat").check()
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Won: cards wrongly divided")
    expect(preview).to_contain_text("Wrong number of cards: Bob and Cat")
    page.locator("#save-hand").click()
    expect(page.locator("#hand-1")).to_contain_text("Won: cards wrongly divided")
    hand = Hand.objects.get(table=table4, number=1)
    amounts = {line.player.name: line.amount for line in hand.score_lines.select_related("player")}
    assert amounts == {"Ann": 18, "Bob": -9, "Cat": -9, "Dan": 0}
