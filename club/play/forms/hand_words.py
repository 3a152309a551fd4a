"""A hand in words, for the preview and the messages after a save: "Solo ♥ by Bob", "Made, 1
over; revoke by Cat"."""

from __future__ import annotations

import scoring
from club.play.queries.rulings import rulings_text
from club.play.services.hand_entry import HandEntry, ScoredHand

ALL_PASSED_LABELS = {
    scoring.AllPassed.REDEAL: "All passed: redeal",
    scoring.AllPassed.GOULASH: "All passed: goulash",
    scoring.AllPassed.GENERAL_MISERE: "All passed: general misère",
}


def describe_entry(entry: HandEntry, rules: scoring.RuleSet) -> str:
    """ "Solo ♥ by Bob", "Prop & Cop by Bob & Cat", "All passed"."""
    if entry.contract == scoring.ALL_PASSED:
        return ALL_PASSED_LABELS[rules.all_passed].split(":")[0]
    if entry.contract == scoring.MISDEAL:
        return "Cards wrongly dealt"
    text = scoring.Contract(entry.contract).display_name
    if entry.trump:
        text += f" {scoring.Trump(entry.trump).symbol}"
    names = [p.name for p in (entry.declarer, entry.partner) if p is not None]
    return f"{text} by {' & '.join(names)}"


def result_words(entry: HandEntry, scored: ScoredHand) -> str:
    """ "Made, 1 over", "Failed, 2 under; revoke by Cat"."""
    text = scored.result.summary
    if entry.last_trick_by is not None:
        text += f": {entry.last_trick_by.name} took the last trick"
    words = rulings_text(
        [p.name for p in entry.all_revokes],
        entry.penalty,
        entry.penalty_by.name if entry.penalty_by else None,
        [p.name for p in entry.wrong_cards],
    )
    return f"{text}; {words}" if words else text


def outcome_text(entry: HandEntry, scored: ScoredHand, rules: scoring.RuleSet) -> str:
    """ "Solo by Cat, Failed, 2 under", or "All passed: redeal"."""
    if entry.contract == scoring.ALL_PASSED:
        return result_words(entry, scored)
    return f"{describe_entry(entry, rules)}, {result_words(entry, scored)}"
