"""Money owed in a real browser at phone size: after the night is closed, the
secretary marks one payment part-paid and then paid in full from the night page on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.money.models import Debt, Settlement
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.nights import close_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_marks_payments_paid_on_a_phone_sized_night_page(
    page, live_server, secretary, night, table4, players
):
    ann, bob = players[:2]
    entry = HandEntry(dealer=next_hand(table4)["dealer"], contract="solo", declarer=bob, tricks=5)
    record_hand(table4, entry, secretary)  # Bob +18p: Ann, Cat and Dan each owe him 6p
    close_night(night, secretary)

    page.set_viewport_size(PHONE)
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sec")
    page.fill("#id_password", "pw-sec")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/c/crown/nights/{night.pk}/#owed")

    owed = page.locator("#owed")
    expect(owed).to_contain_text("Money owed from this night")
    debt = Debt.objects.get(night=night, payer=ann)
    row = owed.locator(f'[data-debt="{debt.pk}"]')
    expect(row).to_contain_text("Ann pays Bob £0.06")
    expect(row).to_contain_text("Not paid yet.")
    # The form fits the phone: nothing sticks out past the screen's edge.
    box = row.locator("button").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]

    row.locator("input[name=amount]").fill("0.04")
    row.locator("button", has_text="Mark paid").click()
    expect(page.locator(".messages")).to_contain_text("Ann paid Bob £0.04; £0.02 still owed.")
    row = page.locator(f'#owed [data-debt="{debt.pk}"]')
    expect(row).to_contain_text("£0.04 paid, £0.02 still owed.")

    # More than is owed is refused with the reason, and nothing is written.
    row.locator("input[name=amount]").fill("0.05")
    row.locator("button", has_text="Mark paid").click()
    expect(page.locator(".messages")).to_contain_text("only £0.02: £0.05 is more than is owed")

    # Empty: the rest.
    row = page.locator(f'#owed [data-debt="{debt.pk}"]')
    row.locator("button", has_text="Mark paid").click()
    expect(page.locator(".messages")).to_contain_text("Ann paid Bob £0.02.")
    row = page.locator(f'#owed [data-debt="{debt.pk}"]')
    expect(row).to_contain_text("Settled")
    expect(row.locator("button")).to_have_count(0)
    assert list(
        Settlement.objects.filter(debt=debt).order_by("id").values_list("amount", "kind")
    ) == [(4, "paid"), (2, "paid")]


def test_marks_payments_paid_from_a_phone_sized_table_link(
    browser, live_server, secretary, night, table4, players, axe
):
    """No login: the phone at table 1 opens the table's link after the night is closed, and Bob,
    who is owed, marks Cat's payment part-paid and then paid."""
    from club.play.services import table_links as link_service

    ann, bob, cat = players[:3]
    entry = HandEntry(dealer=next_hand(table4)["dealer"], contract="solo", declarer=bob, tricks=5)
    record_hand(table4, entry, secretary)
    link = link_service.night_links(night, secretary)[table4.pk]
    close_night(night, secretary)
    debt = Debt.objects.get(night=night, payer=cat)

    # The table link page's Content Security Policy would refuse axe-core's injected script.
    context = browser.new_context(viewport=PHONE, bypass_csp=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/t/{link.token}/")
    owed = page.locator("#owed")
    expect(owed).to_contain_text("Money owed to this table")
    row = owed.locator(f'[data-debt="{debt.pk}"]')
    expect(row).to_contain_text("Cat pays Bob £0.06")
    axe(page)
    box = row.locator("button").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    row.locator("input[name=amount]").fill("0.02")
    row.locator("button", has_text="Mark paid").click()
    expect(page.locator(".messages")).to_contain_text("Cat paid Bob £0.02; £0.04 still owed.")
    row = page.locator(f'#owed [data-debt="{debt.pk}"]')
    expect(row).to_contain_text("£0.02 paid, £0.04 still owed.")
    row.locator("button", has_text="Mark paid").click()
    expect(page.locator(".messages")).to_contain_text("Cat paid Bob £0.04.")
    expect(page.locator(f'#owed [data-debt="{debt.pk}"]')).to_contain_text("Settled")
    assert list(
        Settlement.objects.filter(debt=debt).order_by("id").values_list("amount", "by", "via")
    ) == [(2, None, "Table 1's link"), (4, None, "Table 1's link")]
    context.close()
