"""Row ids read from a form as the database can hold them. A value no page sends (digits other
than 0-9, such as "²", which str.isdigit() accepts and int() refuses; a number beyond a 64-bit
key, which SQLite refuses to bind; thousands of digits, which int() refuses to read) is no id at
all: it matches no row, instead of a 500."""

from __future__ import annotations

from collections.abc import Iterable

MAX_ID = 2**63 - 1  # the largest BigAutoField key


def posted_id(value: str | None) -> int | None:
    """The id a form field names, or None when it cannot name a row."""
    if not value or len(value) > len(str(MAX_ID)) or not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if 1 <= number <= MAX_ID else None


def posted_ids(values: Iterable[str]) -> list[int]:
    """The ids among the values, in order, leaving out any that cannot name a row."""
    return [pk for pk in map(posted_id, values) if pk is not None]
