"""Two phones score two tables at once (Chromium, 390x844). One loses its connection mid-entry,
saves a hand (kept on the phone, "waiting to send"), and when the connection returns the hand is
sent by itself and stored exactly once, with the scoring core's figures. Also: a half-typed hand
survives a reload; a phone whose hand was entered first by another device keeps what it typed;
the entry page opens again with no connection (service worker)."""

from __future__ import annotations

import re

import entry_kit as kit
import pytest
from playwright.sync_api import Browser, Page, expect

import scoring
from club.clubs.models import Player
from club.play.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
HOYLE = scoring.preset("hoyle")


@pytest.fixture
def phone(browser: Browser, live_server):
    """phone(username) -> (context, page): a phone-sized Chromium logged in; closed afterwards
    (an open page would go on polling the next test's server)."""
    contexts = []

    def open_phone(username: str | None):
        context, page = _phone(browser, live_server, username)
        contexts.append(context)
        return context, page

    yield open_phone
    for context in contexts:
        context.close()


def _phone(browser: Browser, live_server, username: str | None):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave with a draft?" and the like
    if username is None:  # a table's link: no login
        return context, page
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return context, page


def fill_hand(page: Page, contract: str, declarer: str, tricks: int) -> None:
    kit.fill_hand(page, contract, declarer, tricks=tricks)


def checked(page: Page, name: str) -> str:
    return page.evaluate(
        f"() => (document.querySelector('#hand-form input[name={name}]:checked') || {{}}).value"
        " || ''"
    )


def save_online(page: Page, number: int, contract: str, declarer: str, tricks: int) -> None:
    expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
    fill_hand(page, contract, declarer, tricks)
    expect(page.locator("#preview")).to_contain_text(re.compile("Made|Failed"))
    page.locator("#save-hand").click()
    expect(page.locator(f"#hand-{number}")).to_be_visible()
    expect(page.locator("#save-status")).to_contain_text(f"Hand {number} saved")


def amounts(hand: Hand) -> dict[str, int]:
    return {line.player.name: line.amount for line in hand.score_lines.select_related("player")}


def core(players: tuple[str, ...], **hand) -> dict[str, int]:
    return scoring.score_hand(scoring.Hand(players=players, **hand), HOYLE).amounts


def test_two_tables_at_once_one_offline_mid_entry_stores_the_hand_once(
    phone, live_server, club, secretary, night, table4, table5
):
    """Through the tables' own links (no login), as a club night runs."""
    from club.play.services import table_links as link_service

    links = link_service.night_links(night, secretary)
    ctx_a, a = phone(None)
    ctx_b, b = phone(None)
    a.goto(f"{live_server.url}/t/{links[table4.pk].token}/")
    b.goto(f"{live_server.url}/t/{links[table5.pk].token}/")
    expect(a.locator("h1")).to_contain_text("Table 1")

    save_online(a, 1, "solo", "Bob", 6)
    save_online(b, 1, "solo", "Fay", 5)

    # Phone A loses its connection while the hand is being entered.
    fill_hand(a, "misere", "Cat", 0)
    ctx_a.set_offline(True)
    a.locator("#save-hand").click()
    outbox = a.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text(re.compile(r"Hand 2: Misère by Cat.*waiting to send"))
    expect(a.locator("#save-status")).to_contain_text("kept on this device")
    # The form has moved on to hand 3 (Cat deals), ready for the next hand.
    expect(a.locator("#entry-title")).to_have_text("Hand 3")
    expect(a.locator("#hand-form .hand-facts")).to_contain_text("Dealer Cat")
    # Table 2 goes on meanwhile.
    save_online(b, 2, "solo", "Gus", 4)
    assert Hand.objects.filter(table=table4).count() == 1

    # Back online: the waiting hand goes by itself, once.
    ctx_a.set_offline(False)
    expect(a.locator("#hand-2")).to_be_visible(timeout=15_000)
    expect(outbox).to_be_hidden()
    expect(a.locator("#save-status")).to_contain_text("Hand 2 sent and saved")
    save_online(a, 3, "solo", "Dan", 7)

    hands = list(Hand.objects.filter(table=table4).order_by("number"))
    assert [(h.number, h.contract, h.declarer.name) for h in hands] == [
        (1, "solo", "Bob"),
        (2, "misere", "Cat"),
        (3, "solo", "Dan"),
    ]
    assert len({h.client_id for h in hands}) == 3 and None not in {h.client_id for h in hands}
    seats = ("Ann", "Bob", "Cat", "Dan")
    assert amounts(hands[1]) == core(seats, contract="misere", declarer="Cat", tricks=0)
    assert amounts(hands[2]) == core(seats, contract="solo", declarer="Dan", tricks=7)
    assert Hand.objects.filter(table=table5).count() == 2


