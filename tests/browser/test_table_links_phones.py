"""Two phones score their own tables through the tables' links at once, with no login, in
headless Chromium on a phone-sized viewport; the stored figures are checked against the scoring
core, and the live board follows the night as the hands come in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

import scoring
from club.models import AuditEvent, Hand, ScoreLine
from club.services import table_links as link_service

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
    form = page.locator("#hand-form")
    expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
    form.locator("#id_contract").select_option(contract)
    form.locator("#id_declarer").select_option(label=declarer)
    if partner:
        form.locator("#id_partner").select_option(label=partner)
    form.locator("#id_tricks").fill(str(tricks))
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
    browser, logged_in, live_server, night, secretary, players, monkeypatch
):
    from club.views import live

    monkeypatch.setattr(live, "POLL_SECONDS", 1)
    links = link_service.night_links(night, secretary)
    tables = {t.number: t for t in night.tables.all()}
    # The secretary watches the live board.
    board = logged_in
    board.goto(f"{live_server.url}/c/crown/nights/{night.pk}/live/")
    expect(board.locator("#live-hands")).to_have_text("0")

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

        # The live board caught up by itself, with the night's nets as the core has them.
        expect(board.locator("#live-hands")).to_have_text("6")
        nets = expected(seats1, TABLE1) | expected(seats2, TABLE2)
        for payer, payee, amount in scoring.settle_up(nets):
            expect(board.locator("#settle-up")).to_contain_text(
                f"{payer} pays {payee} {pounds(amount).lstrip('+')}"
            )
    finally:
        for context in phones:
            context.close()
