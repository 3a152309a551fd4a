"""Version 3's rest of a club's record as plain data, read from a file (club.interchange.
record_read) and written to the database (club.interchange.services.record_write): accounts,
invitations,
tournaments, publications and their emails, money owed and what settled it, nettings, arrivals,
table cards and the audit trail. People are named as the file names them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from club.interchange import BACKUP, SHAREABLE


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
