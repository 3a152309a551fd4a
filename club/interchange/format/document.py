"""Reading a club data file into checked plain data, with no database.

Every check that needs only the file is here: the format and version, unknown or missing keys,
types, names that must be seated, hand numbers, tricks, rule sets the scoring core refuses, seasons
whose dates do not contain their nights. Problems are collected, not raised one by one, so a
secretary sees every mistake in a file at once, each with where it is (night date, table, hand,
key; or the row of a paper sheet).

Names are matched ignoring case (a club's player names are unique ignoring case) and stored as the
file's player list spells them.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import scoring
from club.interchange import FORMAT, MAX_BYTES, MAX_MB, VERSION, VERSIONS
from club.interchange.format.record_read import (
    CLUB_KEYS_V3,
    NIGHT_KEYS_V3,
    PLAYER_KEYS_V3,
    SEASON_KEYS_V3,
    TOP_KEYS_V3,
    NightRecord,
    PlayerRecord,
    Record,
    RecordReading,
)
from club.lib.names import name_key, normalise_name

UNITS = ("pence", "cents", "points")
TRUMPS = tuple(t.value for t in scoring.Trump)
CONTRACT_KEYS_V1 = (*(c.value for c in scoring.Contract), scoring.ALL_PASSED)
CONTRACT_KEYS = (*CONTRACT_KEYS_V1, scoring.MISDEAL)
PENALTIES = tuple(p.value for p in scoring.Penalty)
SUITS = tuple(t.value for t in scoring.contracts.SUITS)
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")

TOP_KEYS = ("format", "version", "exported_at", "club", "players", "rule_sets", "seasons", "nights")
CLUB_KEYS = ("name", "slug", "unit", "public")
PLAYER_KEYS = ("name", "active")
RULE_SET_KEYS = ("name", "preset", "rules")
SEASON_KEYS = ("name", "start", "end", "rule_set", "ladder_rule_set")
NIGHT_KEYS = ("season", "date", "title", "closed", "tables")
TABLE_KEYS = ("number", "round", "seats", "first_dealer", "hands")
HAND_KEYS = (
    "number",
    "dealer",
    "sitting_out",
    "contract",
    "declarer",
    "partner",
    "trump",
    "tricks",
    "revoke_by",
    "last_trick_by",
    "notes",
    "amounts",
)
# Version 2: several revokes, a penalty against a misère, the suit turned up; and (optional, a
# later addition) who held the wrong number of cards when it was found after the first call.
HAND_KEYS_V2 = (*HAND_KEYS, "revokes", "penalty", "penalty_by", "turned_suit", "wrong_cards")
# Version 3: a hand entered at the table still waiting for a second player's confirmation.
HAND_KEYS_V3 = (*HAND_KEYS_V2, "awaiting_confirmation")
# Version 2's rule-set options, which a version-1 file cannot hold.
RULES_KEYS_V2 = ("stake_unit", "redeal_by", "record_turned_suit", "abundance_in_turned_suit")
NO_EXTRA_TRICKS = tuple(c.value for c in scoring.Contract if not c.info.counts_extra_tricks)


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
class HandData:
    number: int
    dealer: str
    sitting_out: str | None  # as the file gives it (checked against the rule set on import)
    contract: str
    declarer: str | None
    partner: str | None
    trump: str
    tricks: int | None
    revokes: list[str]  # every revoke, in the order found
    last_trick_by: str | None
    notes: str
    amounts: dict[str, int] | None
    where: str = ""
    penalty: str = ""
    penalty_by: str | None = None
    turned_suit: str = ""
    wrong_cards: list[str] = field(default_factory=list)
    awaiting_confirmation: bool = False


@dataclass
class TableData:
    number: int
    round: int | None
    seats: list[str]
    first_dealer: int  # seat index
    hands: list[HandData] = field(default_factory=list)
    where: str = ""
    label: str = ""  # where, without the paper sheet's row
    numbers: set[int] = field(default_factory=set)  # hand numbers read so far


@dataclass
class NightData:
    season: str
    date: dt.date
    title: str
    closed: bool
    tables: list[TableData] = field(default_factory=list)
    where: str = ""
    label: str = ""  # where, without the paper sheet's row
    record: NightRecord | None = None  # version 3: publications, money owed, the tournament

    @property
    def is_tournament(self) -> bool:
        return any(t.round is not None for t in self.tables)


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


def shown(value: Any) -> str:
    """A value from the file as a problem quotes it: JSON, cut short, never an exception."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def read(
    raw: bytes | str | Mapping[str, Any],
    existing: Existing | None = None,
    rows: Mapping[tuple[int, ...], int] | None = None,
) -> Document:
    """The checked document, or ImportRefused with every problem found.

    `rows` maps (night, table, hand) indexes, or (night, table) for a table, to the paper sheet's
    row numbers, so that problems in a CSV file say which row."""
    value = raw if isinstance(raw, Mapping) else parse_json(raw)
    reader = _Reader(existing or Existing(), rows or {})
    document = reader.document(value)
    if reader.problems or document is None:
        raise ImportRefused(reader.problems)
    return document


