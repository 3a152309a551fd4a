"""A league's card and table on a phone, in a real browser: the away club's secretary opens the
card's link from his email at 390 px, reads every player's result, confirms, and finds his club on
the league table, which fits the screen; the console stays clean throughout."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from club.leagues.models import LeagueClub, MatchCard
from club.leagues.services import cards
from club.leagues.services.leagues import NewLeague, create_league
from tests.kits.league_kit import fixture, play_match
from tests.leagues.conftest import make_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_away_secretary_confirms_the_card_and_reads_the_table_on_a_phone(page, live_server):
    organiser = User.objects.create_user("organiser", "org@example.org", "pw-organiser-1")
    league = create_league(
        NewLeague(
            name="Granite City Whist League",
            season_start=dt.date(2027, 1, 8),
            season_end=dt.date(2027, 6, 25),
        ),
        organiser,
    )
    home, away = (
        LeagueClub.objects.create(
            league=league, club=make_club(name), status="accepted", answered_at=league.created_at
        )
        for name in ["Aberdeen Athenaeum Whist", "Bucksburn Crown and Anchor"]  # 24 characters
    )
    match = fixture(league, home, away)
    play_match(match, [(0, "solo", 5), (1, "solo", 3)])
    card = cards.submit(match, User.objects.get(username=f"sec-{home.club.slug}"))
    token = card.links.get(revoked_at=None).token

    page.set_viewport_size(PHONE)
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/leagues/{league.slug}/cards/{token}/")
    expect(page.locator("h1")).to_contain_text("Aberdeen Athenaeum Whist")
    for player in ["Aberdeen Athenaeum Whist player 1", "Bucksburn Crown and Anchor player 1"]:
        expect(page.locator("body")).to_contain_text(player)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the card is {width} px wide on a 390 px phone"
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("body")).to_contain_text("it counts in the league table")
    card.refresh_from_db()
    assert card.state == MatchCard.State.CONFIRMED

    # The away secretary logs in and reads the table, which fits the phone.
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", f"sec-{away.club.slug}")
    page.fill("#id_password", "pw-sec-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/leagues/{league.slug}/table/")
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(2)
    # The home side's solo made (+18 - 6) and the away side's solo two down (+8 + 8 to the home
    # side's two players): Aberdeen by 28p.
    expect(rows.first).to_contain_text("Aberdeen Athenaeum Whist")
    expect(rows.first).to_contain_text("£0.28")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is {width} px wide on a 390 px phone"
    assert not page.console_errors and not page.csp_violations
