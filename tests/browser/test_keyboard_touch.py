"""Keyboard and touch in Chromium: type-ahead in the hand form's buttons, trumps out of the
tab order unless the declarer names them, the skip link, focus kept on "Add players", the phone
menu's targets, and the night's audit trail folded."""

from __future__ import annotations

import pytest
from a11y import assert_no_axe_violations
from playwright.sync_api import Page, expect

from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def focused_id(page: Page) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.id")


def focused(page: Page) -> tuple[str, str]:
    """The focused control's name and value."""
    return tuple(page.evaluate("() => [document.activeElement.name, document.activeElement.value]"))


def checked(page: Page, name: str) -> str:
    return page.evaluate(
        f"() => (document.querySelector('#hand-form input[name={name}]:checked') || {{}}).value"
    )


def test_typing_picks_each_button_and_tab_moves_from_group_to_group(
    logged_in: Page, live_server, table4
):
    page = logged_in
    page.goto(f"{live_server.url}/c/{table4.night.season.club.slug}/tables/{table4.pk}/")
    assert focused(page)[0] == "contract"  # the cursor starts on the contracts
    # A solo: its trumps are the turned suit, so Tab goes from the contract to the declarer.
    page.keyboard.press("s")
    assert checked(page, "contract") == "solo"
    page.keyboard.press("Tab")
    assert focused(page)[0] == "declarer"
    page.keyboard.press("b")  # Bob, by the first letter, as a select's type-ahead did
    assert focused(page) == ("declarer", str(table4.seats.get(position=1).player_id))
    page.keyboard.press("Tab")
    page.keyboard.press("7")
    assert checked(page, "tricks") == "7"
    # Two digits in a row are one number: 1 then 0 is ten (behind "Other tricks" for a solo).
    page.keyboard.press("1")
    page.keyboard.press("0")
    assert checked(page, "tricks") == "10"
    # An abundance: the declarer names trumps, so Tab stops there and "h" picks Hearts.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page)[0] == "contract"
    page.keyboard.press("a")
    assert checked(page, "contract") == "abundance"
    page.keyboard.press("Tab")
    assert focused(page)[0] == "trump"
    for key, suit in (("h", "hearts"), ("c", "clubs"), ("d", "diamonds"), ("s", "spades")):
        page.wait_for_timeout(900)  # a new search, not "hc" typed as one word
        page.keyboard.press(key)
        assert checked(page, "trump") == suit
    # Back to a misère: no trumps, and "made or failed" instead of a number, "Made" chosen.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("m")
    assert checked(page, "contract") == "misere"
    page.keyboard.press("Tab")
    assert focused(page)[0] == "declarer"
    page.keyboard.press("Tab")
    assert focused(page) == ("tricks", "0")  # "Made"
    page.keyboard.press("f")
    assert checked(page, "tricks") == "1"  # "Failed"
    expect(page.locator("#hand-form label.chip.failed[data-show-for=misere]")).to_be_visible()


def test_the_skip_link_leads_to_the_main_content(logged_in: Page, live_server, table4):
    page = logged_in
    slug = table4.night.season.club.slug
    # The club page has no field that takes the focus: the first Tab reaches the skip link.
    page.goto(f"{live_server.url}/c/{slug}/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to main content")).to_be_focused()
    for path in (f"/c/{slug}/", f"/c/{slug}/tables/{table4.pk}/", f"/c/{slug}/nights/new/"):
        page.goto(live_server.url + path)
        first = page.evaluate(
            """() => [...document.querySelectorAll('a[href], button, input, select, textarea')]
                   .find(e => !e.disabled && e.tabIndex >= 0 && e.type !== 'hidden'
                              && e.getClientRects().length).textContent"""
        )
        assert first == "Skip to main content", f"on {path} the first stop is {first!r}"
        skip = page.get_by_role("link", name="Skip to main content")
        skip.focus()
        b = skip.bounding_box()
        assert b is not None and b["y"] >= 0, "the skip link shows when it has the focus"
        page.keyboard.press("Enter")
        assert focused_id(page) == "main"
        # The next Tab goes to the page's own content, not back to the menu.
        page.keyboard.press("Tab")
        inside = page.evaluate(
            "() => document.getElementById('main').contains(document.activeElement)"
        )
        assert inside, f"on {path} Tab after the skip link left the main content"


def test_focus_stays_on_add_players(logged_in: Page, live_server, club, season, players):
    page = logged_in
    page.goto(f"{live_server.url}/c/{club.slug}/nights/new/")
    page.locator("#id_new_players").fill("Zoe Quinn, Yan Li")
    page.keyboard.press("Tab")
    expect(page.locator("#add-players")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Added")).to_contain_text("Zoe Quinn")
    expect(page.locator("#add-players")).to_be_focused()
    expect(page.locator("#id_new_players")).to_have_value("")
    # Add a table keeps its place too (pressed once htmx has taken the new form over).
    page.wait_for_function(
        "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    page.locator("#add-table").focus()
    page.keyboard.press("Enter")
    expect(page.locator("fieldset.table-seats")).to_have_count(4)
    expect(page.locator("#add-table")).to_be_focused()


def test_the_phone_menu_is_one_line_then_large_targets(logged_in: Page, live_server, club):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 64, f"header {header} on a phone"
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("link", name="Standings")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    targets = page.locator(".site-menu a, .site-menu button")
    assert targets.count() >= 7
    for i in range(targets.count()):
        b = targets.nth(i).bounding_box()
        assert b is not None and b["height"] >= 44, f"{targets.nth(i).inner_text()}: {b}"
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"]
        # One line of text each, not wrapped.
        wrapped = targets.nth(i).evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return r.getClientRects().length; }"
        )
        assert wrapped <= 1, f"{targets.nth(i).inner_text()} wraps"
    assert_no_axe_violations(page)
    page.get_by_role("link", name="Standings").click()
    expect(page.locator("h1")).to_contain_text("Standings")


def test_the_audit_trail_is_folded(logged_in: Page, live_server, table4, secretary):
    seats = [s.player for s in table4.seats.order_by("position")]
    record_hand(
        table4, HandEntry(dealer=seats[0], contract="solo", declarer=seats[1], tricks=6), secretary
    )
    page = logged_in
    page.goto(f"{live_server.url}/c/{table4.night.season.club.slug}/nights/{table4.night.pk}/")
    trail = page.locator("details#audit")
    expect(trail).not_to_have_attribute("open", "")
    expect(page.locator("ol.audit-trail")).to_be_hidden()
    trail.locator("summary").click()
    expect(page.locator("ol.audit-trail")).to_be_visible()
    expect(page.locator("ol.audit-trail")).to_contain_text("Table 1, hand 1")
    assert_no_axe_violations(page)
