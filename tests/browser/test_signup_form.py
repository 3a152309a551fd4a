"""The sign-up form in a browser: it picks the browser's own zone and that zone's currency (an
Australian browser gets Australia's zone and dollars, an Indian one Asia/Kolkata, though Chromium
calls it Asia/Calcutta), a currency typed by hand is kept, and a wrong form shows every error on
its first answer."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def _signup_page(browser: Browser, live_server, zone: str) -> Page:
    context = browser.new_context(viewport=PHONE, timezone_id=zone)
    page = context.new_page()
    page.goto(f"{live_server.url}/signup/", timeout=60_000)
    return page


def test_an_australian_browser_gets_its_zone_and_australian_dollars(browser, live_server):
    page = _signup_page(browser, live_server, "Australia/Sydney")
    expect(page.get_by_label("Time zone")).to_have_value("Australia/Sydney")
    expect(page.get_by_label("Currency symbol")).to_have_value("$")
    expect(page.get_by_label("Money shown with")).to_have_value("100")
    # Dollars count in cents: the rules to start from follow, so the form is accepted as it is.
    expect(page.locator('input[name="preset"][value="cents"]')).to_be_checked()
    # Another zone chosen by hand: its own currency, until the person types one.
    page.get_by_label("Time zone").select_option("Asia/Tokyo")
    expect(page.get_by_label("Currency symbol")).to_have_value("¥")
    expect(page.get_by_label("Money shown with")).to_have_value("1")
    page.get_by_label("Currency symbol").fill("A$")
    page.get_by_label("Time zone").select_option("Europe/Paris")
    expect(page.get_by_label("Currency symbol")).to_have_value("A$")
    page.context.close()


def test_an_indian_browser_gets_asia_kolkata_and_rupees(browser, live_server):
    page = _signup_page(browser, live_server, "Asia/Calcutta")
    expect(page.get_by_label("Time zone")).to_have_value("Asia/Kolkata")
    expect(page.get_by_label("Currency symbol")).to_have_value("₹")
    page.context.close()


def test_a_browser_in_a_zone_of_no_currency_keeps_the_default(browser, live_server):
    page = _signup_page(browser, live_server, "Africa/Lagos")
    expect(page.get_by_label("Time zone")).to_have_value("Africa/Lagos")
    expect(page.get_by_label("Currency symbol")).to_have_value("£")
    page.context.close()


def test_a_wrong_form_shows_every_error_on_its_first_answer(page: Page, live_server, club):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/signup/", timeout=60_000)
    page.get_by_label("Your email address").fill("not an address")
    page.get_by_label("Choose a password").fill("1234")
    page.get_by_label("Club name").fill("Crown")
    page.get_by_label("Address of the club's page").fill(club.slug)
    page.get_by_label("Currency symbol").fill("")
    page.get_by_role("button", name="Sign up").click()
    for field, words in [
        ("email", "Enter a valid email address."),
        ("password", "This password is too short"),
        ("slug", f"The address {club.slug} is taken"),
        ("currency_symbol", "Give the currency's symbol"),
    ]:
        expect(page.locator(f".field:has(#id_{field}) .errorlist")).to_contain_text(words)
    # The answer keeps the person's choices: the script does not pick the zone's currency again.
    expect(page.get_by_label("Currency symbol")).to_have_value("")


def test_an_australian_signs_up_with_what_the_page_chose(browser, live_server):
    """The zone, the dollars and the rules that count in cents, as the page chose them: no
    error about the rule set's unit."""
    page = _signup_page(browser, live_server, "Australia/Sydney")
    expect(page.get_by_label("Currency symbol")).to_have_value("$")
    page.get_by_label("Your email address").fill("sec@example.com.au")
    page.get_by_label("Choose a password").fill("a long enough passphrase 42")
    page.get_by_label("Club name").fill("Bondi Solo Whist Club")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".errorlist")).to_have_count(0)
    expect(page).to_have_url(f"{live_server.url}/signup/sent/")
    # Typing £ by hand brings the rules back to pence.
    page = _signup_page(browser, live_server, "Australia/Sydney")
    page.get_by_label("Currency symbol").fill("£")
    expect(page.locator('input[name="preset"][value="hoyle"]')).to_be_checked()
    page.context.close()
