"""Reading a club data file's nights, tables and hands into plain data, with no database.

The schema has checked every key's type and range; what is checked here needs the rest of the
file: the night's season (and that it contains the night), names seated at their table (matched
ignoring case, stored as the file's player list spells them), hands numbered 1, 2, 3..., table
numbers once a night, and who may sit out, revoke or hold the wrong cards at this table.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from club.interchange.format.record_data import NightRecord
from club.interchange.format.record_read import RecordReading
from club.interchange.format.schema_problems import Path, shown
from club.lib.names import name_key


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


class NightReading(RecordReading):
    """The nights' part of the reader (club.interchange.format.document), with each night's
    version-3
    record (publications, money owed, the tournament: club.interchange.format.record_read)."""

    # Each season of the file or of the club the file goes into: its first and last day.
    season_dates: dict[str, tuple[dt.date, dt.date]]

    def nights(self, value: dict[str, Any]) -> list[NightData]:
        nights: list[NightData] = []
        for path, data in self.records((), value, "nights"):
            fields = self.fields(path, data)
            date = self.date(fields, "date")
            title = self.text(path, fields, "title")
            season = self.text(path, fields, "season")
            closed = bool(fields.get("closed", False))
            dates = self.season_dates.get(season)
            if dates is None and season:
                self.problem(path, f"'season' {season!r} is not a season in the file")
            if date is not None and dates is not None and not dates[0] <= date <= dates[1]:
                self.problem(
                    path,
                    f"the season {season!r} runs from {dates[0]} to {dates[1]}, "
                    f"so it does not contain this night",
                )
            night = NightData(
                season,
                date or dt.date.min,
                title,
                closed,
                where=self.places.label(path),
                label=self.places.night(int(path[1])),
            )
            numbers: set[tuple[int | None, int]] = set()
            for table_path, table_data in self.records(path, data, "tables"):
                table = self.table(table_path, table_data)
                if table is None:
                    continue
                if (table.round, table.number) in numbers:
                    self.problem(table_path, "this table number appears twice")
                numbers.add((table.round, table.number))
                night.tables.append(table)
            if len({t.round is None for t in night.tables}) > 1:
                self.problem(
                    path, "either every table has a 'round' (a tournament) or none has one"
                )
            if self.version >= 3:
                night.record = self.night_record(path, data, closed)
            nights.append(night)
        return nights

    def name(self, path: Path, fields: dict[str, Any], key: str, seats: list[str]) -> str | None:
        """A player of this table named under `key`; None (with a problem) otherwise."""
        value = fields.get(key)
        if value is None:
            return None
        found = self.names.get(name_key(value))
        if found is None or found not in seats:
            self.problem(
                path, f"'{key}' {value!r} is not at this table (seats: {', '.join(seats)})"
            )
            return None
        return found

    def table(self, path: Path, data: dict[str, Any]) -> TableData | None:
        fields = self.fields(path, data)
        number = fields.get("number")
        seats_given = fields.get("seats")
        if not isinstance(seats_given, list):
            return None  # missing or refused: the schema says so
        seats: list[str] = []
        for name in seats_given:
            found = self.names.get(name_key(name))
            if found is None:
                self.problem(path, f"the seat {name!r} is not one of the file's players")
            elif found in seats:
                self.problem(path, f"{found} is seated twice")
            else:
                seats.append(found)
        if len(seats) != len(seats_given) or number is None:
            return None
        first = 0
        if fields.get("first_dealer") is not None:
            dealer = self.name(path, fields, "first_dealer", seats)
            first = seats.index(dealer) if dealer else 0
        table = TableData(
            number,
            fields.get("round"),
            seats,
            first,
            where=self.places.label(path),
            label=self.places.table(int(path[1]), int(path[3])),
        )
        for hand_path, hand_data in self.records(path, data, "hands"):
            hand = self.hand(hand_path, hand_data, table)
            if hand is not None:
                table.hands.append(hand)
        return table

    def hand(self, path: Path, data: dict[str, Any], table: TableData) -> HandData | None:
        fields = self.fields(path, data)
        expected = int(path[-1]) + 1
        number = fields.get("number")
        if number is not None:
            if number in table.numbers:
                self.problem(path, f"hand number {number} is repeated: hand {expected} comes here")
            elif number != expected:
                self.problem(
                    path, f"hand number {number} is out of order: hand {expected} comes here"
                )
            table.numbers.add(number)
        seats = table.seats
        dealer = self.name(path, fields, "dealer", seats)
        if dealer is None and fields.get("dealer") is None:
            dealer = seats[(table.first_dealer + expected - 1) % len(seats)]
        sitting_out = self.name(path, fields, "sitting_out", seats)
        if sitting_out is not None and len(seats) != 5:
            self.problem(path, "only a table of 5 has a player sitting out")
        contract = fields.get("contract")
        notes = self.text(path, fields, "notes")
        amounts = self.amounts(path, fields.get("amounts"), seats)
        names = {
            key: self.name(path, fields, key, seats)
            for key in ("declarer", "partner", "revoke_by", "last_trick_by", "penalty_by")
        }
        revokes = self.revokes(path, fields, seats, names["revoke_by"])
        wrong_cards = self.wrong_cards(path, fields, seats)
        if dealer is None or number is None or contract is None:
            return None
        return HandData(
            number=number,
            dealer=dealer,
            sitting_out=sitting_out,
            contract=contract,
            declarer=names["declarer"],
            partner=names["partner"],
            trump=fields.get("trump") or "",
            tricks=fields.get("tricks"),
            revokes=revokes,
            last_trick_by=names["last_trick_by"],
            notes=notes,
            amounts=amounts,
            where=self.places.label(path),
            penalty=fields.get("penalty") or "",
            penalty_by=names["penalty_by"],
            turned_suit=fields.get("turned_suit") or "",
            wrong_cards=wrong_cards,
            awaiting_confirmation=bool(fields.get("awaiting_confirmation", False)),
        )

    def wrong_cards(self, path: Path, fields: dict[str, Any], seats: list[str]) -> list[str]:
        """Who held the wrong number of cards: names at the table, each once."""
        value = fields.get("wrong_cards")
        if not value:
            return []
        if len(value) > len(seats):
            self.problem(path, "'wrong_cards' must list who held the wrong number of cards")
            return []
        found: list[str] = []
        for name in value:
            player = self.names.get(name_key(name))
            if player is None or player not in seats:
                self.problem(
                    path,
                    f"'wrong_cards' names {shown(name)}, who is not at this table "
                    f"(seats: {', '.join(seats)})",
                )
            elif player in found:
                self.problem(path, f"'wrong_cards' names {shown(name)} twice")
            else:
                found.append(player)
        return found

    def revokes(
        self, path: Path, fields: dict[str, Any], seats: list[str], one: str | None
    ) -> list[str]:
        """Every revoke: version 2's list, or the one `revoke_by` names (the schema refuses a
        hand giving both)."""
        value = fields.get("revokes")
        if value is None:
            return [one] if one is not None else []
        found = []
        for name in value:
            player = self.names.get(name_key(name))
            if player is None or player not in seats:
                self.problem(
                    path,
                    f"'revokes' names {shown(name)}, who is not at this table "
                    f"(seats: {', '.join(seats)})",
                )
                continue
            found.append(player)
        return found

    def amounts(self, path: Path, value: Any, seats: list[str]) -> dict[str, int] | None:
        if value is None:
            return None
        amounts: dict[str, int] = {}
        for name, amount in value.items():
            found = self.names.get(name_key(name))
            if found is None or found not in seats:
                self.problem(path, f"'amounts' names {name!r}, who is not at this table")
                continue
            amounts[found] = amount
        return amounts
