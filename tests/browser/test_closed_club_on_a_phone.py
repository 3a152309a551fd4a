"""A closed club on a phone: its member logs in, finds it listed as closing on their home page and
opens its page, which says it closed and when it will be deleted; both fit a 390 px screen and
pass axe. The login page leads to "Forgotten your password?"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from club.clubs.services import clubs_lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def fits(page: Page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def test_a_member_on_a_phone_is_told_the_club_closed_and_when_it_goes(
    page: Page, live_server, club, secretary, viewer, axe
):
    page.set_default_timeout(10_000)
    page.set_viewport_size(PHONE)
    closed = clubs_lifecycle.close_club(club, secretary)
    deleted = closed.delete_after.astimezone(club.zone).strftime("%-d %b %Y")

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "viewer")
    page.fill("#id_password", "pw-viewer")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/")
    expect(page.locator("#closing")).to_contain_text(f"{club.name} was closed on")
    expect(page.locator("#closing")).to_contain_text(f"deleted for good after {deleted}")
    assert fits(page)
    axe(page)

    answer = page.goto(f"{live_server.url}/c/{club.slug}/standings/")
    assert answer is not None and answer.status == 410
    expect(page.locator("h1")).to_have_text(f"{club.name} is closed")
    expect(page.locator("#club-closed")).to_contain_text(f"deleted for good after {deleted}")
    assert fits(page)
    axe(page)


def test_the_login_page_leads_to_forgotten_your_password(page: Page, live_server, db):
    page.set_default_timeout(10_000)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Forgotten your password?").click()
    page.wait_for_load_state()
    assert page.url.endswith("/accounts/password_reset/")
    expect(page.locator("input[name=email]")).to_be_visible()
