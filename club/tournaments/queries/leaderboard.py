"""What the tournament pages read: every round's tables with their seats, hands entered and each
player's total at the table, and the leaderboard built from them.

Four queries whatever the number of rounds, tables or hands: the entries (with names), the seats
of every table, the hands per table (one GROUP BY) and each player's amounts per table (one GROUP
BY over the night's score lines, by table and player). Table-rank points come from those per-table
totals through scoring.tournament; nothing walks the hands in Python.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Sum

from club.clubs.models import Club
from club.play.models import Hand, ScoreLine, Seat
from club.tournaments.models import Entry, Tournament
from scoring.tournament import Method, places, table_rank_points


def points_text(value: Fraction | int) -> str:
    """Table-rank points as the pages write them: "7", "3.5" (points are whole or halves, as
    ties share consecutive places)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.1f}" if value.denominator == 2 else f"{float(value):.2f}"


@dataclass(frozen=True)
class SeatedPlayer:
    id: int
    name: str


@dataclass
class RoundTable:
    """One table of one round."""

    id: int
    round_number: int
    number: int
    first_dealer: int
    players: list[SeatedPlayer] = field(default_factory=list)  # in seat order
    hands: int = 0
    totals: dict[int, int] = field(default_factory=dict)  # player id -> amount at this table
    # Table-rank points of the round (None until the table has a hand).
    points: dict[int, Fraction] | None = None

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def sits_out(self) -> bool:
        """A table of five: one player sits out each hand."""
        return self.size == 5

    @property
    def dealer(self) -> SeatedPlayer | None:
        return self.players[self.first_dealer % self.size] if self.players else None

    def complete(self, hands_per_round: int) -> bool:
        return self.hands >= hands_per_round


@dataclass(frozen=True)
class RoundCell:
    """A player's round: the table they sat at (None when not seated), their amount there and
    their table-rank points (None before the table's first hand)."""

    table: int | None
    amount: int | None
    points: Fraction | None

    def value(self, method: Method) -> Fraction | int | None:
        return self.points if method is Method.TABLE_RANK else self.amount


@dataclass
class BoardRow:
    player_id: int
    name: str
    cells: list[RoundCell]  # one per round shown
    amount: int  # the amounts summed, every round
    points: Fraction  # table-rank points summed
    hands: int  # hands played (not sitting out)
    joined_round: int = 1
    withdrawn_after: int | None = None
    rank: int = 0

    def score(self, method: Method) -> Fraction | int:
        return self.points if method is Method.TABLE_RANK else self.amount


@dataclass
class Board:
    tournament: Tournament
    method: Method
    rounds: list[int]  # the rounds drawn so far, 1..current_round
    tables: list[RoundTable]
    rows: list[BoardRow]  # best first

    def round_tables(self, round_number: int) -> list[RoundTable]:
        return [t for t in self.tables if t.round_number == round_number]

    @property
    def current_tables(self) -> list[RoundTable]:
        return self.round_tables(self.tournament.current_round)

    @property
    def hands(self) -> int:
        return sum(t.hands for t in self.tables)

    @property
    def sitting_out_players(self) -> int:
        """How many of the current round's players are at tables of five."""
        return sum(t.size for t in self.current_tables if t.sits_out)

    @property
    def complete_count(self) -> int:
        """How many of the current round's tables have entered all their hands."""
        per = self.tournament.hands_per_round
        return sum(1 for t in self.current_tables if t.complete(per))

    @property
    def uses_points(self) -> bool:
        return self.method is Method.TABLE_RANK


