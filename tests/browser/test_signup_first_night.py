"""A stranger arrives at `/` and, on a phone, gets their club to its first published night with no
guide: signs up, opens the link in the email, pastes eight names, starts tonight (saving the
members the preview shows), draws and
confirms the tables, scores one hand from a table's link, closes the night and publishes it. The
taps and keystrokes are counted and printed (the report quotes them), and held to a ceiling."""

from __future__ import annotations

import re
import time
from zoneinfo import ZoneInfo

import pytest
from a11y import assert_no_axe_violations
from django.core import mail
from entry_kit import fill_hand, save
from playwright.sync_api import Page, expect

from club.clubs.models import Club
from club.play.models import Hand, Night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
NAMES = [
    "Ann Baxter", "Bob Cole", "Cat Dunn", "Dan Ellis", "Eve Ford", "Fay Grant", "Gus Hill",
    "Hal Irons",
]  # fmt: skip
TAP_CEILING = 21  # 20 before the members' preview, which asks one tap more
KEY_CEILING = 160


class Counter:
    def __init__(self, page: Page) -> None:
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, locator) -> None:
        locator.click()
        self.taps += 1

    def type(self, locator, text: str) -> None:
        """Typed (or pasted) text: one keystroke a character; a paste would be fewer."""
        locator.fill(text)
        self.taps += 1  # into the field
        self.keys += len(text)


def test_a_stranger_signs_up_and_publishes_a_first_night_on_a_phone(
    page: Page, live_server, browser
):
    started = time.monotonic()
    page.set_default_timeout(15_000)
    page.set_viewport_size(PHONE)
    count = Counter(page)

    page.goto(live_server.url + "/", timeout=60_000)  # a cold server's first page
    count.tap(page.get_by_role("link", name="Start a club"))
    expect(page.locator("h1")).to_contain_text("Start your club")
    assert_no_axe_violations(page)
    count.type(page.get_by_label("Your email address"), "sec@plough.example.org")
    count.type(page.get_by_label("Choose a password"), "plough and harrow 7")
    count.type(page.get_by_label("Club name"), "The Plough")
    count.tap(page.get_by_role("button", name="Sign up"))
    expect(page.locator("h1")).to_contain_text("Check your email")

    (message,) = mail.outbox
    link = re.search(r"https?://\S+", message.body).group(0)
    page.goto(link)  # the tap on the link in the email
    count.taps += 1
    expect(page.locator("h1")).to_contain_text("The Plough: your first night")
    assert_no_axe_violations(page)
    club = Club.objects.get()
    assert (club.slug, club.unit_kind, club.currency_symbol) == ("the-plough", "money", "£")

    count.type(page.get_by_label("Your members, one a line"), "\n".join(NAMES))
    count.tap(page.get_by_role("button", name="Start tonight"))
    expect(page.locator(".lines-preview h2")).to_have_text("Before saving: 8 new players")
    count.tap(page.get_by_role("button", name="Save the members and start tonight"))
    expect(page.locator(".messages")).to_contain_text("your 8 players are here")
    count.tap(page.get_by_role("button", name="Draw tables"))
    expect(page.locator(".draw-tables section")).to_have_count(2)
    count.tap(page.get_by_role("button", name="Confirm"))
    expect(page.locator("h1")).to_contain_text("Table links")
    urls = page.locator(".table-link-url").all_inner_texts()
    assert len(urls) == 2
    night = Night.objects.get()

    # One hand at table 1, from its link on a player's phone.
    phone = browser.new_context(viewport=PHONE)
    try:
        table = phone.new_page()
        table.set_default_timeout(15_000)
        table.goto(urls[0])
        count.taps += 1  # the scan of the table's QR code
        expect(table.locator("h1")).to_contain_text("Table 1")
        seats = [s.player.name for s in night.tables.get(number=1).seats.select_related("player")]
        count.taps += fill_hand(table, "solo", seats[1], tricks=5)
        count.taps += save(table)
        expect(table.locator("#hand-1")).to_be_visible()
    finally:
        phone.close()
    assert Hand.objects.filter(table__night=night).count() == 1

    count.tap(page.locator("nav.crumbs").get_by_role("link", name=str(night)))
    count.tap(page.get_by_role("link", name="Close night"))
    count.tap(page.get_by_role("button", name="Close the night"))
    count.tap(page.get_by_role("link", name="Publish now"))
    count.tap(page.get_by_role("button", name="Publish now"))
    expect(page.locator(".messages")).to_contain_text("results are published")
    night.refresh_from_db()
    assert night.is_published
    # The heading says so, and when, on the club's clock.
    club.refresh_from_db()
    published = night.published_at.astimezone(ZoneInfo(club.time_zone))
    expect(page.locator("h1 .badge")).to_have_text(f"Published {published:%-d %b %Y, %H:%M}")
    print(
        f"\nFrom / to a published first night: {count.taps} taps and {count.keys} keystrokes "
        f"({time.monotonic() - started:.0f} s in the browser)"
    )
    assert count.taps <= TAP_CEILING
    assert count.keys <= KEY_CEILING
