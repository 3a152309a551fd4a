"""A JSON Schema compiled, once, into plain Python tests that say only whether a value passes.

jsonschema (club.interchange.format.schema) is what says what is wrong and where; this is its quick
verdict on a valid file, from the same schema, for the keywords the club data file's schemas use.
A keyword it does not know is refused when the schema is compiled (Unsupported), never skipped,
so a schema that grows a new kind of rule cannot pass files jsonschema would refuse: the tests
compile every schema and compare the two verdicts on many broken files.

The verdicts follow JSON Schema's meaning: a keyword tests only values of its own type
(`minimum` a number, `maxLength` a string...), `properties` only the keys present, equality
tells true from 1; and the app's one rule beyond the draft, that a whole number is written
without a decimal point (`integer`: 5, not 5.0 or true).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import jsonschema

Check = Callable[[Any], bool]


def is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": is_integer,
    "number": is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
# Keywords that describe and never refuse.
ANNOTATIONS = frozenset(
    {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"}
)
OBJECT_KEYWORDS = frozenset({"properties", "additionalProperties", "required"})
KNOWN = frozenset(
    {
        *OBJECT_KEYWORDS,
        "type",
        "enum",
        "const",
        "$ref",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "not",
        "anyOf",
        "oneOf",
        "allOf",
    }
)


class Unsupported(ValueError):
    """The schema uses a keyword (or a form of one) that this compiler does not test."""


def canonical(value: Any) -> Any:
    """A hashable stand-in equal for values JSON Schema calls equal (1 and 1.0, not true and 1;
    objects whatever their keys' order)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if value is None:
        return ("null",)
    if isinstance(value, list):
        return ("array", tuple(canonical(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, canonical(v)) for k, v in value.items()))
    raise Unsupported(f"{type(value).__name__} is not a JSON value")


def every(tests: list[Check]) -> Check:
    """One test of them all, in order, stopping at the first that fails (nested `and`s: a
    generator a value cost as much again as the tests)."""
    if not tests:
        return lambda _: True
    if len(tests) == 1:
        return tests[0]
    first, rest = tests[0], every(tests[1:])
    return lambda value: first(value) and rest(value)


def compile_schema(root: Mapping[str, Any], formats: jsonschema.FormatChecker) -> Check:
    """The test of `root`: True exactly when jsonschema finds no error (for JSON values)."""
    definitions = root.get("$defs", {})
    compiled: dict[str, Check] = {}

    def reference(ref: str) -> Check:
        name = ref.removeprefix("#/$defs/")
        if name == ref or name not in definitions:
            raise Unsupported(f"$ref {ref!r}: only #/$defs/... is compiled")
        if name not in compiled:
            compiled[name] = node(definitions[name])
        return compiled[name]

    def node(schema: Any) -> Check:
        if schema is True or schema == {}:
            return lambda _: True
        if schema is False:
            return lambda _: False
        if not isinstance(schema, dict):
            raise Unsupported(f"{schema!r} is not a schema")
        unknown = set(schema) - KNOWN - ANNOTATIONS
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        tests = [test for keyword in schema if (test := one(keyword, schema)) is not None]
        tests.extend(objects(schema))
        return every(tests)

    def one(keyword: str, schema: dict[str, Any]) -> Check | None:
        arg = schema[keyword]
        if keyword in ANNOTATIONS or keyword in OBJECT_KEYWORDS:
            return None
        if keyword == "type":
            names = [arg] if isinstance(arg, str) else list(arg)
            kinds = [TYPES[name] for name in names if name != "null"]
            if len(kinds) == 1 and len(names) == 1:
                return kinds[0]
            if len(kinds) == 1:  # "or null", the usual pair
                kind = kinds[0]
                return lambda v: v is None or kind(v)
            return lambda v: any(kind(v) for kind in kinds) or ("null" in names and v is None)
        if keyword in ("enum", "const"):
            values = arg if keyword == "enum" else [arg]
            if all(v is None or isinstance(v, str) for v in values):
                texts = frozenset(values)
                return lambda v: (v is None or isinstance(v, str)) and v in texts
            allowed = frozenset(canonical(v) for v in values)
            return lambda v: canonical(v) in allowed
        if keyword == "$ref":
            ref = str(arg)

            def follow(value: Any) -> bool:
                return reference(ref)(value)

            return follow
        if keyword == "items":
            if "prefixItems" in schema:
                raise Unsupported("prefixItems")
            item = node(arg)
            return lambda v: not isinstance(v, list) or all(item(x) for x in v)
        if keyword == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= arg
        if keyword == "maxItems":
            return lambda v: not isinstance(v, list) or len(v) <= arg
        if keyword == "uniqueItems":
            if not arg:
                return None
            return lambda v: not isinstance(v, list) or len({canonical(x) for x in v}) == len(v)
        if keyword == "minimum":
            return lambda v: not is_number(v) or v >= arg
        if keyword == "maximum":
            return lambda v: not is_number(v) or v <= arg
        if keyword == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= arg
        if keyword == "maxLength":
            return lambda v: not isinstance(v, str) or len(v) <= arg
        if keyword == "pattern":
            search = re.compile(arg).search
            return lambda v: not isinstance(v, str) or search(v) is not None
        if keyword == "format":
            return lambda v: formats.conforms(v, arg)
        if keyword == "not":
            inner = node(arg)
            return lambda v: not inner(v)
        parts = [node(part) for part in arg]
        if keyword == "anyOf":
            return lambda v: any(part(v) for part in parts)
        if keyword == "oneOf":
            return lambda v: sum(1 for part in parts if part(v)) == 1
        return lambda v: all(part(v) for part in parts)  # allOf

    def objects(schema: dict[str, Any]) -> list[Check]:
        """`properties`, `additionalProperties` and `required` as one pass over the keys."""
        if not OBJECT_KEYWORDS & set(schema):
            return []
        known = {key: node(sub) for key, sub in schema.get("properties", {}).items()}
        extra = schema.get("additionalProperties", True)
        others = None if extra is False else node(extra)
        required = tuple(schema.get("required", ()))

        def test(value: Any) -> bool:
            if not isinstance(value, dict):
                return True
            for key in required:
                if key not in value:
                    return False
            for key, item in value.items():
                check = known.get(key, others)
                if check is None or not check(item):
                    return False
            return True

        return [test]

    return node(root)
