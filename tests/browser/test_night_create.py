"""Creating a night in Chromium: a double-click on "Create night" makes one night."""

from __future__ import annotations

import pytest
from a11y import assert_no_axe_violations
from playwright.sync_api import Page, expect

from club.play.models import Night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_a_double_click_creates_one_night(
    logged_in: Page, live_server, club, season, players, size
):
    page = logged_in
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/c/{club.slug}/nights/new/")
    page.fill("#id_date", "2026-11-20")
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.select_option(f"#id_tables-0-seat_{seat}", label=name)
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Create night", exact=True).last.dblclick()
    expect(page.locator("h1")).to_contain_text("20 Nov 2026")
    page.wait_for_load_state("networkidle")
    assert Night.objects.count() == 1
    assert_no_axe_violations(page)
