"""The score sheet on a phone, a tablet and desktops, measured in Chromium.

For tables of 3, 4 and 5 with a dozen hands of every kind (a revoke, a note, long names), at
390, 820, 1280 and 1920 px wide: nothing overflows sideways; every player's column, amount and
running total, and the Edit/Delete of the last hand, lie inside the viewport; the totals are in
view at the top and at the bottom of the page; on the phone and the tablet each hand takes at most
two lines (summary, then amounts); a correction opens and saves without sideways scrolling; and
players with the longest names a club enters (24 characters) fit a desktop of 1024, 1280 and
1920 px, named by short names with the full name kept for a pointer and a screen reader.
"""

from __future__ import annotations

import datetime as dt

import pytest
from a11y import assert_no_axe_violations
from entry_kit import tap
from playwright.sync_api import Page, expect

from club.clubs.models import Player, Role
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
LAPTOP = {"width": 1280, "height": 800}
WIDE = {"width": 1920, "height": 1080}
SIZES = {"phone": PHONE, "tablet": TABLET, "laptop": LAPTOP, "wide": WIDE}

# Realistic lengths: the longest is a full name of 20 characters.
NAMES = [
    "Margaret Thompson",
    "Christopher Evans",
    "Bob",
    "Catherine O'Neill",
    "Dan Abernethy-Smith",
    "Eve",
    "Fay Richardson",
    "Gus",
    "Harriet Wainwright",
    "Ivy Lee",
    "Jo",
    "Kit Marlowe",
]
HANDS = 12


def _hands(players: list[Player]) -> list[HandEntry]:
    """Twelve hands of every kind for the first dealer at seat 1 (not scored here: the service
    scores them; the test only measures the page)."""
    n = len(players)
    plays4 = n >= 4
    kinds: list[dict] = []
    for number in range(1, HANDS + 1):
        dealer = players[(number - 1) % n]
        # Someone taking part (at a table of five the player on the dealer's right sits out).
        active = [p for i, p in enumerate(players) if not (n == 5 and i == (number - 2) % n)]
        declarer, partner = active[number % len(active)], active[(number + 1) % len(active)]
        match number % 6:
            case 0 if plays4:
                spec = {"contract": "prop_cop", "partner": partner, "tricks": 9, "trump": "hearts"}
            case 1:
                spec = {"contract": "solo", "tricks": 4, "trump": "spades"}
            case 2:
                spec = {"contract": "misere", "tricks": 0, "revoke_by": partner}
            case 3:
                spec = {"contract": "abundance", "tricks": 10, "trump": "diamonds"}
            case 4:
                spec = {"contract": "all_passed"}
            case _:
                spec = {"contract": "abundance_declared", "tricks": 13}
        if spec["contract"] != "all_passed":
            spec["declarer"] = declarer
        notes = "Disputed: the revoke was claimed late, agreed by all" if number == 5 else ""
        kinds.append(HandEntry(dealer=dealer, notes=notes, **spec))
    return kinds


@pytest.fixture
def sheet_night(club, season, secretary):
    """A night with a table of 3, one of 4 and one of 5, twelve hands each."""
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    night = create_night(
        season, dt.date(2026, 11, 20), [(players[:3], 0), (players[3:7], 0), (players[7:12], 0)]
    )
    for table in night.tables.all():
        seated = [s.player for s in table.seats.order_by("position")]
        for entry in _hands(seated):
            record_hand(table, entry, secretary)
    return night


def login(page: Page, live_server, username: str = "sec") -> None:
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_load_state()


