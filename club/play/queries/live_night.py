"""What the live night board reads: every table's progress (hands entered, the last hand), each
player's running net and the settle-up as it stands, and the night's revision for the board's
"nothing changed" answer.

A fixed number of queries whatever the number of tables and hands: the night summary's three
(tables with hand counts, their seats, the nets as one GROUP BY), the last hand of every table
(one), and the revision (one, alone when nothing changed).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db.models import Count, Max, OuterRef, Subquery

import scoring
from club.clubs.models import AuditEvent, RuleSet
from club.play.models import Hand, Night
from club.play.queries.night import NightSummary, TableSummary, night_summary
from club.play.queries.table_sheet import result_text


@dataclass(frozen=True)
class LastHand:
    hand: Hand
    result: str  # "Made, 2 over", ...

    @property
    def declaring(self) -> str:
        names = [p.name for p in (self.hand.declarer, self.hand.partner) if p is not None]
        return " & ".join(names)


@dataclass(frozen=True)
class TableProgress:
    summary: TableSummary
    last: LastHand | None
    unconfirmed: int


@dataclass(frozen=True)
class LiveBoard:
    summary: NightSummary
    tables: list[TableProgress]
    revision: str


def revision(night: Night) -> str:
    """Changes whenever anything on the board may have: every change to a night writes an audit
    event (hands, tables, closing), and the hands' count and latest change cover the rest. One
    query over indexed columns, so a poll that finds nothing new costs little."""
    hands = Hand.objects.filter(table__night=OuterRef("pk")).order_by().values("table__night")
    row = (
        Night.objects.filter(pk=night.pk)
        .annotate(
            last_event=Subquery(
                AuditEvent.objects.filter(night=OuterRef("pk")).order_by("-id").values("id")[:1]
            ),
            hand_count=Subquery(hands.annotate(n=Count("id")).values("n")),
            last_change=Subquery(hands.annotate(at=Max("updated_at")).values("at")),
        )
        .values_list("status", "last_event", "hand_count", "last_change")
        .first()
    )
    return hashlib.sha256(repr(row).encode()).hexdigest()[:16]


def _last_hands(night: Night) -> dict[int, Hand]:
    """The latest hand of every table of the night: one query."""
    latest = Hand.objects.filter(table=OuterRef("table")).order_by("-number").values("number")[:1]
    # Not the rule set: each row would decode its stakes again; live_board reads them once.
    hands = Hand.objects.filter(table__night=night, number=Subquery(latest)).select_related(
        "dealer", "declarer", "partner", "last_trick_by"
    )
    return {hand.table_id: hand for hand in hands}


def _unconfirmed(night: Night) -> dict[int, int]:
    rows = (
        Hand.objects.filter(table__night=night, awaiting_confirmation=True)
        .values("table")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {row["table"]: row["n"] for row in rows}


def live_board(night: Night, rev: str | None = None) -> LiveBoard:
    summary = night_summary(night)
    last = _last_hands(night)
    waiting = _unconfirmed(night)
    # A hand keeps the rules it was scored under: the season's, but for hands scored before a
    # change of the season's rule set (then one more query for those).
    season_rules = night.season.rule_set
    rules: dict[int, scoring.RuleSet] = {season_rules.pk: season_rules.rules}
    others = {h.rule_set_id for h in last.values()} - set(rules)
    if others:
        rules |= {pk: rs.rules for pk, rs in RuleSet.objects.in_bulk(others).items()}
    tables = []
    for table in summary.tables:
        hand = last.get(table.table.pk)
        progress = None
        if hand is not None:
            progress = LastHand(hand, result_text(hand, rules[hand.rule_set_id]))
        tables.append(TableProgress(table, progress, waiting.get(table.table.pk, 0)))
    return LiveBoard(summary, tables, rev if rev is not None else revision(night))
