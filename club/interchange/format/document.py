"""Reading a club data file into checked plain data, with no database.

First what the file is: JSON (refused before parsing when too big, and refused when it holds what
no club data file holds), a `solo-whist-club` document, a version this app reads. Then its
structure, by its version's JSON Schema (club.interchange.format.schema: types, required and unknown
keys, enums, ranges, lengths, patterns, dates), and then, in Python, what a schema cannot say:
names (players, rule sets, seasons) that must be the file's or the club's, the scoring core's
verdict on each rule set, seasons containing their nights, hands numbered 1, 2, 3..., names
seated at their table (club.interchange.format.night_read), and version 3's references between
records
(club.interchange.format.record_read). Problems are collected, not raised one by one, so a
secretary sees
every mistake in a file at once, each with where it is (night date, table, hand, key; or the row
of a paper sheet), in the order of the file.

Names are matched ignoring case (a club's player names are unique ignoring case) and stored as the
file's player list spells them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import scoring
from club.interchange import FORMAT, MAX_BYTES, MAX_MB, VERSIONS
from club.interchange.format import schema
from club.interchange.format.night_read import HandData, NightData, NightReading, TableData
from club.interchange.format.reading import ImportRefused, Problem
from club.interchange.format.record_data import PlayerRecord, Record
from club.interchange.format.schema_problems import Path, Places, Structure, order, shown, structure
from club.lib.names import name_key, normalise_name

__all__ = [
    "ClubData",
    "Document",
    "Existing",
    "HandData",
    "ImportRefused",
    "NightData",
    "PlayerData",
    "Problem",
    "RuleSetData",
    "SeasonData",
    "TableData",
    "check_size",
    "parse_json",
    "read",
    "without_name",
]

NO_EXTRA_TRICKS = tuple(c.value for c in scoring.Contract if not c.info.counts_extra_tricks)


@dataclass
class ClubData:
    name: str
    slug: str
    unit: str
    public: bool
    # Version 3: the club's other settings (Club field -> value) and its grades' settings.
    settings: dict[str, Any] = field(default_factory=dict)
    grading: dict[str, Any] | None = None


@dataclass
class PlayerData:
    name: str
    active: bool = True
    record: PlayerRecord | None = None  # version 3: address, account, public grade


@dataclass
class RuleSetData:
    name: str
    preset: str  # a scoring preset key when the rules are that preset's, else ""
    rules: scoring.RuleSet
    where: str = ""

    @property
    def data(self) -> dict[str, Any]:
        return self.rules.to_dict()


@dataclass
class SeasonData:
    name: str
    start: dt.date
    end: dt.date
    rule_set: str
    ladder_rule_set: str | None
    where: str = ""
    settings: dict[str, Any] = field(default_factory=dict)  # version 3: standings options


@dataclass
class Document:
    club: ClubData
    players: list[PlayerData]
    rule_sets: list[RuleSetData]
    seasons: list[SeasonData]
    nights: list[NightData]
    record: Record | None = None  # version 3: the rest of the club's record


@dataclass(frozen=True)
class Existing:
    """What the club a file is imported into already has, for names the file may use without
    defining them (a paper sheet names the club's players and seasons)."""

    players: Mapping[str, str] = field(default_factory=dict)  # club.lib.names.name_key -> name
    rule_sets: frozenset[str] = frozenset()
    seasons: Mapping[str, tuple[dt.date, dt.date]] = field(default_factory=dict)


def check_size(size: int) -> None:
    if size >= MAX_BYTES:
        raise ImportRefused(
            [
                f"The file is {size / (1024 * 1024):.1f} MB: the limit is {MAX_MB} MB. "
                "Export one season at a time (export_club --season) and import each."
            ]
        )


# A real file is six levels deep (file, nights, tables, hands, amounts) and its numbers are
# small: anything far beyond either is refused before it can exhaust the stack or the CPU.
MAX_DEPTH = 32
MAX_DIGITS = 15


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Unreadable(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _decimal(text: str) -> float:
    if len(text) > 40:
        raise _Unreadable(f"a number written with {len(text)} characters")
    return float(text)


def _constant(text: str) -> Any:
    raise _Unreadable(f"{text}, which is not a number JSON allows")


class _Unreadable(ValueError):
    """Something in the file that no club data file holds; the message says what."""


def _check_depth(value: Any) -> None:
    """Refuse values nested deeper than any club data file is (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _Unreadable(f"lists or objects nested more than {MAX_DEPTH} deep")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))


def parse_json(raw: bytes | str) -> Any:
    """The file's JSON value; refuses files over the limit before parsing them, and any file that
    is not UTF-8 JSON or holds what no club data file holds (huge numbers, NaN, deep nesting)
    with ImportRefused, never another exception."""
    check_size(len(raw))
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ImportRefused(
                [f"This is not a club data file: not UTF-8 text (byte {error.start})."]
            ) from None
    try:
        value = json.loads(raw, parse_int=_number, parse_float=_decimal, parse_constant=_constant)
        _check_depth(value)
    except json.JSONDecodeError as error:
        raise ImportRefused(
            [
                f"This is not a club data file: not valid JSON (line {error.lineno}, column "
                f"{error.colno}: {error.msg})."
            ]
        ) from None
    except _Unreadable as error:
        raise ImportRefused([f"This is not a club data file: it holds {error}."]) from None
    except RecursionError:
        raise ImportRefused(
            [f"This is not a club data file: lists or objects nested more than {MAX_DEPTH} deep."]
        ) from None
    return value


def version_of(value: Any) -> int:
    """The version of a club data file; ImportRefused for anything else (which no schema of
    this app describes, so nothing more is said of it)."""
    if not isinstance(value, dict):
        raise ImportRefused(["This is not a club data file: it is not a JSON object."])
    if value.get("format") != FORMAT:
        found = shown(value.get("format"))
        raise ImportRefused(
            [f"This is not a club data file: its format is {found}, not '{FORMAT}'."]
        )
    version = value.get("version")
    if isinstance(version, bool) or version not in VERSIONS:
        readable = ", ".join(str(v) for v in VERSIONS[:-1]) + f" and {VERSIONS[-1]}"
        raise ImportRefused(
            [
                f"This file is version {shown(version)} of the club data file; "
                f"this app reads versions {readable}."
            ]
        )
    return int(version)


def read(
    raw: bytes | str | Mapping[str, Any],
    existing: Existing | None = None,
    rows: Mapping[tuple[int, ...], int] | None = None,
) -> Document:
    """The checked document, or ImportRefused with every problem found.

    `rows` maps (night, table, hand) indexes, or (night, table) for a table, to the paper sheet's
    row numbers, so that problems in a CSV file say which row."""
    value: Any = raw if isinstance(raw, Mapping) else parse_json(raw)
    version = version_of(value)
    found = structure(schema.errors(value, version), version)
    places = Places(value, found.tainted, rows or {})
    reader = _Reader(version, existing or Existing(), found, places)
    document = reader.document(value)
    problems = [(record, Problem(places.label(record), said)) for record, said in found.problems]
    problems.extend(reader.problems)
    if problems or document is None:
        raise ImportRefused(p for _, p in sorted(problems, key=lambda item: order(item[0])))
    return document


class _Reader(NightReading):
    def __init__(self, version: int, existing: Existing, found: Structure, places: Places) -> None:
        super().__init__(found, places)
        self.version = version
        self.existing = existing
        self.names = dict(existing.players)
        # Every rule set the file names, valid or not: a season under a refused one is not
        # reported again.
        self.rule_set_names: set[str] = set()

    def document(self, value: dict[str, Any]) -> Document | None:
        if self.version >= 3:
            self.start_record(value)
        club = self.club(value)
        players = self.players(value)
        rule_sets = self.rule_sets(value)
        seasons = self.seasons(value, {r.name for r in rule_sets})
        self.season_dates = {
            **self.existing.seasons,
            **{name: (season.start, season.end) for name, season in seasons.items()},
        }
        nights = self.nights(value)
        record = None
        if self.version >= 3:
            record = self.record_parts(value, {(n.season, n.date, n.title) for n in nights})
        if club is None:
            return None
        return Document(club, players, rule_sets, list(seasons.values()), nights, record)

    def club(self, value: dict[str, Any]) -> ClubData | None:
        found = self.record((), value, "club")
        if found is None:
            return None  # missing, or not an object: the schema says so
        path, data = found
        fields = self.fields(path, data)
        club = ClubData(
            self.text(path, fields, "name"),
            self.text(path, fields, "slug"),
            fields.get("unit", "points"),
            fields.get("public", False),
        )
        if self.version >= 3:
            club.settings, club.grading = self.club_settings(path, data)
        return club

    def players(self, value: dict[str, Any]) -> list[PlayerData]:
        players: list[PlayerData] = []
        seen: set[str] = set()
        for path, data in self.records((), value, "players"):
            fields = self.fields(path, data)
            # Stored as the app stores every name (club.lib.names), so a file cannot bring
            # in "Ann\u200b Baxter" beside "Ann Baxter".
            name = normalise_name(self.text(path, fields, "name"))
            active = fields.get("active", True)
            record = self.player_record(path, fields) if self.version >= 3 else None
            if not name:
                continue
            if name_key(name) in seen:
                self.problem(path, "is listed twice (names are unique in a club, ignoring case)")
                continue
            seen.add(name_key(name))
            self.names[name_key(name)] = name
            players.append(PlayerData(name, active, record))
        return players

    def rule_sets(self, value: dict[str, Any]) -> list[RuleSetData]:
        rule_sets: list[RuleSetData] = []
        for path, data in self.records((), value, "rule_sets"):
            fields = self.fields(path, data)
            name = self.text(path, fields, "name")
            if not name:
                continue
            if name in self.rule_set_names:
                self.problem(path, "is listed twice")
                continue
            self.rule_set_names.add(name)
            parsed = self.rules(path, fields, name)
            if parsed is not None:
                where = self.places.label(path)
                rule_sets.append(RuleSetData(name, parsed[0], parsed[1], where))
        return rule_sets

    def rules(
        self, path: Path, fields: dict[str, Any], name: str
    ) -> tuple[str, scoring.RuleSet] | None:
        """The rule set's rules, as the scoring core takes them: its preset's, or the rules it
        gives (the core refuses rules that break the game's, such as a misère worth less than a
        solo), or both when they agree."""
        preset_key = fields.get("preset")
        from_preset = scoring.preset(preset_key) if preset_key is not None else None
        raw = fields.get("rules")
        if raw is None:
            if from_preset is None:
                return None  # neither, or a refused one: the schema says so
            return str(preset_key), from_preset
        if self.version == 1:
            raw = _as_version_1_meant(raw)
        try:
            rules = scoring.RuleSet.from_dict({"name": name, **raw})
        except (scoring.InvalidRuleSet, TypeError, ValueError) as error:
            self.problem(path, f"the scoring core refuses these rules: {error}")
            return None
        if from_preset is None:
            return "", rules
        if without_name(rules.to_dict()) != without_name(from_preset.to_dict()):
            self.problem(
                path,
                f"'rules' differ from the preset '{preset_key}': give the preset alone, "
                "or the rules alone",
            )
            return None
        return str(preset_key), rules

    def seasons(self, value: dict[str, Any], rule_sets: set[str]) -> dict[str, SeasonData]:
        seasons: dict[str, SeasonData] = {}
        known_rules = rule_sets | self.rule_set_names | set(self.existing.rule_sets)
        for path, data in self.records((), value, "seasons"):
            fields = self.fields(path, data)
            name = self.text(path, fields, "name")
            start = self.date(fields, "start")
            end = self.date(fields, "end")
            if start and end and end < start:
                self.problem(path, f"it ends ({end}) before it starts ({start})")
            rule_set = self.text(path, fields, "rule_set")
            if rule_set and rule_set not in known_rules:
                self.problem(path, f"'rule_set' {rule_set!r} is not a rule set in the file")
            ladder = self.text(path, fields, "ladder_rule_set")
            if ladder and ladder not in known_rules:
                self.problem(path, f"'ladder_rule_set' {ladder!r} is not a rule set in the file")
            if not name:
                continue
            if name in seasons:
                self.problem(path, "is listed twice")
                continue
            if start and end:
                where = self.places.label(path)
                seasons[name] = SeasonData(name, start, end, rule_set, ladder or None, where)
                if self.version >= 3:
                    seasons[name].settings = self.season_record(fields)
        return seasons


def _as_version_1_meant(raw: dict[str, Any]) -> dict[str, Any]:
    """Version 1 let a rule set give over- and under-trick values to misère, open misère and
    abundance declared, which the scoring core always ignored: read as 0, they mean what they
    always meant, and the core (which now refuses them) takes the rules."""
    stakes = raw.get("stakes")
    if not isinstance(stakes, dict):
        return raw
    cleared = dict(stakes)
    for key in NO_EXTRA_TRICKS:
        stake = stakes.get(key)
        if isinstance(stake, dict):
            cleared[key] = {**stake, "over": 0, "under": 0}
    return {**raw, "stakes": cleared}


def without_name(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "name"}
