"""What the night page reads: its tables, each player's net and the settle-up, and the audit trail.

Each is a fixed number of queries whatever the number of hands: the nets are one GROUP BY over the
score lines (which carry their night), never a walk through hands in Python.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, QuerySet, Sum

import scoring
from club.clubs.models import AuditEvent, Club, Player
from club.play.models import Night, ScoreLine, Seat, Table


@dataclass(frozen=True)
class TableSummary:
    table: Table
    players: list[Player]  # in seat order
    hands: int

    @property
    def first_dealer(self) -> Player | None:
        if not self.players:
            return None
        return self.players[self.table.first_dealer % len(self.players)]


@dataclass(frozen=True)
class PlayerNet:
    player_id: int
    name: str
    net: int
    table: int | None  # the table number the player sat at


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class NightSummary:
    tables: list[TableSummary]
    nets: list[PlayerNet]  # biggest winner first
    # The fewest payments that settle the night; None when the nets do not sum to zero, which is
    # the case for winner-only points, where nothing changes hands.
    payments: list[Payment] | None
    hands: int = 0
    players: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", len(self.nets))


def night_tables(night: Night) -> list[TableSummary]:
    """The tables with their seated players and hand counts: two queries."""
    tables = (
        Table.objects.filter(night=night)
        .annotate(hand_count=Count("hands"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("round_number", "number")
    )
    return [TableSummary(t, [s.player for s in t.seats.all()], t.hand_count) for t in tables]


def night_nets(night: Night) -> dict[int, tuple[str, int]]:
    """player id -> (name, net) over the night's score lines: one aggregate query."""
    rows = (
        ScoreLine.objects.filter(night=night)
        .values("player", "player__name")
        .annotate(net=Sum("amount"))
        .order_by()
    )
    return {row["player"]: (row["player__name"], row["net"]) for row in rows}


def settle(nets: list[PlayerNet]) -> list[Payment] | None:
    """The scoring core's settle-up over the nets, by name; None when they do not balance."""
    if sum(n.net for n in nets) != 0:
        return None
    # Keyed by name (unique in a club), not by id: the same nets settle the same way in a club
    # restored from its backup, whose players have new ids.
    return [
        Payment(payer, payee, amount)
        for payer, payee, amount in scoring.settle_up({n.name: n.net for n in nets})
    ]


def night_summary(night: Night) -> NightSummary:
    """Tables, nets (every seated player, 0 for those with no score yet) and the settle-up."""
    tables = night_tables(night)
    totals = night_nets(night)
    seated: dict[int, tuple[str, int]] = {}
    for summary in tables:
        for player in summary.players:
            seated.setdefault(player.pk, (player.name, summary.table.number))
    nets = [
        PlayerNet(pk, name, totals.get(pk, ("", 0))[1], number)
        for pk, (name, number) in seated.items()
    ]
    # Anyone scored at the night but no longer seated (a seat changed) still counts.
    nets += [
        PlayerNet(pk, name, net, None) for pk, (name, net) in totals.items() if pk not in seated
    ]
    nets.sort(key=lambda n: (-n.net, n.name.lower()))
    return NightSummary(
        tables=tables,
        nets=nets,
        payments=settle(nets),
        hands=sum(t.hands for t in tables),
    )


# The audit trail ---------------------------------------------------------------------------

FIELD_LABELS = {
    "table": "Table",
    "number": "Hand",
    "dealer": "Dealer",
    "contract": "Contract",
    "declarer": "Declarer",
    "partner": "Partner",
    "tricks": "Tricks",
    "revokes": "Revokes",
    "penalty": "Penalty",
    "penalty_by": "Penalty by",
    "turned_suit": "Suit turned up",
    "outcome": "Outcome",
    "last_trick_by": "Last trick by",
    "trump": "Trumps",
    "notes": "Notes",
}
CONTRACT_NAMES = {c.value: c.display_name for c in scoring.Contract} | {
    scoring.ALL_PASSED: "All passed",
    scoring.MISDEAL: "Cards wrongly dealt",
}
TRUMP_NAMES = {t.value: t.display_name for t in scoring.Trump}
PENALTY_NAMES = {p.value: p.display_name for p in scoring.Penalty}


@dataclass(frozen=True)
class Change:
    label: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class AuditRow:
    at: dt.datetime
    who: str
    action: str  # "entered", "edited", ...
    subject: str
    changes: list[Change]


def _readable(key: str, value: Any) -> str | None:
    if value is None or value == "":
        return None
    if key == "contract":
        return CONTRACT_NAMES.get(value, str(value))
    if key in ("trump", "turned_suit"):
        return TRUMP_NAMES.get(value, str(value))
    if key == "revokes":
        return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
    if key == "penalty":
        return PENALTY_NAMES.get(value, str(value))
    if key == "outcome":
        return None if value in ("played", "all_passed") else str(value)  # said by the contract
    return str(value)


def describe_changes(club: Club, before: Any, after: Any) -> list[Change]:
    """The fields an audit event changed, readable: names, contract names, money in the club's
    unit. An entry lists what was entered, a deletion what was deleted, an edit only what moved."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    editing = bool(before) and bool(after)
    changes: list[Change] = []
    for key in dict.fromkeys([*before, *after]):
        if key == "amounts":
            continue
        old, new = _readable(key, before.get(key)), _readable(key, after.get(key))
        if old == new and (editing or old is None):
            continue
        if not editing and key in ("table", "number"):
            continue  # the subject ("Table 2, hand 7") says it already
        label = FIELD_LABELS.get(key, key.replace("_", " ").capitalize())
        if editing:
            old, new = old or "—", new or "—"
        changes.append(Change(label, old, new))
    old_amounts = before.get("amounts") or {}
    new_amounts = after.get("amounts") or {}
    for name in dict.fromkeys([*old_amounts, *new_amounts]):
        old_amount, new_amount = old_amounts.get(name), new_amounts.get(name)
        if editing and old_amount == new_amount:
            continue
        old, new = (
            None if amount is None else club.format_amount(amount, signed=True)
            for amount in (old_amount, new_amount)
        )
        if editing:
            old, new = old or "—", new or "—"
        changes.append(Change(name, old, new))
    return changes


def audit_who(event: AuditEvent) -> str:
    """The member by name, or for a change made through a table's link "Table 2's link", with
    the name the person gave their phone: "Table 2's link (Ann's phone)"."""
    if event.link_label:
        device = f" ({event.device})" if event.device else ""
        return f"{event.link_label}{device}"
    if event.user is None:
        return "A deleted user"
    return event.user.get_username()


def audit_trail(night: Night, club: Club) -> list[AuditRow]:
    """Who entered, edited, deleted, closed or reopened what and when, newest first: one query."""
    events = AuditEvent.objects.filter(night=night).select_related("user").order_by("-at", "-id")
    return [
        AuditRow(
            at=event.at,
            who=audit_who(event),
            action=event.get_action_display(),
            subject=event.subject,
            changes=describe_changes(club, event.before, event.after),
        )
        for event in events
    ]


def club_nights(club: Club) -> QuerySet[Any]:  # Nights with their counts
    """The club's nights, newest first, with their table and hand counts (one query a page)."""
    return (
        Night.objects.filter(season__club=club)
        .select_related("season")
        .annotate(
            table_count=Count("tables", distinct=True),
            hand_count=Count("tables__hands", distinct=True),
        )
        .order_by("-date", "-id")
    )
