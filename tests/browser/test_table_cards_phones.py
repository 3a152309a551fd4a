"""Four tables seat themselves from their permanent cards, each on its own phone (390 px, no
login): tap four names in seat order, sit down, and enter hand 1 on the table's page."""

from __future__ import annotations

import re

import pytest
from entry_kit import fill_hand
from playwright.sync_api import expect

from club.clubs.models import Player
from club.play.models import Hand, Table
from club.play.services import nights
from club.play.services import table_cards as card_service

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = [
    "Ann",
    "Bob",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kim",
    "Lou",
    "Max",
    "Ned",
    "Oli",
    "Pam",
]


def test_four_tables_seat_themselves_from_their_cards_and_enter_hand_1(
    browser, live_server, club, season_now, secretary, axe
):
    for name in NAMES:
        Player.objects.create(club=club, name=name)
    nights.start_tonight(club, secretary)
    cards = card_service.issue_cards(club, secretary, 4)
    phones = [browser.new_context(**PHONE) for _ in cards]
    try:
        pages = [context.new_page() for context in phones]
        for i, (page, card) in enumerate(zip(pages, cards, strict=True)):
            page.set_default_timeout(10_000)
            page.goto(f"{live_server.url}/k/{card.token}/")
            expect(page.locator("h1")).to_have_text(f"Who sits at Table {i + 1}?")
            table_names = NAMES[4 * i : 4 * i + 4]
            if i == 0:
                # The search box narrows the list.
                page.locator("#player-search").fill("pa")
                expect(page.locator("li.pick:visible")).to_have_count(1)
                page.locator("#player-search").fill("")
                axe(page)
            for name in table_names:
                page.locator(f'li.pick[data-name="{name.lower()}"] .pick-name').click()
            expect(page.locator("#seat-order li").first).to_have_text(
                f"{table_names[0]} (deals first)"
            )
            expect(page.locator("#seat-order li")).to_have_count(4)
            page.get_by_role("button", name="Sit down and score").click()
            expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
            expect(page.locator("h1")).to_contain_text(f"Table {i + 1}")
        for i, page in enumerate(pages):
            declarer = NAMES[4 * i + 1]
            expect(page.locator("#entry-title")).to_have_text("Hand 1")
            fill_hand(page, "solo", declarer, tricks=6)
            expect(page.locator("#preview")).to_contain_text(re.compile("Made|Failed"))
            page.get_by_role("button", name="Save hand 1").click()
            expect(page.locator("#hand-1")).to_be_visible()
            expect(page.locator("#entry-title")).to_have_text("Hand 2")
        tables = Table.objects.order_by("number")
        assert [t.number for t in tables] == [1, 2, 3, 4]
        for i, table in enumerate(tables):
            assert table.card_id == cards[i].pk
            assert [s.player.name for s in table.seats.order_by("position")] == NAMES[
                4 * i : 4 * i + 4
            ]
            assert Hand.objects.get(table=table).dealer.name == NAMES[4 * i]
    finally:
        for context in phones:
            context.close()
