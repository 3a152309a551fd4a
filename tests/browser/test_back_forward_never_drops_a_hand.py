"""A hand entered after the browser's Back and Forward is never taken for a resend of the hand
saved before it: on a 390 px phone through the table's link and on the secretary's table page at
1280 px, save a hand, Back, Forward, enter a different hand, Save: both hands are stored (or a
conflict names both and loses neither). The same after a reload, and with the connection dropped
between the two saves."""

from __future__ import annotations

import re

import entry_kit as kit
import pytest
from playwright.sync_api import Browser, Page, expect

from club.play.models import Hand
from club.play.services import table_links as link_service

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESK = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def open_page(browser: Browser, live_server, club, secretary, night):
    """open_page(how) -> (context, page, table page URL, a page to come from): `link` is a phone
    through table 1's link, `secretary` the secretary's table page on a desk-sized screen."""
    contexts = []

    def opened(how: str):
        context = browser.new_context(**(PHONE if how == "link" else DESK))
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)  # the machine is shared: a cold page can take seconds
        page.on("dialog", lambda dialog: dialog.accept())
        table = night.tables.get(number=1)
        if how == "link":
            token = link_service.night_links(night, secretary)[table.pk].token
            url, before = f"{live_server.url}/t/{token}/", f"{live_server.url}/accounts/login/"
        else:
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("#id_username", "sec")
            page.fill("#id_password", "pw-sec")
            page.click("button[type=submit]")
            page.wait_for_load_state()
            url = f"{live_server.url}/c/{club.slug}/tables/{table.pk}/"
            before = f"{live_server.url}/c/{club.slug}/nights/{night.pk}/"
        page.goto(before)
        return context, page, url

    yield opened
    for context in contexts:
        context.close()


def save(page: Page, number: int, contract: str, declarer: str, tricks: int) -> None:
    expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
    kit.fill_hand(page, contract, declarer, tricks=tricks)
    expect(page.locator("#preview")).to_contain_text(re.compile("Made|Failed"))
    page.locator("#save-hand").click()


def stored(table_number: int = 1) -> list[tuple[int, str, str]]:
    hands = Hand.objects.filter(table__number=table_number).order_by("number")
    return [(h.number, h.contract, h.declarer.name) for h in hands.select_related("declarer")]


def both_kept(page: Page) -> None:
    """Two hands stored, or a conflict that names both and stores the second when asked."""
    status = page.locator("#save-status")
    expect(status).to_contain_text(re.compile(r"Hand 2 saved|already saved"))
    text = status.inner_text()
    assert "the same entry sent again" not in text, text
    if "Hand 2 saved" not in text:
        # A conflict: the saved hand and this one both shown; saved as the next hand on asking.
        expect(page.locator(".other-version")).to_contain_text("Solo by Bob")
        page.locator("#save-hand").click()
        expect(status).to_contain_text("Hand 2 saved")
    expect(page.locator("#hand-2")).to_contain_text("Cat")
    assert stored() == [(1, "solo", "Bob"), (2, "misere", "Cat")]


@pytest.mark.parametrize("how", ["link", "secretary"])
def test_back_forward_then_a_different_hand_is_stored_as_the_next(open_page, how):
    context, page, url = open_page(how)
    page.goto(url)
    save(page, 1, "solo", "Bob", 6)
    expect(page.locator("#hand-1")).to_be_visible()
    page.go_back()
    page.go_forward()
    expect(page.locator("#hand-1")).to_be_visible()
    save(page, 2, "misere", "Cat", 0)
    both_kept(page)


@pytest.mark.parametrize("how", ["link", "secretary"])
def test_after_a_reload_a_different_hand_is_stored_as_the_next(open_page, how):
    context, page, url = open_page(how)
    page.goto(url)
    save(page, 1, "solo", "Bob", 6)
    expect(page.locator("#hand-1")).to_be_visible()
    page.reload()
    save(page, 2, "misere", "Cat", 0)
    both_kept(page)


@pytest.mark.parametrize("how", ["link", "secretary"])
def test_connection_dropped_between_the_saves_keeps_both_hands(open_page, how):
    """Saved online; Back and Forward; the connection drops; a different hand is saved into the
    outbox; when the connection returns it goes, and is stored as the next hand."""
    context, page, url = open_page(how)
    page.goto(url)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # under the service worker, which keeps the page for offline use
    save(page, 1, "solo", "Bob", 6)
    expect(page.locator("#hand-1")).to_be_visible()
    page.go_back()
    page.go_forward()
    expect(page.locator("#hand-form")).to_be_visible()
    context.set_offline(True)
    kit.fill_hand(page, "misere", "Cat", tricks=0)
    page.locator("#save-hand").click()
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    context.set_offline(False)
    expect(page.locator("#hand-2")).to_contain_text("Cat", timeout=15_000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert stored() == [(1, "solo", "Bob"), (2, "misere", "Cat")]


@pytest.mark.parametrize("how", ["link", "secretary"])
def test_offline_page_from_the_worker_keeps_both_hands(open_page, how):
    """The page the service worker kept was drawn before hand 1 was saved (its form says hand 1,
    under the key hand 1 was saved with): a different hand saved from it offline is not taken for
    hand 1 sent again: it is offered as hand 2 and stored when asked."""
    context, page, url = open_page(how)
    page.goto(url)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    save(page, 1, "solo", "Bob", 6)
    expect(page.locator("#hand-1")).to_be_visible()
    context.set_offline(True)
    page.reload()  # the worker's copy, drawn before hand 1 was saved
    expect(page.locator("#hand-form")).to_be_visible()
    number = page.locator("#entry-title").inner_text()
    kit.fill_hand(page, "misere", "Cat", tricks=0)
    page.locator("#save-hand").click()
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    context.set_offline(False)
    if number == "Hand 1":
        item = page.locator("#outbox .outbox-item")
        expect(item).to_contain_text("not sent", timeout=15_000)
        assert stored() == [(1, "solo", "Bob")]  # nothing saved without asking
        item.get_by_role("button", name="Save as hand 2").click()
    expect(page.locator("#hand-2")).to_contain_text("Cat", timeout=15_000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert stored() == [(1, "solo", "Bob"), (2, "misere", "Cat")]
