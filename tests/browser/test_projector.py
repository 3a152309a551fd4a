"""The projector page at 1920x1080: the whole field fits on the screen, or, when it
cannot at a readable size, the page turns through it by itself so that every player shows."""

from __future__ import annotations

import datetime as dt

import pytest
from a11y import assert_no_axe_violations
from playwright.sync_api import Page, expect

from club.clubs.models import Player
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.tournaments.services import tournaments as services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1920, "height": 1080}


def tournament_of(club, season, secretary, size: int):
    players = [
        Player.objects.create(club=club, name=f"Player {n:02d} Longname") for n in range(size)
    ]
    t = services.create_tournament(
        club,
        season=season,
        date=dt.date(2026, 12, 5),
        name="Christmas Drive",
        rounds=3,
        hands_per_round=2,
        players=players,
        seed=1,
        is_public=True,
        director=secretary,
    )
    services.start(t, secretary)
    for table in t.night.tables.all():
        seats = [s.player for s in table.seats.order_by("position")]
        record_hand(
            table,
            HandEntry(dealer=seats[0], contract="solo", declarer=seats[1], tricks=7),
            secretary,
        )
    return t


def visible_rows(page: Page) -> list[str]:
    """Names of the board's rows drawn wholly inside the screen."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#board tbody tr')]
            .filter(r => { const b = r.getBoundingClientRect();
                           return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight; })
            .map(r => r.querySelector('th').textContent.trim())"""
    )


@pytest.mark.parametrize("size", [10, 14])
def test_a_field_that_can_fit_fits(page: Page, live_server, club, season, secretary, size):
    t = tournament_of(club, season, secretary, size)
    page.set_viewport_size(SCREEN)
    page.goto(f"{live_server.url}/c/{club.slug}/tournaments/{t.pk}/leaderboard/")
    expect(page.locator("#board tbody tr")).to_have_count(size)
    assert len(visible_rows(page)) == size
    # Readable from the back of the room: names at 24 px at least.
    px = page.locator("#board tbody th").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert px >= 24, f"names at {px} px"
    assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
    assert_no_axe_violations(page)


def test_a_large_field_pages_through_every_player(page: Page, live_server, club, season, secretary):
    t = tournament_of(club, season, secretary, 40)
    page.clock.install()
    page.set_viewport_size(SCREEN)
    page.goto(f"{live_server.url}/c/{club.slug}/tournaments/{t.pk}/leaderboard/")
    expect(page.locator("#board tbody tr")).to_have_count(40)
    seen: set[str] = set()
    status = page.locator("#board-page")
    expect(status).to_be_visible()
    expect(status).to_contain_text("Page 1 of")
    pages = int(status.inner_text().split(" of ")[1].split()[0])
    assert pages >= 2
    for n in range(1, pages + 1):
        expect(status).to_contain_text(f"Page {n} of {pages}")
        shown = visible_rows(page)
        assert shown, f"page {n} shows nobody"
        drawn = page.evaluate(
            "() => [...document.querySelectorAll('#board tbody tr')]"
            ".filter(r => r.getClientRects().length).length"
        )
        assert drawn == len(shown), "every row drawn is wholly on the screen"
        seen.update(shown)
        assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
        page.clock.run_for(9_000)
    assert len(seen) == 40
    # And back to the first page.
    expect(status).to_contain_text(f"Page 1 of {pages}")
    assert_no_axe_violations(page)
