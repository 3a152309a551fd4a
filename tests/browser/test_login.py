"""The browser can log in and land on the club page (a smoke test of the Playwright set-up)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_secretary_logs_in_and_lands_on_the_club(logged_in, live_server, club):
    expect(logged_in.locator("h1")).to_have_text(club.name)
    expect(logged_in.locator(".site-nav .who")).to_have_text("sec")


def test_wrong_password_is_refused_with_a_message(page, live_server, secretary):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sec")
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")
    expect(page.locator(".errorlist")).to_contain_text("correct username and password")
