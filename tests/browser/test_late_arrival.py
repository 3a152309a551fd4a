"""A lone late arrival on a phone (390 px): fifteen players are drawn into three tables of five,
a sixteenth arrives, and the late arrivals page seats them at a new table of three with a player
from two of the fives. At every step the page offers only buttons that succeed."""

from __future__ import annotations

import pytest
from a11y import assert_no_axe_violations
from playwright.sync_api import Page, expect
from test_touch_targets import small_targets

from club.clubs.models import Player
from club.play.models import Night, Seat
from club.play.services import arrivals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def actions(page: Page) -> list[str]:
    return page.locator("main button[name=action]").all_inner_texts()


def test_a_lone_late_arrival_at_three_tables_of_five_is_seated(
    logged_in: Page, live_server, club, season_now
):
    club.odd_tables = "5"
    club.save()
    for i in range(1, 16):
        arrivals.tick_in(club, Player.objects.create(club=club, name=f"Player {i:02d}"))
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/draw/")
    page.get_by_role("button", name="Draw tables").click()
    expect(page.locator(".draw-tables section")).to_have_count(3)
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("h1")).to_contain_text("Table links")
    night = Night.objects.get()
    assert sorted(t.seats.count() for t in night.tables.all()) == [5, 5, 5]

    page.goto(f"{live_server.url}/c/{club.slug}/nights/{night.pk}/")
    page.get_by_role("link", name="Seat late arrivals").click()
    # Nobody waits and every table is full: the one thing to do is tick the newcomer in.
    assert actions(page) == ["Tick them in"]
    page.get_by_placeholder("Their name").fill("Late Larry")
    page.get_by_role("button", name="Tick them in").click()
    expect(page.locator(".messages")).to_contain_text("Late Larry is ticked in")
    assert actions(page) == ["Make the new table of three", "Tick them in"]
    expect(page.locator("#fives")).to_contain_text("from table 1")
    assert_no_axe_violations(page)
    assert small_targets(page) == []
    page.get_by_role("button", name="Make the new table of three").click()
    expect(page.locator(".messages")).to_contain_text("Table 4: ")
    expect(page.locator("h1")).to_contain_text("Table links")
    assert sorted(t.seats.count() for t in night.tables.all()) == [3, 4, 4, 5]
    larry = Player.objects.get(name="Late Larry")
    assert Seat.objects.get(player=larry).table.number == 4
    assert Seat.objects.filter(table__night=night).count() == 16
