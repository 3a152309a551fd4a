"""The secretary imports a club data file in the browser: upload, preview, confirm; then downloads
the club's export and the night's, on a phone-sized screen."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from club.money.models import Debt
from club.play.models import Hand, Night
from tests.interchange.test_bad_input import sample

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_import_preview_confirm_and_export(logged_in, live_server, club, tmp_path):
    page = logged_in
    page.set_viewport_size({"width": 390, "height": 844})
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(sample()))
    page.goto(f"{live_server.url}/c/crown/setup/")
    page.get_by_role("link", name="Import").click()
    page.set_input_files("#id_file", str(path))
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("h2#preview-title")).to_have_text("Preview: winter.json")
    expect(page.locator("dl.pairs")).to_contain_text("Winter 2026")
    assert not Hand.objects.exists()  # nothing written before the confirmation
    # The closed night comes without money owed: carrying its settle-up is offered, ticked.
    carry = page.get_by_label("Carry each closed night's settle-up as money owed")
    expect(carry).to_be_checked()
    page.get_by_role("button", name="Import 5 hands").click()
    expect(page.locator("body")).to_contain_text(
        "Imported winter.json: 2 nights, 2 tables, 5 hands; 5 players added."
    )
    assert Hand.objects.filter(table__night__season__club=club).count() == 5
    payments = Debt.objects.filter(club=club).count()
    assert payments > 0
    expect(page.locator("body")).to_contain_text(
        f"1 closed night's settle-up was carried as money owed: {payments} payment"
    )

    with page.expect_download() as download:
        page.get_by_role("link", name="Export club data").click()
    exported = json.loads(download.value.path().read_text())
    assert len(exported["nights"]) == 2

    night = Night.objects.get(date="2026-11-20")
    page.goto(f"{live_server.url}/c/crown/nights/{night.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export this night").click()
    assert [n["date"] for n in json.loads(download.value.path().read_text())["nights"]] == [
        "2026-11-20"
    ]


def test_a_bad_file_shows_every_problem(logged_in, live_server, club, tmp_path):
    page = logged_in
    document = sample()
    document["nights"][0]["tables"][0]["hands"][1]["tricks"] = 14
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    page.goto(f"{live_server.url}/c/crown/setup/import/")
    page.set_input_files("#id_file", str(path))
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("[role=alert]")).to_contain_text(
        "night 2026-11-20, table 1, hand 2: 'tricks' is 14: a hand has 13 tricks (0 to 13)"
    )
    assert not Night.objects.exists()