def box(page: Page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def inside_horizontally(page: Page, selector: str) -> None:
    width = page.viewport_size["width"]
    for i in range(page.locator(selector).count()):
        b = page.locator(selector).nth(i).bounding_box()
        assert b is not None, f"{selector} #{i} is not drawn"
        assert b["x"] >= 0 and b["x"] + b["width"] <= width + 0.5, (
            f"{selector} #{i} spans {b['x']:.0f}..{b['x'] + b['width']:.0f}, "
            f"outside the {width} px viewport"
        )


def in_view(page: Page, selector: str) -> None:
    """Every element matched lies wholly inside the viewport, as it is scrolled now."""
    size = page.viewport_size
    items = page.locator(selector)
    assert items.count() > 0, f"nothing matches {selector}"
    for i in range(items.count()):
        b = items.nth(i).bounding_box()
        assert b is not None, f"{selector} #{i} is not drawn"
        assert b["y"] >= -0.5 and b["y"] + b["height"] <= size["height"] + 0.5, (
            f"{selector} #{i} at y {b['y']:.0f}..{b['y'] + b['height']:.0f} is out of the "
            f"{size['height']} px high viewport"
        )
        assert b["x"] >= -0.5 and b["x"] + b["width"] <= size["width"] + 0.5, (
            f"{selector} #{i} at x {b['x']:.0f}..{b['x'] + b['width']:.0f} is out of the "
            f"{size['width']} px wide viewport"
        )


def uncovered(page: Page, selector: str) -> None:
    """Nothing lies on top of the element: the point at its middle is the element itself."""
    hit = page.locator(selector).first.evaluate(
        """e => { const b = e.getBoundingClientRect();
                  const top = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
                  return !!top && (top === e || e.contains(top)); }"""
    )
    assert hit, f"{selector} is covered by another element"


def no_sideways_overflow(page: Page) -> None:
    widths = page.evaluate(
        """() => ({page: document.documentElement.scrollWidth, view: window.innerWidth,
                   wraps: [...document.querySelectorAll('.table-wrap')].map(
                       w => w.scrollWidth - w.clientWidth)})"""
    )
    assert widths["page"] <= widths["view"], f"the page scrolls sideways: {widths}"
    assert all(extra <= 0 for extra in widths["wraps"]), f"the sheet scrolls sideways: {widths}"


def table_url(live_server, night, size: int) -> str:
    table = next(t for t in night.tables.all() if t.seats.count() == size)
    return f"{live_server.url}/c/{night.season.club.slug}/tables/{table.pk}/"


@pytest.mark.parametrize("size_name", list(SIZES))
def test_every_amount_and_total_in_view_without_sideways_scrolling(
    page: Page, live_server, sheet_night, size_name
):
    page.set_viewport_size(SIZES[size_name])
    login(page, live_server)
    compact = SIZES[size_name]["width"] < 1024
    for seats in (3, 4, 5):
        page.goto(table_url(live_server, sheet_night, seats))
        expect(page.locator(f"#hand-{HANDS}")).to_be_visible()
        no_sideways_overflow(page)
        # Every player's name, and every amount and running total of the last hand.
        assert page.locator(".sheet-table thead th.player").count() == seats
        inside_horizontally(page, ".sheet-table thead th.player")
        inside_horizontally(page, f"#hand-{HANDS} td.amount, #hand-{HANDS} td.sat-out")
        inside_horizontally(page, f"#hand-{HANDS} .running")
        inside_horizontally(page, f"#hand-{HANDS} .row-actions a")
        # The running totals are readable: 14 px at least.
        size = page.locator(f"#hand-{HANDS} .running").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size >= 14, f"running totals at {size} px"
        # The table's totals are in view at the top of the page and at its foot (by the form),
        # and so is Save, uncovered: on a phone or a tablet both are in the bar at the foot of
        # the screen, on a wide screen the totals end the sheet and Save the form.
        totals = "#bar-totals dd" if compact else "#sheet-totals td"
        for where in ("0", "document.body.scrollHeight"):
            page.evaluate(f"window.scrollTo(0, {where})")
            in_view(page, totals)
            if compact or where != "0":
                expect(page.get_by_role("button", name="Save hand 13")).to_be_visible()
                in_view(page, "#save-hand")
                uncovered(page, "#save-hand")
        if compact:
            # Players' amounts come first: each hand is a summary line with the amounts under it,
            # so that a hand takes two short lines, not a row wider than the screen.
            row = box(page, f"#hand-{HANDS}")
            assert row["height"] <= 110, f"hand row {row['height']:.0f} px high"
            summary = box(page, f"#hand-{HANDS} td.summary")
            amount = box(page, f"#hand-{HANDS} td.amount")
            assert amount["y"] >= summary["y"] + summary["height"] - 1
        assert_no_axe_violations(page)


@pytest.mark.parametrize("size_name", list(SIZES))
def test_correcting_a_hand_needs_no_sideways_scrolling(
    page: Page, live_server, sheet_night, size_name
):
    page.set_viewport_size(SIZES[size_name])
    login(page, live_server)
    page.goto(table_url(live_server, sheet_night, 5))
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.locator("#entry-title")).to_have_text("Correct hand 1")
    no_sideways_overflow(page)
    inside_horizontally(page, "#hand-form select:visible, #hand-form .chip:visible")
    inside_horizontally(page, "#hand-form .actions > *")
    tap(page, "tricks", "5")
    expect(page.locator("#preview")).to_contain_text("Made")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#hand-1")).to_contain_text("Made")
    no_sideways_overflow(page)
    in_view(page, "#bar-totals dd" if SIZES[size_name]["width"] < 1024 else "#sheet-totals td")