def test_a_half_typed_hand_survives_a_reload(phone, live_server, club, scorer, table4):
    ctx, page = phone("scorer")
    page.goto(f"{live_server.url}/c/{club.slug}/tables/{table4.pk}/")
    kit.fill_hand(page, "prop_cop", "Bob", partner="Dan", tricks=9)
    page.reload()
    expect(page.locator("#save-status")).to_contain_text("Your unsaved hand is back")
    assert checked(page, "contract") == "prop_cop"
    expect(page.locator("#hand-form fieldset.field-partner")).to_be_visible()
    assert checked(page, "tricks") == "9"
    expect(page.locator("#save-status")).to_contain_text("Your unsaved hand is back in the form")
    expect(page.locator("#preview")).to_contain_text("Made, 1 over")
    page.locator("#save-hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    page.reload()  # saved: nothing comes back
    expect(page.locator("#entry-title")).to_have_text("Hand 2")
    assert checked(page, "contract") == ""
    assert Hand.objects.get().partner.name == "Dan"


def test_another_device_saving_first_keeps_what_this_one_typed(
    phone, live_server, club, scorer, secretary, table4
):
    ctx_a, a = phone("scorer")
    ctx_b, b = phone("sec")
    for page in (a, b):
        page.goto(f"{live_server.url}/c/{club.slug}/tables/{table4.pk}/")
    save_online(b, 1, "solo", "Bob", 5)
    kit.fill_hand(a, "abundance", "Cat", tricks=9, trump="hearts")
    a.locator("#save-hand").click()
    status = a.locator("#save-status")
    expect(status).to_contain_text("Hand 1 was saved by someone else")
    expect(a.locator("#entry-title")).to_have_text("Hand 2")
    expect(a.locator("#hand-form fieldset.field-declarer input:checked")).to_have_value(
        str(Player.objects.get(name="Cat").pk)
    )
    assert checked(a, "tricks") == "9"
    expect(a.locator("#hand-1")).to_contain_text("Bob")  # the sheet as it is now
    a.locator("#save-hand").click()
    expect(a.locator("#hand-2")).to_contain_text("Cat")
    assert [h.declarer.name for h in Hand.objects.order_by("number")] == ["Bob", "Cat"]
    # B's sheet catches up by itself.
    expect(b.locator("#hand-2")).to_be_visible(timeout=15_000)


def test_the_entry_page_opens_offline_once_it_has_been_opened(
    phone, live_server, club, scorer, table4
):
    ctx, page = phone("scorer")
    url = f"{live_server.url}/c/{club.slug}/tables/{table4.pk}/"
    page.goto(url)
    assert page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the worker, which keeps the page
    expect(page.locator("#hand-form")).to_be_visible()
    ctx.set_offline(True)
    page.reload()
    expect(page.locator("#entry-title")).to_have_text("Hand 1")
    expect(page.locator("#hand-form")).to_be_visible()
    fill_hand(page, "solo", "Bob", 5)
    page.locator("#save-hand").click()
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    ctx.set_offline(False)
    expect(page.locator("#hand-1")).to_be_visible(timeout=15_000)
    assert Hand.objects.count() == 1


def test_a_hand_kept_offline_while_the_table_moved_on_asks_before_it_is_saved(
    phone, live_server, club, scorer, secretary, table4
):
    ctx_a, a = phone("scorer")
    ctx_b, b = phone("sec")
    for page in (a, b):
        page.goto(f"{live_server.url}/c/{club.slug}/tables/{table4.pk}/")
    save_online(a, 1, "solo", "Bob", 6)
    ctx_a.set_offline(True)
    fill_hand(a, "solo", "Cat", 8)
    a.locator("#save-hand").click()
    expect(a.locator("#outbox")).to_contain_text("waiting to send")
    # Meanwhile the other phone at the table enters hand 2 (it refreshes to see hand 1 first).
    b.reload()
    save_online(b, 2, "misere", "Dan", 0)
    ctx_a.set_offline(False)
    item = a.locator("#outbox .outbox-item")
    expect(item).to_contain_text("not sent", timeout=15_000)
    expect(item).to_contain_text("Hand 2 was saved by someone else")
    expect(a.locator("#hand-2")).to_contain_text("Dan")  # the sheet as it is now
    assert Hand.objects.filter(table=table4).count() == 2  # nothing saved without asking
    item.get_by_role("button", name="Save as hand 3").click()
    expect(a.locator("#hand-3")).to_contain_text("Cat", timeout=15_000)
    expect(a.locator("#outbox")).to_be_hidden()
    hands = Hand.objects.filter(table=table4).order_by("number")
    assert [(h.number, h.declarer.name, h.dealer.name) for h in hands] == [
        (1, "Bob", "Ann"),
        (2, "Dan", "Bob"),
        (3, "Cat", "Cat"),  # saved as hand 3 with hand 3's dealer
    ]


def test_the_night_page_refreshes_itself_when_a_table_saves_a_hand(
    phone, live_server, club, viewer, secretary, night, table4, players
):
    from club.play.services.hand_entry import HandEntry
    from club.play.services.hands import record_hand

    ann, bob = players[:2]
    ctx, page = phone("viewer")
    page.goto(f"{live_server.url}/c/{club.slug}/nights/{night.pk}/")
    card = page.locator(".night-table", has_text="Table 1")
    expect(card).to_contain_text("0 hands")
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)
    expect(card).to_contain_text("1 hand", timeout=25_000)
    expect(page.locator("h1")).to_be_visible()