def _storable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"), which no database stores
        return False
    return True


def _keys(keys: Iterable[str]) -> str:
    return ", ".join(f"'{k}'" for k in keys)


def night_label(date: Any, title: str) -> str:
    label = f"night {date}"
    return f'{label} "{title}"' if title else label


class _Reader(RecordReading):
    def __init__(self, existing: Existing, rows: Mapping[tuple[int, ...], int]) -> None:
        self.existing = existing
        self.rows = rows
        self.problems: list[Problem] = []
        self.names: dict[str, str] = dict(existing.players)
        # Every rule set the file names, valid or not: a season under a refused one is not
        # reported again.
        self.rule_set_names: set[str] = set()
        self.version = VERSION

    def problem(self, where: str, message: str) -> None:
        self.problems.append(Problem(where, message))

    # Types ------------------------------------------------------------------------------------

    def obj(
        self, value: Any, where: str, keys: tuple[str, ...], required: tuple[str, ...]
    ) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.problem(where, "must be an object ({...})")
            return None
        unknown = [k for k in value if k not in keys]
        if unknown:
            noun = "key" if len(unknown) == 1 else "keys"
            self.problem(
                where,
                f"unknown {noun} {_keys(unknown)} (version {self.version} has {_keys(keys)})",
            )
        for key in required:
            if key not in value:
                self.problem(where, f"the key '{key}' is missing")
        return value

    def text(
        self, data: dict[str, Any], key: str, where: str, *, max_length: int, blank: bool = False
    ) -> str:
        value = data.get(key, "")
        if value is None and blank:
            return ""
        if not isinstance(value, str):
            self.problem(where, f"'{key}' must be text, not {shown(value)}")
            return ""
        value = value.strip()
        if "\x00" in value or not _storable(value):
            self.problem(
                where, f"'{key}' holds characters that are not text (a NUL or half a pair)"
            )
            return ""
        if not value and not blank and key in data:
            self.problem(where, f"'{key}' cannot be empty")
        if len(value) > max_length:
            self.problem(where, f"'{key}' is longer than {max_length} characters")
        return value

    def boolean(self, data: dict[str, Any], key: str, where: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.problem(where, f"'{key}' must be true or false, not {shown(value)}")
            return default
        return value

    def integer(
        self, data: dict[str, Any], key: str, where: str, *, low: int, high: int | None = None
    ) -> int | None:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            if key in data:
                self.problem(where, f"'{key}' must be a whole number, not {shown(value)}")
            return None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"{low} or more"
            self.problem(where, f"'{key}' is {value}: it must be {span}")
            return None
        return value

    def date(self, data: dict[str, Any], key: str, where: str) -> dt.date | None:
        value = data.get(key)
        if key not in data:
            return None
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        self.problem(where, f"'{key}' must be a date written YYYY-MM-DD, not {shown(value)}")
        return None

    def array(self, value: Any, where: str, key: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(where, f"'{key}' must be a list ([...])")
            return []
        return value

    # The document -----------------------------------------------------------------------------

    def document(self, value: Any) -> Document | None:
        if not isinstance(value, dict):
            self.problem("", "This is not a club data file: it is not a JSON object.")
            return None
        if value.get("format") != FORMAT:
            found = shown(value.get("format"))
            self.problem(
                "", f"This is not a club data file: its format is {found}, not '{FORMAT}'."
            )
            return None
        version = value.get("version")
        if isinstance(version, bool) or version not in VERSIONS:
            readable = ", ".join(str(v) for v in VERSIONS[:-1]) + f" and {VERSIONS[-1]}"
            self.problem(
                "",
                f"This file is version {shown(version)} of the club data file; "
                f"this app reads versions {readable}.",
            )
            return None
        self.version = version
        top = TOP_KEYS if version < 3 else (*TOP_KEYS, *TOP_KEYS_V3)
        self.obj(value, "file", top, ("format", "version", "club"))
        if version >= 3:
            self.start_record(value)
        club = self.club(value.get("club"))
        players = self.players(self.array(value.get("players"), "file", "players"))
        rule_sets = self.rule_sets(self.array(value.get("rule_sets"), "file", "rule_sets"))
        seasons = self.seasons(
            self.array(value.get("seasons"), "file", "seasons"), {r.name for r in rule_sets}
        )
        nights = self.nights(self.array(value.get("nights"), "file", "nights"), seasons)
        record = None
        if version >= 3:
            record = self.record(value, {(n.season, n.date, n.title) for n in nights})
        if club is None:
            return None
        return Document(club, players, rule_sets, list(seasons.values()), nights, record)

    def club(self, value: Any) -> ClubData | None:
        where = "club"
        keys = CLUB_KEYS if self.version < 3 else (*CLUB_KEYS, *CLUB_KEYS_V3)
        data = self.obj(value, where, keys, ("name", "slug", "unit"))
        if data is None:
            return None
        name = self.text(data, "name", where, max_length=120)
        slug = self.text(data, "slug", where, max_length=60)
        if slug and not SLUG.match(slug):
            self.problem(where, f"'slug' {slug!r} may hold only letters, digits, - and _")
        unit = data.get("unit")
        if unit not in UNITS:
            self.problem(where, f"'unit' must be one of {_keys(UNITS)}, not {shown(unit)}")
        public = self.boolean(data, "public", where, False)
        found = ClubData(name, slug, unit if unit in UNITS else "points", public)
        if self.version >= 3:
            found.settings, found.grading = self.club_settings(data)
        return found

    def players(self, values: list[Any]) -> list[PlayerData]:
        players: list[PlayerData] = []
        seen: set[str] = set()
        for i, value in enumerate(values, start=1):
            where = f"player {i}"
            keys = PLAYER_KEYS if self.version < 3 else (*PLAYER_KEYS, *PLAYER_KEYS_V3)
            data = self.obj(value, where, keys, ("name",))
            if data is None:
                continue
            # Stored as the app stores every name (club.lib.names), so a file cannot bring
            # in "Ann\u200b Baxter" beside "Ann Baxter".
            name = normalise_name(self.text(data, "name", where, max_length=60))
            if name:
                where = f"player {name!r}"
            active = self.boolean(data, "active", where, True)
            record = self.player_record(data, where) if self.version >= 3 else None
            if not name:
                continue
            if name_key(name) in seen:
                self.problem(where, "is listed twice (names are unique in a club, ignoring case)")
                continue
            seen.add(name_key(name))
            self.names[name_key(name)] = name
            players.append(PlayerData(name, active, record))
        return players

    def rule_sets(self, values: list[Any]) -> list[RuleSetData]:
        rule_sets: list[RuleSetData] = []
        seen: set[str] = set()
        for i, value in enumerate(values, start=1):
            where = f"rule set {i}"
            data = self.obj(value, where, RULE_SET_KEYS, ("name",))
            if data is None:
                continue
            name = self.text(data, "name", where, max_length=80)
            if name:
                where = f"rule set {name!r}"
            if name in seen:
                self.problem(where, "is listed twice")
                continue
            seen.add(name)
            self.rule_set_names.add(name)
            parsed = self.rules(data, where, name)
            if name and parsed is not None:
                rule_sets.append(RuleSetData(name, parsed[0], parsed[1], where))
        return rule_sets

    def rules(
        self, data: dict[str, Any], where: str, name: str
    ) -> tuple[str, scoring.RuleSet] | None:
        preset_key = data.get("preset")
        from_preset: scoring.RuleSet | None = None
        if preset_key is not None:
            if not isinstance(preset_key, str) or preset_key not in scoring.PRESETS:
                self.problem(
                    where,
                    f"'preset' {shown(preset_key)} is not one of {_keys(scoring.PRESETS)}",
                )
                return None
            from_preset = scoring.preset(preset_key)
        raw = data.get("rules")
        if raw is None:
            if from_preset is None:
                self.problem(where, "give either 'preset' or 'rules'")
                return None
            return str(preset_key), from_preset  # a preset key (checked above)
        if not isinstance(raw, dict):
            self.problem(where, "'rules' must be an object, as scoring.RuleSet.to_dict() writes")
            return None
        if self.version == 1:
            later = [k for k in RULES_KEYS_V2 if k in raw]
            if later:
                self.problem(
                    where,
                    f"'rules' holds {_keys(later)}, which version 1 does not have: write the "
                    "file as version 2",
                )
                return None
            raw = _as_version_1_meant(raw)
        try:
            rules = scoring.RuleSet.from_dict({"name": name or "rules", **raw})
        except scoring.InvalidRuleSet as error:
            self.problem(where, f"the scoring core refuses these rules: {error}")
            return None
        except (TypeError, ValueError) as error:
            self.problem(where, f"the scoring core refuses these rules: {error}")
            return None
        if from_preset is not None:
            if _without_name(rules.to_dict()) != _without_name(from_preset.to_dict()):
                self.problem(
                    where,
                    f"'rules' differ from the preset '{preset_key}': give the preset alone, "
                    "or the rules alone",
                )
                return None
            return str(preset_key), rules  # a preset key (checked above)
        return "", rules

    def seasons(self, values: list[Any], rule_sets: set[str]) -> dict[str, SeasonData]:
        seasons: dict[str, SeasonData] = {}
        known_rules = rule_sets | self.rule_set_names | set(self.existing.rule_sets)
        for i, value in enumerate(values, start=1):
            where = f"season {i}"
            keys = SEASON_KEYS if self.version < 3 else (*SEASON_KEYS, *SEASON_KEYS_V3)
            data = self.obj(value, where, keys, ("name", "start", "end", "rule_set"))
            if data is None:
                continue
            name = self.text(data, "name", where, max_length=80)
            if name:
                where = f"season {name!r}"
            start = self.date(data, "start", where)
            end = self.date(data, "end", where)
            if start and end and end < start:
                self.problem(where, f"it ends ({end}) before it starts ({start})")
            rule_set = self.text(data, "rule_set", where, max_length=80)
            if rule_set and rule_set not in known_rules:
                self.problem(where, f"'rule_set' {rule_set!r} is not a rule set in the file")
            ladder = data.get("ladder_rule_set")
            if ladder is not None:
                ladder = self.text(data, "ladder_rule_set", where, max_length=80)
                if ladder and ladder not in known_rules:
                    self.problem(
                        where, f"'ladder_rule_set' {ladder!r} is not a rule set in the file"
                    )
            if not name:
                continue
            if name in seasons:
                self.problem(where, "is listed twice")
                continue
            if start and end:
                seasons[name] = SeasonData(name, start, end, rule_set, ladder or None, where)
                if self.version >= 3:
                    seasons[name].settings = self.season_record(data, where)
        return seasons

    def nights(self, values: list[Any], seasons: dict[str, SeasonData]) -> list[NightData]:
        nights: list[NightData] = []
        for n, value in enumerate(values):
            where = f"night {n + 1}"
            keys = NIGHT_KEYS if self.version < 3 else (*NIGHT_KEYS, *NIGHT_KEYS_V3)
            data = self.obj(value, where, keys, ("season", "date", "tables"))
            if data is None:
                continue
            date = self.date(data, "date", where)
            title = self.text(data, "title", where, max_length=80, blank=True)
            if date is not None:
                where = night_label(date, title)
            label = where
            where = self.at_row(where, (n,))
            season_name = self.text(data, "season", where, max_length=80)
            closed = self.boolean(data, "closed", where, False)
            dates: tuple[dt.date, dt.date] | None = None
            if season_name in seasons:
                dates = (seasons[season_name].start, seasons[season_name].end)
            elif season_name in self.existing.seasons:
                dates = self.existing.seasons[season_name]
            elif season_name:
                self.problem(where, f"'season' {season_name!r} is not a season in the file")
            if date is not None and dates is not None and not dates[0] <= date <= dates[1]:
                self.problem(
                    where,
                    f"the season {season_name!r} runs from {dates[0]} to {dates[1]}, "
                    f"so it does not contain this night",
                )
            night = NightData(
                season_name, date or dt.date.min, title, closed, where=where, label=label
            )
            tables = self.array(data.get("tables"), where, "tables")
            numbers: set[tuple[int | None, int]] = set()
            for t, table_value in enumerate(tables):
                table = self.table(table_value, night, (n, t))
                if table is None:
                    continue
                if (table.round, table.number) in numbers:
                    self.problem(table.where, "this table number appears twice")
                numbers.add((table.round, table.number))
                night.tables.append(table)
            rounds = {t.round is None for t in night.tables}
            if len(rounds) > 1:
                self.problem(
                    where, "either every table has a 'round' (a tournament) or none has one"
                )
            if self.version >= 3:
                seated = {name for t in night.tables for name in t.seats}
                night.record = self.night_record(data, where, closed, seated)
            nights.append(night)
        return nights

    def at_row(self, where: str, index: tuple[int, ...]) -> str:
        row = self.rows.get(index)
        return f"row {row} ({where})" if row is not None else where

    def name(self, data: dict[str, Any], key: str, where: str, seats: list[str]) -> str | None:
        """A player of this table named under `key`; None (with a problem) otherwise."""
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem(where, f"'{key}' must be a player's name, not {shown(value)}")
            return None
        found = self.names.get(name_key(value))
        if found is None or found not in seats:
            self.problem(
                where, f"'{key}' {value!r} is not at this table (seats: {', '.join(seats)})"
            )
            return None
        return found

    def table(self, value: Any, night: NightData, index: tuple[int, int]) -> TableData | None:
        label = f"{night.label}, table {index[1] + 1}"
        data = self.obj(value, self.at_row(label, index), TABLE_KEYS, ("number", "seats"))
        if data is None:
            return None
        where = self.at_row(label, index)
        number = self.integer(data, "number", where, low=1, high=32767)
        round_number = None
        if "round" in data:
            round_number = self.integer(data, "round", where, low=1, high=30)
        if number is not None:
            at = f"table {number}"
            if round_number is not None:
                at = f"round {round_number}, {at}"
            label = f"{night.label}, {at}"
            where = self.at_row(label, index)
        seats_value = data.get("seats")
        seats: list[str] = []
        if not isinstance(seats_value, list) or not 3 <= len(seats_value) <= 5:
            self.problem(where, "'seats' must list the 3, 4 or 5 players in clockwise order")
        else:
            for name in seats_value:
                if not isinstance(name, str) or not name.strip():
                    self.problem(where, f"'seats' holds {shown(name)}, not a player's name")
                    continue
                found = self.names.get(name_key(name))
                if found is None:
                    self.problem(where, f"the seat {name!r} is not one of the file's players")
                    continue
                if found in seats:
                    self.problem(where, f"{found} is seated twice")
                    continue
                seats.append(found)
        if not seats or not isinstance(seats_value, list) or len(seats) != len(seats_value):
            return None
        if number is None:
            return None
        first = 0
        if data.get("first_dealer") is not None:
            dealer = self.name(data, "first_dealer", where, seats)
            first = seats.index(dealer) if dealer else 0
        table = TableData(number, round_number, seats, first, where=where, label=label)
        hands = self.array(data.get("hands"), where, "hands")
        for h, hand_value in enumerate(hands):
            hand = self.hand(hand_value, table, (*index, h))
            if hand is not None:
                table.hands.append(hand)
        return table

    def hand(self, value: Any, table: TableData, index: tuple[int, int, int]) -> HandData | None:
        expected = index[2] + 1
        where = self.at_row(f"{table.label}, hand {expected}", index)
        keys = {1: HAND_KEYS, 2: HAND_KEYS_V2}.get(self.version, HAND_KEYS_V3)
        data = self.obj(value, where, keys, ("number", "contract"))
        if data is None:
            return None
        number = self.integer(data, "number", where, low=1, high=32767)
        if number is not None:
            where = self.at_row(f"{table.label}, hand {number}", index)
        if number is not None:
            if number in table.numbers:
                self.problem(where, f"hand number {number} is repeated: hand {expected} comes here")
            elif number != expected:
                self.problem(
                    where, f"hand number {number} is out of order: hand {expected} comes here"
                )
            table.numbers.add(number)
        seats = table.seats
        dealer = self.name(data, "dealer", where, seats)
        if dealer is None and data.get("dealer") is None:
            dealer = seats[(table.first_dealer + expected - 1) % len(seats)]
        sitting_out = self.name(data, "sitting_out", where, seats)
        if sitting_out is not None and len(seats) != 5:
            self.problem(where, "only a table of 5 has a player sitting out")
        contract = data.get("contract")
        contracts = CONTRACT_KEYS_V1 if self.version == 1 else CONTRACT_KEYS
        if not isinstance(contract, str) or contract not in contracts:
            self.problem(where, f"'contract' {shown(contract)} is not one of {_keys(contracts)}")
            contract = None
        trump = data.get("trump")
        if trump is not None and trump not in TRUMPS:
            self.problem(where, f"'trump' {shown(trump)} is not one of {_keys(TRUMPS)}")
            trump = None
        tricks = data.get("tricks")
        if tricks is not None:
            if isinstance(tricks, bool) or not isinstance(tricks, int):
                self.problem(where, f"'tricks' must be a whole number, not {shown(tricks)}")
                tricks = None
            elif not 0 <= tricks <= scoring.TRICKS_IN_HAND:
                self.problem(where, f"'tricks' is {tricks}: a hand has 13 tricks (0 to 13)")
                tricks = None
        notes = self.text(data, "notes", where, max_length=200, blank=True)
        amounts = self.amounts(data.get("amounts"), where, seats) if "amounts" in data else None
        names = {
            key: self.name(data, key, where, seats)
            for key in ("declarer", "partner", "revoke_by", "last_trick_by", "penalty_by")
        }
        revokes = self.revokes(data, where, seats, names["revoke_by"])
        penalty = self.choice(data, "penalty", where, PENALTIES)
        turned_suit = self.choice(data, "turned_suit", where, SUITS)
        wrong_cards = self.wrong_cards(data, where, seats)
        if dealer is None or number is None or contract is None:
            return None
        return HandData(
            number=number,
            dealer=dealer,
            sitting_out=sitting_out,
            contract=contract,
            declarer=names["declarer"],
            partner=names["partner"],
            trump=trump or "",
            tricks=tricks,
            revokes=revokes,
            last_trick_by=names["last_trick_by"],
            notes=notes,
            amounts=amounts,
            where=where,
            penalty=penalty,
            penalty_by=names["penalty_by"],
            turned_suit=turned_suit,
            wrong_cards=wrong_cards,
            awaiting_confirmation=self.boolean(data, "awaiting_confirmation", where, False),
        )

    def wrong_cards(self, data: dict[str, Any], where: str, seats: list[str]) -> list[str]:
        """Who held the wrong number of cards: a list of names at the table, each once."""
        value = data.get("wrong_cards")
        if value is None:
            return []
        if not isinstance(value, list) or len(value) > len(seats):
            self.problem(where, "'wrong_cards' must list who held the wrong number of cards")
            return []
        found: list[str] = []
        for name in value:
            player = self.names.get(name_key(name)) if isinstance(name, str) else None
            if player is None or player not in seats:
                self.problem(
                    where,
                    f"'wrong_cards' names {shown(name)}, who is not at this table "
                    f"(seats: {', '.join(seats)})",
                )
            elif player in found:
                self.problem(where, f"'wrong_cards' names {shown(name)} twice")
            else:
                found.append(player)
        return found

    def revokes(
        self, data: dict[str, Any], where: str, seats: list[str], one: str | None
    ) -> list[str]:
        """Every revoke: version 2's list, or the one `revoke_by` names."""
        value = data.get("revokes")
        if value is None:
            return [one] if one is not None else []
        if data.get("revoke_by") is not None:
            self.problem(where, "give 'revoke_by' (one revoke) or 'revokes' (every one), not both")
            return []
        if not isinstance(value, list) or len(value) > scoring.TRICKS_IN_HAND:
            self.problem(where, "'revokes' must list who revoked, a name a revoke")
            return []
        found = []
        for name in value:
            player = self.names.get(name_key(name)) if isinstance(name, str) else None
            if player is None or player not in seats:
                self.problem(
                    where,
                    f"'revokes' names {shown(name)}, who is not at this table "
                    f"(seats: {', '.join(seats)})",
                )
                continue
            found.append(player)
        return found

    def choice(self, data: dict[str, Any], key: str, where: str, keys: tuple[str, ...]) -> str:
        value = data.get(key)
        if value is None or value == "":
            return ""
        if not isinstance(value, str) or value not in keys:
            self.problem(where, f"'{key}' {shown(value)} is not one of {_keys(keys)}")
            return ""
        return value

    def amounts(self, value: Any, where: str, seats: list[str]) -> dict[str, int] | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            self.problem(where, "'amounts' must map each player's name to a whole number")
            return None
        amounts: dict[str, int] = {}
        for name, amount in value.items():
            found = self.names.get(name_key(str(name)))
            if found is None or found not in seats:
                self.problem(where, f"'amounts' names {name!r}, who is not at this table")
                continue
            if isinstance(amount, bool) or not isinstance(amount, int):
                self.problem(
                    where, f"'amounts' for {found} must be a whole number, not {shown(amount)}"
                )
                continue
            amounts[found] = amount
        return amounts


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


def _without_name(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "name"}


def without_name(data: dict[str, Any]) -> dict[str, Any]:
    return _without_name(data)
