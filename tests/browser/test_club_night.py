"""A whole club night through the real UI in headless Chromium: set up a night with a table of 4
and one of 5, enter hands of several contracts (one with a revoke), correct one, close the night,
and check the nets and settle-up shown against the scoring core."""

from __future__ import annotations

import re

import pytest
from entry_kit import fill_hand, tap
from playwright.sync_api import Page, expect

import scoring

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOYLE = scoring.preset("hoyle")


def enter_hand(
    page: Page,
    number: int,
    contract: str,
    declarer: str | None = None,
    *,
    partner: str | None = None,
    tricks: int | None = None,
    trump: str | None = None,
    revoke_by: str | None = None,
) -> None:
    """Tap the hand's buttons (a revoke under "More") and save with Enter."""
    expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
    fill_hand(
        page,
        contract,
        declarer,
        partner=partner,
        tricks=tricks,
        trump=trump,
        revoke_by=revoke_by,
    )
    # The live preview shows the result before anything is saved.
    expect(page.locator("#preview")).to_contain_text(re.compile("Made|Failed|passed"))
    page.locator("#hand-form input[name=contract]:checked").press("Enter")
    expect(page.locator(f"#hand-{number}")).to_be_visible()
    # The form is ready for the next hand with the cursor back in it.
    expect(page.locator("#entry-title")).to_have_text(f"Hand {number + 1}")
    expect(page.locator("#hand-form input[name=contract]").first).to_be_focused()


def expected_amounts(seats: list[str], hands: list[dict]) -> dict[str, int]:
    """Score the same hands with the core: each player's total at the table."""
    totals = dict.fromkeys(seats, 0)
    for number, spec in enumerate(hands, start=1):
        dealer = scoring.table.dealer_for(seats, 0, number)
        playing = scoring.table.players_in_hand(seats, dealer, HOYLE)
        result = scoring.score_hand(scoring.Hand(players=playing, **spec), HOYLE)
        for player, amount in result.amounts.items():
            totals[player] += amount
    return totals


def pounds(pence: int) -> str:
    sign = "-" if pence < 0 else ""
    return f"{sign}£{abs(pence) // 100}.{abs(pence) % 100:02d}"


def test_a_whole_club_night(logged_in: Page, live_server, club, season, players):
    page = logged_in
    page.goto(f"{live_server.url}/c/{club.slug}/nights/new/")
    page.fill("#id_date", "2026-11-20")
    table4 = ["Ann", "Bob", "Cat", "Dan"]
    table5 = ["Eve", "Fay", "Gus", "Hal", "Ivy"]
    for t, names in enumerate((table4, table5)):
        for seat, name in enumerate(names, start=1):
            page.select_option(f"#id_tables-{t}-seat_{seat}", label=name)
    page.get_by_role("button", name="Create night").last.click()
    expect(page.locator("h1")).to_contain_text("20 Nov 2026")

    # Table 1, four players, Ann deals first.
    page.get_by_role("link", name="Table 1", exact=True).click()
    enter_hand(page, 1, "solo", "Bob", tricks=7)
    enter_hand(page, 2, "prop_cop", "Cat", partner="Dan", tricks=8)
    enter_hand(page, 3, "misere", "Ann", tricks=0, revoke_by="Bob")
    enter_hand(page, 4, "abundance", "Dan", tricks=10, trump="spades")
    # Correct hand 1: the solo took 4 tricks, not 7.
    page.locator("#hand-1").get_by_role("link", name=re.compile("Edit")).click()
    expect(page.locator("#entry-title")).to_have_text("Correct hand 1")
    tap(page, "tricks", "4")
    expect(page.locator("#preview")).to_contain_text("Failed, 1 under")
    page.locator("#hand-form input[name=tricks]:checked").press("Enter")
    expect(page.locator("#hand-1")).to_contain_text("Failed, 1 under")
    hands4 = [
        {"contract": "solo", "declarer": "Bob", "tricks": 4},
        {"contract": "prop_cop", "declarer": "Cat", "partner": "Dan", "tricks": 8},
        {"contract": "misere", "declarer": "Ann", "tricks": 0, "revoke_by": "Bob"},
        {"contract": "abundance", "declarer": "Dan", "tricks": 10},
    ]
    totals4 = expected_amounts(table4, hands4)
    footer = page.locator("#sheet-totals")
    for name in table4:
        expect(footer).to_contain_text(pounds(totals4[name]))

    # Table 2, five players: the player on the dealer's right sits out (Hoyle).
    page.get_by_role("link", name=re.compile("Club night")).first.click()
    page.get_by_role("link", name="Table 2", exact=True).click()
    expect(page.locator("#entry")).to_contain_text("Ivy sits out")
    enter_hand(page, 1, "solo", "Fay", tricks=5)
    expect(page.locator("#entry")).to_contain_text("Eve sits out")
    enter_hand(page, 2, "open_misere", "Gus", tricks=0)
    hands5 = [
        {"contract": "solo", "declarer": "Fay", "tricks": 5},
        {"contract": "open_misere", "declarer": "Gus", "tricks": 0},
    ]
    totals5 = expected_amounts(table5, hands5)

    # Close the night, then check the nets and the settle-up against the core.
    page.get_by_role("link", name=re.compile("Club night")).first.click()
    page.get_by_role("link", name="Close night").click()
    page.get_by_role("button", name="Close the night").click()
    expect(page.locator("h1 .badge, h1 + .badge, .badge.closed").first).to_contain_text("Closed")
    nets = {**totals4, **totals5}
    nets_table = page.locator("#nets")
    for name, net in nets.items():
        row = nets_table.locator("tr", has_text=re.compile(rf"^\s*{name}\b"))
        expect(row.locator("td").last).to_have_text(("+" if net > 0 else "") + pounds(net))
    payments = scoring.settle_up(nets)
    shown = page.locator("#settle-up ol.payments li")
    expect(shown).to_have_count(len(payments))
    for payer, payee, amount in payments:
        expect(page.locator("#settle-up")).to_contain_text(f"{payer} pays {payee} {pounds(amount)}")
    # A closed night says so at its tables; the secretary may still add a missed hand until the
    # results are published (the correction window), a scorer may not (tests/club).
    page.get_by_role("link", name="Table 1", exact=True).click()
    expect(page.locator("#entry .message.warning")).to_contain_text("closed")
    expect(page.locator("#save-hand")).to_have_text(f"Save hand {len(hands4) + 1}")
