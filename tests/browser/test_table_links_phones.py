"""Two phones score their own tables through the tables' links at once, with no login, in
headless Chromium on a phone-sized viewport; the stored figures are checked against the scoring
core, and the live board follows the night as the hands come in."""

from __future__ import annotations

import re

import pytest
from entry_kit import fill_hand
from playwright.sync_api import Page, expect

import scoring
from club.clubs.models import AuditEvent
from club.play.models import Hand, ScoreLine
from club.play.services import table_links as link_service

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOYLE = scoring.preset("hoyle")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# (contract, declarer, partner, tricks) for each table, hand by hand.
TABLE1 = [
    ("solo", "Bob", None, 7),
    ("prop_cop", "Cat", "Dan", 8),
    ("misere", "Ann", None, 1),
]
TABLE2 = [
    ("solo", "Fay", None, 5),
    ("open_misere", "Gus", None, 0),
    ("prop_cop", "Hal", "Eve", 6),
]


def fill(page: Page, number: int, contract: str, declarer: str, partner: str | None, tricks: int):
    expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
    fill_hand(page, contract, declarer, partner=partner, tricks=tricks)
    expect(page.locator("#preview")).to_contain_text(re.compile("Made|Failed"))


def expected(seats: list[str], hands) -> dict[str, int]:
    totals = dict.fromkeys(seats, 0)
    for number, (contract, declarer, partner, tricks) in enumerate(hands, start=1):
        dealer = scoring.table.dealer_for(seats, 0, number)
        playing = scoring.table.players_in_hand(seats, dealer, HOYLE)
        result = scoring.score_hand(
            scoring.Hand(
                players=playing,
                contract=contract,
                declarer=declarer,
                partner=partner,
                tricks=tricks,
            ),
            HOYLE,
        )
        for player, amount in result.amounts.items():
            totals[player] += amount
    return totals


def pounds(pence: int) -> str:
    sign = "-" if pence < 0 else "+" if pence > 0 else ""
    return f"{sign}£{abs(pence) // 100}.{abs(pence) % 100:02d}"


def test_two_phones_score_their_tables_at_once(
    browser, logged_in, live_server, night, secretary, players, axe
):
    links = link_service.night_links(night, secretary)
    tables = {t.number: t for t in night.tables.all()}
    # The secretary watches the live board.
    board = logged_in
    board.goto(f"{live_server.url}/c/crown/nights/{night.pk}/live/")
    expect(board.locator("#live-hands")).to_have_text("0")
    axe(board)

    phones = [browser.new_context(**PHONE) for _ in range(2)]
    try:
        one, two = (context.new_page() for context in phones)
        for page, number in ((one, 1), (two, 2)):
            page.set_default_timeout(10_000)
            page.goto(f"{live_server.url}/t/{links[tables[number].pk].token}/")
            expect(page.locator("h1")).to_contain_text(f"Table {number}")
            # Nothing else of the club is reachable from the page.
            expect(page.locator("a[href^='/c/']")).to_have_count(0)
            expect(page.get_by_role("link", name="Log in")).to_have_count(0)
        axe(one)
        # The first phone gives itself a name, for the audit trail.
        one.locator("details.device summary").click()
        one.locator("#id_device").fill("Ann's phone")
        one.get_by_role("button", name="Save the name").click()
        expect(one.locator(".link-header .who")).to_have_text("Ann's phone")

        for n, (hand1, hand2) in enumerate(zip(TABLE1, TABLE2, strict=True), start=1):
            fill(one, n, *hand1)
            fill(two, n, *hand2)
            # Both save at the same moment; then each sees its own hand on its own sheet.
            one.get_by_role("button", name=f"Save hand {n}").click(no_wait_after=True)
            two.get_by_role("button", name=f"Save hand {n}").click(no_wait_after=True)
            for page in (one, two):
                expect(page.locator(f"#hand-{n}")).to_be_visible()
                expect(page.locator("#entry-title")).to_have_text(f"Hand {n + 1}")
        axe(one)
        # Table 2 has five players: the sheet shows who sat out, and no other table's hands.
        expect(two.locator("#sheet")).not_to_contain_text("Ann")

        seats1 = ["Ann", "Bob", "Cat", "Dan"]
        seats2 = ["Eve", "Fay", "Gus", "Hal", "Ivy"]
        for page, seats, hands, number in ((one, seats1, TABLE1, 1), (two, seats2, TABLE2, 2)):
            want = expected(seats, hands)
            stored = {
                name: sum(
                    ScoreLine.objects.filter(
                        hand__table=tables[number], player__name=name
                    ).values_list("amount", flat=True)
                )
                for name in seats
            }
            assert stored == want
            assert Hand.objects.filter(table=tables[number]).count() == len(hands)
            footer = page.locator("#sheet-totals")
            for name in seats:
                expect(footer).to_contain_text(pounds(want[name]))
        assert Hand.objects.filter(entered_by__isnull=False).count() == 0
        devices = set(
            AuditEvent.objects.filter(action="create").values_list("link_label", "device")
        )
        assert devices == {("Table 1's link", "Ann's phone"), ("Table 2's link", "")}

        # The live board caught up by itself (it polls every second), with the night's nets
        # as the core has them.
        expect(board.locator("#live-hands")).to_have_text("6", timeout=3_000)
        nets = expected(seats1, TABLE1) | expected(seats2, TABLE2)
        for payer, payee, amount in scoring.settle_up(nets):
            expect(board.locator("#settle-up")).to_contain_text(
                f"{payer} pays {payee} {pounds(amount).lstrip('+')}"
            )
        axe(board)
    finally:
        for context in phones:
            context.close()


