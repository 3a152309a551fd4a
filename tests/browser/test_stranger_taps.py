"""A stranger on a phone (390 px), from `/` to a published night of two tables whose eight
players have their addresses: sign up, open the emailed link, paste eight "Name, email" lines on
the first-night page, save them and start tonight, draw two tables, score hands at both from the
tables' links, close and publish. Every tap is counted (a tap into a field before typing too;
the typing itself is counted as keystrokes, apart), and held to a ceiling: the same night took
103 taps when each address was typed on its player's own page."""

from __future__ import annotations

import re
import time

import pytest
from a11y import assert_no_axe_violations
from django.core import mail
from entry_kit import fill_hand, save
from playwright.sync_api import BrowserContext, Page, expect

from club.clubs.models import Club
from club.money.models import Delivery
from club.play.models import Hand, Night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
MEMBERS = {
    "Ann Baxter": "ann@plough.example.org",
    "Bob Cole": "bob@plough.example.org",
    "Cat Dunn": "cat@plough.example.org",
    "Dan Ellis": "dan@plough.example.org",
    "Eve Ford": "eve@plough.example.org",
    "Fay Grant": "fay@plough.example.org",
    "Gus Hill": "gus@plough.example.org",
    "Hal Irons": "hal@plough.example.org",
}
TAP_CEILING = 40
PAGE_REQUESTS = ("document", "xhr", "fetch")  # may answer 404 on purpose (conftest.py)


class Counter:
    def __init__(self) -> None:
        self.taps, self.keys = 0, 0

    def tap(self, locator) -> None:
        locator.click()
        self.taps += 1

    def type(self, locator, text: str) -> None:
        """A tap into the field, then the text (a keystroke a character; a paste is fewer)."""
        locator.click()
        self.taps += 1
        locator.fill(text)
        self.keys += len(text)


def watched_page(context: BrowserContext, errors: list[str]) -> Page:
    """A table's phone, whose console errors fail the test as the main page's do (conftest.py's
    `page`: a refused request is judged by its answer, not by the console's line about it)."""
    page = context.new_page()
    page.set_default_timeout(15_000)

    def on_console(message) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(message.text)

    def on_response(response) -> None:
        kind = response.request.resource_type
        if response.status >= 500 or (response.status == 404 and kind not in PAGE_REQUESTS):
            errors.append(f"{response.status} for {kind} {response.url}")

    page.on("console", on_console)
    page.on("response", on_response)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    return page


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def score_at(browser, url: str, seats: list[str], declarers: list[str], count: Counter) -> None:
    """Hands of Solo from a table's link on a player's phone, one per declarer."""
    errors: list[str] = []
    phone = browser.new_context(viewport=PHONE)
    try:
        table = watched_page(phone, errors)
        table.goto(url)
        count.taps += 1  # the scan of the table's QR code
        expect(table.locator("h1")).to_contain_text("Table")
        for number, declarer in enumerate(declarers, start=1):
            count.taps += fill_hand(table, "solo", declarer, tricks=5)
            count.taps += save(table)
            expect(table.locator(f"#hand-{number}")).to_be_visible()
        fits(table)
    finally:
        phone.close()
    assert errors == [], f"Console errors on a table's phone: {errors}"


def test_a_stranger_reaches_a_published_night_with_addresses_in_forty_taps(
    page: Page, live_server, browser
):
    started = time.monotonic()
    page.set_default_timeout(15_000)
    page.set_viewport_size(PHONE)
    count = Counter()

    page.goto(live_server.url + "/", timeout=60_000)  # a cold server's first page
    count.tap(page.get_by_role("link", name="Start a club"))
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

    lines = "\n".join(f"{name}, {email}" for name, email in MEMBERS.items())
    count.type(page.get_by_label("Your members, one a line"), lines)
    count.tap(page.get_by_role("button", name="Start tonight"))
    # The preview: what will be saved, before anything is.
    expect(page.locator(".lines-preview h2")).to_have_text("Before saving: 8 new players")
    expect(page.locator(".lines-preview")).to_contain_text("hal@plough.example.org")
    assert_no_axe_violations(page)
    fits(page)
    assert not Club.objects.get().players.exists()
    count.tap(page.get_by_role("button", name="Save the members and start tonight"))
    expect(page.locator(".messages")).to_contain_text("your 8 players are here")
    club = Club.objects.get()
    assert dict(club.players.values_list("name", "email")) == MEMBERS

    count.tap(page.get_by_role("button", name="Draw tables"))
    expect(page.locator(".draw-tables section")).to_have_count(2)
    count.tap(page.get_by_role("button", name="Confirm"))
    expect(page.locator("h1")).to_contain_text("Table links")
    urls = page.locator(".table-link-url").all_inner_texts()
    assert len(urls) == 2
    night = Night.objects.get()

    for number, url in enumerate(urls, start=1):
        table = night.tables.get(number=number)
        seats = [s.player.name for s in table.seats.select_related("player")]
        assert len(seats) == 4
        declarers = seats[1:3] if number == 1 else seats[2:3]  # three hands in all
        score_at(browser, url, seats, declarers, count)
    assert Hand.objects.filter(table__night=night).count() == 3

    count.tap(page.locator("nav.crumbs").get_by_role("link", name=str(night)))
    count.tap(page.get_by_role("link", name="Close night"))
    count.tap(page.get_by_role("button", name="Close the night"))
    count.tap(page.get_by_role("link", name="Publish now"))
    count.tap(page.get_by_role("button", name="Publish now"))
    expect(page.locator(".messages")).to_contain_text("results are published")
    night.refresh_from_db()
    assert night.is_published

    # Publishing queued an email to each of the eight addresses, and sent them.
    queued = sorted(
        Delivery.objects.filter(publication__night=night).values_list("email", flat=True)
    )
    assert queued == sorted(MEMBERS.values())
    sent = sorted(a for m in mail.outbox for a in m.to if a in MEMBERS.values())
    assert sent == sorted(MEMBERS.values())  # each member's once
    print(
        f"\nFrom / to a published night of two tables, eight players with addresses: "
        f"{count.taps} taps (a tap into each field included) and {count.keys} keystrokes "
        f"({time.monotonic() - started:.0f} s in the browser)"
    )
    assert count.taps <= TAP_CEILING
