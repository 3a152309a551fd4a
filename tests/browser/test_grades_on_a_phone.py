"""Grades in a real browser on a phone: the standings' grade column, a player's grade, chart and
head to head, and the secretary hiding a player's grade; axe-core finds nothing on each page."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def browser_context_args(browser_context_args):
    # axe-core is injected as a script, which the app's Content Security Policy rightly blocks.
    return {**browser_context_args, "bypass_csp": True}


@pytest.fixture
def graded(season, players, secretary):
    from tests.kits.scorebook import night_with, play

    for week in range(3):
        night = night_with(season, dt.date(2026, 9, 1) + dt.timedelta(weeks=week), players[:4])
        play(night, secretary, players[week % 4], "solo", 6)
        play(night, secretary, players[0], "prop_cop", 8, partner=players[1])
        play(night, secretary, players[2], "misere", 1)
    return season


def test_a_member_reads_grades_on_a_phone(logged_in, live_server, club, graded, players, axe):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/standings/")
    header = page.locator("table.standings thead th")
    expect(header.filter(has_text="Grade")).to_have_count(1)
    ann_row = page.locator("table.standings tbody tr", has_text="Ann")
    expect(ann_row.locator("td.grade-cell")).to_contain_text("±")
    axe(page)
    ann_row.get_by_role("link", name="Ann").click()
    expect(page.locator("#grade-heading")).to_have_text("Solo grade")
    expect(page.locator("svg#grade, svg[aria-labelledby^='grade-title']")).to_have_count(1)
    page.select_option("#id_vs", label="Bob")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("table.h2h")).to_contain_text("Bob")
    expect(page.locator("#head-to-head")).to_contain_text("9 hands at the same table")
    axe(page)


def test_the_secretary_hides_a_players_grade(logged_in, live_server, club, graded, players, axe):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/setup/grades/")
    axe(page)
    page.get_by_label("Ann").check()
    page.get_by_role("button", name="Save grade settings").click()
    expect(page.get_by_role("status")).to_contain_text("Grade settings saved")
    expect(page.get_by_label("Ann")).to_be_checked()
    # The secretary still sees it, with the note that it is private.
    page.goto(f"{live_server.url}/c/{club.slug}/players/{players[0].pk}/")
    expect(page.locator("#grade-heading")).to_be_visible()
    expect(page.locator("body")).to_contain_text("asked not to be graded in public")
