"""Reading version 3's rest of a club's record, with no database: the club's settings, accounts
(members and the people the record names), pending invitations, players' addresses, each
night's publications, money owed and what settled it, nettings, arrivals, table cards and the
audit trail.

Everything refers to people by name: players by their name in the file, accounts by their user
name. The schema has checked every key's type, range and pattern; what is checked here is every
reference against the file (a payment names a debt of its night, a debt two of the file's
players, a member has an email, a `by` names one of the file's accounts), numbering and sums
(nothing settles more than its debt), and what one record says against another of its own keys.
Problems are collected with where they are, as for the hands (club.interchange.format.night_read).

`RecordReading` is a part of the document's reader (club.interchange.format.document).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from club.interchange import SHAREABLE
from club.interchange.format.reading import Reading
from club.interchange.format.record_data import (
    AccountData,
    ArrivalData,
    AuditData,
    CardData,
    DebtData,
    DeliveryData,
    EntryData,
    InvitationData,
    NettingData,
    NightRecord,
    PlayerRecord,
    PublicationData,
    Record,
    SettlementData,
    TournamentData,
)
from club.interchange.format.schema_problems import Path
from club.lib.names import name_key

# The club's settings, by their file key (the Club field of the same name). Their types and
# ranges are the schema's; the time zone is checked against the zones this server knows.
CLUB_SETTINGS = (
    "currency_symbol",
    "minor_units",
    "points_label",
    "confirm_table_hands",
    "correction_minutes",
    "players_may_claim",
    "projector_embed_origins",
    "scorers_add_players",
    "first_card_opens_night",
    "door_check_in",
    "odd_tables",
    "time_zone",
    "door_salt",
)
TEXT_SETTINGS = ("currency_symbol", "points_label", "projector_embed_origins", "door_salt")


class RecordReading(Reading):
    """The version-3 part of the reader (club.interchange.format.document)."""

    account_names: set[str]
    netting_refs: list[tuple[int, Path]]
    pending_record: Record

    # Names ---------------------------------------------------------------------------------------

    def player_named(self, path: Path, fields: dict[str, Any], key: str) -> str | None:
        """One of the file's players; None when missing (the schema says so) or not one."""
        value = fields.get(key)
        if value is None:
            return None
        found = self.names.get(name_key(value))
        if found is None:
            self.problem(path, f"'{key}' {value!r} is not one of the file's players")
        return found

    def account_named(self, path: Path, fields: dict[str, Any], key: str) -> str | None:
        """A `by` or `user`: one of the file's accounts, or null."""
        value = fields.get(key)
        if value is None:
            return None
        if value not in self.account_names:
            self.problem(path, f"'{key}' {value!r} is not one of the file's accounts")
            return None
        return str(value)

    # The club -----------------------------------------------------------------------------------

    def club_settings(
        self, path: Path, data: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        fields = self.fields(path, data)
        settings: dict[str, Any] = {}
        for key in CLUB_SETTINGS:
            if key not in fields:
                continue
            if key in TEXT_SETTINGS:
                settings[key] = self.text(path, fields, key)
            elif key == "time_zone":
                zone = fields[key]
                if zone not in zoneinfo.available_timezones():
                    self.problem(path, f"'time_zone' {zone!r} is not a time zone this server knows")
                else:
                    settings[key] = zone
            else:
                settings[key] = fields[key]
        grading: dict[str, Any] | None = None
        found = self.record(path, data, "grading")
        if found is not None:
            values = self.fields(*found)
            grading = {
                "enabled": values.get("enabled", True),
                "ladder_by_grade": values.get("ladder_by_grade", False),
            }
            if "min_hands" in values:
                grading["min_hands"] = values["min_hands"]
        return settings, grading

    # Accounts and invitations -------------------------------------------------------------------

    def accounts(self, value: dict[str, Any]) -> list[AccountData]:
        accounts: list[AccountData] = []
        for path, data in self.records((), value, "accounts"):
            fields = self.fields(path, data)
            username = self.text(path, fields, "username")
            email = self.text(path, fields, "email")
            role = fields.get("role")
            if role is not None and not email:
                self.problem(
                    path,
                    "a member needs an email: a restored member sets a password through the "
                    "reset email",
                )
            if not username:
                continue
            if username in self.account_names:
                self.problem(path, "is listed twice")
                continue
            self.account_names.add(username)
            accounts.append(AccountData(username, email, role))
        return accounts

    def invitations(
        self, value: dict[str, Any], accounts: list[AccountData]
    ) -> list[InvitationData]:
        emails = {a.username: a.email for a in accounts}
        invitations: list[InvitationData] = []
        seen: set[str] = set()
        for path, data in self.records((), value, "invitations"):
            fields = self.fields(path, data)
            username = self.account_named(path, fields, "username")
            invited_by = self.account_named(path, fields, "invited_by")
            created_at = self.moment(fields, "created_at")
            if username is None or created_at is None:
                continue
            where = f"invitation of {username!r}"
            if not emails.get(username):
                self.problem(path, "an invited account needs an email", where)
            if username in seen:
                self.problem(path, "is listed twice (one open invitation an account)", where)
                continue
            seen.add(username)
            role = fields.get("role", "viewer")
            invitations.append(InvitationData(username, role, invited_by, created_at))
        return invitations

    # Players and seasons ------------------------------------------------------------------------

    def player_record(self, path: Path, fields: dict[str, Any]) -> PlayerRecord:
        return PlayerRecord(
            email=self.text(path, fields, "email"),
            email_results=fields.get("email_results", True),
            account=self.account_named(path, fields, "account"),
            public_grade=fields.get("public_grade", True),
        )

    @staticmethod
    def season_record(fields: dict[str, Any]) -> dict[str, Any]:
        return {
            key: fields[key]
            for key in ("standings_method", "min_nights", "best_nights")
            if key in fields
        }

    # Nights -------------------------------------------------------------------------------------

    def night_record(self, path: Path, data: dict[str, Any], closed: bool) -> NightRecord:
        fields = self.fields(path, data)
        record = NightRecord(
            counts_in_standings=fields.get("counts_in_standings", True),
            closed_at=self.moment(fields, "closed_at"),
            closed_by=self.account_named(path, fields, "closed_by"),
            publish_after=self.moment(fields, "publish_after"),
            published_at=self.moment(fields, "published_at"),
        )
        if record.published_at is not None and not closed:
            self.problem(path, "'published_at' is given, but the night is not closed")
        tournament = self.record(path, data, "tournament")
        if tournament is not None:
            record.tournament = self.tournament(*tournament)
        for at, value in self.records(path, data, "publications"):
            publication = self.publication(at, value)
            if publication is not None:
                record.publications.append(publication)
        if record.publications and not closed:
            self.problem(path, "it has publications, but the night is not closed")
        debts = data.get("debts")
        # Every debt number the file gives, so a refused debt's payments are not refused again.
        numbers = {
            d["number"]
            for d in (debts if isinstance(debts, list) else [])
            if isinstance(d, dict) and isinstance(d.get("number"), int)
        }
        for at, value in self.records(path, data, "debts"):
            debt = self.debt(at, value)
            if debt is not None:
                record.debts.append(debt)
        owed = {d.number: d.amount for d in record.debts}
        for at, value in self.records(path, data, "settlements"):
            settlement = self.settlement(at, value, numbers)
            if settlement is None:
                continue
            record.settlements.append(settlement)
            if settlement.undone_at is None and settlement.debt in owed:
                owed[settlement.debt] -= settlement.amount
                if owed[settlement.debt] < 0:
                    self.problem(at, f"debt {settlement.debt} is settled for more than it was")
                    owed[settlement.debt] = 0
        return record

    def tournament(self, path: Path, data: dict[str, Any]) -> TournamentData:
        fields = self.fields(path, data)
        rounds = fields.get("rounds", 1)
        current = fields.get("current_round", 0)
        status = fields.get("status", "setup")
        if "rounds" in fields and "current_round" in fields and current > rounds:
            self.problem(path, f"'current_round' {current} is past its {rounds} rounds")
        if (
            "status" in fields
            and "current_round" in fields
            and (status == "setup") != (current == 0)
        ):
            self.problem(path, "a tournament is in 'setup' exactly while 'current_round' is 0")
        entries: list[EntryData] = []
        seen: set[str] = set()
        for at, value in self.records(path, data, "entries"):
            entry = self.fields(at, value)
            player = self.player_named(at, entry, "player")
            joined = entry.get("joined_round", 1)
            withdrawn = entry.get("withdrawn_after_round")
            if withdrawn is not None and withdrawn < joined:
                self.problem(
                    at, f"'withdrawn_after_round' is {withdrawn}: it must be from {joined} to 30"
                )
                withdrawn = None
            if player is None:
                continue
            if player in seen:
                self.problem(at, f"{player} is entered twice")
                continue
            seen.add(player)
            entries.append(EntryData(player, joined, withdrawn))
        return TournamentData(
            name=self.text(path, fields, "name"),
            rounds=rounds,
            hands_per_round=fields.get("hands_per_round", 1),
            scoring_method=fields.get("scoring_method", "amounts"),
            public=fields.get("public", False),
            seed=fields.get("seed", 0),
            current_round=current,
            status=status,
            extra_hands_allowed=fields.get("extra_hands_allowed", False),
            planned_max_meetings=fields.get("planned_max_meetings"),
            director=self.account_named(path, fields, "director"),
            entries=entries,
        )

    def publication(self, path: Path, data: dict[str, Any]) -> PublicationData | None:
        fields = self.fields(path, data)
        expected = int(path[-1]) + 1
        number = fields.get("number")
        if number is not None and number != expected:
            self.problem(path, f"publication number {number}: publication {expected} comes here")
        at = self.moment(fields, "at")
        by = self.account_named(path, fields, "by")
        deliveries: list[DeliveryData] = []
        seen: set[str] = set()
        for there, value in self.records(path, data, "deliveries"):
            row = self.fields(there, value)
            player = self.player_named(there, row, "player")
            status = row.get("status", "pending")
            sent_at = self.moment(row, "sent_at")
            if sent_at is not None and "status" in row and status != "sent":
                self.problem(there, "'sent_at' is given, but the email was not sent")
            delivery = DeliveryData(
                player=player or "",
                email=self.text(there, row, "email"),
                status=status,
                attempts=row.get("attempts", 0),
                error=self.text(there, row, "error"),
                next_attempt_at=self.moment(row, "next_attempt_at"),
                sent_at=sent_at,
            )
            if player is None:
                continue
            if player in seen:
                self.problem(there, f"{player} has two deliveries of one publication")
                continue
            seen.add(player)
            deliveries.append(delivery)
        if number is None or at is None:
            return None
        return PublicationData(number, at, by, deliveries)

    def debt(self, path: Path, data: dict[str, Any]) -> DebtData | None:
        fields = self.fields(path, data)
        expected = int(path[-1]) + 1
        number = fields.get("number")
        if number is not None and number != expected:
            self.problem(path, f"debt number {number}: debt {expected} comes here")
        payer = self.player_named(path, fields, "payer")
        payee = self.player_named(path, fields, "payee")
        if payer is not None and payer == payee:
            self.problem(path, f"{payer} cannot owe themselves")
        amount = fields.get("amount")
        created_at = self.moment(fields, "created_at")
        if (
            number is None
            or payer is None
            or payee is None
            or amount is None
            or created_at is None
            or payer == payee
        ):
            return None
        return DebtData(number, payer, payee, amount, created_at)

    def settlement(
        self, path: Path, data: dict[str, Any], debts: set[int]
    ) -> SettlementData | None:
        fields = self.fields(path, data)
        debt = fields.get("debt")
        if debt is not None and debt not in debts:
            self.problem(path, f"'debt' {debt} is not one of this night's debts")
            debt = None
        kind = fields.get("kind")  # None: missing or refused, and said so by the schema
        amount = fields.get("amount")
        at = self.moment(fields, "at")
        netting = fields.get("netting")
        if netting is not None:
            if kind is not None and kind != "netted":
                self.problem(path, "only a 'netted' settlement names a netting")
            else:
                self.netting_refs.append((netting, path))
        elif kind == "netted" and (*path, "netting") not in self.structure.tainted:
            self.problem(path, "a 'netted' settlement names its 'netting'")
        undone_at = self.moment(fields, "undone_at")
        if undone_at is not None and kind is not None and kind != "paid":
            self.problem(path, "only a payment ('paid') can be undone")
        settlement = SettlementData(
            debt=debt or 0,
            kind=kind or "paid",
            amount=amount or 0,
            at=at or dt.datetime.min.replace(tzinfo=dt.UTC),
            by=self.account_named(path, fields, "by"),
            note=self.text(path, fields, "note"),
            via=self.text(path, fields, "via"),
            netting=netting,
            undone_at=undone_at,
            undone_by=self.account_named(path, fields, "undone_by"),
        )
        if debt is None or amount is None or at is None:
            return None
        return settlement

    # The club's other records -------------------------------------------------------------------

    def nettings(self, value: dict[str, Any]) -> list[NettingData]:
        nettings: list[NettingData] = []
        for path, data in self.records((), value, "nettings"):
            fields = self.fields(path, data)
            expected = int(path[-1]) + 1
            number = fields.get("number")
            if number is not None and number != expected:
                self.problem(path, f"netting number {number}: netting {expected} comes here")
            at = self.moment(fields, "at")
            amount = fields.get("amount")
            by = self.account_named(path, fields, "by")
            if number is None or at is None or amount is None:
                continue
            nettings.append(NettingData(number, at, by, amount))
        known = {n.number for n in nettings}
        for number, where in self.netting_refs:
            if number not in known:
                self.problem(where, f"'netting' {number} is not one of the file's nettings")
        return nettings

    def arrivals(self, value: dict[str, Any]) -> list[ArrivalData]:
        arrivals: list[ArrivalData] = []
        seen: set[tuple[dt.date, str]] = set()
        for path, data in self.records((), value, "arrivals"):
            fields = self.fields(path, data)
            date = self.date(fields, "date")
            player = self.player_named(path, fields, "player")
            arrived_at = self.moment(fields, "arrived_at")
            if date is None or player is None or arrived_at is None:
                continue
            if (date, player) in seen:
                self.problem(path, f"{player} arrives twice on {date}")
                continue
            seen.add((date, player))
            arrivals.append(ArrivalData(date, player, arrived_at, fields.get("via", "secretary")))
        return arrivals

    def table_cards(self, value: dict[str, Any]) -> list[CardData]:
        cards: list[CardData] = []
        live: set[int] = set()
        hashes: set[str] = set()
        for path, data in self.records((), value, "table_cards"):
            fields = self.fields(path, data)
            number = fields.get("number")
            issued_at = self.moment(fields, "issued_at")
            revoked_at = self.moment(fields, "revoked_at")
            token_hash = fields.get("token_hash")
            if token_hash is not None and token_hash in hashes:
                self.problem(path, "this card's token hash is another card's too")
            salt = self.text(path, fields, "salt")
            if issued_at and revoked_at and revoked_at < issued_at:
                self.problem(path, "it is revoked before it was issued")
            if number is not None and revoked_at is None:
                if number in live:
                    self.problem(path, f"two live cards have the number {number}")
                live.add(number)
            if number is None or issued_at is None or token_hash is None:
                continue
            hashes.add(token_hash)
            cards.append(
                CardData(
                    number=number,
                    label=self.text(path, fields, "label") or f"Table {number}",
                    issued_at=issued_at,
                    issued_by=self.account_named(path, fields, "issued_by"),
                    revoked_at=revoked_at,
                    revoked_by=self.account_named(path, fields, "revoked_by"),
                    salt=salt,
                    token_hash=token_hash,
                )
            )
        return cards

    def audit(
        self, value: dict[str, Any], nights: set[tuple[str, dt.date, str]]
    ) -> list[AuditData]:
        events: list[AuditData] = []
        for path, data in self.records((), value, "audit"):
            fields = self.fields(path, data)
            at = self.moment(fields, "at")
            night = None
            found = self.record(path, data, "night")
            if found is not None:
                ref = self.fields(*found)
                date = self.date(ref, "date")
                key = (ref.get("season"), date, ref.get("title"))
                if None in key:
                    pass  # a part missing or refused: the schema says so
                elif key not in nights:
                    season, _, title = key
                    self.problem(path, f"'night' {season!r} {date} {title!r} is not in the file")
                else:
                    night = key
            event = AuditData(
                at=at or dt.datetime.min.replace(tzinfo=dt.UTC),
                action=fields.get("action", "update"),
                subject=self.text(path, fields, "subject"),
                night=night,
                night_label=self.text(path, fields, "night_label"),
                user=self.account_named(path, fields, "user"),
                device=self.text(path, fields, "device"),
                link_label=self.text(path, fields, "link_label"),
                before=fields.get("before"),
                after=fields.get("after"),
            )
            if at is not None:
                events.append(event)
        return events

    # The whole of it ----------------------------------------------------------------------------

    def record_parts(self, value: dict[str, Any], nights: set[tuple[str, dt.date, str]]) -> Record:
        """The file's top-level version-3 parts (accounts are read first, by `start_record`)."""
        record = self.pending_record
        record.nettings = self.nettings(value)
        if "arrivals" in value:
            record.arrivals = self.arrivals(value)
        if "table_cards" in value:
            record.table_cards = self.table_cards(value)
        if "audit" in value:
            record.audit = self.audit(value, nights)
        if record.kind == SHAREABLE:
            kept = [
                key for key in ("accounts", "invitations", "table_cards", "audit") if value.get(key)
            ]
            if kept:
                self.problem(
                    (),
                    f"a shareable file holds no {', '.join(kept)}: make it a backup "
                    '("kind": "backup")',
                )
        return record

    def start_record(self, value: dict[str, Any]) -> None:
        """The kind and the accounts, which everything after them may name."""
        self.account_names = set()
        self.netting_refs = []
        record = Record(kind=self.fields((), value).get("kind", SHAREABLE))
        if "accounts" in value:
            record.accounts = self.accounts(value)
        if "invitations" in value:
            record.invitations = self.invitations(value, record.accounts or [])
        self.pending_record = record
