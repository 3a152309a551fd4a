"""Reading version 3's rest of a club's record, with no database: the club's settings, accounts
(members and the people the record names), pending invitations, players' addresses, each
night's publications, money owed and what settled it, nettings, arrivals, table cards and the
audit trail.

Everything refers to people by name: players by their name in the file, accounts by their user
name. Every reference is checked against the file (a payment names a debt of its night, a debt
two of the file's players, a member has an email, a `by` names one of the file's accounts), and
problems are collected with where they are, as for the hands (club.interchange.format.document).

`RecordReading` is a mixin of the document's reader: it uses the reader's type checks
(`obj`, `text`, `integer`, ...) and its player names.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from club.interchange import BACKUP, KINDS, SHAREABLE
from club.lib.names import name_key

ROLES = ("secretary", "scorer", "viewer")
SETTLEMENT_KINDS = ("paid", "netted", "voided")
DELIVERY_STATUSES = ("pending", "sending", "sent", "failed")
ARRIVAL_VIAS = ("secretary", "door")
AUDIT_ACTIONS = ("create", "update", "delete", "close", "reopen", "confirm", "issue", "revoke")
STANDINGS_METHODS = ("net", "points", "average")
TOURNAMENT_STATUSES = ("setup", "running", "finished")
TOURNAMENT_METHODS = ("amounts", "table_rank")
ODD_TABLES = ("5", "3")
USERNAME = re.compile(r"^[\w.@+-]+$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")

TOP_KEYS_V3 = (
    "kind",
    "accounts",
    "invitations",
    "nettings",
    "arrivals",
    "table_cards",
    "audit",
)
# The club's settings, by their file key: (model field, kind of value).
CLUB_SETTINGS: dict[str, tuple[str, str]] = {
    "currency_symbol": ("currency_symbol", "text:4"),
    "minor_units": ("minor_units", "int:1:1000000"),
    "points_label": ("points_label", "text:12"),
    "confirm_table_hands": ("confirm_table_hands", "bool"),
    "correction_minutes": ("correction_minutes", "int:0:32767"),
    "players_may_claim": ("players_may_claim", "bool"),
    "projector_embed_origins": ("projector_embed_origins", "text:300"),
    "scorers_add_players": ("scorers_add_players", "bool"),
    "first_card_opens_night": ("first_card_opens_night", "bool"),
    "door_check_in": ("door_check_in", "bool"),
    "odd_tables": ("odd_tables", "odd"),
    "time_zone": ("time_zone", "zone"),
    "door_salt": ("door_salt", "text:40"),
}
GRADING_KEYS = ("enabled", "min_hands", "ladder_by_grade")
CLUB_KEYS_V3 = (*CLUB_SETTINGS, "grading")
PLAYER_KEYS_V3 = ("email", "email_results", "account", "public_grade")
SEASON_KEYS_V3 = ("standings_method", "min_nights", "best_nights")
NIGHT_KEYS_V3 = (
    "counts_in_standings",
    "closed_at",
    "closed_by",
    "publish_after",
    "published_at",
    "tournament",
    "publications",
    "debts",
    "settlements",
)
ACCOUNT_KEYS = ("username", "email", "role")
INVITATION_KEYS = ("username", "role", "invited_by", "created_at")
TOURNAMENT_KEYS = (
    "name",
    "rounds",
    "hands_per_round",
    "scoring_method",
    "public",
    "seed",
    "current_round",
    "status",
    "extra_hands_allowed",
    "planned_max_meetings",
    "director",
    "entries",
)
ENTRY_KEYS = ("player", "joined_round", "withdrawn_after_round")
PUBLICATION_KEYS = ("number", "at", "by", "deliveries")
DELIVERY_KEYS = ("player", "email", "status", "attempts", "error", "next_attempt_at", "sent_at")
DEBT_KEYS = ("number", "payer", "payee", "amount", "created_at")
SETTLEMENT_KEYS = (
    "debt",
    "kind",
    "amount",
    "at",
    "by",
    "note",
    "via",
    "netting",
    "undone_at",
    "undone_by",
)
NETTING_KEYS = ("number", "at", "by", "amount")
ARRIVAL_KEYS = ("date", "player", "arrived_at", "via")
CARD_KEYS = (
    "number",
    "label",
    "issued_at",
    "issued_by",
    "revoked_at",
    "revoked_by",
    "salt",
    "token_hash",
)
AUDIT_KEYS = (
    "at",
    "action",
    "subject",
    "night",
    "night_label",
    "user",
    "device",
    "link_label",
    "before",
    "after",
)
NIGHT_REF_KEYS = ("season", "date", "title")


@dataclass
class AccountData:
    username: str
    email: str
    role: str | None  # None: named by the record, not a member


@dataclass
class InvitationData:
    username: str
    role: str
    invited_by: str | None
    created_at: dt.datetime


@dataclass
class EntryData:
    player: str
    joined_round: int
    withdrawn_after_round: int | None


@dataclass
class TournamentData:
    name: str
    rounds: int
    hands_per_round: int
    scoring_method: str
    public: bool
    seed: int
    current_round: int
    status: str
    extra_hands_allowed: bool
    planned_max_meetings: int | None
    director: str | None
    entries: list[EntryData]


@dataclass
class DeliveryData:
    player: str
    email: str
    status: str
    attempts: int
    error: str
    next_attempt_at: dt.datetime | None
    sent_at: dt.datetime | None


@dataclass
class PublicationData:
    number: int
    at: dt.datetime
    by: str | None
    deliveries: list[DeliveryData]


@dataclass
class DebtData:
    number: int
    payer: str
    payee: str
    amount: int
    created_at: dt.datetime


@dataclass
class SettlementData:
    debt: int
    kind: str
    amount: int
    at: dt.datetime
    by: str | None
    note: str
    via: str
    netting: int | None
    undone_at: dt.datetime | None
    undone_by: str | None


@dataclass
class NightRecord:
    counts_in_standings: bool = True
    closed_at: dt.datetime | None = None
    closed_by: str | None = None
    publish_after: dt.datetime | None = None
    published_at: dt.datetime | None = None
    tournament: TournamentData | None = None
    publications: list[PublicationData] = field(default_factory=list)
    debts: list[DebtData] = field(default_factory=list)
    settlements: list[SettlementData] = field(default_factory=list)


@dataclass
class PlayerRecord:
    email: str = ""
    email_results: bool = True
    account: str | None = None
    public_grade: bool = True


@dataclass
class NettingData:
    number: int
    at: dt.datetime
    by: str | None
    amount: int


@dataclass
class ArrivalData:
    date: dt.date
    player: str
    arrived_at: dt.datetime
    via: str


@dataclass
class CardData:
    number: int
    label: str
    issued_at: dt.datetime
    issued_by: str | None
    revoked_at: dt.datetime | None
    revoked_by: str | None
    salt: str
    token_hash: str


@dataclass
class AuditData:
    at: dt.datetime
    action: str
    subject: str
    night: tuple[str, dt.date, str] | None  # (season, date, title)
    night_label: str
    user: str | None
    device: str
    link_label: str
    before: Any
    after: Any


@dataclass
class Record:
    """What version 3 adds beside the hands; None fields are not in the file (then an import
    leaves that part as the app's defaults or as the club has it)."""

    kind: str = SHAREABLE
    settings: dict[str, Any] = field(default_factory=dict)  # Club field -> value
    grading: dict[str, Any] | None = None
    accounts: list[AccountData] | None = None
    invitations: list[InvitationData] | None = None
    nettings: list[NettingData] = field(default_factory=list)
    arrivals: list[ArrivalData] | None = None
    table_cards: list[CardData] | None = None
    audit: list[AuditData] | None = None

    @property
    def is_backup(self) -> bool:
        return self.kind == BACKUP


def parse_moment(value: Any) -> dt.datetime | None:
    """A moment as the file writes it (ISO 8601 with its offset, `Z` for UTC)."""
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(dt.UTC)


class RecordReading:
    """The version-3 part of the reader (club.interchange.format.document._Reader)."""

    problems: list[Any]
    names: dict[str, str]

    # Provided by the reader.
    def problem(self, where: str, message: str) -> None:
        raise NotImplementedError

    def obj(self, value: Any, where: str, keys: tuple[str, ...], required: tuple[str, ...]) -> Any:
        raise NotImplementedError

    def text(
        self, data: dict[str, Any], key: str, where: str, *, max_length: int, blank: bool = False
    ) -> str:
        raise NotImplementedError

    def boolean(self, data: dict[str, Any], key: str, where: str, default: bool) -> bool:
        raise NotImplementedError

    def integer(
        self, data: dict[str, Any], key: str, where: str, *, low: int, high: int | None = None
    ) -> int | None:
        raise NotImplementedError

    def date(self, data: dict[str, Any], key: str, where: str) -> dt.date | None:
        raise NotImplementedError

    def array(self, value: Any, where: str, key: str) -> list[Any]:
        raise NotImplementedError

    # Values -------------------------------------------------------------------------------------

    def moment(
        self, data: dict[str, Any], key: str, where: str, *, required: bool = False
    ) -> dt.datetime | None:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(where, f"the key '{key}' is missing")
            return None
        moment = parse_moment(value)
        if moment is None:
            self.problem(
                where,
                f"'{key}' must be a moment written 2026-11-20T21:40:00Z (with its offset), "
                f"not {value!r}"[:200],
            )
        return moment

    def player_named(self, data: dict[str, Any], key: str, where: str) -> str | None:
        value = data.get(key)
        found = self.names.get(name_key(value)) if isinstance(value, str) else None
        if found is None:
            self.problem(where, f"'{key}' {value!r} is not one of the file's players")
        return found

    def account_named(self, data: dict[str, Any], key: str, where: str) -> str | None:
        """A `by` or `user`: one of the file's accounts, or null."""
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or value not in self.account_names:
            self.problem(where, f"'{key}' {value!r} is not one of the file's accounts")
            return None
        return value

    def choice_of(
        self, data: dict[str, Any], key: str, where: str, keys: tuple[str, ...], default: str
    ) -> str:
        value = data.get(key, default)
        if value not in keys:
            self.problem(
                where, f"'{key}' {value!r} is not one of {', '.join(repr(k) for k in keys)}"
            )
            return default
        return value

    # The club -----------------------------------------------------------------------------------

    def club_settings(self, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
        where = "club"
        settings: dict[str, Any] = {}
        for key, (attribute, kind) in CLUB_SETTINGS.items():
            if key not in data:
                continue
            if kind == "bool":
                settings[attribute] = self.boolean(data, key, where, False)
            elif kind.startswith("text:"):
                settings[attribute] = self.text(
                    data, key, where, max_length=int(kind[5:]), blank=True
                )
            elif kind.startswith("int:"):
                _, low, high = kind.split(":")
                number = self.integer(data, key, where, low=int(low), high=int(high))
                if number is not None:
                    settings[attribute] = number
            elif kind == "odd":
                settings[attribute] = self.choice_of(data, key, where, ODD_TABLES, "5")
            elif kind == "zone":
                import zoneinfo

                zone = data.get(key)
                if not isinstance(zone, str) or zone not in zoneinfo.available_timezones():
                    self.problem(
                        where, f"'time_zone' {zone!r} is not a time zone this server knows"
                    )
                else:
                    settings[attribute] = zone
        grading: dict[str, Any] | None = None
        if "grading" in data:
            at = "club, grading"
            value = self.obj(data["grading"], at, GRADING_KEYS, ())
            if isinstance(value, dict):
                grading = {
                    "enabled": self.boolean(value, "enabled", at, True),
                    "ladder_by_grade": self.boolean(value, "ladder_by_grade", at, False),
                }
                if "min_hands" in value:
                    min_hands = self.integer(value, "min_hands", at, low=1, high=10_000)
                    if min_hands is not None:
                        grading["min_hands"] = min_hands
        return settings, grading

    # Accounts and invitations -------------------------------------------------------------------

    def accounts(self, values: list[Any]) -> list[AccountData]:
        accounts: list[AccountData] = []
        for i, value in enumerate(values, start=1):
            where = f"account {i}"
            data = self.obj(value, where, ACCOUNT_KEYS, ("username",))
            if not isinstance(data, dict):
                continue
            username = self.text(data, "username", where, max_length=150)
            if username:
                where = f"account {username!r}"
                if not USERNAME.match(username):
                    self.problem(where, "a user name holds only letters, digits and @ . + - _")
                    continue
            email = self.text(data, "email", where, max_length=254, blank=True)
            if email and not EMAIL.match(email):
                self.problem(where, f"'email' {email!r} is not an email address")
            role = data.get("role")
            if role is not None and role not in ROLES:
                self.problem(where, f"'role' {role!r} is not one of {', '.join(ROLES)} or null")
                role = None
            if role is not None and not email:
                self.problem(
                    where,
                    "a member needs an email: a restored member sets a password through the "
                    "reset email",
                )
            if not username:
                continue
            if username in self.account_names:
                self.problem(where, "is listed twice")
                continue
            self.account_names.add(username)
            accounts.append(AccountData(username, email, role))
        return accounts

    def invitations(self, values: list[Any], accounts: list[AccountData]) -> list[InvitationData]:
        emails = {a.username: a.email for a in accounts}
        invitations: list[InvitationData] = []
        seen: set[str] = set()
        for i, value in enumerate(values, start=1):
            where = f"invitation {i}"
            data = self.obj(value, where, INVITATION_KEYS, ("username", "role", "created_at"))
            if not isinstance(data, dict):
                continue
            username = self.account_named(data, "username", where)
            role = self.choice_of(data, "role", where, ROLES, "viewer")
            invited_by = self.account_named(data, "invited_by", where)
            created_at = self.moment(data, "created_at", where, required=True)
            if username is None or created_at is None:
                continue
            where = f"invitation of {username!r}"
            if not emails.get(username):
                self.problem(where, "an invited account needs an email")
            if username in seen:
                self.problem(where, "is listed twice (one open invitation an account)")
                continue
            seen.add(username)
            invitations.append(InvitationData(username, role, invited_by, created_at))
        return invitations

    # Players and seasons ------------------------------------------------------------------------

    def player_record(self, data: dict[str, Any], where: str) -> PlayerRecord:
        email = self.text(data, "email", where, max_length=254, blank=True)
        if email and not EMAIL.match(email):
            self.problem(where, f"'email' {email!r} is not an email address")
        return PlayerRecord(
            email=email,
            email_results=self.boolean(data, "email_results", where, True),
            account=self.account_named(data, "account", where),
            public_grade=self.boolean(data, "public_grade", where, True),
        )

    def season_record(self, data: dict[str, Any], where: str) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if "standings_method" in data:
            found["standings_method"] = self.choice_of(
                data, "standings_method", where, STANDINGS_METHODS, "net"
            )
        if "min_nights" in data:
            found["min_nights"] = self.integer(data, "min_nights", where, low=0, high=32767) or 0
        if data.get("best_nights") is not None:
            found["best_nights"] = self.integer(data, "best_nights", where, low=1, high=32767)
        elif "best_nights" in data:
            found["best_nights"] = None
        return found

    # Nights -------------------------------------------------------------------------------------

    def night_record(
        self, data: dict[str, Any], where: str, closed: bool, seats: set[str]
    ) -> NightRecord:
        record = NightRecord(
            counts_in_standings=self.boolean(data, "counts_in_standings", where, True),
            closed_at=self.moment(data, "closed_at", where),
            closed_by=self.account_named(data, "closed_by", where),
            publish_after=self.moment(data, "publish_after", where),
            published_at=self.moment(data, "published_at", where),
        )
        if record.published_at is not None and not closed:
            self.problem(where, "'published_at' is given, but the night is not closed")
        if data.get("tournament") is not None:
            record.tournament = self.tournament(data["tournament"], f"{where}, tournament", seats)
        for i, value in enumerate(self.array(data.get("publications"), where, "publications")):
            publication = self.publication(value, f"{where}, publication {i + 1}", i + 1)
            if publication is not None:
                record.publications.append(publication)
        if record.publications and not closed:
            self.problem(where, "it has publications, but the night is not closed")
        debts = self.array(data.get("debts"), where, "debts")
        # Every debt number the file gives, so a refused debt's payments are not refused again.
        numbers = {
            d["number"] for d in debts if isinstance(d, dict) and isinstance(d.get("number"), int)
        }
        for i, value in enumerate(debts):
            debt = self.debt(value, f"{where}, debt {i + 1}", i + 1)
            if debt is not None:
                record.debts.append(debt)
        owed = {d.number: d.amount for d in record.debts}
        for i, value in enumerate(self.array(data.get("settlements"), where, "settlements")):
            settlement = self.settlement(value, f"{where}, settlement {i + 1}", numbers)
            if settlement is None:
                continue
            record.settlements.append(settlement)
            if settlement.undone_at is None and settlement.debt in owed:
                owed[settlement.debt] -= settlement.amount
                if owed[settlement.debt] < 0:
                    self.problem(
                        f"{where}, settlement {i + 1}",
                        f"debt {settlement.debt} is settled for more than it was",
                    )
                    owed[settlement.debt] = 0
        return record

    def tournament(self, value: Any, where: str, seats: set[str]) -> TournamentData | None:
        data = self.obj(
            value,
            where,
            TOURNAMENT_KEYS,
            ("name", "rounds", "hands_per_round", "status", "current_round"),
        )
        if not isinstance(data, dict):
            return None
        rounds = self.integer(data, "rounds", where, low=1, high=30) or 1
        current = self.integer(data, "current_round", where, low=0, high=30) or 0
        status = self.choice_of(data, "status", where, TOURNAMENT_STATUSES, "setup")
        if current > rounds:
            self.problem(where, f"'current_round' {current} is past its {rounds} rounds")
        if (status == "setup") != (current == 0):
            self.problem(where, "a tournament is in 'setup' exactly while 'current_round' is 0")
        entries: list[EntryData] = []
        seen: set[str] = set()
        for i, entry_value in enumerate(self.array(data.get("entries"), where, "entries")):
            at = f"{where}, entry {i + 1}"
            entry = self.obj(entry_value, at, ENTRY_KEYS, ("player",))
            if not isinstance(entry, dict):
                continue
            player = self.player_named(entry, "player", at)
            joined = self.integer(entry, "joined_round", at, low=1, high=30) or 1
            withdrawn = None
            if entry.get("withdrawn_after_round") is not None:
                withdrawn = self.integer(entry, "withdrawn_after_round", at, low=joined, high=30)
            if player is None:
                continue
            if player in seen:
                self.problem(at, f"{player} is entered twice")
                continue
            seen.add(player)
            entries.append(EntryData(player, joined, withdrawn))
        return TournamentData(
            name=self.text(data, "name", where, max_length=80),
            rounds=rounds,
            hands_per_round=self.integer(data, "hands_per_round", where, low=1, high=60) or 1,
            scoring_method=self.choice_of(
                data, "scoring_method", where, TOURNAMENT_METHODS, "amounts"
            ),
            public=self.boolean(data, "public", where, False),
            seed=self.integer(data, "seed", where, low=0, high=2**31 - 1) or 0,
            current_round=current,
            status=status,
            extra_hands_allowed=self.boolean(data, "extra_hands_allowed", where, False),
            planned_max_meetings=self.integer(data, "planned_max_meetings", where, low=0, high=999),
            director=self.account_named(data, "director", where),
            entries=entries,
        )

    def publication(self, value: Any, where: str, expected: int) -> PublicationData | None:
        data = self.obj(value, where, PUBLICATION_KEYS, ("number", "at"))
        if not isinstance(data, dict):
            return None
        number = self.integer(data, "number", where, low=1, high=32767)
        if number is not None and number != expected:
            self.problem(where, f"publication number {number}: publication {expected} comes here")
        at = self.moment(data, "at", where, required=True)
        by = self.account_named(data, "by", where)
        deliveries: list[DeliveryData] = []
        seen: set[str] = set()
        for i, item in enumerate(self.array(data.get("deliveries"), where, "deliveries")):
            there = f"{where}, delivery {i + 1}"
            row = self.obj(item, there, DELIVERY_KEYS, ("player", "status"))
            if not isinstance(row, dict):
                continue
            player = self.player_named(row, "player", there)
            status = self.choice_of(row, "status", there, DELIVERY_STATUSES, "pending")
            sent_at = self.moment(row, "sent_at", there)
            if sent_at is not None and status != "sent":
                self.problem(there, "'sent_at' is given, but the email was not sent")
            delivery = DeliveryData(
                player=player or "",
                email=self.text(row, "email", there, max_length=254, blank=True),
                status=status,
                attempts=self.integer(row, "attempts", there, low=0, high=32767) or 0,
                error=self.text(row, "error", there, max_length=300, blank=True),
                next_attempt_at=self.moment(row, "next_attempt_at", there),
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

    def debt(self, value: Any, where: str, expected: int) -> DebtData | None:
        data = self.obj(value, where, DEBT_KEYS, DEBT_KEYS)
        if not isinstance(data, dict):
            return None
        number = self.integer(data, "number", where, low=1, high=2**31 - 1)
        if number is not None and number != expected:
            self.problem(where, f"debt number {number}: debt {expected} comes here")
        payer = self.player_named(data, "payer", where)
        payee = self.player_named(data, "payee", where)
        if payer is not None and payer == payee:
            self.problem(where, f"{payer} cannot owe themselves")
        amount = self.integer(data, "amount", where, low=1, high=2**31 - 1)
        created_at = self.moment(data, "created_at", where, required=True)
        if None in (number, payer, payee, amount, created_at) or payer == payee:
            return None
        return DebtData(number, payer, payee, amount, created_at)  # type: ignore[arg-type]

    def settlement(self, value: Any, where: str, debts: set[int]) -> SettlementData | None:
        data = self.obj(value, where, SETTLEMENT_KEYS, ("debt", "kind", "amount", "at"))
        if not isinstance(data, dict):
            return None
        debt = self.integer(data, "debt", where, low=1, high=2**31 - 1)
        if debt is not None and debt not in debts:
            self.problem(where, f"'debt' {debt} is not one of this night's debts")
            debt = None
        kind = self.choice_of(data, "kind", where, SETTLEMENT_KINDS, "paid")
        amount = self.integer(data, "amount", where, low=1, high=2**31 - 1)
        at = self.moment(data, "at", where, required=True)
        netting = None
        if data.get("netting") is not None:
            netting = self.integer(data, "netting", where, low=1, high=2**31 - 1)
            if kind != "netted":
                self.problem(where, "only a 'netted' settlement names a netting")
            elif netting is not None:
                self.netting_refs.append((netting, where))
        elif kind == "netted":
            self.problem(where, "a 'netted' settlement names its 'netting'")
        undone_at = self.moment(data, "undone_at", where)
        if undone_at is not None and kind != "paid":
            self.problem(where, "only a payment ('paid') can be undone")
        settlement = SettlementData(
            debt=debt or 0,
            kind=kind,
            amount=amount or 0,
            at=at or dt.datetime.min.replace(tzinfo=dt.UTC),
            by=self.account_named(data, "by", where),
            note=self.text(data, "note", where, max_length=120, blank=True),
            via=self.text(data, "via", where, max_length=120, blank=True),
            netting=netting,
            undone_at=undone_at,
            undone_by=self.account_named(data, "undone_by", where),
        )
        if debt is None or amount is None or at is None:
            return None
        return settlement

    # The club's other records -------------------------------------------------------------------

    def nettings(self, values: list[Any]) -> list[NettingData]:
        nettings: list[NettingData] = []
        for i, value in enumerate(values, start=1):
            where = f"netting {i}"
            data = self.obj(value, where, NETTING_KEYS, ("number", "at", "amount"))
            if not isinstance(data, dict):
                continue
            number = self.integer(data, "number", where, low=1, high=2**31 - 1)
            if number is not None and number != i:
                self.problem(where, f"netting number {number}: netting {i} comes here")
            at = self.moment(data, "at", where, required=True)
            amount = self.integer(data, "amount", where, low=1, high=2**31 - 1)
            by = self.account_named(data, "by", where)
            if number is None or at is None or amount is None:
                continue
            nettings.append(NettingData(number, at, by, amount))
        known = {n.number for n in nettings}
        for number, where in self.netting_refs:
            if number not in known:
                self.problem(where, f"'netting' {number} is not one of the file's nettings")
        return nettings

    def arrivals(self, values: list[Any]) -> list[ArrivalData]:
        arrivals: list[ArrivalData] = []
        seen: set[tuple[dt.date, str]] = set()
        for i, value in enumerate(values, start=1):
            where = f"arrival {i}"
            data = self.obj(value, where, ARRIVAL_KEYS, ("date", "player", "arrived_at"))
            if not isinstance(data, dict):
                continue
            date = self.date(data, "date", where)
            player = self.player_named(data, "player", where)
            arrived_at = self.moment(data, "arrived_at", where, required=True)
            via = self.choice_of(data, "via", where, ARRIVAL_VIAS, "secretary")
            if date is None or player is None or arrived_at is None:
                continue
            if (date, player) in seen:
                self.problem(where, f"{player} arrives twice on {date}")
                continue
            seen.add((date, player))
            arrivals.append(ArrivalData(date, player, arrived_at, via))
        return arrivals

    def table_cards(self, values: list[Any]) -> list[CardData]:
        cards: list[CardData] = []
        live: set[int] = set()
        hashes: set[str] = set()
        for i, value in enumerate(values, start=1):
            where = f"table card {i}"
            data = self.obj(value, where, CARD_KEYS, ("number", "issued_at", "salt", "token_hash"))
            if not isinstance(data, dict):
                continue
            number = self.integer(data, "number", where, low=1, high=32767)
            issued_at = self.moment(data, "issued_at", where, required=True)
            revoked_at = self.moment(data, "revoked_at", where)
            token_hash = data.get("token_hash")
            if not isinstance(token_hash, str) or not HEX64.match(token_hash):
                self.problem(where, "'token_hash' must be the token's SHA-256, 64 hex digits")
                token_hash = None
            elif token_hash in hashes:
                self.problem(where, "this card's token hash is another card's too")
            salt = self.text(data, "salt", where, max_length=40)
            if issued_at and revoked_at and revoked_at < issued_at:
                self.problem(where, "it is revoked before it was issued")
            if number is not None and revoked_at is None:
                if number in live:
                    self.problem(where, f"two live cards have the number {number}")
                live.add(number)
            if number is None or issued_at is None or token_hash is None:
                continue
            hashes.add(token_hash)
            cards.append(
                CardData(
                    number=number,
                    label=self.text(data, "label", where, max_length=40, blank=True)
                    or f"Table {number}",
                    issued_at=issued_at,
                    issued_by=self.account_named(data, "issued_by", where),
                    revoked_at=revoked_at,
                    revoked_by=self.account_named(data, "revoked_by", where),
                    salt=salt,
                    token_hash=token_hash,
                )
            )
        return cards

    def audit(self, values: list[Any], nights: set[tuple[str, dt.date, str]]) -> list[AuditData]:
        events: list[AuditData] = []
        for i, value in enumerate(values, start=1):
            where = f"audit event {i}"
            data = self.obj(value, where, AUDIT_KEYS, ("at", "action", "subject"))
            if not isinstance(data, dict):
                continue
            at = self.moment(data, "at", where, required=True)
            action = self.choice_of(data, "action", where, AUDIT_ACTIONS, "update")
            night = None
            if data.get("night") is not None:
                ref = self.obj(data["night"], f"{where}, night", NIGHT_REF_KEYS, NIGHT_REF_KEYS)
                if isinstance(ref, dict):
                    date = self.date(ref, "date", f"{where}, night")
                    season = ref.get("season")
                    title = ref.get("title")
                    key = (season, date, title)
                    if key not in nights:
                        self.problem(
                            where, f"'night' {season!r} {date} {title!r} is not in the file"
                        )
                    else:
                        night = key
            event = AuditData(
                at=at or dt.datetime.min.replace(tzinfo=dt.UTC),
                action=action,
                subject=self.text(data, "subject", where, max_length=120, blank=True),
                night=night,
                night_label=self.text(data, "night_label", where, max_length=160, blank=True),
                user=self.account_named(data, "user", where),
                device=self.text(data, "device", where, max_length=40, blank=True),
                link_label=self.text(data, "link_label", where, max_length=40, blank=True),
                before=data.get("before"),
                after=data.get("after"),
            )
            if at is not None:
                events.append(event)
        return events

    # The whole of it ----------------------------------------------------------------------------

    def record(self, value: dict[str, Any], nights: set[tuple[str, dt.date, str]]) -> Record:
        """The file's top-level version-3 parts (accounts are read first, by `start_record`)."""
        record = self.pending_record
        record.nettings = self.nettings(self.array(value.get("nettings"), "file", "nettings"))
        if "arrivals" in value:
            record.arrivals = self.arrivals(self.array(value["arrivals"], "file", "arrivals"))
        if "table_cards" in value:
            record.table_cards = self.table_cards(
                self.array(value["table_cards"], "file", "table_cards")
            )
        if "audit" in value:
            record.audit = self.audit(self.array(value["audit"], "file", "audit"), nights)
        if record.kind == SHAREABLE:
            kept = [
                key for key in ("accounts", "invitations", "table_cards", "audit") if value.get(key)
            ]
            if kept:
                self.problem(
                    "file",
                    f"a shareable file holds no {', '.join(kept)}: make it a backup "
                    '("kind": "backup")',
                )
        return record

    def start_record(self, value: dict[str, Any]) -> None:
        """The kind and the accounts, which everything after them may name."""
        kind = value.get("kind", SHAREABLE)
        if kind not in KINDS:
            self.problem("file", f"'kind' {kind!r} is not one of {', '.join(KINDS)}")
            kind = SHAREABLE
        self.account_names: set[str] = set()
        self.netting_refs: list[tuple[int, str]] = []
        record = Record(kind=kind)
        if "accounts" in value:
            record.accounts = self.accounts(self.array(value["accounts"], "file", "accounts"))
        if "invitations" in value:
            record.invitations = self.invitations(
                self.array(value["invitations"], "file", "invitations"), record.accounts or []
            )
        self.pending_record = record
