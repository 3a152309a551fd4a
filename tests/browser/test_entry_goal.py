"""The entry goals, measured in Chromium over twenty hands of a realistic night's mix (solos
most, then Prop & Cop, misères, an abundance, an open misère, two all passed) at a table of four.

The keyboard: nothing but key presses, the first letters of the contract and of each player (the
buttons' type-ahead), Tab, the tricks' digits ("made" or "failed" for a misère) and Enter. Every
press is counted; after every press the table's totals are checked to be inside the screen, at a
laptop's, a tablet's and a phone's size; each hand is checked on the sheet and the final totals
against the scoring core. Goal: 10 or fewer a hand (it was 6.4 with the selects).

A phone (390 px): the same hands tapped, every tap counted as it is made (a button each, "Other
tricks" when the number is not among those offered, Save). Goal: 4 or fewer a hand (it was 7.3
with the selects). The averages are printed; docs/performance.md quotes them."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from entry_kit import fill_hand, save
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import scoring
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOYLE = scoring.preset("hoyle")
SEATS = ["Ann", "Bob", "Cat", "Dan"]
SIZES = {
    "laptop": {"width": 1280, "height": 800},
    "tablet": {"width": 820, "height": 1180},
    "phone": {"width": 390, "height": 844},
}
# (contract, declarer, partner, tricks, trump): a night's mix, in the order played.
MIX = [
    ("solo", "Bob", None, 5, None),
    ("prop_cop", "Cat", "Dan", 8, None),
    ("solo", "Ann", None, 4, None),
    ("misere", "Dan", None, 0, None),
    ("solo", "Cat", None, 6, None),
    ("all_passed", None, None, None, None),
    ("prop_cop", "Ann", "Bob", 9, None),
    ("solo", "Dan", None, 5, None),
    ("abundance", "Bob", None, 10, "hearts"),
    ("solo", "Ann", None, 7, None),
    ("prop_cop", "Bob", "Dan", 7, None),
    ("misere", "Cat", None, 1, None),
    ("solo", "Bob", None, 5, None),
    ("prop_cop", "Dan", "Cat", 11, None),
    ("open_misere", "Ann", None, 0, None),
    ("solo", "Cat", None, 3, None),
    ("all_passed", None, None, None, None),
    ("prop_cop", "Cat", "Ann", 8, None),
    ("misere", "Bob", None, 0, None),
    ("solo", "Dan", None, 6, None),
]
# What a scorer types in the contract select: its first letters.
CONTRACT_KEYS = {
    "solo": "s",
    "prop_cop": "p",
    "misere": "m",
    "abundance": "a",
    "open_misere": "o",
    "all_passed": "al",
}
PRE_ENTERED = 6  # the sheet already has hands, so that it is as tall as on a real night


def keys_for(contract, declarer, partner, tricks, trump) -> list[str]:
    keys = list(CONTRACT_KEYS[contract])
    if contract == "all_passed":
        return [*keys, "Enter"]
    if trump:
        keys += ["Tab", trump[0]]
    keys += ["Tab", declarer[0].lower()]
    if partner:
        keys += ["Tab", partner[0].lower()]
    if contract in ("misere", "open_misere"):
        # "Made" is chosen already for a new misère: Enter saves; "failed" is Tab and f.
        return [*keys, "Enter"] if tricks == 0 else [*keys, "Tab", "f", "Enter"]
    return [*keys, "Tab", *str(tricks), "Enter"]


def score(hands: list[tuple], first_number: int, totals: dict[str, int]) -> None:
    for number, (contract, declarer, partner, tricks, _trump) in enumerate(
        hands, start=first_number
    ):
        dealer = scoring.table.dealer_for(SEATS, 0, number)
        playing = scoring.table.players_in_hand(SEATS, dealer, HOYLE)
        if contract == "all_passed":
            hand = scoring.Hand(players=playing, contract=scoring.ALL_PASSED)
        else:
            hand = scoring.Hand(
                players=playing,
                contract=contract,
                declarer=declarer,
                partner=partner,
                tricks=tricks,
            )
        for player, amount in scoring.score_hand(hand, HOYLE).amounts.items():
            totals[player] += amount


def totals_in_view(page: Page) -> None:
    """The totals are inside the screen: the sheet's totals row on a wide screen, the bar beside
    Save on a tablet or a phone. Checked once the page has settled after a key (a save's answer
    may still be arriving on a busy machine), and failing if they stay out of view."""
    size = page.viewport_size
    selector = "#sheet-totals td[data-name]" if size["width"] >= 1024 else "#bar-totals dd"
    assert page.locator(selector).count() == len(SEATS), "the totals are on the page"
    try:
        page.wait_for_function(
            """([selector, height]) => [...document.querySelectorAll(selector)].every(td => {
                   const b = td.getBoundingClientRect();
                   return b.top >= -0.5 && b.bottom <= height + 0.5; })""",
            arg=[selector, size["height"]],
            timeout=3000,
        )
    except PlaywrightTimeout:
        boxes = page.evaluate(
            f"""() => [...document.querySelectorAll('{selector}')].map(td => {{
                    const b = td.getBoundingClientRect(); return [b.top, b.bottom]; }})"""
        )
        raise AssertionError(f"the totals stay out of view: {boxes}") from None


def pounds(pence: int) -> str:
    sign = "-" if pence < 0 else ("+" if pence > 0 else "")
    return f"{sign}£{abs(pence) // 100}.{abs(pence) % 100:02d}"


@pytest.mark.parametrize("size_name", list(SIZES))
def test_a_hand_takes_ten_keystrokes_or_fewer_with_the_totals_in_view(
    logged_in: Page, live_server, club, season, players, secretary, size_name
):
    by_name = {p.name: p for p in players}
    night = create_night(season, dt.date(2026, 11, 20), [([by_name[n] for n in SEATS], 0)])
    table = night.tables.get()
    before = MIX[:PRE_ENTERED]
    for number, (contract, declarer, partner, tricks, trump) in enumerate(before, start=1):
        dealer = by_name[scoring.table.dealer_for(SEATS, 0, number)]
        record_hand(
            table,
            HandEntry(
                dealer=dealer,
                contract=contract,
                declarer=by_name.get(declarer or ""),
                partner=by_name.get(partner or ""),
                tricks=tricks,
                trump=trump or "",
            ),
            secretary,
        )
    page = logged_in
    page.set_viewport_size(SIZES[size_name])
    page.goto(f"{live_server.url}/c/{club.slug}/tables/{table.pk}/")
    presses: list[int] = []
    for number, hand in enumerate(MIX, start=PRE_ENTERED + 1):
        expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
        expect(page.locator("#hand-form input[name=contract]").first).to_be_focused()
        keys = keys_for(*hand)
        for key in keys:
            page.keyboard.press(key)
            totals_in_view(page)
        presses.append(len(keys))
        row = page.locator(f"#hand-{number}")
        expect(row).to_be_visible()
        label = "All passed" if hand[0] == "all_passed" else hand[1]
        expect(row).to_contain_text(label)
        totals_in_view(page)
    totals = dict.fromkeys(SEATS, 0)
    score(MIX[:PRE_ENTERED], 1, totals)
    score(MIX, PRE_ENTERED + 1, totals)
    footer = page.locator("#sheet-totals")
    for name in SEATS:
        expect(footer.locator(f"td[data-name={name}]")).to_have_text(pounds(totals[name]))
    average = sum(presses) / len(presses)
    print(
        f"\n{size_name}: {len(MIX)} hands, {sum(presses)} keystrokes, {average:.2f} a hand "
        f"(most {max(presses)})"
    )
    assert average <= 10


def test_a_hand_takes_four_taps_or_fewer_on_a_phone(
    logged_in: Page, live_server, club, season, players, secretary
):
    by_name = {p.name: p for p in players}
    night = create_night(season, dt.date(2026, 11, 20), [([by_name[n] for n in SEATS], 0)])
    table = night.tables.get()
    page = logged_in
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{live_server.url}/c/{club.slug}/tables/{table.pk}/")
    taps: list[int] = []
    for number, (contract, declarer, partner, tricks, trump) in enumerate(MIX, start=1):
        expect(page.locator("#entry-title")).to_have_text(f"Hand {number}")
        count = fill_hand(page, contract, declarer, partner=partner, tricks=tricks, trump=trump)
        expect(page.locator("#preview")).to_contain_text(re.compile("Made|Failed|passed"))
        uncovered = page.locator("#save-hand").evaluate(
            """e => { const b = e.getBoundingClientRect();
                      const top = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
                      return b.bottom <= innerHeight && (top === e || e.contains(top)); }"""
        )
        assert uncovered, f"Save is off the screen or covered at hand {number}"
        count += save(page)
        expect(page.locator(f"#hand-{number}")).to_be_visible()
        taps.append(count)
    totals = dict.fromkeys(SEATS, 0)
    score(MIX, 1, totals)
    bar = page.locator("#bar-totals")
    for name in SEATS:
        expect(bar.locator("div", has=page.locator(f'dt[title="{name}"]'))).to_contain_text(
            pounds(totals[name])
        )
    average = sum(taps) / len(taps)
    print(f"\nphone: {len(MIX)} hands, {sum(taps)} taps, {average:.2f} a hand (most {max(taps)})")
    assert average <= 4
