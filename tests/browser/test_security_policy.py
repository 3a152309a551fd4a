"""In Chromium: every page type loads with the Content Security Policy on and nothing
refused (the conftest's `page` fails any test whose console reports a violation), the moved
stylesheets apply, htmx still works, and a violation would be caught."""

from __future__ import annotations

import re

import pytest
from entry_kit import fill_hand
from playwright.sync_api import Page, expect

from tests.kits.scorebook import play
from tests.kits.tournament_kit import field, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_page_type_loads_with_nothing_refused(
    logged_in: Page, live_server, club, season, night, players, secretary
):
    play(night, secretary, players[0])
    tournament = make_tournament(season, field(club, 8), director=secretary)
    base = f"{live_server.url}/c/{club.slug}"
    table = night.tables.get(number=1)
    urls = [
        f"{base}/",
        f"{base}/nights/",
        f"{base}/nights/{night.pk}/",
        f"{base}/tables/{table.pk}/",
        f"{base}/standings/",
        f"{base}/players/{players[0].pk}/",
        f"{base}/setup/",
        f"{base}/setup/members/",
        f"{base}/audit/",
        f"{base}/arrivals/",
        f"{base}/arrivals/door/",
        f"{base}/draw/",
        f"{base}/nights/{night.pk}/late/",
        f"{base}/tournaments/{tournament.pk}/",
        f"{base}/tournaments/{tournament.pk}/leaderboard/",
        f"{live_server.url}/accounts/password_change/",
    ]
    for url in urls:
        response = logged_in.goto(url)
        assert response.status == 200, url
        assert "default-src 'self'" in response.headers["content-security-policy"]
        logged_in.wait_for_load_state("networkidle")
    assert logged_in.csp_violations == []


def test_standings_styles_apply_from_their_stylesheet(
    logged_in: Page, live_server, club, night, players, secretary
):
    play(night, secretary, players[0])
    logged_in.goto(f"{live_server.url}/c/{club.slug}/standings/")
    chart = logged_in.locator("svg.chart").first
    expect(chart).to_be_visible()
    # standings.css: the chart is a block with a white background (was an inline <style>).
    assert chart.evaluate("e => getComputedStyle(e).display") == "block"
    assert chart.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"


def test_htmx_live_preview_works_under_the_policy(
    logged_in: Page, live_server, club, night, players
):
    table = night.tables.get(number=1)
    logged_in.goto(f"{live_server.url}/c/{club.slug}/tables/{table.pk}/")
    fill_hand(logged_in, "solo", "Bob", tricks=5)
    expect(logged_in.locator("#preview")).to_contain_text(re.compile("Made"))
    # htmx's own indicator styles are off (no inline <style> injected).
    assert logged_in.locator("head style").count() == 0


def test_the_watch_catches_a_violation(logged_in: Page, live_server, club):
    logged_in.goto(f"{live_server.url}/c/{club.slug}/")
    logged_in.evaluate(
        """() => { const s = document.createElement('style');
                   s.textContent = 'body { color: red }'; document.head.append(s); }"""
    )
    expect(logged_in.locator("body")).not_to_have_css("color", "rgb(255, 0, 0)")
    logged_in.wait_for_timeout(200)
    assert any("style-src" in v for v in logged_in.csp_violations)
    logged_in.csp_violations.clear()  # seen, and expected here
