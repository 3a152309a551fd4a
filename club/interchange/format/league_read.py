"""Reading a league file into checked plain data, with no database.

First what the file is (JSON within the size limit, a `solo-whist-league` document of a version
this app reads), then its structure by its JSON Schema (schema-league-v1.json), then, in Python,
what a schema cannot say: references inside the file (a register names one of the file's people
and clubs, a fixture two of its clubs and a night of its own club), one live register a person
and a club's player, cards that sum to zero and name the club that forfeited. The league's own
club, a club data file inside this one, is read by that file's own reader
(club.interchange.format.document), its problems prefixed with `host_club`. Every problem is
collected, each with where it is, so the organiser sees them all at once.

Whether the clubs and their players exist on this server is the import's question
(club.interchange.services.league_import), not the file's.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import jsonschema.validators
from jsonschema.protocols import Validator

from club.interchange import LEAGUE_FORMAT, LEAGUE_SCHEMA_PATH, LEAGUE_VERSION
from club.interchange.format import document
from club.interchange.format.reading import ImportRefused, Problem
from club.interchange.format.schema import FORMATS, is_whole_number, parse_moment
from club.interchange.format.schema_problems import shown
from club.lib.names import name_key, normalise_name


@dataclass(frozen=True)
class LeagueSettings:
    name: str
    slug: str
    start: dt.date
    end: dt.date
    meetings: int
    points_win: int
    points_tie: int
    points_loss: int
    points_forfeit: int
    players_a_side: int
    deals_a_match: int
    tie_breaks: list[str]
    public: bool


@dataclass(frozen=True)
class ClubEntry:
    slug: str
    name: str
    status: str
    answered_at: dt.datetime | None


@dataclass(frozen=True)
class PersonData:
    name: str
    seat: str


@dataclass(frozen=True)
class RegisterData:
    person: str  # a seat
    club: str  # a slug
    player: str
    start: dt.datetime
    until: dt.datetime | None
    where: str


@dataclass(frozen=True)
class TransferData:
    person: str
    from_club: str
    to_club: str
    at: dt.datetime
    note: str


@dataclass(frozen=True)
class CardData:
    state: str
    home_score: int
    away_score: int
    forfeited_by: str | None
    submitted_at: dt.datetime
    answered_at: dt.datetime | None
    dispute_note: str
    settled_at: dt.datetime | None
    settled_by: str | None


@dataclass(frozen=True)
class FixtureData:
    cycle: int
    round: int
    date: dt.date
    home: str
    away: str
    night: tuple[str, dt.date, str] | None  # (season, date, title) of a host club's night
    card: CardData | None


@dataclass
class LeagueDocument:
    league: LeagueSettings
    clubs: list[ClubEntry]
    people: list[PersonData]
    registers: list[RegisterData]
    transfers: list[TransferData]
    fixtures: list[FixtureData]
    host: document.Document
    host_raw: dict[str, Any] = field(repr=False, default_factory=dict)


@functools.cache
def league_schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(LEAGUE_SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def validator() -> Validator:
    """jsonschema's validator of the league schema, with the club file's formats and its rule
    that a whole number has no decimal point."""
    declared = jsonschema.validators.validator_for(league_schema())
    checked = jsonschema.validators.extend(
        declared, type_checker=declared.TYPE_CHECKER.redefine("integer", is_whole_number)
    )
    return checked(league_schema(), format_checker=FORMATS)


def _where(path: Any) -> str:
    """A schema error's place in the file's words: "fixtures 3, card, 'state'"."""
    parts = []
    for part in path:
        parts.append(str(part + 1) if isinstance(part, int) else repr(part))
    return ", ".join(parts)


def read(raw: bytes | str | Mapping[str, Any]) -> LeagueDocument:
    """The checked league file, or ImportRefused with every problem found."""
    value: Any = raw if isinstance(raw, Mapping) else document.parse_json(raw)
    if not isinstance(value, Mapping):
        raise ImportRefused(["This is not a league file: it is not a JSON object."])
    if value.get("format") != LEAGUE_FORMAT:
        said = shown(value.get("format"))
        raise ImportRefused(
            [f"This is not a league file: its format is {said}, not '{LEAGUE_FORMAT}'."]
        )
    if value.get("version") != LEAGUE_VERSION or isinstance(value.get("version"), bool):
        raise ImportRefused(
            [
                f"This file is version {shown(value.get('version'))} of the league file; "
                f"this app reads version {LEAGUE_VERSION}."
            ]
        )
    errors = sorted(validator().iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise ImportRefused(Problem(_where(e.absolute_path), e.message) for e in errors)
    return _Reader().read(dict(value))


def _moment(text: Any) -> dt.datetime | None:
    return parse_moment(text)


class _Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, where: str, message: str) -> None:
        self.problems.append(Problem(where, message))

    def read(self, value: dict[str, Any]) -> LeagueDocument:
        league = self.settings(value["league"])
        clubs = self.clubs(value["clubs"])
        slugs = {c.slug for c in clubs}
        host_raw = dict(value["host_club"])
        host = self.host(host_raw)
        seats = {name_key(p.name) for p in host.players} if host else set()
        people = self.people(value["people"], seats)
        known = {name_key(p.seat) for p in people}
        registers = self.registers(value["registers"], known, slugs)
        transfers = self.transfers(value["transfers"], known, slugs)
        nights = {(n.season, n.date, n.title) for n in host.nights} if host else set()
        fixtures = self.fixtures(value["fixtures"], slugs, nights)
        if self.problems or host is None:
            raise ImportRefused(self.problems)
        return LeagueDocument(league, clubs, people, registers, transfers, fixtures, host, host_raw)

    def settings(self, data: dict[str, Any]) -> LeagueSettings:
        settings = LeagueSettings(
            name=data["name"].strip(),
            slug=data["slug"],
            start=dt.date.fromisoformat(data["start"]),
            end=dt.date.fromisoformat(data["end"]),
            meetings=data["meetings"],
            points_win=data["points_win"],
            points_tie=data["points_tie"],
            points_loss=data["points_loss"],
            points_forfeit=data["points_forfeit"],
            players_a_side=data["players_a_side"],
            deals_a_match=data["deals_a_match"],
            tie_breaks=list(data["tie_breaks"]),
            public=data["public"],
        )
        if settings.end < settings.start:
            self.problem("league", f"it ends ({settings.end}) before it starts ({settings.start})")
        if not settings.points_win >= settings.points_tie >= settings.points_loss:
            self.problem("league", "a win must be worth at least a tie, and a tie at least a loss")
        return settings

    def clubs(self, items: list[dict[str, Any]]) -> list[ClubEntry]:
        clubs: list[ClubEntry] = []
        seen: set[str] = set()
        for data in items:
            where = f"club {data['slug']!r}"
            if data["slug"] in seen:
                self.problem(where, "is listed twice")
                continue
            seen.add(data["slug"])
            answered = _moment(data["answered_at"])
            if (answered is None) != (data["status"] == "invited"):
                self.problem(where, "'answered_at' is given when, and only when, it answered")
            clubs.append(ClubEntry(data["slug"], data.get("name", ""), data["status"], answered))
        return clubs

    def host(self, host_raw: dict[str, Any]) -> document.Document | None:
        try:
            return document.read(host_raw)
        except ImportRefused as refused:
            for p in refused.problems:
                self.problem(f"host_club, {p.where}" if p.where else "host_club", p.message)
            return None

    def people(self, items: list[dict[str, Any]], seats: set[str]) -> list[PersonData]:
        people: list[PersonData] = []
        seen: set[str] = set()
        for data in items:
            seat = normalise_name(data["seat"])
            where = f"person {seat!r}"
            if name_key(seat) in seen:
                self.problem(where, "is listed twice (a seat is one person's)")
                continue
            seen.add(name_key(seat))
            if name_key(seat) not in seats:
                self.problem(where, "'seat' is not a player of 'host_club'")
            people.append(PersonData(normalise_name(data["name"]), seat))
        return people

    def registers(
        self, items: list[dict[str, Any]], people: set[str], slugs: set[str]
    ) -> list[RegisterData]:
        registers: list[RegisterData] = []
        live_people: set[str] = set()
        live_players: set[tuple[str, str]] = set()
        for number, data in enumerate(items, 1):
            where = f"register {number} ({data['person']}, {data['club']})"
            person, player = normalise_name(data["person"]), normalise_name(data["player"])
            if name_key(person) not in people:
                self.problem(where, f"'person' {person!r} is not one of 'people'")
            if data["club"] not in slugs:
                self.problem(where, f"'club' {data['club']!r} is not one of 'clubs'")
            start = _moment(data["from"])
            until = _moment(data["until"])
            assert start is not None  # the schema's date-time
            if until is None:
                if name_key(person) in live_people:
                    self.problem(where, f"{person} has another live register (one club at a time)")
                if (data["club"], name_key(player)) in live_players:
                    self.problem(where, f"{player} of {data['club']} is registered twice")
                live_people.add(name_key(person))
                live_players.add((data["club"], name_key(player)))
            elif until < start:
                self.problem(where, "'until' is before 'from'")
            registers.append(RegisterData(person, data["club"], player, start, until, where))
        return registers

    def transfers(
        self, items: list[dict[str, Any]], people: set[str], slugs: set[str]
    ) -> list[TransferData]:
        transfers: list[TransferData] = []
        for number, data in enumerate(items, 1):
            where = f"transfer {number}"
            person = normalise_name(data["person"])
            if name_key(person) not in people:
                self.problem(where, f"'person' {person!r} is not one of 'people'")
            for key in ("from", "to"):
                if data[key] not in slugs:
                    self.problem(where, f"{key!r} {data[key]!r} is not one of 'clubs'")
            if data["from"] == data["to"]:
                self.problem(where, "is from a club to the same club")
            at = _moment(data["at"])
            assert at is not None
            transfers.append(TransferData(person, data["from"], data["to"], at, data["note"]))
        return transfers

    def fixtures(
        self,
        items: list[dict[str, Any]],
        slugs: set[str],
        nights: set[tuple[str, dt.date, str]],
    ) -> list[FixtureData]:
        fixtures: list[FixtureData] = []
        pairs: set[tuple[int, str, str]] = set()
        used: set[tuple[str, dt.date, str]] = set()
        for number, data in enumerate(items, 1):
            home, away = data["home"], data["away"]
            where = f"fixture {number} ({home} v {away}, {data['date']})"
            for key in ("home", "away"):
                if data[key] not in slugs:
                    self.problem(where, f"{key!r} {data[key]!r} is not one of 'clubs'")
            if home == away:
                self.problem(where, "a club cannot play itself")
            if (data["cycle"], home, away) in pairs:
                self.problem(where, "the same clubs meet so twice in one cycle")
            pairs.add((data["cycle"], home, away))
            night = None
            if data["night"] is not None:
                ref = data["night"]
                night = (ref["season"], dt.date.fromisoformat(ref["date"]), ref["title"].strip())
                if night not in nights:
                    self.problem(where, "'night' is not a night of 'host_club'")
                elif night in used:
                    self.problem(where, "'night' is another fixture's night")
                used.add(night)
            card = self.card(where, data["card"], home, away)
            fixtures.append(
                FixtureData(
                    data["cycle"],
                    data["round"],
                    dt.date.fromisoformat(data["date"]),
                    home,
                    away,
                    night,
                    card,
                )
            )
        return fixtures

    def card(
        self, where: str, data: dict[str, Any] | None, home: str, away: str
    ) -> CardData | None:
        if data is None:
            return None
        where = f"{where}, card"
        state = data["state"]
        if data["home_score"] != -data["away_score"]:
            self.problem(where, "the sides' scores do not sum to zero")
        forfeited = data["forfeited_by"]
        if state == "forfeit":
            if forfeited not in (home, away):
                self.problem(where, "a forfeit names the club that did not turn up, home or away")
            if data["home_score"]:
                self.problem(where, "a forfeit has no scores")
        elif forfeited is not None:
            self.problem(where, "'forfeited_by' is only for a forfeit")
        if state == "disputed" and not data["dispute_note"].strip():
            self.problem(where, "a disputed card says why in 'dispute_note'")
        submitted = _moment(data["submitted_at"])
        assert submitted is not None
        return CardData(
            state,
            data["home_score"],
            data["away_score"],
            forfeited,
            submitted,
            _moment(data["answered_at"]),
            data["dispute_note"],
            _moment(data["settled_at"]),
            data["settled_by"],
        )
