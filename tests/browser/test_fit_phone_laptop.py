"""What a secretary, a player and a newcomer read whole, measured in Chromium at 390 px and
1280 px: a save's status at the foot of the phone, the table page's one header row and its
hand 1 near the top, the draw's seats round each table, a 60-character name with emoji (its
tile, its column heading broken only at spaces, the box that takes it whole), the door page
without the club's menu, the links page's Revoke apart from New link, the live board's names
level with their figures, the season picker, and the laptop's header on one row."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from club.clubs.models import Player
from club.play.services import arrivals
from club.play.services import tokens as token_service
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.table_links import night_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# 60 characters as the server counts them; an emoji is two UTF-16 units, so a browser's
# maxlength of 60 would cut it.
LONG = "Bartholomew Fitzwilliam-Montgomery 🃏 de la Cruz-Östergaard Jr"[:60]


@pytest.fixture
def long_night(club, season_now, players, secretary):
    """Tonight: one table of five, the last seat a 60-character name with an emoji; hand 1 has
    a revoke."""
    long = Player.objects.create(club=club, name=LONG)
    night = create_night(season_now, club.today(), [([*players[:4], long], 0)], user=secretary)
    table = night.tables.get()
    coming = next_hand(table)
    seats = [s.player for s in table.seats.all()]
    playing = [p for p in seats if p != coming["sitting_out"]]
    entry = HandEntry(
        dealer=coming["dealer"],
        contract="solo",
        declarer=playing[0],
        tricks=5,
        revoke_by=playing[1],
    )
    record_hand(table, entry, secretary)
    links = night_links(night, secretary)
    night.link_url = f"/t/{links[table.pk].token}/"
    return night


def words_split_across_lines(page: Page, selector: str) -> list[str]:
    """The words of the element's text that a line break cuts in two."""
    return page.evaluate(
        """(selector) => {
          const el = document.querySelector(selector);
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          const split = [];
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent;
            const re = /\\S+/g;
            let m;
            while ((m = re.exec(text))) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                .map(r => Math.round(r.top)));
              if (tops.size > 1) split.push(m[0]);
            }
          }
          return split;
        }""",
        selector,
    )


def test_a_saves_status_is_shown_whole_at_the_foot_of_a_phone(page: Page, live_server, long_night):
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + long_night.link_url)
    message = (
        "No connection. Hand 2 (Solo by Ann, 5 tricks: Made) is kept on this device, waiting to "
        "send: it goes by itself when the connection returns. Another phone at this table saved "
        "hand 2 first: check the sheet, then save yours as hand 3."
    )
    page.evaluate(
        """(text) => { const box = document.getElementById("save-status");
          box.innerHTML = ""; const p = document.createElement("p");
          p.className = "message warning"; p.textContent = text; box.appendChild(p); }""",
        message,
    )
    status = page.locator("#save-status")
    sizes = status.evaluate("(el) => [el.scrollHeight, el.clientHeight]")
    assert sizes[0] <= sizes[1] + 1, f"the status scrolls inside its box: {sizes}"
    box = page.locator("#save-status .message").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["height"] > 88  # longer than the old cap, and whole


def test_the_table_page_on_a_phone_has_one_header_row_and_hand_1_near_the_top(
    page: Page, live_server, long_night
):
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + long_night.link_url)
    brand = page.locator("header.site-header .brand").bounding_box()
    help_link = page.locator("header.site-header .help-link").bounding_box()
    header = page.locator("header.site-header").bounding_box()
    assert abs(help_link["y"] - brand["y"]) < 12, "Help sits on a second header row"
    assert header["height"] < 70, f"the header takes {header['height']} px"
    expect(page.locator(".table-head")).to_contain_text("Hoyle sixpences")
    hand = page.locator("#hand-1").bounding_box()
    assert hand["y"] <= 260, f"hand 1 starts {hand['y']} px down the phone"
    expect(page.locator("#hand-1")).to_contain_text("(3 tricks from the revoke)")
    # The long name's heading breaks at its spaces, never inside a word.
    heading = 'thead th.player[title^="Bartholomew"]'
    assert words_split_across_lines(page, heading) == []
    th = page.locator(heading).bounding_box()
    assert th["x"] + th["width"] <= PHONE["width"]


def test_a_name_of_sixty_characters_with_an_emoji_is_taken_whole_and_fits_its_tile(
    logged_in: Page, live_server, club, season_now
):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/arrivals/")
    box = page.locator("#new-name")
    box.fill(LONG)
    assert page.evaluate("() => Array.from(document.querySelector('#new-name').value).length") == 60
    box.press("Enter")
    expect(page.locator(".arrival-tile", has_text="Bartholomew")).to_be_visible()
    assert Player.objects.filter(club=club, name=LONG).exists()
    tile = page.locator(".arrival-tile", has_text="Bartholomew")
    widths = tile.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1], f"the name overflows its tile: {widths}"
    # One character more: the page says so before sending, and sends nothing.
    box = page.locator("#new-name")
    box.fill(LONG + "x")
    assert not box.evaluate("(el) => el.checkValidity()")
    assert "At most 60 characters" in box.evaluate("(el) => el.validationMessage")


