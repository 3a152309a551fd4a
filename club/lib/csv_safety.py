"""Every CSV the app writes goes through here, so that no cell becomes a live spreadsheet formula.

A text cell starting with =, +, -, @, a tab or a carriage return is read by Excel, LibreOffice and
Google Sheets as a formula (`=HYPERLINK("http://evil","x")`, `@SUM(...)`, `-2+3+cmd|...`): such a
cell gets a leading apostrophe, which the spreadsheet shows as text and does not display.
Numbers stay numbers: an int, or a text that is wholly a number ("-12", "+3", "-£1.20",
"-0.0172"), is left as it is. A lone sign is not: a spreadsheet reads a bare "=" as a formula,
so it is written "'=" (the standings CSV says "same" for no change, and needs no such guard).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# A signed amount as the app writes it: "-12", "+3", "-£1.20", "+$0.0172", "-1,234 pts", "+1.7p".
NUMBER = re.compile(r"[+-]?[£$€¥]?\d[\d,]*(\.\d+)?( ?(pts?|points|[p¢c]))?")


class Writer(Protocol):
    def write(self, s: str, /) -> Any: ...


def safe_cell(value: Any) -> Any:
    """The value to write: numbers as they are, formula-like text with a leading apostrophe."""
    if value is None or isinstance(value, int | float):
        return value
    text = str(value)
    if text.startswith(TRIGGERS) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


def read_cell(text: str) -> str:
    """A cell read back from a CSV: the apostrophe safe_cell put before a formula-like text is
    dropped (a spreadsheet drops it when it saves; a text editor keeps it)."""
    if text.startswith("'") and text[1:].startswith(TRIGGERS):
        return text[1:]
    return text


def safe_row(row: Iterable[Any]) -> list[Any]:
    return [safe_cell(v) for v in row]


class SafeWriter:
    """csv.writer with every cell made safe."""

    def __init__(self, out: Writer, **kwargs: Any) -> None:
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow(safe_row(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: Writer, **kwargs: Any) -> SafeWriter:
    """`csv_safety.writer(response)` in place of `csv.writer(response)`."""
    return SafeWriter(out, **kwargs)
