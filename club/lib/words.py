"""Counts in words, as people write them: "1 table", "2 tables", "1 hand"."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 table", "2 tables", "0 hands"; `plural` for a noun that is not made with an s."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def listed(items: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cat": a list as a sentence writes it."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
