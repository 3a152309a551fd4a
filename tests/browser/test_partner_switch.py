"""In the browser: the server refuses a partner sent with a solo, so the page must not
send the partner left over when the scorer picks Prop & Cop, chooses a partner, then changes the
contract to a solo."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_changing_prop_and_cop_to_a_solo_drops_the_hidden_partner(logged_in, live_server, table4):
    page = logged_in
    page.set_viewport_size({"width": 390, "height": 844})  # a phone at the table
    page.goto(f"{live_server.url}/c/crown/tables/{table4.pk}/")
    form = page.locator("#hand-form")
    form.locator("#id_contract").select_option("prop_cop")
    form.locator("#id_declarer").select_option(label="Bob")
    form.locator("#id_partner").select_option(label="Cat")
    form.locator("#id_contract").select_option("solo")
    expect(form.locator("#id_partner")).to_be_hidden()
    expect(form.locator("#id_partner")).to_be_disabled()
    form.locator("#id_tricks").fill("5")
    form.locator("#id_tricks").press("Enter")
    expect(page.locator("#hand-1")).to_be_visible()
    hand = Hand.objects.get(table=table4)
    assert (hand.contract, hand.partner_id) == ("solo", None)
    # And back: Prop & Cop shows the partner again, enabled.
    form.locator("#id_contract").select_option("prop_cop")
    expect(form.locator("#id_partner")).to_be_enabled()
