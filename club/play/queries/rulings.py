"""A hand's rulings in words, as the sheet, the printed sheets and the results emails write them:
"Revokes: Ann and Cat", "Cat exposed a card: the misère is claimed"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import scoring


def _listed(names: Sequence[str]) -> str:
    counts = Counter(names)
    words = [name if counts[name] == 1 else f"{name} (twice)" for name in dict.fromkeys(names)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def rulings_text(
    revokes: Sequence[str],
    penalty: str = "",
    penalty_by: str | None = None,
    wrong_cards: Sequence[str] = (),
) -> str:
    """ "Revoke: Ann", "Revokes: Ann and Cat", "Bob exposed a card: the stakes are claimed",
    "Wrong number of cards: Bob"."""
    parts = []
    if revokes:
        parts.append(f"{'Revokes' if len(revokes) > 1 else 'Revoke'}: {_listed(revokes)}")
    if penalty and penalty_by:
        done = scoring.Penalty(penalty).display_name
        parts.append(f"{penalty_by} {done}: the stakes are claimed")
    if wrong_cards:
        parts.append(f"Wrong number of cards: {_listed(wrong_cards)}")
    return "; ".join(parts)
