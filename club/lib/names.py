"""People's names as typed at the venue, made safe to compare.

A name is stored normalised: Unicode NFC (so "Zoë" typed with a combining diaeresis is the same
four letters as the precomposed one), without invisible characters (zero-width spaces and joiners,
the byte-order mark, soft hyphens) or bidirectional controls (right-to-left overrides and
isolates, which can make one name display as another), and with runs of any kind of space made
one plain space. Two names are the same player's when their keys are equal: the normalised name
case-folded ("ANN BAXTER", "Ann Baxter" and "Ann\u200b Baxter" share one key).
"""

from __future__ import annotations

import functools
import unicodedata

# Format characters (category Cf) are the invisible ones: zero-width space, joiners, word joiner,
# the bidi marks, embeddings, overrides and isolates, soft hyphen, BOM. Control characters (Cc)
# never belong in a name either.
_DROPPED = {"Cf", "Cc"}


def normalise_name(name: str) -> str:
    """The name as stored: NFC, no invisible or bidi control characters, single spaces."""
    name = unicodedata.normalize("NFC", name or "")
    kept = []
    for char in name:
        category = unicodedata.category(char)
        if char in "\t\n\r" or category.startswith("Z"):
            kept.append(" ")  # any space, tab or line break separates words
        elif category not in _DROPPED:
            kept.append(char)
    return " ".join("".join(kept).split())


@functools.lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """What two names must share to be the same player's: normalised, then case-folded.
    Remembered: an import asks for the same few hundred names a hundred thousand times."""
    return unicodedata.normalize("NFC", normalise_name(name).casefold())


SHORT = 12  # characters of a first name kept in a short name


def short_names(names: list[str]) -> list[str]:
    """Names a reader can tell apart in a narrow column ("Bob M." and "Bob W.", not "Bob Morti..."),
    in the same order: the first name where it is the only one at the table, else the first name
    and as much of the last as tells them apart ("Ann Ba." and "Ann Be."), else the whole name. A
    first name longer than SHORT is cut. The full names stay in each column's title."""

    def split(name: str) -> tuple[str, str]:
        words = name.split()
        given = words[0] if words else name
        if len(given) > SHORT:
            given = given[: SHORT - 1] + "…"
        return given, " ".join(words[1:])

    parts = [split(n) for n in names]
    shorts = []
    for name, (given, last) in zip(names, parts, strict=True):
        rivals = [other_last for other_given, other_last in parts if other_given == given]
        if len(rivals) == 1:
            shorts.append(given)
            continue
        for k in range(1, len(last) + 1):
            if sum(other[:k] == last[:k] for other in rivals) == 1:
                shorts.append(f"{given} {last[:k]}.")
                break
        else:
            shorts.append(name)
    return shorts
