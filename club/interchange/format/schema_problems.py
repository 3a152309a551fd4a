"""jsonschema's errors said as a secretary reads them: where (the record, named as every problem
of the import names it: "night 2026-11-20, table 1, hand 2", "player 'Ann Baxter'", "row 7
(...)" for a paper sheet) and what ("'tricks' is 14: a hand has 13 tricks (0 to 13)").

`Places` names the records of a file by their path in it; the reader
(club.interchange.format.document)
names its own problems through it too, so a file's problems all say where in the same words.
`Structure` is what the schema found: the problems, and which values the reader must leave alone
(a refused value is reported once, by the schema, never read).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from club.interchange.format.schema_compiled import canonical
from club.lib.names import normalise_name

Path = tuple[str | int, ...]

# The records of a file, by the shape of their path ("*" an index): everything below one is a
# field of it ('tricks', 'amounts' for Ann, 'rules.stakes.solo.base'...).
RECORDS = frozenset(
    {
        (),
        ("club",),
        ("club", "grading"),
        ("players", "*"),
        ("rule_sets", "*"),
        ("seasons", "*"),
        ("nights", "*"),
        ("nights", "*", "tables", "*"),
        ("nights", "*", "tables", "*", "hands", "*"),
        ("nights", "*", "tournament"),
        ("nights", "*", "tournament", "entries", "*"),
        ("nights", "*", "publications", "*"),
        ("nights", "*", "publications", "*", "deliveries", "*"),
        ("nights", "*", "debts", "*"),
        ("nights", "*", "settlements", "*"),
        ("accounts", "*"),
        ("invitations", "*"),
        ("nettings", "*"),
        ("arrivals", "*"),
        ("table_cards", "*"),
        ("audit", "*"),
        ("audit", "*", "night"),
    }
)
# Records named by a key of theirs when it is good ("player 'Ann Baxter'"), else by number.
NAMED = {
    "players": ("player", "name"),
    "rule_sets": ("rule set", "name"),
    "seasons": ("season", "name"),
    "accounts": ("account", "username"),
}
NUMBERED = {
    "invitations": "invitation",
    "nettings": "netting",
    "arrivals": "arrival",
    "table_cards": "table card",
    "audit": "audit event",
}
NIGHT_PARTS = {
    "publications": "publication",
    "debts": "debt",
    "settlements": "settlement",
    "entries": "entry",
    "deliveries": "delivery",
}
# The order a file is read in, which is the order its problems are listed in.
ORDER = {
    key: rank
    for rank, key in enumerate(
        (
            "format",
            "version",
            "exported_at",
            "kind",
            "accounts",
            "invitations",
            "club",
            "grading",
            "players",
            "rule_sets",
            "seasons",
            "nights",
            "tables",
            "hands",
            "tournament",
            "entries",
            "publications",
            "deliveries",
            "debts",
            "settlements",
            "nettings",
            "arrivals",
            "table_cards",
            "audit",
            "night",
        )
    )
}
KINDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list ([...])",
    "object": "an object ({...})",
    "null": "null",
}
# What a value that does not match a schema's pattern or format is not, by the pattern or format
# ({value}: the value as the file gives it).
PATTERNS = {
    r"^\d{4}-\d{2}-\d{2}$": "must be a date written YYYY-MM-DD, not {value}",
    r"^[-a-zA-Z0-9_]+$": "{value} may hold only letters, digits, - and _",
    r"^[\w.@+-]+$": "{value} is not a user name: it holds only letters, digits and @ . + - _",
    r"^[0-9a-f]{64}$": "must be the token's SHA-256, 64 hex digits",
    r"^\s*([^@\s]+@[^@\s]+)?\s*$": "{value} is not an email address",
    r"\S": "cannot be empty",
}
FORMATS = {
    "date": PATTERNS[r"^\d{4}-\d{2}-\d{2}$"],
    "date-time": "must be a moment written 2026-11-20T21:40:00Z (with its offset), not {value}",
}
# Rule-set options version 1 does not have (a version-1 file giving them is refused so).
RULES_KEYS_V2 = ("stake_unit", "redeal_by", "record_turned_suit", "abundance_in_turned_suit")


def shown(value: Any) -> str:
    """A value from the file as a problem quotes it: JSON, cut short, never an exception."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def keys(names: Any) -> str:
    return ", ".join(f"'{k}'" for k in names)


