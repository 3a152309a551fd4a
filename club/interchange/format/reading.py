"""What every part of the club data file's reader shares: its problems, each with where it is, and
the file's values as the schema left them.

The schema (club.interchange.format.schema) has checked the file's structure before the reader
runs: a
value it refused is reported once, by the schema, and the reader never sees it (`fields` leaves it
out, `records` skips a record that is not an object), so the reader reads only well-typed values
and checks what a schema cannot: names, references between records, numbering, sums, the rules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from club.interchange.format.schema import parse_moment
from club.interchange.format.schema_problems import Path, Places, Structure, storable


@dataclass(frozen=True)
class Problem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class ImportRefused(Exception):
    """The file cannot be imported; `problems` says every reason, each with where it is."""

    def __init__(self, problems: Iterable[Problem | str]) -> None:
        self.problems = [p if isinstance(p, Problem) else Problem("", p) for p in problems]
        super().__init__("\n".join(str(p) for p in self.problems))


class Reading:
    """The reader's means; club.interchange.format.document puts its parts together."""

    version: int
    places: Places
    structure: Structure
    # Every player of the file (and of the club it goes into), by club.lib.names.name_key.
    names: dict[str, str]

    def __init__(self, structure: Structure, places: Places) -> None:
        self.structure = structure
        self.places = places
        self.problems: list[tuple[Path, Problem]] = []

    def problem(self, record: Path, message: str, where: str | None = None) -> None:
        """A problem of the record at `record`, named as the file's places are (or `where`)."""
        label = self.places.label(record) if where is None else where
        self.problems.append((record, Problem(label, message)))

    def fields(self, path: Path, data: dict[str, Any]) -> dict[str, Any]:
        """The record's keys the schema found good (a refused value is left out: it is
        reported already, and is read as if it were not there)."""
        if path not in self.structure.tainted:
            return data
        return {k: v for k, v in data.items() if (*path, k) not in self.structure.tainted}

    def records(self, path: Path, data: dict[str, Any], key: str) -> list[tuple[Path, Any]]:
        """The records listed under `key` that are objects, each with its path (a record with
        a bad value is still read: its other values may hold other problems)."""
        at = (*path, key)
        value = data.get(key)
        if not isinstance(value, list) or at in self.structure.refused:
            return []
        refused = self.structure.refused
        return [
            ((*at, i), item)
            for i, item in enumerate(value)
            if isinstance(item, dict) and (*at, i) not in refused
        ]

    def record(self, path: Path, data: dict[str, Any], key: str) -> tuple[Path, Any] | None:
        """The one record under `key` (a night's tournament...), when it is an object."""
        at = (*path, key)
        value = data.get(key)
        if not isinstance(value, dict) or at in self.structure.refused:
            return None
        return at, value

    def text(self, path: Path, fields: dict[str, Any], key: str) -> str:
        """Text as stored: without the spaces around it; "" when missing, with a problem when
        it holds what no database stores (a NUL, half a surrogate pair)."""
        value = fields.get(key)
        if not isinstance(value, str):
            return ""
        if not storable(value):
            self.problem(path, f"'{key}' holds characters that are not text (a NUL or half a pair)")
            return ""
        return value.strip()

    @staticmethod
    def date(fields: dict[str, Any], key: str) -> dt.date | None:
        value = fields.get(key)
        return dt.date.fromisoformat(value) if isinstance(value, str) else None

    @staticmethod
    def moment(fields: dict[str, Any], key: str) -> dt.datetime | None:
        return parse_moment(fields.get(key))
