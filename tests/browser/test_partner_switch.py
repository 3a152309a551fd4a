"""In the browser: the server refuses a partner sent with a solo, so the page must not
send the partner left over when the scorer picks Prop & Cop, chooses a partner, then changes the
contract to a solo."""

from __future__ import annotations

import pytest
from entry_kit import save, tap
from playwright.sync_api import expect

from club.play.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_changing_prop_and_cop_to_a_solo_drops_the_hidden_partner(logged_in, live_server, table4):
    page = logged_in
    page.set_viewport_size({"width": 390, "height": 844})  # a phone at the table
    page.goto(f"{live_server.url}/c/crown/tables/{table4.pk}/")
    form = page.locator("#hand-form")
    partner = form.locator("fieldset.field-partner")
    tap(page, "contract", "Prop & Cop")
    tap(page, "declarer", "Bob")
    tap(page, "partner", "Cat")
    tap(page, "contract", "Solo")
    expect(partner).to_be_hidden()
    expect(partner.locator("input").first).to_be_disabled()
    tap(page, "tricks", "5")
    save(page)
    expect(page.locator("#hand-1")).to_be_visible()
    hand = Hand.objects.get(table=table4)
    assert (hand.contract, hand.partner_id) == ("solo", None)
    # And back: Prop & Cop shows the partner again, enabled.
    tap(page, "contract", "Prop & Cop")
    expect(partner.locator("input").first).to_be_enabled()
