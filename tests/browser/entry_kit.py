"""Entering a hand on the table page as a person does: a tap on each large button (contract,
declarer, partner, tricks or made/failed, trumps), the rare things under "More", then Save.
Players are named as the page shows them (their full names are each button's title)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect


def chip(page: Page, field: str, label: str) -> Locator:
    """The button of `field` labelled `label` (a player's full or short name, a number...)."""
    group = page.locator(f"#hand-form fieldset.field-{field}")
    return group.locator(
        f'label.chip:visible:has(> span:text-is("{label}")), label.chip:visible[title="{label}"]'
    ).first


def tap(page: Page, field: str, label: str) -> int:
    """Tap a button of the form; returns the taps it took (two when the number was one of the
    "Other tricks", behind their own button)."""
    taps = 0
    target = chip(page, field, label)
    if field == "tricks" and target.count() == 0:
        page.locator("#hand-form [data-all-tricks]").click()
        taps += 1
        target = chip(page, field, label)
    target.click()
    return taps + 1


CONTRACT_LABELS = {
    "prop_cop": "Prop & Cop",
    "solo": "Solo",
    "misere": "Misère",
    "abundance": "Abundance",
    "royal_abundance": "Royal Abundance",
    "open_misere": "Open Misère",
    "abundance_declared": "Abundance Declared",
    "all_passed": "All passed",
}
MADE_OR_FAILED = {"misere": (0, 1), "open_misere": (0, 1), "abundance_declared": (13, 12)}
TRUMP_LABELS = {
    "hearts": "Hearts ♥",
    "clubs": "Clubs ♣",
    "diamonds": "Diamonds ♦",
    "spades": "Spades ♠",
    "no_trumps": "No trumps",
}


def fill_hand(
    page: Page,
    contract: str,
    declarer: str | None = None,
    *,
    partner: str | None = None,
    tricks: int | None = None,
    trump: str | None = None,
    revoke_by: str | None = None,
    last_trick_by: str | None = None,
) -> int:
    """Choose everything of a hand (not Save); returns the taps it took."""
    taps = tap(page, "contract", CONTRACT_LABELS[contract])
    if trump:
        taps += tap(page, "trump", TRUMP_LABELS[trump])
    if declarer:
        taps += tap(page, "declarer", declarer)
    if partner:
        taps += tap(page, "partner", partner)
    else:
        expect(page.locator("#hand-form fieldset.field-partner")).to_be_hidden()
    if last_trick_by:
        taps += tap(page, "last_trick_by", last_trick_by)
    if tricks is not None:
        if contract in MADE_OR_FAILED:
            made, failed = MADE_OR_FAILED[contract]
            label = "Made" if tricks == made else "Failed"
            radio = chip(page, "tricks", label).locator("input")
            if not radio.is_checked():  # "Made" is chosen already for a new hand
                taps += tap(page, "tricks", label)
        else:
            taps += tap(page, "tricks", str(tricks))
    if revoke_by:
        more(page)
        page.locator("#id_revoke_by").select_option(label=revoke_by)
    return taps


def more(page: Page) -> None:
    """Open "More" (revokes, a penalty, the dealer, notes) if it is closed."""
    details = page.locator("#hand-form details.more-fields")
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def save(page: Page) -> int:
    page.locator("#save-hand").click()
    return 1
