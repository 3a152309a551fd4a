"""Everything a thumb taps on a phone is at least 44 by 44 px (WCAG 2.5.5), on the pages a night
is run from at 390 px: the nights list, a night's page, a table's page and its link, with the
phone-naming form open. Links inside a sentence are exempt, as WCAG exempts them: their size is
the text's."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page

from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.table_links import night_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MIN = 44

# Every visible thing a tap acts on, but a link that runs inside a sentence's text.
SMALL_TARGETS = """min => {
  const inSentence = e => {
    if (e.tagName !== 'A' || getComputedStyle(e).display !== 'inline') return false;
    const block = e.closest('p, li, dd, td, th, h2, h3, small, .muted');
    return !!block && block.textContent.trim().length > e.textContent.trim().length;
  };
  const seen = [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, label.chip')];
  return seen.filter(e => {
    const b = e.getBoundingClientRect();
    const hidden = getComputedStyle(e).visibility === 'hidden';
    if (b.width === 0 || b.height === 0 || hidden) return false;
    if (e.closest('.visually-hidden') || e.classList.contains('visually-hidden')) return false;
    // A radio or checkbox drawn inside its (large) label is tapped through the label.
    if (['radio', 'checkbox'].includes(e.type) && e.closest('label')) {
      const l = e.closest('label').getBoundingClientRect();
      return l.width < min || l.height < min;
    }
    if (inSentence(e)) return false;
    return b.width < min - 0.5 || b.height < min - 0.5;
  }).map(e => `${e.tagName.toLowerCase()} "${(e.textContent || e.value || e.name || '').trim()
      .slice(0, 40)}" ${Math.round(e.getBoundingClientRect().width)}x${
      Math.round(e.getBoundingClientRect().height)}`);
}"""


def small_targets(page: Page) -> list[str]:
    return page.evaluate(SMALL_TARGETS, MIN)


@pytest.fixture
def busy_night(season, players, secretary):
    night = create_night(
        season, dt.date(2026, 11, 20), [(players[:4], 0), (players[4:9], 0)], user=secretary
    )
    table = night.tables.get(number=1)
    seats = [s.player for s in table.seats.order_by("position")]
    for n in range(3):
        entry = HandEntry(
            dealer=seats[n % 4], contract="solo", declarer=seats[(n + 1) % 4], tricks=5 + n
        )
        record_hand(table, entry, secretary)
    return night


def test_a_secretarys_pages_on_a_phone(logged_in: Page, live_server, club, busy_night):
    page = logged_in
    page.set_viewport_size(PHONE)
    table = busy_night.tables.get(number=1)
    small = {}
    for path in (
        f"/c/{club.slug}/nights/",
        f"/c/{club.slug}/nights/{busy_night.pk}/",
        f"/c/{club.slug}/tables/{table.pk}/",
        f"/c/{club.slug}/arrivals/",
        f"/c/{club.slug}/arrivals/door/",
        f"/c/{club.slug}/draw/",
        f"/c/{club.slug}/nights/{busy_night.pk}/late/",
    ):
        page.goto(live_server.url + path)
        small[path] = small_targets(page)
    assert not any(small.values()), small


def test_a_tables_link_on_a_phone(browser, live_server, busy_night, secretary):
    links = night_links(busy_night, secretary)
    table = busy_night.tables.get(number=1)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{links[table.pk].token}/")
        assert not small_targets(page), small_targets(page)
        page.locator("details.device summary").click()
        assert not small_targets(page), small_targets(page)
    finally:
        context.close()
