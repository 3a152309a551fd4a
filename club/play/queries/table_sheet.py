"""What the table page reads: the seats, one row per hand with each player's amount and running
total, and the totals at the foot, like the paper sheet it replaces.

A fixed number of queries whatever the number of hands: the seats (one, skipped when already
prefetched), the hands with every player they name (one), their revokes (one), this table's score
lines (one, grouped by hand in Python) and the totals per player (one SQL aggregate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Sum, prefetch_related_objects

import scoring
from club.clubs.models import Player
from club.lib.names import short_names
from club.play.models import Hand, Revoke, ScoreLine, Seat, Table
from club.play.models.hands import NO_CONTRACT
from club.play.queries.rulings import rulings_text
from club.play.queries.wrong_cards import wrong_card_names


@dataclass(frozen=True)
class Cell:
    """One player's figure on one hand: None when they sat the hand out."""

    amount: int | None
    running: int  # their total after this hand

    @property
    def sat_out(self) -> bool:
        return self.amount is None


@dataclass(frozen=True)
class SheetRow:
    hand: Hand
    cells: list[Cell]  # one per seat, in seat order
    result: str  # "Made, 2 over", "Failed, 1 under", "All passed: redeal", ...
    rulings: str = ""  # "Revokes: Ann and Cat", "Bob exposed a card: the stakes are claimed"
    # The table's short names by player id (seat_shorts): narrow columns name players by them.
    shorts: Mapping[int, str] = field(default_factory=dict)

    @property
    def contract(self) -> str:
        return self.hand.get_contract_display()

    @property
    def trump(self) -> scoring.Trump | None:
        return scoring.Trump(self.hand.trump) if self.hand.trump else None

    @property
    def declaring(self) -> str:
        """Who played the contract: "Bob", or "Bob & Cat" for Prop & Cop; blank when all passed."""
        names = [p.name for p in (self.hand.declarer, self.hand.partner) if p is not None]
        return " & ".join(names)

    @property
    def declaring_short(self) -> str:
        """The same by short names ("Christopher & Alexandra")."""
        players = (self.hand.declarer, self.hand.partner)
        return " & ".join(self.shorts.get(p.pk, p.name) for p in players if p is not None)

    @property
    def dealer_short(self) -> str:
        return self.shorts.get(self.hand.dealer_id, self.hand.dealer.name)


def seat_shorts(seats: Sequence[Player]) -> dict[int, str]:
    """Each seated player's short name, one a reader can tell from the others at the table."""
    return dict(zip((p.pk for p in seats), short_names([p.name for p in seats]), strict=True))


@dataclass(frozen=True)
class TableSheet:
    seats: list[Player]  # in seat order
    rows: list[SheetRow]
    totals: list[int]  # one per seat, from the SQL aggregate
    count: int | None = None  # the hands at the table, when `rows` holds only some of them

    @property
    def hand_count(self) -> int:
        return len(self.rows) if self.count is None else self.count

    @property
    def columns(self) -> list[tuple[Player, str]]:
        """(player, short name) in seat order: the sheet's column headings."""
        shorts = seat_shorts(self.seats)
        return [(p, shorts[p.pk]) for p in self.seats]

    @property
    def seat_totals(self) -> list[tuple[Player, int]]:
        """(player, total) in seat order: the compact sheet names each total in its bar."""
        return list(zip(self.seats, self.totals, strict=True))


def attach_seats(table: Table, seats: list[Seat]) -> Table:
    """Keep seats read elsewhere (in seat order, with their players) as the table's prefetched
    `seats`, as prefetch_seats would have."""
    queryset: Any = table.seats.all()
    queryset._result_cache = seats
    queryset._prefetch_done = True
    if not hasattr(table, "_prefetched_objects_cache"):
        table._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    table._prefetched_objects_cache["seats"] = queryset  # type: ignore[attr-defined]
    return table