def test_a_closed_nights_sheet_passes_axe(page: Page, live_server, sheet_night, club, viewer):
    """A visitor's (viewer's) read-only sheet of a closed night: no Edit links to focus, so the
    sheet must not be a scrolling region that the keyboard cannot reach."""
    from club.play.services.nights import close_night

    close_night(sheet_night, club.memberships.get(role=Role.SECRETARY).user)
    login(page, live_server, "viewer")
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.goto(table_url(live_server, sheet_night, 5))
        expect(page.locator(f"#hand-{HANDS}")).to_be_visible()
        no_sideways_overflow(page)
        assert_no_axe_violations(page)


# The longest names a club enters (24 characters), every one of them at the table.
LONG_NAMES = [
    "Elizabeth Montgomery-Lee",
    "Christopher Featherstone",
    "Alexandra Worthington-Jo",
    "Bartholomew Fitzgerald-O",
    "Margaret Thompson-Watson",
    "Jacqueline Wainwright-Ro",
    "Nathaniel Abernethy-Smit",
    "Henrietta Richardson-Kay",
    "Maximilian Ashworth-Reed",
    "Gwendoline Harrington-Fo",
    "Montgomery Blackwood-Cox",
    "Evangeline Cunningham-Li",
]


@pytest.fixture
def long_names_night(club, season, secretary):
    assert {len(name) for name in LONG_NAMES} == {24}
    players = [Player.objects.create(club=club, name=name) for name in LONG_NAMES]
    night = create_night(
        season, dt.date(2026, 11, 20), [(players[:3], 0), (players[3:7], 0), (players[7:12], 0)]
    )
    for table in night.tables.all():
        seated = [s.player for s in table.seats.order_by("position")]
        for entry in _hands(seated):
            record_hand(table, entry, secretary)
    return night


@pytest.mark.parametrize("width", [1024, 1280, 1920])
def test_long_names_fit_a_desktop_sheet(page: Page, live_server, long_names_night, width):
    page.set_viewport_size({"width": width, "height": 900})
    login(page, live_server)
    for seats in (3, 4, 5):
        page.goto(table_url(live_server, long_names_night, seats))
        expect(page.locator(f"#hand-{HANDS}")).to_be_visible()
        no_sideways_overflow(page)
        inside_horizontally(page, ".sheet-table thead th.player")
        inside_horizontally(page, f"#hand-{HANDS} td.amount, #hand-{HANDS} td.sat-out")
        inside_horizontally(page, f"#hand-{HANDS} .row-actions a")
        # A shortened name keeps the full one for a pointer or a screen reader.
        for header in page.locator(".sheet-table thead th.player").all():
            shown = header.inner_text().strip()
            full = header.get_attribute("title") or shown
            assert full in LONG_NAMES, f"{full!r} is not a player's full name"
