"""A refused save's message beside Save ("Not saved: Contract: ...") on a phone (390 px) names
only what is still wrong: a problem goes as soon as its field is changed (or the contract hides
the field), the others stay, and the message goes with the last one; the hand then saves."""

from __future__ import annotations

import pytest
from entry_kit import tap
from playwright.sync_api import Page, expect

from club.play.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def open_sheet(page: Page, live_server, club, table) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/c/{club.slug}/tables/{table.pk}/")
    expect(page.locator("#save-hand")).to_be_visible()


def test_not_saved_choose_the_contract_goes_once_a_contract_is_chosen(
    logged_in: Page, live_server, club, table4, players
):
    page = logged_in
    open_sheet(page, live_server, club, table4)
    status = page.locator("#save-status")
    page.locator("#save-hand").click()
    expect(status).to_contain_text("Not saved: Contract:")
    expect(page.locator("#hand-form fieldset.field-contract")).to_have_class(
        "field chips field-contract has-error"
    )

    tap(page, "contract", "Solo")
    expect(status).not_to_contain_text("Not saved")
    expect(status.locator(".message")).to_have_count(0)
    expect(page.locator("#hand-form .has-error")).to_have_count(0)
    assert status.bounding_box() is None or status.is_hidden()  # nothing left on screen

    tap(page, "declarer", "Bob")
    tap(page, "tricks", "5")
    page.locator("#save-hand").click()
    expect(page.locator("#hand-1")).to_contain_text("Bob")
    assert Hand.objects.get(table=table4, number=1).contract == "solo"


def test_a_problem_of_another_field_stays_until_that_field_is_fixed(
    logged_in: Page, live_server, club, table4, players
):
    page = logged_in
    open_sheet(page, live_server, club, table4)
    status = page.locator("#save-status")
    tap(page, "contract", "Prop & Cop")
    tap(page, "declarer", "Ann")
    page.locator("#save-hand").click()
    expect(status).to_contain_text("Not saved: ")
    expect(status).to_contain_text("Partner: Prop & Cop needs a partner")
    expect(status).to_contain_text("Tricks won:")

    tap(page, "partner", "Cat")
    expect(status).not_to_contain_text("Partner:")
    expect(status).to_have_text(
        "Not saved: Tricks won: Enter the tricks the declaring side won (0 to 13)."
    )

    # A contract with no tricks to count hides the field: its problem goes too.
    tap(page, "contract", "All passed")
    expect(status.locator(".message")).to_have_count(0)
    tap(page, "contract", "Prop & Cop")
    tap(page, "partner", "Cat")
    tap(page, "tricks", "8")
    page.locator("#save-hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    assert Hand.objects.get(table=table4, number=1).contract == "prop_cop"