def test_the_secretarys_links_and_qr_pages(logged_in, live_server, night, axe):
    page = logged_in
    page.goto(f"{live_server.url}/c/crown/nights/{night.pk}/")
    page.get_by_role("link", name="Table links & QR codes").click()
    expect(page.locator("h1")).to_contain_text("Table links")
    expect(page.locator("svg.qr")).to_have_count(2)
    axe(page)
    first = page.locator(".table-link-url").first.inner_text()
    # Revoke table 1's link, after a confirmation; its old address is then "not found".
    page.get_by_role("link", name="Revoke table 1's link").click()
    page.get_by_role("button", name="Revoke the link").click()
    expect(page.locator(".messages")).to_contain_text("Table 1's link is revoked")
    second = page.locator(".table-link-url").first.inner_text()
    assert second != first
    page.goto(first)
    expect(page.locator("h1")).to_have_text("This table link does not work")
    page.goto(f"{live_server.url}/c/crown/nights/{night.pk}/links/print/")
    expect(page.locator(".qr-card")).to_have_count(2)
    axe(page)


def test_a_phone_that_loses_the_connection_sends_its_hand_once_when_back(
    browser, live_server, night, secretary, players
):
    links = link_service.night_links(night, secretary)
    table = night.tables.get(number=1)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{live_server.url}/t/{links[table.pk].token}/")
        fill(page, 1, "solo", "Bob", None, 7)
        context.set_offline(True)
        page.get_by_role("button", name="Save hand 1").click()
        outbox = page.locator("#outbox")
        expect(outbox).to_be_visible()
        expect(outbox).to_contain_text("Waiting to send")
        assert not Hand.objects.exists()
        context.set_offline(False)
        expect(page.locator("#hand-1")).to_be_visible()
        expect(outbox).to_be_hidden()
        hand = Hand.objects.get()
        assert hand.entered_via_id == links[table.pk].pk and hand.entered_by is None
        want = expected(["Ann", "Bob", "Cat", "Dan"], [("solo", "Bob", None, 7)])
        stored = {line.player.name: line.amount for line in hand.score_lines.all()}
        assert stored == want
    finally:
        context.close()


def test_a_second_phone_confirms_the_hand_the_first_entered(
    browser, live_server, night, club, secretary, players, axe
):
    club.confirm_table_hands = True
    club.save()
    links = link_service.night_links(night, secretary)
    table = night.tables.get(number=1)
    address = f"{live_server.url}/t/{links[table.pk].token}/"
    phones = [browser.new_context(**PHONE) for _ in range(2)]
    try:
        first, second = (context.new_page() for context in phones)
        for page in (first, second):
            page.set_default_timeout(10_000)
        first.goto(address)
        expect(first.locator(".notice")).to_contain_text("A second player at this table confirms")
        fill(first, 1, "solo", "Bob", None, 7)
        first.get_by_role("button", name="Save hand 1").click()
        expect(first.locator("#hand-1")).to_contain_text("Unconfirmed")
        assert Hand.objects.get().awaiting_confirmation

        second.goto(address)
        row = second.locator("#hand-1")
        expect(row).to_contain_text("Unconfirmed")
        row.get_by_role("link", name="Confirm hand 1").click()
        expect(second.locator("#entry-title")).to_have_text("Confirm hand 1")
        axe(second)
        second.get_by_label("Who confirms?").select_option(label="Dan")
        second.get_by_role("button", name="Confirm hand 1").click()
        expect(second.locator("#entry")).to_contain_text("Hand 1 confirmed by Dan")
        expect(second.locator("#hand-1")).not_to_contain_text("Unconfirmed")
        assert not Hand.objects.get().awaiting_confirmation
        assert AuditEvent.objects.get(action="confirm").after["confirmed_by"] == "Dan"
    finally:
        for context in phones:
            context.close()
