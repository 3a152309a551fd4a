"""The change-tables page, the page for late arrivals: a night with a table that has
hands (seats fixed) and one without, plus a new table added on the page. At a laptop's and a
phone's size the seat drop-downs are full width and usable, nothing overflows sideways, and the
late arrival is seated and saved."""

from __future__ import annotations

import datetime as dt

import pytest
from a11y import assert_no_axe_violations
from playwright.sync_api import Page, expect

from club.clubs.models import Player
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.fixture
def late_night(season, players, secretary):
    night = create_night(
        season, dt.date(2026, 11, 20), [(players[:4], 0), (players[4:7], 0)], user=secretary
    )
    table1 = night.tables.get(number=1)
    seats = [s.player for s in table1.seats.order_by("position")]
    record_hand(
        table1, HandEntry(dealer=seats[0], contract="solo", declarer=seats[1], tricks=6), secretary
    )
    return night


def no_sideways_overflow(page: Page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"


@pytest.mark.parametrize("size_name", list(SIZES))
def test_late_arrivals_are_seated_on_a_phone_and_a_laptop(
    logged_in: Page, live_server, late_night, players, size_name
):
    page = logged_in
    size = SIZES[size_name]
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/c/{late_night.season.club.slug}/nights/{late_night.pk}/tables/")
    expect(page.locator("#fixed-table-1")).to_contain_text("seats fixed")
    page.get_by_role("button", name="Add a table").click()
    expect(page.locator("fieldset.table-seats")).to_have_count(2)
    no_sideways_overflow(page)
    # Every seat drop-down of the empty new table and the table without hands: wide enough to
    # read a name (at least 9 rem or half the screen on a phone), inside the screen.
    selects = page.locator("fieldset.table-seats select")
    assert selects.count() == 12
    least = min(size["width"] * 0.4, 9 * 16)
    for i in range(selects.count()):
        b = selects.nth(i).bounding_box()
        assert b is not None
        assert b["width"] >= least, f"select {i} is {b['width']:.0f} px wide"
        assert b["height"] >= 44
        assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"]
    assert_no_axe_violations(page)
    # Hal and Ivy arrive late and join table 2 (the new table is left empty, so not used).
    table2 = page.locator("#table-2")
    table2.locator("select[name$=seat_4]").select_option(label="Hal")
    table2.locator("select[name$=seat_5]").select_option(label="Ivy")
    page.get_by_role("button", name="Save tables").click()
    expect(page.get_by_role("status")).to_contain_text("The tables of")
    no_sideways_overflow(page)
    seated = [s.player.name for s in late_night.tables.get(number=2).seats.order_by("position")]
    assert seated == ["Eve", "Fay", "Gus", "Hal", "Ivy"]
    assert Player.objects.filter(seats__table__night=late_night).count() == 9
