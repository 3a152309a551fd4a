"""Counts in words, as people write them: "1 table", "2 tables", "1 hand"."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 table", "2 tables", "0 hands"; `plural` for a noun that is not made with an s."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"