def test_offline_after_cards_wrongly_dealt_the_same_dealer_deals_again(
    phone, live_server, club, scorer, table4
):
    """Hoyle: a misdeal is dealt again by the same player. With no connection the page moves on
    from the rotation the server gave (scoring.table), so it names the right dealer, and the
    hands stored when the connection returns carry the dealers the page showed."""
    ctx, page = phone("scorer")
    page.goto(f"{live_server.url}/c/{club.slug}/tables/{table4.pk}/")
    save_online(page, 1, "solo", "Bob", 6)
    facts = page.locator("#hand-form .hand-facts")
    expect(facts).to_contain_text("Dealer Bob")
    ctx.set_offline(True)
    kit.more(page)
    page.locator("#hand-form label.chip.misdeal").click()
    page.locator("#save-hand").click()
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    expect(page.locator("#entry-title")).to_have_text("Hand 3")
    expect(facts).to_contain_text("Dealer Bob")  # dealt again by Bob, not passed to Cat
    fill_hand(page, "solo", "Dan", 5)
    page.locator("#save-hand").click()
    expect(page.locator("#entry-title")).to_have_text("Hand 4")
    expect(facts).to_contain_text("Dealer Cat")
    ctx.set_offline(False)
    expect(page.locator("#hand-3")).to_be_visible(timeout=15_000)
    expect(page.locator("#outbox")).to_be_hidden()
    hands = Hand.objects.filter(table=table4).order_by("number")
    assert [(h.number, h.contract, h.dealer.name) for h in hands] == [
        (1, "solo", "Ann"),
        (2, "misdeal", "Bob"),
        (3, "solo", "Bob"),
    ]
