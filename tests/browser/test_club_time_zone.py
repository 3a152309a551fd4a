"""The secretary moves the club to its own time zone in Set-up, on a phone: the list is grouped by
area, the page then tells the club's time, and tonight's night is on the club's date."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def browser_context_args(browser_context_args):
    # axe-core is injected as a script, which the app's Content Security Policy rightly blocks.
    return {**browser_context_args, "bypass_csp": True}


def test_the_secretary_picks_the_club_s_zone_and_tonight_follows_it(
    logged_in, live_server, club, season_now, axe
):
    from club.clubs.models import Club
    from club.play.models import Night

    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/setup/")
    zone = page.get_by_label("Time zone")
    expect(zone).to_have_value("Europe/London")
    axe(page)
    zone.select_option("Pacific/Kiritimati")  # UTC+14: its date is rarely the server's
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_contain_text("Club settings saved")
    expect(page.get_by_label("Time zone")).to_have_value("Pacific/Kiritimati")
    kiritimati_now = Club.objects.get(pk=club.pk).local_now()
    expect(page.locator(".help", has_text="Its time now")).to_contain_text(
        f"on {kiritimati_now:%a %-d %b}"
    )
    # The page fits the phone: no sideways scrolling for the long list of zones.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto(f"{live_server.url}/c/{club.slug}/nights/")
    page.get_by_role("button", name="Start tonight").click()
    page.wait_for_load_state()
    night = Night.objects.get(season__club=club)
    assert night.date == kiritimati_now.date()