def prefetch_seats(table: Table) -> Table:
    """Load the table's seats and their players once (the hand service reads them from here)."""
    if "seats" not in getattr(table, "_prefetched_objects_cache", {}):
        prefetch_related_objects(
            [table], Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
    return table


def result_text(hand: Hand, rules: scoring.RuleSet) -> str:
    """The result as the sheet writes it, in the scoring core's words."""
    played = hand.contract not in NO_CONTRACT
    result = scoring.Result(
        contract=scoring.Contract(hand.contract) if played else None,
        made=bool(hand.made),
        over_tricks=hand.over_tricks,
        under_tricks=hand.under_tricks,
        amounts={},
        all_passed=rules.all_passed,
        # No "(revoke)" or "(penalty)" here: the rulings beside the result name who and what.
        outcome=scoring.Outcome(hand.outcome),
        wrong_cards=bool(hand.wrong_cards),
    )
    text = result.summary
    if hand.outcome == scoring.Outcome.PLAYED and played:
        text += _revoke_tricks(hand, rules)
    if hand.last_trick_by is not None:
        text += f": {hand.last_trick_by.name} took the last trick"
    return text


def _revoke_tricks(hand: Hand, rules: scoring.RuleSet) -> str:
    """ " (3 tricks from the revoke)": the tricks a revoke moved, which the result counts but the
    tricks taken do not show (none against a misère, which a revoke wins at once)."""
    cached = getattr(hand, "_prefetched_objects_cache", {}).get("revokes")
    revokers = (
        [r.player_id for r in cached]
        if cached is not None
        else [p.pk for p in getattr(hand, "_revoke_players", ())]
    )
    if not revokers or hand.tricks is None or hand.penalty:
        return ""
    if scoring.Contract(hand.contract).target == 0:
        return ""
    moved = rules.revoke_tricks * len(revokers)
    revoke = "revokes" if len(revokers) > 1 else "revoke"
    if {hand.declarer_id, hand.partner_id} & set(revokers):
        lost = hand.tricks - max(0, hand.tricks - moved)
        return f" ({lost} trick{'s' if lost != 1 else ''} lost for the {revoke})" if lost else ""
    gained = min(13, hand.tricks + moved) - hand.tricks
    return f" ({gained} trick{'s' if gained != 1 else ''} from the {revoke})" if gained else ""


def _revokers(hand: Hand) -> list[str]:
    """The names of the hand's revokes, in the order found: from the revokes prefetched with the
    hands (REVOKES), never a query of their own."""
    cached = getattr(hand, "_prefetched_objects_cache", {}).get("revokes")
    return [] if cached is None else [r.player.name for r in cached]


def hand_rulings(hand: Hand) -> str:
    """The hand's rulings in words: its revokes and any penalty against a misère."""
    return rulings_text(
        _revokers(hand),
        hand.penalty,
        hand.penalty_by.name if hand.penalty_by else None,
        wrong_card_names(hand),
    )


REVOKES = Prefetch("revokes", queryset=Revoke.objects.select_related("player"))
HAND_PLAYERS = (
    "rule_set",
    "dealer",
    "sitting_out",
    "declarer",
    "partner",
    "penalty_by",
    "last_trick_by",
)


def table_sheet(table: Table) -> TableSheet:
    return table_sheets([table])[table.pk]


def table_sheets(tables: Sequence[Table]) -> dict[int, TableSheet]:
    """The sheets of several tables (a night's, for its printed sheet) in the same three queries
    as one table's, plus one for the seats of tables not already prefetched."""
    missing = [t for t in tables if "seats" not in getattr(t, "_prefetched_objects_cache", {})]
    if missing:
        prefetch_related_objects(
            missing, Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
    hands_by_table: dict[int, list[Hand]] = {t.pk: [] for t in tables}
    hands = (
        Hand.objects.filter(table__in=[t.pk for t in tables])
        .select_related(*HAND_PLAYERS)
        .prefetch_related(REVOKES)
    )
    for hand in hands.order_by("table_id", "number"):
        hands_by_table[hand.table_id].append(hand)
    lines: dict[int, dict[int, int]] = {}
    for hand_id, player_id, line_amount in ScoreLine.objects.filter(
        hand__table__in=[t.pk for t in tables]
    ).values_list("hand_id", "player_id", "amount"):
        lines.setdefault(hand_id, {})[player_id] = line_amount
    sums: dict[tuple[int, int], int] = {
        (table_id, player_id): total
        for table_id, player_id, total in ScoreLine.objects.filter(
            hand__table__in=[t.pk for t in tables]
        )
        .values("hand__table_id", "player_id")
        .annotate(total=Sum("amount"))
        .order_by()
        .values_list("hand__table_id", "player_id", "total")
    }
    # Players who moved to another table tonight keep their column for the hands they played
    # here (after the seats, by id): one more query, only when someone moved.
    moved: dict[int, list[int]] = {}
    for table in tables:
        seated = {seat.player_id for seat in table.seats.all()}
        gone = sorted({pid for (tid, pid) in sums if tid == table.pk and pid not in seated})
        if gone:
            moved[table.pk] = gone
    movers = Player.objects.in_bulk([pid for gone in moved.values() for pid in gone])
    rules_by_id: dict[int, scoring.RuleSet] = {}
    sheets = {}
    for table in tables:
        seats = [seat.player for seat in table.seats.all()]
        seats += [movers[pid] for pid in moved.get(table.pk, [])]
        shorts = seat_shorts(seats)
        running = dict.fromkeys((p.pk for p in seats), 0)
        rows = []
        for hand in hands_by_table[table.pk]:
            hand.table = table  # as table.hands would: no query when a template reads it
            if hand.rule_set_id not in rules_by_id:
                rules_by_id[hand.rule_set_id] = hand.rule_set.rules
            rules = rules_by_id[hand.rule_set_id]
            amounts = lines.get(hand.pk, {})
            cells = []
            for player in seats:
                amount = amounts.get(player.pk)
                running[player.pk] += amount or 0
                cells.append(Cell(amount=amount, running=running[player.pk]))
            rows.append(
                SheetRow(
                    hand=hand,
                    cells=cells,
                    result=result_text(hand, rules),
                    rulings=hand_rulings(hand),
                    shorts=shorts,
                )
            )
        totals = [sums.get((table.pk, p.pk), 0) for p in seats]
        sheets[table.pk] = TableSheet(seats=seats, rows=rows, totals=totals)
    return sheets


def saved_row(
    table: Table, hand: Hand, amounts: dict[int, int], totals: dict[int, int]
) -> SheetRow:
    """The row of a hand just appended at the table, from what was written (its amounts by
    player id) and the totals after it, which are its running totals: no query."""
    cells = []
    seats = table.seats.all()
    for seat in seats:
        amount = amounts.get(seat.player_id)
        cells.append(Cell(amount=amount, running=totals.get(seat.player_id, 0)))
    seated = {seat.player_id for seat in seats}
    for pid in sorted(pid for pid in totals if pid not in seated):  # moved to another table
        cells.append(Cell(amount=None, running=totals[pid]))
    revokers = [p.name for p in getattr(hand, "_revoke_players", ())]
    penalty_by = hand.penalty_by.name if hand.penalty_by else None
    return SheetRow(
        hand=hand,
        cells=cells,
        result=result_text(hand, hand.rule_set.rules),
        rulings=rulings_text(revokers, hand.penalty, penalty_by, wrong_card_names(hand)),
        shorts=seat_shorts([seat.player for seat in seats]),
    )


def table_totals(table: Table) -> dict[int, int]:
    """Each player's total at the table (player id -> total): one aggregate."""
    rows = (
        ScoreLine.objects.filter(hand__table=table)
        .values("player_id")
        .annotate(total=Sum("amount"))
        .order_by()
        .values_list("player_id", "total")
    )
    return dict(rows)
