"""The club data file's JSON Schemas (schema-v1.json, -v2.json, -v3.json) as the import applies
them: the one definition of a file's structure (keys required and unknown, types, enums, ranges,
lengths, patterns, dates and moments). What a schema cannot say (names that must be seated,
references between records, sums, the rules of the game) is checked in Python afterwards.

Each version's validator is made once: jsonschema's validator for the draft the schema declares,
with this app's format checks (`date`, and `date-time` as the import reads a moment) and one
type rule beyond the draft's: a whole number is written without a decimal point (5, not 5.0).

A valid file (the usual case) is confirmed by `passes`, the same schema compiled once into plain
Python tests (club.interchange.format.schema_compiled): jsonschema's own walk makes a validator
object for every value it visits, about 3 s of CPU for a 25,000-hand file, twenty times the
compiled test.
Only a file the compiled test refuses goes through jsonschema, whose errors say what and where;
the tests hold the two to the same verdict.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from typing import Any

import jsonschema
import jsonschema.validators
from jsonschema.protocols import Validator

from club.interchange import SCHEMA_PATHS
from club.interchange.format.schema_compiled import compile_schema, is_integer

DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


def parse_moment(value: Any) -> dt.datetime | None:
    """A moment as the file writes it (ISO 8601 with its offset, `Z` for UTC), in UTC."""
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(dt.UTC)


# Only the formats the schemas use; jsonschema's own `date-time` check needs a package the app
# does not install (and would be skipped silently without it).
FORMATS = jsonschema.FormatChecker(formats=())


@FORMATS.checks("date", raises=ValueError)
def is_date(value: object) -> bool:
    if not isinstance(value, str):
        return True
    return bool(DATE.fullmatch(value)) and bool(dt.date.fromisoformat(value))


@FORMATS.checks("date-time")
def is_moment(value: object) -> bool:
    return not isinstance(value, str) or parse_moment(value) is not None


def is_whole_number(_checker: Any, value: object) -> bool:
    # JSON Schema counts 5.0 as an integer; the app stores integers, and refuses 5.0 as it
    # always did rather than turn a figure typed with a decimal point into another.
    return is_integer(value)


@functools.cache
def schema(version: int) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATHS[version].read_text(encoding="utf-8"))
    return loaded


@functools.cache
def validator(version: int) -> Validator:
    """jsonschema's validator of this version's schema, made once."""
    document_schema = schema(version)
    declared = jsonschema.validators.validator_for(document_schema)
    checked = jsonschema.validators.extend(
        declared, type_checker=declared.TYPE_CHECKER.redefine("integer", is_whole_number)
    )
    return checked(document_schema, format_checker=FORMATS)


@functools.cache
def _compiled(version: int) -> Any:
    return compile_schema(schema(version), FORMATS)


def passes(value: Any, version: int) -> bool:
    """Whether the file has the structure its version's schema gives (the compiled test)."""
    return bool(_compiled(version)(value))


def errors(value: Any, version: int) -> list[jsonschema.ValidationError]:
    """Every structural error in the file, in the order jsonschema finds them; none for a file
    the compiled test passes."""
    if passes(value, version):
        return []
    return list(validator(version).iter_errors(value))