def storable(value: str) -> bool:
    """Text a database stores: no NUL, no half of a surrogate pair ("\\ud800")."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def night_label(date: Any, title: str) -> str:
    label = f"night {date}"
    return f'{label} "{title}"' if title else label


def order(path: Path) -> tuple[tuple[int, int, str], ...]:
    """Where a record comes in the file's reading order (players before nights, a night's
    tables before its money owed...), for sorting problems."""
    return tuple(
        (0, step, "") if isinstance(step, int) else (1, ORDER.get(step, len(ORDER)), step)
        for step in path
    )


def split(path: Path) -> tuple[Path, Path]:
    """The record a path is in, and the field within it."""
    shape = tuple("*" if isinstance(step, int) else step for step in path)
    for end in range(len(path), -1, -1):
        if shape[:end] in RECORDS:
            return path[:end], path[end:]
    return (), path


class Places:
    """The names of a file's records, as its problems say where they are. A record is named by
    its own keys where they are good (a night by its date and title, a table by its round and
    number, a hand by its number), else by its place in its list; a paper sheet's record also by
    its row (`rows`: night, table or hand indexes to the sheet's row)."""

    def __init__(
        self, document: Any, tainted: set[Path], rows: Mapping[tuple[int, ...], int]
    ) -> None:
        self.document = document
        self.tainted = tainted
        self.rows = rows
        self.labels: dict[Path, str] = {}
        self.nights: dict[int, str] = {}
        self.tables: dict[tuple[int, int], str] = {}

    def value(self, path: Path) -> Any:
        """The good value at `path` (None when missing or refused by the schema)."""
        if path in self.tainted:
            return None
        value = self.document
        for step in path:
            if isinstance(step, int):
                value = value[step] if isinstance(value, list) and step < len(value) else None
            else:
                value = value.get(step) if isinstance(value, dict) else None
        return value

    def text(self, path: Path) -> str:
        value = self.value(path)
        if not isinstance(value, str) or not storable(value):
            return ""
        return value.strip()

    def label(self, path: Path) -> str:
        found = self.labels.get(path)
        if found is None:
            found = self.labels[path] = self._label(path)
        return found

    def at_row(self, label: str, index: tuple[int, ...]) -> str:
        row = self.rows.get(index)
        return f"row {row} ({label})" if row is not None else label

    def night(self, n: int) -> str:
        """A night's name, without the paper sheet's row."""
        found = self.nights.get(n)
        if found is None:
            found = self.nights[n] = self._night(n)
        return found

    def _night(self, n: int) -> str:
        date = self.value(("nights", n, "date"))
        if not isinstance(date, str):
            return f"night {n + 1}"
        return night_label(date, self.text(("nights", n, "title")))

    def table(self, n: int, t: int) -> str:
        """A table's name, with its night's, without the paper sheet's row."""
        found = self.tables.get((n, t))
        if found is None:
            found = self.tables[n, t] = self._table(n, t)
        return found

    def _table(self, n: int, t: int) -> str:
        at = ("nights", n, "tables", t)
        number = self.value((*at, "number"))
        if not isinstance(number, int):
            return f"{self.night(n)}, table {t + 1}"
        round_number = self.value((*at, "round"))
        if isinstance(round_number, int):
            return f"{self.night(n)}, round {round_number}, table {number}"
        return f"{self.night(n)}, table {number}"

    def _label(self, path: Path) -> str:
        if not path:
            return "file"
        head = path[0]
        if head == "club":
            return "club" if len(path) == 1 else "club, grading"
        index = path[1]
        assert isinstance(index, int)
        if head in NAMED:
            noun, key = NAMED[head]
            name = self.text((head, index, key))
            if head == "players":
                name = normalise_name(name)
            return f"{noun} {name!r}" if name else f"{noun} {index + 1}"
        if head in NUMBERED:
            label = f"{NUMBERED[head]} {index + 1}"
            return label if len(path) == 2 else f"{label}, night"
        if len(path) == 2:
            return self.at_row(self.night(index), (index,))
        if path[2] == "tables":
            table = path[3]
            assert isinstance(table, int)
            if len(path) == 4:
                return self.at_row(self.table(index, table), (index, table))
            hand = path[5]
            assert isinstance(hand, int)
            number = self.value((*path, "number"))
            shown_number = number if isinstance(number, int) else hand + 1
            label = f"{self.table(index, table)}, hand {shown_number}"
            return self.at_row(label, (index, table, hand))
        label = self.label(path[:2])
        if path[2] == "tournament":
            label += ", tournament"
            parts = path[3:]
        else:
            parts = path[2:]
        for part, number in zip(parts[::2], parts[1::2], strict=True):
            assert isinstance(number, int)
            label += f", {NIGHT_PARTS[str(part)]} {number + 1}"
        return label


@dataclass
class Structure:
    """What the schema found in a file."""

    problems: list[tuple[Path, str]] = field(default_factory=list)  # (record, message)
    refused: set[Path] = field(default_factory=set)  # values the schema refused
    tainted: set[Path] = field(default_factory=set)  # those and every value holding one


def structure(errors: list[jsonschema.ValidationError], version: int) -> Structure:
    found = Structure()
    said: set[tuple[Path, str]] = set()
    listed: set[tuple[Path, str]] = set()
    for error in errors:
        path = tuple(error.absolute_path)
        record, within = split(path)
        kind = str(error.validator)
        if kind in ("required", "additionalProperties", "not", "anyOf") and (path, kind) in said:
            continue  # one error a missing key: every missing key is said at the first
        said.add((path, kind))
        for message in messages(error, within, version):
            if (record, message) not in listed:  # a date's pattern and its format say one thing
                listed.add((record, message))
                found.problems.append((record, message))
        found.refused.update(refused(error, path))
    for path in found.refused:
        found.tainted.update(path[:end] for end in range(len(path) + 1))
    return found


def refused(error: jsonschema.ValidationError, path: Path) -> list[Path]:
    """The values the reader must leave alone for this error: the value itself, or the keys a
    missing key, an unknown key or a forbidden pair of keys names (not the whole record, whose
    other keys are read)."""
    instance: Any = error.instance
    arg: Any = error.validator_value
    if error.validator == "required" and isinstance(instance, dict):
        return [(*path, key) for key in arg if key not in instance]
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return [(*path, key) for key in instance if key not in known]
    if error.validator == "not" and isinstance(arg, dict):
        return [(*path, key) for key in arg.get("required", ())]
    if error.validator == "anyOf" and not split(path)[1]:
        return []  # a record giving neither of two keys: its other keys are read
    return [path]


def field_name(within: Path) -> str:
    """A field as a problem names it: 'tricks', 'rules.stakes.solo.base', 'seats' item 2,
    'amounts' for Ann Baxter."""
    if len(within) == 2 and within[0] == "amounts":
        return f"'amounts' for {within[1]}"
    last = within[-1] if len(within) > 1 and isinstance(within[-1], int) else None
    text = str(within[0])
    for step in within[1 : len(within) - (last is not None)]:
        text += f"[{step}]" if isinstance(step, int) else f".{step}"
    return f"'{text}'" if last is None else f"'{text}' item {last + 1}"


def messages(error: jsonschema.ValidationError, within: Path, version: int) -> list[str]:
    """What is wrong, in words; `within` is the field's path in its record (empty: the record)."""
    kind = error.validator
    arg: Any = error.validator_value
    value: Any = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    name = field_name(within) if within else ""
    if kind == "required" and isinstance(value, dict):
        missing = [key for key in arg if key not in value]
        if name:
            return [f"{name} is missing the key '{key}'" for key in missing]
        return [f"the key '{key}' is missing" for key in missing]
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = list(schema.get("properties", {}))
        unknown = [key for key in value if key not in allowed]
        noun = "key" if len(unknown) == 1 else "keys"
        if within == ("rules",) and version == 1 and set(unknown) <= set(RULES_KEYS_V2):
            return [
                f"'rules' holds {keys(unknown)}, which version 1 does not have: write the file "
                "as version 2"
            ]
        if name:
            return [f"{name} has the unknown {noun} {keys(unknown)} (it has {keys(allowed)})"]
        return [f"unknown {noun} {keys(unknown)} (version {version} has {keys(allowed)})"]
    if kind == "anyOf" and not name and isinstance(value, dict):
        options = [key for part in arg for key in part.get("required", ())]
        if any(value.get(key) is not None for key in options):
            return []  # one is given, of the wrong kind: its own problem says so
        return [f"give either {' or '.join(repr(k) for k in options)}"]
    if kind == "not" and not name and "revokes" in arg.get("required", ()):
        return ["give 'revoke_by' (one revoke) or 'revokes' (every one), not both"]
    if kind == "type":
        allowed = [arg] if isinstance(arg, str) else list(arg)
        kinds = " or ".join(KINDS.get(a, a) for a in allowed)
        if not name:
            return [f"must be {kinds}"]
        if schema.get("format") in FORMATS:  # a date or a moment, as its format says
            return [f"{name} {FORMATS[schema['format']].replace('{value}', shown(value))}"]
        return [f"{name} must be {kinds}, not {shown(value)}"]
    return [f"{name or 'it'} {value_message(error, within)}"]


def value_message(error: jsonschema.ValidationError, within: Path) -> str:
    """What is wrong with a value (after its name): "is 14: it must be from 1 to 13"."""
    kind = error.validator
    arg: Any = error.validator_value
    value: Any = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    key = next((step for step in reversed(within) if isinstance(step, str)), "")
    if kind in ("enum", "const"):
        options = list(arg) if kind == "enum" else [arg]
        choices = keys(o for o in options if o is not None and o != "")
        if None in options:  # ("" beside null is left out too, as it always was)
            choices += " or null"
        return f"{shown(value)} is not one of {choices}"
    if kind in ("minimum", "maximum"):
        if key == "tricks":
            return f"is {value}: a hand has 13 tricks (0 to 13)"
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"is {value}: it must be from {low} to {high}"
        bound = f"{low} or more" if high is None else f"at most {high}"
        return f"is {value}: it must be {bound}"
    if kind == "minLength":
        return "cannot be empty" if arg == 1 else f"is shorter than {arg} characters"
    if kind == "maxLength":
        return f"is longer than {arg} characters"
    if kind == "pattern":
        said = PATTERNS.get(str(arg), "{value} does not match the pattern " + str(arg))
        return said.replace("{value}", shown(value))
    if kind == "format":
        said = FORMATS.get(str(arg), "{value} is not a " + str(arg))
        return said.replace("{value}", shown(value))
    if kind in ("minItems", "maxItems"):
        if key == "seats":
            return "must list the 3, 4 or 5 players in clockwise order"
        bound = "at least" if kind == "minItems" else "at most"
        return f"lists {len(value)}: it may list {bound} {arg}"
    if kind == "uniqueItems" and isinstance(value, list):
        seen: set[Any] = set()
        for item in value:
            if canonical(item) in seen:
                return f"names {shown(item)} twice"
            seen.add(canonical(item))
    return f"is refused: {error.message}"