def test_the_draws_seats_go_clockwise_round_each_table(
    logged_in: Page, live_server, club, season_now
):
    for i in range(1, 15):  # 14: a table of 4 and two of 5
        arrivals.tick_in(club, Player.objects.create(club=club, name=f"Player {i:02d}"))
    page = logged_in
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/c/{club.slug}/draw/")
        page.get_by_role("button", name="Draw tables").click()
        tables = page.locator(".draw-tables section")
        expect(tables).to_have_count(3)
        for t in range(3):
            angles = (
                tables.nth(t)
                .locator("ol")
                .evaluate(
                    """(ol) => { const box = ol.getBoundingClientRect();
                  const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
                  return [...ol.children].map(li => { const b = li.getBoundingClientRect();
                    const x = b.left + b.width / 2 - cx, y = cy - (b.top + b.height / 2);
                    return Math.atan2(x, y); }); }"""
                )
            )
            # Clockwise from the top: each seat's angle (from north, turning east) grows.
            turned = [(a + 2 * 3.141593 + 0.01) % (2 * 3.141593) for a in angles]
            assert turned == sorted(turned), f"table {t + 1} at {size['width']} px: {angles}"
            for li in tables.nth(t).locator("li").all():
                b = li.bounding_box()
                assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"]
        # The buttons are as wide as their words, like every other button.
        confirm = page.get_by_role("button", name="Confirm").bounding_box()
        again = page.get_by_role("button", name="Draw again").bounding_box()
        assert confirm["width"] < 160 and abs(confirm["y"] - again["y"]) < 2


def test_the_door_page_shows_players_no_menu_and_keeps_im_here_whole(
    browser, live_server, club, players
):
    club.door_check_in = True
    club.save()
    Player.objects.create(club=club, name=LONG)
    phone = browser.new_context(viewport=PHONE)
    try:
        door = phone.new_page()
        door.goto(f"{live_server.url}/c/{club.slug}/door/{token_service.door_token(club)}/")
        expect(door.get_by_role("button", name="Menu")).to_have_count(0)
        expect(door.get_by_role("link", name="Help")).to_be_visible()
        button = door.get_by_role("button", name=f"{LONG}: I'm here")
        splits = button.evaluate(
            """(b) => { const r = document.createRange();
              r.selectNodeContents(b.querySelector('.nowrap'));
              return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"""
        )
        assert splits == 1
    finally:
        phone.close()


def test_revoke_stands_apart_from_new_link(logged_in: Page, live_server, long_night, club):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/nights/{long_night.pk}/links/")
    new = page.get_by_role("link", name="New link").bounding_box()
    revoke = page.get_by_role("link", name="Revoke").bounding_box()
    assert revoke["x"] - (new["x"] + new["width"]) >= 40 or revoke["y"] > new["y"] + new["height"]


def test_the_live_boards_names_sit_level_with_their_figures(
    logged_in: Page, live_server, long_night, club
):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/nights/{long_night.pk}/live/")
    expect(page.locator(".live-head")).to_contain_text("refreshes every second")
    row = page.locator("table.nets tbody tr").first
    name = row.locator("td").nth(0).locator("a").bounding_box()
    net = (
        row.locator("td").nth(2).locator("span, *").first.bounding_box()
        or row.locator("td").nth(2).bounding_box()
    )
    middle = lambda b: b["y"] + b["height"] / 2  # noqa: E731
    assert abs(middle(name) - middle(net)) <= 4, (name, net)


def test_the_season_picker_and_the_late_table_choice_are_not_cut_on_a_phone(
    logged_in: Page, live_server, long_night, club
):
    page = logged_in
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/standings/")
    picker = page.locator("#id_season")
    text = picker.evaluate(
        """(s) => { const c = document.createElement('canvas').getContext('2d');
          c.font = getComputedStyle(s).font;
          return c.measureText(s.selectedOptions[0].text).width; }"""
    )
    assert picker.bounding_box()["width"] >= text + 30
    arrivals.arrive_by_name(club, "Late Larry")
    page.goto(f"{live_server.url}/c/{club.slug}/nights/{long_night.pk}/late/")
    expect(page.get_by_role("button", name="Make the new table of three")).to_be_visible()


def test_the_laptops_header_keeps_log_out_on_its_one_row(logged_in: Page, live_server, club):
    page = logged_in
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/c/{club.slug}/")
    brand = page.locator(".site-nav .brand").bounding_box()
    log_out = page.get_by_role("button", name="Log out").bounding_box()
    assert abs(log_out["y"] - brand["y"]) < 12, (brand, log_out)
    assert log_out["x"] + log_out["width"] <= LAPTOP["width"]