def _tables(tournament: Tournament) -> dict[int, RoundTable]:
    """Every table of the tournament with its seats (one query), hand counts (one) and each
    player's total at it (one)."""
    night_id = tournament.night_id
    tables: dict[int, RoundTable] = {}
    seats = (
        Seat.objects.filter(table__night_id=night_id)
        .order_by("table__round_number", "table__number", "position")
        .values_list(
            "table_id",
            "table__round_number",
            "table__number",
            "table__first_dealer",
            "player_id",
            "player__name",
        )
    )
    for table_id, round_number, number, first_dealer, player_id, name in seats:
        table = tables.get(table_id)
        if table is None:
            table = tables[table_id] = RoundTable(table_id, round_number, number, first_dealer)
        table.players.append(SeatedPlayer(player_id, name))
    hands = (
        Hand.objects.filter(table__night_id=night_id)
        .values("table_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("table_id", "n")
    )
    for table_id, n in hands:
        if table_id in tables:
            tables[table_id].hands = n
    return tables


def _line_totals(tournament: Tournament) -> list[tuple[int, int, int, int]]:
    """(table id, player id, amount, hands played) per table and player: one GROUP BY."""
    return list(
        ScoreLine.objects.filter(night_id=tournament.night_id)
        .values("hand__table_id", "player_id")
        .annotate(total=Sum("amount"), n=Count("id"))
        .order_by()
        .values_list("hand__table_id", "player_id", "total", "n")
    )


def leaderboard(tournament: Tournament) -> Board:
    """Round-by-round figures for every entrant, ranked by the tournament's method (table-rank
    ties broken by the amounts summed, then shared)."""
    method = tournament.method
    tables = _tables(tournament)
    played: dict[int, int] = defaultdict(int)
    for table_id, player_id, total, n in _line_totals(tournament):
        table = tables.get(table_id)
        if table is not None:
            table.totals[player_id] = total
        played[player_id] += n
    for table in tables.values():
        if table.hands:
            totals = {p.id: table.totals.get(p.id, 0) for p in table.players}
            table.points = table_rank_points(totals)

    rounds = list(range(1, tournament.current_round + 1))
    entries = list(
        Entry.objects.filter(tournament=tournament).values_list(
            "player_id", "player__name", "joined_round", "withdrawn_after_round"
        )
    )
    people: dict[int, tuple[str, int, int | None]] = {
        pid: (name, joined, withdrawn) for pid, name, joined, withdrawn in entries
    }
    seat_of: dict[tuple[int, int], RoundTable] = {}
    for table in tables.values():
        for p in table.players:
            seat_of[(p.id, table.round_number)] = table
            people.setdefault(p.id, (p.name, table.round_number, None))

    rows: dict[int, BoardRow] = {}
    for pid, (name, joined, withdrawn) in people.items():
        cells = []
        for r in rounds:
            table = seat_of.get((pid, r))
            if table is None:
                cells.append(RoundCell(None, None, None))
                continue
            points = table.points.get(pid) if table.points is not None else None
            amount = table.totals.get(pid, 0) if table.hands else None
            cells.append(RoundCell(table.number, amount, points))
        rows[pid] = BoardRow(
            player_id=pid,
            name=name,
            cells=cells,
            amount=sum(c.amount or 0 for c in cells),
            points=sum((c.points or Fraction(0) for c in cells), Fraction(0)),
            hands=played.get(pid, 0),
            joined_round=joined,
            withdrawn_after=withdrawn,
        )
    # Equal players are listed by name.
    by_name = sorted(rows.values(), key=lambda r: (r.name.casefold(), r.name))
    scores = {r.player_id: r.score(method) for r in by_name}
    tiebreak = {r.player_id: r.amount for r in by_name} if method is Method.TABLE_RANK else None
    ordered = []
    for rank, pid in places(scores, tiebreak):
        row = rows[pid]
        row.rank = rank
        ordered.append(row)
    board_tables = sorted(tables.values(), key=lambda t: (t.round_number, t.number))
    return Board(tournament, method, rounds, board_tables, ordered)


@dataclass(frozen=True)
class SeatLine:
    """One line of the seat list sorted by name: where a player sits in the round."""

    name: str
    table: int
    seat: int
    sits_out: bool  # at a table of five


def seat_list(board: Board, round_number: int) -> list[SeatLine]:
    """The round's players by name, each with their table and seat (for the printed list)."""
    lines = [
        SeatLine(p.name, t.number, position, t.sits_out)
        for t in board.round_tables(round_number)
        for position, p in enumerate(t.players, start=1)
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.name))


# -- the leaderboard as the pages and the results sheet write it -----------------------------------


@dataclass(frozen=True)
class Figure:
    """A figure as written, with its sign for colouring (gains green, losses red)."""

    text: str
    sign: int = 0

    @property
    def css(self) -> str:
        return "gain" if self.sign > 0 else "loss" if self.sign < 0 else ""


@dataclass(frozen=True)
class ShownCell:
    figure: Figure
    table: int | None  # the table number that round; None when not seated


@dataclass(frozen=True)
class ShownRow:
    rank: int
    shared: bool  # the rank is shared with another player
    player_id: int
    name: str
    cells: list[ShownCell]
    total: Figure  # what the leaderboard ranks by
    amount: Figure  # the amounts summed (the tiebreak under table-rank points)
    hands: int
    note: str  # "joined in round 2", "withdrew after round 1"


NOT_SEATED = "—"
NO_HANDS_YET = "·"


def shown_rows(board: Board, club: Club) -> list[ShownRow]:
    """Every row's figures as text: amounts in the club's unit with a sign, points as "3.5"."""

    def money(amount: int) -> Figure:
        return Figure(club.format_amount(amount, signed=True), amount)

    def cell(c: RoundCell) -> ShownCell:
        if c.table is None:
            return ShownCell(Figure(NOT_SEATED), None)
        if c.amount is None:
            return ShownCell(Figure(NO_HANDS_YET), c.table)
        if board.uses_points:
            return ShownCell(Figure(points_text(c.points or 0)), c.table)
        return ShownCell(money(c.amount), c.table)

    ranks = [row.rank for row in board.rows]
    rows = []
    for row in board.rows:
        notes = []
        if row.joined_round > 1:
            notes.append(f"joined in round {row.joined_round}")
        if row.withdrawn_after is not None:
            notes.append(f"withdrew after round {row.withdrawn_after}")
        rows.append(
            ShownRow(
                rank=row.rank,
                shared=ranks.count(row.rank) > 1,
                player_id=row.player_id,
                name=row.name,
                cells=[cell(c) for c in row.cells],
                total=Figure(points_text(row.points)) if board.uses_points else money(row.amount),
                amount=money(row.amount),
                hands=row.hands,
                note=", ".join(notes),
            )
        )
    return rows
